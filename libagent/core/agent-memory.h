/* agent-memory.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-message.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_MEMORY (agent_memory_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AgentMemory, agent_memory, AGENT, MEMORY, GListModel)

/**
 * AgentMemoryInterface:
 * @parent_iface: the parent interface
 * @append: stores @message after the last message. Returns %FALSE and sets
 *   @error when the message could not be stored.
 * @truncate: ends the list before position @n_items (to regenerate an
 *   answer or edit a prompt). A memory with branches keeps what it cut as a
 *   branch; one without forgets it. Returns %FALSE and sets @error when
 *   it could not be done. Optional: without it, memories cannot be cut.
 * @sync_async: makes what was appended so far durable, for a memory that
 *   writes it somewhere after @append returned (on a thread of its own, as
 *   [class@Agent.Conversation] does). Optional: without it, a memory is
 *   taken as durable once @append returned.
 * @sync_finish: finishes @sync_async. Returns %FALSE and sets @error when
 *   what was appended could not be kept.
 * @get_n_siblings: how many messages (itself included) could stand at
 *   @position: those that regenerating or editing made there. Optional:
 *   without it, 1 for every message of a memory without branches.
 * @get_sibling_index: which of them, from 0 in the order they came, is at
 *   @position. Optional (0).
 * @select_sibling: puts sibling @index at @position, with the newest
 *   messages that followed it. Optional: without it, only the sibling that
 *   is there can be selected.
 * @delete_branch: deletes the message at @position and every message that
 *   followed it, in any branch. Optional: without it, @truncate.
 * @branch: ends the list before @position, keeping what it cut as a branch:
 *   the next message appended is a sibling of the one that was at
 *   @position. Optional: without it, @truncate.
 *
 * The interface of a conversation's memory: a [iface@Gio.ListModel] of
 * [class@Agent.Message], in order, that a session appends to as the
 * conversation goes on.
 *
 * @append and @truncate change the list at once, on the caller's thread:
 * a session builds its next request from the list as it is. Keeping the
 * messages somewhere (a file, a database) is the implementation's
 * business, and may take time: it may do it later, elsewhere, and say when
 * it is done with @sync_async, which a session awaits before each request
 * (so that what a model answers is never lost before the answer is).
 *
 * An implementation, in C, Python or JavaScript, implements the list
 * model's `get_item_type`, `get_n_items` and `get_item` and emits
 * [signal@Gio.ListModel::items-changed] when @append or @truncate changed
 * it (from the first position that changed): [method@Agent.Session.get_transcript] follows that signal. In Python:
 *
 * ```python
 * class ListMemory(GObject.Object, Gio.ListModel, Agent.Memory):
 *     def __init__(self):
 *         super().__init__()
 *         self.messages = []
 *
 *     def do_get_item_type(self):
 *         return Agent.Message.__gtype__
 *
 *     def do_get_n_items(self):
 *         return len(self.messages)
 *
 *     def do_get_item(self, position):
 *         return self.messages[position] if position < len(self.messages) else None
 *
 *     def do_append(self, message):
 *         self.messages.append(message)
 *         self.items_changed(len(self.messages) - 1, 0, 1)
 *         return True
 * ```
 *
 * Since: 0.1
 */
struct _AgentMemoryInterface
{
  GTypeInterface parent_iface;

  gboolean (*append)   (AgentMemory   *self,
                        AgentMessage  *message,
                        GError       **error);
  gboolean (*truncate) (AgentMemory   *self,
                        guint          n_items,
                        GError       **error);
  void     (*sync_async)  (AgentMemory         *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data);
  gboolean (*sync_finish) (AgentMemory         *self,
                           GAsyncResult        *result,
                           GError             **error);
  guint    (*get_n_siblings)    (AgentMemory  *self,
                                 guint         position);
  guint    (*get_sibling_index) (AgentMemory  *self,
                                 guint         position);
  gboolean (*select_sibling)    (AgentMemory  *self,
                                 guint         position,
                                 guint         index,
                                 GError      **error);
  gboolean (*delete_branch)     (AgentMemory  *self,
                                 guint         position,
                                 GError      **error);
  gboolean (*branch)            (AgentMemory  *self,
                                 guint         position,
                                 GError      **error);
};

AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_append   (AgentMemory   *self,
                                AgentMessage  *message,
                                GError       **error);
AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_truncate (AgentMemory   *self,
                                guint          n_items,
                                GError       **error);
AGENT_AVAILABLE_IN_ALL
void     agent_memory_sync_async  (AgentMemory          *self,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_sync_finish (AgentMemory          *self,
                                   GAsyncResult         *result,
                                   GError              **error);

AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_branch            (AgentMemory  *self,
                                         guint         position,
                                         GError      **error);
AGENT_AVAILABLE_IN_ALL
guint    agent_memory_get_n_siblings    (AgentMemory  *self,
                                         guint         position);
AGENT_AVAILABLE_IN_ALL
guint    agent_memory_get_sibling_index (AgentMemory  *self,
                                         guint         position);
AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_select_sibling    (AgentMemory  *self,
                                         guint         position,
                                         guint         index,
                                         GError      **error);
AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_delete_branch     (AgentMemory  *self,
                                         guint         position,
                                         GError      **error);

#define AGENT_TYPE_SIMPLE_MEMORY (agent_simple_memory_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentSimpleMemory, agent_simple_memory, AGENT, SIMPLE_MEMORY, GObject)

AGENT_AVAILABLE_IN_ALL
AgentMemory *agent_simple_memory_new (void) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
