/* agent-gtk-chat-view-branches.c
 *
 * The branches of the conversation shown: a message that Regenerate or
 * Edit and Resend gave siblings shows "‹ 2 / 3 ›" in its row
 * (agent-gtk-branch-switcher.c), and Previous and Next (or Alt+Left and
 * Alt+Right on the row) switch the memory's active branch with
 * agent_memory_select_sibling(). The memory says what changed from that
 * position on (::items-changed), so that the list view rebinds the rows
 * from there and keeps those before. No switching while a turn runs: the
 * turn appends to the branch it started on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-branch-switcher-private.h"
#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view-private.h"

/* Tells @row how many siblings its message has, and which it is */
void
_agent_gtk_chat_view_apply_siblings (AgentGtkChatView   *self,
                                     AgentGtkMessageRow *row)
{
  GObject *item = agent_gtk_message_row_get_item (row);
  guint position = G_MAXUINT;
  guint n_siblings = 0;
  guint index = 0;

  if (self->memory != NULL && AGENT_IS_MESSAGE (item))
    position = agent_gtk_chat_state_position (self->memory, AGENT_MESSAGE (item));
  if (position != G_MAXUINT)
    {
      n_siblings = agent_memory_get_n_siblings (self->memory, position);
      index = n_siblings > 1 ? agent_memory_get_sibling_index (self->memory, position) : 0;
    }
  agent_gtk_message_row_set_siblings (row, index, n_siblings, !self->busy);
}

/* The row that shows @message now, or NULL */
static AgentGtkMessageRow *
find_row (AgentGtkChatView *self,
          AgentMessage     *message)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && AGENT_GTK_IS_MESSAGE_ROW (row) &&
          agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row)) == G_OBJECT (message))
        return AGENT_GTK_MESSAGE_ROW (row);
    }
  return NULL;
}

/* Previous or Next of @row's "‹ 2 / 3 ›": sibling @index of @message
 * becomes the active branch */
void
_agent_gtk_chat_view_select_sibling (AgentGtkChatView   *self,
                                     AgentGtkMessageRow *row,
                                     AgentMessage       *message,
                                     guint               index)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) selected = NULL;
  AgentGtkMessageRow *shown;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (row));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  gboolean had_focus = focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (row));
  guint before;
  guint position;

  if (self->memory == NULL || self->busy)
    return;
  position = agent_gtk_chat_state_position (self->memory, message);
  if (position == G_MAXUINT)
    return;
  before = agent_memory_get_sibling_index (self->memory, position);
  if (!agent_memory_select_sibling (self->memory, position, index, &error))
    {
      _agent_gtk_chat_view_show_error_item (self, error, NULL);
      return;
    }
  /* The failed turn of the branch left is not this one's */
  _agent_gtk_chat_view_show_last_error (self);

  /* The keyboard stays on "‹ 2 / 3 ›", now in the row of the sibling */
  selected = g_list_model_get_item (G_LIST_MODEL (self->memory), position);
  if (had_focus && selected != NULL && (shown = find_row (self, selected)) != NULL)
    agent_gtk_branch_switcher_focus (
      AGENT_GTK_BRANCH_SWITCHER (agent_gtk_message_row_get_branch_switcher (shown)),
      index < before ? -1 : 1);
}
