/* test-model-capabilities.c — what a turn sends, as an Ollama model can take it
 *
 * Against the fake Ollama (agent-test-ollama.c), which records each
 * request:
 *
 * - /capabilities/vision: a message with an image for a model without
 *   vision is refused before it is kept or sent, naming the model; a model
 *   with vision gets the image.
 * - /capabilities/tools: a model without tools is asked without them, and
 *   ::notice says so once a turn; a model with tools gets them.
 * - /capabilities/thinking: `think` follows the reasoning effort for a
 *   thinking model, and is never sent to one that cannot think.
 * - /capabilities/cached: /api/show is asked once per model, not per turn;
 *   not at all for a turn without images, tools or a reasoning effort.
 * - /capabilities/unknown: a server that does not describe the model
 *   leaves the request as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-ollama.h"
#include "agent-test-png.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestOllama *ollama;
  AgentProvider   *provider;
  AgentSession    *session;
  GPtrArray       *notices;   /* "code: message" */
} Fixture;

static void
notice_cb (AgentSession *session,
           const char   *code,
           const char   *message,
           Fixture      *f)
{
  g_ptr_array_add (f->notices, g_strdup_printf ("%s: %s", code, message));
}

static void
fixture_init (Fixture    *f,
              const char *model)
{
  g_autoptr(GError) error = NULL;

  f->ollama = agent_test_ollama_new ();
  agent_test_ollama_add_model (f->ollama, "llava:7b", "llama", "7B", "Q4_0", 4733363377, 32768,
                               "completion,vision");
  agent_test_ollama_add_model (f->ollama, "qwen3:8b", "qwen3", "8.2B", "Q4_K_M", 5225376047,
                               40960, "completion,tools,thinking");
  agent_test_ollama_add_model (f->ollama, "gemma:2b", "gemma", "3B", "Q4_0", 1678456656, 8192,
                               "completion");
  f->provider = agent_provider_new ("ollama", &error);
  g_assert_no_error (error);
  agent_provider_set_base_url (f->provider, agent_test_ollama_get_base_url (f->ollama));
  agent_provider_set_model (f->provider, model);
  f->session = agent_session_new (f->provider);
  f->notices = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->session, "notice", G_CALLBACK (notice_cb), f);
}

static void
fixture_clear (Fixture *f)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_ollama_free (f->ollama);
  g_ptr_array_unref (f->notices);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
send (Fixture      *f,
      const char   *text,
      AgentMessage *message,
      GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AgentMessage) answer = NULL;

  if (message != NULL)
    agent_session_send_message_async (f->session, message, NULL, result_cb, &result);
  else
    agent_session_send_async (f->session, text, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (message != NULL)
    answer = agent_session_send_message_finish (f->session, result, error);
  else
    answer = agent_session_send_finish (f->session, result, error);
  return answer != NULL;
}

/* The body of the last /api/chat request */
static JsonObject *
last_chat (Fixture *f)
{
  AgentTestServer *server = agent_test_ollama_get_server (f->ollama);

  for (guint i = agent_test_server_get_n_requests (server); i > 0; i--)
    if (g_str_equal (agent_test_server_get_request_path (server, i - 1), "/api/chat"))
      return json_node_get_object (agent_test_server_get_request_body (server, i - 1));
  g_assert_not_reached ();
}

static gboolean
last_user_has_images (Fixture *f)
{
  JsonArray *messages = json_object_get_array_member (last_chat (f), "messages");
  JsonObject *last = json_array_get_object_element (messages,
                                                     json_array_get_length (messages) - 1);

  return json_object_has_member (last, "images");
}

static void
test_vision (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) png = agent_test_grey_png_new (8, 8, 8);
  g_autoptr(AgentMessage) message = agent_test_image_message_new ("What is this?", png);
  g_autoptr(AgentMessage) again = agent_test_image_message_new ("And this?", png);

  fixture_init (&f, "qwen3:8b");
  g_assert_false (send (&f, NULL, message, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  agent_test_assert_contains (error->message, "“qwen3:8b” cannot see images");
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/chat"), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f.session))),
                    ==, 0);
  g_clear_error (&error);

  /* A model with vision gets it */
  agent_provider_set_model (f.provider, "llava:7b");
  g_assert_true (send (&f, NULL, again, &error));
  g_assert_no_error (error);
  g_assert_true (last_user_has_images (&f));

  fixture_clear (&f);
}

static void
test_tools (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  fixture_init (&f, "gemma:2b");
  agent_session_add_tool (f.session, calculator);
  g_assert_true (send (&f, "What is 6*7?", NULL, &error));
  g_assert_no_error (error);
  g_assert_false (json_object_has_member (last_chat (&f), "tools"));
  g_assert_cmpuint (f.notices->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f.notices, 0), ==,
                   "no-tools: Model “gemma:2b” cannot call tools: it answers without them");

  agent_provider_set_model (f.provider, "qwen3:8b");
  g_assert_true (send (&f, "And 7*8?", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (last_chat (&f), "tools"));
  g_assert_cmpuint (f.notices->len, ==, 1);

  fixture_clear (&f);
}

static void
test_thinking (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;

  fixture_init (&f, "qwen3:8b");
  agent_provider_set_reasoning_effort (f.provider, AGENT_REASONING_EFFORT_NONE);
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_true (json_object_has_member (last_chat (&f), "think"));
  g_assert_false (json_object_get_boolean_member (last_chat (&f), "think"));

  agent_provider_set_reasoning_effort (f.provider, AGENT_REASONING_EFFORT_HIGH);
  g_assert_true (send (&f, "Think", NULL, &error));
  g_assert_true (json_object_get_boolean_member (last_chat (&f), "think"));

  /* A model that cannot think is not asked to, nor not to */
  agent_provider_set_model (f.provider, "gemma:2b");
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_no_error (error);
  g_assert_false (json_object_has_member (last_chat (&f), "think"));
  agent_provider_set_reasoning_effort (f.provider, AGENT_REASONING_EFFORT_NONE);
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_false (json_object_has_member (last_chat (&f), "think"));

  fixture_clear (&f);
}

static void
test_cached (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  fixture_init (&f, "qwen3:8b");
  agent_session_add_tool (f.session, calculator);
  for (guint i = 0; i < 3; i++)
    g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 1);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/chat"), ==, 3);

  agent_provider_set_model (f.provider, "gemma:2b");
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 2);

  /* Nothing to gate: not asked */
  agent_session_remove_tool (f.session, calculator);
  agent_provider_set_model (f.provider, "llava:7b");
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 2);

  fixture_clear (&f);
}

static void
test_unknown (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  fixture_init (&f, "gemma:2b");
  agent_test_ollama_set_show_fails (f.ollama, "gemma:2b");
  agent_session_add_tool (f.session, calculator);
  g_assert_true (send (&f, "Hi", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (last_chat (&f), "tools"));
  g_assert_cmpuint (f.notices->len, ==, 0);

  fixture_clear (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capabilities/vision", test_vision);
  g_test_add_func ("/capabilities/tools", test_tools);
  g_test_add_func ("/capabilities/thinking", test_thinking);
  g_test_add_func ("/capabilities/cached", test_cached);
  g_test_add_func ("/capabilities/unknown", test_unknown);

  return g_test_run ();
}
