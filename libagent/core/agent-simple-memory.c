/* agent-simple-memory.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-memory.h"
#include "core/agent-message-tree-private.h"

/**
 * AgentSimpleMemory:
 *
 * An [iface@Agent.Memory] that keeps the conversation in memory. It is the
 * memory a new [class@Agent.Session] starts with.
 *
 * It keeps branches: [method@Agent.Memory.branch] (and
 * [method@Agent.Memory.truncate]) keep what they cut, to come back to
 * with [method@Agent.Memory.select_sibling].
 *
 * Since: 0.1
 */

struct _AgentSimpleMemory
{
  GObject           parent_instance;
  AgentMessageTree *tree;
  GPtrArray        *messages;  /* the tree's path */
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

  _agent_message_tree_append (self->tree, message);
  g_list_model_items_changed (G_LIST_MODEL (self), self->messages->len - 1, 0, 1);
  return TRUE;
}

/* Also its truncate: nothing is forgotten but by delete_branch */
static gboolean
agent_simple_memory_branch (AgentMemory  *memory,
                            guint         position,
                            GError      **error)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (memory);
  guint removed;

  if (position >= self->messages->len)
    return TRUE;

  removed = self->messages->len - position;
  _agent_message_tree_cut (self->tree, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, 0);
  return TRUE;
}

static guint
agent_simple_memory_get_n_siblings (AgentMemory *memory,
                                    guint        position)
{
  return _agent_message_tree_get_n_siblings (AGENT_SIMPLE_MEMORY (memory)->tree, position);
}

static guint
agent_simple_memory_get_sibling_index (AgentMemory *memory,
                                       guint        position)
{
  return _agent_message_tree_get_sibling_index (AGENT_SIMPLE_MEMORY (memory)->tree, position);
}

static gboolean
agent_simple_memory_select_sibling (AgentMemory  *memory,
                                    guint         position,
                                    guint         index,
                                    GError      **error)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (memory);
  g_autoptr(GArray) siblings = NULL;
  guint first, removed, added;
  guint seq;

  siblings = _agent_message_tree_dup_siblings (self->tree,
                                               _agent_message_tree_get_seq (self->tree, position));
  seq = g_array_index (siblings, guint, index);
  _agent_message_tree_set_leaf (self->tree, _agent_message_tree_newest_under (self->tree, seq),
                                &first, &removed, &added);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first, removed, added);
  return TRUE;
}

static gboolean
agent_simple_memory_delete_branch (AgentMemory  *memory,
                                   guint         position,
                                   GError      **error)
{
  AgentSimpleMemory *self = AGENT_SIMPLE_MEMORY (memory);
  g_autoptr(GArray) gone = NULL;
  guint first, removed, added;

  gone = _agent_message_tree_remove (self->tree, _agent_message_tree_get_seq (self->tree, position),
                                     &first, &removed, &added);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first, removed, added);
  return TRUE;
}

static void
memory_iface_init (AgentMemoryInterface *iface)
{
  iface->append = agent_simple_memory_append;
  iface->truncate = agent_simple_memory_branch;
  iface->branch = agent_simple_memory_branch;
  iface->get_n_siblings = agent_simple_memory_get_n_siblings;
  iface->get_sibling_index = agent_simple_memory_get_sibling_index;
  iface->select_sibling = agent_simple_memory_select_sibling;
  iface->delete_branch = agent_simple_memory_delete_branch;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentSimpleMemory, agent_simple_memory, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init)
                               G_IMPLEMENT_INTERFACE (AGENT_TYPE_MEMORY, memory_iface_init))

static void
agent_simple_memory_dispose (GObject *object)
{
  AgentSimpleMemory *self = (AgentSimpleMemory *)object;

  /* The list stays, empty, for whoever still asks */
  g_clear_pointer (&self->tree, _agent_message_tree_free);
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
  self->tree = _agent_message_tree_new ();
  self->messages = g_ptr_array_ref (_agent_message_tree_get_path (self->tree));
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
