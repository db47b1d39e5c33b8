/* agent-store-db.c — the SQLite connection a store and its conversations share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
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
    "INSERT INTO conversations (title, created, updated, provider, model, settings, profile) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  [STMT_TOUCH_CONVERSATION] =
    "UPDATE conversations SET updated = ?2, title = coalesce (title, ?3), leaf = ?4 WHERE id = ?1",
  [STMT_INSERT_MESSAGE] =
    "INSERT INTO messages (conversation_id, position, role, state, content, reasoning, "
    "refusal, tool_call_id, tool_name, is_error, finish_reason, response_id, model, created, "
    "usage, metrics, turn_metrics, provider_data, parent) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
    "?19)",
  [STMT_INSERT_TOOL_CALL] =
    "INSERT INTO tool_calls (message_id, position, call_id, name, type, arguments, state, "
    "result, is_error, duration, provider_data) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [STMT_SELECT_MESSAGES] =
    "SELECT id, role, state, content, reasoning, refusal, tool_call_id, tool_name, is_error, "
    "finish_reason, response_id, model, created, usage, metrics, turn_metrics, provider_data, "
    "position, parent "
    "FROM messages WHERE conversation_id = ?1 ORDER BY position",
  [STMT_SELECT_TOOL_CALLS] =
    "SELECT t.message_id, t.call_id, t.name, t.type, t.arguments, t.state, t.result, "
    "t.is_error, t.duration, t.provider_data "
    "FROM tool_calls t JOIN messages m ON m.id = t.message_id "
    "WHERE m.conversation_id = ?1 ORDER BY m.position, t.position",
  [STMT_DELETE_BRANCH] =
    "WITH RECURSIVE branch (position) AS (SELECT ?2 UNION ALL "
    "  SELECT m.position FROM messages m JOIN branch b "
    "  ON m.conversation_id = ?1 AND m.parent = b.position) "
    "DELETE FROM messages WHERE conversation_id = ?1 AND position IN branch",
  [STMT_SET_LEAF] = "UPDATE conversations SET leaf = ?2 WHERE id = ?1",
  [STMT_SELECT_LEAF] = "SELECT leaf FROM conversations WHERE id = ?1",
  [STMT_SET_TURN_METRICS] =
    "UPDATE messages SET turn_metrics = ?3 WHERE conversation_id = ?1 AND position = ?2",
  [STMT_SET_TITLE] = "UPDATE conversations SET title = ?2 WHERE id = ?1",
  [STMT_SET_PROVIDER] = "UPDATE conversations SET provider = ?2 WHERE id = ?1",
  [STMT_SET_MODEL] = "UPDATE conversations SET model = ?2 WHERE id = ?1",
  [STMT_SET_PROFILE] = "UPDATE conversations SET profile = ?2 WHERE id = ?1",
  [STMT_SET_SETTINGS] = "UPDATE conversations SET settings = ?2 WHERE id = ?1",
  [STMT_SET_ERROR] =
    "UPDATE messages SET error = ?3 WHERE conversation_id = ?1 AND position = ?2",
  [STMT_INSERT_ATTACHMENT] =
    "INSERT OR IGNORE INTO attachments (sha256, mime_type, size, data) VALUES (?1, ?2, ?3, ?4)",
  [STMT_INSERT_PART] =
    "INSERT INTO message_parts (message_id, position, kind, text_offset, mime_type, name, "
    "sha256, uri) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
  [STMT_INSERT_VARIANT] =
    "INSERT OR IGNORE INTO attachment_variants (sha256, rule, mime_type, width, height, base64) "
    "SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM attachments WHERE sha256 = ?1)",
};

/* Whether @path (the database) or its write-ahead log is at the file size
 * limit of this process, or so near it that the next page cannot go */
static gboolean
at_file_size_limit (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  const char *files[] = { path, wal };
  struct rlimit limit;

  if (getrlimit (RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      GStatBuf info;

      if (g_stat (files[i], &info) == 0 &&
          (guint64) info.st_size + 64 * 1024 > (guint64) limit.rlim_cur)
        return TRUE;
    }
  return FALSE;
}

/* The last failure of @db, in words that say what happened where SQLite's
 * do not: its "disk I/O error" is also a file size limit, its "database or
 * disk is full" a quota. NULL for the other failures.
 *
 * SQLite keeps the errno of a failed write with its file, and gives the
 * connection the errno of the moment it reports the error, which later
 * calls may have changed: a file size limit is also recognized by the
 * files' sizes. */
char *
_agent_store_describe_failure (sqlite3    *db,
                               const char *path)
{
  int code = sqlite3_extended_errcode (db) & 0xff;
  int system_errno = sqlite3_system_errno (db);

  if (code != SQLITE_IOERR && code != SQLITE_FULL && code != SQLITE_CANTOPEN)
    return NULL;

  if (system_errno != ENOSPC && system_errno != EFBIG && at_file_size_limit (path))
    system_errno = EFBIG;

  switch (system_errno)
    {
    case ENOSPC:
      return g_strdup_printf (_("The disk is full: the conversation database %s could not be "
                                "written"), path);
#ifdef EDQUOT
    case EDQUOT:
      return g_strdup_printf (_("The disk quota is used up: the conversation database %s could "
                                "not be written"), path);
#endif
    case EFBIG:
      return g_strdup_printf (_("The conversation database %s could not be written: it reached "
                                "the largest file this program may write (ulimit -f)"), path);
    case EROFS:
      return g_strdup_printf (_("The conversation database %s could not be written: its disk "
                                "is read-only"), path);
    default:
      break;
    }

  if (code == SQLITE_FULL)
    return g_strdup_printf (_("The disk is full: the conversation database %s could not be "
                              "written"), path);
  return NULL;
}

void
_agent_store_db_set_error (AgentStoreDb  *self,
                           GError       **error)
{
  g_autofree char *described = _agent_store_describe_failure (self->db, self->path);

  if (described != NULL)
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_STORAGE, described);
  else if ((sqlite3_extended_errcode (self->db) & 0xff) == SQLITE_BUSY)
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
  /* What was queued is written first */
  g_clear_pointer (&self->writer, _agent_store_writer_free);

  for (guint i = 0; i < N_STATEMENTS; i++)
    sqlite3_finalize (self->statements[i]);

  /* Closing the last connection checkpoints the WAL into the database */
  sqlite3_close_v2 (self->db);
  if (self->claims_fd >= 0)
    close (self->claims_fd);
  g_weak_ref_clear (&self->store);
  g_mutex_clear (&self->claims_lock);
  g_clear_pointer (&self->claims_wanted, g_hash_table_unref);
  g_clear_pointer (&self->claims_held, g_hash_table_unref);
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

static AgentStoreDb *
db_new (const char *path)
{
  AgentStoreDb *self = g_new0 (AgentStoreDb, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_weak_ref_init (&self->store, NULL);
  g_mutex_init (&self->claims_lock);
  self->claims_wanted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->claims_held = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->path = g_strdup (path);
  self->wal_path = g_strconcat (path, "-wal", NULL);
  self->claims_fd = -1;
  return self;
}

static gboolean
connect_db (AgentStoreDb  *self,
         int            flags,
         GError       **error)
{
  int rc = sqlite3_open_v2 (self->path, &self->db, flags | SQLITE_OPEN_NOMUTEX, NULL);

  if (rc != SQLITE_OK)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s could not be opened: %s"),
                   self->path, self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return FALSE;
    }

  sqlite3_extended_result_codes (self->db, TRUE);
  sqlite3_busy_handler (self->db, busy_cb, self);
  return TRUE;
}

/* The connection a store's writer thread commits on, to the file
 * _agent_store_db_open() made: used on that thread only. */
AgentStoreDb *
_agent_store_db_open_writer (const char  *path,
                             GError     **error)
{
  g_autoptr(AgentStoreDb) self = db_new (path);

  if (!connect_db (self, SQLITE_OPEN_READWRITE, error) ||
      !_agent_store_db_exec (self, "PRAGMA synchronous = FULL", error) ||
      !_agent_store_db_exec (self, "PRAGMA foreign_keys = ON", error) ||
      !_agent_store_db_exec (self, "PRAGMA secure_delete = ON", error))
    return NULL;
  return g_steal_pointer (&self);
}

static int
progress_cb (void *data)
{
  return g_cancellable_is_cancelled (data);
}

/* A read-only connection for one read on a worker thread (WAL: it runs
 * beside the writer, and sees whole transactions). Stopped when
 * @cancellable is cancelled: its step fails with SQLITE_INTERRUPT. */
AgentStoreDb *
_agent_store_db_open_reader (const char    *path,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(AgentStoreDb) self = db_new (path);

  if (!connect_db (self, SQLITE_OPEN_READONLY, error))
    return NULL;
  if (cancellable != NULL)
    sqlite3_progress_handler (self->db, 1000, progress_cb, cancellable);
  return g_steal_pointer (&self);
}

void
_agent_store_db_close_reader (AgentStoreDb *self)
{
  sqlite3_progress_handler (self->db, 0, NULL, NULL);
  _agent_store_db_unref (self);
}

AgentStoreWriter *
_agent_store_db_get_writer (AgentStoreDb *self)
{
  if (self->writer == NULL)
    self->writer = _agent_store_writer_new (self);
  return self->writer;
}

static void
ignore_sigxfsz (void)
{
  static gsize once;

  /* A write past the file size limit (ulimit -f) kills the process with
   * SIGXFSZ, by default: an answer already shown would be lost without a
   * word. Ignored, the write fails with EFBIG, which the store reports.
   * An application's own handler is left alone. */
  if (g_once_init_enter (&once))
    {
      struct sigaction action;

      if (sigaction (SIGXFSZ, NULL, &action) == 0 && action.sa_handler == SIG_DFL)
        signal (SIGXFSZ, SIG_IGN);
      g_once_init_leave (&once, 1);
    }
}

/* Opens (creating it if needed) and migrates the database at @path. */
AgentStoreDb *
_agent_store_db_open (const char  *path,
                      GError     **error)
{
  g_autoptr(AgentStoreDb) self = db_new (path);
  g_autofree char *dir = g_path_get_dirname (path);
  int fd;

  ignore_sigxfsz ();

  /* Conversations are private: the folder and the files are the user's only */
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The folder of the conversation database %s could not be created: %s"),
                   path, g_strerror (saved_errno));
      return NULL;
    }

  /* What this process still writes to the file goes in first */
  _agent_store_writers_wait_for (path);

  /* Created here so that it is never readable by others, even briefly */
  if ((fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) >= 0)
    close (fd);

  if (!connect_db (self, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error))
    return NULL;

  /* A file of another program, or of a newer libagent, is refused before
   * anything is written to it: switching it to WAL would change it */
  if (!_agent_store_schema_check (self->db, error))
    return NULL;

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
  g_autofree char *described = NULL;

  if (sqlite3_exec (self->db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;

  if ((described = _agent_store_describe_failure (self->db, self->path)) != NULL)
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_STORAGE, described);
  else
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
 * with *@busy set when another holds it, FALSE with @error on failure.
 * *@held says whether it was ours all along (released, but the writer
 * had not let go yet): then nobody else wrote meanwhile. */
gboolean
_agent_store_db_claim (AgentStoreDb  *self,
                       gint64         id,
                       gboolean      *busy,
                       gboolean      *held,
                       GError       **error)
{
  gboolean ok = TRUE;

  *busy = FALSE;
  g_mutex_lock (&self->claims_lock);
  *held = g_hash_table_contains (self->claims_held, &id);
  if (!*held && (ok = lock_byte (self, id, F_WRLCK, busy, error)))
    g_hash_table_add (self->claims_held, g_memdup2 (&id, sizeof id));
  if (ok)
    g_hash_table_add (self->claims_wanted, g_memdup2 (&id, sizeof id));
  g_mutex_unlock (&self->claims_lock);
  return ok;
}

/* The claim the writer takes on a conversation it gives an id */
void
_agent_store_db_claim_new (AgentStoreDb *self,
                           gint64        id)
{
  gboolean busy, held;

  /* Nobody else knows the id yet: this cannot be refused */
  _agent_store_db_claim (self, id, &busy, &held, NULL);
}

static void
unlock_claim (AgentStoreDb *self,
              gint64        id)
{
  if (g_hash_table_remove (self->claims_held, &id))
    lock_byte (self, id, F_UNLCK, NULL, NULL);
}

/* Lets go of conversation @id now */
void
_agent_store_db_release (AgentStoreDb *self,
                         gint64        id)
{
  g_mutex_lock (&self->claims_lock);
  g_hash_table_remove (self->claims_wanted, &id);
  unlock_claim (self, id);
  g_mutex_unlock (&self->claims_lock);
}

/* Lets go of conversation @id now, or, while writes of it (@target)
 * wait, once the last is in (the writer's thread calls
 * _agent_store_db_release_if_unwanted() then) */
void
_agent_store_db_release_after (AgentStoreDb     *self,
                               AgentStoreTarget *target,
                               gint64            id)
{
  g_mutex_lock (&self->claims_lock);
  g_hash_table_remove (self->claims_wanted, &id);
  if (g_atomic_int_get (&target->n_unwritten) == 0)
    unlock_claim (self, id);
  g_mutex_unlock (&self->claims_lock);
}

/* On the writer's thread: unless it was claimed again meanwhile */
void
_agent_store_db_release_if_unwanted (AgentStoreDb *self,
                                     gint64        id)
{
  g_mutex_lock (&self->claims_lock);
  if (!g_hash_table_contains (self->claims_wanted, &id))
    unlock_claim (self, id);
  g_mutex_unlock (&self->claims_lock);
}
