/* agent-conversation-memory.c — a conversation as an AgentMemory: what a
 * session appends and cuts, written to the store
 *
 * Each append is queued on the store's writer at once, but for a call and
 * its results, which go in together once the last result is in; a cut
 * deletes from the store what it removes. The conversation's surface
 * (its properties, notified by pspec) is agent-conversation.c's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "store/agent-conversation-private.h"
#include "store/agent-store-private.h"


/* The title a conversation gets from its first message: its first line,
 * at most 60 characters (cut after a word). */
char *
_agent_conversation_derive_title (const char *text)
{
  g_autofree char *line = NULL;
  const char *end;

  if (text == NULL)
    return NULL;

  while (g_ascii_isspace (*text))
    text++;
  end = strchr (text, '\n');
  line = end ? g_strndup (text, end - text) : g_strdup (text);
  g_strstrip (line);
  if (*line == '\0')
    return NULL;

  if (g_utf8_strlen (line, -1) > 60)
    {
      g_autofree char *cut = g_utf8_substring (line, 0, 59);
      char *space = strrchr (cut, ' ');

      /* At the end of a word, if there is one */
      if (space != NULL && space > cut)
        *space = '\0';
      return g_strconcat (g_strchomp (cut), "…", NULL);
    }
  return g_steal_pointer (&line);
}

static char *
derive_title (AgentConversation *self)
{
  for (guint i = 0; i < self->messages->len; i++)
    {
      AgentMessage *message = g_ptr_array_index (self->messages, i);

      if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_USER)
        return _agent_conversation_derive_title (agent_message_get_content (message));
    }
  return NULL;
}

static void
add_insert_row (AgentConversation *self,
                AgentStoreBatch   *batch,
                const char        *title,
                gint64             now)
{
  _agent_store_batch_add (batch, STMT_INSERT_CONVERSATION);
  _agent_store_batch_text (batch, self->title ? self->title : title, -1);
  _agent_store_batch_int (batch, self->created);
  _agent_store_batch_int (batch, now);
  _agent_store_batch_text (batch, self->provider, -1);
  _agent_store_batch_text (batch, self->model, -1);
  _agent_store_batch_take_text (batch, _agent_store_node_to_text (self->settings));
}

static void
add_touch_row (AgentStoreBatch *batch,
               const char      *title,
               gint64           now)
{
  _agent_store_batch_add (batch, STMT_TOUCH_CONVERSATION);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, now);
  _agent_store_batch_text (batch, title, -1);
}

/* The update time of a write: never before the last one, so that the
 * newest conversation stays first. */
static gint64
write_time (AgentConversation *self)
{
  return MAX (g_get_real_time (), self->updated + 1);
}

/* Queues the messages not yet written, and the conversation's row with
 * the first of them, in one transaction. */
static void
queue_pending (AgentConversation *self)
{
  g_autoptr(AgentStoreBatch) batch = _agent_store_batch_new (self->target);
  g_autofree char *title = self->title ? NULL : derive_title (self);
  gint64 now = write_time (self);

  if (self->id == 0 && !self->row_queued)
    {
      add_insert_row (self, batch, title, now);
      self->row_queued = TRUE;
    }

  for (guint i = self->n_saved; i < self->messages->len; i++)
    _agent_store_batch_add_message (batch, i, g_ptr_array_index (self->messages, i));
  _agent_conversation_batch_errors (self, batch, self->n_saved);
  add_touch_row (batch, title, now);
  _agent_conversation_queue (self, g_steal_pointer (&batch));

  self->n_saved = self->messages->len;
  if (title != NULL)
    _agent_conversation_take_title (self, g_steal_pointer (&title));
  _agent_conversation_set_updated (self, now);
  if (self->id != 0)
    _agent_store_db_changed (self->db, self);
}

/* Documented in agent-conversation-private.h */
void
_agent_conversation_take_imported (AgentConversation *self,
                                   const char        *title,
                                   gint64             created,
                                   const char        *provider,
                                   const char        *model,
                                   JsonNode          *settings,
                                   GPtrArray         *messages,
                                   GHashTable        *errors)
{
  g_assert (self->id == 0 && self->messages == NULL);

  self->title = g_strdup (title);
  if (created > 0)
    self->created = created;
  self->provider = g_strdup (provider);
  self->model = g_strdup (model);
  self->settings = settings ? json_node_ref (settings) : NULL;
  self->messages = messages;
  self->errors = errors;
  self->n_saved = 0;
  queue_pending (self);
  /* Nobody goes on with it here: others may at once */
  _agent_conversation_release_claim (self);
}

/* Whether an assistant message among those not yet written has a call
 * whose result is not among them either. */
static gboolean
awaits_results (AgentConversation *self)
{
  g_autoptr(GHashTable) open = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = self->n_saved; i < self->messages->len; i++)
    {
      AgentMessage *message = g_ptr_array_index (self->messages, i);
      guint n_calls = agent_message_get_n_tool_calls (message);

      for (guint c = 0; c < n_calls; c++)
        {
          const char *id = agent_tool_call_get_id (agent_message_get_tool_call (message, c));

          g_hash_table_add (open, (gpointer) (id ? id : ""));
        }
      if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_TOOL &&
          agent_message_get_tool_call_id (message) != NULL)
        g_hash_table_remove (open, agent_message_get_tool_call_id (message));
    }

  return g_hash_table_size (open) > 0;
}

static void
turn_metrics_cb (AgentMessage      *message,
                 GParamSpec        *pspec,
                 AgentConversation *self)
{
  g_autoptr(AgentStoreBatch) batch = NULL;

  if (self->watched_position >= self->n_saved || !_agent_conversation_check_writable (self, NULL))
    return;

  batch = _agent_store_batch_new (self->target);
  _agent_store_batch_add_turn_metrics (batch, self->watched_position,
                                       agent_message_get_turn_metrics (message));
  _agent_conversation_queue (self, g_steal_pointer (&batch));
}

static void
watch (AgentConversation *self,
       AgentMessage      *message,
       guint              position)
{
  _agent_conversation_unwatch (self);
  self->watched = g_object_ref (message);
  self->watched_position = position;
  self->watched_id = g_signal_connect (message, "notify::turn-metrics",
                                       G_CALLBACK (turn_metrics_cb), self);
}

static gboolean
agent_conversation_append (AgentMemory   *memory,
                           AgentMessage  *message,
                           GError       **error)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);
  AgentMessageRole role = agent_message_get_role (message);
  gboolean changed;
  guint position;

  if (!_agent_conversation_check_writable (self, error))
    return FALSE;

  if (!agent_conversation_load (self, error))
    return FALSE;

  if (self->purged)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                           _("The conversation was deleted"));
      return FALSE;
    }

  /* Ours, with what other programs wrote before it */
  if (!_agent_conversation_claim (self, &changed, error))
    return FALSE;

  position = self->messages->len;
  g_ptr_array_add (self->messages, g_object_ref (message));

  /* A call and its result go in together; all else at once */
  if (!((role == AGENT_MESSAGE_ROLE_TOOL || agent_message_get_n_tool_calls (message) > 0) &&
        awaits_results (self)))
    queue_pending (self);

  _agent_conversation_went_on (self, position);
  if (role == AGENT_MESSAGE_ROLE_ASSISTANT)
    watch (self, message, position);

  /* An answer without calls: the turn is at rest, others may go on */
  if (role == AGENT_MESSAGE_ROLE_ASSISTANT && agent_message_get_n_tool_calls (message) == 0 &&
      self->n_saved == self->messages->len)
    _agent_conversation_release_claim (self);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
  return TRUE;
}

static void
queue_delete_from (AgentConversation *self,
                   guint              n_items)
{
  g_autoptr(AgentStoreBatch) batch = _agent_store_batch_new (self->target);
  gint64 now = write_time (self);

  _agent_store_batch_add (batch, STMT_TRUNCATE);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, n_items);
  add_touch_row (batch, NULL, now);
  _agent_conversation_queue (self, g_steal_pointer (&batch));

  _agent_conversation_set_updated (self, now);
  if (self->id != 0)
    _agent_store_db_changed (self->db, self);
}

static gboolean
agent_conversation_truncate (AgentMemory  *memory,
                             guint         n_items,
                             GError      **error)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);
  guint removed;

  if (!_agent_conversation_check_writable (self, error))
    return FALSE;

  if (!agent_conversation_load (self, error))
    return FALSE;

  /* What to cut was chosen on what we had: not on what others wrote */
  if (n_items < self->n_saved)
    {
      gboolean changed;

      if (!_agent_conversation_claim (self, &changed, error))
        return FALSE;
      if (changed)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_BUSY,
                       _("Another program added to conversation %lld; it was read again, "
                         "and nothing was removed"),
                       (long long) self->id);
          return FALSE;
        }
    }

  if (n_items < self->n_saved)
    queue_delete_from (self, n_items);

  removed = self->messages->len - n_items;
  g_ptr_array_set_size (self->messages, n_items);
  self->n_saved = MIN (self->n_saved, n_items);
  _agent_conversation_cut_errors (self, n_items);
  if (self->watched != NULL && self->watched_position >= n_items)
    _agent_conversation_unwatch (self);
  g_list_model_items_changed (G_LIST_MODEL (self), n_items, removed, 0);
  return TRUE;
}

static void
agent_conversation_sync_async (AgentMemory         *memory,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  /* What the turn made of the attachments (scaled images), with them */
  _agent_conversation_queue_variants (AGENT_CONVERSATION (memory));
  agent_conversation_flush_async (AGENT_CONVERSATION (memory), cancellable, callback, user_data);
}

static gboolean
agent_conversation_sync_finish (AgentMemory   *memory,
                                GAsyncResult  *result,
                                GError       **error)
{
  return agent_conversation_flush_finish (AGENT_CONVERSATION (memory), result, error);
}

void
_agent_conversation_memory_iface_init (AgentMemoryInterface *iface)
{
  iface->append = agent_conversation_append;
  iface->truncate = agent_conversation_truncate;
  iface->sync_async = agent_conversation_sync_async;
  iface->sync_finish = agent_conversation_sync_finish;
}
