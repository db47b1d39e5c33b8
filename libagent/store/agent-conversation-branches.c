/* agent-conversation-branches.c — a conversation's branches by message id
 *
 * AgentMemory's calls reach the branches through the list: the siblings of
 * the message at a position. A program that shows or picks any branch (an
 * outline of the tree, agent-cli's --branches and --branch) needs every
 * message, on the list or not: each has an id, stable for as long as it is
 * kept (the `position` column, in the order messages came).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "store/agent-conversation-private.h"

static guint
to_seq (gint64 message_id)
{
  return message_id < 0 || message_id >= AGENT_MESSAGE_TREE_ROOT ? AGENT_MESSAGE_TREE_ROOT
                                                                 : (guint) message_id;
}

/**
 * agent_conversation_get_message_id:
 * @self: a [class@Agent.Conversation]
 * @position: the position of a message in the list
 *
 * Gets the id of the message at @position: its number in the
 * conversation, in the order messages came, whatever branch it is on. It
 * stays the message's for as long as the message is kept, across
 * restarts.
 *
 * Returns: the id, or -1 when there is no message at @position
 *
 * Since: 0.1
 */
gint64
agent_conversation_get_message_id (AgentConversation *self,
                                   guint              position)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), -1);

  if (!agent_conversation_load (self, NULL) || position >= self->messages->len)
    return -1;
  return _agent_message_tree_get_seq (self->tree, position);
}

/**
 * agent_conversation_lookup_message:
 * @self: a [class@Agent.Conversation]
 * @message_id: the id of a message
 *
 * Gets message @message_id, on whatever branch it is.
 *
 * Returns: (transfer none) (nullable): the message, or %NULL when the
 *   conversation has none of that id
 *
 * Since: 0.1
 */
AgentMessage *
agent_conversation_lookup_message (AgentConversation *self,
                                   gint64             message_id)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);

  if (!agent_conversation_load (self, NULL))
    return NULL;
  return _agent_message_tree_lookup (self->tree, to_seq (message_id));
}

/**
 * agent_conversation_dup_following:
 * @self: a [class@Agent.Conversation]
 * @message_id: the id of a message, or -1 for the start of the conversation
 * @n_ids: (out): where to store the number of ids
 *
 * Gets the ids of the messages that follow message @message_id (of the
 * conversation's first messages for -1), in the order they came: one for
 * a message that was never regenerated nor edited, several where the
 * conversation branches, none at the end of a branch.
 *
 * Returns: (transfer full) (array length=n_ids): the ids
 *
 * Since: 0.1
 */
gint64 *
agent_conversation_dup_following (AgentConversation *self,
                                  gint64             message_id,
                                  gsize             *n_ids)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (n_ids != NULL, NULL);

  if (agent_conversation_load (self, NULL))
    {
      g_autoptr(GArray) children = _agent_message_tree_dup_children (self->tree,
                                                                    to_seq (message_id));

      for (guint i = 0; i < children->len; i++)
        {
          gint64 id = g_array_index (children, guint, i);

          g_array_append_val (ids, id);
        }
    }
  *n_ids = ids->len;
  return (gint64 *) (void *) g_array_free (g_steal_pointer (&ids), FALSE);
}

/**
 * agent_conversation_select_message:
 * @self: a [class@Agent.Conversation]
 * @message_id: the id of a message
 * @error: return location for a [struct@GLib.Error]
 *
 * Makes the branch of message @message_id the active one: the list shows
 * the path to the newest message that followed it (to it, when none
 * did), and the conversation goes on from there. The list changes from
 * the first position that differs only, and the choice is kept.
 *
 * Fails with %AGENT_ERROR_INVALID_ARGUMENT when the conversation has no
 * such message, %AGENT_ERROR_BUSY when another program changed it since it
 * was read (it is read again), %AGENT_ERROR_STORAGE when it cannot be
 * written.
 *
 * Returns: %TRUE if the message's branch is the active one
 *
 * Since: 0.1
 */
gboolean
agent_conversation_select_message (AgentConversation  *self,
                                   gint64              message_id,
                                   GError            **error)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_agent_conversation_prepare_change (self, error))
    return FALSE;

  if (_agent_message_tree_lookup (self->tree, to_seq (message_id)) == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Conversation %lld has no message %lld"),
                   (long long) self->id, (long long) message_id);
      return FALSE;
    }

  _agent_conversation_show_path (self, _agent_message_tree_newest_under (self->tree,
                                                                         to_seq (message_id)));
  _agent_conversation_release_claim (self);
  return TRUE;
}
