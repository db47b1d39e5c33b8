/* test-control-util.c — the fixture of the loop-control tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-openai.h"
#include "test-control-util.h"

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Fixture       *f)
{
  g_ptr_array_add (f->finished, g_strdup (agent_tool_call_get_id (call)));
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
  f->finished = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), f);
}

void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_ptr_array_unref (f->finished);
}

guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  g_autoptr(AgentMessage) message =
    g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), index);

  g_assert_nonnull (message);
  return message;  /* the memory keeps it alive */
}

/* No assistant message in memory has a call without its result right
 * after it, in call order. */
void
assert_memory_consistent (Fixture *f)
{
  guint n = memory_length (f);

  for (guint i = 0; i < n; i++)
    {
      AgentMessage *message = memory_message (f, i);

      for (guint c = 0; c < agent_message_get_n_tool_calls (message); c++)
        {
          AgentMessage *result;

          g_assert_cmpuint (i + 1 + c, <, n);
          result = memory_message (f, i + 1 + c);
          g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
          g_assert_cmpstr (agent_message_get_tool_call_id (result), ==,
                           agent_tool_call_get_id (agent_message_get_tool_call (message, c)));
        }
    }
}

void
add_answer (Fixture    *f,
            const char *text)
{
  const char * const deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, 10, 5);
}

/* One step calling @name with @arguments, @n times (ids c0, c1, …) */
void
add_calls (Fixture    *f,
           const char *name,
           const char *arguments,
           guint       n)
{
  g_autofree AgentTestToolChunk *chunks = g_new0 (AgentTestToolChunk, n);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (ids, g_strdup_printf ("c%u", i));
      chunks[i].index = i;
      chunks[i].id = g_ptr_array_index (ids, i);
      chunks[i].name = name;
      chunks[i].arguments = arguments;
    }
  agent_test_openai_add_tool_response (f->server, chunks, n, 10, 5);
}

const char *
tool_message (Fixture    *f,
              guint       request,
              const char *call_id)
{
  return agent_test_openai_tool_message_content (f->server, request, call_id);
}
