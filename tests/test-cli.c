/* test-cli.c — agent-cli as a black box: the real binary against a real HTTP server
 *
 * Each case runs $AGENT_CLI with pipes on its standard streams while this
 * process serves the scripted answers of an AgentTestServer from its main
 * loop, then checks what the child printed, how it exited and what it sent.
 * This program covers --json output, tools, input, options and plain
 * output; test-cli-errors.c covers errors, signals and the demo server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

static const char * const text_deltas[] = {
  "Hello", ", \"wörld\"", "\n", "tab\there", " \\ end", "!", NULL
};
#define TEXT_CONTENT "Hello, \"wörld\"\ntab\there \\ end!"

/* --json: text */

static void
test_json_text (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;
  g_autofree char *text = NULL;
  JsonObject *body;
  JsonObject *step;

  agent_test_openai_add_text_response (server, text_deltas, 10, 6);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Say hello"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");

  /* One line per content delta, in order; the empty role delta prints nothing. */
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==,
                   "text-delta text-delta text-delta text-delta text-delta text-delta "
                   "step-finished done");
  for (guint i = 0; text_deltas[i] != NULL; i++)
    g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "text-delta", i),
                                            "text"), ==, text_deltas[i]);

  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, TEXT_CONTENT);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, TEXT_CONTENT);

  step = agent_test_process_nth_event (cli, "step-finished", 0);
  g_assert_cmpstr (agent_test_get_string (step, "finish-reason"), ==, "stop");
  agent_test_cli_assert_usage (step, 10, 6, 16);
  agent_test_cli_assert_usage (agent_test_process_last_event (cli), 10, 6, 16);

  /* The request: no key, no Authorization header. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/chat/completions");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  body = agent_test_openai_get_request (server, 0);
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (server, 0)), ==, 1);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (server, 0), ==, "Say hello");
  /* No tool enabled, none offered. */
  g_assert_true (!json_object_has_member (body, "tools") ||
                 json_array_get_length (json_object_get_array_member (body, "tools")) == 0);
}

/* OPENAI_API_KEY unset behaves like empty: no header. */
static void
test_json_no_key (void)
{
  static const char * const deltas[] = { "Hi", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);
  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY"), NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Hi");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
}

/* GLib's logs (AGENT_DEBUG's, G_MESSAGES_DEBUG's) go to stderr: stdout
 * holds the events alone, one JSON object a line. */
static void
test_json_logs (void)
{
  static const char * const deltas[] = { "Hi", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);
  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("AGENT_DEBUG=http", "G_MESSAGES_DEBUG=all"),
                                 NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 0);
  agent_test_process_parse_json (cli);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Hi");
  /* The request AGENT_DEBUG=http shows, on stderr */
  agent_test_assert_contains (cli->err->str, "/v1/chat/completions");
}

/* "First", then a pause until the test releases the server, " second" */
static void
add_paused_answer (AgentTestServer *server)
{
  AgentTestResponse *response = agent_test_openai_begin (server, "");

  agent_test_openai_add_text (response, "First");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, " second");
  agent_test_openai_add_end (response, "stop", 3, 2);
}

/* Each line is flushed as it is produced: the first delta is readable while
 * the server still holds back the rest. */
static void
test_json_flush (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(GPtrArray) so_far = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;

  add_paused_answer (server);

  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS ("--json", "--base-url",
                                                           agent_test_server_get_base_url (server),
                                                           "Go"));

  agent_test_cli_wait_for_text_deltas (cli, 1);
  /* The server holds back the rest until released (which only works once
   * it reached the wait): the line came out before the answer was over. */
  agent_test_server_wait_until_waiting (server);
  g_assert_false (cli->exited);

  so_far = agent_test_parse_json_lines (cli->out);
  g_assert_cmpuint (so_far->len, ==, 1);
  g_assert_cmpstr (agent_test_event_type (g_ptr_array_index (so_far, 0)), ==, "text-delta");
  g_assert_cmpstr (agent_test_get_string (g_ptr_array_index (so_far, 0), "text"), ==, "First");

  agent_test_server_release (server);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==, "text-delta text-delta step-finished done");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "First second");
}

static gboolean
out_has_first (gpointer data)
{
  AgentTestProcess *cli = data;

  return strstr (cli->out->str, "First") != NULL;
}

/* Plain text too: standard output holds the deltas of one read of the
 * stream together (one write for them), but writes them before waiting
 * for more: the first is readable while the server holds back the rest */
static void
test_plain_flush (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_paused_answer (server);

  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS ("--base-url",
                                                           agent_test_server_get_base_url (server),
                                                           "Go"));
  agent_test_server_wait_until_waiting (server);
  agent_test_wait_until_timeout (out_has_first, cli, AGENT_TEST_PROCESS_WAIT_SECONDS);
  g_assert_false (cli->exited);
  g_assert_cmpstr (cli->out->str, ==, "First");

  agent_test_server_release (server);
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "First second\n");
}

/* A finish reason without [DONE] is a complete answer. */
static void
test_json_no_done_marker (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *response;

  response = agent_test_openai_begin (server, "");
  agent_test_openai_add_text (response, "Complete");
  agent_test_openai_add_text (response, " anyway");
  agent_test_openai_add_finish (response, "stop");
  agent_test_openai_add_usage (response, 4, 2);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Complete anyway");
  g_assert_cmpuint (agent_test_process_count_events (cli, "error"), ==, 0);
}

/* Tools */

static const AgentTestToolChunk calculator_chunks[] = {
  { 0, "call_1", "calculator", "" },
  { 0, NULL, NULL, "{\"expr" },
  { 0, NULL, NULL, "ession\":" },
  { 0, NULL, NULL, " \"2*7\"}" },
};
#define CALCULATOR_ARGUMENTS "{\"expression\": \"2*7\"}"

static void
test_tools_calculator (void)
{
  static const char * const answer[] = { "2*7 is ", "14.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;
  JsonObject *event;
  JsonObject *message;
  JsonObject *call;
  JsonArray *tools;
  JsonArray *calls;

  agent_test_openai_add_tool_response (server, calculator_chunks, G_N_ELEMENTS (calculator_chunks),
                                       20, 5);
  agent_test_openai_add_text_response (server, answer, 30, 4);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--tool", "calculator", "--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "What is 2*7?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-finished "
                   "text-delta text-delta step-finished done");

  event = agent_test_process_nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, CALCULATOR_ARGUMENTS);

  event = agent_test_process_nth_event (cli, "step-finished", 0);
  g_assert_cmpstr (agent_test_get_string (event, "finish-reason"), ==, "tool_calls");
  agent_test_cli_assert_usage (event, 20, 5, 25);

  event = agent_test_process_nth_event (cli, "tool-started", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, CALCULATOR_ARGUMENTS);

  event = agent_test_process_nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_get_string (event, "result"), ==, "14");
  g_assert_false (json_object_has_member (event, "error"));

  event = agent_test_process_nth_event (cli, "step-finished", 1);
  g_assert_cmpstr (agent_test_get_string (event, "finish-reason"), ==, "stop");
  agent_test_cli_assert_usage (event, 30, 4, 34);

  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "2*7 is 14.");
  agent_test_cli_assert_usage (agent_test_process_last_event (cli), 50, 9, 59);
  agent_test_cli_assert_usage_summed (cli);

  /* Without --show-tool-call-chunks, no chunks. */
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-call-delta"), ==, 0);

  /* The first request offered the calculator. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  tools = json_object_get_array_member (agent_test_openai_get_request (server, 0), "tools");
  g_assert_nonnull (tools);
  g_assert_cmpuint (json_array_get_length (tools), ==, 1);
  g_assert_cmpstr (agent_test_openai_function_string (tools, 0, "name"), ==, "calculator");

  /* The second: user, the assistant's call byte for byte, then its result. */
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (server, 1)), ==, 3);
  g_assert_cmpstr (agent_test_openai_get_message_string (server, 1, 0, "role"), ==, "user");
  message = agent_test_openai_get_message (server, 1, 1);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "assistant");
  calls = json_object_get_array_member (message, "tool_calls");
  g_assert_nonnull (calls);
  g_assert_cmpuint (json_array_get_length (calls), ==, 1);
  call = json_array_get_object_element (calls, 0);
  g_assert_cmpstr (agent_test_get_string (call, "id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (call, "type"), ==, "function");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "arguments"), ==,
                   CALCULATOR_ARGUMENTS);
  message = agent_test_openai_get_message (server, 1, 2);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "tool");
  g_assert_cmpstr (agent_test_get_string (message, "tool_call_id"), ==, "call_1");
  g_assert_cmpstr (agent_test_get_string (message, "content"), ==, "14");
}

/* Two calls whose fragments interleave on the wire. */
static const AgentTestToolChunk parallel_chunks[] = {
  { 0, "call_a", "calculator", "" },
  { 1, "call_b", "calculator", "" },
  { 0, NULL, NULL, "{\"expression\":" },
  { 1, NULL, NULL, "{\"expression\"" },
  { 0, NULL, NULL, "\"2*7\"}" },
  { 1, NULL, NULL, ":\"10-4\"}" },
};
#define ARGUMENTS_A "{\"expression\":\"2*7\"}"
#define ARGUMENTS_B "{\"expression\":\"10-4\"}"

static int
event_position (AgentTestProcess        *self,
                const char *type,
                const char *id)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (self->events, i);

      if (g_str_equal (agent_test_event_type (event), type) &&
          g_strcmp0 (json_object_get_string_member_with_default (event, "id", NULL), id) == 0)
        return i;
    }

  g_error ("No %s event for %s in:\n%s", type, id, self->out->str);
  return -1;
}

static void
check_parallel_request (AgentTestServer *server)
{
  JsonObject *message;
  JsonArray *calls;

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (server, 1)), ==, 4);

  message = agent_test_openai_get_message (server, 1, 1);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "assistant");
  calls = json_object_get_array_member (message, "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_cmpstr (agent_test_get_string (json_array_get_object_element (calls, 0), "id"), ==,
                   "call_a");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "arguments"), ==, ARGUMENTS_A);
  g_assert_cmpstr (agent_test_get_string (json_array_get_object_element (calls, 1), "id"), ==,
                   "call_b");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 1, "arguments"), ==, ARGUMENTS_B);

  /* Both results follow the assistant message. */
  g_assert_cmpstr (agent_test_openai_get_message_string (server, 1, 2, "role"), ==, "tool");
  g_assert_cmpstr (agent_test_openai_get_message_string (server, 1, 3, "role"), ==, "tool");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_a"), ==, "14");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_b"), ==, "6");
}

static void
check_parallel_events (AgentTestProcess *cli)
{
  JsonObject *event;
  int step;

  /* Both calls, in order, before the step ends; the tools run after it. */
  event = agent_test_process_nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_a");
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, ARGUMENTS_A);
  event = agent_test_process_nth_event (cli, "tool-call", 1);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_b");
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, ARGUMENTS_B);
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-call"), ==, 2);

  step = event_position (cli, "step-finished", NULL);
  g_assert_cmpint (event_position (cli, "tool-call", "call_b"), <, step);
  g_assert_cmpint (step, <, event_position (cli, "tool-started", "call_a"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_a"), <,
                   event_position (cli, "tool-started", "call_b"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_a"), <,
                   event_position (cli, "tool-finished", "call_a"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_b"), <,
                   event_position (cli, "tool-finished", "call_b"));
  g_assert_cmpint (event_position (cli, "tool-finished", "call_b"), <,
                   event_position (cli, "text-delta", NULL));
  g_assert_cmpint (event_position (cli, "tool-finished", "call_a"), <,
                   event_position (cli, "text-delta", NULL));
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-started"), ==, 2);
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-finished"), ==, 2);

  event = g_ptr_array_index (cli->events, event_position (cli, "tool-started", "call_b"));
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, ARGUMENTS_B);
  event = g_ptr_array_index (cli->events, event_position (cli, "tool-finished", "call_a"));
  g_assert_cmpstr (agent_test_get_string (event, "result"), ==, "14");
  event = g_ptr_array_index (cli->events, event_position (cli, "tool-finished", "call_b"));
  g_assert_cmpstr (agent_test_get_string (event, "result"), ==, "6");

  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "14 and 6.");
  agent_test_cli_assert_usage_summed (cli);
}

static void
test_tools_parallel (void)
{
  static const char * const answer[] = { "14 and 6.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_tool_response (server, parallel_chunks, G_N_ELEMENTS (parallel_chunks),
                                       20, 12);
  agent_test_openai_add_text_response (server, answer, 40, 4);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "2*7 and 10-4?"));

  agent_test_process_assert_exit (cli, 0);
  check_parallel_events (cli);
  check_parallel_request (server);
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-call-delta"), ==, 0);
}

/* --show-tool-call-chunks: every delta, with the call's index, id and name. */
static void
test_tools_chunks (void)
{
  static const char * const answer[] = { "14 and 6.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  GString *arguments[2];
  int last_delta = -1;
  guint n_deltas = 0;

  agent_test_openai_add_tool_response (server, parallel_chunks, G_N_ELEMENTS (parallel_chunks),
                                       20, 12);
  agent_test_openai_add_text_response (server, answer, 40, 4);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--show-tool-call-chunks", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "2*7 and 10-4?"));

  agent_test_process_assert_exit (cli, 0);
  check_parallel_events (cli);
  check_parallel_request (server);

  arguments[0] = g_string_new (NULL);
  arguments[1] = g_string_new (NULL);
  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);
      gint64 index;

      if (!g_str_equal (agent_test_event_type (event), "tool-call-delta"))
        continue;

      n_deltas++;
      last_delta = i;
      g_assert_true (json_object_has_member (event, "index"));
      index = json_object_get_int_member (event, "index");
      g_assert_cmpint (index, >=, 0);
      g_assert_cmpint (index, <=, 1);
      /* Every fragment on the wire came after its call's header. */
      g_assert_cmpstr (agent_test_get_string (event, "id"), ==, index == 0 ? "call_a" : "call_b");
      g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "calculator");
      g_assert_nonnull (agent_test_get_string (event, "arguments-delta"));
      g_string_append (arguments[index], agent_test_get_string (event, "arguments-delta"));
    }

  /* At least each non-empty fragment, as it arrived, before the calls complete. */
  g_assert_cmpuint (n_deltas, >=, 4);
  g_assert_cmpint (last_delta, <, event_position (cli, "tool-call", "call_a"));
  g_assert_cmpstr (arguments[0]->str, ==, ARGUMENTS_A);
  g_assert_cmpstr (arguments[1]->str, ==, ARGUMENTS_B);
  g_string_free (arguments[0], TRUE);
  g_string_free (arguments[1], TRUE);
}

/* The index is the position in the message, in order of first appearance,
 * whatever numbers the server uses. */
static void
test_tools_chunks_index (void)
{
  static const AgentTestToolChunk chunks[] = {
    { 3, "call_x", "calculator", "{\"expression\":\"1+1\"}" },
    { 1, "call_y", "calculator", "{\"expression\":" },
    { 1, NULL, NULL, "\"3*3\"}" },
  };
  static const char * const answer[] = { "2 and 9.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonArray *calls;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 5, 5);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--show-tool-call-chunks", "--base-url",
                                                  agent_test_server_get_base_url (server), "Sums"));

  agent_test_process_assert_exit (cli, 0);
  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);

      if (g_str_equal (agent_test_event_type (event), "tool-call-delta"))
        g_assert_cmpint (json_object_get_int_member (event, "index"), ==,
                         g_str_equal (agent_test_get_string (event, "id"), "call_x") ? 0 : 1);
    }
  g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "tool-call", 0), "id"),
                   ==, "call_x");
  g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "tool-call", 1), "id"),
                   ==, "call_y");
  g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "tool-finished", 0),
                                          "result"), ==, "2");
  g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "tool-finished", 1),
                                          "result"), ==, "9");

  calls = json_object_get_array_member (agent_test_openai_get_message (server, 1, 1), "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_cmpstr (agent_test_get_string (json_array_get_object_element (calls, 0), "id"), ==,
                   "call_x");
  g_assert_cmpstr (agent_test_get_string (json_array_get_object_element (calls, 1), "id"), ==,
                   "call_y");
}

/* A call to a tool that is not enabled fails that call, not the turn. */
static void
test_tools_unknown (void)
{
  static const AgentTestToolChunk chunks[] = {
    { 0, "call_w", "weather", "{\"city\":\"Paris\"}" },
  };
  static const char * const answer[] = { "I cannot check the weather.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;
  const char *error;
  JsonObject *event;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 9, 6);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Weather?"));

  agent_test_process_assert_exit (cli, 0);
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-failed tool-finished text-delta "
                   "step-finished done");
  event = agent_test_process_nth_event (cli, "tool-failed", 0);
  g_assert_cmpstr (agent_test_get_string (event, "code"), ==, "invalid-argument");

  event = agent_test_process_nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_w");
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "weather");
  g_assert_false (json_object_has_member (event, "result"));
  error = agent_test_get_string (event, "error");
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "weather"));

  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "I cannot check the weather.");
  agent_test_cli_assert_usage_summed (cli);

  /* The model is told. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_w"), ==, error);
}

static void
add_calculator_calls (AgentTestServer *server,
                      guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%u", i);
      AgentTestToolChunk chunk = { 0, id, "calculator", "{\"expression\":\"1+1\"}" };

      agent_test_openai_add_tool_response (server, &chunk, 1, 1, 1);
    }
}

static void
test_tools_max_steps (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_calculator_calls (server, 3);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--max-steps", "2", "--base-url",
                                                  agent_test_server_get_base_url (server), "Loop"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_cli_assert_error (cli, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpuint (agent_test_process_count_events (cli, "step-finished"), ==, 2);
}

/* A final answer on the last allowed request is a success. */
static void
test_tools_max_steps_enough (void)
{
  static const char * const answer[] = { "Two.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_calculator_calls (server, 1);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--max-steps", "2", "--base-url",
                                                  agent_test_server_get_base_url (server), "1+1?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Two.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
}

/* A tool that fails reports "error" and the model carries on. */
static void
test_tools_calculator_error (void)
{
  static const AgentTestToolChunk chunks[] = {
    { 0, "call_e", "calculator", "{\"expression\":\"2*\"}" },
  };
  static const char * const answer[] = { "That is not an expression.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *event;
  const char *error;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 9, 6);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator", "--base-url",
                                                  agent_test_server_get_base_url (server), "2*?"));

  agent_test_process_assert_exit (cli, 0);
  event = agent_test_process_nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (agent_test_get_string (event, "id"), ==, "call_e");
  g_assert_false (json_object_has_member (event, "result"));
  error = agent_test_get_string (event, "error");
  g_assert_nonnull (error);
  g_assert_cmpstr (error, !=, "");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_e"), ==, error);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "That is not an expression.");
}

static void
test_tools_max_steps_default (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_calculator_calls (server, 11);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator", "--base-url",
                                                  agent_test_server_get_base_url (server), "Loop"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_cli_assert_error (cli, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 10);
}

/* Input and options */

static void
test_input_stdin (void)
{
  static const char * const deltas[] = { "Fine.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_full (NULL, "How are you,\nmodel?\n",
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server)));
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Fine.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (server, 0), ==, "How are you,\nmodel?");
}

static void
test_input_words (void)
{
  static const char * const deltas[] = { "Yes.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Is", "this", "one prompt?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (server, 0), ==, "Is this one prompt?");
}

static void
test_options_system_and_model (void)
{
  static const char * const deltas[] = { "Ok.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *message;

  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--provider", "openai",
                                                  "--system", "Answer in one word.",
                                                  "--model", "gpt-test-9",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Hi"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_get_string (agent_test_openai_get_request (server, 0), "model"), ==,
                   "gpt-test-9");
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (server, 0)), ==, 2);
  message = agent_test_openai_get_message (server, 0, 0);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "system");
  g_assert_cmpstr (agent_test_get_string (message, "content"), ==, "Answer in one word.");
  message = agent_test_openai_get_message (server, 0, 1);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "user");
  g_assert_cmpstr (agent_test_get_string (message, "content"), ==, "Hi");
}

static void
test_options_base_url_slash (void)
{
  static const char * const deltas[] = { "Ok.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *url = g_strconcat (agent_test_server_get_base_url (server), "/", NULL);
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", url, "Hi"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Ok.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/chat/completions");
}

typedef struct
{
  const char *option;
  const char *value;
  const char *mentioned;   /* the message names what is wrong */
} BadOption;

static void
test_options_invalid (void)
{
  static const BadOption cases[] = {
    { "--base-url", "not a url", "not a url" },
    { "--base-url", "ftp://example.com/v1", "ftp://example.com/v1" },
    { "--base-url", "", "base-url" },
    { "--provider", "nope-provider", "nope-provider" },
    { "--tool", "nope-tool", "nope-tool" },
    { "--max-steps", "0", "max-steps" },
    { "--max-steps", "-2", "max-steps" },
    { "--max-steps", "many", "many" },
    { "--max-tool-calls", "-1", "max-tool-calls" },
    { "--max-tool-calls", "few", "max-tool-calls" },
    { "--tool-timeout", "-2", "tool-timeout" },
    { "--tool-timeout", "abc", "tool-timeout" },
    { "--no-such-option", "x", "no-such-option" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *base_url = agent_test_server_get_base_url (server);
      g_autoptr(AgentTestProcess) plain = NULL;
      g_autoptr(AgentTestProcess) json = NULL;

      g_test_message ("%s “%s”", cases[i].option, cases[i].value);

      /* The option under test comes last, so a bad --base-url wins over the server's. */
      plain = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", base_url, cases[i].option,
                                                   cases[i].value, "Hi"));
      agent_test_process_assert_exit (plain, 1);
      g_assert_cmpstr (plain->out->str, ==, "");
      if (strstr (plain->err->str, cases[i].mentioned) == NULL)
        g_error ("%s “%s”: the message does not mention “%s”:\n%s", cases[i].option,
                 cases[i].value, cases[i].mentioned, plain->err->str);

      json = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--base-url", base_url, cases[i].option,
                                                  cases[i].value, "Hi"));
      agent_test_process_assert_exit (json, 1);
      /* A usage error found by the option parser may come before --json applies;
       * anything printed on stdout must still be one error line. */
      if (json->out->len > 0)
        {
          const char *code;

          agent_test_process_parse_json (json);
          g_assert_cmpuint (json->events->len, ==, 1);
          code = agent_test_get_string (agent_test_process_last_event (json), "code");
          agent_test_cli_assert_error (json, code);
        }
      else
        g_assert_cmpstr (json->err->str, !=, "");
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

static void
test_input_empty (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) args = NULL;
  g_autoptr(AgentTestProcess) input = NULL;

  args = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--base-url",
                                              agent_test_server_get_base_url (server), "  "));
  agent_test_process_parse_json (args);
  agent_test_process_assert_exit (args, 1);
  agent_test_cli_assert_error (args, "invalid-argument");

  input = agent_test_cli_run_full (NULL, "\n\n",
                                   AGENT_TEST_ARGS ("--json", "--base-url",
                                                    agent_test_server_get_base_url (server)));
  agent_test_process_parse_json (input);
  agent_test_process_assert_exit (input, 1);
  agent_test_cli_assert_error (input, "invalid-argument");

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

/* Plain output */

static void
test_plain_text (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, text_deltas, 10, 6);

  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (server),
                                             "Say hello"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, TEXT_CONTENT "\n");
  g_assert_cmpstr (cli->err->str, ==, "");
}

static void
test_plain_tools (void)
{
  static const char * const answer[] = { "2*7 is ", "14.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_tool_response (server, calculator_chunks, G_N_ELEMENTS (calculator_chunks),
                                       20, 5);
  agent_test_openai_add_text_response (server, answer, 30, 4);

  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "calculator", "--base-url",
                                             agent_test_server_get_base_url (server),
                                             "What is 2*7?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "2*7 is 14.\n");
  g_assert_nonnull (strstr (cli->err->str, "calculator"));
  g_assert_nonnull (strstr (cli->err->str, CALCULATOR_ARGUMENTS));
  g_assert_nonnull (strstr (cli->err->str, "14"));
  g_assert_null (strstr (cli->err->str, "\033["));
}

/* Plain mode ends a text that has no final newline with one, and only one. */
static void
test_plain_trailing_newline (void)
{
  static const char * const deltas[] = { "Line one\n", "line two\n", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (server, deltas, 1, 1);

  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (server),
                                             "Two lines"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Line one\nline two\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/json/text", test_json_text);
  g_test_add_func ("/cli/json/no-key", test_json_no_key);
  g_test_add_func ("/cli/json/logs", test_json_logs);
  g_test_add_func ("/cli/json/flush", test_json_flush);
  g_test_add_func ("/cli/json/no-done-marker", test_json_no_done_marker);
  g_test_add_func ("/cli/tools/calculator", test_tools_calculator);
  g_test_add_func ("/cli/tools/parallel", test_tools_parallel);
  g_test_add_func ("/cli/tools/chunks", test_tools_chunks);
  g_test_add_func ("/cli/tools/chunks-index", test_tools_chunks_index);
  g_test_add_func ("/cli/tools/unknown", test_tools_unknown);
  g_test_add_func ("/cli/tools/max-steps", test_tools_max_steps);
  g_test_add_func ("/cli/tools/max-steps-default", test_tools_max_steps_default);
  g_test_add_func ("/cli/tools/max-steps-enough", test_tools_max_steps_enough);
  g_test_add_func ("/cli/tools/calculator-error", test_tools_calculator_error);
  g_test_add_func ("/cli/input/stdin", test_input_stdin);
  g_test_add_func ("/cli/input/words", test_input_words);
  g_test_add_func ("/cli/input/empty", test_input_empty);
  g_test_add_func ("/cli/options/system-and-model", test_options_system_and_model);
  g_test_add_func ("/cli/options/base-url-slash", test_options_base_url_slash);
  g_test_add_func ("/cli/options/invalid", test_options_invalid);
  g_test_add_func ("/cli/plain/text", test_plain_text);
  g_test_add_func ("/cli/plain/flush", test_plain_flush);
  g_test_add_func ("/cli/plain/tools", test_plain_tools);
  g_test_add_func ("/cli/plain/trailing-newline", test_plain_trailing_newline);

  return g_test_run ();
}
