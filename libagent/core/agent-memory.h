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
 * @truncate: forgets the messages from position @n_items on (to regenerate
 *   an answer or edit a prompt). Returns %FALSE and sets @error when they
 *   could not be removed. Optional: without it, memories cannot be cut.
 *
 * The interface of a conversation's memory: a [iface@Gio.ListModel] of
 * [class@Agent.Message], in order, that a session appends to as the
 * conversation goes on.
 *
 * An implementation, in C, Python or JavaScript, implements the list
 * model's `get_item_type`, `get_n_items` and `get_item` and emits
 * [signal@Gio.ListModel::items-changed] when @append or @truncate changed
 * it: [method@Agent.Session.get_transcript] follows that signal. In Python:
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
};

AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_append   (AgentMemory   *self,
                                AgentMessage  *message,
                                GError       **error);
AGENT_AVAILABLE_IN_ALL
gboolean agent_memory_truncate (AgentMemory   *self,
                                guint          n_items,
                                GError       **error);

#define AGENT_TYPE_SIMPLE_MEMORY (agent_simple_memory_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentSimpleMemory, agent_simple_memory, AGENT, SIMPLE_MEMORY, GObject)

AGENT_AVAILABLE_IN_ALL
AgentMemory *agent_simple_memory_new (void) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
