/* agent-gtk-chat-view-turns.c
 *
 * The turns a chat view runs on its session: Send (the composer's, or
 * agent_gtk_chat_view_send()), Retry of a failed turn, Regenerate of an
 * answer, and Stop.
 *
 * Before a turn starts, ::prepare-turn lets the application get the session
 * ready (its provider, model, key, tools) — or hold the turn while it waits
 * for something (a key from the keyring, a conversation another program
 * adds to): a held turn starts with agent_gtk_chat_view_resume_turn(), which
 * asks ::prepare-turn again, and is dropped by Stop or
 * agent_gtk_chat_view_fail_turn(). Meanwhile the view is busy: Stop shows.
 * A message sent with attachments goes as one message of parts (its text,
 * then the images and documents); when the provider refuses one of them,
 * or one is too large, the composer gets back the text and the
 * attachments, so that nothing is lost.
 * What a turn changes in the conversation (Retry cuts an answer cut short,
 * Regenerate cuts back to the question, an edited message cuts what came
 * after it) happens only once it starts: never while another program holds
 * the conversation.
 *
 * From the start of a turn until something of the answer shows, the
 * answer's row says that it is awaited, or that the request is tried again
 * and why (the session's ::retry). A turn that fails keeps its error with
 * the message it ended on (agent-gtk-chat-state.c) and shows it in a
 * card after the conversation, with Retry.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-private.h"

void
_agent_gtk_chat_view_clear_turn (Turn *turn)
{
  turn->kind = TURN_NONE;
  g_clear_pointer (&turn->text, g_free);
  g_clear_object (&turn->message);
  g_clear_pointer (&turn->parts, g_ptr_array_unref);
}

/* The end of a turn */

/* A message the provider refused for its attachments (one it cannot take,
 * one too large) leaves the conversation, and the composer, unless the
 * user wrote something else meanwhile, gets it back. Returns whether it
 * did. */
static gboolean
give_back_draft (AgentGtkChatView *self,
                 AgentMemory      *memory,
                 const GError     *error)
{
  g_autofree char *text = NULL;

  if (self->composer == NULL || self->last_parts == NULL || memory != self->sent_memory ||
      !(g_error_matches (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT) ||
        g_error_matches (error, AGENT_ERROR, AGENT_ERROR_LIMIT)))
    return FALSE;
  text = agent_gtk_composer_dup_text (self->composer);
  if (*text != '\0' ||
      g_list_model_get_n_items (agent_gtk_composer_get_attachments (self->composer)) > 0)
    return FALSE;
  if (g_list_model_get_n_items (G_LIST_MODEL (memory)) > self->sent_position &&
      !agent_memory_truncate (memory, self->sent_position, NULL))
    return FALSE;
  agent_gtk_composer_set_text (self->composer, self->last_prompt);
  for (guint i = 0; i < self->last_parts->len; i++)
    agent_gtk_composer_add_attachment (self->composer, g_ptr_array_index (self->last_parts, i));
  return TRUE;
}

/* A turn of @memory ended: what an edit replaced comes back, when Undo
 * waited for the turn to stop */
static void
restore_pending_undo (AgentGtkChatView *self,
                      AgentMemory      *memory)
{
  AgentGtkEditUndo *undo = self->pending_undo;

  if (undo == NULL || agent_gtk_edit_undo_get_memory (undo) != memory)
    return;
  self->pending_undo = NULL;
  _agent_gtk_chat_view_restore_edit (self, undo);
  agent_gtk_edit_undo_free (undo);
}

static void
turn_done (AgentGtkChatView *self,
           AgentSession     *session,
           AgentMessage     *message,
           GError           *error)
{
  AgentMemory *memory = agent_session_get_memory (session);
  gboolean failed = error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean given_back = failed && session == self->session && give_back_draft (self, memory, error);
  gboolean recorded = failed && !given_back &&
                      agent_gtk_chat_state_record_error (agent_gtk_chat_state_get (memory), error);

  if (session == self->session)
    self->sent_memory = NULL;

  /* An Undo of an edit waited for the turn to stop */
  restore_pending_undo (self, memory);

  /* The turn of a session the view left (for another conversation, or
   * another provider) ended: its conversation has what streamed, and the
   * error; the view has moved on. */
  if (session != self->session)
    return;
  g_clear_object (&self->cancellable);
  _agent_gtk_chat_view_set_progress (self, NULL, NULL);
  if (recorded)
    _agent_gtk_chat_view_show_last_error (self);
  else if (failed)
    _agent_gtk_chat_view_show_error_item (self, error, NULL);
  g_signal_emit_by_name (self, "turn-finished", message, error);
}

static void
on_send_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(AgentGtkChatView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_send_finish (AGENT_SESSION (object), result,
                                                               &error);

  turn_done (self, AGENT_SESSION (object), message, error);
}

static void
on_send_message_done (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(AgentGtkChatView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_send_message_finish (AGENT_SESSION (object),
                                                                       result, &error);

  turn_done (self, AGENT_SESSION (object), message, error);
}

static void
on_continue_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentGtkChatView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_continue_finish (AGENT_SESSION (object), result,
                                                                   &error);

  turn_done (self, AGENT_SESSION (object), message, error);
}

/* The start of a turn */

static gboolean
cut_memory (AgentGtkChatView *self,
            guint             n_items)
{
  g_autoptr(GError) error = NULL;

  if (!agent_memory_truncate (agent_session_get_memory (self->session), n_items, &error))
    {
      _agent_gtk_chat_view_show_error_item (self, error, NULL);
      return FALSE;
    }
  return TRUE;
}

/* Regenerate: back to the user's message @message answers. Returns
 * whether the conversation was cut and may go on. */
static gboolean
cut_for_regenerate (AgentGtkChatView *self,
                    AgentMessage     *message)
{
  AgentMemory *memory = agent_session_get_memory (self->session);
  guint position = agent_gtk_chat_state_position (memory, message);

  /* Gone meanwhile (another program's turn, an edit): nothing to do */
  if (position == G_MAXUINT)
    return FALSE;
  while (position > 0)
    {
      g_autoptr(AgentMessage) item = g_list_model_get_item (G_LIST_MODEL (memory), position - 1);

      if (agent_message_get_role (item) == AGENT_MESSAGE_ROLE_USER)
        break;
      position--;
    }
  return position > 0 && cut_memory (self, position);
}

/* Retry, from the conversation as it is now: an answer cut short goes (a
 * new one replaces it); a conversation that ends with the user's message
 * or a tool's result goes on; otherwise the last prompt is sent again.
 * Returns the turn to run. */
static TurnKind
prepare_retry (AgentGtkChatView *self)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (self->session));
  guint n = g_list_model_get_n_items (memory);
  g_autoptr(AgentMessage) last = n > 0 ? g_list_model_get_item (memory, n - 1) : NULL;

  if (last != NULL && agent_message_get_role (last) == AGENT_MESSAGE_ROLE_ASSISTANT &&
      agent_message_get_state (last) == AGENT_MESSAGE_STATE_INTERRUPTED)
    {
      if (!cut_memory (self, n - 1))
        return TURN_NONE;
      n--;
      g_clear_object (&last);
      last = n > 0 ? g_list_model_get_item (memory, n - 1) : NULL;
    }
  if (last != NULL && (agent_message_get_role (last) == AGENT_MESSAGE_ROLE_USER ||
                       agent_message_get_role (last) == AGENT_MESSAGE_ROLE_TOOL))
    return TURN_CONTINUE;
  if (self->last_prompt != NULL)
    return TURN_SEND;
  return TURN_NONE;
}

static void
start (AgentGtkChatView *self,
       Turn             *turn)
{
  TurnKind kind = turn->kind;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) parts = NULL;

  _agent_gtk_chat_view_clear_error_item (self);
  /* A failed turn tried again is no longer failed; any other stays failed
   * in the history, with Retry */
  if (kind == TURN_RETRY && self->memory != NULL)
    agent_gtk_chat_state_forget_error (agent_gtk_chat_state_get (self->memory));
  _agent_gtk_chat_view_set_progress (self, NULL, NULL);
  /* A new turn in the conversation: an Undo on offer there would cut it */
  _agent_gtk_chat_view_drop_undo (self, agent_session_get_memory (self->session));

  if (kind == TURN_RETRY)
    {
      kind = prepare_retry (self);
      if (kind == TURN_SEND)
        {
          text = g_strdup (self->last_prompt);
          parts = self->last_parts ? g_ptr_array_ref (self->last_parts) : NULL;
        }
    }
  else if (kind == TURN_REGENERATE)
    kind = cut_for_regenerate (self, turn->message) ? TURN_CONTINUE : TURN_NONE;
  else if (kind == TURN_SEND)
    {
      text = g_strdup (turn->text);
      parts = turn->parts ? g_ptr_array_ref (turn->parts) : NULL;
    }

  if (kind == TURN_SEND)
    {
      /* The composer is emptied; an edit gives it back what it held before */
      if (self->composer != NULL)
        {
          agent_gtk_composer_set_text (self->composer, NULL);
          agent_gtk_composer_clear_attachments (self->composer);
        }
      if (!_agent_gtk_chat_view_apply_edit (self, text))
        return;
      g_free (self->last_prompt);
      self->last_prompt = g_strdup (text);
      g_clear_pointer (&self->last_parts, g_ptr_array_unref);
      self->last_parts = parts ? g_ptr_array_ref (parts) : NULL;
    }
  if (kind != TURN_SEND && kind != TURN_CONTINUE)
    return;

  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  agent_gtk_autoscroll_set_following (self->autoscroll, TRUE);  /* to the end */
  /* Only a message sent with attachments is given back (not a Retry or a
   * Regenerate of the conversation as it is) */
  self->sent_memory = NULL;
  if (kind == TURN_SEND && parts != NULL)
    {
      g_autoptr(AgentMessage) message = NULL;
      GListModel *memory;

      message = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, NULL, 0);
      if (*text != '\0')
        {
          g_autoptr(AgentContentPart) part = agent_content_part_new_text (text);

          agent_message_add_part (message, part);
        }
      for (guint i = 0; i < parts->len; i++)
        agent_message_add_part (message, g_ptr_array_index (parts, i));
      memory = G_LIST_MODEL (agent_session_get_memory (self->session));
      self->sent_memory = memory;
      self->sent_position = g_list_model_get_n_items (memory);
      agent_session_send_message_async (self->session, message, self->cancellable,
                                        on_send_message_done, g_object_ref (self));
    }
  else if (kind == TURN_SEND)
    agent_session_send_async (self->session, text, self->cancellable, on_send_done,
                              g_object_ref (self));
  else
    agent_session_continue_async (self->session, self->cancellable, on_continue_done,
                                  g_object_ref (self));
}

/* Asks ::prepare-turn, then starts the pending turn, unless it is held or
 * was dropped meanwhile */
static void
try_start (AgentGtkChatView *self)
{
  gboolean hold = FALSE;
  Turn turn = { TURN_NONE, };

  g_object_ref (self);
  g_signal_emit_by_name (self, "prepare-turn", &hold);
  if (self->pending.kind == TURN_NONE || self->session == NULL)
    {
      /* Dropped by the handler (agent_gtk_chat_view_fail_turn(), Stop) */
      _agent_gtk_chat_view_clear_turn (&self->pending);
      self->held = FALSE;
    }
  else if (hold)
    self->held = TRUE;
  else if (agent_session_get_busy (self->session))
    {
      /* Another turn started meanwhile: this one is not sent */
      _agent_gtk_chat_view_clear_turn (&self->pending);
      self->held = FALSE;
    }
  else
    {
      turn = self->pending;
      self->pending = (Turn) { TURN_NONE, };
      self->held = FALSE;
      start (self, &turn);
      _agent_gtk_chat_view_clear_turn (&turn);
    }
  _agent_gtk_chat_view_update_busy (self);
  g_object_unref (self);
}

void
_agent_gtk_chat_view_request_turn (AgentGtkChatView *self,
                                   TurnKind          kind,
                                   const char       *text,
                                   GListModel       *attachments,
                                   AgentMessage     *message)
{
  guint n_attachments = attachments ? g_list_model_get_n_items (attachments) : 0;

  if (self->session == NULL || agent_session_get_busy (self->session))
    return;

  /* A turn held meanwhile gives way to this one (Send again while the key
   * is looked up) */
  _agent_gtk_chat_view_clear_turn (&self->pending);
  self->pending.kind = kind;
  self->pending.text = g_strdup (text);
  self->pending.message = message ? g_object_ref (message) : NULL;
  if (n_attachments > 0)
    {
      self->pending.parts = g_ptr_array_new_with_free_func (g_object_unref);
      for (guint i = 0; i < n_attachments; i++)
        g_ptr_array_add (self->pending.parts, g_list_model_get_item (attachments, i));
    }
  if (self->held)
    {
      /* The handler that holds the turn resumes it when it may start */
      _agent_gtk_chat_view_update_busy (self);
      return;
    }
  try_start (self);
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
  position = agent_gtk_chat_state_position (self->memory, message);
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

/**
 * agent_gtk_chat_view_send:
 * @self: a chat view
 * @text: the user's message
 *
 * Sends @text in a new turn, as the composer's Send does, unless a turn
 * runs. The turn starts after [signal@AgentGtk.ChatView::prepare-turn]
 * (which may hold it); the composer is emptied then. When a message is
 * being edited, it is the edited message that is sent: it replaces the
 * message and what came after it.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_send (AgentGtkChatView *self,
                          const char       *text)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (text != NULL);

  _agent_gtk_chat_view_request_turn (self, TURN_SEND, text, NULL, NULL);
}

/**
 * agent_gtk_chat_view_send_with_attachments:
 * @self: a chat view
 * @text: the user's message (may be empty when there are attachments)
 * @attachments: (nullable): a list of [class@Agent.ContentPart]: images
 *   and documents that go with @text
 *
 * Sends @text with @attachments in a new turn, as the composer's Send
 * does, unless a turn runs: as [method@AgentGtk.ChatView.send] does, one
 * message of parts. The composer is emptied once the turn starts. When the
 * provider cannot take one of the attachments, or one is too large, the
 * turn fails (its error shows in the conversation) and the composer gets
 * back the text and the attachments.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_send_with_attachments (AgentGtkChatView *self,
                                           const char       *text,
                                           GListModel       *attachments)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (attachments == NULL || G_IS_LIST_MODEL (attachments));

  _agent_gtk_chat_view_request_turn (self, TURN_SEND, text, attachments, NULL);
}

/**
 * agent_gtk_chat_view_retry:
 * @self: a chat view
 *
 * Tries the failed turn again, as its error card's Retry does: an answer
 * cut short is replaced by a new one, a conversation that ends with the
 * user's message (or a tool's result) goes on.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_retry (AgentGtkChatView *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  _agent_gtk_chat_view_request_turn (self, TURN_RETRY, NULL, NULL, NULL);
}

/**
 * agent_gtk_chat_view_regenerate:
 * @self: a chat view
 * @message: an answer of the conversation
 *
 * Answers again the question @message answers, as the answer's Regenerate
 * does: the conversation is cut back to the question once the turn starts,
 * and the model asked again.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_regenerate (AgentGtkChatView *self,
                                AgentMessage     *message)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (AGENT_IS_MESSAGE (message));

  _agent_gtk_chat_view_request_turn (self, TURN_REGENERATE, NULL, NULL, message);
}

/**
 * agent_gtk_chat_view_stop:
 * @self: a chat view
 *
 * Stops the turn, as the composer's Stop does: a turn that runs is
 * cancelled — mid-stream, during a tool or while an approval waits — and
 * what streamed stays, marked as stopped; a held turn is dropped, its
 * text left in the composer.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_stop (AgentGtkChatView *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if (self->pending.kind != TURN_NONE || self->held)
    {
      _agent_gtk_chat_view_clear_turn (&self->pending);
      self->held = FALSE;
      _agent_gtk_chat_view_update_busy (self);
    }
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
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
  AgentGtkEditUndo *undo;

  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if ((undo = _agent_gtk_chat_view_take_undo (self)) == NULL)
    return;

  /* The edited message's turn stops first; its end puts the rest back */
  if (agent_gtk_edit_undo_get_memory (undo) == self->memory && self->session != NULL &&
      agent_session_get_busy (self->session))
    {
      g_clear_pointer (&self->pending_undo, agent_gtk_edit_undo_free);
      self->pending_undo = undo;
      agent_gtk_chat_view_stop (self);
      return;
    }
  _agent_gtk_chat_view_restore_edit (self, undo);
  agent_gtk_edit_undo_free (undo);
}

/**
 * agent_gtk_chat_view_resume_turn:
 * @self: a chat view
 *
 * Tries again to start the turn that a handler of
 * [signal@AgentGtk.ChatView::prepare-turn] held: the signal is emitted
 * again, and the turn starts unless it is held once more. Does nothing
 * when no turn is held.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_resume_turn (AgentGtkChatView *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  if (!self->held || self->pending.kind == TURN_NONE)
    return;
  try_start (self);
}

/**
 * agent_gtk_chat_view_fail_turn:
 * @self: a chat view
 * @error: why the turn cannot start
 *
 * Drops the turn about to start (from a handler of
 * [signal@AgentGtk.ChatView::prepare-turn]) or held, and shows @error in
 * its place, with Retry. The user's text stays in the composer.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_fail_turn (AgentGtkChatView *self,
                               const GError     *error)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (error != NULL);

  _agent_gtk_chat_view_clear_turn (&self->pending);
  self->held = FALSE;
  _agent_gtk_chat_view_show_error_item (self, error, NULL);
  _agent_gtk_chat_view_update_busy (self);
}

/**
 * agent_gtk_chat_view_show_error:
 * @self: a chat view
 * @error: an error
 *
 * Shows @error in a card after the conversation, with Retry, as the view
 * does for a failed turn: for an error of the application's about the
 * conversation (one that could not be saved, say).
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_show_error (AgentGtkChatView *self,
                                const GError     *error)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (error != NULL);

  _agent_gtk_chat_view_show_error_item (self, error, NULL);
}
