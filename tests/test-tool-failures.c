/* test-tool-failures.c — a call the tool cannot take, and a tool that fails
 *
 * Arguments are checked against the tool's JSON Schema before any hook,
 * approval or handler sees them (validate-tool-arguments): a mismatch is
 * the call's error result, naming where and why, and the turn goes on.
 * Every failure — arguments, an unknown tool, an error the tool returned,
 * a timeout, no answer — is told on tool-failed with an error code, before
 * tool-finished, and logged in the Agent-Tools debug domain; blocked,
 * denied and cancelled calls did not fail. An error result reaches the
 * model marked as one where the API can say so (Anthropic's is_error).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"
#include "test-session-util.h"

#define WEATHER_SCHEMA \
  "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}," \
  "\"days\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"city\"]}"

typedef struct
{
  GPtrArray *failures;  /* "id:code:message" of each tool-failed */
  GPtrArray *order;     /* "failed:id" and "finished:id", as they came */
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
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  JsonNode *member = json_object_get_member (arguments, "city");
  const char *city = member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
                     json_node_get_value_type (member) == G_TYPE_STRING
                     ? json_node_get_string (member) : "?";

  seen->n_runs++;
  if (g_str_equal (city, "Atlantis"))
    agent_tool_invocation_return_error_literal (invocation, "No forecast under the sea");
  else if (g_str_equal (city, "Nowhere"))
    return TRUE;  /* keeps nothing: the invocation answers "no answer" */
  else if (g_str_equal (city, "Slow"))
    g_object_set_data_full (G_OBJECT (tool), "held", g_object_ref (invocation), g_object_unref);
  else
    agent_tool_invocation_return_result (invocation, "Sunny");
  return TRUE;
}

static void
tool_failed_cb (AgentSession  *session,
                AgentToolCall *call,
                const GError  *error,
                Seen          *seen)
{
  g_assert_true (agent_tool_call_is_error (call));
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_FAILED);
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, error->message);
  g_ptr_array_add (seen->failures, g_strdup_printf ("%s:%s:%s", agent_tool_call_get_id (call),
                                                    agent_error_get_code (error),
                                                    error->message));
  g_ptr_array_add (seen->order, g_strdup_printf ("failed:%s", agent_tool_call_get_id (call)));
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Seen          *seen)
{
  g_ptr_array_add (seen->order, g_strdup_printf ("finished:%s", agent_tool_call_get_id (call)));
}

static AgentToolDecision *
check_tool_call_cb (AgentSession  *session,
                    AgentToolCall *call,
                    Seen          *seen)
{
  seen->n_checks++;
  if (g_str_equal (agent_tool_call_get_id (call), "call_blocked"))
    return agent_tool_decision_new_block ("Not today");
  return agent_tool_decision_new_allow ();
}

static void
seen_init (Seen    *seen,
           Fixture *f)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json (WEATHER_SCHEMA);
  g_autoptr(AgentTool) weather = NULL;

  seen->failures = g_ptr_array_new_with_free_func (g_free);
  seen->order = g_ptr_array_new_with_free_func (g_free);
  weather = agent_tool_new ("get_weather", "Tells the weather", schema, weather_handler, seen,
                            NULL);
  agent_session_add_tool (f->session, weather);
  g_signal_connect (f->session, "tool-failed", G_CALLBACK (tool_failed_cb), seen);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), seen);
  g_signal_connect (f->session, "check-tool-call", G_CALLBACK (check_tool_call_cb), seen);
}

static void
seen_clear (Seen *seen)
{
  g_ptr_array_unref (seen->failures);
  g_ptr_array_unref (seen->order);
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
    "call_1:schema:The arguments do not follow the schema of “get_weather”: "
    "$.city: expected string, got integer",
    "call_2:schema:The arguments do not follow the schema of “get_weather”: "
    "$.days: 0 is less than the minimum, 1",
    "call_3:schema:The arguments do not follow the schema of “get_weather”: "
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
                     ==, strchr (strchr (failures[i], ':') + 1, ':') + 1);
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
                   "call_2:invalid-argument:The arguments of “get_weather” are not a JSON object");
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

/* Each kind of failure, its code, and tool-failed before tool-finished;
 * blocked, denied and cancelled calls did not fail. */
static void
test_failures_are_told (Fixture       *f,
                        gconstpointer  data)
{
  static const char * const failures[] = {
    "call_unknown:invalid-argument:There is no tool named “get_time”; the available tools are: "
    "calculator, get_weather",
    "call_json:invalid-argument:The arguments of “get_weather” are not valid JSON: "
    "1:2: unexpected character",
    "call_error:tool:No forecast under the sea",
    "call_silent:tool:The tool “get_weather” gave no answer",
    "call_slow:timeout:The tool timed out after 0.2 s",
    NULL
  };
  static const char * const order[] = {
    "failed:call_unknown", "finished:call_unknown",
    "failed:call_json", "finished:call_json",
    "failed:call_error", "finished:call_error",
    "finished:call_blocked", "finished:call_ok",
  };
  AgentTool *weather;
  Seen seen = { 0 };

  seen_init (&seen, f);
  weather = agent_session_lookup_tool (f->session, "get_weather");
  agent_tool_set_timeout (weather, 0.2);
  add_calls (f, 7,
             "call_unknown", "get_time", "{}",
             "call_json", "get_weather", "{oops",
             "call_error", "get_weather", "{\"city\": \"Atlantis\"}",
             "call_blocked", "get_weather", "{\"city\": \"Seoul\"}",
             "call_ok", "get_weather", "{\"city\": \"Busan\"}",
             "call_silent", "get_weather", "{\"city\": \"Nowhere\"}",
             "call_slow", "get_weather", "{\"city\": \"Slow\"}");
  run_turn (f);

  /* call_json's message is json-glib's: compared by its start */
  g_assert_cmpuint (seen.failures->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (seen.failures, 0), ==, failures[0]);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (seen.failures, 1),
                                   "call_json:invalid-argument:The arguments of “get_weather” are "
                                   "not valid JSON"));
  for (guint i = 2; failures[i] != NULL; i++)
    g_assert_cmpstr (g_ptr_array_index (seen.failures, i), ==, failures[i]);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_cmpstr (g_ptr_array_index (seen.order, i), ==, order[i]);
  g_assert_cmpstr (agent_test_openai_tool_message_content (f->server, 1, "call_blocked"), ==,
                   "Blocked: Not today");
  assert_memory_consistent (f);

  g_object_set_data (G_OBJECT (weather), "held", NULL);
  seen_clear (&seen);
}

/* The failures, in the Agent-Tools domain at the debug level */
static void
test_failures_are_logged (void)
{
  if (g_test_subprocess ())
    {
      Fixture fixture = { 0 };
      Fixture *f = &fixture;
      Seen seen = { 0 };

      /* As a developer would run it; read at each message */
      g_setenv ("G_MESSAGES_DEBUG", "Agent-Tools", TRUE);
      fixture_setup (f, NULL);
      seen_init (&seen, f);
      add_calls (f, 2,
                 "call_1", "get_weather", "{\"city\": 5}",
                 "call_2", "get_weather", "{\"city\": \"Atlantis\"}");
      run_turn (f);
      fixture_teardown (f, NULL);
      seen_clear (&seen);
      return;
    }

  /* GLib writes debug messages on standard output */
  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_passed ();
  /* (the quotation marks are whatever the locale's charset makes of them) */
  g_test_trap_assert_stdout ("*Agent-Tools-DEBUG*The call call_1 of ?get_weather? failed "
                             "(schema): The arguments do not follow the schema of "
                             "?get_weather?: $.city: expected string, got integer*"
                             "Agent-Tools-DEBUG*The call call_2 of ?get_weather? failed "
                             "(tool): No forecast under the sea*");
}

/* A failure reaches Anthropic as an error result, through a session */
static void
add_anthropic_events (AgentTestResponse  *response,
                      const char * const *events)
{
  for (guint i = 0; events[i] != NULL; i++)
    agent_test_add_typed_event (response, events[i]);
}

static void
test_anthropic_is_error (void)
{
  static const char * const tool_use[] = {
    "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
    "\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,"
    "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}",
    "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"{\\\"city\\\": \\\"Atlantis\\\"}\"}}",
    "{\"type\":\"content_block_stop\",\"index\":0}",
    "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_2\",\"name\":\"get_weather\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"{\\\"city\\\": 7}\"}}",
    "{\"type\":\"content_block_stop\",\"index\":1}",
    "{\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_3\",\"name\":\"get_weather\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"{\\\"city\\\": \\\"Seoul\\\"}\"}}",
    "{\"type\":\"content_block_stop\",\"index\":2}",
    "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
    "\"usage\":{\"output_tokens\":9}}",
    "{\"type\":\"message_stop\"}",
    NULL
  };
  static const char * const answer[] = {
    "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_2\",\"type\":\"message\","
    "\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,"
    "\"usage\":{\"input_tokens\":30,\"output_tokens\":1}}}",
    "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\","
    "\"text\":\"\"}}",
    "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
    "\"text\":\"Sorry.\"}}",
    "{\"type\":\"content_block_stop\",\"index\":0}",
    "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
    "\"usage\":{\"output_tokens\":2}}",
    "{\"type\":\"message_stop\"}",
    NULL
  };
  g_autoptr(JsonNode) schema = agent_test_parse_json (WEATHER_SCHEMA);
  g_autoptr(AgentTool) weather = NULL;
  AgentTestSession f;
  JsonArray *messages;
  JsonArray *results;
  Seen seen = { 0 };

  agent_test_session_init (&f, "anthropic");
  agent_provider_set_model (f.provider, "claude-test");
  /* the results as they are, without the cache's breakpoints */
  agent_provider_set_prompt_cache (f.provider, FALSE);
  seen.failures = g_ptr_array_new_with_free_func (g_free);
  seen.order = g_ptr_array_new_with_free_func (g_free);
  weather = agent_tool_new ("get_weather", "Tells the weather", schema, weather_handler, &seen,
                            NULL);
  agent_session_add_tool (f.session, weather);
  g_signal_connect (f.session, "tool-failed", G_CALLBACK (tool_failed_cb), &seen);
  add_anthropic_events (agent_test_server_add_response (f.server, 200), tool_use);
  add_anthropic_events (agent_test_server_add_response (f.server, 200), answer);

  agent_test_turn_run (&f.turn, f.session, "Weather?", NULL);
  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_message_get_content (f.turn.result), ==, "Sorry.");

  messages = json_object_get_array_member (
    json_node_get_object (agent_test_server_get_request_body (f.server, 1)), "messages");
  results = json_object_get_array_member (json_array_get_object_element (messages, 2), "content");
  agent_test_assert_json (
    json_array_get_element (results, 0),
    "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\","
    "\"content\":\"No forecast under the sea\",\"is_error\":true}");
  agent_test_assert_json (
    json_array_get_element (results, 1),
    "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\","
    "\"content\":\"The arguments do not follow the schema of “get_weather”: $.city: expected "
    "string, got integer\",\"is_error\":true}");
  agent_test_assert_json (
    json_array_get_element (results, 2),
    "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_3\",\"content\":\"Sunny\"}");
  g_assert_cmpuint (seen.failures->len, ==, 2);

  g_clear_object (&weather);
  agent_test_session_clear (&f);
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
  ADD ("/tool-failures/told", test_failures_are_told);
  g_test_add_func ("/tool-failures/logged", test_failures_are_logged);
  g_test_add_func ("/tool-failures/anthropic-is-error", test_anthropic_is_error);

  return g_test_run ();
}
