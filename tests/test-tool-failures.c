/* test-tool-failures.c — a call the tool cannot take
 *
 * Arguments are checked against the tool's JSON Schema before any hook,
 * approval or handler sees them (validate-tool-arguments): a mismatch is
 * the call's error result, naming where and why, and the turn goes on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-session-util.h"

#define WEATHER_SCHEMA \
  "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}," \
  "\"days\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"city\"]}"

typedef struct
{
  GPtrArray *failures;  /* "id:result" of each call that failed */
  guint      n_runs;    /* of the weather tool's handler */
  guint      n_checks;  /* of the check-tool-call handler */
} Seen;

static gboolean
weather_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data,
                 GError             **error)
{
  Seen *seen = user_data;

  seen->n_runs++;
  agent_tool_invocation_return_result (invocation, "Sunny");
  return TRUE;
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Seen          *seen)
{
  if (agent_tool_call_is_error (call))
    g_ptr_array_add (seen->failures, g_strdup_printf ("%s:%s", agent_tool_call_get_id (call),
                                                      agent_tool_call_get_result (call)));
}

static AgentToolDecision *
check_tool_call_cb (AgentSession  *session,
                    AgentToolCall *call,
                    Seen          *seen)
{
  seen->n_checks++;
  return agent_tool_decision_new_allow ();
}

static void
seen_init (Seen    *seen,
           Fixture *f)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json (WEATHER_SCHEMA);
  g_autoptr(AgentTool) weather = NULL;

  seen->failures = g_ptr_array_new_with_free_func (g_free);
  weather = agent_tool_new ("get_weather", "Tells the weather", schema, weather_handler, seen,
                            NULL);
  agent_session_add_tool (f->session, weather);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), seen);
  g_signal_connect (f->session, "check-tool-call", G_CALLBACK (check_tool_call_cb), seen);
}

static void
seen_clear (Seen *seen)
{
  g_ptr_array_unref (seen->failures);
}

/* One answer of the model calling @n tools: id, name, arguments, … */
static void
add_calls (Fixture    *f,
           guint       n,
           ...)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);
  va_list args;

  va_start (args, n);
  for (guint i = 0; i < n; i++)
    {
      const char *id = va_arg (args, const char *);
      const char *name = va_arg (args, const char *);
      const char *arguments = va_arg (args, const char *);

      agent_test_openai_add_tool_call (r, i, id, name, arguments);
    }
  va_end (args);
  agent_test_openai_add_end (r, "tool_calls", 20, 5);
}

/* Runs the turn, which the model ends with "Done." after the calls */
static void
run_turn (Fixture *f)
{
  add_answer (f, "Done.");
  agent_test_turn_run (&f->turn, f->session, "Weather?", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Done.");
}

static void
assert_failures (Seen               *seen,
                 const char * const *expected)
{
  g_assert_cmpuint (seen->failures->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (g_ptr_array_index (seen->failures, i), ==, expected[i]);
}

/* Arguments that do not follow the schema never reach a hook or the tool;
 * the model reads where and why, and the turn goes on. */
static void
test_arguments_follow_the_schema (Fixture       *f,
                                  gconstpointer  data)
{
  static const char * const failures[] = {
    "call_1:The arguments do not follow the schema of “get_weather”: "
    "$.city: expected string, got integer",
    "call_2:The arguments do not follow the schema of “get_weather”: "
    "$.days: 0 is less than the minimum, 1",
    "call_3:The arguments do not follow the schema of “get_weather”: "
    "$: the member “city” is missing",
    NULL
  };
  Seen seen = { 0 };

  seen_init (&seen, f);
  g_assert_true (agent_session_get_validate_tool_arguments (f->session));
  add_calls (f, 4,
             "call_1", "get_weather", "{\"city\": 5}",
             "call_2", "get_weather", "{\"city\": \"Seoul\", \"days\": 0}",
             "call_3", "get_weather", "{\"town\": \"Busan\"}",
             "call_4", "get_weather", "{\"city\": \"Jeju\", \"days\": 2}");
  run_turn (f);

  g_assert_cmpuint (seen.n_runs, ==, 1);    /* only call_4 */
  g_assert_cmpuint (seen.n_checks, ==, 1);  /* no hook saw the others */
  assert_failures (&seen, failures);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (agent_test_openai_tool_message_content (f->server, 1,
                                                             (const char *[]) { "call_1", "call_2",
                                                                                "call_3" }[i]),
                     ==, strchr (failures[i], ':') + 1);
  g_assert_cmpstr (agent_test_openai_tool_message_content (f->server, 1, "call_4"), ==, "Sunny");
  assert_memory_consistent (f);
  seen_clear (&seen);
}

static void
test_arguments_unchecked (Fixture       *f,
                          gconstpointer  data)
{
  Seen seen = { 0 };
  guint notified = 0;
  gboolean validate = TRUE;

  seen_init (&seen, f);
  g_signal_connect (f->session, "notify::validate-tool-arguments",
                    G_CALLBACK (agent_test_count_notify), &notified);
  agent_session_set_validate_tool_arguments (f->session, FALSE);
  agent_session_set_validate_tool_arguments (f->session, FALSE);
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (f->session, "validate-tool-arguments", &validate, NULL);
  g_assert_false (validate);

  add_calls (f, 2,
             "call_1", "get_weather", "{\"city\": 5}",
             "call_2", "get_weather", "[1]");  /* not an object: never runs */
  run_turn (f);

  g_assert_cmpuint (seen.n_runs, ==, 1);
  g_assert_cmpuint (seen.n_checks, ==, 1);
  g_assert_cmpstr (agent_test_openai_tool_message_content (f->server, 1, "call_1"), ==, "Sunny");
  g_assert_cmpstr (g_ptr_array_index (seen.failures, 0), ==,
                   "call_2:The arguments of “get_weather” are not a JSON object");
  seen_clear (&seen);
}

/* A schema the check cannot read is not held against the call */
static void
test_unreadable_schema (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\",\"properties\":"
                                                      "{\"city\":{\"$ref\":\"#/nowhere\"}}}");
  g_autoptr(AgentTool) tool = NULL;
  Seen seen = { 0 };

  seen_init (&seen, f);
  tool = agent_tool_new ("get_weather", "Tells the weather", schema, weather_handler, &seen, NULL);
  agent_session_add_tool (f->session, tool);  /* replaces the first */
  add_calls (f, 1, "call_1", "get_weather", "{\"city\": \"Seoul\"}");
  run_turn (f);
  g_assert_cmpuint (seen.n_runs, ==, 1);
  g_assert_cmpuint (seen.failures->len, ==, 0);
  seen_clear (&seen);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/tool-failures/arguments-follow-the-schema", test_arguments_follow_the_schema);
  ADD ("/tool-failures/arguments-unchecked", test_arguments_unchecked);
  ADD ("/tool-failures/unreadable-schema", test_unreadable_schema);

  return g_test_run ();
}
