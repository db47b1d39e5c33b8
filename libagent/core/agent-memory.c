/* agent-memory.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-memory-private.h"

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

/* Durable once appended */
static void
agent_memory_real_sync_async (AgentMemory         *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, agent_memory_real_sync_async);
  g_task_return_boolean (task, TRUE);
}

static gboolean
agent_memory_real_sync_finish (AgentMemory   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
agent_memory_default_init (AgentMemoryInterface *iface)
{
  iface->append = agent_memory_real_append;
  iface->truncate = agent_memory_real_truncate;
  iface->sync_async = agent_memory_real_sync_async;
  iface->sync_finish = agent_memory_real_sync_finish;
  _agent_memory_branches_init (iface);
}

/* Whether @self keeps its messages after append returned (a session then
 * awaits agent_memory_sync_async() before each request) */
gboolean
_agent_memory_syncs_later (AgentMemory *self)
{
  return AGENT_MEMORY_GET_IFACE (self)->sync_async != agent_memory_real_sync_async;
}

/**
 * agent_memory_sync_async:
 * @self: a [iface@Agent.Memory]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when what was appended is kept
 * @user_data: data for @callback
 *
 * Waits until what was appended so far is durable: at once for a memory
 * that keeps its messages when they are appended, and once written for
 * one that writes them later, on a thread of its own (as
 * [class@Agent.Conversation] commits them on its store's writer thread).
 * A session awaits it before each request.
 *
 * Since: 0.1
 */
void
agent_memory_sync_async (AgentMemory         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_MEMORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  AGENT_MEMORY_GET_IFACE (self)->sync_async (self, cancellable, callback, user_data);
}

/**
 * agent_memory_sync_finish:
 * @self: a [iface@Agent.Memory]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Memory.sync_async].
 *
 * Returns: %TRUE if what was appended is kept; %FALSE with @error set when
 *   it could not be (%AGENT_ERROR_STORAGE), or the wait was cancelled
 *
 * Since: 0.1
 */
gboolean
agent_memory_sync_finish (AgentMemory   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AGENT_MEMORY_GET_IFACE (self)->sync_finish (self, result, error);
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
 * Ends the list before position @n_items: the older name of
 * [method@Agent.Memory.branch], which it now is. A memory with branches
 * ([class@Agent.SimpleMemory], [class@Agent.Conversation]) keeps the
 * messages it cut as a branch, which
 * [method@Agent.Memory.select_sibling] brings back and
 * [method@Agent.Memory.delete_branch] deletes; a memory without branches
 * forgets them, as before.
 *
 * A memory that cannot be cut fails with %AGENT_ERROR_STORAGE. Do not cut
 * the memory of a session while it runs a turn.
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

  return agent_memory_branch (self, n_items, error);
}
