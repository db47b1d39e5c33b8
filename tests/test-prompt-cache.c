/* test-prompt-cache.c — prompt caching: Anthropic's breakpoints, and the
 * cached tokens every provider reports
 *
 * - /cache/anthropic/tool-loop: across a tool loop and a second turn,
 *   each request marks the last tool, the system prompt, its last message
 *   and the message that ended the request before: never more than 4.
 * - /cache/anthropic/off: prompt-cache off marks nothing.
 * - /cache/anthropic/limit: marks the body already has (a system prompt
 *   given in provider options) count against the 4.
 * - /cache/anthropic/unmarkable: a message of thinking only keeps no mark
 *   (the one before it does).
 * - /cache/usage/recordings: the recorded streams that report the cache
 *   (OpenAI's prompt_tokens_details.cached_tokens, the Responses API's
 *   input_tokens_details.cached_tokens, Anthropic's
 *   cache_read_input_tokens and cache_creation_input_tokens): the counts,
 *   and agent_usage_to_json()'s cached-input-tokens and
 *   cache-creation-input-tokens whenever they were reported, 0 included.
 * - /cache/usage/session: the same through a session over HTTP, for each
 *   provider that reports them (Gemini's cachedContentTokenCount too), in
 *   the session's usage and the turn's metrics.
 * - /cache/usage/add: a sum reports what either of its terms reported.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

static gboolean
is_marked (JsonObject *object)
{
  JsonObject *control;

  if (!json_object_has_member (object, "cache_control"))
    return FALSE;
  control = json_object_get_object_member (object, "cache_control");
  g_assert_cmpstr (json_object_get_string_member (control, "type"), ==, "ephemeral");
  return TRUE;
}

/* Where the marks of a request body are, as "tools[1] system[0]
 * messages[2][0]", in body order */
static char *
marks (JsonObject *body)
{
  g_autoptr(GString) where = g_string_new (NULL);
  JsonArray *tools = json_object_has_member (body, "tools")
                     ? json_object_get_array_member (body, "tools") : NULL;
  JsonNode *system = json_object_get_member (body, "system");
  JsonArray *messages = json_object_get_array_member (body, "messages");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    if (is_marked (json_array_get_object_element (tools, i)))
      g_string_append_printf (where, " tools[%u]", i);
  for (guint i = 0; system != NULL && JSON_NODE_HOLDS_ARRAY (system) &&
                    i < json_array_get_length (json_node_get_array (system)); i++)
    if (is_marked (json_array_get_object_element (json_node_get_array (system), i)))
      g_string_append_printf (where, " system[%u]", i);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *content = json_object_get_member (json_array_get_object_element (messages, i),
                                                  "content");

      for (guint j = 0; JSON_NODE_HOLDS_ARRAY (content) &&
                        j < json_array_get_length (json_node_get_array (content)); j++)
        if (is_marked (json_array_get_object_element (json_node_get_array (content), j)))
          g_string_append_printf (where, " messages[%u][%u]", i, j);
    }

  return g_strdup (where->len > 0 ? where->str + 1 : "");
}

static gboolean
clock_cb (AgentTool            *tool,
          AgentToolInvocation  *invocation,
          gpointer              user_data,
          GError              **error)
{
  agent_tool_invocation_return_result (invocation, "12:00");
  return TRUE;
}

static void
add_tools (AgentSession *session)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\"}");
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentTool) clock = agent_tool_new ("clock", "The time.", schema, clock_cb, NULL, NULL);

  agent_session_add_tool (session, calculator);
  agent_session_add_tool (session, clock);
}

static void
test_tool_loop (void)
{
  AgentTestSession s;
  const char *expected[] = {
    /* the tools, the system prompt, the user's message */
    "tools[1] system[0] messages[0][0]",
    /* … the tool's result, and the message that ended the request before */
    "tools[1] system[0] messages[0][0] messages[2][0]",
    /* the second turn: its message, and the tool's result before it */
    "tools[1] system[0] messages[2][0] messages[4][0]",
  };
  JsonObject *body;
  JsonArray *system;

  agent_test_session_init (&s, "anthropic");
  add_tools (s.session);
  agent_session_set_system_prompt (s.session, "You are a calculator.");

  agent_test_add_call_answer (s.server, "anthropic", "toolu_1", "calculator",
                              "{\"expression\":\"6*7\"}");
  agent_test_add_text_answer (s.server, "anthropic", "42.", NULL);
  agent_test_add_text_answer (s.server, "anthropic", "You're welcome.", NULL);
  agent_test_run_turn (&s, "What is 6*7?");
  agent_test_run_turn (&s, "Thanks");

  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *where = marks (agent_test_request_object (s.server, i));

      g_assert_cmpstr (where, ==, expected[i]);
    }

  /* The system prompt as one text block; the conversation as it was */
  body = agent_test_request_object (s.server, 2);
  system = json_object_get_array_member (body, "system");
  g_assert_cmpuint (json_array_get_length (system), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (system, 0),
                                                  "text"),
                   ==, "You are a calculator.");
  agent_test_assert_json (json_object_get_member (body, "messages"),
                          "[{\"role\":\"user\",\"content\":\"What is 6*7?\"},"
                          " {\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\","
                          "  \"id\":\"toolu_1\",\"name\":\"calculator\","
                          "  \"input\":{\"expression\":\"6*7\"}}]},"
                          " {\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                          "  \"tool_use_id\":\"toolu_1\",\"content\":\"42\","
                          "  \"cache_control\":{\"type\":\"ephemeral\"}}]},"
                          " {\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
                          "  \"text\":\"42.\"}]},"
                          " {\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Thanks\","
                          "  \"cache_control\":{\"type\":\"ephemeral\"}}]}]");

  agent_test_session_clear (&s);
}

static void
test_off (void)
{
  AgentTestSession s;
  JsonObject *body;
  g_autofree char *where = NULL;

  agent_test_session_init (&s, "anthropic");
  add_tools (s.session);
  agent_session_set_system_prompt (s.session, "Be brief.");
  g_assert_true (agent_provider_get_prompt_cache (s.provider));
  agent_provider_set_prompt_cache (s.provider, FALSE);

  agent_test_add_text_answer (s.server, "anthropic", "Hi.", NULL);
  agent_test_run_turn (&s, "Hello");

  body = agent_test_request_object (s.server, 0);
  where = marks (body);
  g_assert_cmpstr (where, ==, "");
  g_assert_cmpstr (json_object_get_string_member (body, "system"), ==, "Be brief.");
  agent_test_session_clear (&s);
}

static void
test_limit (void)
{
  AgentTestSession s;
  g_autoptr(JsonNode) options = agent_test_parse_json (
    "{\"system\":[{\"type\":\"text\",\"text\":\"A\",\"cache_control\":{\"type\":\"ephemeral\"}},"
    "            {\"type\":\"text\",\"text\":\"B\",\"cache_control\":{\"type\":\"ephemeral\"}},"
    "            {\"type\":\"text\",\"text\":\"C\",\"cache_control\":{\"type\":\"ephemeral\"}}]}");
  g_autofree char *where = NULL;

  agent_test_session_init (&s, "anthropic");
  add_tools (s.session);
  agent_request_settings_set_provider_options (agent_session_get_settings (s.session), options);

  agent_test_add_text_answer (s.server, "anthropic", "Hi.", NULL);
  agent_test_run_turn (&s, "Hello");

  /* Three are the options'; the fourth is the conversation's */
  where = marks (agent_test_request_object (s.server, 0));
  g_assert_cmpstr (where, ==, "system[0] system[1] system[2] messages[0][0]");
  agent_test_session_clear (&s);
}

static void
prefill_cb (AgentSession     *session,
            AgentStepRequest *request,
            AgentMessage     *thinking)
{
  g_list_store_append (agent_step_request_get_messages (request), thinking);
}

/* A request that ends with an answer of thinking only (prepare-step added
 * it, as a prefill): thinking cannot be marked; the user's message before
 * it is */
static void
test_unmarkable (void)
{
  AgentTestSession s;
  g_autoptr(AgentMessage) thinking = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(JsonNode) data = agent_test_parse_json (
    "{\"anthropic\":{\"content\":[{\"type\":\"thinking\",\"thinking\":\"Hmm.\","
    "\"signature\":\"EqQB\"}]}}");
  g_autofree char *where = NULL;

  agent_test_session_init (&s, "anthropic");
  agent_message_set_provider_data (thinking, data);
  g_signal_connect (s.session, "prepare-step", G_CALLBACK (prefill_cb), thinking);

  agent_test_add_text_answer (s.server, "anthropic", "Hello.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);

  where = marks (agent_test_request_object (s.server, 0));
  g_assert_cmpstr (where, ==, "messages[0][0]");
  agent_test_session_clear (&s);
}

/* Usage */

typedef struct
{
  const char *file;
  const char *backend;
  gint64      cached;          /* -1: not reported */
  gint64      cache_creation;  /* -1: not reported */
} Recording;

static const Recording recordings[] = {
  { "openai-chat/deepseek-reasoning-tool.sse", "openai", 320, -1 },
  { "openai-chat/glm-empty-name-continuation.sse", "openai", 128, -1 },
  { "openai-chat/args-null-never-sent.sse", "openai", 0, -1 },
  { "openai-chat/oaipy-parallel-tools-usage.sse", "openai", -1, -1 },
  { "openai-responses/deepseek-reasoning-text-function-call.sse", "openai-responses", 256, -1 },
  { "openai-responses/azure-function-call.sse", "openai-responses", 0, -1 },
  { "anthropic/antpy-text-then-tool-use.sse", "anthropic", 0, 0 },
  { "anthropic/simonw-thinking-then-tool-use.sse", "anthropic", 0, 0 },
  { "anthropic/antpy-text-only.sse", "anthropic", -1, -1 },
  { "gemini/pydai-function-call-crlf.sse", "gemini", -1, -1 },
};

static void
expect_reported (JsonObject *json,
                 const char *member,
                 gint64      expected)
{
  if (expected < 0)
    g_assert_false (json_object_has_member (json, member));
  else
    g_assert_cmpint (json_object_get_int_member (json, member), ==, expected);
}

static void
expect_usage (AgentUsage *usage,
              gint64      cached,
              gint64      cache_creation)
{
  g_autoptr(JsonNode) json = NULL;

  g_assert_nonnull (usage);
  g_assert_cmpint (agent_usage_get_cached_tokens (usage), ==, MAX (cached, 0));
  g_assert_cmpint (agent_usage_get_cache_creation_tokens (usage), ==, MAX (cache_creation, 0));
  json = agent_usage_to_json (usage);
  expect_reported (json_node_get_object (json), "cached-input-tokens", cached);
  expect_reported (json_node_get_object (json), "cache-creation-input-tokens", cache_creation);
}

static void
test_recordings (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (recordings); i++)
    {
      g_autofree char *path = agent_test_corpus_path (recordings[i].file);
      g_autoptr(AgentProvider) provider = agent_provider_new (recordings[i].backend, NULL);
      g_autoptr(AgentTestReplay) replay = NULL;
      g_autofree char *body = NULL;
      gsize len;

      g_test_message ("%s", recordings[i].file);
      g_assert_true (g_file_get_contents (path, &body, &len, NULL));
      replay = agent_test_replay_new_for_backend (_agent_provider_get_backend (provider));
      agent_test_replay_feed (replay, body, len, NULL);
      agent_test_replay_finish (replay);
      expect_usage (agent_message_get_usage (agent_test_replay_get_message (replay)),
                    recordings[i].cached, recordings[i].cache_creation);
    }
}

/* Through HTTP, and over a turn's steps: reported by the step that did */
static void
test_session (void)
{
  static const char * const providers[] = { "openai", "openai-responses", "anthropic", "gemini" };

  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    {
      gboolean anthropic = g_str_equal (providers[i], "anthropic");
      const AgentTestAnswerUsage first = { 1200, 20, 1024, anthropic ? 150 : -1 };
      const AgentTestAnswerUsage second = { 1300, 10, 1100, anthropic ? 0 : -1 };
      AgentTestSession s;
      AgentUsage *usage;

      g_test_message ("%s", providers[i]);
      agent_test_session_init (&s, providers[i]);
      agent_test_add_text_answer (s.server, providers[i], "One.", &first);
      agent_test_add_text_answer (s.server, providers[i], "Two.", &second);
      agent_test_run_turn (&s, "Hi");

      /* Anthropic's input leaves the cache out: the prompt counts it */
      usage = agent_session_get_usage (s.session);
      expect_usage (usage, 1024, anthropic ? 150 : -1);
      g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==,
                       anthropic ? 1200 + 1024 + 150 : 1200);

      agent_test_run_turn (&s, "Again");
      expect_usage (agent_session_get_usage (s.session), 1100, anthropic ? 0 : -1);

      /* The metrics of the turn carry them too */
      expect_usage (agent_metrics_get_usage (agent_session_get_turn_metrics (s.session)),
                    1100, anthropic ? 0 : -1);
      agent_test_session_clear (&s);
    }
}

static void
test_add (void)
{
  g_autoptr(JsonNode) a_json = agent_test_parse_json (
    "{\"input_tokens\":10,\"output_tokens\":1,\"cache_read_input_tokens\":100,"
    "\"cache_creation_input_tokens\":50}");
  g_autoptr(JsonNode) b_json =
    agent_test_parse_json ("{\"prompt_tokens\":7,\"completion_tokens\":1}");
  g_autoptr(AgentUsage) a = agent_usage_new_from_json (a_json);
  g_autoptr(AgentUsage) b = agent_usage_new_from_json (b_json);
  g_autoptr(AgentUsage) sum = agent_usage_add (a, b);
  g_autoptr(AgentUsage) none = agent_usage_add (b, NULL);

  g_assert_cmpint (agent_usage_get_prompt_tokens (a), ==, 160);
  expect_usage (a, 100, 50);
  expect_usage (b, -1, -1);
  expect_usage (sum, 100, 50);
  g_assert_cmpint (agent_usage_get_prompt_tokens (sum), ==, 167);
  expect_usage (none, -1, -1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cache/anthropic/tool-loop", test_tool_loop);
  g_test_add_func ("/cache/anthropic/off", test_off);
  g_test_add_func ("/cache/anthropic/limit", test_limit);
  g_test_add_func ("/cache/anthropic/unmarkable", test_unmarkable);
  g_test_add_func ("/cache/usage/recordings", test_recordings);
  g_test_add_func ("/cache/usage/session", test_session);
  g_test_add_func ("/cache/usage/add", test_add);

  return g_test_run ();
}
