/* agent-message-tree.c — the messages of a conversation as a tree
 *
 * Regenerating an answer or editing a question does not forget what came
 * before: the new message is a sibling of the old one, and the
 * conversation a tree. Each message has a number (its seq) in the order
 * messages came, unique in its conversation: a child always comes after
 * its parent, so the newest message under a node is a leaf. The path is
 * what a memory shows and a session sends: the messages from a first one
 * to the active leaf. AgentSimpleMemory and AgentConversation keep their
 * messages in one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-message-tree-private.h"

typedef struct _Node Node;

struct _Node
{
  AgentMessage *message;
  guint         seq;
  Node         *parent;    /* the root's children have the root */
  GPtrArray    *children;  /* of Node, by seq; NULL until one comes */
};

struct _AgentMessageTree
{
  Node        root;
  GHashTable *nodes;     /* seq → Node, owned */
  GPtrArray  *path;      /* of Node */
  GPtrArray  *messages;  /* the path's messages (references) */
  guint       next_seq;
};

static void
node_free (gpointer data)
{
  Node *node = data;

  g_clear_object (&node->message);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

AgentMessageTree *
_agent_message_tree_new (void)
{
  AgentMessageTree *self = g_new0 (AgentMessageTree, 1);

  self->root.seq = AGENT_MESSAGE_TREE_ROOT;
  self->nodes = g_hash_table_new_full (NULL, NULL, NULL, node_free);
  self->path = g_ptr_array_new ();
  self->messages = g_ptr_array_new_with_free_func (g_object_unref);
  return self;
}

void
_agent_message_tree_free (AgentMessageTree *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->root.children, g_ptr_array_unref);
  g_ptr_array_unref (self->path);
  g_ptr_array_unref (self->messages);
  g_hash_table_unref (self->nodes);
  g_free (self);
}

static Node *
lookup (AgentMessageTree *self,
        guint             seq)
{
  if (seq == AGENT_MESSAGE_TREE_ROOT)
    return &self->root;
  return g_hash_table_lookup (self->nodes, GUINT_TO_POINTER (seq));
}

static void
add_child (Node *parent,
           Node *child)
{
  guint i;

  if (parent->children == NULL)
    parent->children = g_ptr_array_new ();

  /* By seq: loading may give them in any order */
  for (i = parent->children->len; i > 0; i--)
    if (((Node *) g_ptr_array_index (parent->children, i - 1))->seq < child->seq)
      break;
  g_ptr_array_insert (parent->children, i, child);
}

gboolean
_agent_message_tree_insert (AgentMessageTree *self,
                            guint             seq,
                            guint             parent_seq,
                            AgentMessage     *message)
{
  Node *parent = lookup (self, parent_seq);
  Node *node;

  if (parent == NULL || seq == AGENT_MESSAGE_TREE_ROOT || lookup (self, seq) != NULL ||
      (parent != &self->root && parent->seq >= seq))
    return FALSE;

  node = g_new0 (Node, 1);
  node->message = g_object_ref (message);
  node->seq = seq;
  node->parent = parent;
  g_hash_table_insert (self->nodes, GUINT_TO_POINTER (seq), node);
  add_child (parent, node);
  self->next_seq = MAX (self->next_seq, seq + 1);
  return TRUE;
}

/* The node with the highest seq under @node (itself included): a leaf */
static Node *
newest_under (Node *node)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  Node *newest = node;

  g_ptr_array_add (stack, node);
  while (stack->len > 0)
    {
      Node *next = g_ptr_array_steal_index_fast (stack, stack->len - 1);

      /* The root's seq is the largest: anything beats it */
      if (newest->seq == AGENT_MESSAGE_TREE_ROOT || next->seq > newest->seq)
        newest = next;
      for (guint i = 0; next->children != NULL && i < next->children->len; i++)
        g_ptr_array_add (stack, g_ptr_array_index (next->children, i));
    }
  return newest;
}

/* Makes the path end at @leaf, keeping what it shares with the old one */
static void
set_path (AgentMessageTree *self,
          Node             *leaf,
          guint            *first,
          guint            *removed,
          guint            *added)
{
  g_autoptr(GPtrArray) reversed = g_ptr_array_new ();
  guint common = 0;
  guint n_old = self->path->len;

  for (Node *node = leaf; node != NULL && node != &self->root; node = node->parent)
    g_ptr_array_add (reversed, node);

  while (common < n_old && common < reversed->len &&
         g_ptr_array_index (self->path, common) ==
           g_ptr_array_index (reversed, reversed->len - 1 - common))
    common++;

  g_ptr_array_set_size (self->path, common);
  g_ptr_array_set_size (self->messages, common);
  for (guint i = common; i < reversed->len; i++)
    {
      Node *node = g_ptr_array_index (reversed, reversed->len - 1 - i);

      g_ptr_array_add (self->path, node);
      g_ptr_array_add (self->messages, g_object_ref (node->message));
    }

  if (first != NULL)
    *first = common;
  if (removed != NULL)
    *removed = n_old - common;
  if (added != NULL)
    *added = reversed->len - common;
}

void
_agent_message_tree_set_leaf (AgentMessageTree *self,
                              guint             leaf,
                              guint            *first,
                              guint            *removed,
                              guint            *added)
{
  Node *node = leaf == AGENT_MESSAGE_TREE_ROOT ? NULL : lookup (self, leaf);

  if (node == NULL)
    node = newest_under (&self->root);
  set_path (self, node, first, removed, added);
}

GPtrArray *
_agent_message_tree_get_path (AgentMessageTree *self)
{
  return self->messages;
}

static Node *
path_node (AgentMessageTree *self,
           guint             position)
{
  g_return_val_if_fail (position < self->path->len, NULL);

  return g_ptr_array_index (self->path, position);
}

guint
_agent_message_tree_get_seq (AgentMessageTree *self,
                             guint             position)
{
  return path_node (self, position)->seq;
}

guint
_agent_message_tree_get_leaf (AgentMessageTree *self)
{
  if (self->path->len == 0)
    return AGENT_MESSAGE_TREE_ROOT;
  return path_node (self, self->path->len - 1)->seq;
}

guint
_agent_message_tree_get_n_nodes (AgentMessageTree *self)
{
  return g_hash_table_size (self->nodes);
}

guint
_agent_message_tree_get_next_seq (AgentMessageTree *self)
{
  return self->next_seq;
}

int
_agent_message_tree_find (AgentMessageTree *self,
                          guint             seq)
{
  /* From the end: what is asked for is mostly the last answer */
  for (guint i = self->path->len; i > 0; i--)
    if (path_node (self, i - 1)->seq == seq)
      return (int) i - 1;
  return -1;
}

guint
_agent_message_tree_get_parent (AgentMessageTree *self,
                                guint             seq)
{
  Node *node = lookup (self, seq);

  return node != NULL && node->parent != NULL ? node->parent->seq : AGENT_MESSAGE_TREE_ROOT;
}

AgentMessage *
_agent_message_tree_lookup (AgentMessageTree *self,
                            guint             seq)
{
  Node *node = seq == AGENT_MESSAGE_TREE_ROOT ? NULL : lookup (self, seq);

  return node != NULL ? node->message : NULL;
}

guint
_agent_message_tree_append (AgentMessageTree *self,
                            AgentMessage     *message)
{
  guint seq = self->next_seq;
  Node *node;

  _agent_message_tree_insert (self, seq, _agent_message_tree_get_leaf (self), message);
  node = lookup (self, seq);
  g_ptr_array_add (self->path, node);
  g_ptr_array_add (self->messages, g_object_ref (message));
  return seq;
}

void
_agent_message_tree_cut (AgentMessageTree *self,
                         guint             position)
{
  if (position >= self->path->len)
    return;
  g_ptr_array_set_size (self->path, position);
  g_ptr_array_set_size (self->messages, position);
}

guint
_agent_message_tree_get_n_siblings (AgentMessageTree *self,
                                    guint             position)
{
  if (position >= self->path->len)
    return 0;
  return path_node (self, position)->parent->children->len;
}

guint
_agent_message_tree_get_sibling_index (AgentMessageTree *self,
                                       guint             position)
{
  Node *node;
  guint index = 0;

  if (position >= self->path->len)
    return 0;
  node = path_node (self, position);
  g_ptr_array_find (node->parent->children, node, &index);
  return index;
}

GArray *
_agent_message_tree_dup_siblings (AgentMessageTree *self,
                                  guint             seq)
{
  Node *node = lookup (self, seq);
  GArray *siblings = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; node != NULL && node->parent != NULL && i < node->parent->children->len; i++)
    g_array_append_val (siblings, ((Node *) g_ptr_array_index (node->parent->children, i))->seq);
  return siblings;
}

GArray *
_agent_message_tree_dup_children (AgentMessageTree *self,
                                  guint             seq)
{
  Node *node = lookup (self, seq);
  GArray *children = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; node != NULL && node->children != NULL && i < node->children->len; i++)
    g_array_append_val (children, ((Node *) g_ptr_array_index (node->children, i))->seq);
  return children;
}

guint
_agent_message_tree_newest_under (AgentMessageTree *self,
                                  guint             seq)
{
  Node *node = lookup (self, seq);

  return node != NULL ? newest_under (node)->seq : AGENT_MESSAGE_TREE_ROOT;
}

static int
compare_seq (gconstpointer a,
             gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

GArray *
_agent_message_tree_remove (AgentMessageTree *self,
                            guint             seq,
                            guint            *first,
                            guint            *removed,
                            guint            *added)
{
  GArray *gone = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  Node *node = lookup (self, seq);
  Node *parent, *neighbour = NULL;
  int position;
  guint index = 0;

  if (first != NULL)
    *first = 0;
  if (removed != NULL)
    *removed = 0;
  if (added != NULL)
    *added = 0;
  if (node == NULL || node == &self->root)
    return gone;

  parent = node->parent;
  g_ptr_array_find (parent->children, node, &index);
  if (index + 1 < parent->children->len)
    neighbour = g_ptr_array_index (parent->children, index + 1);
  else if (index > 0)
    neighbour = g_ptr_array_index (parent->children, index - 1);

  /* The path first, while the nodes are there to compare */
  position = _agent_message_tree_find (self, seq);
  if (position >= 0)
    {
      if (neighbour != NULL)
        set_path (self, newest_under (neighbour), first, removed, added);
      else
        {
          if (first != NULL)
            *first = position;
          if (removed != NULL)
            *removed = self->path->len - position;
          _agent_message_tree_cut (self, position);
        }
    }

  g_ptr_array_remove_index (parent->children, index);
  g_ptr_array_add (stack, node);
  while (stack->len > 0)
    {
      Node *next = g_ptr_array_steal_index_fast (stack, stack->len - 1);

      for (guint i = 0; next->children != NULL && i < next->children->len; i++)
        g_ptr_array_add (stack, g_ptr_array_index (next->children, i));
      g_array_append_val (gone, next->seq);
      g_hash_table_remove (self->nodes, GUINT_TO_POINTER (next->seq));
    }
  g_array_sort (gone, compare_seq);
  return gone;
}
