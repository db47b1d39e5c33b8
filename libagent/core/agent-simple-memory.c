/* agent-simple-memory.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-memory.h"

/**
 * AgentSimpleMemory:
 *
 * An [iface@Agent.Memory] that keeps the conversation in memory. It is the
 * memory a new [class@Agent.Session] starts with.
 *
 * Since: 0.1
 */

struct _AgentSimpleMemory
{
  GObject    parent_instance;
  GPtrArray *messages;
};

static GType
agent_simple_memory_get_item_type (GListModel *model)
{
  return AGENT_TYPE_MESSAGE;
}

static guint
agent_simple_memory_get_n_items (GListModel *model)
{
  return AGENT_SIMPLE_MEMORY (model)->messages->len;
}

static gpointer
agent_simple_memory_get_item (GListModel *model,
                              guint       position)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (model);

  if (position >= self->messages->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->messages, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agent_simple_memory_get_item_type;
  iface->get_n_items = agent_simple_memory_get_n_items;
  iface->get_item = agent_simple_memory_get_item;
}

static gboolean
agent_simple_memory_append (AgentMemory   *memory,
                            AgentMessage  *message,
                            GError       **error)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (memory);

  g_ptr_array_add (self->messages, g_object_ref (message));
  g_list_model_items_changed (G_LIST_MODEL (self), self->messages->len - 1, 0, 1);
  return TRUE;
}

static gboolean
agent_simple_memory_truncate (AgentMemory  *memory,
                              guint         n_items,
                              GError      **error)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (memory);
  guint removed = self->messages->len - n_items;

  g_ptr_array_set_size (self->messages, n_items);
  g_list_model_items_changed (G_LIST_MODEL (self), n_items, removed, 0);
  return TRUE;
}

static void
memory_iface_init (AgentMemoryInterface *iface)
{
  iface->append = agent_simple_memory_append;
  iface->truncate = agent_simple_memory_truncate;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentSimpleMemory, agent_simple_memory, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init)
                               G_IMPLEMENT_INTERFACE (AGENT_TYPE_MEMORY, memory_iface_init))

static void
agent_simple_memory_dispose (GObject *object)
{
  AgentSimpleMemory *self = (AgentSimpleMemory *)object;

  g_ptr_array_set_size (self->messages, 0);

  G_OBJECT_CLASS (agent_simple_memory_parent_class)->dispose (object);
}

static void
agent_simple_memory_finalize (GObject *object)
{
  AgentSimpleMemory *self = (AgentSimpleMemory *)object;

  g_ptr_array_unref (self->messages);

  G_OBJECT_CLASS (agent_simple_memory_parent_class)->finalize (object);
}

static void
agent_simple_memory_class_init (AgentSimpleMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_simple_memory_dispose;
  object_class->finalize = agent_simple_memory_finalize;
}

static void
agent_simple_memory_init (AgentSimpleMemory *self)
{
  self->messages = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * agent_simple_memory_new:
 *
 * Creates an empty in-memory conversation.
 *
 * Returns: (transfer full) (type AgentSimpleMemory): a new `AgentSimpleMemory`
 *
 * Since: 0.1
 */
AgentMemory *
agent_simple_memory_new (void)
{
  return g_object_new (AGENT_TYPE_SIMPLE_MEMORY, NULL);
}
