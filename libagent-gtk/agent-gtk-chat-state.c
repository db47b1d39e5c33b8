/* agent-gtk-chat-state.c
 *
 * What belongs to each conversation rather than to the view, kept with the
 * conversation's memory (as its data) so that it follows the conversation
 * from view to view, and comes back when a conversation is shown again:
 *
 * - the draft: what the composer held when the view left the conversation;
 * - the message being edited (Edit and Resend), and what the composer held
 *   before the edit began. Nothing is deleted while a message is edited:
 *   only when the edited message is sent are it and the turns after it cut
 *   (agent_gtk_chat_state_cut_edit()), into an AgentGtkEditUndo that can
 *   put them back;
 * - the errors of failed turns, by message. For a stored conversation
 *   (AgentConversation) they are the conversation's own
 *   (agent_conversation_set_error()), so they come back after a restart.
 *
 * It calls nothing of the view's: the view (agent-gtk-chat-view*.c) asks
 * it, tells it, and shows what it returns.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-chat-state-private.h"

#define STATE_KEY "agent-gtk-chat-state"

struct _AgentGtkChatState
{
  AgentMemory  *memory;       /* unowned: the memory owns the state */
  char         *draft;        /* the composer's text, while the conversation is not shown */
  GPtrArray    *draft_parts;  /* and its attachments, or NULL */
  char         *before_edit;  /* the composer's text before Edit and Resend */
  AgentMessage *editing;      /* the message being edited */
  GHashTable   *errors;       /* AgentMessage → GError: why the turn that ended there failed */
};

/* Edit and Resend, undone: the memory's messages from @position on, as they
 * were, and the edited message as sent. A memory with branches kept them
 * as a branch: Undo switches back to it, sibling by sibling along the path
 * that showed (@siblings, from @position on), and the edit stays, a
 * sibling of the first; one without gets them appended again. */
struct _AgentGtkEditUndo
{
  AgentMemory *memory;
  guint        position;
  GArray      *siblings;  /* of guint: the index of each message among its siblings */
  GPtrArray   *messages;
  GPtrArray   *errors;    /* of each message, or NULL */
  char        *text;
};

static void
chat_state_free (gpointer data)
{
  AgentGtkChatState *state = data;

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

/* The position of @message in @memory, or G_MAXUINT */
guint
agent_gtk_chat_state_position (AgentMemory  *memory,
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

/* The state of the conversation held in @memory (transfer none: @memory
 * keeps it), made when first asked for: with the errors a stored
 * conversation kept */
AgentGtkChatState *
agent_gtk_chat_state_get (AgentMemory *memory)
{
  AgentGtkChatState *state = g_object_get_data (G_OBJECT (memory), STATE_KEY);

  if (state != NULL)
    return state;

  state = g_new0 (AgentGtkChatState, 1);
  state->memory = memory;
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

/* Drafts */

/* Keeps what the composer held (@text, @parts: transfer full, either may
 * be NULL) while the conversation is not shown */
void
agent_gtk_chat_state_save_draft (AgentGtkChatState *state,
                                 char              *text,
                                 GPtrArray         *parts)
{
  g_free (state->draft);
  state->draft = text;
  g_clear_pointer (&state->draft_parts, g_ptr_array_unref);
  state->draft_parts = parts;
}

/* The draft kept (transfer full, or NULL), and its attachments in @parts
 * (transfer full, or NULL); the state keeps none */
char *
agent_gtk_chat_state_take_draft (AgentGtkChatState  *state,
                                 GPtrArray         **parts)
{
  *parts = g_steal_pointer (&state->draft_parts);
  return g_steal_pointer (&state->draft);
}

/* Errors */

/* Keeps @error with @message (NULL forgets it), in the stored
 * conversation too */
static void
set_error (AgentGtkChatState *state,
           AgentMessage      *message,
           const GError      *error)
{
  if (error != NULL)
    g_hash_table_insert (state->errors, g_object_ref (message), g_error_copy (error));
  else if (!g_hash_table_remove (state->errors, message))
    return;

#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (state->memory))
    {
      guint position = agent_gtk_chat_state_position (state->memory, message);
      g_autoptr(GError) local_error = NULL;

      if (position != G_MAXUINT &&
          !agent_conversation_set_error (AGENT_CONVERSATION (state->memory), position, error,
                                         &local_error))
        g_warning ("The error of a turn could not be stored: %s", local_error->message);
    }
#endif
}

/* The error the turn that ended with @message failed with, or NULL */
const GError *
agent_gtk_chat_state_lookup_error (AgentGtkChatState *state,
                                   AgentMessage      *message)
{
  return message != NULL ? g_hash_table_lookup (state->errors, message) : NULL;
}

/* The failure of a turn that ended at a result of one of @message's tool
 * calls (the request after them failed), or NULL */
static const GError *
lookup_tool_results_error (AgentGtkChatState *state,
                           AgentMessage      *message)
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

/* Why the turn that ended at @message, or at the results of its tool
 * calls (which no row shows), failed: NULL if it did not */
const GError *
agent_gtk_chat_state_lookup_failed_turn (AgentGtkChatState *state,
                                         AgentMessage      *message)
{
  const GError *error;

  if (message == NULL || g_hash_table_size (state->errors) == 0)
    return NULL;
  error = g_hash_table_lookup (state->errors, message);
  if (error == NULL && agent_message_get_n_tool_calls (message) > 0)
    error = lookup_tool_results_error (state, message);
  return error;
}

/* The error of the conversation's last message, or NULL; @last gets that
 * message (transfer full, NULL when the conversation is empty) */
const GError *
agent_gtk_chat_state_last_error (AgentGtkChatState  *state,
                                 AgentMessage      **last)
{
  *last = last_message (state->memory);
  return agent_gtk_chat_state_lookup_error (state, *last);
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

/* Keeps @error with the message the failed turn ended with; FALSE if the
 * turn left no message of its own to keep it with */
gboolean
agent_gtk_chat_state_record_error (AgentGtkChatState *state,
                                   const GError      *error)
{
  g_autoptr(AgentMessage) last = last_message (state->memory);

  if (last == NULL || !ends_failed_turn (last))
    return FALSE;
  set_error (state, last, error);
  return TRUE;
}

/* Retry starts from the conversation's last message: unless it is an
 * answer cut short, which keeps saying why, its error is over. (Another
 * turn leaves it: the failed turn stays failed in the history.) */
void
agent_gtk_chat_state_forget_error (AgentGtkChatState *state)
{
  g_autoptr(AgentMessage) last = last_message (state->memory);

  if (last != NULL && agent_message_get_state (last) != AGENT_MESSAGE_STATE_INTERRUPTED)
    set_error (state, last, NULL);
}

/* Edit and Resend */

/* The message being edited, or NULL */
AgentMessage *
agent_gtk_chat_state_get_editing (AgentGtkChatState *state)
{
  return state->editing;
}

/* @message is being edited; @before (transfer full) is what the composer
 * held, kept unless another message was being edited already. Returns that
 * other message (transfer full), or NULL. */
AgentMessage *
agent_gtk_chat_state_start_edit (AgentGtkChatState *state,
                                 AgentMessage      *message,
                                 char              *before)
{
  AgentMessage *previous = g_steal_pointer (&state->editing);

  if (previous == NULL)
    {
      g_free (state->before_edit);
      state->before_edit = before;
    }
  else
    g_free (before);
  state->editing = g_object_ref (message);
  return previous;
}

/* No message is edited any more: returns what the composer held before the
 * edit (transfer full, or NULL), and the message that was edited in
 * @editing (transfer full, NULL if none was) */
char *
agent_gtk_chat_state_end_edit (AgentGtkChatState  *state,
                               AgentMessage      **editing)
{
  *editing = g_steal_pointer (&state->editing);
  return g_steal_pointer (&state->before_edit);
}

/* The edited message @editing is sent as @text: it and the turns after it
 * are cut from the conversation, and returned to be put back if asked. NULL
 * without @error when @editing is no longer in the conversation
 * (regenerated away: nothing was cut); NULL with @error when the memory
 * could not be cut. */
AgentGtkEditUndo *
agent_gtk_chat_state_cut_edit (AgentGtkChatState  *state,
                               AgentMessage       *editing,
                               const char         *text,
                               GError            **error)
{
  g_autoptr(AgentGtkEditUndo) undo = NULL;
  guint position = agent_gtk_chat_state_position (state->memory, editing);
  guint n;

  if (position == G_MAXUINT)
    return NULL;

  undo = g_new0 (AgentGtkEditUndo, 1);
  undo->memory = g_object_ref (state->memory);
  undo->position = position;
  undo->siblings = g_array_new (FALSE, FALSE, sizeof (guint));
  undo->messages = g_ptr_array_new_with_free_func (g_object_unref);
  undo->errors = g_ptr_array_new_with_free_func (free_error);
  undo->text = g_strdup (text);
  n = g_list_model_get_n_items (G_LIST_MODEL (state->memory));
  for (guint i = position; i < n; i++)
    {
      AgentMessage *message = g_list_model_get_item (G_LIST_MODEL (state->memory), i);
      const GError *turn_error = g_hash_table_lookup (state->errors, message);
      guint sibling = agent_memory_get_sibling_index (state->memory, i);

      g_array_append_val (undo->siblings, sibling);
      g_ptr_array_add (undo->messages, message);
      g_ptr_array_add (undo->errors, turn_error ? g_error_copy (turn_error) : NULL);
    }

  if (!agent_memory_truncate (state->memory, position, error))
    return NULL;
  return g_steal_pointer (&undo);
}

AgentMemory *
agent_gtk_edit_undo_get_memory (AgentGtkEditUndo *undo)
{
  return undo->memory;
}

/* The edited message, as it was sent */
const char *
agent_gtk_edit_undo_get_text (AgentGtkEditUndo *undo)
{
  return undo->text;
}

/* Whether the memory kept what the edit cut as a branch: the edit is a
 * sibling of the message it replaced */
static gboolean
kept_as_branch (AgentGtkEditUndo *undo)
{
  guint sibling = g_array_index (undo->siblings, guint, 0);

  return undo->position < g_list_model_get_n_items (G_LIST_MODEL (undo->memory)) &&
         agent_memory_get_n_siblings (undo->memory, undo->position) > sibling + 1 &&
         agent_memory_get_sibling_index (undo->memory, undo->position) != sibling;
}

/* Puts back the messages @undo holds, where the edit cut them (as the
 * active branch, in a memory with branches), with their errors, and the edit as being edited again. @shown: whether the
 * conversation is shown, its composer holding @composer_text (transfer
 * full), which Cancel gives back; when it is not shown, the edited text
 * becomes its draft. FALSE with @error if the memory refused. */
gboolean
agent_gtk_edit_undo_restore (AgentGtkEditUndo  *undo,
                             gboolean           shown,
                             char              *composer_text,
                             GError           **error)
{
  AgentGtkChatState *state = agent_gtk_chat_state_get (undo->memory);
  GListModel *list = G_LIST_MODEL (undo->memory);
  g_autofree char *text = composer_text;
  g_autoptr(AgentMessage) edited = NULL;

  /* The edit made a sibling of the message it replaced: back to that one's
   * branch, which the memory kept */
  if (kept_as_branch (undo))
    {
      for (guint i = 0; i < undo->siblings->len; i++)
        {
          guint sibling = g_array_index (undo->siblings, guint, i);

          if (undo->position + i < g_list_model_get_n_items (list) &&
              agent_memory_get_sibling_index (undo->memory, undo->position + i) != sibling &&
              !agent_memory_select_sibling (undo->memory, undo->position + i, sibling, error))
            return FALSE;
        }
    }
  else
    {
      if (!agent_memory_truncate (undo->memory, undo->position, error))
        return FALSE;
      for (guint i = 0; i < undo->messages->len; i++)
        if (!agent_memory_append (undo->memory, g_ptr_array_index (undo->messages, i), error))
          return FALSE;
    }
  /* The messages back in the list (a memory may give back others than
   * those it was given) */
  for (guint i = 0; i < undo->errors->len; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (list, undo->position + i);

      if (message != NULL && g_ptr_array_index (undo->errors, i) != NULL)
        set_error (state, message, g_ptr_array_index (undo->errors, i));
    }
  edited = g_list_model_get_item (list, undo->position);

  g_free (state->before_edit);
  state->before_edit = shown ? g_steal_pointer (&text) : g_steal_pointer (&state->draft);
  g_set_object (&state->editing, edited);
  if (!shown)
    state->draft = g_strdup (undo->text);
  return TRUE;
}

void
agent_gtk_edit_undo_free (AgentGtkEditUndo *undo)
{
  g_object_unref (undo->memory);
  g_array_unref (undo->siblings);
  g_ptr_array_unref (undo->messages);
  g_ptr_array_unref (undo->errors);
  g_free (undo->text);
  g_free (undo);
}
