/* agent-store-db.c — the SQLite connection a store and its conversations share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "agent-error.h"
#include "store/agent-store-private.h"

/* How long a writer waits for other processes' transactions: as long as
 * they make progress (the database changes), up to BUSY_MAX_US, but at
 * most BUSY_STILL_US while nothing changes (a process that holds the lock
 * and does nothing). A hundred writers of large answers queue for minutes,
 * and each gets its turn. */
#define BUSY_STILL_US  (30 * G_USEC_PER_SEC)
#define BUSY_MAX_US    (10 * 60 * G_USEC_PER_SEC)

static const char * const statement_sql[N_STATEMENTS] = {
  [STMT_INSERT_CONVERSATION] =
    "INSERT INTO conversations (title, created, updated, provider, model, settings) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [STMT_TOUCH_CONVERSATION] =
    "UPDATE conversations SET updated = ?2, title = coalesce (title, ?3) WHERE id = ?1",
  [STMT_INSERT_MESSAGE] =
    "INSERT INTO messages (conversation_id, position, role, state, content, reasoning, "
    "refusal, tool_call_id, tool_name, is_error, finish_reason, response_id, model, created, "
    "usage, metrics, turn_metrics, provider_data) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
  [STMT_INSERT_TOOL_CALL] =
    "INSERT INTO tool_calls (message_id, position, call_id, name, type, arguments, state, "
    "result, is_error, duration, provider_data) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [STMT_SELECT_MESSAGES] =
    "SELECT id, role, state, content, reasoning, refusal, tool_call_id, tool_name, is_error, "
    "finish_reason, response_id, model, created, usage, metrics, turn_metrics, provider_data "
    "FROM messages WHERE conversation_id = ?1 ORDER BY position",
  [STMT_SELECT_TOOL_CALLS] =
    "SELECT t.message_id, t.call_id, t.name, t.type, t.arguments, t.state, t.result, "
    "t.is_error, t.duration, t.provider_data "
    "FROM tool_calls t JOIN messages m ON m.id = t.message_id "
    "WHERE m.conversation_id = ?1 ORDER BY m.position, t.position",
  [STMT_TRUNCATE] =
    "DELETE FROM messages WHERE conversation_id = ?1 AND position >= ?2",
  [STMT_SET_TURN_METRICS] =
    "UPDATE messages SET turn_metrics = ?3 WHERE conversation_id = ?1 AND position = ?2",
};

void
_agent_store_db_set_error (AgentStoreDb  *self,
                           GError       **error)
{
  if ((sqlite3_extended_errcode (self->db) & 0xff) == SQLITE_BUSY)
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                 _("The conversation database %s stayed locked by another program (%s)"),
                 self->path, sqlite3_errmsg (self->db));
  else
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                 _("The conversation database %s failed: %s"),
                 self->path, sqlite3_errmsg (self->db));
}

/* What changes when another process commits: the write-ahead log (and
 * the database, when it is checkpointed) */
static guint64
progress_mark (AgentStoreDb *self)
{
  GStatBuf wal, main_file;
  guint64 mark = 0;

  if (g_stat (self->wal_path, &wal) == 0)
    mark ^= (guint64) wal.st_size * 1000003 ^ (guint64) wal.st_mtim.tv_nsec ^
            (guint64) wal.st_mtim.tv_sec << 20;
  if (g_stat (self->path, &main_file) == 0)
    mark ^= (guint64) main_file.st_size * 7 ^ (guint64) main_file.st_mtim.tv_nsec << 7;
  return mark;
}

/* SQLite asks whether to try again for the lock (@count: how often it
 * asked already) */
static int
busy_cb (void *data,
         int   count)
{
  AgentStoreDb *self = data;
  gint64 now = g_get_monotonic_time ();
  guint64 mark = progress_mark (self);

  if (count == 0 || mark != self->busy_mark)
    {
      if (count == 0)
        self->busy_since = now;
      self->busy_mark = mark;
      self->busy_progress_at = now;
    }

  if (now - self->busy_progress_at > BUSY_STILL_US || now - self->busy_since > BUSY_MAX_US)
    return 0;

  /* Quick at first, for short transactions; then every 20 ms */
  g_usleep (count < 20 ? 1000 : 20000);
  return 1;
}

static void
free_db (AgentStoreDb *self)
{
  for (guint i = 0; i < N_STATEMENTS; i++)
    sqlite3_finalize (self->statements[i]);

  /* Closing the last connection checkpoints the WAL into the database */
  sqlite3_close_v2 (self->db);
  if (self->claims_fd >= 0)
    close (self->claims_fd);
  g_weak_ref_clear (&self->store);
  g_free (self->path);
  g_free (self->wal_path);
  g_free (self);
}

AgentStoreDb *
_agent_store_db_ref (AgentStoreDb *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
_agent_store_db_unref (AgentStoreDb *self)
{
  if (g_atomic_ref_count_dec (&self->ref_count))
    free_db (self);
}

/* Opens (creating it if needed) and migrates the database at @path. */
AgentStoreDb *
_agent_store_db_open (const char  *path,
                      GError     **error)
{
  g_autoptr(AgentStoreDb) self = g_new0 (AgentStoreDb, 1);
  g_autofree char *dir = g_path_get_dirname (path);
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc;
  int fd;

  g_atomic_ref_count_init (&self->ref_count);
  g_weak_ref_init (&self->store, NULL);
  self->path = g_strdup (path);
  self->wal_path = g_strconcat (path, "-wal", NULL);
  self->claims_fd = -1;

  /* Conversations are private: the folder and the files are the user's only */
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The folder of the conversation database %s could not be created: %s"),
                   path, g_strerror (saved_errno));
      return NULL;
    }

  /* Created here so that it is never readable by others, even briefly */
  if ((fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) >= 0)
    close (fd);

  rc = sqlite3_open_v2 (path, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s could not be opened: %s"),
                   path, self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return NULL;
    }

  sqlite3_extended_result_codes (self->db, TRUE);
  sqlite3_busy_handler (self->db, busy_cb, self);

  /* WAL: readers never wait for a writer and see only whole transactions.
   * synchronous=FULL: a committed turn survives a power cut, not only a
   * crash. secure_delete: deleted text is overwritten, not left in free
   * pages. */
  if (!_agent_store_db_exec (self, "PRAGMA journal_mode = WAL", error) ||
      !_agent_store_db_exec (self, "PRAGMA synchronous = FULL", error) ||
      !_agent_store_db_exec (self, "PRAGMA foreign_keys = ON", error) ||
      !_agent_store_db_exec (self, "PRAGMA secure_delete = ON", error) ||
      !_agent_store_schema_migrate (self->db, error))
    return NULL;

  return g_steal_pointer (&self);
}

gboolean
_agent_store_db_exec (AgentStoreDb  *self,
                      const char    *sql,
                      GError       **error)
{
  char *message = NULL;

  if (sqlite3_exec (self->db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
               _("The conversation database %s failed: %s"),
               self->path, message ? message : sqlite3_errmsg (self->db));
  sqlite3_free (message);
  return FALSE;
}

/* The prepared statement, reset and unbound, ready for its parameters. */
sqlite3_stmt *
_agent_store_db_statement (AgentStoreDb         *self,
                           AgentStoreStatement   statement,
                           GError              **error)
{
  sqlite3_stmt **slot = &self->statements[statement];

  if (*slot == NULL)
    {
      if (sqlite3_prepare_v3 (self->db, statement_sql[statement], -1,
                              SQLITE_PREPARE_PERSISTENT, slot, NULL) != SQLITE_OK)
        {
          _agent_store_db_set_error (self, error);
          return NULL;
        }
    }
  else
    {
      sqlite3_reset (*slot);
      sqlite3_clear_bindings (*slot);
    }

  return *slot;
}

/* Steps a statement that returns no rows, and resets it. */
gboolean
_agent_store_db_step_done (AgentStoreDb  *self,
                           sqlite3_stmt  *statement,
                           GError       **error)
{
  int rc = sqlite3_step (statement);

  if (rc != SQLITE_DONE)
    _agent_store_db_set_error (self, error);
  sqlite3_reset (statement);
  return rc == SQLITE_DONE;
}

/* IMMEDIATE: the write lock is taken now (waiting while other processes
 * make progress, see busy_cb()), never half way through the transaction. */
gboolean
_agent_store_db_begin (AgentStoreDb  *self,
                       GError       **error)
{
  return _agent_store_db_exec (self, "BEGIN IMMEDIATE", error);
}

gboolean
_agent_store_db_commit (AgentStoreDb  *self,
                        GError       **error)
{
  if (_agent_store_db_exec (self, "COMMIT", error))
    return TRUE;

  _agent_store_db_rollback (self);
  return FALSE;
}

void
_agent_store_db_rollback (AgentStoreDb *self)
{
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Claims: which program adds to a conversation. A write lock on byte @id
 * of <database>-claims, on our own open file description (F_OFD_SETLK):
 * the kernel lets it go when the process dies, however it dies, and it is
 * ours apart from SQLite's own locks on the database. */
static gboolean
lock_byte (AgentStoreDb  *self,
           gint64         id,
           short          type,
           gboolean      *busy,
           GError       **error)
{
  struct flock lock = { 0 };

  if (self->claims_fd < 0)
    {
      g_autofree char *claims_path = g_strconcat (self->path, "-claims", NULL);

      self->claims_fd = g_open (claims_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      if (self->claims_fd < 0)
        {
          int saved_errno = errno;

          g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                       _("The conversation database %s could not be shared: %s: %s"),
                       self->path, claims_path, g_strerror (saved_errno));
          return FALSE;
        }
    }

  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = id;
  lock.l_len = 1;
  if (fcntl (self->claims_fd, F_OFD_SETLK, &lock) == 0)
    return TRUE;

  if (busy != NULL && (errno == EAGAIN || errno == EACCES))
    *busy = TRUE;
  else
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s could not be shared: %s"),
                   self->path, g_strerror (saved_errno));
    }
  return FALSE;
}

/* Claims conversation @id for this connection, without waiting: FALSE
 * with *@busy set when another holds it, FALSE with @error on failure. */
gboolean
_agent_store_db_claim (AgentStoreDb  *self,
                       gint64         id,
                       gboolean      *busy,
                       GError       **error)
{
  *busy = FALSE;
  return lock_byte (self, id, F_WRLCK, busy, error);
}

void
_agent_store_db_release (AgentStoreDb *self,
                         gint64        id)
{
  if (self->claims_fd >= 0)
    lock_byte (self, id, F_UNLCK, NULL, NULL);
}
