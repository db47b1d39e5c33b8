/* agent-memory.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-memory.h"

/**
 * AgentMemory:
 *
 * The memory of a conversation: the messages so far, in order, as a
 * [iface@Gio.ListModel] of [class@Agent.Message].
 *
 * A session builds each request from its memory and appends to it as the
 * turn goes on: the user's message first, then each assistant message —
 * one with tool calls is appended before its tools run — and the result of
 * every call, in call order, before the next request starts. It never
 * appends an assistant message whose tool calls stay unanswered.
 *
 * [class@Agent.SimpleMemory] keeps the messages in memory; implement the
 * interface to store them elsewhere.
 *
 * Since: 0.1
 */

G_DEFINE_INTERFACE (AgentMemory, agent_memory, G_TYPE_LIST_MODEL)

static gboolean
agent_memory_real_append (AgentMemory   *self,
                          AgentMessage  *message,
                          GError       **error)
{
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
               _("%s does not implement appending messages"),
               G_OBJECT_TYPE_NAME (self));
  return FALSE;
}

static gboolean
agent_memory_real_truncate (AgentMemory   *self,
                            guint          n_items,
                            GError       **error)
{
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
               _("%s cannot forget messages"), G_OBJECT_TYPE_NAME (self));
  return FALSE;
}

static void
agent_memory_default_init (AgentMemoryInterface *iface)
{
  iface->append = agent_memory_real_append;
  iface->truncate = agent_memory_real_truncate;
}

/**
 * agent_memory_append:
 * @self: a [iface@Agent.Memory]
 * @message: the message to store after the last one
 * @error: return location for a [struct@GLib.Error]
 *
 * Appends @message to the conversation.
 *
 * Returns: %TRUE if the message was stored
 *
 * Since: 0.1
 */
gboolean
agent_memory_append (AgentMemory   *self,
                     AgentMessage  *message,
                     GError       **error)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (AGENT_IS_MESSAGE (message), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AGENT_MEMORY_GET_IFACE (self)->append (self, message, error);
}

/**
 * agent_memory_truncate:
 * @self: a [iface@Agent.Memory]
 * @n_items: how many messages to keep, from the first
 * @error: return location for a [struct@GLib.Error]
 *
 * Forgets the messages from position @n_items on: to regenerate the last
 * answer, keep everything up to its prompt and call
 * [method@Agent.Session.continue_async]; to edit a prompt, keep what came
 * before it and send the new text.
 *
 * A memory whose messages cannot be removed fails with
 * %AGENT_ERROR_STORAGE. Do not cut the memory of a session while it runs a
 * turn.
 *
 * Returns: %TRUE if the memory now holds at most @n_items messages
 *
 * Since: 0.1
 */
gboolean
agent_memory_truncate (AgentMemory  *self,
                       guint         n_items,
                       GError      **error)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (n_items >= g_list_model_get_n_items (G_LIST_MODEL (self)))
    return TRUE;

  return AGENT_MEMORY_GET_IFACE (self)->truncate (self, n_items, error);
}
