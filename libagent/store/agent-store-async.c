/* agent-store-async.c — the store's slow reads off the caller's thread,
 * and waiting for its writes
 *
 * Each read runs in a GTask thread on a read-only connection of its own:
 * in WAL mode it runs beside the writer thread's commits (and other
 * programs'), and sees whole transactions only. A cancelled read stops
 * between two SQLite steps (a progress handler interrupts it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"


#include "agent-error.h"
#include "store/agent-conversation-private.h"
#include "store/agent-store-private.h"

/* A read that failed because it was cancelled says so */
static void
return_read_error (GTask        *task,
                   GCancellable *cancellable,
                   GError       *error)
{
  g_autoptr(GError) cancelled = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, &cancelled))
    {
      g_error_free (error);
      g_task_return_error (task, g_steal_pointer (&cancelled));
    }
  else
    g_task_return_error (task, error);
}

/* Flushing */

typedef struct
{
  AgentStoreDb *db;
  AgentConversation *conversation;  /* a conversation's: its own failure only */
  guint    n_queued;   /* by the mark */
  GError  *error;      /* the first failure */
  GSource *cancelled;  /* while waiting, for a cancellable */
  gboolean returned;
} FlushData;

static void
flush_data_free (gpointer data)
{
  FlushData *flush = data;

  if (flush->cancelled != NULL)
    {
      g_source_destroy (flush->cancelled);
      g_source_unref (flush->cancelled);
    }
  g_clear_error (&flush->error);
  g_clear_pointer (&flush->db, _agent_store_db_unref);
  g_clear_object (&flush->conversation);
  g_free (flush);
}

/* Returns once: when the writes are in, or when cancelled */
static void
flush_return (GTask  *task,
              GError *error)
{
  FlushData *flush = g_task_get_task_data (task);

  if (flush->returned)
    {
      g_clear_error (&error);
      return;
    }
  flush->returned = TRUE;
  if (flush->cancelled != NULL)
    g_source_destroy (flush->cancelled);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean
flush_cancelled_cb (GCancellable *cancellable,
                    gpointer      data)
{
  GTask *task = data;
  GError *error = NULL;

  g_cancellable_set_error_if_cancelled (cancellable, &error);
  flush_return (task, error);
  return G_SOURCE_REMOVE;
}

static void queue_mark (GTask *task);

static void
flushed_cb (AgentStoreBatch *batch,
            const GError    *error,
            gpointer         data)
{
  GTask *task = data;
  FlushData *flush = g_task_get_task_data (task);
  AgentStoreWriter *writer = _agent_store_db_get_writer (flush->db);

  /* Cancelled: the next flush tells what this one took */
  if (flush->returned)
    {
      if (error != NULL && flush->conversation == NULL)
        _agent_store_writer_keep_unreported (writer, error);
      return;
    }

  if (error != NULL && flush->error == NULL)
    flush->error = g_error_copy (error);

  /* The callbacks of what was written may have queued more (a claim let
   * go once a new conversation got its id): that too */
  if (_agent_store_writer_get_n_queued (writer) != flush->n_queued)
    queue_mark (g_object_ref (task));
  else if (flush->conversation != NULL && flush->conversation->write_error != NULL)
    flush_return (task, g_error_copy (flush->conversation->write_error));
  else
    flush_return (task, g_steal_pointer (&flush->error));
}

static void
queue_mark (GTask *task)
{
  FlushData *flush = g_task_get_task_data (task);
  AgentStoreWriter *writer = _agent_store_db_get_writer (flush->db);

  _agent_store_writer_mark (writer, flush->conversation == NULL, flushed_cb, task, g_object_unref);
  flush->n_queued = _agent_store_writer_get_n_queued (writer);
}

static void
flush_async (gpointer             source,
             AgentStoreDb        *db,
             AgentConversation   *conversation,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);
  FlushData *flush = g_new0 (FlushData, 1);

  g_task_set_source_tag (task, source_tag);
  flush->db = _agent_store_db_ref (db);
  flush->conversation = conversation ? g_object_ref (conversation) : NULL;
  g_task_set_task_data (task, flush, flush_data_free);
  if (cancellable != NULL)
    {
      /* The source holds no reference: the task's data destroys it */
      flush->cancelled = g_cancellable_source_new (cancellable);
      g_source_set_callback (flush->cancelled, G_SOURCE_FUNC (flush_cancelled_cb), task, NULL);
      g_source_set_static_name (flush->cancelled, "[agent] store flush cancelled");
      g_source_attach (flush->cancelled, g_main_context_get_thread_default ());
    }
  queue_mark (g_steal_pointer (&task));
}

/**
 * agent_store_flush_async:
 * @self: a [class@Agent.Store]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the writes are in
 * @user_data: data for @callback
 *
 * Waits until every write queued so far (by the store's conversations,
 * from any session) is committed to the disk, or failed. A program calls
 * it before it exits, as agent-cli does: the conversations' messages are
 * written on the store's writer thread, after their appends returned.
 *
 * Cancelling stops the waiting (the flush finishes with
 * %G_IO_ERROR_CANCELLED at once), not the writes.
 *
 * Since: 0.1
 */
void
agent_store_flush_async (AgentStore          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  flush_async (self, _agent_store_get_db (self), NULL, agent_store_flush_async, cancellable,
               callback, user_data);
}

/**
 * agent_store_flush_finish:
 * @self: a [class@Agent.Store]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Store.flush_async].
 *
 * Returns: %TRUE if every write queued before was committed; %FALSE with
 *   the first failure (%AGENT_ERROR_STORAGE) of a write since the last
 *   flush, which [signal@Agent.Conversation::write-failed] reported too,
 *   or %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
gboolean
agent_store_flush_finish (AgentStore    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_store_flush_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_conversation_flush_async:
 * @self: a [class@Agent.Conversation]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the writes are in
 * @user_data: data for @callback
 *
 * Waits until the conversation's writes queued so far are committed (with
 * those queued before them on its store's connection), as
 * [method@Agent.Store.flush_async] does, for a program that holds the
 * conversation and not its store (a conversation outlives its store). It
 * is the conversation's [method@Agent.Memory.sync_async], which a session
 * awaits before each request.
 *
 * Since: 0.1
 */
void
agent_conversation_flush_async (AgentConversation   *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_CONVERSATION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  flush_async (self, self->db, self, agent_conversation_flush_async, cancellable, callback,
               user_data);
}

/**
 * agent_conversation_flush_finish:
 * @self: a [class@Agent.Conversation]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Conversation.flush_async].
 *
 * Returns: %TRUE if the conversation's writes are committed; %FALSE with
 *   the failure that stopped them (%AGENT_ERROR_STORAGE, as
 *   [signal@Agent.Conversation::write-failed] told it), or
 *   %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
gboolean
agent_conversation_flush_finish (AgentConversation  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_conversation_flush_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Opening */

/**
 * agent_store_new_async:
 * @path: (nullable) (type filename): the database file, created if needed;
 *   %NULL for [func@Agent.Store.dup_default_path]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the store is open
 * @user_data: data for @callback
 *
 * Opens a store as [ctor@Agent.Store.new] does (migrating the file and
 * reading the list of conversations, which takes long with many
 * conversations), on a thread, so that an application's window shows at
 * once.
 *
 * Since: 0.1
 */
void
agent_store_new_async (const char          *path,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  g_async_initable_new_async (AGENT_TYPE_STORE, G_PRIORITY_DEFAULT, cancellable, callback,
                              user_data, "path", path, NULL);
}

/**
 * agent_store_new_finish:
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [func@Agent.Store.new_async].
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 *   (%AGENT_ERROR_STORAGE, or %G_IO_ERROR_CANCELLED)
 *
 * Since: 0.1
 */
AgentStore *
agent_store_new_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_autoptr(GObject) source = g_async_result_get_source_object (result);
  GObject *object;

  g_return_val_if_fail (G_IS_ASYNC_INITABLE (source), NULL);

  object = g_async_initable_new_finish (G_ASYNC_INITABLE (source), result, error);
  return object ? AGENT_STORE (object) : NULL;
}

/* Searching */

typedef struct
{
  char *path;
  char *query;
} SearchData;

static void
search_data_free (gpointer data)
{
  SearchData *search = data;

  g_free (search->path);
  g_free (search->query);
  g_free (search);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchData *search = task_data;
  g_autoptr(AgentStoreDb) reader = NULL;
  GHashTable *hits;
  GError *error = NULL;

  if ((reader = _agent_store_db_open_reader (search->path, cancellable, &error)) &&
      (hits = _agent_store_collect_hits (reader, search->query, &error)))
    g_task_return_pointer (task, hits, (GDestroyNotify) g_hash_table_unref);
  else
    return_read_error (task, cancellable, error);
  if (reader != NULL)
    _agent_store_db_close_reader (g_steal_pointer (&reader));
}

/**
 * agent_store_search_async:
 * @self: a [class@Agent.Store]
 * @text: what the user typed
 * @cancellable: (nullable): a [class@Gio.Cancellable]; cancel it when the
 *   user types on
 * @callback: (scope async): called with the results
 * @user_data: data for @callback
 *
 * Searches as [method@Agent.Store.search] does, on a thread (with its own
 * read-only connection, beside the store's writes), so that searching a
 * large store as the user types does not hold up the caller's main loop.
 *
 * Since: 0.1
 */
void
agent_store_search_async (AgentStore          *self,
                          const char          *text,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *query = NULL;
  GError *error = NULL;
  SearchData *search;

  g_return_if_fail (AGENT_IS_STORE (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_store_search_async);

  if (!_agent_store_prepare_search (text, &query, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (query == NULL)
    {
      g_task_return_pointer (task, g_hash_table_new (g_int64_hash, g_int64_equal),
                             (GDestroyNotify) g_hash_table_unref);
      return;
    }

  search = g_new0 (SearchData, 1);
  search->path = g_strdup (agent_store_get_path (self));
  search->query = g_steal_pointer (&query);
  g_task_set_task_data (task, search, search_data_free);
  g_task_run_in_thread (task, search_thread);
}

/**
 * agent_store_search_finish:
 * @self: a [class@Agent.Store]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Store.search_async].
 *
 * Returns: (transfer full) (nullable): a list of [class@Agent.SearchResult],
 *   one per conversation, newest first; %NULL with @error set
 *   (%AGENT_ERROR_INVALID_ARGUMENT, %AGENT_ERROR_STORAGE or
 *   %G_IO_ERROR_CANCELLED)
 *
 * Since: 0.1
 */
GListModel *
agent_store_search_finish (AgentStore    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_autoptr(GHashTable) hits = NULL;
  SearchData *search;

  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_store_search_async, NULL);

  if (!(hits = g_task_propagate_pointer (G_TASK (result), error)))
    return NULL;
  search = g_task_get_task_data (G_TASK (result));
  if (search == NULL)
    return G_LIST_MODEL (g_list_store_new (AGENT_TYPE_SEARCH_RESULT));
  return _agent_store_search_results (self, search->query, hits);
}

/* Loading a conversation */

typedef struct
{
  char       *path;
  gint64      id;
  AgentMessageTree *tree;
  GHashTable *errors;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_free (load->path);
  g_clear_pointer (&load->tree, _agent_message_tree_free);
  g_clear_pointer (&load->errors, g_hash_table_unref);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *load = task_data;
  g_autoptr(AgentStoreDb) reader = NULL;
  GError *error = NULL;

  if ((reader = _agent_store_db_open_reader (load->path, cancellable, &error)) &&
      (load->tree = _agent_store_load_tree (reader, load->id, &error)))
    {
      load->errors = _agent_store_load_errors (reader, load->id,
                                               _agent_message_tree_get_next_seq (load->tree));
      g_task_return_boolean (task, TRUE);
    }
  else
    return_read_error (task, cancellable, error);
  if (reader != NULL)
    _agent_store_db_close_reader (g_steal_pointer (&reader));
}

/**
 * agent_conversation_load_async:
 * @self: a [class@Agent.Conversation]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the messages are loaded
 * @user_data: data for @callback
 *
 * Reads the conversation's messages, as [method@Agent.Conversation.load]
 * does, on a thread (with its own read-only connection), so that opening
 * a long conversation does not hold up the caller's main loop. The list
 * model then holds them ([signal@Gio.ListModel::items-changed] is emitted,
 * on the caller's thread, unless something had read them meanwhile).
 *
 * Since: 0.1
 */
void
agent_conversation_load_async (AgentConversation   *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (AGENT_IS_CONVERSATION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_conversation_load_async);

  if (agent_conversation_is_loaded (self))
    {
      GError *error = NULL;

      if (agent_conversation_load (self, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }

  load = g_new0 (LoadData, 1);
  load->path = g_strdup (self->db->path);
  load->id = self->id;
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * agent_conversation_load_finish:
 * @self: a [class@Agent.Conversation]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Conversation.load_async].
 *
 * Returns: %TRUE if the messages are loaded; %FALSE with @error set
 *   (%AGENT_ERROR_STORAGE or %G_IO_ERROR_CANCELLED), and the conversation
 *   not loaded
 *
 * Since: 0.1
 */
gboolean
agent_conversation_load_finish (AgentConversation  *self,
                                GAsyncResult       *result,
                                GError            **error)
{
  LoadData *load;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_conversation_load_async,
                        FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  /* Unless it was read (or disposed) meanwhile */
  load = g_task_get_task_data (G_TASK (result));
  if (load != NULL && self->messages == NULL && !self->closed)
    {
      _agent_conversation_take_tree (self, g_steal_pointer (&load->tree));
      self->errors = g_steal_pointer (&load->errors);
      if (self->messages->len > 0)
        g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, self->messages->len);
    }
  return agent_conversation_load (self, error);
}
