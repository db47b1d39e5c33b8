/* agent-document-db.c — the document index's SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <sqlite3.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "documents/agent-chunker-private.h"
#include "documents/agent-document-db-private.h"

#define SCHEMA_VERSION 1

static const char schema_sql[] =
  "CREATE TABLE IF NOT EXISTS files ("
  "  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime INTEGER NOT NULL,"
  "  size INTEGER NOT NULL, model TEXT NOT NULL);"
  "CREATE TABLE IF NOT EXISTS chunks ("
  "  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files (id) ON DELETE CASCADE,"
  "  ordinal INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,"
  "  text TEXT NOT NULL, UNIQUE (file_id, ordinal));"
  "CREATE TABLE IF NOT EXISTS vectors ("
  "  chunk_id INTEGER PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,"
  "  model TEXT NOT NULL, dimensions INTEGER NOT NULL, data BLOB NOT NULL);"
  "CREATE INDEX IF NOT EXISTS vectors_model ON vectors (model, dimensions);";

struct _AgentDocumentDb
{
  sqlite3 *db;
  char    *path;
};

static gboolean
fail (AgentDocumentDb  *self,
      GError          **error)
{
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
               _("The document index “%s” could not be used: %s"), self->path,
               sqlite3_errmsg (self->db));
  return FALSE;
}

static gboolean
exec (AgentDocumentDb  *self,
      const char       *sql,
      GError          **error)
{
  return sqlite3_exec (self->db, sql, NULL, NULL, NULL) == SQLITE_OK || fail (self, error);
}

void
_agent_document_db_close (AgentDocumentDb *self)
{
  if (self == NULL)
    return;
  sqlite3_close_v2 (self->db);
  g_free (self->path);
  g_free (self);
}

/* Documented in agent-document-db-private.h */
AgentDocumentDb *
_agent_document_db_open (const char  *path,
                         GError     **error)
{
  g_autoptr(AgentDocumentDb) self = g_new0 (AgentDocumentDb, 1);
  g_autofree char *folder = g_path_get_dirname (path);
  sqlite3_stmt *statement = NULL;
  int version = 0;

  self->path = g_strdup (path);
  if (g_mkdir_with_parents (folder, 0700) != 0 ||
      sqlite3_open_v2 (path, &self->db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       NULL) != SQLITE_OK)
    {
      if (self->db == NULL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                       _("The document index “%s” could not be opened"), path);
          return NULL;
        }
      fail (self, error);
      return NULL;
    }
  sqlite3_busy_timeout (self->db, 30000);

  if (sqlite3_prepare_v2 (self->db, "PRAGMA user_version", -1, &statement, NULL) != SQLITE_OK)
    {
      fail (self, error);
      return NULL;
    }
  if (sqlite3_step (statement) == SQLITE_ROW)
    version = sqlite3_column_int (statement, 0);
  sqlite3_finalize (statement);
  if (version > SCHEMA_VERSION)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The document index “%s” was written by a newer version (schema %d)"),
                   path, version);
      return NULL;
    }

  if (!exec (self, "PRAGMA journal_mode = WAL", error) ||
      !exec (self, "PRAGMA foreign_keys = ON", error) ||
      !exec (self, schema_sql, error) ||
      !exec (self, "PRAGMA user_version = 1", error))
    return NULL;

  return g_steal_pointer (&self);
}

/* Documented in agent-document-db-private.h */
gboolean
_agent_document_db_is_current (AgentDocumentDb *self,
                               const char      *path,
                               gint64           mtime,
                               gint64           size,
                               const char      *model)
{
  sqlite3_stmt *statement = NULL;
  gboolean current = FALSE;

  if (sqlite3_prepare_v2 (self->db,
                          "SELECT 1 FROM files WHERE path = ?1 AND mtime = ?2 AND size = ?3 "
                          "AND model = ?4", -1, &statement, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (statement, 1, path, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (statement, 2, mtime);
  sqlite3_bind_int64 (statement, 3, size);
  sqlite3_bind_text (statement, 4, model, -1, SQLITE_STATIC);
  current = sqlite3_step (statement) == SQLITE_ROW;
  sqlite3_finalize (statement);
  return current;
}

static gboolean
delete_file (AgentDocumentDb  *self,
             const char       *path,
             GError          **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db, "DELETE FROM files WHERE path = ?1", -1, &statement,
                          NULL) != SQLITE_OK)
    return fail (self, error);
  sqlite3_bind_text (statement, 1, path, -1, SQLITE_STATIC);
  rc = sqlite3_step (statement);
  sqlite3_finalize (statement);
  return rc == SQLITE_DONE || fail (self, error);
}

static gboolean
insert_chunks (AgentDocumentDb  *self,
               sqlite3_int64     file_id,
               const char       *text,
               GArray           *chunks,
               AgentEmbeddings  *vectors,
               GError          **error)
{
  sqlite3_stmt *chunk_statement = NULL;
  sqlite3_stmt *vector_statement = NULL;
  gboolean ok = TRUE;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO chunks (file_id, ordinal, start, end, text) "
                          "VALUES (?1, ?2, ?3, ?4, ?5)", -1, &chunk_statement,
                          NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "INSERT INTO vectors (chunk_id, model, dimensions, data) "
                          "VALUES (?1, ?2, ?3, ?4)", -1, &vector_statement, NULL) != SQLITE_OK)
    ok = fail (self, error);

  for (guint i = 0; ok && i < chunks->len; i++)
    {
      const AgentChunk *chunk = &g_array_index (chunks, AgentChunk, i);
      guint dimensions = 0;
      const float *vector = agent_embeddings_get_vector (vectors, i, &dimensions);

      sqlite3_reset (chunk_statement);
      sqlite3_bind_int64 (chunk_statement, 1, file_id);
      sqlite3_bind_int (chunk_statement, 2, i);
      sqlite3_bind_int64 (chunk_statement, 3, chunk->start);
      sqlite3_bind_int64 (chunk_statement, 4, chunk->end);
      sqlite3_bind_text (chunk_statement, 5, text + chunk->start, chunk->end - chunk->start,
                         SQLITE_STATIC);
      if (sqlite3_step (chunk_statement) != SQLITE_DONE)
        {
          ok = fail (self, error);
          break;
        }
      sqlite3_reset (vector_statement);
      sqlite3_bind_int64 (vector_statement, 1, sqlite3_last_insert_rowid (self->db));
      sqlite3_bind_text (vector_statement, 2, agent_embeddings_get_model (vectors), -1,
                         SQLITE_STATIC);
      sqlite3_bind_int (vector_statement, 3, dimensions);
      sqlite3_bind_blob (vector_statement, 4, vector, dimensions * sizeof (float),
                         SQLITE_STATIC);
      if (sqlite3_step (vector_statement) != SQLITE_DONE)
        ok = fail (self, error);
    }

  sqlite3_finalize (chunk_statement);
  sqlite3_finalize (vector_statement);
  return ok;
}

/* Documented in agent-document-db-private.h */
gboolean
_agent_document_db_put_file (AgentDocumentDb  *self,
                             const char       *path,
                             gint64            mtime,
                             gint64            size,
                             const char       *text,
                             GArray           *chunks,
                             AgentEmbeddings  *vectors,
                             GError          **error)
{
  sqlite3_stmt *statement = NULL;
  const char *model = agent_embeddings_get_model (vectors);
  gboolean ok;

  g_return_val_if_fail (agent_embeddings_get_n_vectors (vectors) == chunks->len, FALSE);

  if (!exec (self, "BEGIN IMMEDIATE", error))
    return FALSE;
  ok = delete_file (self, path, error);
  if (ok && sqlite3_prepare_v2 (self->db,
                                "INSERT INTO files (path, mtime, size, model) "
                                "VALUES (?1, ?2, ?3, ?4)", -1, &statement, NULL) != SQLITE_OK)
    ok = fail (self, error);
  if (ok)
    {
      sqlite3_bind_text (statement, 1, path, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (statement, 2, mtime);
      sqlite3_bind_int64 (statement, 3, size);
      sqlite3_bind_text (statement, 4, model != NULL ? model : "", -1, SQLITE_STATIC);
      if (sqlite3_step (statement) != SQLITE_DONE)
        ok = fail (self, error);
    }
  sqlite3_finalize (statement);
  if (ok)
    ok = insert_chunks (self, sqlite3_last_insert_rowid (self->db), text, chunks, vectors,
                        error);

  if (ok)
    return exec (self, "COMMIT", error);
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* Documented in agent-document-db-private.h */
gboolean
_agent_document_db_remove_file (AgentDocumentDb  *self,
                                const char       *path,
                                GError          **error)
{
  return delete_file (self, path, error);
}

/* Documented in agent-document-db-private.h */
char **
_agent_document_db_list_paths (AgentDocumentDb  *self,
                               GError          **error)
{
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db, "SELECT path FROM files ORDER BY path", -1, &statement,
                          NULL) != SQLITE_OK)
    {
      fail (self, error);
      return NULL;
    }
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    g_strv_builder_add (paths, (const char *) sqlite3_column_text (statement, 0));
  sqlite3_finalize (statement);
  if (rc != SQLITE_DONE)
    {
      fail (self, error);
      return NULL;
    }
  return g_strv_builder_end (paths);
}

void
_agent_document_hit_free (AgentDocumentHit *hit)
{
  g_free (hit->path);
  g_free (hit->text);
  g_free (hit);
}

static double
cosine (const float *a,
        const float *b,
        guint        n)
{
  double dot = 0, norm_a = 0, norm_b = 0;

  for (guint i = 0; i < n; i++)
    {
      dot += (double) a[i] * b[i];
      norm_a += (double) a[i] * a[i];
      norm_b += (double) b[i] * b[i];
    }
  return norm_a > 0 && norm_b > 0 ? dot / (sqrt (norm_a) * sqrt (norm_b)) : 0;
}

/* Documented in agent-document-db-private.h */
GPtrArray *
_agent_document_db_search (AgentDocumentDb  *self,
                           AgentEmbeddings  *query,
                           guint             k,
                           GError          **error)
{
  g_autoptr(GPtrArray) hits = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              _agent_document_hit_free);
  sqlite3_stmt *statement = NULL;
  const float *wanted;
  guint dimensions = 0;
  int rc;

  g_return_val_if_fail (agent_embeddings_get_n_vectors (query) >= 1, NULL);

  wanted = agent_embeddings_get_vector (query, 0, &dimensions);
  if (sqlite3_prepare_v2 (self->db,
                          "SELECT f.path, c.ordinal, c.start, c.end, v.data, c.id "
                          "FROM vectors v JOIN chunks c ON c.id = v.chunk_id "
                          "JOIN files f ON f.id = c.file_id "
                          "WHERE v.model = ?1 AND v.dimensions = ?2", -1, &statement,
                          NULL) != SQLITE_OK)
    {
      fail (self, error);
      return NULL;
    }
  sqlite3_bind_text (statement, 1, agent_embeddings_get_model (query), -1, SQLITE_STATIC);
  sqlite3_bind_int (statement, 2, dimensions);

  /* The best k so far, best first: a chunk's text is read for those only */
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      const float *vector = sqlite3_column_blob (statement, 4);
      AgentDocumentHit *hit;
      double score;
      guint at;

      if (vector == NULL ||
          (gsize) sqlite3_column_bytes (statement, 4) != dimensions * sizeof (float))
        continue;
      score = cosine (wanted, vector, dimensions);
      if (hits->len == k && (k == 0 || score <= ((AgentDocumentHit *) hits->pdata[k - 1])->score))
        continue;
      for (at = 0; at < hits->len; at++)
        if (score > ((AgentDocumentHit *) hits->pdata[at])->score)
          break;
      hit = g_new0 (AgentDocumentHit, 1);
      hit->path = g_strdup ((const char *) sqlite3_column_text (statement, 0));
      hit->ordinal = sqlite3_column_int (statement, 1);
      hit->start = sqlite3_column_int64 (statement, 2);
      hit->end = sqlite3_column_int64 (statement, 3);
      hit->score = score;
      hit->chunk_id = sqlite3_column_int64 (statement, 5);
      g_ptr_array_insert (hits, at, hit);
      if (hits->len > k)
        g_ptr_array_remove_index (hits, k);
    }
  sqlite3_finalize (statement);
  if (rc != SQLITE_DONE)
    {
      fail (self, error);
      return NULL;
    }

  if (sqlite3_prepare_v2 (self->db, "SELECT text FROM chunks WHERE id = ?1", -1, &statement,
                          NULL) != SQLITE_OK)
    {
      fail (self, error);
      return NULL;
    }
  for (guint i = 0; i < hits->len; i++)
    {
      AgentDocumentHit *hit = hits->pdata[i];

      sqlite3_reset (statement);
      sqlite3_bind_int64 (statement, 1, hit->chunk_id);
      hit->text = sqlite3_step (statement) == SQLITE_ROW
                    ? g_strdup ((const char *) sqlite3_column_text (statement, 0))
                    : g_strdup ("");
    }
  sqlite3_finalize (statement);

  return g_steal_pointer (&hits);
}

/* Documented in agent-document-db-private.h */
gboolean
_agent_document_db_count (AgentDocumentDb  *self,
                          guint            *n_files,
                          guint            *n_chunks,
                          GError          **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db,
                          "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)",
                          -1, &statement, NULL) != SQLITE_OK)
    return fail (self, error);
  rc = sqlite3_step (statement);
  if (rc == SQLITE_ROW)
    {
      *n_files = sqlite3_column_int (statement, 0);
      *n_chunks = sqlite3_column_int (statement, 1);
    }
  sqlite3_finalize (statement);
  return rc == SQLITE_ROW || fail (self, error);
}
