/* agent-store-import-private.h — what agent-store-import.c reads of a
 * file, shared with agent-store-import-tree.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "store/agent-store-private.h"

G_BEGIN_DECLS

typedef struct
{
  GBytes     *json;
  char       *title;
  gint64      created;      /* 0: not said */
  char       *provider;
  char       *model;
  char       *profile;
  JsonNode   *settings;
  GPtrArray  *messages;     /* of AgentMessage: "messages", then "branches" */
  guint       n_path;       /* how many are "messages" */
  GArray     *ids;          /* gint64 each: its "id", or -1 */
  GArray     *parents;      /* gint64 each: its "parent", or -1 for none */
  gint64      leaf;         /* -1: not said */
  GHashTable *errors;       /* index in messages → GError, or NULL; after
                             * build_tree(), seq → GError */
  GArray     *seq_parents;  /* after build_tree(): guint each, by seq */
  guint       leaf_seq;
} AgentStoreImport;

/* AGENT_ERROR_INVALID_ARGUMENT: "@where: …"; FALSE */
gboolean _agent_store_import_invalid    (GError          **error,
                                         const char       *where,
                                         const char       *format,
                                         ...) G_GNUC_PRINTF (3, 4);
/* Where message @index of @import is, for an error: "message 3",
 * "“branches”, message 2" */
char    *_agent_store_import_where      (AgentStoreImport *import,
                                         guint             index);
/* Checks the tree the messages make (ids, parents, leaf) and numbers
 * them: @import's messages and errors by seq, its seq_parents and
 * leaf_seq. A file without ids is its one branch. */
gboolean _agent_store_import_build_tree (AgentStoreImport *import,
                                         GError          **error);

G_END_DECLS
