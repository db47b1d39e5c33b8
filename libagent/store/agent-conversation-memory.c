/* agent-conversation-memory.c — a conversation as an AgentMemory: what a
 * session appends and branches, written to the store
 *
 * Each append is queued on the store's writer at once, but for a call and
 * its results, which go in together once the last result is in. The
 * messages are a tree (core/agent-message-tree.c): each is written with
 * its parent, and the conversation's row with its active leaf, in the
 * same transaction, so that a crash loses at most the answer that was
 * streaming. Branching keeps what it cuts; only deleting a branch deletes
 * from the store. The conversation's surface (its properties, notified by
 * pspec) is agent-conversation.c's.
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
  _agent_store_batch_text (batch, self->profile, -1);
}

static void
add_leaf (AgentConversation *self,
          AgentStoreBatch   *batch)
{
  guint leaf = _agent_message_tree_get_leaf (self->tree);

  if (leaf == AGENT_MESSAGE_TREE_ROOT)
    _agent_store_batch_int (batch, -1);
  else
    _agent_store_batch_int (batch, leaf);
}

static void
add_touch_row (AgentConversation *self,
               AgentStoreBatch   *batch,
               const char        *title,
               gint64             now)
{
  _agent_store_batch_add (batch, STMT_TOUCH_CONVERSATION);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, now);
  _agent_store_batch_text (batch, title, -1);
  add_leaf (self, batch);
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
    {
      guint seq = _agent_message_tree_get_seq (self->tree, i);

      _agent_store_batch_add_message (batch, seq, _agent_message_tree_get_parent (self->tree, seq),
                                      g_ptr_array_index (self->messages, i));
    }
  _agent_conversation_batch_errors (self, batch, self->n_saved);
  add_touch_row (self, batch, title, now);
  _agent_conversation_queue (self, g_steal_pointer (&batch));

  self->n_stored += self->messages->len - self->n_saved;
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
                                   const char        *profile,
                                   JsonNode          *settings,
                                   GPtrArray         *messages,
                                   GArray            *parents,
                                   guint              leaf,
                                   GHashTable        *errors)
{
  g_autoptr(AgentStoreBatch) batch = NULL;
  g_autofree char *derived = NULL;
  AgentMessageTree *tree = _agent_message_tree_new ();
  guint first, removed, added;
  gint64 now;

  g_assert (self->id == 0 && self->messages == NULL);
  g_assert (parents->len == messages->len);

  self->title = g_strdup (title);
  if (created > 0)
    self->created = created;
  self->provider = g_strdup (provider);
  self->model = g_strdup (model);
  self->profile = g_strdup (profile);
  self->settings = settings ? json_node_ref (settings) : NULL;
  for (guint seq = 0; seq < messages->len; seq++)
    if (!_agent_message_tree_insert (tree, seq, g_array_index (parents, guint, seq),
                                     g_ptr_array_index (messages, seq)))
      g_assert_not_reached ();
  _agent_message_tree_set_leaf (tree, leaf, &first, &removed, &added);
  g_ptr_array_unref (messages);
  _agent_conversation_take_tree (self, tree);
  self->errors = errors;

  /* Every message, its row and its leaf, in one transaction */
  batch = _agent_store_batch_new (self->target);
  derived = self->title ? NULL : derive_title (self);
  now = write_time (self);
  add_insert_row (self, batch, derived, now);
  self->row_queued = TRUE;
  for (guint seq = 0; seq < _agent_message_tree_get_next_seq (tree); seq++)
    _agent_store_batch_add_message (batch, seq, _agent_message_tree_get_parent (tree, seq),
                                    _agent_message_tree_lookup (tree, seq));
  _agent_conversation_batch_all_errors (self, batch);
  add_touch_row (self, batch, derived, now);
  _agent_conversation_queue (self, g_steal_pointer (&batch));
  if (derived != NULL)
    _agent_conversation_take_title (self, g_steal_pointer (&derived));
  _agent_conversation_set_updated (self, now);
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
  int position = self->tree ? _agent_message_tree_find (self->tree, self->watched_seq) : -1;

  /* Not written yet (it goes with what it is written with), or gone */
  if (position < 0 || (guint) position >= self->n_saved ||
      !_agent_conversation_check_writable (self, NULL))
    return;

  batch = _agent_store_batch_new (self->target);
  _agent_store_batch_add_turn_metrics (batch, self->watched_seq,
                                       agent_message_get_turn_metrics (message));
  _agent_conversation_queue (self, g_steal_pointer (&batch));
}

static void
watch (AgentConversation *self,
       AgentMessage      *message,
       guint              seq)
{
  _agent_conversation_unwatch (self);
  self->watched = g_object_ref (message);
  self->watched_seq = seq;
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
  guint seq;

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
  seq = _agent_message_tree_append (self->tree, message);

  /* A call and its result go in together; all else at once */
  if (!((role == AGENT_MESSAGE_ROLE_TOOL || agent_message_get_n_tool_calls (message) > 0) &&
        awaits_results (self)))
    queue_pending (self);

  _agent_conversation_went_on (self, position);
  if (role == AGENT_MESSAGE_ROLE_ASSISTANT)
    watch (self, message, seq);

  /* An answer without calls: the turn is at rest, others may go on */
  if (role == AGENT_MESSAGE_ROLE_ASSISTANT && agent_message_get_n_tool_calls (message) == 0 &&
      self->n_saved == self->messages->len)
    _agent_conversation_release_claim (self);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
  return TRUE;
}

/* Writes the active leaf, when the list changed without a new message */
static void
queue_leaf (AgentConversation *self)
{
  g_autoptr(AgentStoreBatch) batch = NULL;

  if (self->id == 0 && !self->row_queued)
    return;  /* its first write says it */

  batch = _agent_store_batch_new (self->target);
  _agent_store_batch_add (batch, STMT_SET_LEAF);
  _agent_store_batch_conversation (batch);
  add_leaf (self, batch);
  _agent_conversation_queue (self, g_steal_pointer (&batch));
}

/* What a change of branch starts from: everything loaded and written
 * (what waited for a tool's result goes as it is), and the conversation
 * ours, unchanged by others since it was read (else it is read again, and
 * the change refused: it was chosen on what was shown) */
gboolean
_agent_conversation_prepare_change (AgentConversation  *self,
                                    GError            **error)
{
  gboolean changed;

  if (!_agent_conversation_check_writable (self, error) || !agent_conversation_load (self, error))
    return FALSE;

  /* What to change was chosen on what we had: not on what others wrote */
  if (self->n_stored > 0)
    {
      if (!_agent_conversation_claim (self, &changed, error))
        return FALSE;
      if (changed)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_BUSY,
                       _("Another program added to conversation %lld; it was read again, "
                         "and nothing was changed"),
                       (long long) self->id);
          return FALSE;
        }
    }

  if (self->n_saved < self->messages->len)
    queue_pending (self);
  return TRUE;
}

/* Ends the list before @position; what it cut stays, as a branch */
static gboolean
agent_conversation_branch (AgentMemory  *memory,
                           guint         position,
                           GError      **error)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);
  guint removed;

  if (!_agent_conversation_prepare_change (self, error))
    return FALSE;
  if (position >= self->messages->len)
    return TRUE;

  removed = self->messages->len - position;
  _agent_message_tree_cut (self->tree, position);
  self->n_saved = MIN (self->n_saved, position);
  if (self->watched != NULL && _agent_message_tree_find (self->tree, self->watched_seq) < 0)
    _agent_conversation_unwatch (self);
  queue_leaf (self);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, 0);
  return TRUE;
}

static guint
agent_conversation_get_n_siblings (AgentMemory *memory,
                                   guint        position)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);

  if (!agent_conversation_load (self, NULL))
    return 0;
  return _agent_message_tree_get_n_siblings (self->tree, position);
}

static guint
agent_conversation_get_sibling_index (AgentMemory *memory,
                                      guint        position)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);

  if (!agent_conversation_load (self, NULL))
    return 0;
  return _agent_message_tree_get_sibling_index (self->tree, position);
}

/* Documented in agent-conversation-private.h */
void
_agent_conversation_show_path (AgentConversation *self,
                               guint              leaf)
{
  guint first, removed, added;

  _agent_message_tree_set_leaf (self->tree, leaf, &first, &removed, &added);
  self->n_saved = self->messages->len;
  if (self->watched != NULL && _agent_message_tree_find (self->tree, self->watched_seq) < 0)
    _agent_conversation_unwatch (self);
  queue_leaf (self);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first, removed, added);
}

static gboolean
agent_conversation_select_sibling (AgentMemory  *memory,
                                   guint         position,
                                   guint         index,
                                   GError      **error)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);
  g_autoptr(GArray) siblings = NULL;

  if (!_agent_conversation_prepare_change (self, error))
    return FALSE;

  siblings = _agent_message_tree_dup_siblings (self->tree,
                                               _agent_message_tree_get_seq (self->tree, position));
  _agent_conversation_show_path (self, _agent_message_tree_newest_under (
    self->tree, g_array_index (siblings, guint, index)));
  /* No turn follows of itself: others may go on */
  _agent_conversation_release_claim (self);
  return TRUE;
}

static gboolean
agent_conversation_delete_branch (AgentMemory  *memory,
                                  guint         position,
                                  GError      **error)
{
  AgentConversation *self = AGENT_CONVERSATION (memory);
  g_autoptr(AgentStoreBatch) batch = NULL;
  g_autoptr(GArray) gone = NULL;
  guint seq, first, removed, added;
  gint64 now;

  if (!_agent_conversation_prepare_change (self, error))
    return FALSE;

  seq = _agent_message_tree_get_seq (self->tree, position);
  gone = _agent_message_tree_remove (self->tree, seq, &first, &removed, &added);
  self->n_saved = self->messages->len;
  self->n_stored -= gone->len;
  _agent_conversation_forget_errors (self, gone);
  if (self->watched != NULL && _agent_message_tree_find (self->tree, self->watched_seq) < 0)
    _agent_conversation_unwatch (self);

  /* The branch and the new leaf in one transaction */
  now = write_time (self);
  batch = _agent_store_batch_new (self->target);
  _agent_store_batch_add (batch, STMT_DELETE_BRANCH);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, seq);
  add_touch_row (self, batch, NULL, now);
  _agent_conversation_queue (self, g_steal_pointer (&batch));
  _agent_conversation_set_updated (self, now);
  if (self->id != 0)
    _agent_store_db_changed (self->db, self);

  _agent_conversation_release_claim (self);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first, removed, added);
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
  iface->truncate = agent_conversation_branch;
  iface->branch = agent_conversation_branch;
  iface->get_n_siblings = agent_conversation_get_n_siblings;
  iface->get_sibling_index = agent_conversation_get_sibling_index;
  iface->select_sibling = agent_conversation_select_sibling;
  iface->delete_branch = agent_conversation_delete_branch;
  iface->sync_async = agent_conversation_sync_async;
  iface->sync_finish = agent_conversation_sync_finish;
}
