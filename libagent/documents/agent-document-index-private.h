/* agent-document-index-private.h
 *
 * What the update and the search of AgentDocumentIndex share with its
 * class file (agent-document-index.c): the instance, and how a worker's
 * progress reaches the properties and signals on the main context.
 *
 * The database connection is opened without SQLite's own mutex
 * (SQLITE_OPEN_NOMUTEX): it is used only under db_lock, by the update's
 * worker thread, a search's worker thread, or the main thread at opening,
 * so that one thread at a time uses it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "documents/agent-document-db-private.h"
#include "documents/agent-document-index.h"

G_BEGIN_DECLS

struct _AgentDocumentIndex
{
  GObject          parent_instance;
  GMainContext    *context;        /* where properties notify */
  char            *path;
  AgentProvider   *provider;
  char            *model;
  char           **folders;
  guint64          max_file_size;
  GMutex           db_lock;        /* held by whichever thread uses db */
  AgentDocumentDb *db;
  gboolean         indexing;
  guint            files_done;
  guint            files_total;
  guint            n_files;
  guint            n_chunks;
};

typedef enum
{
  AGENT_INDEX_PROGRESS_INDEXING,
  AGENT_INDEX_PROGRESS_FILES_DONE,
  AGENT_INDEX_PROGRESS_FILES_TOTAL,
  AGENT_INDEX_PROGRESS_N_FILES,
  AGENT_INDEX_PROGRESS_N_CHUNKS,
} AgentIndexProgress;

/* On the index's main context only */
void _agent_document_index_set_progress      (AgentDocumentIndex *self,
                                              AgentIndexProgress  what,
                                              guint               value);
void _agent_document_index_emit_file_indexed (AgentDocumentIndex *self,
                                              const char         *path,
                                              guint               n_chunks);
void _agent_document_index_emit_file_failed  (AgentDocumentIndex *self,
                                              const char         *path,
                                              const GError       *error);

G_END_DECLS
