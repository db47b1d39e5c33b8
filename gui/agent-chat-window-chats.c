/* agent-chat-window-chats.c
 *
 * What belongs to each chat rather than to the window, kept with the chat's
 * memory (as its data) so that it follows the chat, not the window:
 *
 * - the draft: what the composer held when the user left the chat;
 * - the message being edited (Edit and Resend), and the draft from before
 *   the edit began. Nothing is deleted while a message is edited: only
 *   when the edited message is sent are it and the turns after it cut,
 *   and a toast offers to Undo that (which stops the new turn first);
 * - the errors of failed turns, by message: for a stored conversation they
 *   are the conversation's own (agent_conversation_set_error()), so they
 *   come back after a restart. The error of the chat's last message shows
 *   as a card after it, with Retry; an answer cut short says why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-window-private.h"

typedef struct
{
  char         *draft;        /* the composer's text, while the chat is not shown */
  char         *before_edit;  /* the composer's text before Edit and Resend */
  AgentMessage *editing;      /* the message being edited */
  GHashTable   *errors;       /* AgentMessage → GError: why the turn that ended there failed */
} ChatState;

/* Edit and Resend, undone: the memory's messages from @position on, as they
 * were, and what the composer held before Send */
typedef struct
{
  AgentMemory *memory;
  guint        position;
  GPtrArray   *messages;
  GPtrArray   *errors;    /* of each message, or NULL */
  char        *text;      /* the edited message as sent */
} EditUndo;

static void
chat_state_free (gpointer data)
{
  ChatState *state = data;

  g_free (state->draft);
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

/* The state of the chat held in @memory, made when first asked for: with
 * the errors a stored conversation kept */
static ChatState *
chat_state (AgentMemory *memory)
{
  ChatState *state = g_object_get_data (G_OBJECT (memory), "agent-chat-state");

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
  g_object_set_data_full (G_OBJECT (memory), "agent-chat-state", state, chat_state_free);
  return state;
}

static AgentMemory *
shown_memory (AgentChatWindow *self)
{
  return self->session != NULL ? agent_session_get_memory (self->session) : NULL;
}

/**
 * _agent_chat_window_memory_position:
 * @memory: a memory
 * @message: a message
 *
 * Returns: the position of @message in @memory, or %G_MAXUINT
 */
guint
_agent_chat_window_memory_position (AgentMemory  *memory,
                                    AgentMessage *message)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (memory));

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AgentMessage) item = g_list_model_get_item (G_LIST_MODEL (memory), i - 1);

      if (item == message)
        return i - 1;
    }
  return G_MAXUINT;
}

static AgentMessage *
last_message (AgentMemory *memory)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (memory));

  return n > 0 ? g_list_model_get_item (G_LIST_MODEL (memory), n - 1) : NULL;
}

static void
show_toast (AgentChatWindow *self,
            const char      *what,
            const GError    *error)
{
  g_autofree char *text = g_markup_printf_escaped ("%s: %s", what, error->message);
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Errors */

/* Keeps @error with @message (NULL forgets it), in the stored
 * conversation too */
static void
set_error (AgentMemory  *memory,
           AgentMessage *message,
           const GError *error)
{
  ChatState *state = chat_state (memory);

  if (error != NULL)
    g_hash_table_insert (state->errors, g_object_ref (message), g_error_copy (error));
  else if (!g_hash_table_remove (state->errors, message))
    return;

#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      guint position = _agent_chat_window_memory_position (memory, message);
      g_autoptr(GError) local_error = NULL;

      if (position != G_MAXUINT &&
          !agent_conversation_set_error (AGENT_CONVERSATION (memory), position, error,
                                         &local_error))
        g_warning ("The error of a turn could not be stored: %s", local_error->message);
    }
#endif
}

/**
 * _agent_chat_window_lookup_error:
 * @self: a #AgentChatWindow
 * @message: a message of the chat shown
 *
 * Returns: (nullable): the error the turn that ended with @message failed with
 */
const GError *
_agent_chat_window_lookup_error (AgentChatWindow *self,
                                 AgentMessage    *message)
{
  AgentMemory *memory = shown_memory (self);

  if (memory == NULL || message == NULL)
    return NULL;
  return g_hash_table_lookup (chat_state (memory)->errors, message);
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

/**
 * _agent_chat_window_record_error:
 * @self: a #AgentChatWindow
 * @memory: the memory of the session whose turn failed
 * @error: why it failed
 *
 * Keeps @error with the message the failed turn ended with.
 *
 * Returns: %FALSE if the turn left no message of its own to keep it with
 */
gboolean
_agent_chat_window_record_error (AgentChatWindow *self,
                                 AgentMemory     *memory,
                                 const GError    *error)
{
  g_autoptr(AgentMessage) last = last_message (memory);

  if (last == NULL || !ends_failed_turn (last))
    return FALSE;
  set_error (memory, last, error);
  return TRUE;
}

/**
 * _agent_chat_window_forget_error:
 * @self: a #AgentChatWindow
 *
 * A turn starts from the chat's last message: unless it is an answer cut
 * short, which keeps saying why, its error is over.
 */
void
_agent_chat_window_forget_error (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);
  g_autoptr(AgentMessage) last = memory ? last_message (memory) : NULL;

  if (last != NULL && agent_message_get_state (last) != AGENT_MESSAGE_STATE_INTERRUPTED)
    set_error (memory, last, NULL);
}

/**
 * _agent_chat_window_show_last_error:
 * @self: a #AgentChatWindow
 *
 * Shows the error of the chat's last message as a card after it, or none.
 */
void
_agent_chat_window_show_last_error (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);
  g_autoptr(AgentMessage) last = memory ? last_message (memory) : NULL;
  const GError *error = _agent_chat_window_lookup_error (self, last);

  if (error != NULL)
    _agent_chat_window_show_error (self, error, last);
  else
    g_list_store_remove_all (self->extras);
}

/* Drafts */

/**
 * _agent_chat_window_leave_chat:
 * @self: a #AgentChatWindow
 *
 * The chat shown is about to be left: it keeps what the composer holds.
 */
void
_agent_chat_window_leave_chat (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);
  ChatState *state;

  if (memory == NULL)
    return;
  state = chat_state (memory);
  g_free (state->draft);
  state->draft = agent_chat_composer_dup_text (self->composer);
}

/**
 * _agent_chat_window_enter_chat:
 * @self: a #AgentChatWindow
 *
 * The chat shown now: its draft, its edit, its last error.
 */
void
_agent_chat_window_enter_chat (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);
  ChatState *state;

  if (memory == NULL)
    return;
  state = chat_state (memory);
  agent_chat_composer_set_text (self->composer, state->draft);
  g_clear_pointer (&state->draft, g_free);
  agent_chat_composer_set_editing (self->composer, state->editing != NULL);
  _agent_chat_window_show_last_error (self);
}

/* Edit and Resend */

/**
 * _agent_chat_window_get_editing:
 * @self: a #AgentChatWindow
 *
 * Returns: (nullable): the message of the chat shown being edited
 */
AgentMessage *
_agent_chat_window_get_editing (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);

  return memory != NULL ? chat_state (memory)->editing : NULL;
}

/**
 * _agent_chat_window_edit:
 * @self: a #AgentChatWindow
 * @message: a message the user wrote
 *
 * Puts @message in the composer to be edited; nothing is deleted yet.
 */
void
_agent_chat_window_edit (AgentChatWindow *self,
                         AgentMessage    *message)
{
  AgentMemory *memory = shown_memory (self);
  ChatState *state;

  if (memory == NULL || agent_session_get_busy (self->session) ||
      _agent_chat_window_memory_position (memory, message) == G_MAXUINT)
    return;

  state = chat_state (memory);
  if (state->editing == NULL)
    {
      g_free (state->before_edit);
      state->before_edit = agent_chat_composer_dup_text (self->composer);
    }
  g_set_object (&state->editing, message);
  agent_chat_composer_set_text (self->composer, agent_message_get_content (message));
  agent_chat_composer_set_editing (self->composer, TRUE);
  agent_chat_composer_focus (self->composer);
  _agent_chat_window_update_rows (self);
}

/**
 * _agent_chat_window_cancel_edit:
 * @self: a #AgentChatWindow
 *
 * Gives up the edit: the composer holds again what it held before.
 */
void
_agent_chat_window_cancel_edit (AgentChatWindow *self)
{
  AgentMemory *memory = shown_memory (self);
  ChatState *state;

  if (memory == NULL || (state = chat_state (memory))->editing == NULL)
    return;

  g_clear_object (&state->editing);
  agent_chat_composer_set_text (self->composer, state->before_edit);
  g_clear_pointer (&state->before_edit, g_free);
  agent_chat_composer_set_editing (self->composer, FALSE);
  _agent_chat_window_update_rows (self);
}

/* Puts back the messages @undo holds, where the edit cut them, and the
 * edit in the composer, as before Send */
static void
restore_edit (AgentChatWindow *self,
              EditUndo        *undo)
{
  AgentMemory *memory = undo->memory;
  ChatState *state = chat_state (memory);
  gboolean shown = memory == shown_memory (self);
  g_autoptr(GError) error = NULL;

  if (!agent_memory_truncate (memory, undo->position, &error))
    {
      show_toast (self, _("Could not undo the edit"), error);
      return;
    }
  for (guint i = 0; i < undo->messages->len; i++)
    if (!agent_memory_append (memory, g_ptr_array_index (undo->messages, i), &error))
      {
        show_toast (self, _("Could not undo the edit"), error);
        return;
      }
  for (guint i = 0; i < undo->errors->len; i++)
    if (g_ptr_array_index (undo->errors, i) != NULL)
      set_error (memory, g_ptr_array_index (undo->messages, i),
                 g_ptr_array_index (undo->errors, i));

  g_free (state->before_edit);
  state->before_edit = shown ? agent_chat_composer_dup_text (self->composer)
                             : g_steal_pointer (&state->draft);
  g_set_object (&state->editing, g_ptr_array_index (undo->messages, 0));
  if (shown)
    {
      agent_chat_composer_set_text (self->composer, undo->text);
      agent_chat_composer_set_editing (self->composer, TRUE);
      _agent_chat_window_show_last_error (self);
      _agent_chat_window_update_rows (self);
    }
  else
    {
      g_free (state->draft);
      state->draft = g_strdup (undo->text);
    }
}

static void
on_undo_edit (AdwToast        *toast,
              AgentChatWindow *self)
{
  EditUndo *undo = g_object_steal_data (G_OBJECT (toast), "edit-undo");

  if (undo == NULL)
    return;

  /* The edited message's turn stops first; its end puts the rest back */
  if (undo->memory == shown_memory (self) && agent_session_get_busy (self->session))
    {
      g_clear_pointer (&self->pending_undo, edit_undo_free);
      self->pending_undo = undo;
      agent_chat_window_stop (self);
      return;
    }
  restore_edit (self, undo);
  edit_undo_free (undo);
}

/**
 * _agent_chat_window_turn_ended:
 * @self: a #AgentChatWindow
 * @memory: the memory of the session whose turn ended
 *
 * Puts back what an edit replaced, when Undo waited for the turn to end.
 */
void
_agent_chat_window_turn_ended (AgentChatWindow *self,
                               AgentMemory     *memory)
{
  EditUndo *undo = self->pending_undo;

  if (undo == NULL || undo->memory != memory)
    return;
  self->pending_undo = NULL;
  restore_edit (self, undo);
  edit_undo_free (undo);
}

static void
offer_undo (AgentChatWindow *self,
            EditUndo        *undo)
{
  AdwToast *toast = adw_toast_new (_("Message edited"));

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_set_timeout (toast, 10);
  g_object_set_data_full (G_OBJECT (toast), "edit-undo", undo, edit_undo_free);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_undo_edit), self, 0);
  if (self->undo_toast != NULL)
    adw_toast_dismiss (self->undo_toast);
  g_set_weak_pointer (&self->undo_toast, toast);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * _agent_chat_window_apply_edit:
 * @self: a #AgentChatWindow
 * @text: the edited message, about to be sent
 *
 * When a message of the chat shown is being edited: cuts it and the turns
 * after it, offering to Undo that, and gives the composer back what it
 * held before the edit.
 *
 * Returns: %FALSE if the memory could not be cut (nothing is to be sent)
 */
gboolean
_agent_chat_window_apply_edit (AgentChatWindow *self,
                               const char      *text)
{
  AgentMemory *memory = shown_memory (self);
  ChatState *state;
  g_autoptr(AgentMessage) editing = NULL;
  g_autofree char *before = NULL;
  g_autoptr(GError) error = NULL;
  EditUndo *undo;
  guint position;
  guint n;

  /* A new turn in the chat: an Undo on offer there would cut it */
  if (self->undo_toast != NULL)
    {
      EditUndo *offered = g_object_get_data (G_OBJECT (self->undo_toast), "edit-undo");

      if (offered != NULL && offered->memory == memory)
        adw_toast_dismiss (self->undo_toast);
    }

  if (memory == NULL || (state = chat_state (memory))->editing == NULL)
    return TRUE;

  editing = g_steal_pointer (&state->editing);
  before = g_steal_pointer (&state->before_edit);
  agent_chat_composer_set_editing (self->composer, FALSE);
  agent_chat_composer_set_text (self->composer, before);

  /* Gone meanwhile (regenerated away): sent as a new message */
  position = _agent_chat_window_memory_position (memory, editing);
  if (position == G_MAXUINT)
    return TRUE;

  undo = g_new0 (EditUndo, 1);
  undo->memory = g_object_ref (memory);
  undo->position = position;
  undo->messages = g_ptr_array_new_with_free_func (g_object_unref);
  undo->errors = g_ptr_array_new_with_free_func (free_error);
  undo->text = g_strdup (text);
  n = g_list_model_get_n_items (G_LIST_MODEL (memory));
  for (guint i = position; i < n; i++)
    {
      AgentMessage *message = g_list_model_get_item (G_LIST_MODEL (memory), i);
      const GError *turn_error = g_hash_table_lookup (state->errors, message);

      g_ptr_array_add (undo->messages, message);
      g_ptr_array_add (undo->errors, turn_error ? g_error_copy (turn_error) : NULL);
    }

  if (!agent_memory_truncate (memory, position, &error))
    {
      /* Nothing was cut: the edit goes on, as it was */
      show_toast (self, _("Could not send the edited message"), error);
      edit_undo_free (undo);
      state->editing = g_steal_pointer (&editing);
      state->before_edit = g_steal_pointer (&before);
      agent_chat_composer_set_text (self->composer, text);
      agent_chat_composer_set_editing (self->composer, TRUE);
      return FALSE;
    }
  offer_undo (self, undo);
  return TRUE;
}

/**
 * _agent_chat_window_dispose_chats:
 * @self: a #AgentChatWindow
 */
void
_agent_chat_window_dispose_chats (AgentChatWindow *self)
{
  g_clear_pointer (&self->pending_undo, edit_undo_free);
  g_clear_weak_pointer (&self->undo_toast);
}
