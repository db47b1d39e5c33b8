/* agent-store-private.h — what the store, its conversations and its codec share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sqlite3.h>

#include "store/agent-conversation.h"
#include "store/agent-store.h"
#include "store/agent-search-result.h"

G_BEGIN_DECLS

/* The statements a store prepares once and keeps. */
typedef enum
{
  STMT_INSERT_CONVERSATION,
  STMT_TOUCH_CONVERSATION,
  STMT_INSERT_MESSAGE,
  STMT_INSERT_TOOL_CALL,
  STMT_SELECT_MESSAGES,
  STMT_SELECT_TOOL_CALLS,
  STMT_TRUNCATE,
  STMT_SET_TURN_METRICS,
  N_STATEMENTS
} AgentStoreStatement;

/* The open database: shared by the store and every conversation it gave
 * out, so that a conversation outlives the AgentStore object that made it.
 * The store is reached through a weak reference (to keep its list in
 * order); nothing here refers to a conversation. One thread at a time. */
typedef struct
{
  gatomicrefcount  ref_count;
  sqlite3         *db;
  char            *path;
  char            *wal_path;
  GWeakRef         store;
  sqlite3_stmt    *statements[N_STATEMENTS];
  int              claims_fd;        /* <path>-claims, opened with the first claim */
  /* While SQLite waits for another process's lock (busy_cb()) */
  gint64           busy_since;
  gint64           busy_progress_at;
  guint64          busy_mark;
} AgentStoreDb;

AgentStoreDb  *_agent_store_db_open            (const char          *path,
                                                GError             **error);
AgentStoreDb  *_agent_store_db_ref             (AgentStoreDb        *self);
void           _agent_store_db_unref           (AgentStoreDb        *self);
sqlite3_stmt  *_agent_store_db_statement       (AgentStoreDb        *self,
                                                AgentStoreStatement  statement,
                                                GError             **error);
gboolean       _agent_store_db_exec            (AgentStoreDb        *self,
                                                const char          *sql,
                                                GError             **error);
gboolean       _agent_store_db_begin           (AgentStoreDb        *self,
                                                GError             **error);
gboolean       _agent_store_db_commit          (AgentStoreDb        *self,
                                                GError             **error);
void           _agent_store_db_rollback        (AgentStoreDb        *self);
gboolean       _agent_store_db_step_done       (AgentStoreDb        *self,
                                                sqlite3_stmt        *statement,
                                                GError             **error);
void           _agent_store_db_set_error       (AgentStoreDb        *self,
                                                GError             **error);
void           _agent_store_db_changed         (AgentStoreDb        *self,
                                                AgentConversation   *conversation);
gboolean       _agent_store_db_claim           (AgentStoreDb        *self,
                                                gint64               id,
                                                gboolean            *busy,
                                                GError             **error);
void           _agent_store_db_release         (AgentStoreDb        *self,
                                                gint64               id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStoreDb, _agent_store_db_unref)

/* agent-store-schema.c */
guint          _agent_store_schema_version     (void);
gboolean       _agent_store_schema_migrate     (sqlite3             *db,
                                                GError             **error);

/* agent-store-codec.c: messages to rows and back, usage and metrics to JSON */
gboolean       _agent_store_insert_message     (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                guint                position,
                                                AgentMessage        *message,
                                                GError             **error);
GPtrArray     *_agent_store_load_messages      (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                GError             **error);
gboolean       _agent_store_set_turn_metrics   (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                guint                position,
                                                AgentMetrics        *metrics,
                                                GError             **error);
JsonNode      *_agent_store_usage_to_node      (AgentUsage          *usage);
JsonNode      *_agent_store_metrics_to_node    (AgentMetrics        *metrics);
char          *_agent_store_node_to_text       (JsonNode            *node);
const char    *_agent_store_enum_nick          (GType                type,
                                                int                  value);
GDateTime     *_agent_store_date_time_new      (gint64               usec);
gint64         _agent_store_date_time_to_usec  (GDateTime           *date_time);

/* agent-conversation.c */
AgentConversation *_agent_conversation_new     (AgentStoreDb        *db);
AgentConversation *_agent_conversation_new_from_row (AgentStoreDb   *db,
                                                sqlite3_stmt        *row);
gint64         _agent_conversation_get_updated_usec (AgentConversation *self);
char          *_agent_conversation_derive_title (const char         *text);

/* agent-store-search.c */
AgentSearchResult *_agent_search_result_new    (AgentConversation   *conversation,
                                                AgentStoreDb        *db,
                                                const char          *query,
                                                int                  position,
                                                gint64               rowid);
char          *_agent_store_search_query       (const char          *text);

/* agent-store.c: for a search, the conversation with @id in the list */
AgentConversation *_agent_store_find           (AgentStore          *self,
                                                gint64               id);
AgentStoreDb  *_agent_store_get_db             (AgentStore          *self);

G_END_DECLS
