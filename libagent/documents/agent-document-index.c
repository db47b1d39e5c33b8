/* agent-document-index.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "documents/agent-document-db-private.h"
#include "documents/agent-document-index.h"
#include "documents/agent-document-index-private.h"

/**
 * AgentDocumentIndex:
 *
 * The files of some folders, cut into chunks and embedded, for a search by
 * meaning: "ask your documents". Its vectors are kept in an SQLite file of
 * its own (not the conversation store's), made by the
 * [class@Agent.Provider]'s embedding model.
 *
 * [method@Agent.DocumentIndex.update_async] walks the folders and indexes
 * the text files that are new or changed since the last update (their
 * modification time, size or embedding model differ), and drops those that
 * are gone. The files are read, cut and written to the database on a worker
 * thread; their chunks are embedded at most 64 a request, and a request
 * that fails for a passing reason (HTTP 408, 429 or 5xx, a broken
 * connection) is tried again after a growing wait. A file that cannot be
 * indexed is told by [signal@Agent.DocumentIndex::file-failed], and the
 * update goes on with the next one. Each file is written in one
 * transaction, so that a cancelled or failed update leaves the index
 * consistent: a file has all its chunks of one version, or none.
 *
 * [method@Agent.DocumentIndex.search_async] gives the chunks closest to a
 * question, and [func@Agent.search_documents_tool_new] the tool that lets a
 * model search them.
 *
 * The index is used from the thread of the main context it was made on:
 * its properties notify and its signals are emitted there. The index is
 * built with the conversation store (`AGENT_HAS_STORE`), whose SQLite it
 * needs. [Documents and embeddings](documents.html) shows it at work.
 *
 * Since: 0.1
 */

#define DEFAULT_MAX_FILE_SIZE (4 * 1024 * 1024)

enum {
  PROP_0,
  PROP_PATH,
  PROP_PROVIDER,
  PROP_MODEL,
  PROP_FOLDERS,
  PROP_INDEXING,
  PROP_FILES_DONE,
  PROP_FILES_TOTAL,
  PROP_N_FILES,
  PROP_N_CHUNKS,
  PROP_MAX_FILE_SIZE,
  N_PROPS
};

enum {
  FILE_INDEXED,
  FILE_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentDocumentIndex, agent_document_index, G_TYPE_OBJECT)

static void
agent_document_index_dispose (GObject *object)
{
  AgentDocumentIndex *self = AGENT_DOCUMENT_INDEX (object);

  g_clear_object (&self->provider);

  G_OBJECT_CLASS (agent_document_index_parent_class)->dispose (object);
}

static void
agent_document_index_finalize (GObject *object)
{
  AgentDocumentIndex *self = AGENT_DOCUMENT_INDEX (object);

  g_clear_pointer (&self->db, _agent_document_db_close);
  g_mutex_clear (&self->db_lock);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->path);
  g_free (self->model);
  g_strfreev (self->folders);

  G_OBJECT_CLASS (agent_document_index_parent_class)->finalize (object);
}

static void
agent_document_index_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentDocumentIndex *self = AGENT_DOCUMENT_INDEX (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_FOLDERS:
      g_value_set_boxed (value, self->folders);
      break;
    case PROP_INDEXING:
      g_value_set_boolean (value, self->indexing);
      break;
    case PROP_FILES_DONE:
      g_value_set_uint (value, self->files_done);
      break;
    case PROP_FILES_TOTAL:
      g_value_set_uint (value, self->files_total);
      break;
    case PROP_N_FILES:
      g_value_set_uint (value, self->n_files);
      break;
    case PROP_N_CHUNKS:
      g_value_set_uint (value, self->n_chunks);
      break;
    case PROP_MAX_FILE_SIZE:
      g_value_set_uint64 (value, self->max_file_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_document_index_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentDocumentIndex *self = AGENT_DOCUMENT_INDEX (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;
    case PROP_MODEL:
      self->model = g_value_dup_string (value);
      break;
    case PROP_FOLDERS:
      agent_document_index_set_folders (self, g_value_get_boxed (value));
      break;
    case PROP_MAX_FILE_SIZE:
      agent_document_index_set_max_file_size (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_document_index_class_init (AgentDocumentIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_document_index_dispose;
  object_class->finalize = agent_document_index_finalize;
  object_class->get_property = agent_document_index_get_property;
  object_class->set_property = agent_document_index_set_property;

  /**
   * AgentDocumentIndex:path:
   *
   * The SQLite file of the index.
   *
   * Since: 0.1
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:provider:
   *
   * The provider whose embedding model makes the vectors.
   *
   * Since: 0.1
   */
  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, AGENT_TYPE_PROVIDER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:model:
   *
   * The embedding model, or %NULL for the provider's
   * [property@Agent.Provider:model]. Files embedded by another model are
   * embedded again by the next update.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:folders:
   *
   * The folders whose files are indexed, with their subfolders. The next
   * update indexes them and drops the files no longer under one.
   *
   * Since: 0.1
   */
  properties[PROP_FOLDERS] =
    g_param_spec_boxed ("folders", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:indexing:
   *
   * Whether an update is running.
   *
   * Since: 0.1
   */
  properties[PROP_INDEXING] =
    g_param_spec_boolean ("indexing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:files-done:
   *
   * How many files the running (or last) update has looked at: it only
   * grows during an update, up to [property@Agent.DocumentIndex:files-total].
   *
   * Since: 0.1
   */
  properties[PROP_FILES_DONE] =
    g_param_spec_uint ("files-done", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:files-total:
   *
   * How many files the running (or last) update found in the folders.
   *
   * Since: 0.1
   */
  properties[PROP_FILES_TOTAL] =
    g_param_spec_uint ("files-total", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:n-files:
   *
   * How many files the index holds.
   *
   * Since: 0.1
   */
  properties[PROP_N_FILES] =
    g_param_spec_uint ("n-files", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:n-chunks:
   *
   * How many chunks the index holds.
   *
   * Since: 0.1
   */
  properties[PROP_N_CHUNKS] =
    g_param_spec_uint ("n-chunks", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentDocumentIndex:max-file-size:
   *
   * The largest file indexed, in bytes (4 MiB unless set). A larger one
   * fails with %AGENT_ERROR_LIMIT.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_FILE_SIZE] =
    g_param_spec_uint64 ("max-file-size", NULL, NULL, 1, G_MAXINT32, DEFAULT_MAX_FILE_SIZE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentDocumentIndex::file-indexed:
   * @self: the index
   * @path: the file
   * @n_chunks: how many chunks it was cut into
   *
   * An update indexed a new or changed file.
   *
   * Since: 0.1
   */
  signals[FILE_INDEXED] =
    g_signal_new ("file-indexed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_UINT);

  /**
   * AgentDocumentIndex::file-failed:
   * @self: the index
   * @path: the file (or folder) that could not be indexed
   * @error: why, naming the file
   *
   * An update could not index a file: it could not be read, is not UTF-8
   * text, is larger than [property@Agent.DocumentIndex:max-file-size]
   * (%AGENT_ERROR_LIMIT), or its chunks could not be embedded. The file
   * keeps what the index held of it, and the update goes on with the next.
   *
   * Since: 0.1
   */
  signals[FILE_FAILED] =
    g_signal_new ("file-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
agent_document_index_init (AgentDocumentIndex *self)
{
  g_mutex_init (&self->db_lock);
  self->context = g_main_context_ref_thread_default ();
  self->max_file_size = DEFAULT_MAX_FILE_SIZE;
  self->folders = g_new0 (char *, 1);
}

/**
 * agent_document_index_new:
 * @path: the SQLite file of the index, made if missing
 * @provider: the provider whose embedding model makes the vectors
 * @model: (nullable): the embedding model, or %NULL for @provider's
 * @error: return location for a [struct@GLib.Error]
 *
 * Opens the document index in @path, or makes it (and its folder). An
 * index written by a newer version of libagent is refused with
 * %AGENT_ERROR_STORAGE.
 *
 * Returns: (transfer full) (nullable): the index, or %NULL with @error set
 *
 * Since: 0.1
 */
AgentDocumentIndex *
agent_document_index_new (const char     *path,
                          AgentProvider  *provider,
                          const char     *model,
                          GError        **error)
{
  g_autoptr(AgentDocumentIndex) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (AGENT_TYPE_DOCUMENT_INDEX,
                       "path", path,
                       "provider", provider,
                       "model", model,
                       NULL);
  if (!(self->db = _agent_document_db_open (path, error)) ||
      !_agent_document_db_count (self->db, &self->n_files, &self->n_chunks, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * agent_document_index_get_path:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets the SQLite file of the index.
 *
 * Returns: the path of the file
 *
 * Since: 0.1
 */
const char *
agent_document_index_get_path (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), NULL);

  return self->path;
}

/**
 * agent_document_index_get_provider:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets the provider whose embedding model makes the vectors.
 *
 * Returns: (transfer none): the provider
 *
 * Since: 0.1
 */
AgentProvider *
agent_document_index_get_provider (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), NULL);

  return self->provider;
}

/**
 * agent_document_index_get_model:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets the embedding model the index was made with.
 *
 * Returns: (nullable): the model, or %NULL for the provider's
 *
 * Since: 0.1
 */
const char *
agent_document_index_get_model (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), NULL);

  return self->model;
}

/**
 * agent_document_index_get_folders:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets the folders whose files are indexed.
 *
 * Returns: (transfer none) (array zero-terminated=1): the folders
 *
 * Since: 0.1
 */
const char * const *
agent_document_index_get_folders (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), NULL);

  return (const char * const *) self->folders;
}

/**
 * agent_document_index_set_folders:
 * @self: a [class@Agent.DocumentIndex]
 * @folders: (array zero-terminated=1) (nullable): the folders to index
 *
 * Sets the folders whose files are indexed, with their subfolders. Nothing
 * is read until [method@Agent.DocumentIndex.update_async]; an update
 * already running goes on with the folders it started with.
 *
 * Since: 0.1
 */
void
agent_document_index_set_folders (AgentDocumentIndex *self,
                                  const char * const *folders)
{
  static const char * const none[] = { NULL };

  g_return_if_fail (AGENT_IS_DOCUMENT_INDEX (self));

  if (folders == NULL)
    folders = none;
  if (g_strv_equal ((const char * const *) self->folders, folders))
    return;
  g_strfreev (self->folders);
  self->folders = g_strdupv ((char **) folders);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDERS]);
}

/**
 * agent_document_index_get_max_file_size:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets the size of the largest file indexed.
 *
 * Returns: the limit, in bytes
 *
 * Since: 0.1
 */
guint64
agent_document_index_get_max_file_size (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), 0);

  return self->max_file_size;
}

/**
 * agent_document_index_set_max_file_size:
 * @self: a [class@Agent.DocumentIndex]
 * @max_file_size: the limit, in bytes (1 to 2 GiB)
 *
 * Sets the size of the largest file indexed; the next update applies it.
 *
 * Since: 0.1
 */
void
agent_document_index_set_max_file_size (AgentDocumentIndex *self,
                                        guint64             max_file_size)
{
  g_return_if_fail (AGENT_IS_DOCUMENT_INDEX (self));
  g_return_if_fail (max_file_size >= 1 && max_file_size <= G_MAXINT32);

  if (self->max_file_size == max_file_size)
    return;
  self->max_file_size = max_file_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_FILE_SIZE]);
}

/**
 * agent_document_index_get_indexing:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets whether an update is running.
 *
 * Returns: %TRUE while [method@Agent.DocumentIndex.update_async] runs
 *
 * Since: 0.1
 */
gboolean
agent_document_index_get_indexing (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), FALSE);

  return self->indexing;
}

/**
 * agent_document_index_get_files_done:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets how many files the running (or last) update looked at.
 *
 * Returns: the number of files
 *
 * Since: 0.1
 */
guint
agent_document_index_get_files_done (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), 0);

  return self->files_done;
}

/**
 * agent_document_index_get_files_total:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets how many files the running (or last) update found.
 *
 * Returns: the number of files
 *
 * Since: 0.1
 */
guint
agent_document_index_get_files_total (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), 0);

  return self->files_total;
}

/**
 * agent_document_index_get_n_files:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets how many files the index holds.
 *
 * Returns: the number of files
 *
 * Since: 0.1
 */
guint
agent_document_index_get_n_files (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), 0);

  return self->n_files;
}

/**
 * agent_document_index_get_n_chunks:
 * @self: a [class@Agent.DocumentIndex]
 *
 * Gets how many chunks the index holds.
 *
 * Returns: the number of chunks
 *
 * Since: 0.1
 */
guint
agent_document_index_get_n_chunks (AgentDocumentIndex *self)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), 0);

  return self->n_chunks;
}

/* Used by the update, on the index's main context */
void
_agent_document_index_set_progress (AgentDocumentIndex *self,
                                    AgentIndexProgress  what,
                                    guint               value)
{
  guint *field = NULL;
  guint prop = 0;

  switch (what)
    {
    case AGENT_INDEX_PROGRESS_INDEXING:
      if (self->indexing == (gboolean) value)
        return;
      self->indexing = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEXING]);
      return;
    case AGENT_INDEX_PROGRESS_FILES_DONE:
      field = &self->files_done, prop = PROP_FILES_DONE;
      break;
    case AGENT_INDEX_PROGRESS_FILES_TOTAL:
      field = &self->files_total, prop = PROP_FILES_TOTAL;
      break;
    case AGENT_INDEX_PROGRESS_N_FILES:
      field = &self->n_files, prop = PROP_N_FILES;
      break;
    case AGENT_INDEX_PROGRESS_N_CHUNKS:
      field = &self->n_chunks, prop = PROP_N_CHUNKS;
      break;
    default:
      g_assert_not_reached ();
    }
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
_agent_document_index_emit_file_indexed (AgentDocumentIndex *self,
                                         const char         *path,
                                         guint               n_chunks)
{
  g_signal_emit (self, signals[FILE_INDEXED], 0, path, n_chunks);
}

void
_agent_document_index_emit_file_failed (AgentDocumentIndex *self,
                                        const char         *path,
                                        const GError       *error)
{
  g_signal_emit (self, signals[FILE_FAILED], 0, path, error);
}
