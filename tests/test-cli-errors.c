/* test-cli-errors.c — agent-cli as a black box: errors, signals and the demo server
 *
 * As in test-cli.c, each case runs $AGENT_CLI against an AgentTestServer
 * served from this process's main loop: here the ways a run can fail (the
 * server's errors, a dropped connection, Ctrl-C), and a whole run against
 * the real demo server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-conn-server.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define SECRET_KEY "sk-test-secret-123"

/* Errors */

#define AUTH_ERROR_BODY \
  "{\"error\":{\"message\":\"Incorrect API key provided: " SECRET_KEY ". You can find your " \
  "API key at https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\"," \
  "\"param\":null,\"code\":\"invalid_api_key\"}}"

static void
assert_no_secret (AgentTestProcess *cli)
{
  if (strstr (cli->out->str, SECRET_KEY) != NULL || strstr (cli->err->str, SECRET_KEY) != NULL)
    g_error ("The API key leaked; stdout:\n%s\nstderr:\n%s", cli->out->str, cli->err->str);
}

static void
test_errors_authentication (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  const char *message;

  agent_test_response_set_body (agent_test_server_add_response (server, 401), "application/json",
                                AUTH_ERROR_BODY);
  agent_test_response_set_body (agent_test_server_add_response (server, 401), "application/json",
                                AUTH_ERROR_BODY);

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "authentication");
  g_assert_cmpint (json_object_get_int_member (agent_test_process_last_event (cli), "http-status"),
                   ==, 401);
  g_assert_nonnull (strstr (message, "Incorrect API key provided"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Authorization"), ==,
                   "Bearer " SECRET_KEY);
  assert_no_secret (cli);

  /* Plain mode says it on stderr, without the key either. */
  plain = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                                   AGENT_TEST_ARGS ("--base-url",
                                                    agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (plain, 1);
  g_assert_cmpstr (plain->out->str, ==, "");
  g_assert_nonnull (strstr (plain->err->str, "Incorrect API key provided"));
  assert_no_secret (plain);
}

/* An error inside the stream that echoes the key. */
static void
test_errors_provider_redacted (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *response;
  const char *message;

  response = agent_test_openai_begin (server, "");
  agent_test_openai_add_text (response, "Partial");
  agent_test_response_add_sse (response,
                               "{\"error\":{\"message\":\"Quota exceeded for key " SECRET_KEY "\","
                               "\"type\":\"insufficient_quota\"}}");

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "provider");
  g_assert_nonnull (strstr (message, "Quota exceeded"));
  assert_no_secret (cli);
}

static void
test_errors_http (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli500 = NULL;
  g_autoptr(AgentTestProcess) cli404 = NULL;
  const char *message;

  agent_test_response_set_body (agent_test_server_add_response (server, 500),
                                "application/json",
                                "{\"error\":{\"message\":\"The server had an error while "
                                "processing your request.\",\"type\":\"server_error\"}}");
  agent_test_response_set_body (agent_test_server_add_response (server, 404), "text/plain",
                                "Not Found");

  cli500 = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--max-retries", "0", "--base-url",
                                                     agent_test_server_get_base_url (server),
                                                     "Hi"));
  agent_test_process_assert_exit (cli500, 1);
  message = agent_test_cli_assert_error (cli500, "http");
  g_assert_cmpint (json_object_get_int_member (agent_test_process_last_event (cli500),
                                               "http-status"), ==, 500);
  g_assert_nonnull (strstr (message, "500"));
  g_assert_nonnull (strstr (message, "The server had an error"));

  cli404 = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                     agent_test_server_get_base_url (server),
                                                     "Hi"));
  agent_test_process_assert_exit (cli404, 1);
  message = agent_test_cli_assert_error (cli404, "http");
  g_assert_cmpint (json_object_get_int_member (agent_test_process_last_event (cli404),
                                               "http-status"), ==, 404);
  g_assert_nonnull (strstr (message, "404"));

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
}

/* A retry line says what the server answered */
static void
test_errors_retry_status (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  const char * const deltas[] = { "Hello.", NULL };
  JsonObject *retry;

  agent_test_response_set_body (agent_test_server_add_response (server, 503), "application/json",
                                "{\"error\":{\"message\":\"Overloaded\"}}");
  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--max-retries", "1", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpuint (agent_test_process_count_events (cli, "retry"), ==, 1);
  retry = agent_test_process_nth_event (cli, "retry", 0);
  g_assert_cmpstr (json_object_get_string_member (retry, "code"), ==, "http");
  g_assert_cmpint (json_object_get_int_member (retry, "http-status"), ==, 503);
}

/* A call that fails: a tool-failed line before its tool-finished */
static void
test_errors_tool_failed (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;
  const char * const deltas[] = { "Sorry.", NULL };
  AgentTestResponse *response;
  JsonObject *failed;
  JsonObject *finished;

  response = agent_test_openai_begin (server, NULL);
  agent_test_openai_add_tool_call (response, 0, "call_1", "calculator", "{\"expression\": 5}");
  agent_test_openai_add_end (response, "tool_calls", 1, 1);
  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--tool", "calculator", "--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Compute"));
  agent_test_process_assert_exit (cli, 0);
  types = agent_test_process_event_types (cli);
  g_assert_true (g_str_has_prefix (types, "tool-call step-finished tool-started tool-failed "
                                          "tool-finished text-delta"));
  failed = agent_test_process_nth_event (cli, "tool-failed", 0);
  finished = agent_test_cli_finished_event (cli, "call_1");
  g_assert_cmpstr (agent_test_get_string (failed, "id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (failed, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_get_string (failed, "code"), ==, "schema");
  g_assert_cmpstr (agent_test_get_string (failed, "message"), ==,
                   "The arguments do not follow the schema of “calculator”: $.expression: "
                   "expected string, got integer");
  g_assert_cmpstr (agent_test_get_string (finished, "error"), ==,
                   agent_test_get_string (failed, "message"));
}

static void
test_errors_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *url = agent_test_closed_port_url (&socket);
  g_autoptr(AgentTestProcess) cli = NULL;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", url, "Hi"));

  /* Tried again twice (the default max-retries), visibly, then the error */
  agent_test_process_assert_exit (cli, 1);
  agent_test_cli_assert_error (cli, "network");
  /* No server answered: no status */
  g_assert_false (json_object_has_member (agent_test_process_last_event (cli), "http-status"));
  g_assert_cmpuint (cli->events->len, ==, 3);
  g_assert_cmpuint (agent_test_process_count_events (cli, "retry"), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *retry = g_ptr_array_index (cli->events, i);

      g_assert_cmpstr (json_object_get_string_member (retry, "type"), ==, "retry");
      g_assert_cmpint (json_object_get_int_member (retry, "attempt"), ==, i + 1);
      g_assert_cmpstr (json_object_get_string_member (retry, "code"), ==, "network");
      g_assert_cmpint (json_object_get_int_member (retry, "delay-ms"), >, 0);
    }
}

static void
test_errors_dropped (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *response;

  response = agent_test_openai_begin (server, "");
  agent_test_openai_add_text (response, "Partial ");
  agent_test_openai_add_text (response, "answer");
  agent_test_response_set_drop (response);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_cli_assert_error (cli, "network");
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, "Partial answer");
  g_assert_cmpuint (agent_test_process_count_events (cli, "text-delta"), ==, 2);
}

/* The body ends cleanly, but with neither a finish reason nor [DONE]. */
static void
test_errors_truncated (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *response;

  response = agent_test_openai_begin (server, "");
  agent_test_openai_add_text (response, "Cut ");
  agent_test_openai_add_text (response, "short");

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_cli_assert_error (cli, "protocol");
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, "Cut short");
}

/* SIGINT */

static AgentTestResponse *
add_endless_response (AgentTestServer *server)
{
  AgentTestResponse *response = agent_test_openai_begin (server, "");

  agent_test_openai_add_text (response, "Streamed ");
  agent_test_openai_add_text (response, "so far");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, " never");
  agent_test_openai_add_finish (response, "stop");
  agent_test_response_add_done (response);
  return response;
}

static void
test_signal_sigint_json (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  g_autofree char *types = NULL;

  add_endless_response (server);

  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS ("--json", "--base-url",
                                                           agent_test_server_get_base_url (server),
                                                           "Talk"));
  agent_test_cli_wait_for_text_deltas (cli, 2);
  agent_test_server_wait_until_waiting (server);
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 130);
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==, "text-delta text-delta error");
  agent_test_cli_assert_error (cli, "cancelled");
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, "Streamed so far");
}

/* Ctrl-C while the server has not even answered yet. */
static void
test_signal_sigint_before_answer (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  agent_test_response_add_wait (response);
  agent_test_openai_add_role (response, "");
  agent_test_openai_add_text (response, "Too late");
  agent_test_openai_add_finish (response, "stop");
  agent_test_response_add_done (response);

  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS ("--json", "--base-url",
                                                           agent_test_server_get_base_url (server),
                                                           "Talk"));
  agent_test_server_wait_until_waiting (server);
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 130);
  g_assert_cmpuint (cli->events->len, ==, 1);
  agent_test_cli_assert_error (cli, "cancelled");
}

static gboolean
has_plain_text (gpointer data)
{
  AgentTestProcess *cli = data;

  return strstr (cli->out->str, "Streamed so far") != NULL || agent_test_process_is_finished (cli);
}

static void
test_signal_sigint_plain (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_endless_response (server);

  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS ("--base-url",
                                                           agent_test_server_get_base_url (server),
                                                           "Talk"));
  if (!agent_test_wait_until_timeout (has_plain_text, cli, AGENT_TEST_PROCESS_WAIT_SECONDS))
    g_error ("The text did not stream; stdout so far:\n%s", cli->out->str);
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);

  agent_test_process_assert_exit (cli, 130);
  g_assert_true (g_str_has_prefix (cli->out->str, "Streamed so far"));
  g_assert_null (strstr (cli->out->str, "never"));
  g_assert_cmpstr (cli->err->str, !=, "");
}

/* The demo server */

static gboolean
has_first_line (gpointer data)
{
  AgentTestProcess *demo = data;

  return strchr (demo->out->str, '\n') != NULL || agent_test_process_is_finished (demo);
}

static void
test_demo_server (void)
{
  const char *path = agent_test_find_program ("AGENT_DEMO_SERVER", "demo", "agent-demo-server");
  g_autoptr(AgentTestProcess) demo = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *url = NULL;
  g_autofree char *types = NULL;
  JsonObject *event;
  JsonNode *arguments;

  /* Its stdin is ours: should this process die, the demo server sees EOF and leaves. */
  demo = agent_test_process_spawn (path, NULL, NULL, AGENT_TEST_PROCESS_KEEP_STDIN,
                                   AGENT_TEST_ARGS ("--delay-ms", "0", "--quiet",
                                                    "--exit-on-stdin-eof"));
  if (!agent_test_wait_until_timeout (has_first_line, demo, AGENT_TEST_PROCESS_WAIT_SECONDS) ||
      strchr (demo->out->str, '\n') == NULL)
    g_error ("The demo server printed no URL; stderr:\n%s", demo->err->str);
  url = g_strndup (demo->out->str, strcspn (demo->out->str, "\r\n"));
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--tool", "calculator", "--json", "--base-url",
                                                  url, "What is 17 * 23 + 4?"));

  agent_test_process_assert_exit (cli, 0);
  types = agent_test_process_event_types (cli);
  g_assert_true (g_str_has_prefix (types, "tool-call step-finished tool-started tool-finished "
                                          "text-delta"));
  g_assert_true (g_str_has_suffix (types, "text-delta step-finished done"));

  event = agent_test_process_nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "calculator");
  arguments = agent_test_parse_json (agent_test_get_string (event, "arguments"));
  g_assert_cmpstr (agent_test_get_string (json_node_get_object (arguments), "expression"), ==,
                   "17 * 23 + 4");
  json_node_unref (arguments);

  event = agent_test_process_nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (agent_test_get_string (event, "result"), ==, "395");
  g_assert_nonnull (strstr (agent_test_cli_done_content (cli), "395"));
  agent_test_cli_assert_usage_summed (cli);

  /* It stops cleanly on SIGTERM. */
  g_subprocess_send_signal (demo->process, SIGTERM);
  agent_test_process_wait (demo);
  agent_test_process_assert_exit (demo, 0);
}

/* A Content-Length below zero: an error that says so, and nothing else
 * (libsoup's own warning about it is no message for a user) */
static void
test_errors_negative_length (void)
{
  AgentTestConnServer *server = agent_test_conn_server_new (FALSE);
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *message;

  agent_test_conn_server_push (server, AGENT_TEST_CONN_NEGATIVE_LENGTH);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--max-retries", "0",
                                                  "--base-url",
                                                  agent_test_conn_server_get_base_url (server),
                                                  "Hi"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "protocol");
  agent_test_assert_contains (message, "Content-Length");
  agent_test_assert_contains (message, "-5");
  g_assert_cmpstr (cli->err->str, ==, "");
  agent_test_conn_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/errors/authentication", test_errors_authentication);
  g_test_add_func ("/cli/errors/provider-redacted", test_errors_provider_redacted);
  g_test_add_func ("/cli/errors/http", test_errors_http);
  g_test_add_func ("/cli/errors/retry-status", test_errors_retry_status);
  g_test_add_func ("/cli/errors/tool-failed", test_errors_tool_failed);
  g_test_add_func ("/cli/errors/refused", test_errors_refused);
  g_test_add_func ("/cli/errors/dropped", test_errors_dropped);
  g_test_add_func ("/cli/errors/truncated", test_errors_truncated);
  g_test_add_func ("/cli/errors/negative-content-length", test_errors_negative_length);
  g_test_add_func ("/cli/signal/sigint-json", test_signal_sigint_json);
  g_test_add_func ("/cli/signal/sigint-plain", test_signal_sigint_plain);
  g_test_add_func ("/cli/signal/sigint-before-answer", test_signal_sigint_before_answer);
  g_test_add_func ("/cli/demo-server", test_demo_server);

  return g_test_run ();
}
