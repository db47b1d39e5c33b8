/* agent-test-gui-store.c — a long conversation kept in a real SQLite store,
 * as agent-chat would have kept it, for the end-to-end tests that open it
 * in the real app:
 *
 *   agent-test-gui-store PATH N_TURNS N_TOOL_TURNS
 *
 * writes into the store at PATH (made if need be) a conversation of
 * N_TURNS turns: "Question N" and its answer ("Answer N, paragraph M: …",
 * one to nine paragraphs); every (N_TURNS / N_TOOL_TURNS)th turn of the
 * first N_TOOL_TURNS × that first calls a tool (an answer with the call,
 * its result, then the answer). 260 turns with 22 of them calling a tool
 * make 564 messages. Prints the conversation's id.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <agent.h>

static void
append (AgentMemory  *memory,
        AgentMessage *message)
{
  g_autoptr(GError) error = NULL;

  if (!agent_memory_append (memory, message, &error))
    {
      g_printerr ("agent-test-gui-store: %s\n", error->message);
      exit (1);
    }
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  gboolean *flushed = user_data;
  g_autoptr(GError) error = NULL;

  if (!agent_store_flush_finish (AGENT_STORE (object), result, &error))
    g_printerr ("agent-test-gui-store: %s\n", error->message);
  *flushed = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  AgentMemory *memory;
  gboolean flushed = FALSE;
  guint n_turns;
  guint n_tool_turns;
  guint every;

  if (argc != 4)
    {
      g_printerr ("Usage: agent-test-gui-store PATH N_TURNS N_TOOL_TURNS\n");
      return 2;
    }
  n_turns = (guint) g_ascii_strtoull (argv[2], NULL, 10);
  n_tool_turns = (guint) g_ascii_strtoull (argv[3], NULL, 10);
  every = n_tool_turns > 0 ? MAX (n_turns / n_tool_turns, 1) : 0;

  if (!(store = agent_store_new (argv[1], &error)))
    {
      g_printerr ("agent-test-gui-store: %s\n", error->message);
      return 1;
    }
  conversation = agent_store_create_conversation (store);
  memory = AGENT_MEMORY (conversation);
  if (!agent_conversation_rename (conversation, "A long conversation", &error))
    {
      g_printerr ("agent-test-gui-store: %s\n", error->message);
      return 1;
    }

  for (guint i = 1; i <= n_turns; i++)
    {
      g_autofree char *question = g_strdup_printf ("Question %u", i);
      g_autoptr(GString) answer = g_string_new (NULL);
      g_autoptr(AgentMessage) asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, question);
      g_autoptr(AgentMessage) answered = NULL;

      append (memory, asked);
      if (every > 0 && i % every == 0 && i / every <= n_tool_turns)
        {
          g_autofree char *id = g_strdup_printf ("call_%u", i);
          g_autoptr(AgentMessage) calling = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT,
                                                               NULL);
          g_autoptr(AgentToolCall) call = agent_tool_call_new (id, "calculator",
                                                               "{\"expression\":\"6*7\"}");
          g_autoptr(AgentMessage) result = agent_message_new_tool_result (id, "calculator", "42",
                                                                          FALSE);

          agent_message_add_tool_call (calling, call);
          append (memory, calling);
          append (memory, result);
        }
      for (guint j = 0; j <= (i * 7) % 9; j++)
        g_string_append_printf (answer, "Answer %u, paragraph %u: a few words, enough to wrap "
                                "on a narrow window.\n\n", i, j + 1);
      answered = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer->str);
      append (memory, answered);
    }

  /* Committed on the store's writer thread */
  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  while (!flushed)
    g_main_context_iteration (NULL, TRUE);
  printf ("%" G_GINT64_FORMAT "\n", agent_conversation_get_id (conversation));
  return 0;
}
