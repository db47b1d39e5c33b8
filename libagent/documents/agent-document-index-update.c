/* agent-document-index-update.c — walking the folders, embedding what changed
 *
 * The update runs on a worker thread: it walks the folders, reads, cuts and
 * writes each changed file. Only the embedding requests go back to the
 * index's main context (where the provider's HTTP session lives); the
 * worker waits for each answer. Progress goes to the main context in idle
 * callbacks, in order, before the task's own result.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "agent-error.h"
#include "documents/agent-chunker-private.h"
#include "documents/agent-document-index-private.h"
#include "transport/agent-retry-private.h"

#define CHUNK_TARGET  1000
#define CHUNK_OVERLAP 120
#define BATCH         64   /* texts a request */
#define MAX_RETRIES   3    /* of one request, after the first try */

typedef struct
{
  gint64   mtime;    /* µs */
  gint64   size;
  gboolean sniff;    /* its name says nothing: text only if its bytes are */
} Found;

typedef struct
{
  AgentDocumentIndex *self;    /* owned by the task */
  char              **folders; /* absolute */
  char               *model;
  guint64             max_file_size;
  GCancellable       *cancellable;
  GPtrArray          *unwalked;  /* folders that could not be read: their files stay */
  guint               done;
} Update;

static void
update_free (gpointer data)
{
  Update *update = data;

  g_strfreev (update->folders);
  g_free (update->model);
  g_ptr_array_unref (update->unwalked);
  g_free (update);
}

/* Progress, on the main context */

typedef struct
{
  AgentDocumentIndex *self;
  int                 what;    /* AgentIndexProgress, or -1 / -2 for the signals */
  guint               value;
  char               *path;
  GError             *error;
} Report;

#define REPORT_INDEXED (-1)
#define REPORT_FAILED  (-2)

static void
report_free (gpointer data)
{
  Report *report = data;

  g_object_unref (report->self);
  g_free (report->path);
  g_clear_error (&report->error);
  g_free (report);
}

static gboolean
report_dispatch (gpointer data)
{
  Report *report = data;

  if (report->what == REPORT_INDEXED)
    _agent_document_index_emit_file_indexed (report->self, report->path, report->value);
  else if (report->what == REPORT_FAILED)
    _agent_document_index_emit_file_failed (report->self, report->path, report->error);
  else
    _agent_document_index_set_progress (report->self, report->what, report->value);
  return G_SOURCE_REMOVE;
}

static void
report (Update       *update,
        int           what,
        guint         value,
        const char   *path,
        const GError *error)
{
  Report *report = g_new0 (Report, 1);
  GSource *source = g_idle_source_new ();

  report->self = g_object_ref (update->self);
  report->what = what;
  report->value = value;
  report->path = g_strdup (path);
  report->error = error != NULL ? g_error_copy (error) : NULL;
  /* Not g_main_context_invoke(): from the main thread it would run at
   * once, ahead of what is queued */
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, report_dispatch, report, report_free);
  g_source_set_name (source, "[agent] document index progress");
  g_source_attach (source, update->self->context);
  g_source_unref (source);
}

static void
file_failed (Update       *update,
             const char   *path,
             const GError *error)
{
  report (update, REPORT_FAILED, 0, path, error);
}

/* Embedding, from the worker through the main context */

typedef struct
{
  GMutex               lock;
  GCond                cond;
  gboolean             done;
  AgentDocumentIndex  *self;
  const char * const  *texts;
  const char          *model;
  GCancellable        *cancellable;
  AgentEmbeddings     *result;
  GError              *error;
} EmbedCall;

static void
embedded_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  EmbedCall *call = user_data;
  GError *error = NULL;
  AgentEmbeddings *embeddings = agent_provider_embed_finish (AGENT_PROVIDER (object), result,
                                                             &error);

  g_mutex_lock (&call->lock);
  call->result = embeddings;
  call->error = error;
  call->done = TRUE;
  g_cond_signal (&call->cond);
  g_mutex_unlock (&call->lock);   /* the worker frees call from here on */
}

static gboolean
embed_start (gpointer user_data)
{
  EmbedCall *call = user_data;

  g_main_context_push_thread_default (call->self->context);
  agent_provider_embed_async (call->self->provider, call->texts, call->model,
                              call->cancellable, embedded_cb, call);
  g_main_context_pop_thread_default (call->self->context);
  return G_SOURCE_REMOVE;
}

static AgentEmbeddings *
embed_once (Update              *update,
            const char * const  *texts,
            GError             **error)
{
  EmbedCall call = {
    .self = update->self,
    .texts = texts,
    .model = update->model,
    .cancellable = update->cancellable,
  };

  g_mutex_init (&call.lock);
  g_cond_init (&call.cond);
  g_main_context_invoke (update->self->context, embed_start, &call);
  g_mutex_lock (&call.lock);
  while (!call.done)
    g_cond_wait (&call.cond, &call.lock);
  g_mutex_unlock (&call.lock);
  g_mutex_clear (&call.lock);
  g_cond_clear (&call.cond);

  if (call.error != NULL)
    g_propagate_error (error, call.error);
  return call.result;
}

static gboolean
is_transient (const GError *error)
{
  return g_error_matches (error, AGENT_ERROR, AGENT_ERROR_NETWORK) ||
         g_error_matches (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT) ||
         (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_HTTP) &&
          _agent_retry_status_is_retryable (agent_error_get_http_status (error)));
}

/* Waits @usec, or less if @cancellable is cancelled: FALSE then */
static gboolean
wait_or_cancel (GCancellable *cancellable,
                gint64        usec)
{
  GPollFD pollfd;

  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &pollfd))
    {
      g_poll (&pollfd, 1, usec / 1000);
      g_cancellable_release_fd (cancellable);
    }
  else
    g_usleep (usec);
  return !g_cancellable_is_cancelled (cancellable);
}

static AgentEmbeddings *
embed_batch (Update              *update,
             const char * const  *texts,
             GError             **error)
{
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local_error = NULL;
      AgentEmbeddings *embeddings = embed_once (update, texts, &local_error);

      if (embeddings != NULL)
        return embeddings;
      if (attempt == MAX_RETRIES || !is_transient (local_error) ||
          !wait_or_cancel (update->cancellable,
                           _agent_retry_backoff (attempt, g_random_double ())))
        {
          if (!g_cancellable_set_error_if_cancelled (update->cancellable, error))
            g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_debug ("Embedding request failed (%s), trying again", local_error->message);
    }
}

/* Walking */

static gboolean
is_text_like (const char *name,
              gboolean   *sniff)
{
  gboolean uncertain = FALSE;
  g_autofree char *type = g_content_type_guess (name, NULL, 0, &uncertain);

  *sniff = g_content_type_is_unknown (type);
  return *sniff || g_content_type_is_a (type, "text/plain");
}

static gboolean
is_inside (const char *path,
           const char *folder)
{
  gsize len = strlen (folder);

  return strncmp (path, folder, len) == 0 && (path[len] == '/' || folder[len - 1] == '/');
}

static void
add_found (GHashTable        *found,
           const char        *path,
           const struct stat *st,
           gboolean           sniff)
{
  Found *file = g_new0 (Found, 1);

  file->mtime = (gint64) st->st_mtim.tv_sec * G_USEC_PER_SEC + st->st_mtim.tv_nsec / 1000;
  file->size = st->st_size;
  file->sniff = sniff;
  g_hash_table_replace (found, g_strdup (path), file);
}

/* Adds the text files under @folder to @found. Hidden files and folders are
 * left out; a symbolic link is followed only to a file inside @real_root
 * (never to a folder: that could loop). */
static gboolean
walk (Update      *update,
      const char  *real_root,
      const char  *folder,
      GHashTable  *found,
      GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_cancellable_set_error_if_cancelled (update->cancellable, error))
    return FALSE;
  if (!(dir = g_dir_open (folder, 0, error)))
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      struct stat st;
      gboolean sniff = FALSE;

      if (name[0] == '.' || g_lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        {
          g_autoptr(GError) local_error = NULL;

          if (!walk (update, real_root, path, found, &local_error))
            {
              if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return FALSE;
                }
              g_ptr_array_add (update->unwalked, g_strdup (path));
              file_failed (update, path, local_error);
            }
        }
      else if (S_ISLNK (st.st_mode))
        {
          g_autofree char *target = realpath (path, NULL);

          if (target != NULL && is_inside (target, real_root) && g_stat (target, &st) == 0 &&
              S_ISREG (st.st_mode) && is_text_like (target, &sniff))
            add_found (found, path, &st, sniff);
        }
      else if (S_ISREG (st.st_mode) && is_text_like (name, &sniff))
        add_found (found, path, &st, sniff);
    }
  return TRUE;
}

/* Indexing one file */

static void
with_db (Update *update)
{
  g_mutex_lock (&update->self->db_lock);
}

static void
without_db (Update *update)
{
  g_mutex_unlock (&update->self->db_lock);
}

/* Indexes @path if it changed. FALSE only when the update must stop (it was
 * cancelled, or the index cannot be written); a file that cannot be indexed
 * is reported and the update goes on. */
static gboolean
index_file (Update      *update,
            const char  *path,
            Found       *file,
            GError     **error)
{
  AgentDocumentIndex *self = update->self;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GByteArray) data = NULL;
  g_autoptr(GArray) chunks = NULL;
  g_autoptr(AgentEmbeddings) vectors = NULL;
  g_autofree char *text = NULL;
  guint dimensions = 0;
  gboolean current;
  gsize len = 0;
  gboolean ok;

  with_db (update);
  current = _agent_document_db_is_current (self->db, path, file->mtime, file->size,
                                           update->model);
  without_db (update);
  if (current)
    return TRUE;

  if ((guint64) file->size > update->max_file_size)
    {
      g_autofree char *limit = g_format_size (update->max_file_size);

      local_error = g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                 _("“%s” was not indexed: it is larger than the limit of %s"),
                                 path, limit);
      file_failed (update, path, local_error);
      return TRUE;
    }

  if (!g_file_get_contents (path, &text, &len, &local_error))
    {
      file_failed (update, path, local_error);
      return TRUE;
    }
  if (len > update->max_file_size)
    return TRUE;   /* it grew since it was looked at: the next update tells */
  if (memchr (text, '\0', len) != NULL || !g_utf8_validate_len (text, len, NULL))
    {
      if (file->sniff)
        return TRUE;   /* not text after all: not a document */
      local_error = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                 _("“%s” was not indexed: it is not UTF-8 text"), path);
      file_failed (update, path, local_error);
      return TRUE;
    }

  chunks = _agent_chunk_text (text, len, CHUNK_TARGET, CHUNK_OVERLAP);
  data = g_byte_array_new ();
  for (guint first = 0; first < chunks->len; first += BATCH)
    {
      guint n = MIN (BATCH, chunks->len - first);
      g_auto(GStrv) texts = g_new0 (char *, n + 1);
      g_autoptr(AgentEmbeddings) batch = NULL;
      GBytes *bytes;

      for (guint i = 0; i < n; i++)
        {
          const AgentChunk *chunk = &g_array_index (chunks, AgentChunk, first + i);

          texts[i] = g_strndup (text + chunk->start, chunk->end - chunk->start);
        }
      if (!(batch = embed_batch (update, (const char * const *) texts, &local_error)))
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          g_prefix_error (&local_error, _("“%s” was not indexed: "), path);
          file_failed (update, path, local_error);
          return TRUE;
        }
      if (first > 0 && agent_embeddings_get_dimensions (batch) != dimensions)
        {
          local_error = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                     _("“%s” was not indexed: the embedding model gave "
                                       "vectors of %u and %u numbers"),
                                     path, dimensions, agent_embeddings_get_dimensions (batch));
          file_failed (update, path, local_error);
          return TRUE;
        }
      dimensions = agent_embeddings_get_dimensions (batch);
      bytes = agent_embeddings_get_data (batch);
      g_byte_array_append (data, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }

  {
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&data));

    vectors = agent_embeddings_new (update->model, dimensions, bytes, error);
    if (vectors == NULL)
      return FALSE;
  }

  with_db (update);
  ok = _agent_document_db_put_file (self->db, path, file->mtime, file->size, text, chunks,
                                    vectors, error);
  without_db (update);
  if (ok)
    report (update, REPORT_INDEXED, chunks->len, path, NULL);
  return ok;
}

/* Drops the files that are in the index but were not found, except those
 * under a folder that could not be walked: a folder missing for a moment
 * (a disk not mounted) keeps its files. */
static gboolean
drop_gone (Update      *update,
           GHashTable  *found,
           GError     **error)
{
  AgentDocumentIndex *self = update->self;
  g_auto(GStrv) paths = NULL;
  gboolean ok = TRUE;

  with_db (update);
  paths = _agent_document_db_list_paths (self->db, error);
  for (guint i = 0; ok && paths != NULL && paths[i] != NULL; i++)
    {
      gboolean keep = g_hash_table_contains (found, paths[i]);

      for (guint j = 0; !keep && j < update->unwalked->len; j++)
        keep = is_inside (paths[i], update->unwalked->pdata[j]);
      if (!keep)
        ok = _agent_document_db_remove_file (self->db, paths[i], error);
    }
  without_db (update);
  return paths != NULL && ok;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
update_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Update *update = task_data;
  g_autoptr(GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree gpointer *paths = NULL;
  GError *error = NULL;
  guint n_found = 0;

  for (guint i = 0; update->folders[i] != NULL; i++)
    {
      const char *folder = update->folders[i];
      g_autofree char *real_root = realpath (folder, NULL);
      g_autoptr(GError) local_error = NULL;

      if (real_root == NULL)
        {
          int saved_errno = errno;

          local_error = g_error_new (G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                                     _("The folder “%s” could not be indexed: %s"), folder,
                                     g_strerror (saved_errno));
        }
      else if (!walk (update, real_root, folder, found, &local_error) &&
               g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&local_error));
          return;
        }
      if (local_error != NULL)
        {
          g_ptr_array_add (update->unwalked, g_strdup (folder));
          file_failed (update, folder, local_error);
        }
    }
  report (update, AGENT_INDEX_PROGRESS_FILES_TOTAL, g_hash_table_size (found), NULL, NULL);

  if (!drop_gone (update, found, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* In the order of their paths, so that a run is repeatable */
  paths = g_hash_table_get_keys_as_array (found, &n_found);
  qsort (paths, n_found, sizeof (gpointer), compare_paths);
  for (guint i = 0; i < n_found; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, &error) ||
          !index_file (update, paths[i], g_hash_table_lookup (found, paths[i]), &error))
        {
          g_task_return_error (task, error);
          return;
        }
      report (update, AGENT_INDEX_PROGRESS_FILES_DONE, ++update->done, NULL, NULL);
    }
  g_task_return_boolean (task, TRUE);
}

/* On the main context: the counts, and the end of the update */
static void
update_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AgentDocumentIndex *self = AGENT_DOCUMENT_INDEX (object);
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  guint n_files = 0, n_chunks = 0;
  gboolean counted;

  g_mutex_lock (&self->db_lock);
  counted = _agent_document_db_count (self->db, &n_files, &n_chunks, NULL);
  g_mutex_unlock (&self->db_lock);
  if (counted)
    {
      _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_N_FILES, n_files);
      _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_N_CHUNKS, n_chunks);
    }
  _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_INDEXING, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * agent_document_index_update_async:
 * @self: a [class@Agent.DocumentIndex]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the update is done
 * @user_data: data for @callback
 *
 * Walks [property@Agent.DocumentIndex:folders] and brings the index up to
 * date: new and changed text files (their modification time, size or
 * embedding model differ from the index's) are read, cut into chunks of
 * about 1,000 bytes and embedded; files that are gone, or no longer under
 * one of the folders, are dropped. Hidden files and folders are left out,
 * and symbolic links are followed only to files inside the folder.
 *
 * [property@Agent.DocumentIndex:files-done] and
 * [property@Agent.DocumentIndex:files-total] tell the progress. A file that
 * cannot be indexed is told by [signal@Agent.DocumentIndex::file-failed];
 * the update goes on. Cancelling stops it between two files or two
 * requests: the files already done stay indexed, the others as they were.
 *
 * An update already running makes this one fail with %AGENT_ERROR_BUSY.
 *
 * Since: 0.1
 */
void
agent_document_index_update_async (AgentDocumentIndex  *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  Update *update;

  g_return_if_fail (AGENT_IS_DOCUMENT_INDEX (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_document_index_update_async);
  if (self->indexing)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_BUSY,
                               _("The document index “%s” is already being updated"),
                               self->path);
      return;
    }

  update = g_new0 (Update, 1);
  update->self = self;
  update->folders = g_new0 (char *, g_strv_length (self->folders) + 1);
  for (guint i = 0; self->folders[i] != NULL; i++)
    update->folders[i] = g_canonicalize_filename (self->folders[i], NULL);
  update->model = g_strdup (self->model != NULL ? self->model
                                                : agent_provider_get_model (self->provider));
  update->max_file_size = self->max_file_size;
  update->unwalked = g_ptr_array_new_with_free_func (g_free);
  update->cancellable = cancellable;

  _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_FILES_DONE, 0);
  _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_FILES_TOTAL, 0);
  _agent_document_index_set_progress (self, AGENT_INDEX_PROGRESS_INDEXING, TRUE);

  worker = g_task_new (self, cancellable, update_done_cb, g_steal_pointer (&task));
  g_task_set_source_tag (worker, update_thread);
  g_task_set_task_data (worker, update, update_free);
  g_task_run_in_thread (worker, update_thread);
}

/**
 * agent_document_index_update_finish:
 * @self: a [class@Agent.DocumentIndex]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.DocumentIndex.update_async]. Files that could not
 * be indexed do not fail the update (see
 * [signal@Agent.DocumentIndex::file-failed]); a cancelled update fails with
 * %G_IO_ERROR_CANCELLED, and an index that cannot be written with
 * %AGENT_ERROR_STORAGE.
 *
 * Returns: %TRUE if the update went through
 *
 * Since: 0.1
 */
gboolean
agent_document_index_update_finish (AgentDocumentIndex  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_document_index_update_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
