/* agent-gtk-chat-view-chats.c
 *
 * What belongs to each conversation rather than to the view, kept with the
 * conversation's memory (as its data) so that it follows the conversation
 * from view to view, and comes back when a conversation is shown again:
 *
 * - the draft: what the composer held when the view left the conversation;
 * - the message being edited (Edit and Resend), and what the composer held
 *   before the edit began. Nothing is deleted while a message is edited:
 *   only when the edited message is sent are it and the turns after it
 *   cut; ::edit-sent tells the application, which may offer Undo
 *   (agent_gtk_chat_view_undo_edit(), which stops the new turn first);
 * - the errors of failed turns, by message. For a stored conversation
 *   (AgentConversation) they are the conversation's own
 *   (agent_conversation_set_error()), so they come back after a restart.
 *   The error of the conversation's last message shows as a card after it,
 *   with Retry; an answer cut short says why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-private.h"

#define STATE_KEY "agent-gtk-chat-state"

typedef struct
{
  char         *draft;        /* the composer's text, while the conversation is not shown */
  GPtrArray    *draft_parts;  /* and its attachments, or NULL */
  char         *before_edit;  /* the composer's text before Edit and Resend */
  AgentMessage *editing;      /* the message being edited */
  GHashTable   *errors;       /* AgentMessage → GError: why the turn that ended there failed */
} ChatState;

/* Edit and Resend, undone: the memory's messages from @position on, as they
 * were, and the edited message as sent */
typedef struct
{
  AgentMemory *memory;
  guint        position;
  GPtrArray   *messages;
  GPtrArray   *errors;    /* of each message, or NULL */
  char        *text;
} EditUndo;

static void
chat_state_free (gpointer data)
{
  ChatState *state = data;

  g_free (state->draft);
  g_clear_pointer (&state->draft_parts, g_ptr_array_unref);
  g_free (state->before_edit);
  g_clear_object (&state->editing);
  g_hash_table_unref (state->errors);
  g_free (state);
}

static void
free_error (gpointer data)
{
  if (data != NULL)
    g_error_free (data);
}

static void
edit_undo_free (gpointer data)
{
  EditUndo *undo = data;

  g_object_unref (undo->memory);
  g_ptr_array_unref (undo->messages);
  g_ptr_array_unref (undo->errors);
  g_free (undo->text);
  g_free (undo);
}

/* The state of the conversation held in @memory, made when first asked for:
 * with the errors a stored conversation kept */
static ChatState *
chat_state (AgentMemory *memory)
{
  ChatState *state = g_object_get_data (G_OBJECT (memory), STATE_KEY);

  if (state != NULL)
    return state;

  state = g_new0 (ChatState, 1);
  state->errors = g_hash_table_new_full (NULL, NULL, g_object_unref, free_error);
#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (memory));

      for (guint i = 0; i < n; i++)
        {
          const GError *error = agent_conversation_get_error (AGENT_CONVERSATION (memory), i);

          if (error != NULL)
            g_hash_table_insert (state->errors, g_list_model_get_item (G_LIST_MODEL (memory), i),
                                 g_error_copy (error));
        }
    }
#endif
  g_object_set_data_full (G_OBJECT (memory), STATE_KEY, state, chat_state_free);
  return state;
}

static AgentMessage *
last_message (AgentMemory *memory)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (memory));

  return n > 0 ? g_list_model_get_item (G_LIST_MODEL (memory), n - 1) : NULL;
}

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

/* Errors */

/* Keeps @error with @message (NULL forgets it), in the stored
 * conversation too */
static void
set_error (AgentGtkChatView *self,
           AgentMemory      *memory,
           AgentMessage     *message,
           const GError     *error)
{
  ChatState *state = chat_state (memory);

  if (error != NULL)
    g_hash_table_insert (state->errors, g_object_ref (message), g_error_copy (error));
  else if (!g_hash_table_remove (state->errors, message))
    return;

#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      guint position = _agent_gtk_chat_view_memory_position (memory, message);
      g_autoptr(GError) local_error = NULL;

      if (position != G_MAXUINT &&
          !agent_conversation_set_error (AGENT_CONVERSATION (memory), position, error,
                                         &local_error))
        g_warning ("The error of a turn could not be stored: %s", local_error->message);
    }
#endif
}

/* The error the turn that ended with @message (of the conversation shown)
 * failed with, or NULL */
const GError *
_agent_gtk_chat_view_lookup_error (AgentGtkChatView *self,
                                   AgentMessage     *message)
{
  if (self->memory == NULL || message == NULL)
    return NULL;
  return g_hash_table_lookup (chat_state (self->memory)->errors, message);
}

/* The failure of a turn that ended at a result of one of @message's tool
 * calls (the request after them failed), or NULL */
static const GError *
lookup_tool_results_error (ChatState    *state,
                           AgentMessage *message)
{
  GListModel *calls = agent_message_get_tool_calls (message);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, state->errors);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *id = agent_message_get_role (key) == AGENT_MESSAGE_ROLE_TOOL
                       ? agent_message_get_tool_call_id (key) : NULL;

      for (guint i = 0; id != NULL && i < g_list_model_get_n_items (calls); i++)
        {
          g_autoptr(AgentToolCall) call = g_list_model_get_item (calls, i);

          if (g_strcmp0 (agent_tool_call_get_id (call), id) == 0)
            return value;
        }
    }
  return NULL;
}

/* Why the turn that ended at @message (of the conversation shown), or at
 * the results of its tool calls, which no row shows, failed: NULL if it did
 * not, or when the card after the conversation says it (the last turn) */
const GError *
_agent_gtk_chat_view_lookup_failed_turn (AgentGtkChatView *self,
                                         AgentMessage     *message)
{
  ChatState *state;
  const GError *error;

  if (self->memory == NULL || message == NULL || message == self->extras_failed)
    return NULL;
  state = chat_state (self->memory);
  if (g_hash_table_size (state->errors) == 0)
    return NULL;
  error = g_hash_table_lookup (state->errors, message);
  if (error == NULL && agent_message_get_n_tool_calls (message) > 0)
    error = lookup_tool_results_error (state, message);
  return error;
}

/* Retry of a failed turn in the history (not the last): its question is
 * asked again, at the end of the conversation (what came after it stays;
 * Edit and Resend is there to replace it) */
void
_agent_gtk_chat_view_ask_again (AgentGtkChatView *self,
                                AgentMessage     *message)
{
  g_autoptr(AgentMessage) question = NULL;
  g_autoptr(GListStore) attachments = g_list_store_new (AGENT_TYPE_CONTENT_PART);
  const char *text;
  guint position;

  if (self->memory == NULL)
    return;
  position = _agent_gtk_chat_view_memory_position (self->memory, message);
  while (position != G_MAXUINT)
    {
      g_autoptr(AgentMessage) item = g_list_model_get_item (G_LIST_MODEL (self->memory),
                                                            position);

      if (agent_message_get_role (item) == AGENT_MESSAGE_ROLE_USER)
        {
          question = g_steal_pointer (&item);
          break;
        }
      position = position > 0 ? position - 1 : G_MAXUINT;
    }
  if (question == NULL)
    return;
  for (guint i = 0; i < agent_message_get_n_attachments (question); i++)
    g_list_store_append (attachments, agent_message_get_attachment (question, i));
  text = agent_message_get_content (question);
  /* What is being edited is not what is asked again */
  agent_gtk_chat_view_cancel_edit (self);
  _agent_gtk_chat_view_request_turn (self, TURN_SEND, text ? text : "", G_LIST_MODEL (attachments),
                                     NULL);
}

/* Whether @message can end a failed turn: the user's message (no answer
 * came), a tool's result (the next request failed) or an answer cut short */
static gboolean
ends_failed_turn (AgentMessage *message)
{
  switch (agent_message_get_role (message))
    {
    case AGENT_MESSAGE_ROLE_USER:
    case AGENT_MESSAGE_ROLE_TOOL:
      return TRUE;
    case AGENT_MESSAGE_ROLE_ASSISTANT:
      return agent_message_get_state (message) == AGENT_MESSAGE_STATE_INTERRUPTED;
    case AGENT_MESSAGE_ROLE_SYSTEM:
    default:
      return FALSE;
    }
}

/* Keeps @error with the message the failed turn of @memory ended with;
 * FALSE if the turn left no message of its own to keep it with */
gboolean
_agent_gtk_chat_view_record_error (AgentGtkChatView *self,
                                   AgentMemory      *memory,
                                   const GError     *error)
{
  g_autoptr(AgentMessage) last = last_message (memory);

  if (last == NULL || !ends_failed_turn (last))
    return FALSE;
  set_error (self, memory, last, error);
  return TRUE;
}

/* Retry starts from the conversation's last message: unless it is an
 * answer cut short, which keeps saying why, its error is over. (Another
 * turn leaves it: the failed turn stays failed in the history.) */
void
_agent_gtk_chat_view_forget_error (AgentGtkChatView *self)
{
  g_autoptr(AgentMessage) last = self->memory ? last_message (self->memory) : NULL;

  if (last != NULL && agent_message_get_state (last) != AGENT_MESSAGE_STATE_INTERRUPTED)
    set_error (self, self->memory, last, NULL);
}

/* Shows the error of the conversation's last message as a card after it,
 * or none */
void
_agent_gtk_chat_view_show_last_error (AgentGtkChatView *self)
{
  g_autoptr(AgentMessage) last = self->memory ? last_message (self->memory) : NULL;
  const GError *error = _agent_gtk_chat_view_lookup_error (self, last);

  if (error != NULL)
    _agent_gtk_chat_view_show_error_item (self, error, last);
  else
    _agent_gtk_chat_view_clear_error_item (self);
}

/* Drafts: the conversation shown changed */

/* The session shows another memory (or the view another session): the
 * conversation left keeps what the composer holds, the one shown gets its
 * draft, its edit and its last error back */
void
_agent_gtk_chat_view_memory_changed (AgentGtkChatView *self)
{
  AgentMemory *memory = self->session ? agent_session_get_memory (self->session) : NULL;
  ChatState *state;

  if (memory == self->memory)
    return;

  if (self->memory != NULL && self->composer != NULL)
    {
      state = chat_state (self->memory);
      g_free (state->draft);
      state->draft = dup_composer_text (self);
      g_clear_pointer (&state->draft_parts, g_ptr_array_unref);
      state->draft_parts = take_composer_attachments (self);
    }
  g_set_object (&self->memory, memory);
  _agent_gtk_chat_view_set_progress (self, NULL, NULL);
  if (memory == NULL)
    {
      _agent_gtk_chat_view_clear_error_item (self);
      return;
    }

  state = chat_state (memory);
  if (self->composer != NULL)
    {
      set_composer (self, state->draft, state->editing != NULL);
      g_clear_pointer (&state->draft, g_free);
      for (guint i = 0; state->draft_parts != NULL && i < state->draft_parts->len; i++)
        agent_gtk_composer_add_attachment (self->composer,
                                           g_ptr_array_index (state->draft_parts, i));
      g_clear_pointer (&state->draft_parts, g_ptr_array_unref);
    }
  _agent_gtk_chat_view_show_last_error (self);
  agent_gtk_chat_view_scroll_to_end (self);
}

/* Edit and Resend */

/* The message of the conversation shown being edited, or NULL */
AgentMessage *
_agent_gtk_chat_view_get_editing (AgentGtkChatView *self)
{
  return self->memory != NULL ? chat_state (self->memory)->editing : NULL;
}

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
  ChatState *state;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (AGENT_IS_MESSAGE (message));

  if (self->memory == NULL || self->composer == NULL || agent_gtk_chat_view_get_busy (self) ||
      _agent_gtk_chat_view_memory_position (self->memory, message) == G_MAXUINT)
    return;

  state = chat_state (self->memory);
  if (state->editing == NULL)
    {
      g_free (state->before_edit);
      state->before_edit = dup_composer_text (self);
    }
  else
    composer_message_attachments (self, state->editing, FALSE);
  g_set_object (&state->editing, message);
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
  ChatState *state;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if (self->memory == NULL || (state = chat_state (self->memory))->editing == NULL)
    return;

  if (self->composer != NULL)
    composer_message_attachments (self, state->editing, FALSE);
  g_clear_object (&state->editing);
  set_composer (self, state->before_edit, FALSE);
  g_clear_pointer (&state->before_edit, g_free);
  _agent_gtk_chat_view_update_rows (self);
}

static void
set_undo (AgentGtkChatView *self,
          EditUndo         *undo)
{
  gboolean could = self->undo != NULL;

  g_clear_pointer (&self->undo, edit_undo_free);
  self->undo = undo;
  if (could != (undo != NULL))
    g_object_notify (G_OBJECT (self), "can-undo-edit");
}

/* Puts back the messages @undo holds, where the edit cut them, and the
 * edit in the composer, as before Send */
static void
restore_edit (AgentGtkChatView *self,
              EditUndo         *undo)
{
  AgentMemory *memory = undo->memory;
  ChatState *state = chat_state (memory);
  gboolean shown = memory == self->memory;
  g_autoptr(GError) error = NULL;

  if (!agent_memory_truncate (memory, undo->position, &error))
    {
      if (shown)
        _agent_gtk_chat_view_show_error_item (self, error, NULL);
      return;
    }
  for (guint i = 0; i < undo->messages->len; i++)
    if (!agent_memory_append (memory, g_ptr_array_index (undo->messages, i), &error))
      {
        if (shown)
          _agent_gtk_chat_view_show_error_item (self, error, NULL);
        return;
      }
  for (guint i = 0; i < undo->errors->len; i++)
    if (g_ptr_array_index (undo->errors, i) != NULL)
      set_error (self, memory, g_ptr_array_index (undo->messages, i),
                 g_ptr_array_index (undo->errors, i));

  g_free (state->before_edit);
  state->before_edit = shown ? dup_composer_text (self) : g_steal_pointer (&state->draft);
  g_set_object (&state->editing, g_ptr_array_index (undo->messages, 0));
  if (shown)
    {
      set_composer (self, undo->text, TRUE);
      _agent_gtk_chat_view_show_last_error (self);
      _agent_gtk_chat_view_update_rows (self);
      /* The keyboard goes back to the message, being edited again (the
       * Undo that was clicked, in a toast, goes) */
      if (self->composer != NULL)
        gtk_widget_grab_focus (GTK_WIDGET (self->composer));
    }
  else
    {
      g_free (state->draft);
      state->draft = g_strdup (undo->text);
    }
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

/**
 * agent_gtk_chat_view_undo_edit:
 * @self: a chat view
 *
 * Undoes the last edited message sent ([signal@AgentGtk.ChatView::edit-sent]):
 * its turn is stopped first, then the messages it replaced come back, and
 * the edit is in the composer again, as before Send, with the keyboard
 * focus. It can be undone until another turn starts in its conversation.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_undo_edit (AgentGtkChatView *self)
{
  EditUndo *undo;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if (self->undo == NULL)
    return;
  undo = g_steal_pointer (&self->undo);
  g_object_notify (G_OBJECT (self), "can-undo-edit");

  /* The edited message's turn stops first; its end puts the rest back */
  if (undo->memory == self->memory && self->session != NULL &&
      agent_session_get_busy (self->session))
    {
      g_clear_pointer (&self->pending_undo, edit_undo_free);
      self->pending_undo = undo;
      agent_gtk_chat_view_stop (self);
      return;
    }
  restore_edit (self, undo);
  edit_undo_free (undo);
}

/* A turn of @memory ended: what an edit replaced comes back, when Undo
 * waited for the turn to stop */
void
_agent_gtk_chat_view_turn_ended (AgentGtkChatView *self,
                                 AgentMemory      *memory)
{
  EditUndo *undo = self->pending_undo;

  if (undo == NULL || undo->memory != memory)
    return;
  self->pending_undo = NULL;
  restore_edit (self, undo);
  edit_undo_free (undo);
}

/* A new turn in @memory: an Undo of an edit there would cut it */
void
_agent_gtk_chat_view_drop_undo (AgentGtkChatView *self,
                                AgentMemory      *memory)
{
  EditUndo *undo = self->undo;

  if (undo != NULL && undo->memory == memory)
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
  ChatState *state;
  g_autoptr(AgentMessage) editing = NULL;
  g_autofree char *before = NULL;
  g_autoptr(GError) error = NULL;
  EditUndo *undo;
  guint position;
  guint n;

  if (self->memory == NULL || (state = chat_state (self->memory))->editing == NULL)
    return TRUE;

  editing = g_steal_pointer (&state->editing);
  before = g_steal_pointer (&state->before_edit);
  set_composer (self, before, FALSE);

  /* Gone meanwhile (regenerated away): sent as a new message */
  position = _agent_gtk_chat_view_memory_position (self->memory, editing);
  if (position == G_MAXUINT)
    return TRUE;

  undo = g_new0 (EditUndo, 1);
  undo->memory = g_object_ref (self->memory);
  undo->position = position;
  undo->messages = g_ptr_array_new_with_free_func (g_object_unref);
  undo->errors = g_ptr_array_new_with_free_func (free_error);
  undo->text = g_strdup (text);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->memory));
  for (guint i = position; i < n; i++)
    {
      AgentMessage *message = g_list_model_get_item (G_LIST_MODEL (self->memory), i);
      const GError *turn_error = g_hash_table_lookup (state->errors, message);

      g_ptr_array_add (undo->messages, message);
      g_ptr_array_add (undo->errors, turn_error ? g_error_copy (turn_error) : NULL);
    }

  if (!agent_memory_truncate (self->memory, position, &error))
    {
      /* Nothing was cut: the edit goes on, as it was */
      _agent_gtk_chat_view_show_error_item (self, error, NULL);
      edit_undo_free (undo);
      state->editing = g_steal_pointer (&editing);
      state->before_edit = g_steal_pointer (&before);
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
  g_clear_pointer (&self->pending_undo, edit_undo_free);
  g_clear_pointer (&self->undo, edit_undo_free);
}
