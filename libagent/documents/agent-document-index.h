/* agent-document-index.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agent-provider.h"
#include "agent-tool.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_DOCUMENT_INDEX (agent_document_index_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentDocumentIndex, agent_document_index, AGENT, DOCUMENT_INDEX, GObject)

/* Properties (all notify on the main context the index was made on):
 *   "path"          char*     the SQLite file (construct-only)
 *   "provider"      AgentProvider*  whose embeddings (construct-only)
 *   "model"         char*     the embedding model (construct-only; NULL:
 *                             the provider's model)
 *   "folders"       GStrv     the folders indexed (read-write)
 *   "indexing"      gboolean  an update is running
 *   "files-done"    guint     files looked at in the running update
 *   "files-total"   guint     files found in the running update
 *   "n-files"       guint     files in the index
 *   "n-chunks"      guint     chunks in the index
 *   "max-file-size" guint64   larger files fail (read-write)
 * Signals:
 *   "file-indexed"  (const char *path, guint n_chunks)
 *   "file-failed"   (const char *path, const GError *error) — the update
 *                   goes on with the next file
 */

AGENT_AVAILABLE_IN_ALL
AgentDocumentIndex  *agent_document_index_new              (const char           *path,
                                                            AgentProvider        *provider,
                                                            const char           *model,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char          *agent_document_index_get_path         (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
AgentProvider       *agent_document_index_get_provider     (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_document_index_get_model        (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
const char * const  *agent_document_index_get_folders      (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_document_index_set_folders      (AgentDocumentIndex   *self,
                                                            const char * const   *folders);
AGENT_AVAILABLE_IN_ALL
guint64              agent_document_index_get_max_file_size (AgentDocumentIndex *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_document_index_set_max_file_size (AgentDocumentIndex *self,
                                                             guint64             max_file_size);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_document_index_get_indexing     (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
guint                agent_document_index_get_files_done   (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
guint                agent_document_index_get_files_total  (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
guint                agent_document_index_get_n_files     (AgentDocumentIndex   *self);
AGENT_AVAILABLE_IN_ALL
guint                agent_document_index_get_n_chunks    (AgentDocumentIndex   *self);

/* Walks the folders: indexes new and changed files (mtime, size or model
 * changed), drops files that are gone or no longer under a folder. */
AGENT_AVAILABLE_IN_ALL
void                 agent_document_index_update_async     (AgentDocumentIndex   *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_document_index_update_finish    (AgentDocumentIndex   *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);

/* The @max_results best chunks for @query, best first: a JSON array of
 * objects {"path", "start", "end", "text", "score"} (start and end: the
 * chunk's bytes in the file). */
AGENT_AVAILABLE_IN_ALL
void                 agent_document_index_search_async     (AgentDocumentIndex   *self,
                                                            const char           *query,
                                                            guint                 max_results,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
JsonNode            *agent_document_index_search_finish    (AgentDocumentIndex   *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;

/* The `search_documents` tool over @index: {"query", "max_results"?} */
AGENT_AVAILABLE_IN_ALL
AgentTool           *agent_search_documents_tool_new       (AgentDocumentIndex   *index) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
