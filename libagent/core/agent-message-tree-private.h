/* agent-message-tree-private.h — the messages of a conversation as a tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-message.h"

G_BEGIN_DECLS

/* The parent of a conversation's first messages */
#define AGENT_MESSAGE_TREE_ROOT G_MAXUINT

typedef struct _AgentMessageTree AgentMessageTree;

AgentMessageTree *_agent_message_tree_new          (void);
void              _agent_message_tree_free         (AgentMessageTree  *self);

/* Loading: @seq under @parent (AGENT_MESSAGE_TREE_ROOT for a first
 * message), parents before their children; FALSE if @parent is unknown or
 * @seq taken. Then _agent_message_tree_set_leaf(). */
gboolean          _agent_message_tree_insert       (AgentMessageTree  *self,
                                                    guint              seq,
                                                    guint              parent,
                                                    AgentMessage      *message);
/* Makes the path the one to @leaf, or to the newest message when @leaf is
 * AGENT_MESSAGE_TREE_ROOT or unknown (an empty path for an empty tree).
 * Reports the first position that changed, how many went and came. */
void              _agent_message_tree_set_leaf     (AgentMessageTree  *self,
                                                    guint              leaf,
                                                    guint             *first,
                                                    guint             *removed,
                                                    guint             *added);

/* The path: the messages from the first to the active leaf, in order */
GPtrArray        *_agent_message_tree_get_path     (AgentMessageTree  *self);
guint             _agent_message_tree_get_seq      (AgentMessageTree  *self,
                                                    guint              position);
/* The seq of the path's last message, or AGENT_MESSAGE_TREE_ROOT */
guint             _agent_message_tree_get_leaf     (AgentMessageTree  *self);
guint             _agent_message_tree_get_n_nodes  (AgentMessageTree  *self);
guint             _agent_message_tree_get_next_seq (AgentMessageTree  *self);
/* The position of @seq on the path, or -1 */
int               _agent_message_tree_find         (AgentMessageTree  *self,
                                                    guint              seq);
/* The parent of @seq (AGENT_MESSAGE_TREE_ROOT for a first message) */
guint             _agent_message_tree_get_parent   (AgentMessageTree  *self,
                                                    guint              seq);
AgentMessage     *_agent_message_tree_lookup       (AgentMessageTree  *self,
                                                    guint              seq);

/* A new message after the path's last one; its seq */
guint             _agent_message_tree_append       (AgentMessageTree  *self,
                                                    AgentMessage      *message);
/* The path ends before @position; the messages stay in the tree */
void              _agent_message_tree_cut          (AgentMessageTree  *self,
                                                    guint              position);

/* The siblings of the message at @position (itself included), by seq */
guint             _agent_message_tree_get_n_siblings (AgentMessageTree *self,
                                                      guint             position);
guint             _agent_message_tree_get_sibling_index (AgentMessageTree *self,
                                                         guint             position);
/* The siblings of @seq (itself included), in the order they came */
GArray           *_agent_message_tree_dup_siblings (AgentMessageTree  *self,
                                                    guint              seq);
/* The newest message under @seq (itself when it has no children) */
guint             _agent_message_tree_newest_under (AgentMessageTree  *self,
                                                    guint              seq);
/* The messages that follow @seq (AGENT_MESSAGE_TREE_ROOT: the first ones) */
GArray           *_agent_message_tree_dup_children (AgentMessageTree  *self,
                                                    guint              seq);

/* Removes the message @seq and everything under it, returning their seqs;
 * a path through it moves to the newest leaf of a neighbour (the next
 * sibling, else the one before), or ends before it. */
GArray           *_agent_message_tree_remove       (AgentMessageTree  *self,
                                                    guint              seq,
                                                    guint             *first,
                                                    guint             *removed,
                                                    guint             *added);

G_END_DECLS
