/* agent-store.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-conversation-private.h"
#include "agent-error.h"
#include "store/agent-store-private.h"

/**
 * AgentStore:
 *
 * The conversations a user keeps, in an SQLite database: a list of
 * [class@Agent.Conversation], newest first, with full-text search over
 * their messages.
 *
 * The database is in WAL mode (readers, in this process or another, never
 * wait for a writer and see only whole transactions), with foreign keys on
 * and `synchronous=FULL`, so that what was committed survives a crash or a
 * power cut. Its schema has a version; opening an older database migrates
 * it, one transaction per step, and a newer one, or a database of another
 * program, is refused before anything is written to it.
 * [The conversation store](store.html) shows it from C, Python and
 * JavaScript, with the schema and what a crash can lose.
 *
 * A write that fails says why, naming the file: a full disk, a used-up
 * quota, a file size limit (`ulimit -f`). Opening a store ignores
 * `SIGXFSZ` when the application leaves it to its default, which would end
 * the program at the write that passes such a limit, before any error
 * could be told.
 *
 * API keys are never kept here: see [func@Agent.secret_store_api_key_async].
 *
 * A store, and the conversations it gives out, are used from one thread.
 * Their writes are committed on a thread of the store's own, in the order
 * they were made (see [method@Agent.Store.flush_async] and
 * [signal@Agent.Conversation::write-failed]), and the slow reads have
 * asynchronous variants that run on threads of their own
 * ([func@Agent.Store.new_async], [method@Agent.Store.search_async],
 * [method@Agent.Conversation.load_async]). Several processes may open the
 * same file.
 *
 * Since: 0.1
 */

struct _AgentStore
{
  GObject       parent_instance;
  char         *path;
  AgentStoreDb *db;
  GListStore   *conversations;  /* newest first */
  GHashTable   *trash;          /* id → AgentConversation, deleted but not purged */
};

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void initable_iface_init (GInitableIface *iface);

/* GAsyncInitable: its default runs the GInitable's init on a thread (the
 * store is no one else's yet) */
G_DEFINE_FINAL_TYPE_WITH_CODE (AgentStore, agent_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, initable_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_ASYNC_INITABLE, NULL))

/* How long a deleted conversation stays in the trash when a store is
 * opened: longer than any Undo lasts, so that opening the same file
 * elsewhere (agent-cli, while the app shows its Undo toast) does not take
 * the conversation away from under the Undo. */
#define TRASH_GRACE_USEC (10 * 60 * G_USEC_PER_SEC)

/* Deletes for good what was deleted before @deleted_before (µs since the
 * epoch), and then its traces: the full-text index is rewritten without
 * it, and the log is emptied into the file. */
static gboolean
purge (AgentStoreDb  *db,
       gint64         deleted_before,
       GError       **error)
{
  g_autofree char *sql = g_strdup_printf ("DELETE FROM conversations WHERE deleted IS NOT NULL "
                                          "AND deleted < %" G_GINT64_FORMAT, deleted_before);

  if (!_agent_store_db_exec (db, sql, error))
    return FALSE;

  if (sqlite3_changes (db->db) > 0 &&
      (!_agent_store_db_exec (db, "INSERT INTO messages_fts (messages_fts) VALUES ('optimize');"
                                  "INSERT INTO titles_fts (titles_fts) VALUES ('optimize')",
                              error) ||
       !_agent_store_db_exec (db, "PRAGMA wal_checkpoint (TRUNCATE)", error)))
    return FALSE;

  return TRUE;
}

static gboolean
load_list (AgentStore  *self,
           GError     **error)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db->db,
                          "SELECT id, title, created, updated, provider, model, settings, profile "
                          "FROM conversations WHERE deleted IS NULL ORDER BY updated DESC, id DESC",
                          -1, &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (self->db, error);
      return FALSE;
    }

  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    g_ptr_array_add (items, _agent_conversation_new_from_row (self->db, statement));
  sqlite3_finalize (statement);

  if (rc != SQLITE_DONE)
    {
      _agent_store_db_set_error (self->db, error);
      return FALSE;
    }

  g_list_store_splice (self->conversations, 0, 0, items->pdata, items->len);
  return TRUE;
}

static gboolean
agent_store_initable_init (GInitable     *initable,
                           GCancellable  *cancellable,
                           GError       **error)
{
  AgentStore *self = AGENT_STORE (initable);
  gint64 n_deleted = 0;
  gint64 deleted_before = g_get_real_time () - TRASH_GRACE_USEC;
  sqlite3_stmt *statement = NULL;

  if (self->db != NULL)
    return TRUE;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (self->path == NULL)
    self->path = agent_store_dup_default_path ();

  if (!(self->db = _agent_store_db_open (self->path, error)))
    return FALSE;
  g_weak_ref_set (&self->db->store, self);

  /* What was deleted a while ago and not restored */
  if (sqlite3_prepare_v2 (self->db->db,
                          "SELECT count(*) FROM conversations WHERE deleted IS NOT NULL "
                          "AND deleted < ?",
                          -1, &statement, NULL) == SQLITE_OK &&
      sqlite3_bind_int64 (statement, 1, deleted_before) == SQLITE_OK &&
      sqlite3_step (statement) == SQLITE_ROW)
    n_deleted = sqlite3_column_int64 (statement, 0);
  sqlite3_finalize (statement);

  if ((n_deleted > 0 && !purge (self->db, deleted_before, error)) || !load_list (self, error))
    {
      g_clear_pointer (&self->db, _agent_store_db_unref);
      return FALSE;
    }

  return TRUE;
}

static void
initable_iface_init (GInitableIface *iface)
{
  iface->init = agent_store_initable_init;
}

static void
agent_store_dispose (GObject *object)
{
  AgentStore *self = (AgentStore *)object;

  g_list_store_remove_all (self->conversations);
  g_hash_table_remove_all (self->trash);

  G_OBJECT_CLASS (agent_store_parent_class)->dispose (object);
}

static void
agent_store_finalize (GObject *object)
{
  AgentStore *self = (AgentStore *)object;

  g_clear_object (&self->conversations);
  g_clear_pointer (&self->trash, g_hash_table_unref);
  g_clear_pointer (&self->db, _agent_store_db_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (agent_store_parent_class)->finalize (object);
}

static void
agent_store_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AgentStore *self = AGENT_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_store_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  AgentStore *self = AGENT_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_store_class_init (AgentStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_store_dispose;
  object_class->finalize = agent_store_finalize;
  object_class->get_property = agent_store_get_property;
  object_class->set_property = agent_store_set_property;

  /**
   * AgentStore:path:
   *
   * The database file; %NULL when constructing for
   * [func@Agent.Store.dup_default_path].
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_store_init (AgentStore *self)
{
  self->conversations = g_list_store_new (AGENT_TYPE_CONVERSATION);
  self->trash = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_object_unref);
}

/**
 * agent_store_new:
 * @path: (nullable) (type filename): the database file, created if needed;
 *   %NULL for [func@Agent.Store.dup_default_path]
 * @error: return location for a [struct@GLib.Error]
 *
 * Opens a store of conversations, creating the file (readable by its owner
 * only) or bringing its schema up to date as needed.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 *   (%AGENT_ERROR_STORAGE)
 *
 * Since: 0.1
 */
AgentStore *
agent_store_new (const char  *path,
                 GError     **error)
{
  return g_initable_new (AGENT_TYPE_STORE, NULL, error, "path", path, NULL);
}

/**
 * agent_store_dup_default_path:
 *
 * Where agent-chat and agent-cli keep conversations:
 * `$XDG_DATA_HOME/agent-chat/conversations.db`.
 *
 * Returns: (transfer full) (type filename): the path
 *
 * Since: 0.1
 */
char *
agent_store_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "agent-chat", "conversations.db", NULL);
}

/**
 * agent_store_get_path:
 * @self: a [class@Agent.Store]
 *
 * Gets the database file the store reads and writes: the one it was opened
 * with, or [func@Agent.Store.dup_default_path]. [property@Agent.Store:path].
 *
 * Returns: (type filename) (transfer none): the path, owned by the store
 *
 * Since: 0.1
 */
const char *
agent_store_get_path (AgentStore *self)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  return self->path;
}

/**
 * agent_store_list_conversations:
 * @self: a [class@Agent.Store]
 *
 * Gets the conversations, newest first (by the time of their last
 * change). The list follows the store: a conversation moves to the top
 * when a message is written to it, appears when its first message is
 * written, and goes when it is deleted.
 *
 * Returns: (transfer full): a list of [class@Agent.Conversation]
 *
 * Since: 0.1
 */
GListModel *
agent_store_list_conversations (AgentStore *self)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  return g_object_ref (G_LIST_MODEL (self->conversations));
}

/**
 * agent_store_create_conversation:
 * @self: a [class@Agent.Store]
 *
 * Creates an empty conversation. Nothing is written until its first
 * message: then it gets an id and appears in
 * [method@Agent.Store.list_conversations].
 *
 * Returns: (transfer full): a new [class@Agent.Conversation]
 *
 * Since: 0.1
 */
AgentConversation *
agent_store_create_conversation (AgentStore *self)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  return _agent_conversation_new (self->db);
}

AgentConversation *
_agent_store_find (AgentStore *self,
                   gint64      id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->conversations));

  for (guint i = 0; i < n; i++)
    {
      AgentConversation *conversation = g_list_model_get_item (G_LIST_MODEL (self->conversations),
                                                               i);

      g_object_unref (conversation);  /* the list keeps it */
      if (agent_conversation_get_id (conversation) == id)
        return conversation;
    }
  return NULL;
}

/**
 * agent_store_lookup_conversation:
 * @self: a [class@Agent.Store]
 * @id: a conversation's identifier ([property@Agent.Conversation:id])
 *
 * Finds a conversation of the store's list by its identifier, as agent-cli's
 * `--conversation` does. Its messages are read when first used.
 *
 * Returns: (transfer full) (nullable): a new reference to the conversation,
 *   or %NULL if the store has none with @id (or it was deleted)
 *
 * Since: 0.1
 */
AgentConversation *
agent_store_lookup_conversation (AgentStore *self,
                                 gint64      id)
{
  AgentConversation *conversation;

  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);

  conversation = _agent_store_find (self, id);
  return conversation ? g_object_ref (conversation) : NULL;
}

AgentStoreDb *
_agent_store_get_db (AgentStore *self)
{
  return self->db;
}

/* A conversation was written: it goes first in the list. */
void
_agent_store_db_changed (AgentStoreDb      *db,
                         AgentConversation *conversation)
{
  g_autoptr(AgentStore) self = g_weak_ref_get (&db->store);
  gint64 id = agent_conversation_get_id (conversation);
  guint position;

  if (self == NULL || g_hash_table_contains (self->trash, &id))
    return;

  if (g_list_store_find (self->conversations, conversation, &position))
    {
      if (position == 0)
        return;
      g_list_store_remove (self->conversations, position);
    }
  g_list_store_insert (self->conversations, 0, conversation);
}

static gboolean
set_deleted (AgentStore         *self,
             AgentConversation  *conversation,
             gint64              deleted,
             GError            **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db->db, "UPDATE conversations SET deleted = ?2 WHERE id = ?1",
                          -1, &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (self->db, error);
      return FALSE;
    }
  sqlite3_bind_int64 (statement, 1, agent_conversation_get_id (conversation));
  if (deleted != 0)
    sqlite3_bind_int64 (statement, 2, deleted);
  rc = sqlite3_step (statement);
  sqlite3_finalize (statement);

  if (rc != SQLITE_DONE)
    {
      _agent_store_db_set_error (self->db, error);
      return FALSE;
    }
  if (sqlite3_changes (self->db->db) == 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation is no longer in the database %s"), self->db->path);
      return FALSE;
    }
  return TRUE;
}

/**
 * agent_store_delete_conversation:
 * @self: a [class@Agent.Store]
 * @conversation: one of its conversations
 * @error: return location for a [struct@GLib.Error]
 *
 * Deletes a conversation: it leaves the list (and searches) at once (a new
 * one whose first write is still queued waits for it), and
 * can be brought back with [method@Agent.Store.restore_conversation] —
 * an "Undo" — until [method@Agent.Store.purge_deleted] deletes it for
 * good, or a store is opened on the same file more than ten minutes
 * later.
 *
 * Returns: %TRUE if the conversation was deleted
 *
 * Since: 0.1
 */
gboolean
agent_store_delete_conversation (AgentStore         *self,
                                 AgentConversation  *conversation,
                                 GError            **error)
{
  gint64 id;
  guint position;

  g_return_val_if_fail (AGENT_IS_STORE (self), FALSE);
  g_return_val_if_fail (AGENT_IS_CONVERSATION (conversation), FALSE);

  /* Its first write still queued: it is deleted once it is in */
  if (conversation->id == 0 && conversation->row_queued)
    {
      _agent_store_writer_wait (_agent_store_db_get_writer (self->db));
      if (conversation->target->id != 0)
        conversation->id = conversation->target->id;
    }

  id = agent_conversation_get_id (conversation);
  if (id == 0)
    {
      /* Never written: there is nothing to delete, and nothing will be */
      conversation->purged = TRUE;
      return TRUE;
    }

  if (!set_deleted (self, conversation, g_get_real_time (), error))
    return FALSE;

  g_hash_table_insert (self->trash, &conversation->id, g_object_ref (conversation));
  if (g_list_store_find (self->conversations, conversation, &position))
    g_list_store_remove (self->conversations, position);
  return TRUE;
}

/**
 * agent_store_restore_conversation:
 * @self: a [class@Agent.Store]
 * @conversation: a conversation deleted with
 *   [method@Agent.Store.delete_conversation]
 * @error: return location for a [struct@GLib.Error]
 *
 * Brings a deleted conversation back to the list, in its place.
 *
 * Returns: %TRUE if it was restored; %FALSE if it was not deleted, or was
 *   deleted for good
 *
 * Since: 0.1
 */
gboolean
agent_store_restore_conversation (AgentStore         *self,
                                  AgentConversation  *conversation,
                                  GError            **error)
{
  gint64 id;
  guint n, position;

  g_return_val_if_fail (AGENT_IS_STORE (self), FALSE);
  g_return_val_if_fail (AGENT_IS_CONVERSATION (conversation), FALSE);

  id = agent_conversation_get_id (conversation);
  if (!g_hash_table_contains (self->trash, &id))
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The conversation is not among the deleted ones"));
      return FALSE;
    }

  if (!set_deleted (self, conversation, 0, error))
    return FALSE;

  /* Back in its place, by the time of its last change */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->conversations));
  for (position = 0; position < n; position++)
    {
      g_autoptr(AgentConversation) other = g_list_model_get_item (G_LIST_MODEL (self->conversations),
                                                                  position);

      if (_agent_conversation_get_updated_usec (other) < conversation->updated)
        break;
    }
  g_list_store_insert (self->conversations, position, conversation);
  g_hash_table_remove (self->trash, &id);
  return TRUE;
}

/**
 * agent_store_purge_deleted:
 * @self: a [class@Agent.Store]
 * @error: return location for a [struct@GLib.Error]
 *
 * Deletes for good the conversations deleted with
 * [method@Agent.Store.delete_conversation], with their messages and their
 * traces in the search index and the write-ahead log. Call it when the
 * chance to undo has passed.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
agent_store_purge_deleted (AgentStore  *self,
                           GError     **error)
{
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (AGENT_IS_STORE (self), FALSE);

  /* What was queued for them goes in first, and then goes */
  if (self->db->writer != NULL)
    _agent_store_writer_wait (self->db->writer);

  if (!purge (self->db, G_MAXINT64, error))
    return FALSE;

  g_hash_table_iter_init (&iter, self->trash);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    AGENT_CONVERSATION (value)->purged = TRUE;
  g_hash_table_remove_all (self->trash);
  return TRUE;
}

static gboolean
check_pragma (AgentStoreDb  *db,
              const char    *sql,
              const char    *expected,
              GError       **error)
{
  sqlite3_stmt *statement = NULL;
  g_autofree char *result = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (db, error);
      return FALSE;
    }
  rc = sqlite3_step (statement);
  if (rc == SQLITE_ROW)
    result = g_strdup ((const char *) sqlite3_column_text (statement, 0));
  sqlite3_finalize (statement);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _agent_store_db_set_error (db, error);
      return FALSE;
    }
  if (g_strcmp0 (result, expected) != 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s is damaged: %s"),
                   db->path, result ? result : _("a check failed"));
      return FALSE;
    }
  return TRUE;
}

/**
 * agent_store_check:
 * @self: a [class@Agent.Store]
 * @error: return location for a [struct@GLib.Error]
 *
 * Checks the database: SQLite's `integrity_check`, the foreign keys (no
 * message without its conversation, no tool call without its message) and
 * the search index.
 *
 * Returns: %TRUE if the database is sound
 *
 * Since: 0.1
 */
gboolean
agent_store_check (AgentStore  *self,
                   GError     **error)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), FALSE);

  return check_pragma (self->db, "PRAGMA integrity_check", "ok", error) &&
         check_pragma (self->db, "PRAGMA foreign_key_check", NULL, error) &&
         _agent_store_db_exec (self->db,
                               "INSERT INTO messages_fts (messages_fts) "
                               "VALUES ('integrity-check');"
                               "INSERT INTO titles_fts (titles_fts) VALUES ('integrity-check')",
                               error);
}
