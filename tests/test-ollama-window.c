/* test-ollama-window.c — the window a local server runs a model with
 *
 * Ollama makes the window each request asks for (options.num_ctx), at
 * its own default (4096 tokens on most machines) when none is asked;
 * llama.cpp's server runs with the window it was started with, which its
 * /props says.
 *
 * - /window/ollama/conversation: every request of a conversation (each
 *   turn, each step of a tool loop) sends the session's window as
 *   num_ctx, the same one, so that Ollama never loads the model again.
 * - /window/ollama/unknown: a session that does not know its window sends
 *   the provider's max-context-window (Ollama lowers it to the model's);
 *   0 sends none.
 * - /window/ollama/fetched: the window Ollama's /api/show gives is capped
 *   by max-context-window.
 * - /window/ollama/summary: the summary step of a compaction sends the
 *   same num_ctx as the others.
 * - /window/ollama/keep-alive: keep_alive as a duration or as seconds;
 *   what is not one is refused by name; the other APIs refuse it.
 * - /window/llama-cpp/props: llama.cpp's model list gives the trained
 *   window only: its /props gives the one it runs with; a server without
 *   /props leaves it unknown; other servers are not asked.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

/* options.num_ctx of request @index, or -1 when it sends none */
static gint64
num_ctx (AgentTestServer *server,
         guint            index)
{
  JsonObject *body = agent_test_request_object (server, index);
  JsonObject *options;

  if (!json_object_has_member (body, "options"))
    return -1;
  options = json_object_get_object_member (body, "options");
  return json_object_get_int_member_with_default (options, "num_ctx", -1);
}

static void
test_conversation (void)
{
  AgentTestSession s;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  agent_test_session_init (&s, "ollama");
  agent_session_add_tool (s.session, calculator);
  agent_session_set_context_window (s.session, 8192);

  agent_test_add_text_answer (s.server, "ollama", "Hello.", NULL);
  agent_test_add_call_answer (s.server, "ollama", "call_1", "calculator",
                              "{\"expression\":\"6*7\"}");
  agent_test_add_text_answer (s.server, "ollama", "42.", NULL);
  agent_test_add_text_answer (s.server, "ollama", "Bye.", NULL);

  agent_test_run_turn (&s, "Hi");
  agent_test_run_turn (&s, "What is 6*7?");
  agent_test_run_turn (&s, "Thanks");

  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (num_ctx (s.server, i), ==, 8192);

  agent_test_session_clear (&s);
}

static void
test_unknown (void)
{
  AgentTestSession s;

  agent_test_session_init (&s, "ollama");
  g_assert_cmpuint (agent_session_get_context_window (s.session), ==, 0);
  g_assert_cmpuint (agent_provider_get_max_context_window (s.provider), ==, 16384);

  agent_test_add_text_answer (s.server, "ollama", "Hello.", NULL);
  agent_test_run_turn (&s, "Hi");
  g_assert_cmpint (num_ctx (s.server, 0), ==, 16384);

  agent_provider_set_max_context_window (s.provider, 0);
  agent_test_add_text_answer (s.server, "ollama", "Hello again.", NULL);
  agent_test_run_turn (&s, "Hi");
  g_assert_cmpint (num_ctx (s.server, 1), ==, -1);

  /* A window the application set is sent whole: it is its choice */
  agent_provider_set_max_context_window (s.provider, 4096);
  agent_session_set_context_window (s.session, 32768);
  agent_test_add_text_answer (s.server, "ollama", "Long.", NULL);
  agent_test_run_turn (&s, "Hi");
  g_assert_cmpint (num_ctx (s.server, 2), ==, 32768);

  agent_test_session_clear (&s);
}

static void
fetched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gint64
fetch_window (AgentProvider  *provider,
              GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_provider_fetch_context_window_async (provider, NULL, NULL, fetched_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return agent_provider_fetch_context_window_finish (provider, result, error);
}

static void
add_show (AgentTestServer *server,
          gint64           context_length)
{
  g_autofree char *body = g_strdup_printf ("{\"modelfile\":\"FROM x\",\"details\":{\"family\":"
                                           "\"llama\"},\"model_info\":{\"general.architecture\":"
                                           "\"llama\",\"llama.context_length\":%" G_GINT64_FORMAT
                                           ",\"llama.embedding_length\":4096}}",
                                           context_length);

  agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                "application/json", body);
}

static void
test_fetched (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_provider_new (server, "ollama");
  g_autoptr(GError) error = NULL;

  agent_provider_set_model (provider, "llama3.1:8b");

  /* 128 k trained: capped at the default of 16 k */
  add_show (server, 131072);
  g_assert_cmpint (fetch_window (provider, &error), ==, 16384);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/api/show");

  /* A small model: its own */
  add_show (server, 8192);
  g_assert_cmpint (fetch_window (provider, &error), ==, 8192);
  g_assert_no_error (error);

  /* No cap: the model's */
  agent_provider_set_max_context_window (provider, 0);
  add_show (server, 131072);
  g_assert_cmpint (fetch_window (provider, &error), ==, 131072);
  g_assert_no_error (error);

  /* Another cap */
  agent_provider_set_max_context_window (provider, 65536);
  add_show (server, 131072);
  g_assert_cmpint (fetch_window (provider, &error), ==, 65536);
  g_assert_no_error (error);
}

/* A compaction's summary is a request like the others: same num_ctx */
static void
test_summary (void)
{
  AgentTestSession s;
  g_autoptr(AgentContextPolicy) policy = NULL;
  const AgentTestAnswerUsage large = { 1500, 1600, -1, -1 };
  g_autofree char *summary_request = NULL;

  agent_test_session_init (&s, "ollama");
  policy = agent_context_policy_new (AGENT_CONTEXT_STRATEGY_SUMMARIZE);
  agent_context_policy_set_keep_turns (policy, 1);
  agent_context_policy_set_auto_compact (policy, TRUE);
  agent_session_set_context_policy (s.session, policy);
  agent_session_set_context_window (s.session, 2048);

  /* The first answer fills the window: the second turn compacts first */
  agent_test_add_text_answer (s.server, "ollama", "One.", &large);
  agent_test_add_text_answer (s.server, "ollama", "A summary.", NULL);
  agent_test_add_text_answer (s.server, "ollama", "Two.", NULL);
  agent_test_run_turn (&s, "One");
  agent_test_run_turn (&s, "Two");

  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 3);
  summary_request = json_to_string (agent_test_server_get_request_body (s.server, 1), FALSE);
  agent_test_assert_contains (summary_request, agent_context_policy_get_summary_prompt (policy));
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (num_ctx (s.server, i), ==, 2048);

  agent_test_session_clear (&s);
}

static void
test_keep_alive (void)
{
  static const struct {
    const char *value;
    const char *json;   /* keep_alive as sent */
  } cases[] = {
    { "10m", "\"10m\"" },
    { "1h30m", "\"1h30m\"" },
    { "-1h", "\"-1h\"" },
    { "300ms", "\"300ms\"" },
    { "3600", "3600" },
    { "-1", "-1" },
    { "0", "0" },
    { "2.5", "2.5" },
  };
  static const char * const refused[] = { "5x", "m", "10 m", "-", "1h-", "forever", "1e3" };
  AgentTestSession s;

  agent_test_session_init (&s, "ollama");

  agent_test_add_text_answer (s.server, "ollama", "Hi.", NULL);
  agent_test_run_turn (&s, "Hi");
  g_assert_false (json_object_has_member (agent_test_request_object (s.server, 0), "keep_alive"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *sent = NULL;
      JsonObject *body;

      g_assert_true (agent_provider_set_keep_alive (s.provider, cases[i].value, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (agent_provider_get_keep_alive (s.provider), ==, cases[i].value);
      agent_test_add_text_answer (s.server, "ollama", "Hi.", NULL);
      agent_test_run_turn (&s, "Hi");
      body = agent_test_request_object (s.server, i + 1);
      sent = json_to_string (json_object_get_member (body, "keep_alive"), FALSE);
      g_assert_cmpstr (sent, ==, cases[i].json);
    }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (agent_provider_set_keep_alive (s.provider, refused[i], &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (error->message, "keep-alive");
      agent_test_assert_contains (error->message, refused[i]);
      /* Unchanged */
      g_assert_cmpstr (agent_provider_get_keep_alive (s.provider), ==, "2.5");
    }

  g_assert_true (agent_provider_set_keep_alive (s.provider, NULL, NULL));
  g_assert_null (agent_provider_get_keep_alive (s.provider));
  agent_test_session_clear (&s);

  /* An API without it refuses it, before anything is sent */
  agent_test_session_init (&s, "openai");
  g_assert_true (agent_provider_set_keep_alive (s.provider, "10m", NULL));
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (s.turn.error->message, "OpenAI");
  agent_test_assert_contains (s.turn.error->message, "keep-alive");
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);
  agent_test_session_clear (&s);
}

static void
test_llama_cpp_props (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_provider_new (server, "openai");
  g_autoptr(GError) error = NULL;
  const char *models = "{\"object\":\"list\",\"data\":[{\"id\":\"qwen2.5-7b-instruct-q4_k_m.gguf\","
                       "\"object\":\"model\",\"created\":1735689600,\"owned_by\":\"llamacpp\","
                       "\"meta\":{\"vocab_type\":2,\"n_vocab\":152064,\"n_ctx_train\":32768,"
                       "\"n_embd\":3584,\"n_params\":7615616512,\"size\":4677120000}}]}";

  /* llama.cpp ignores the model named: its own is the one */
  agent_provider_set_model (provider, "anything");

  agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                "application/json", models);
  agent_test_response_set_body (agent_test_server_add_response (server, 200), "application/json",
                                "{\"default_generation_settings\":{\"n_ctx\":4096,"
                                "\"temperature\":0.8},\"total_slots\":1,"
                                "\"model_path\":\"/models/qwen.gguf\"}");
  g_assert_cmpint (fetch_window (provider, &error), ==, 4096);
  g_assert_no_error (error);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/models");
  g_assert_cmpstr (agent_test_server_get_request_path (server, 1), ==, "/props");

  /* A server without /props: unknown, not an error */
  agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                "application/json", models);
  agent_test_response_set_body (agent_test_server_add_response (server, 404), "application/json",
                                "{\"error\":{\"code\":404,\"message\":\"File Not Found\"}}");
  g_assert_cmpint (fetch_window (provider, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 4);

  /* LM Studio says it in its list: nothing else is asked */
  agent_provider_set_model (provider, "qwen2.5-7b");
  agent_test_response_set_body (agent_test_server_add_response (server, 200), "application/json",
                                "{\"data\":[{\"id\":\"qwen2.5-7b\",\"object\":\"model\","
                                "\"owned_by\":\"organization_owner\","
                                "\"context_length\":32768}]}");
  g_assert_cmpint (fetch_window (provider, &error), ==, 32768);
  g_assert_no_error (error);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/ollama/conversation", test_conversation);
  g_test_add_func ("/window/ollama/unknown", test_unknown);
  g_test_add_func ("/window/ollama/fetched", test_fetched);
  g_test_add_func ("/window/ollama/summary", test_summary);
  g_test_add_func ("/window/ollama/keep-alive", test_keep_alive);
  g_test_add_func ("/window/llama-cpp/props", test_llama_cpp_props);

  return g_test_run ();
}
