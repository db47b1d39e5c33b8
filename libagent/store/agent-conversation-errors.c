/* agent-conversation-errors.c — how the turns of a conversation failed
 *
 * A failed turn's error is kept with the message the turn ended with (the
 * user's message when nothing came back, or the answer it cut short), in
 * that message's row: `error`, a JSON object (domain, code, message, and
 * for libagent's own errors the code's name). It goes when the turn is
 * taken up again (the conversation goes on from that message with anything
 * but a new question of the user's), unless the message is an interrupted
 * answer: then it keeps saying why the answer is cut short. A new question
 * leaves the failed turn failed, for the history to show.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-conversation-private.h"
#include "agent-error.h"
#include "json/agent-json.h"
#include "messages/agent-message.h"
#include "json/agent-json-private.h"

/**
 * _agent_conversation_error_to_node:
 * @error: (nullable): an error
 *
 * Returns: (transfer full) (nullable): @error as a JSON object: its domain,
 *   code and message, and the code's name for an %AGENT_ERROR
 */
JsonNode *
_agent_conversation_error_to_node (const GError *error)
{
  g_autoptr(JsonBuilder) builder = NULL;

  if (error == NULL)
    return NULL;

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "domain");
  json_builder_add_string_value (builder, g_quark_to_string (error->domain));
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, error->code);
  if (error->domain == AGENT_ERROR)
    {
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, agent_error_get_code (error));
    }
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, error->message ? error->message : "");
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* The error a row holds, or NULL (and a warning) if it is not one */
static GError *
error_from_text (const char *text)
{
  g_autoptr(JsonNode) node = agent_json_parse (text, -1, NULL);

  return _agent_conversation_error_from_node (node);
}

/* The error _agent_conversation_error_to_node() wrote, or NULL if @node is
 * not one */
GError *
_agent_conversation_error_from_node (JsonNode *node)
{
  JsonObject *object;
  const char *domain;
  const char *message;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  domain = json_object_get_string_member_with_default (object, "domain", NULL);
  message = json_object_get_string_member_with_default (object, "message", "");
  if (domain == NULL || *domain == '\0')
    return NULL;
  /* AGENT_ERROR by its name, not a plain quark of the same name: an
   * extended domain gives its errors room that a quark made first would
   * not (and g_error_copy() would then write past the error) */
  return g_error_new_literal (g_strcmp0 (domain, g_quark_to_string (AGENT_ERROR)) == 0 ?
                              AGENT_ERROR : g_quark_from_string (domain),
                              (int) json_object_get_int_member_with_default (object, "code", 0),
                              message);
}

static GHashTable *
ensure_table (AgentConversation *self)
{
  if (self->errors == NULL)
    self->errors = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_error_free);
  return self->errors;
}

/* Adds the writing of the error of message @seq (NULL clears it). */
static void
add_error (AgentStoreBatch *batch,
           guint            seq,
           const GError    *turn_error)
{
  g_autoptr(JsonNode) node = _agent_conversation_error_to_node (turn_error);

  _agent_store_batch_add (batch, STMT_SET_ERROR);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, seq);
  _agent_store_batch_take_text (batch, node ? agent_json_node_to_string (node, FALSE) : NULL);
}

/**
 * _agent_store_load_errors:
 * @db: a connection
 * @id: a conversation
 * @n_messages: the seq after its last message
 *
 * Reads the errors kept with the messages of conversation @id (on any
 * thread: @db is the caller's).
 *
 * Returns: (nullable): seq (the position column) → GError, or %NULL when
 *   there are none
 */
GHashTable *
_agent_store_load_errors (AgentStoreDb *db,
                          gint64        id,
                          guint         n_messages)
{
  g_autoptr(GHashTable) errors = NULL;
  sqlite3_stmt *statement = NULL;
  int rc;

  if (id == 0)
    return NULL;

  if (sqlite3_prepare_v2 (db->db,
                          "SELECT position, error FROM messages "
                          "WHERE conversation_id = ?1 AND error IS NOT NULL",
                          -1, &statement, NULL) != SQLITE_OK)
    {
      g_warning ("The errors of conversation %" G_GINT64_FORMAT " could not be read: %s",
                 id, sqlite3_errmsg (db->db));
      return NULL;
    }
  sqlite3_bind_int64 (statement, 1, id);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      gint64 position = sqlite3_column_int64 (statement, 0);
      GError *error = error_from_text ((const char *) sqlite3_column_text (statement, 1));

      if (error != NULL && position >= 0 && position < n_messages)
        {
          if (errors == NULL)
            errors = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_error_free);
          g_hash_table_insert (errors, GUINT_TO_POINTER ((guint) position), error);
        }
      else
        g_clear_error (&error);
    }
  if (rc != SQLITE_DONE)
    g_warning ("The errors of conversation %" G_GINT64_FORMAT " could not be read: %s",
               id, sqlite3_errmsg (db->db));
  sqlite3_finalize (statement);
  return g_steal_pointer (&errors);
}

/**
 * _agent_conversation_batch_errors:
 * @self: a [class@Agent.Conversation]
 * @batch: the batch that writes the messages from @from on
 * @from: the first message it writes
 *
 * Adds to @batch the errors recorded with those messages before they were
 * written.
 */
void
_agent_conversation_batch_errors (AgentConversation *self,
                                  AgentStoreBatch   *batch,
                                  guint              from)
{
  if (self->errors == NULL)
    return;

  for (guint i = from; i < self->messages->len; i++)
    {
      guint seq = _agent_message_tree_get_seq (self->tree, i);
      const GError *turn_error = g_hash_table_lookup (self->errors, GUINT_TO_POINTER (seq));

      if (turn_error != NULL)
        add_error (batch, seq, turn_error);
    }
}

/* Documented in agent-conversation-private.h */
void
_agent_conversation_batch_all_errors (AgentConversation *self,
                                      AgentStoreBatch   *batch)
{
  GHashTableIter iter;
  gpointer seq, turn_error;

  if (self->errors == NULL)
    return;

  g_hash_table_iter_init (&iter, self->errors);
  while (g_hash_table_iter_next (&iter, &seq, &turn_error))
    add_error (batch, GPOINTER_TO_UINT (seq), turn_error);
}

/**
 * _agent_conversation_went_on:
 * @self: a [class@Agent.Conversation]
 * @position: where a message was just appended
 *
 * The conversation went on after the message before @position: its error,
 * unless it is an interrupted answer, goes if its turn was taken up again
 * (what was appended is not a new question of the user's).
 */
void
_agent_conversation_went_on (AgentConversation *self,
                             guint              position)
{
  AgentMessage *before;
  guint seq;

  if (self->errors == NULL || position == 0)
    return;
  seq = _agent_message_tree_get_seq (self->tree, position - 1);
  if (!g_hash_table_contains (self->errors, GUINT_TO_POINTER (seq)))
    return;

  before = g_ptr_array_index (self->messages, position - 1);
  if (agent_message_get_state (before) == AGENT_MESSAGE_STATE_INTERRUPTED ||
      (position < self->messages->len &&
       agent_message_get_role (g_ptr_array_index (self->messages, position)) ==
       AGENT_MESSAGE_ROLE_USER))
    return;

  g_hash_table_remove (self->errors, GUINT_TO_POINTER (seq));
  if (position - 1 < self->n_saved && _agent_conversation_check_writable (self, NULL))
    {
      g_autoptr(AgentStoreBatch) batch = _agent_store_batch_new (self->target);

      add_error (batch, seq, NULL);
      _agent_conversation_queue (self, g_steal_pointer (&batch));
    }
}

/**
 * _agent_conversation_forget_errors:
 * @self: a [class@Agent.Conversation]
 * @seqs: the messages deleted
 *
 * The errors of deleted messages go with them.
 */
void
_agent_conversation_forget_errors (AgentConversation *self,
                                   GArray            *seqs)
{
  for (guint i = 0; self->errors != NULL && i < seqs->len; i++)
    g_hash_table_remove (self->errors, GUINT_TO_POINTER (g_array_index (seqs, guint, i)));
}

/**
 * agent_conversation_get_error:
 * @self: a [class@Agent.Conversation]
 * @position: the position of a message
 *
 * Gets the error the turn that ended with the message at @position failed
 * with, as [method@Agent.Conversation.set_error] recorded it. The error of
 * a turn is dropped when the turn is taken up again: when the conversation
 * goes on after its message with anything but a message of the user's
 * (an answer, as after a Retry). It stays when a new question follows (the
 * turn stays failed in the history), and whatever follows when the message
 * is an interrupted answer (%AGENT_MESSAGE_STATE_INTERRUPTED): then the
 * error says why the answer is cut short, for as long as the answer is
 * kept.
 *
 * Returns: (transfer none) (nullable): the error, or %NULL
 *
 * Since: 0.1
 */
const GError *
agent_conversation_get_error (AgentConversation *self,
                              guint              position)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);

  if (!agent_conversation_load (self, NULL) || self->errors == NULL ||
      position >= self->messages->len)
    return NULL;
  return g_hash_table_lookup (self->errors,
                              GUINT_TO_POINTER (_agent_message_tree_get_seq (self->tree, position)));
}

/**
 * agent_conversation_set_error:
 * @self: a [class@Agent.Conversation]
 * @position: the position of the message the failed turn ended with
 * @turn_error: (nullable): why the turn failed, or %NULL to forget it
 * @error: return location for a [struct@GLib.Error]
 *
 * Records why a turn failed, with the message it ended with: the user's
 * message when no answer came, or the answer the failure cut short. An
 * application calls it when [method@Agent.Session.send_finish] (or
 * `continue_finish`) fails, so that the error can be shown again with the
 * conversation, after a restart too. Cancellation is not a failure: do not
 * record it. Like everything in a conversation, the error must not hold an
 * API key; libagent's own errors never do.
 *
 * It is written on the store's writer thread, after what was queued before
 * (see [signal@Agent.Conversation::write-failed]).
 *
 * Returns: %TRUE if the error was recorded, %FALSE if there is no message
 *   at @position or an earlier write failed
 *
 * Since: 0.1
 */
gboolean
agent_conversation_set_error (AgentConversation  *self,
                              guint               position,
                              const GError       *turn_error,
                              GError            **error)
{
  guint seq;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (!agent_conversation_load (self, error))
    return FALSE;

  if (position >= self->messages->len)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The conversation has no message at position %u"), position);
      return FALSE;
    }
  seq = _agent_message_tree_get_seq (self->tree, position);

  if (position < self->n_saved)
    {
      g_autoptr(AgentStoreBatch) batch = NULL;

      if (!_agent_conversation_check_writable (self, error))
        return FALSE;
      batch = _agent_store_batch_new (self->target);
      add_error (batch, seq, turn_error);
      _agent_conversation_queue (self, g_steal_pointer (&batch));
    }

  if (turn_error != NULL)
    g_hash_table_insert (ensure_table (self), GUINT_TO_POINTER (seq), g_error_copy (turn_error));
  else if (self->errors != NULL)
    g_hash_table_remove (self->errors, GUINT_TO_POINTER (seq));
  return TRUE;
}
