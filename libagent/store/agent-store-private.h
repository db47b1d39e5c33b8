/* agent-store-private.h — what the store, its conversations and its codec share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sqlite3.h>

#include "core/agent-message-tree-private.h"
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
  STMT_DELETE_BRANCH,
  STMT_SET_LEAF,
  STMT_SELECT_LEAF,
  STMT_SET_TURN_METRICS,
  STMT_SET_TITLE,
  STMT_SET_PROVIDER,
  STMT_SET_MODEL,
  STMT_SET_PROFILE,
  STMT_SET_SETTINGS,
  STMT_SET_ERROR,
  STMT_INSERT_ATTACHMENT,
  STMT_INSERT_PART,
  STMT_INSERT_VARIANT,
  N_STATEMENTS
} AgentStoreStatement;

typedef struct _AgentStoreWriter AgentStoreWriter;
typedef struct _AgentStoreBatch AgentStoreBatch;

/* What a conversation's batches share (agent-store-writer.c) */
typedef struct
{
  gatomicrefcount ref_count;
  gint64          id;           /* 0 until its row is inserted (on the writer's thread) */
  GError         *error;        /* the first failure: later batches are not run */
  int             n_unwritten;  /* atomic: batches queued and not yet run */
} AgentStoreTarget;

typedef void (*AgentStoreBatchDone) (AgentStoreBatch *batch,
                                     const GError    *error,
                                     gpointer         user_data);

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
  GMutex           claims_lock;      /* the claims are taken on both threads */
  GHashTable      *claims_wanted;    /* ids this program means to hold */
  GHashTable      *claims_held;      /* ids whose byte is locked */
  AgentStoreWriter *writer;          /* made with the first write; NULL on a writer's own */
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
                                                gboolean            *held,
                                                GError             **error);
void           _agent_store_db_claim_new       (AgentStoreDb        *self,
                                                gint64               id);
void           _agent_store_db_release         (AgentStoreDb        *self,
                                                gint64               id);
void           _agent_store_db_release_after   (AgentStoreDb        *self,
                                                AgentStoreTarget    *target,
                                                gint64               id);
void           _agent_store_db_release_if_unwanted (AgentStoreDb    *self,
                                                gint64               id);
AgentStoreDb  *_agent_store_db_open_writer     (const char          *path,
                                                GError             **error);
AgentStoreDb  *_agent_store_db_open_reader     (const char          *path,
                                                GCancellable        *cancellable,
                                                GError             **error);
void           _agent_store_db_close_reader    (AgentStoreDb        *self);
AgentStoreWriter *_agent_store_db_get_writer   (AgentStoreDb        *self);

/* agent-store-writer.c */
AgentStoreTarget *_agent_store_target_new      (gint64               id);
AgentStoreTarget *_agent_store_target_ref      (AgentStoreTarget    *self);
void           _agent_store_target_unref       (AgentStoreTarget    *self);
AgentStoreBatch *_agent_store_batch_new        (AgentStoreTarget    *target);
void           _agent_store_batch_free         (AgentStoreBatch     *self);
gboolean       _agent_store_batch_is_empty     (AgentStoreBatch     *self);
gint64         _agent_store_batch_get_id       (AgentStoreBatch     *self);
void           _agent_store_batch_add          (AgentStoreBatch     *self,
                                                AgentStoreStatement  statement);
void           _agent_store_batch_int          (AgentStoreBatch     *self,
                                                gint64               number);
void           _agent_store_batch_text         (AgentStoreBatch     *self,
                                                const char          *text,
                                                gssize               length);
void           _agent_store_batch_take_text    (AgentStoreBatch     *self,
                                                char                *text);
void           _agent_store_batch_bytes        (AgentStoreBatch     *self,
                                                GBytes              *bytes);
void           _agent_store_batch_conversation (AgentStoreBatch     *self);
void           _agent_store_batch_message      (AgentStoreBatch     *self);
void           _agent_store_writers_wait_for   (const char          *path);
AgentStoreWriter *_agent_store_writer_new      (AgentStoreDb        *main);
void           _agent_store_writer_free        (AgentStoreWriter    *self);
void           _agent_store_writer_queue       (AgentStoreWriter    *self,
                                                AgentStoreBatch     *batch,
                                                AgentStoreBatchDone  done,
                                                gpointer             done_data,
                                                GDestroyNotify       done_data_destroy);
gboolean       _agent_store_writer_run         (AgentStoreWriter    *self,
                                                AgentStoreBatch     *batch,
                                                GError             **error);
void           _agent_store_writer_wait        (AgentStoreWriter    *self);
void           _agent_store_writer_mark        (AgentStoreWriter    *self,
                                                gboolean             reports,
                                                AgentStoreBatchDone  done,
                                                gpointer             done_data,
                                                GDestroyNotify       done_data_destroy);
guint          _agent_store_writer_get_n_queued (AgentStoreWriter   *self);
void           _agent_store_writer_keep_unreported (AgentStoreWriter *self,
                                                const GError        *error);
void           _agent_store_writer_set_synchronous (AgentStoreWriter *self,
                                                const char          *mode);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStoreBatch, _agent_store_batch_free)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStoreDb, _agent_store_db_unref)

/* agent-store-db.c: a full disk, a file size limit… in words (NULL for
 * the failures SQLite's own message says well) */
char          *_agent_store_describe_failure   (sqlite3             *db,
                                                const char          *path);

/* agent-store-schema.c */
guint          _agent_store_schema_version     (void);
gboolean       _agent_store_schema_check       (sqlite3             *db,
                                                GError             **error);
gboolean       _agent_store_schema_migrate     (sqlite3             *db,
                                                GError             **error);

/* agent-store-codec.c: messages to rows and back, usage and metrics to JSON */
/* @seq: its position column; @parent: its parent's (or AGENT_MESSAGE_TREE_ROOT) */
void           _agent_store_batch_add_message  (AgentStoreBatch     *batch,
                                                guint                seq,
                                                guint                parent,
                                                AgentMessage        *message);
/* Every message of the conversation, the path to its leaf active */
AgentMessageTree *_agent_store_load_tree       (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                GError             **error);
void           _agent_store_batch_add_turn_metrics (AgentStoreBatch *batch,
                                                guint                position,
                                                AgentMetrics        *metrics);
JsonNode      *_agent_store_usage_to_node      (AgentUsage          *usage);
JsonNode      *_agent_store_metrics_to_node    (AgentMetrics        *metrics);
/* What those wrote back (NULL for NULL or what is not an object) */
AgentUsage    *_agent_store_usage_from_node    (JsonNode            *node);
AgentMetrics  *_agent_store_metrics_from_node  (JsonNode            *node);
char          *_agent_store_node_to_text       (JsonNode            *node);
const char    *_agent_store_enum_nick          (GType                type,
                                                int                  value);
GDateTime     *_agent_store_date_time_new      (gint64               usec);
gint64         _agent_store_date_time_to_usec  (GDateTime           *date_time);

/* agent-store-attachments.c: the images and documents of messages */
void           _agent_store_batch_add_parts    (AgentStoreBatch     *batch,
                                                AgentMessage        *message);
gboolean       _agent_store_load_parts         (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                GPtrArray           *messages,
                                                GArray              *ids,
                                                GError             **error);
void           _agent_conversation_queue_variants (AgentConversation *self);
void           _agent_store_export_attachments_json (JsonBuilder    *builder,
                                                     AgentMessage   *message);
void           _agent_store_export_attachments_markdown (GString    *out,
                                                         AgentMessage *message);
gboolean       _agent_store_attachments_size   (AgentStoreDb        *db,
                                                gint64               conversation_id,
                                                guint64             *size,
                                                GError             **error);

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
gboolean       _agent_store_prepare_search     (const char          *text,
                                                char               **query,
                                                GError             **error);
GHashTable    *_agent_store_collect_hits       (AgentStoreDb        *db,
                                                const char          *query,
                                                GError             **error);
GListModel    *_agent_store_search_results     (AgentStore          *self,
                                                const char          *query,
                                                GHashTable          *hits);

/* agent-store.c: for a search, the conversation with @id in the list */
AgentConversation *_agent_store_find           (AgentStore          *self,
                                                gint64               id);
AgentStoreDb  *_agent_store_get_db             (AgentStore          *self);

G_END_DECLS
