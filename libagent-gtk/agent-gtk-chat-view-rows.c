/* agent-gtk-chat-view-rows.c
 *
 * What the chat view's rows show that their items do not say (the error
 * of a failed turn, the message being edited, the progress of the answer
 * awaited), and the card after the conversation with the error of the
 * last turn. The conversation's state (agent-gtk-chat-state.c) says what;
 * the rest of the view (agent-gtk-chat-view*.c) calls these when it
 * changed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-error-item-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-private.h"

/* The card after the conversation */

/* Shows @error as a card after the conversation (@last: the message its
 * turn ended with, if known) */
void
_agent_gtk_chat_view_show_error_item (AgentGtkChatView *self,
                                      const GError     *error,
                                      AgentMessage     *last)
{
  g_autoptr(AgentGtkErrorItem) item = NULL;
  gboolean partial = last != NULL &&
                     agent_message_get_state (last) == AGENT_MESSAGE_STATE_INTERRUPTED;
  gboolean no_key = self->session != NULL &&
                    !agent_provider_get_has_api_key (agent_session_get_provider (self->session));

  item = agent_gtk_error_item_new (error, partial, no_key);
  g_list_store_remove_all (self->extras);
  g_list_store_append (self->extras, item);
  /* The card of @last's failure is this one, not one in its row */
  g_set_object (&self->extras_failed, last);
  _agent_gtk_chat_view_update_rows (self);
  agent_gtk_autoscroll_set_following (self->autoscroll, TRUE);  /* to the end */
}

void
_agent_gtk_chat_view_clear_error_item (AgentGtkChatView *self)
{
  g_list_store_remove_all (self->extras);
  /* A failure it showed shows in its row from now on */
  if (self->extras_failed != NULL)
    {
      g_clear_object (&self->extras_failed);
      _agent_gtk_chat_view_update_rows (self);
    }
}

/* Shows the error of the conversation's last message as a card after it,
 * or none */
void
_agent_gtk_chat_view_show_last_error (AgentGtkChatView *self)
{
  g_autoptr(AgentMessage) last = NULL;
  const GError *error = NULL;

  if (self->memory != NULL)
    error = agent_gtk_chat_state_last_error (agent_gtk_chat_state_get (self->memory), &last);
  if (error != NULL)
    _agent_gtk_chat_view_show_error_item (self, error, last);
  else
    _agent_gtk_chat_view_clear_error_item (self);
}

/* Progress of the answer awaited: what its row says while nothing of it
 * shows (retrying, and why) */
void
_agent_gtk_chat_view_set_progress (AgentGtkChatView *self,
                                   const char       *title,
                                   const char       *detail)
{
  g_free (self->progress_title);
  g_free (self->progress_detail);
  self->progress_title = g_strdup (title);
  self->progress_detail = g_strdup (detail);
  _agent_gtk_chat_view_update_rows (self);
}

/* Rows: what a row shows that its item does not say */

/* The state of the conversation shown, or NULL */
static AgentGtkChatState *
chat_state (AgentGtkChatView *self)
{
  return self->memory != NULL ? agent_gtk_chat_state_get (self->memory) : NULL;
}

/* Why the turn that ended at @message, or at the results of its tool
 * calls, failed: NULL if it did not, or when the card after the
 * conversation says it (the last turn) */
const GError *
_agent_gtk_chat_view_lookup_failed_turn (AgentGtkChatView *self,
                                         AgentMessage     *message)
{
  if (self->memory == NULL || message == NULL || message == self->extras_failed)
    return NULL;
  return agent_gtk_chat_state_lookup_failed_turn (chat_state (self), message);
}

/* Tells @row what it shows that its item does not say */
void
_agent_gtk_chat_view_apply_row_state (AgentGtkChatView   *self,
                                      AgentGtkMessageRow *row)
{
  GObject *item = agent_gtk_message_row_get_item (row);
  AgentMessage *message = AGENT_IS_MESSAGE (item) ? AGENT_MESSAGE (item) : NULL;
  gboolean current = message != NULL && self->session != NULL &&
                     message == agent_session_get_current_message (self->session);
  AgentGtkChatState *state = chat_state (self);

  agent_gtk_message_row_set_turn_error (row, state != NULL
                                             ? agent_gtk_chat_state_lookup_error (state, message)
                                             : NULL);
  agent_gtk_message_row_set_failed_turn (row, _agent_gtk_chat_view_lookup_failed_turn (self,
                                                                                      message));
  agent_gtk_message_row_set_editing (row, message != NULL && state != NULL &&
                                          message == agent_gtk_chat_state_get_editing (state));
  agent_gtk_message_row_set_progress (row, current ? self->progress_title : NULL,
                                      current ? self->progress_detail : NULL);
  _agent_gtk_chat_view_apply_siblings (self, row);
}

/* Tells the rows shown what changed outside their items: the errors, the
 * message edited, the progress of the answer awaited, whether a turn runs
 * (no switching of branches then) */
void
_agent_gtk_chat_view_update_rows (AgentGtkChatView *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && AGENT_GTK_IS_MESSAGE_ROW (row))
        _agent_gtk_chat_view_apply_row_state (self, AGENT_GTK_MESSAGE_ROW (row));
    }
}

