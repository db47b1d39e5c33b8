/* test-session.c — the tool loop against a real HTTP server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GString         *text;          /* every text-delta, concatenated */
  GPtrArray       *events;        /* "signal:detail" in emission order */
  AgentMessage    *result;
  GError          *error;
  gboolean         finished;
} Fixture;

static void
record (Fixture    *f,
        const char *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
record (Fixture    *f,
        const char *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (f->events, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
  record (f, "text:%s", delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    Fixture       *f)
{
  record (f, "tool-call-delta:%u:%s:%s", agent_tool_call_get_index (call),
          agent_tool_call_get_name (call), delta);
}

static void
tool_call_cb (AgentSession  *session,
              AgentToolCall *call,
              Fixture       *f)
{
  record (f, "tool-call:%s:%s", agent_tool_call_get_name (call), agent_tool_call_get_arguments (call));
}

static void
tool_started_cb (AgentSession  *session,
                 AgentToolCall *call,
                 Fixture       *f)
{
  record (f, "tool-started:%s", agent_tool_call_get_id (call));
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Fixture       *f)
{
  record (f, "tool-finished:%s:%s%s", agent_tool_call_get_id (call),
          agent_tool_call_is_error (call) ? "error:" : "", agent_tool_call_get_result (call));
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  Fixture      *f)
{
  record (f, "step-finished:%s", agent_message_get_finish_reason (message));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  f->server = agent_test_server_new ();
  f->provider = agent_provider_new ("openai", NULL);
  agent_provider_set_base_url (f->provider, agent_test_server_get_base_url (f->server));
  agent_provider_set_model (f->provider, "test-model");
  f->session = agent_session_new (f->provider);
  agent_session_add_tool (f->session, calculator);
  f->text = g_string_new (NULL);
  f->events = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (f->session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), f);
  g_signal_connect (f->session, "tool-call", G_CALLBACK (tool_call_cb), f);
  g_signal_connect (f->session, "tool-started", G_CALLBACK (tool_started_cb), f);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), f);
  g_signal_connect (f->session, "step-finished", G_CALLBACK (step_finished_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->result);
  g_clear_error (&f->error);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_string_free (f->text, TRUE);
  g_ptr_array_unref (f->events);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Fixture *f = user_data;

  f->result = agent_session_send_finish (AGENT_SESSION (object), result, &f->error);
  f->finished = TRUE;
}

static void
send_and_wait (Fixture      *f,
               const char   *text,
               GCancellable *cancellable)
{
  f->finished = FALSE;
  g_clear_object (&f->result);
  g_clear_error (&f->error);
  agent_session_send_async (f->session, text, cancellable, send_cb, f);
  agent_test_wait_for (&f->finished);
}

static void
add_text_response (Fixture    *f,
                   const char *const *words)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  agent_test_response_add_sse (r, "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");
  for (guint i = 0; words[i]; i++)
    agent_test_response_add_sse_printf (r, "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"}}]}", words[i]);
  agent_test_response_add_sse (r, "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}");
  agent_test_response_add_sse (r, "{\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3,\"total_tokens\":13}}");
  agent_test_response_add_done (r);
}

static void
test_text_only (Fixture       *f,
                gconstpointer  data)
{
  static const char * const words[] = { "Hello", ", ", "world", "!", NULL };
  JsonObject *request;
  AgentUsage *usage;

  add_text_response (f, words);
  send_and_wait (f, "Say hello", NULL);

  g_assert_no_error (f->error);
  g_assert_nonnull (f->result);
  g_assert_cmpstr (agent_message_get_content (f->result), ==, "Hello, world!");
  g_assert_cmpstr (f->text->str, ==, "Hello, world!");
  g_assert_cmpstr (agent_message_get_finish_reason (f->result), ==, "stop");
  g_assert_cmpint (agent_message_get_state (f->result), ==, AGENT_MESSAGE_STATE_COMPLETE);

  usage = agent_session_get_usage (f->session);
  g_assert_nonnull (usage);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, 13);

  /* The request */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/chat/completions");
  g_assert_null (agent_test_server_get_request_header (f->server, 0, "Authorization"));
  request = json_node_get_object (agent_test_server_get_request_body (f->server, 0));
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "test-model");
  g_assert_true (json_object_get_boolean_member (request, "stream"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (request, "stream_options"),
                                                 "include_usage"));

  /* Memory: user, assistant */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session))), ==, 2);
  g_assert_false (agent_session_get_busy (f->session));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/session/text-only", Fixture, NULL, fixture_setup, test_text_only, fixture_teardown);

  return g_test_run ();
}
