/* agent-conversation-claim.c — one program at a time adds to a conversation
 *
 * Two programs continuing the same conversation (agent-cli -c twice, or
 * agent-cli and agent-chat) would each write their turn at the positions
 * they believe free: one fails on the database's uniqueness, after its
 * answer was shown, and the other's turn ends up cut in two. So a program
 * claims the conversation before it writes (a lock the kernel drops when
 * the program dies, see _agent_store_db_claim()), takes in what others
 * wrote meanwhile, and lets go when its turn is at rest: an answer without
 * tool calls is written, a turn of the session it was recorded with ends
 * (however it ends), agent_conversation_release() is called, or the
 * conversation is dropped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-conversation-private.h"
#include "agent-error.h"

static gboolean
count_saved (AgentConversation  *self,
             gint64             *count,
             GError            **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db->db,
                          "SELECT count(*) FROM messages WHERE conversation_id = ?1", -1,
                          &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (self->db, error);
      return FALSE;
    }

  sqlite3_bind_int64 (statement, 1, self->id);
  rc = sqlite3_step (statement);
  *count = rc == SQLITE_ROW ? sqlite3_column_int64 (statement, 0) : 0;
  if (rc != SQLITE_ROW)
    _agent_store_db_set_error (self->db, error);
  sqlite3_finalize (statement);

  return rc == SQLITE_ROW;
}

/* Takes in what other programs wrote since the messages were read;
 * *@changed says whether there was any. */
static gboolean
refresh (AgentConversation  *self,
         gboolean           *changed,
         GError            **error)
{
  AgentMessageTree *loaded;
  guint n_old;
  gint64 count;

  *changed = FALSE;

  /* Messages of ours wait to be written (or are being written): nobody
   * could write meanwhile, the claim was held all along */
  if (self->messages == NULL || self->messages->len != self->n_saved ||
      g_atomic_int_get (&self->target->n_unwritten) > 0)
    return TRUE;

  if (!count_saved (self, &count, error))
    return FALSE;
  if (count == self->n_stored)
    return TRUE;

  if (!(loaded = _agent_store_load_tree (self->db, self->id, error)))
    return FALSE;

  g_debug ("Conversation %" G_GINT64_FORMAT " had %u messages here and %u in %s",
           self->id, self->n_stored, _agent_message_tree_get_n_nodes (loaded), self->db->path);

  _agent_conversation_unwatch (self);
  n_old = self->messages->len;
  _agent_conversation_take_tree (self, loaded);
  *changed = TRUE;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, self->messages->len);
  return TRUE;
}

/* Claims the conversation without waiting, unless it is ours already or
 * new; *@changed says whether what others wrote came in. */
gboolean
_agent_conversation_claim (AgentConversation  *self,
                           gboolean           *changed,
                           GError            **error)
{
  gboolean busy = FALSE;
  gboolean held = FALSE;

  *changed = FALSE;
  if (self->claimed || self->id == 0)
    {
      self->release_wanted = FALSE;
      return TRUE;
    }

  if (!_agent_store_db_claim (self->db, self->id, &busy, &held, error))
    {
      if (busy)
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_BUSY,
                     _("Another program is adding to conversation %lld of %s; it can go on "
                       "once that program is done"),
                     (long long) self->id, self->db->path);
      return FALSE;
    }
  self->claimed = TRUE;

  /* Ours all along (the writer had not let go yet): nobody wrote */
  if (held)
    return TRUE;

  if (!refresh (self, changed, error))
    {
      _agent_conversation_release_claim (self);
      return FALSE;
    }
  return TRUE;
}

/* Lets others go on: once what was queued is written, unless it is
 * claimed again before. A new conversation, whose id is not known yet,
 * is let go when it is. */
void
_agent_conversation_release_claim (AgentConversation *self)
{
  if (self->id == 0 && self->row_queued)
    self->release_wanted = TRUE;

  if (!self->claimed)
    return;

  _agent_store_db_release_after (self->db, self->target, self->id);
  self->claimed = FALSE;
}

static void
turn_finished_cb (AgentSession      *session,
                  AgentMessage      *message,
                  const GError      *error,
                  AgentMetrics      *metrics,
                  AgentConversation *self)
{
  if (agent_session_get_memory (session) == AGENT_MEMORY (self))
    agent_conversation_release (self);
}

/* The turns of @session end our claims, also those that failed before
 * the model answered (the question is then the last message). */
void
_agent_conversation_follow_turns (AgentConversation *self,
                                  AgentSession      *session)
{
  if (self->turn_session == session)
    return;

  if (self->turn_session != NULL)
    g_signal_handlers_disconnect_by_func (self->turn_session, turn_finished_cb, self);
  g_set_weak_pointer (&self->turn_session, session);
  g_signal_connect_object (session, "turn-finished", G_CALLBACK (turn_finished_cb), self, 0);
}

/**
 * agent_conversation_claim:
 * @self: a [class@Agent.Conversation]
 * @error: return location for a [struct@GLib.Error]
 *
 * Claims the conversation for this program's next turn, without waiting:
 * while another program (or another [class@Agent.Store] of the same
 * file) adds to the conversation, it fails with %AGENT_ERROR_BUSY: try
 * again later (agent-cli tries every 50 ms, for up to 10 minutes). Once
 * claimed, the conversation holds what the other programs wrote before,
 * and is this program's until its turn is at rest (an answer without tool
 * calls is written, or a turn of the session given to
 * [method@Agent.Conversation.record_session] ends), until
 * [method@Agent.Conversation.release] is called, or until it is finalized;
 * the kernel releases it too when the program dies.
 *
 * Writing claims the conversation too, without waiting: a session whose
 * conversation another program holds fails its turn with
 * %AGENT_ERROR_BUSY before anything is sent. A program that would rather
 * wait calls this first.
 *
 * Returns: %TRUE if the conversation is this program's
 *
 * Since: 0.1
 */
gboolean
agent_conversation_claim (AgentConversation  *self,
                          GError            **error)
{
  gboolean changed;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (!agent_conversation_load (self, error))
    return FALSE;
  return _agent_conversation_claim (self, &changed, error);
}

/**
 * agent_conversation_release:
 * @self: a [class@Agent.Conversation]
 *
 * Lets other programs add to the conversation (see
 * [method@Agent.Conversation.claim]), for instance after a turn that
 * failed before the model answered. It is kept while an answer waits for
 * the results of its tool calls.
 *
 * Since: 0.1
 */
void
agent_conversation_release (AgentConversation *self)
{
  g_return_if_fail (AGENT_IS_CONVERSATION (self));

  if (self->messages != NULL && self->messages->len != self->n_saved)
    return;
  _agent_conversation_release_claim (self);
}
