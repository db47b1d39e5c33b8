/* agent-memory-branches.c — the branches of a conversation's memory
 *
 * Regenerating an answer or editing a question makes a sibling of the
 * message it replaces, and the old one stays: the memory is a tree, and
 * its list the path to the active branch's last message. These are the
 * calls that look at the siblings and move between them, with what a
 * memory without branches does (it has one sibling everywhere, and
 * branching forgets).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-memory-private.h"

static guint
agent_memory_real_get_n_siblings (AgentMemory *self,
                                  guint        position)
{
  return position < g_list_model_get_n_items (G_LIST_MODEL (self)) ? 1 : 0;
}

static guint
agent_memory_real_get_sibling_index (AgentMemory *self,
                                     guint        position)
{
  return 0;
}

static gboolean
agent_memory_real_select_sibling (AgentMemory  *self,
                                  guint         position,
                                  guint         index,
                                  GError      **error)
{
  if (index == agent_memory_get_sibling_index (self, position))
    return TRUE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("The message at position %u has no sibling %u"), position, index + 1);
  return FALSE;
}

/* Without branches, a message's branch is what follows it */
static gboolean
agent_memory_real_delete_branch (AgentMemory  *self,
                                 guint         position,
                                 GError      **error)
{
  return AGENT_MEMORY_GET_IFACE (self)->truncate (self, position, error);
}

static gboolean
agent_memory_real_branch (AgentMemory  *self,
                          guint         position,
                          GError      **error)
{
  return AGENT_MEMORY_GET_IFACE (self)->truncate (self, position, error);
}

void
_agent_memory_branches_init (AgentMemoryInterface *iface)
{
  iface->get_n_siblings = agent_memory_real_get_n_siblings;
  iface->get_sibling_index = agent_memory_real_get_sibling_index;
  iface->select_sibling = agent_memory_real_select_sibling;
  iface->delete_branch = agent_memory_real_delete_branch;
  iface->branch = agent_memory_real_branch;
}

static gboolean
check_position (AgentMemory  *self,
                guint         position,
                GError      **error)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self));

  if (position < n_items)
    return TRUE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("The conversation has no message at position %u (it has %u)"),
               position, n_items);
  return FALSE;
}

/**
 * agent_memory_branch:
 * @self: a [iface@Agent.Memory]
 * @position: where the new branch starts
 * @error: return location for a [struct@GLib.Error]
 *
 * Branches the conversation at @position: the list ends before it, and
 * the next message appended becomes a sibling of the message that was at
 * @position, which stays, with what followed it, as a branch that
 * [method@Agent.Memory.select_sibling] brings back.
 *
 * To regenerate an answer, branch at it and call
 * [method@Agent.Session.continue_async]; to edit a question, branch at it
 * and send the new text. A memory without branches forgets the messages
 * instead (through its [vfunc@Agent.Memory.truncate]).
 *
 * A @position at or past the end changes nothing. Do not branch the
 * memory of a session while it runs a turn.
 *
 * Returns: %TRUE if the list now ends before @position
 *
 * Since: 0.1
 */
gboolean
agent_memory_branch (AgentMemory  *self,
                     guint         position,
                     GError      **error)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (position >= g_list_model_get_n_items (G_LIST_MODEL (self)))
    return TRUE;

  return AGENT_MEMORY_GET_IFACE (self)->branch (self, position, error);
}

/**
 * agent_memory_get_n_siblings:
 * @self: a [iface@Agent.Memory]
 * @position: the position of a message in the list
 *
 * Gets how many messages could stand at @position: the one there and the
 * siblings that regenerating or editing it made (the "3" of "2 / 3").
 *
 * Returns: the number of siblings, the message itself included: 1 when it
 *   has none, 0 when there is no message at @position
 *
 * Since: 0.1
 */
guint
agent_memory_get_n_siblings (AgentMemory *self,
                             guint        position)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), 0);

  return AGENT_MEMORY_GET_IFACE (self)->get_n_siblings (self, position);
}

/**
 * agent_memory_get_sibling_index:
 * @self: a [iface@Agent.Memory]
 * @position: the position of a message in the list
 *
 * Gets which of its siblings the message at @position is, counting from 0
 * in the order they came (the "2" of "2 / 3" is this plus one).
 *
 * Returns: the index of the message among its siblings
 *
 * Since: 0.1
 */
guint
agent_memory_get_sibling_index (AgentMemory *self,
                                guint        position)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), 0);

  return AGENT_MEMORY_GET_IFACE (self)->get_sibling_index (self, position);
}

/**
 * agent_memory_select_sibling:
 * @self: a [iface@Agent.Memory]
 * @position: the position of a message in the list
 * @index: which of its siblings to put there, from 0
 * @error: return location for a [struct@GLib.Error]
 *
 * Switches the conversation to another branch: sibling @index of the
 * message at @position takes its place, followed by the branch that went
 * on from it (to its newest message). The list changes from @position on
 * only ([signal@Gio.ListModel::items-changed] says so), and what a session
 * sends next is that path.
 *
 * Fails with %AGENT_ERROR_INVALID_ARGUMENT when there is no such message
 * or sibling. Do not switch the memory of a session while it runs a turn.
 *
 * Returns: %TRUE if the sibling is at @position
 *
 * Since: 0.1
 */
gboolean
agent_memory_select_sibling (AgentMemory  *self,
                             guint         position,
                             guint         index,
                             GError      **error)
{
  guint n_siblings;

  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_position (self, position, error))
    return FALSE;
  n_siblings = agent_memory_get_n_siblings (self, position);
  if (index >= n_siblings)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message at position %u has %u siblings, not %u"),
                   position, n_siblings, index + 1);
      return FALSE;
    }
  if (index == agent_memory_get_sibling_index (self, position))
    return TRUE;

  return AGENT_MEMORY_GET_IFACE (self)->select_sibling (self, position, index, error);
}

/**
 * agent_memory_delete_branch:
 * @self: a [iface@Agent.Memory]
 * @position: the position of a message in the list
 * @error: return location for a [struct@GLib.Error]
 *
 * Deletes the message at @position and every message that followed it,
 * in every branch: the only way a memory with branches forgets. The list
 * then shows a neighbouring sibling's branch (the next one, else the one
 * before), or ends before @position when the message had no sibling.
 *
 * Fails with %AGENT_ERROR_INVALID_ARGUMENT when there is no message at
 * @position. Do not delete from the memory of a session while it runs a
 * turn.
 *
 * Returns: %TRUE if the branch is deleted
 *
 * Since: 0.1
 */
gboolean
agent_memory_delete_branch (AgentMemory  *self,
                            guint         position,
                            GError      **error)
{
  g_return_val_if_fail (AGENT_IS_MEMORY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_position (self, position, error))
    return FALSE;

  return AGENT_MEMORY_GET_IFACE (self)->delete_branch (self, position, error);
}
