/* test-cli-context.c — agent-cli with a conversation too long for the
 * model: the context-length error kind, --compact auto and its
 * `compacted` event, --context-window and the options' mistakes
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
#include "test-store-util.h"

#define TOO_LONG \
  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is " \
  "too long: 1200 tokens > 1000 maximum\"}}"

typedef struct
{
  TestStore        db;
  AgentTestServer *server;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  test_store_open (&f->db);
  g_clear_object (&f->db.store);  /* agent-cli has the file to itself */
  f->server = agent_test_server_new ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_server_free (f->server);
  test_store_assert_sound (f->db.path);
  test_store_close (&f->db);
}

/* agent-cli [--json] --store FILE --base-url URL …ARGS */
static AgentTestProcess *
run (Fixture            *f,
     gboolean            json,
     const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  AgentTestProcess *cli;

  if (json)
    g_ptr_array_add (argv, (gpointer) "--json");
  g_ptr_array_add (argv, (gpointer) "--store");
  g_ptr_array_add (argv, f->db.path);
  g_ptr_array_add (argv, (gpointer) "--base-url");
  g_ptr_array_add (argv, (gpointer) agent_test_server_get_base_url (f->server));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  cli = agent_test_cli_spawn (NULL, NULL, (const char * const *) argv->pdata);
  agent_test_process_wait (cli);
  if (json)
    agent_test_process_parse_json (cli);
  return cli;
}

static void
add_answer (Fixture    *f,
            const char *text)
{
  const char *deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, 30, 5);
}

static void
add_too_long (Fixture *f)
{
  agent_test_response_set_body (agent_test_server_add_response (f->server, 400),
                                "application/json", TOO_LONG);
}

static gboolean
request_mentions (Fixture    *f,
                  guint       index,
                  const char *text)
{
  g_autofree char *body = json_to_string (agent_test_server_get_request_body (f->server, index),
                                          FALSE);

  return strstr (body, text) != NULL;
}

static void
first_turn (Fixture *f)
{
  g_autoptr(AgentTestProcess) cli = NULL;

  add_answer (f, "An old answer.");
  cli = run (f, TRUE, AGENT_TEST_ARGS ("--model", "test-model", "An old question"));
  agent_test_process_assert_exit (cli, 0);
}

/* Without --compact, the error says its kind, in both outputs */
static void
test_error_kind (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AgentTestProcess) json = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  const char *message;

  first_turn (f);

  add_too_long (f);
  json = run (f, TRUE, AGENT_TEST_ARGS ("--continue", "Next"));
  agent_test_process_assert_exit (json, 1);
  message = agent_test_cli_assert_error (json, "context-length");
  agent_test_assert_contains (message, "1200");
  agent_test_assert_contains (message, "1000");

  add_too_long (f);
  plain = run (f, FALSE, AGENT_TEST_ARGS ("--continue", "Next again"));
  agent_test_process_assert_exit (plain, 1);
  agent_test_assert_contains (plain->err->str, "(context-length)");
  agent_test_assert_contains (plain->err->str, "--compact auto");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
}

/* --compact auto: compacted, sent again, and a `compacted` event */
static void
test_compact_auto (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *event;

  first_turn (f);

  add_too_long (f);
  add_answer (f, "A new answer.");
  cli = run (f, TRUE, AGENT_TEST_ARGS ("--continue", "--compact", "auto", "--compact-strategy",
                                       "keep-last", "--keep-turns", "1", "New question"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "A new answer.");

  g_assert_true (request_mentions (f, 1, "An old question"));
  g_assert_false (request_mentions (f, 2, "An old question"));
  g_assert_true (request_mentions (f, 2, "New question"));

  g_assert_cmpuint (agent_test_process_count_events (cli, "compacted"), ==, 1);
  event = agent_test_process_nth_event (cli, "compacted", 0);
  g_assert_cmpstr (json_object_get_string_member (event, "strategy"), ==, "keep-last");
  g_assert_cmpint (json_object_get_int_member (event, "start"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (event, "end"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (event, "tokens-after"), <,
                   json_object_get_int_member (event, "tokens-before"));
  g_assert_false (json_object_has_member (event, "summary"));
}

/* A summary is announced, not printed as the answer */
static void
test_summary_plain (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *summary[] = { "They talked.", NULL };

  first_turn (f);

  agent_test_openai_add_text_response (f->server, summary, 30, 5);
  add_answer (f, "Fresh answer.");
  /* 35 tokens used of 40: past 80 % before the request */
  cli = run (f, FALSE, AGENT_TEST_ARGS ("--continue", "--compact", "auto", "--context-window", "40",
                                        "--keep-turns", "1", "Fresh question"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Fresh answer.\n");
  agent_test_assert_contains (cli->err->str, "Summarizing");
  agent_test_assert_contains (cli->err->str, "Compacted the conversation (summarize)");
  g_assert_true (request_mentions (f, 2, "They talked."));
  g_assert_false (request_mentions (f, 2, "An old answer."));
}

/* --context-window auto: the model list says 40 tokens */
static void
test_window_auto (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *summary[] = { "They talked.", NULL };
  JsonObject *event;

  first_turn (f);

  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "application/json",
                                "{\"data\": [{\"id\": \"test-model\", \"context_length\": 40}]}");
  agent_test_openai_add_text_response (f->server, summary, 30, 5);
  add_answer (f, "Fresh answer.");
  cli = run (f, TRUE, AGENT_TEST_ARGS ("--continue", "--compact", "auto", "--context-window", "auto",
                                       "--keep-turns", "1", "Fresh question"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_str_has_suffix (agent_test_server_get_request_path (f->server, 1), "/models"));
  event = agent_test_process_nth_event (cli, "compacted", 0);
  g_assert_cmpstr (json_object_get_string_member (event, "strategy"), ==, "summarize");
  g_assert_cmpstr (json_object_get_string_member (event, "summary"), ==, "They talked.");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Fresh answer.");
}

static void
test_bad_options (Fixture       *f,
                  gconstpointer  data)
{
  const char * const *cases[] = {
    AGENT_TEST_ARGS ("--compact", "sometimes", "Hi"),
    AGENT_TEST_ARGS ("--compact", "auto", "--compact-strategy", "forget", "Hi"),
    AGENT_TEST_ARGS ("--context-window", "lots", "Hi"),
  };
  const char *expected[] = { "sometimes", "forget", "lots" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentTestProcess) cli = run (f, TRUE, cases[i]);
      const char *message;

      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, "invalid-argument");
      agent_test_assert_contains (message, expected[i]);
    }
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/cli/context/error-kind", test_error_kind);
  ADD ("/cli/context/compact-auto", test_compact_auto);
  ADD ("/cli/context/summary", test_summary_plain);
  ADD ("/cli/context/window-auto", test_window_auto);
  ADD ("/cli/context/bad-options", test_bad_options);

  return g_test_run ();
}
