/* agent-gtk-chat-view-chats.c
 *
 * The view's side of what belongs to each conversation (its
 * AgentGtkChatState, agent-gtk-chat-state.c): it moves the composer's
 * draft in and out as the conversation shown changes, and runs Edit and
 * Resend on the composer. Nothing is deleted while a message is edited:
 * only when the edited message is sent are it and the turns after it cut;
 * ::edit-sent tells the application, which may offer Undo
 * (agent_gtk_chat_view_undo_edit(), in agent-gtk-chat-view-turns.c: it
 * stops the new turn first).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-private.h"

static void
set_composer (AgentGtkChatView *self,
              const char       *text,
              gboolean          editing)
{
  if (self->composer == NULL)
    return;
  agent_gtk_composer_set_text (self->composer, text);
  agent_gtk_composer_set_editing (self->composer, editing);
}

static char *
dup_composer_text (AgentGtkChatView *self)
{
  return self->composer != NULL ? agent_gtk_composer_dup_text (self->composer) : NULL;
}

/* The composer's attachments, taken off it (NULL when none) */
static GPtrArray *
take_composer_attachments (AgentGtkChatView *self)
{
  GListModel *attachments = agent_gtk_composer_get_attachments (self->composer);
  guint n = g_list_model_get_n_items (attachments);
  GPtrArray *parts;

  if (n == 0)
    return NULL;
  parts = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (parts, g_list_model_get_item (attachments, i));
  agent_gtk_composer_clear_attachments (self->composer);
  return parts;
}

/* Edit and Resend: the attachments of @message go with its text into the
 * composer (@add), or leave it */
static void
composer_message_attachments (AgentGtkChatView *self,
                              AgentMessage     *message,
                              gboolean          add)
{
  for (guint i = 0; i < agent_message_get_n_attachments (message); i++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, i);

      if (add)
        agent_gtk_composer_add_attachment (self->composer, part);
      else
        agent_gtk_composer_remove_attachment (self->composer, part);
    }
}

/* Drafts: the conversation shown changed */

/* The session shows another memory (or the view another session): the
 * conversation left keeps what the composer holds, the one shown gets its
 * draft, its edit and its last error back */
void
_agent_gtk_chat_view_memory_changed (AgentGtkChatView *self)
{
  AgentMemory *memory = self->session ? agent_session_get_memory (self->session) : NULL;
  AgentGtkChatState *state;

  if (memory == self->memory)
    return;

  if (self->memory != NULL && self->composer != NULL)
    agent_gtk_chat_state_save_draft (agent_gtk_chat_state_get (self->memory),
                                     dup_composer_text (self), take_composer_attachments (self));
  g_set_object (&self->memory, memory);
  _agent_gtk_chat_view_set_progress (self, NULL, NULL);
  if (memory == NULL)
    {
      _agent_gtk_chat_view_clear_error_item (self);
      return;
    }

  state = agent_gtk_chat_state_get (memory);
  if (self->composer != NULL)
    {
      g_autoptr(GPtrArray) parts = NULL;
      g_autofree char *draft = agent_gtk_chat_state_take_draft (state, &parts);

      set_composer (self, draft, agent_gtk_chat_state_get_editing (state) != NULL);
      for (guint i = 0; parts != NULL && i < parts->len; i++)
        agent_gtk_composer_add_attachment (self->composer, g_ptr_array_index (parts, i));
    }
  _agent_gtk_chat_view_show_last_error (self);
  agent_gtk_autoscroll_set_following (self->autoscroll, TRUE);  /* to the end */
}

/* Edit and Resend */

/**
 * agent_gtk_chat_view_edit:
 * @self: a chat view
 * @message: a message the user wrote, in the conversation shown
 *
 * Puts @message (its text and its attachments) in the composer to be
 * edited, as its Edit and Resend does:
 * nothing is deleted until the edited message is sent, which then replaces
 * @message and what came after it. Does nothing while a turn runs, or
 * without a composer.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_edit (AgentGtkChatView *self,
                          AgentMessage     *message)
{
  g_autoptr(AgentMessage) previous = NULL;
  AgentGtkChatState *state;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (AGENT_IS_MESSAGE (message));

  if (self->memory == NULL || self->composer == NULL || self->busy ||
      agent_gtk_chat_state_position (self->memory, message) == G_MAXUINT)
    return;

  state = agent_gtk_chat_state_get (self->memory);
  previous = agent_gtk_chat_state_start_edit (state, message,
                                              agent_gtk_chat_state_get_editing (state) == NULL
                                              ? dup_composer_text (self) : NULL);
  if (previous != NULL)
    composer_message_attachments (self, previous, FALSE);
  set_composer (self, agent_message_get_content (message), TRUE);
  composer_message_attachments (self, message, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
  _agent_gtk_chat_view_update_rows (self);
}

/**
 * agent_gtk_chat_view_cancel_edit:
 * @self: a chat view
 *
 * Gives up editing a message, as the composer's Cancel does: the composer
 * holds again what it held before.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_cancel_edit (AgentGtkChatView *self)
{
  g_autoptr(AgentMessage) editing = NULL;
  g_autofree char *before = NULL;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if (self->memory == NULL)
    return;
  before = agent_gtk_chat_state_end_edit (agent_gtk_chat_state_get (self->memory), &editing);
  if (editing == NULL)
    return;

  if (self->composer != NULL)
    composer_message_attachments (self, editing, FALSE);
  set_composer (self, before, FALSE);
  _agent_gtk_chat_view_update_rows (self);
}

static void
set_undo (AgentGtkChatView *self,
          AgentGtkEditUndo *undo)
{
  gboolean could = self->undo != NULL;

  g_clear_pointer (&self->undo, agent_gtk_edit_undo_free);
  self->undo = undo;
  if (could != (undo != NULL))
    g_object_notify (G_OBJECT (self), "can-undo-edit");
}

/* Puts back the messages @undo holds, where the edit cut them, and the
 * edit in the composer, as before Send */
void
_agent_gtk_chat_view_restore_edit (AgentGtkChatView *self,
                                   AgentGtkEditUndo *undo)
{
  gboolean shown = agent_gtk_edit_undo_get_memory (undo) == self->memory;
  g_autoptr(GError) error = NULL;

  if (!agent_gtk_edit_undo_restore (undo, shown, shown ? dup_composer_text (self) : NULL, &error))
    {
      if (shown)
        _agent_gtk_chat_view_show_error_item (self, error, NULL);
      return;
    }
  if (!shown)
    return;
  set_composer (self, agent_gtk_edit_undo_get_text (undo), TRUE);
  _agent_gtk_chat_view_show_last_error (self);
  _agent_gtk_chat_view_update_rows (self);
  /* The keyboard goes back to the message, being edited again (the Undo
   * that was clicked, in a toast, goes) */
  if (self->composer != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/**
 * agent_gtk_chat_view_get_can_undo_edit:
 * @self: a chat view
 *
 * Gets whether the last edited message sent can be undone (see
 * [method@AgentGtk.ChatView.undo_edit]).
 *
 * Returns: whether there is an edit to undo
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_can_undo_edit (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return self->undo != NULL;
}

/* The edit to undo (transfer full), taken: it can be undone no more */
AgentGtkEditUndo *
_agent_gtk_chat_view_take_undo (AgentGtkChatView *self)
{
  AgentGtkEditUndo *undo = g_steal_pointer (&self->undo);

  if (undo != NULL)
    g_object_notify (G_OBJECT (self), "can-undo-edit");
  return undo;
}

/* A new turn in @memory: an Undo of an edit there would cut it */
void
_agent_gtk_chat_view_drop_undo (AgentGtkChatView *self,
                                AgentMemory      *memory)
{
  if (self->undo != NULL && agent_gtk_edit_undo_get_memory (self->undo) == memory)
    set_undo (self, NULL);
}

/* When a message of the conversation shown is being edited: cuts it and
 * the turns after it (they may come back: ::edit-sent), and gives the
 * composer back what it held before the edit. FALSE if the memory could
 * not be cut (nothing is to be sent). */
gboolean
_agent_gtk_chat_view_apply_edit (AgentGtkChatView *self,
                                 const char       *text)
{
  AgentGtkChatState *state;
  g_autoptr(AgentMessage) editing = NULL;
  g_autofree char *before = NULL;
  g_autoptr(GError) error = NULL;
  AgentGtkEditUndo *undo;

  if (self->memory == NULL)
    return TRUE;
  state = agent_gtk_chat_state_get (self->memory);
  before = agent_gtk_chat_state_end_edit (state, &editing);
  if (editing == NULL)
    return TRUE;
  set_composer (self, before, FALSE);

  undo = agent_gtk_chat_state_cut_edit (state, editing, text, &error);
  /* Gone meanwhile (regenerated away): sent as a new message */
  if (undo == NULL && error == NULL)
    return TRUE;
  if (undo == NULL)
    {
      g_autoptr(AgentMessage) edited = g_steal_pointer (&editing);

      /* Nothing was cut: the edit goes on, as it was (no other message is
       * being edited: start_edit() returns none) */
      _agent_gtk_chat_view_show_error_item (self, error, NULL);
      editing = agent_gtk_chat_state_start_edit (state, edited, g_steal_pointer (&before));
      set_composer (self, text, TRUE);
      return FALSE;
    }
  set_undo (self, undo);
  g_signal_emit_by_name (self, "edit-sent");
  return TRUE;
}

void
_agent_gtk_chat_view_dispose_chats (AgentGtkChatView *self)
{
  g_clear_pointer (&self->pending_undo, agent_gtk_edit_undo_free);
  g_clear_pointer (&self->undo, agent_gtk_edit_undo_free);
}
