/* agent-document-db-private.h
 *
 * The document index's SQLite file (its own, not the conversation
 * store's): the files indexed (path, mtime, size, embedding model), their
 * chunks (ordinal, byte range, text) and each chunk's vector (float32
 * blob, model, dimensions). A file is put whole in one transaction, so
 * that an error leaves it as it was. Search is a linear scan of the
 * vectors of one model: fine for thousands of chunks, not for millions.
 * Not thread-safe: one thread uses a connection at a time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "transport/agent-embeddings.h"

G_BEGIN_DECLS

typedef struct _AgentDocumentDb AgentDocumentDb;

typedef struct
{
  char   *path;
  guint   ordinal;
  gint64  start;   /* the chunk's bytes in the file: [start, end) */
  gint64  end;
  char   *text;
  double  score;   /* cosine similarity to the query */
  gint64  chunk_id;
} AgentDocumentHit;

AgentDocumentDb *_agent_document_db_open        (const char       *path,
                                                 GError          **error);
void             _agent_document_db_close       (AgentDocumentDb  *db);
gboolean         _agent_document_db_is_current  (AgentDocumentDb  *db,
                                                 const char       *path,
                                                 gint64            mtime,
                                                 gint64            size,
                                                 const char       *model);
/* @chunks: of AgentChunk, into @text; @vectors: one per chunk */
gboolean         _agent_document_db_put_file    (AgentDocumentDb  *db,
                                                 const char       *path,
                                                 gint64            mtime,
                                                 gint64            size,
                                                 const char       *text,
                                                 GArray           *chunks,
                                                 AgentEmbeddings  *vectors,
                                                 GError          **error);
gboolean         _agent_document_db_remove_file (AgentDocumentDb  *db,
                                                 const char       *path,
                                                 GError          **error);
char           **_agent_document_db_list_paths  (AgentDocumentDb  *db,
                                                 GError          **error);
/* The @k best chunks for vector 0 of @query, best first: of AgentDocumentHit */
GPtrArray       *_agent_document_db_search      (AgentDocumentDb  *db,
                                                 AgentEmbeddings  *query,
                                                 guint             k,
                                                 GError          **error);
void             _agent_document_hit_free       (AgentDocumentHit *hit);
/* How many files and chunks the index holds */
gboolean         _agent_document_db_count       (AgentDocumentDb  *db,
                                                 guint            *n_files,
                                                 guint            *n_chunks,
                                                 GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentDocumentDb, _agent_document_db_close)

G_END_DECLS
