/* test-settings-providers.c — each provider's request, with the settings
 * set: what the server receives
 *
 * - /settings/PROVIDER/all: every setting the API takes, under the API's
 *   own name and in its shape (the table in docs/settings.md).
 * - /settings/PROVIDER/refused: every setting it does not take, and each
 *   value outside its range, fails the turn before any request, with
 *   AGENT_ERROR_INVALID_ARGUMENT naming the provider and the setting.
 * - /settings/PROVIDER/tool-choice: auto, none, required and a named tool,
 *   and parallel-tool-calls off, as the API writes them.
 * - /settings/anthropic/thinking: what extended thinking does not take.
 * - /settings/anthropic/output-schema: the structured output's forced tool
 *   and the tool choice.
 * - /settings/none: a request without settings sends none of them.
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
calculator_cb (AgentTool            *tool,
               AgentToolInvocation  *invocation,
               gpointer              user_data,
               GError              **error)
{
  agent_tool_invocation_return_result (invocation, "42");
  return TRUE;
}

/* A session of @provider with two tools: calculator and clock */
static void
setup (AgentTestSession *s,
       const char       *provider)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\",\"properties\":{}}");
  g_autoptr(AgentTool) calculator = agent_tool_new ("calculator", "Computes.", schema,
                                                    calculator_cb, NULL, NULL);
  g_autoptr(AgentTool) clock = agent_tool_new ("clock", "The time.", schema,
                                               calculator_cb, NULL, NULL);

  agent_test_session_init (s, provider);
  agent_session_add_tool (s->session, calculator);
  agent_session_add_tool (s->session, clock);
}

/* One turn, answered with text; the body the server received */
static JsonObject *
send_one (AgentTestSession *s,
          const char       *provider)
{
  guint n = agent_test_server_get_n_requests (s->server);

  agent_test_add_text_answer (s->server, provider, "Done.", NULL);
  agent_test_run_turn (s, "Go");
  g_assert_cmpuint (agent_test_server_get_n_requests (s->server), ==, n + 1);
  return agent_test_request_object (s->server, n);
}

/* Every sampling setting, for the APIs that take them all */
static void
set_sampling (AgentRequestSettings *settings,
              double                temperature)
{
  const char * const stop[] = { "END", "\n\nUser:", NULL };

  agent_request_settings_set_temperature (settings, temperature);
  agent_request_settings_set_top_p (settings, 0.9);
  agent_request_settings_set_top_k (settings, 40);
  agent_request_settings_set_seed (settings, 42);
  agent_request_settings_set_stop (settings, stop);
  agent_request_settings_set_presence_penalty (settings, 0.5);
  agent_request_settings_set_frequency_penalty (settings, -0.25);
}

static void
assert_member (JsonObject *object,
               const char *name,
               const char *expected)
{
  if (expected == NULL)
    {
      if (json_object_has_member (object, name))
        {
          g_autofree char *sent = json_to_string (json_object_get_member (object, name), FALSE);

          g_error ("“%s” was sent: %s", name, sent);
        }
      return;
    }
  if (!json_object_has_member (object, name))
    g_error ("“%s” was not sent", name);
  agent_test_assert_json (json_object_get_member (object, name), expected);
}

static void
test_openai_all (void)
{
  AgentTestSession s;
  AgentRequestSettings *settings;
  JsonObject *body;

  setup (&s, "openai");
  settings = agent_session_get_settings (s.session);
  set_sampling (settings, 1.5);
  agent_request_settings_unset (settings, "top-k");
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "clock");
  agent_request_settings_set_parallel_tool_calls (settings, FALSE);

  body = send_one (&s, "openai");
  assert_member (body, "temperature", "1.5");
  assert_member (body, "top_p", "0.9");
  assert_member (body, "seed", "42");
  assert_member (body, "stop", "[\"END\", \"\\n\\nUser:\"]");
  assert_member (body, "presence_penalty", "0.5");
  assert_member (body, "frequency_penalty", "-0.25");
  assert_member (body, "tool_choice",
                 "{\"type\": \"function\", \"function\": {\"name\": \"clock\"}}");
  assert_member (body, "parallel_tool_calls", "false");
  assert_member (body, "top_k", NULL);
  agent_test_session_clear (&s);
}

static void
test_responses_all (void)
{
  AgentTestSession s;
  AgentRequestSettings *settings;
  JsonObject *body;

  setup (&s, "openai-responses");
  settings = agent_session_get_settings (s.session);
  agent_request_settings_set_temperature (settings, 0.2);
  agent_request_settings_set_top_p (settings, 0.95);
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "calculator");
  agent_request_settings_set_parallel_tool_calls (settings, FALSE);

  body = send_one (&s, "openai-responses");
  assert_member (body, "temperature", "0.2");
  assert_member (body, "top_p", "0.95");
  assert_member (body, "tool_choice", "{\"type\": \"function\", \"name\": \"calculator\"}");
  assert_member (body, "parallel_tool_calls", "false");
  agent_test_session_clear (&s);
}

static void
test_anthropic_all (void)
{
  AgentTestSession s;
  AgentRequestSettings *settings;
  const char * const stop[] = { "END", NULL };
  JsonObject *body;

  setup (&s, "anthropic");
  settings = agent_session_get_settings (s.session);
  agent_request_settings_set_temperature (settings, 1);
  agent_request_settings_set_top_p (settings, 0.7);
  agent_request_settings_set_top_k (settings, 5);
  agent_request_settings_set_stop (settings, stop);
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "calculator");
  agent_request_settings_set_parallel_tool_calls (settings, FALSE);

  body = send_one (&s, "anthropic");
  assert_member (body, "temperature", "1");
  assert_member (body, "top_p", "0.7");
  assert_member (body, "top_k", "5");
  assert_member (body, "stop_sequences", "[\"END\"]");
  assert_member (body, "tool_choice", "{\"type\": \"tool\", \"name\": \"calculator\","
                                      " \"disable_parallel_tool_use\": true}");
  agent_test_session_clear (&s);
}

static void
test_gemini_all (void)
{
  AgentTestSession s;
  AgentRequestSettings *settings;
  JsonObject *body;

  setup (&s, "gemini");
  settings = agent_session_get_settings (s.session);
  set_sampling (settings, 0.4);
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "clock");
  /* What it does anyway: asks nothing */
  agent_request_settings_set_parallel_tool_calls (settings, TRUE);

  body = send_one (&s, "gemini");
  assert_member (body, "generationConfig",
                 "{\"temperature\": 0.4, \"topP\": 0.9, \"topK\": 40, \"seed\": 42,"
                 " \"stopSequences\": [\"END\", \"\\n\\nUser:\"], \"presencePenalty\": 0.5,"
                 " \"frequencyPenalty\": -0.25}");
  assert_member (body, "toolConfig", "{\"functionCallingConfig\": {\"mode\": \"ANY\","
                                     " \"allowedFunctionNames\": [\"clock\"]}}");
  agent_test_session_clear (&s);
}

static void
test_ollama_all (void)
{
  AgentTestSession s;
  AgentRequestSettings *settings;
  JsonObject *body;

  setup (&s, "ollama");
  settings = agent_session_get_settings (s.session);
  set_sampling (settings, 0.8);
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_AUTO, NULL);
  agent_provider_set_max_tokens (s.provider, 100);
  agent_session_set_context_window (s.session, 8192);

  body = send_one (&s, "ollama");
  assert_member (body, "options",
                 "{\"num_predict\": 100, \"temperature\": 0.8, \"top_p\": 0.9, \"top_k\": 40,"
                 " \"seed\": 42, \"stop\": [\"END\", \"\\n\\nUser:\"], \"presence_penalty\": 0.5,"
                 " \"frequency_penalty\": -0.25, \"num_ctx\": 8192}");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (body, "tools")), ==, 2);
  assert_member (body, "tool_choice", NULL);
  agent_test_session_clear (&s);
}

/* Refused before sending */

typedef void (*ApplyFunc) (AgentRequestSettings *settings);

static void
apply_temperature_half (AgentRequestSettings *s)
{
  agent_request_settings_set_temperature (s, 0.5);
}

static void
apply_temperature_1_5 (AgentRequestSettings *s)
{
  agent_request_settings_set_temperature (s, 1.5);
}

static void
apply_temperature_2_5 (AgentRequestSettings *s)
{
  agent_request_settings_set_temperature (s, 2.5);
}

static void
apply_top_k (AgentRequestSettings *s)
{
  agent_request_settings_set_top_k (s, 10);
}

static void
apply_seed (AgentRequestSettings *s)
{
  agent_request_settings_set_seed (s, 7);
}

static void
apply_big_seed (AgentRequestSettings *s)
{
  agent_request_settings_set_seed (s, G_GINT64_CONSTANT (1) << 40);
}

static void
apply_presence (AgentRequestSettings *s)
{
  agent_request_settings_set_presence_penalty (s, 0.5);
}

static void
apply_presence_3 (AgentRequestSettings *s)
{
  agent_request_settings_set_presence_penalty (s, 3);
}

static void
apply_frequency (AgentRequestSettings *s)
{
  agent_request_settings_set_frequency_penalty (s, 0.5);
}

static void
apply_frequency_neg3 (AgentRequestSettings *s)
{
  agent_request_settings_set_frequency_penalty (s, -3);
}

static void
apply_no_parallel (AgentRequestSettings *s)
{
  agent_request_settings_set_parallel_tool_calls (s, FALSE);
}

static void
apply_stop (AgentRequestSettings *s)
{
  const char * const stop[] = { "END", NULL };

  agent_request_settings_set_stop (s, stop);
}

static void
apply_six_stops (AgentRequestSettings *s)
{
  const char * const stop[] = { "a", "b", "c", "d", "e", "f", NULL };

  agent_request_settings_set_stop (s, stop);
}

static void
apply_required (AgentRequestSettings *s)
{
  agent_request_settings_set_tool_choice (s, AGENT_TOOL_CHOICE_REQUIRED, NULL);
}

static void
apply_named (AgentRequestSettings *s)
{
  agent_request_settings_set_tool_choice (s, AGENT_TOOL_CHOICE_TOOL, "calculator");
}

static void
apply_unknown_tool (AgentRequestSettings *s)
{
  agent_request_settings_set_tool_choice (s, AGENT_TOOL_CHOICE_TOOL, "weather");
}

/* A provider option over what libagent writes: the conversation, the
 * tools, stream */
static void
apply_option (AgentRequestSettings *s,
              const char           *key)
{
  g_autoptr(JsonNode) value = agent_test_parse_json (g_str_equal (key, "stream") ? "false" : "[]");

  agent_request_settings_set_provider_option (s, key, value);
}

static const struct {
  const char *provider;
  ApplyFunc   apply;      /* or NULL: the provider option names[1] */
  const char *names[3];   /* what the message names */
} refusals[] = {
  { "openai", apply_top_k, { "OpenAI", "top-k" } },
  { "openai", apply_temperature_2_5, { "OpenAI", "temperature", "2.5" } },
  { "openai", apply_presence_3, { "OpenAI", "presence-penalty", "3" } },
  { "openai", apply_frequency_neg3, { "OpenAI", "frequency-penalty", "-3" } },
  { "openai", apply_unknown_tool, { "tool-choice", "weather" } },
  { "openai", NULL, { "OpenAI", "messages" } },
  { "openai", NULL, { "OpenAI", "stream" } },
  { "openai-responses", apply_top_k, { "OpenAI Responses", "top-k" } },
  { "openai-responses", apply_seed, { "OpenAI Responses", "seed" } },
  { "openai-responses", apply_stop, { "OpenAI Responses", "stop" } },
  { "openai-responses", apply_presence, { "OpenAI Responses", "presence-penalty" } },
  { "openai-responses", apply_frequency, { "OpenAI Responses", "frequency-penalty" } },
  { "openai-responses", NULL, { "OpenAI Responses", "input" } },
  { "anthropic", apply_seed, { "Anthropic", "seed" } },
  { "anthropic", apply_presence, { "Anthropic", "presence-penalty" } },
  { "anthropic", apply_frequency, { "Anthropic", "frequency-penalty" } },
  { "anthropic", apply_temperature_1_5, { "Anthropic", "temperature", "1.5" } },
  { "anthropic", NULL, { "Anthropic", "tools" } },
  { "gemini", apply_no_parallel, { "Gemini", "parallel-tool-calls" } },
  { "gemini", apply_six_stops, { "Gemini", "stop sequences", "6" } },
  { "gemini", apply_big_seed, { "Gemini", "seed", "1099511627776" } },
  { "gemini", apply_temperature_2_5, { "Gemini", "temperature" } },
  { "gemini", NULL, { "Gemini", "contents" } },
  { "ollama", apply_required, { "Ollama", "tool-choice", "required" } },
  { "ollama", apply_named, { "Ollama", "tool-choice" } },
  { "ollama", apply_no_parallel, { "Ollama", "parallel-tool-calls" } },
  { "ollama", NULL, { "Ollama", "messages" } },
};

static void
test_refused (gconstpointer data)
{
  const char *provider = data;

  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      AgentTestSession s;
      GListModel *memory;

      if (!g_str_equal (refusals[i].provider, provider))
        continue;

      setup (&s, provider);
      if (refusals[i].apply != NULL)
        refusals[i].apply (agent_session_get_settings (s.session));
      else
        apply_option (agent_session_get_settings (s.session), refusals[i].names[1]);
      agent_test_turn_run (&s.turn, s.session, "Go", NULL);
      g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s", s.turn.error->message);
      for (guint j = 0; j < G_N_ELEMENTS (refusals[i].names) && refusals[i].names[j]; j++)
        agent_test_assert_contains (s.turn.error->message, refusals[i].names[j]);
      /* Nothing was sent, and the conversation keeps the user's words */
      g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);
      memory = G_LIST_MODEL (agent_session_get_memory (s.session));
      g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 1);
      agent_test_session_clear (&s);
    }
}

/* Tool choice */

typedef struct
{
  const char *provider;
  const char *member;        /* where the choice goes */
  const char *choice[5];     /* by AgentToolChoice: the member's JSON, NULL: not sent */
  const char *no_parallel;   /* with auto and parallel-tool-calls off */
} ChoiceCase;

static const ChoiceCase choice_cases[] = {
  { "openai", "tool_choice",
    { NULL, "\"auto\"", "\"none\"", "\"required\"",
      "{\"type\": \"function\", \"function\": {\"name\": \"calculator\"}}" },
    NULL },
  { "openai-responses", "tool_choice",
    { NULL, "\"auto\"", "\"none\"", "\"required\"",
      "{\"type\": \"function\", \"name\": \"calculator\"}" },
    NULL },
  { "anthropic", "tool_choice",
    { NULL, "{\"type\": \"auto\"}", "{\"type\": \"none\"}", "{\"type\": \"any\"}",
      "{\"type\": \"tool\", \"name\": \"calculator\"}" },
    "{\"type\": \"auto\", \"disable_parallel_tool_use\": true}" },
  { "gemini", "toolConfig",
    { NULL, "{\"functionCallingConfig\": {\"mode\": \"AUTO\"}}",
      "{\"functionCallingConfig\": {\"mode\": \"NONE\"}}",
      "{\"functionCallingConfig\": {\"mode\": \"ANY\"}}",
      "{\"functionCallingConfig\": {\"mode\": \"ANY\", "
      "\"allowedFunctionNames\": [\"calculator\"]}}" },
    NULL },
};

static void
test_tool_choice (gconstpointer data)
{
  const ChoiceCase *c = data;

  for (AgentToolChoice choice = AGENT_TOOL_CHOICE_DEFAULT; choice <= AGENT_TOOL_CHOICE_TOOL;
       choice++)
    {
      AgentTestSession s;
      JsonObject *body;

      setup (&s, c->provider);
      agent_request_settings_set_tool_choice (agent_session_get_settings (s.session), choice,
                                              "calculator");
      body = send_one (&s, c->provider);
      assert_member (body, c->member, c->choice[choice]);
      if (!g_str_equal (c->provider, "gemini"))
        assert_member (body, "parallel_tool_calls", NULL);
      agent_test_session_clear (&s);
    }

  if (c->no_parallel != NULL)
    {
      AgentTestSession s;
      AgentRequestSettings *settings;

      setup (&s, c->provider);
      settings = agent_session_get_settings (s.session);
      agent_request_settings_set_parallel_tool_calls (settings, FALSE);
      assert_member (send_one (&s, c->provider), c->member, c->no_parallel);
      agent_test_session_clear (&s);
    }
}

/* Ollama has no tool choice: none leaves the tools out */
static void
test_ollama_tool_choice (void)
{
  AgentTestSession s;
  JsonObject *body;

  setup (&s, "ollama");
  agent_request_settings_set_tool_choice (agent_session_get_settings (s.session),
                                          AGENT_TOOL_CHOICE_NONE, NULL);
  body = send_one (&s, "ollama");
  assert_member (body, "tools", NULL);
  assert_member (body, "tool_choice", NULL);
  agent_test_session_clear (&s);
}

/* Without tools: a choice that needs one fails, the others send nothing
 * (OpenAI refuses tool_choice and parallel_tool_calls without tools) */
static void
test_no_tools (void)
{
  static const char * const providers[] = {
    "openai", "openai-responses", "anthropic", "gemini", "ollama"
  };

  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    {
      AgentTestSession s;
      AgentRequestSettings *settings;
      JsonObject *body;

      agent_test_session_init (&s, providers[i]);
      settings = agent_session_get_settings (s.session);
      agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_NONE, NULL);
      if (!g_str_equal (providers[i], "gemini") && !g_str_equal (providers[i], "ollama"))
        agent_request_settings_set_parallel_tool_calls (settings, FALSE);
      body = send_one (&s, providers[i]);
      assert_member (body, "tool_choice", NULL);
      assert_member (body, "toolConfig", NULL);
      assert_member (body, "parallel_tool_calls", NULL);

      agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_REQUIRED, NULL);
      agent_test_turn_clear (&s.turn);
      agent_test_turn_run (&s.turn, s.session, "Go", NULL);
      g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (s.turn.error->message, "required");
      g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 1);
      agent_test_session_clear (&s);
    }
}

static void
test_anthropic_thinking (void)
{
  static const struct {
    ApplyFunc   apply;
    const char *names[2];
  } cases[] = {
    { apply_temperature_half, { "temperature", "thinking" } },
    { apply_top_k, { "top-k", "thinking" } },
    { apply_required, { "tool-choice", "thinking" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AgentTestSession s;

      setup (&s, "anthropic");
      agent_provider_set_reasoning_effort (s.provider, AGENT_REASONING_EFFORT_LOW);
      cases[i].apply (agent_session_get_settings (s.session));
      agent_test_turn_run (&s.turn, s.session, "Go", NULL);
      g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (s.turn.error->message, cases[i].names[0]);
      agent_test_assert_contains (s.turn.error->message, cases[i].names[1]);
      g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);
      agent_test_session_clear (&s);
    }
}

static void
test_anthropic_output_schema (void)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\",\"title\":\"answer\"}");
  AgentTestSession s;

  /* required agrees with the forced output; none cannot */
  setup (&s, "anthropic");
  agent_session_set_output_schema (s.session, schema);
  agent_request_settings_set_tool_choice (agent_session_get_settings (s.session),
                                          AGENT_TOOL_CHOICE_NONE, NULL);
  agent_test_turn_run (&s.turn, s.session, "Go", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (s.turn.error->message, "output schema");
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);

  agent_request_settings_set_tool_choice (agent_session_get_settings (s.session),
                                          AGENT_TOOL_CHOICE_REQUIRED, NULL);
  agent_request_settings_set_parallel_tool_calls (agent_session_get_settings (s.session), FALSE);
  agent_test_add_call_answer (s.server, "anthropic", "toolu_1", "answer", "{}");
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Go", NULL);
  g_assert_no_error (s.turn.error);
  assert_member (agent_test_request_object (s.server, 0), "tool_choice",
                 "{\"type\": \"any\", \"disable_parallel_tool_use\": true}");
  agent_test_session_clear (&s);
}

static void
test_none (void)
{
  static const char * const providers[] = {
    "openai", "openai-responses", "anthropic", "gemini", "ollama"
  };
  static const char * const members[] = {
    "temperature", "top_p", "top_k", "seed", "stop", "stop_sequences", "presence_penalty",
    "frequency_penalty", "tool_choice", "toolConfig", "parallel_tool_calls", "generationConfig",
    "keep_alive",
  };

  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    {
      AgentTestSession s;
      JsonObject *body;

      setup (&s, providers[i]);
      body = send_one (&s, providers[i]);
      for (guint j = 0; j < G_N_ELEMENTS (members); j++)
        assert_member (body, members[j], NULL);
      /* Ollama: only its window */
      if (g_str_equal (providers[i], "ollama"))
        assert_member (body, "options", "{\"num_ctx\": 16384}");
      agent_test_session_clear (&s);
    }
}

int
main (int   argc,
      char *argv[])
{
  static const char * const providers[] = {
    "openai", "openai-responses", "anthropic", "gemini", "ollama"
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/settings/openai/all", test_openai_all);
  g_test_add_func ("/settings/openai-responses/all", test_responses_all);
  g_test_add_func ("/settings/anthropic/all", test_anthropic_all);
  g_test_add_func ("/settings/gemini/all", test_gemini_all);
  g_test_add_func ("/settings/ollama/all", test_ollama_all);
  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/settings/%s/refused", providers[i]);

      g_test_add_data_func (path, providers[i], test_refused);
    }
  for (guint i = 0; i < G_N_ELEMENTS (choice_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/settings/%s/tool-choice",
                                               choice_cases[i].provider);

      g_test_add_data_func (path, &choice_cases[i], test_tool_choice);
    }
  g_test_add_func ("/settings/ollama/tool-choice", test_ollama_tool_choice);
  g_test_add_func ("/settings/no-tools", test_no_tools);
  g_test_add_func ("/settings/anthropic/thinking", test_anthropic_thinking);
  g_test_add_func ("/settings/anthropic/output-schema", test_anthropic_output_schema);
  g_test_add_func ("/settings/none", test_none);

  return g_test_run ();
}
