/* test-session-util.c — the fixture of the tool-loop tests: a session on a
 * real HTTP server, the signals it emitted, and the model's scripted answers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-openai.h"
#include "test-session-util.h"

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

void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
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

void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_string_free (f->text, TRUE);
  g_ptr_array_unref (f->events);
}
/* Scripted model answers */

void
add_calculator_call (Fixture    *f,
                     const char *id,
                     const char *expression)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);
  g_autofree char *arguments = g_strdup_printf ("{\"expression\": \"%s\"}", expression);
  gsize len = strlen (arguments);

  /* Arguments in three fragments */
  agent_test_openai_add_tool_call (r, 0, id, "calculator", "");
  {
    g_autofree char *a = g_strndup (arguments, len / 3);
    g_autofree char *b = g_strndup (arguments + len / 3, len / 3);

    agent_test_openai_add_tool_call (r, 0, NULL, NULL, a);
    agent_test_openai_add_tool_call (r, 0, NULL, NULL, b);
    agent_test_openai_add_tool_call (r, 0, NULL, NULL, arguments + 2 * (len / 3));
  }
  agent_test_openai_add_end (r, "tool_calls", 20, 5);
}

void
add_answer (Fixture    *f,
            const char *text)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);

  agent_test_openai_add_text (r, text);
  agent_test_openai_add_end (r, "stop", 30, 7);
}

AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_autoptr(AgentMessage) message = g_list_model_get_item (memory, index);

  g_assert_nonnull (message);
  return message;  /* the memory keeps it alive */
}

guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

/* The arguments of call @nth of the assistant's message (the second one)
 * in request @request, as sent. */
const char *
sent_arguments (Fixture *f,
                guint    request,
                guint    nth)
{
  JsonObject *assistant = agent_test_openai_get_message (f->server, request, 1);
  JsonArray *calls = json_object_get_array_member (assistant, "tool_calls");

  return agent_test_openai_function_string (calls, nth, "arguments");
}

gboolean
has_event (Fixture    *f,
           const char *event)
{
  for (guint i = 0; i < f->events->len; i++)
    if (g_str_equal (g_ptr_array_index (f->events, i), event))
      return TRUE;
  return FALSE;
}

/* The invariant every test checks at the end: no assistant message in
 * memory has a call without its result right after it, in call order. */
void
assert_memory_consistent (Fixture *f)
{
  guint n = memory_length (f);

  for (guint i = 0; i < n; i++)
    {
      AgentMessage *message = memory_message (f, i);
      guint n_calls = agent_message_get_n_tool_calls (message);

      for (guint c = 0; c < n_calls; c++)
        {
          AgentToolCall *call = agent_message_get_tool_call (message, c);
          AgentMessage *result;

          g_assert_cmpuint (i + 1 + c, <, n);
          result = memory_message (f, i + 1 + c);
          g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
          g_assert_cmpstr (agent_message_get_tool_call_id (result), ==, agent_tool_call_get_id (call));
        }
    }
}
