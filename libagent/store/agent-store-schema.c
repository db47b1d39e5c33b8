/* agent-store-schema.c — the database schema and its migrations
 *
 * PRAGMA user_version holds the version of the schema; each migration takes
 * a database from one version to the next in its own transaction, so a
 * database is always at one version or the next, never in between. A
 * database of a newer version than this library knows is refused, never
 * changed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "store/agent-store-private.h"

/* "agnt": marks a database as ours, so that another file is never migrated */
#define APPLICATION_ID 0x61676e74

/* 1: the first schema — conversations, their messages in order, and the
 *    tool calls of each message. Times are µs since 1970 (UTC); JSON is
 *    kept as text, as json-glib wrote it. */
static const char migration_1[] =
  "CREATE TABLE conversations ("
  "  id       INTEGER PRIMARY KEY,"
  "  title    TEXT,"
  "  created  INTEGER NOT NULL,"
  "  updated  INTEGER NOT NULL,"
  "  provider TEXT,"
  "  model    TEXT,"
  "  settings TEXT"
  ");"
  "CREATE INDEX conversations_by_update ON conversations (updated);"
  "CREATE TABLE messages ("
  "  id              INTEGER PRIMARY KEY,"
  "  conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
  "  position        INTEGER NOT NULL,"
  "  role            TEXT NOT NULL,"
  "  state           TEXT NOT NULL,"
  "  content         TEXT,"
  "  reasoning       TEXT,"
  "  refusal         TEXT,"
  "  tool_call_id    TEXT,"
  "  tool_name       TEXT,"
  "  is_error        INTEGER NOT NULL DEFAULT 0,"
  "  finish_reason   TEXT,"
  "  response_id     TEXT,"
  "  model           TEXT,"
  "  created         INTEGER NOT NULL,"
  "  usage           TEXT,"
  "  metrics         TEXT,"
  "  turn_metrics    TEXT,"
  "  provider_data   TEXT,"
  "  UNIQUE (conversation_id, position)"
  ");"
  "CREATE TABLE tool_calls ("
  "  message_id    INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,"
  "  position      INTEGER NOT NULL,"
  "  call_id       TEXT,"
  "  name          TEXT NOT NULL,"
  "  type          TEXT,"
  "  arguments     TEXT NOT NULL,"
  "  state         TEXT NOT NULL,"
  "  result        TEXT,"
  "  is_error      INTEGER NOT NULL DEFAULT 0,"
  "  duration      INTEGER NOT NULL DEFAULT -1,"
  "  provider_data TEXT,"
  "  PRIMARY KEY (message_id, position)"
  ") WITHOUT ROWID;";

/* 2: full-text search over the messages' text and the titles, kept up to
 *    date by triggers, and filled from what version 1 stored. */
static const char migration_2[] =
  "CREATE VIRTUAL TABLE messages_fts USING fts5 ("
  "  content, content='messages', content_rowid='id',"
  "  tokenize='unicode61 remove_diacritics 2');"
  "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN"
  "  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);"
  "END;"
  "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN"
  "  INSERT INTO messages_fts (messages_fts, rowid, content)"
  "    VALUES ('delete', old.id, old.content);"
  "END;"
  "CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN"
  "  INSERT INTO messages_fts (messages_fts, rowid, content)"
  "    VALUES ('delete', old.id, old.content);"
  "  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);"
  "END;"
  "INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');"
  "CREATE VIRTUAL TABLE titles_fts USING fts5 ("
  "  title, content='conversations', content_rowid='id',"
  "  tokenize='unicode61 remove_diacritics 2');"
  "CREATE TRIGGER titles_fts_insert AFTER INSERT ON conversations BEGIN"
  "  INSERT INTO titles_fts (rowid, title) VALUES (new.id, new.title);"
  "END;"
  "CREATE TRIGGER titles_fts_delete AFTER DELETE ON conversations BEGIN"
  "  INSERT INTO titles_fts (titles_fts, rowid, title) VALUES ('delete', old.id, old.title);"
  "END;"
  "CREATE TRIGGER titles_fts_update AFTER UPDATE OF title ON conversations BEGIN"
  "  INSERT INTO titles_fts (titles_fts, rowid, title) VALUES ('delete', old.id, old.title);"
  "  INSERT INTO titles_fts (rowid, title) VALUES (new.id, new.title);"
  "END;"
  "INSERT INTO titles_fts (titles_fts) VALUES ('rebuild');";

/* 3: deleting moves a conversation to the trash (µs when it was deleted),
 *    from where it can be restored until the trash is purged. */
static const char migration_3[] =
  "ALTER TABLE conversations ADD COLUMN deleted INTEGER;";

/* 4: a failed turn's error, kept with the message the turn ended with
 *    (a JSON object: domain, code, message). */
static const char migration_4[] =
  "ALTER TABLE messages ADD COLUMN error TEXT;";

/* 5: the images and documents of messages. Their bytes are kept once
 *    (content-addressed by SHA-256), however many messages carry them;
 *    message_parts says which message carries which, in order, at which
 *    offset of its content. An attachment goes when the last part that
 *    refers to it does (with its message, its conversation). */
static const char migration_5[] =
  "CREATE TABLE attachments ("
  "  sha256    TEXT PRIMARY KEY,"
  "  mime_type TEXT NOT NULL,"
  "  size      INTEGER NOT NULL,"
  "  data      BLOB NOT NULL"
  ") WITHOUT ROWID;"
  "CREATE TABLE message_parts ("
  "  message_id  INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,"
  "  position    INTEGER NOT NULL,"
  "  kind        TEXT NOT NULL,"
  "  text_offset INTEGER NOT NULL,"
  "  mime_type   TEXT NOT NULL,"
  "  name        TEXT,"
  "  sha256      TEXT REFERENCES attachments (sha256),"
  "  uri         TEXT,"
  "  PRIMARY KEY (message_id, position),"
  "  CHECK ((sha256 IS NULL) <> (uri IS NULL))"
  ") WITHOUT ROWID;"
  "CREATE INDEX message_parts_by_attachment ON message_parts (sha256);"
  "CREATE TRIGGER attachments_collect AFTER DELETE ON message_parts "
  "  WHEN old.sha256 IS NOT NULL BEGIN"
  "  DELETE FROM attachments WHERE sha256 = old.sha256 AND NOT EXISTS"
  "    (SELECT 1 FROM message_parts WHERE sha256 = old.sha256);"
  "END;";

/* 6: what a provider's rule sends of an image (scaled down to the size
 *    its API uses), kept so that it is made once, not after every restart:
 *    in base64, as the request carries it. A cache: it goes with the
 *    attachment. */
static const char migration_6[] =
  "CREATE TABLE attachment_variants ("
  "  sha256    TEXT NOT NULL REFERENCES attachments (sha256) ON DELETE CASCADE,"
  "  rule      TEXT NOT NULL,"
  "  mime_type TEXT NOT NULL,"
  "  width     INTEGER NOT NULL,"
  "  height    INTEGER NOT NULL,"
  "  base64    TEXT NOT NULL,"
  "  PRIMARY KEY (sha256, rule)"
  ") WITHOUT ROWID;";

/* 7: conversations are trees: regenerating an answer or editing a
 *    question adds a sibling, and the old one stays. `position` numbers a
 *    conversation's messages in the order they came (no longer their place
 *    in a list); `parent` is the position of the message a message follows
 *    (NULL for a first message), `leaf` the position of the last message
 *    of the conversation's active branch (NULL: its newest message). The
 *    messages of older versions become one branch, in order, ending at the
 *    last. */
static const char migration_7[] =
  "ALTER TABLE messages ADD COLUMN parent INTEGER;"
  "UPDATE messages SET parent = (SELECT max (p.position) FROM messages p"
  "  WHERE p.conversation_id = messages.conversation_id AND p.position < messages.position);"
  "CREATE INDEX messages_by_parent ON messages (conversation_id, parent);"
  "ALTER TABLE conversations ADD COLUMN leaf INTEGER;"
  "UPDATE conversations SET leaf = "
  "  (SELECT max (position) FROM messages WHERE conversation_id = conversations.id);";

/* 8: the profile a conversation is held with (its name in the profiles
 *    file agent-chat and agent-cli share); older conversations have none. */
static const char migration_8[] =
  "ALTER TABLE conversations ADD COLUMN profile TEXT;";

static const char * const migrations[] = {
  migration_1,
  migration_2,
  migration_3,
  migration_4,
  migration_5,
  migration_6,
  migration_7,
  migration_8,
};

guint
_agent_store_schema_version (void)
{
  return G_N_ELEMENTS (migrations);
}

/* The file's name, for the errors: sqlite3_db_filename() */
static const char *
file_name (sqlite3 *db)
{
  const char *name = sqlite3_db_filename (db, "main");

  return name != NULL && name[0] != '\0' ? name : _("(in memory)");
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  char *message = NULL;
  g_autofree char *described = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;

  if ((described = _agent_store_describe_failure (db, file_name (db))) != NULL)
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_STORAGE, described);
  else
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                 _("The conversation database %s could not be updated: %s"),
                 file_name (db), message ? message : sqlite3_errmsg (db));
  sqlite3_free (message);
  return FALSE;
}

static gboolean
query_int (sqlite3     *db,
           const char  *sql,
           gint64      *value,
           GError     **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &statement, NULL) != SQLITE_OK)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s could not be read: %s"),
                   file_name (db), sqlite3_errmsg (db));
      return FALSE;
    }

  rc = sqlite3_step (statement);
  *value = rc == SQLITE_ROW ? sqlite3_column_int64 (statement, 0) : 0;
  sqlite3_finalize (statement);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s could not be read: %s"),
                   file_name (db), sqlite3_errstr (rc));
      return FALSE;
    }
  return TRUE;
}

/* What the file is, and which migrations it still needs (read again
 * inside the write transaction that migrates it). */
static gboolean
check_database (sqlite3  *db,
                gint64   *version,
                GError  **error)
{
  gint64 application_id;
  gint64 n_tables;

  if (!query_int (db, "PRAGMA application_id", &application_id, error) ||
      !query_int (db, "PRAGMA user_version", version, error) ||
      !query_int (db, "SELECT count(*) FROM sqlite_schema", &n_tables, error))
    return FALSE;

  if (application_id != APPLICATION_ID && (application_id != 0 || n_tables > 0))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("%s is a database of another program, not one of conversations; it was "
                     "left unchanged"),
                   file_name (db));
      return FALSE;
    }

  if (*version > (gint64) G_N_ELEMENTS (migrations))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation database %s was written by a newer version of libagent "
                     "(schema %lld, this one knows up to %u); it was left unchanged"),
                   file_name (db), (long long) *version, (guint) G_N_ELEMENTS (migrations));
      return FALSE;
    }

  return TRUE;
}

/* Whether @db is a database of conversations that this library can
 * read and bring up to date (or an empty file), reading only */
gboolean
_agent_store_schema_check (sqlite3  *db,
                           GError  **error)
{
  gint64 version;

  return check_database (db, &version, error);
}

/* Brings @db to the current schema: one transaction per migration, each
 * taking the write lock first (BEGIN IMMEDIATE), so that two processes
 * opening a new file at once migrate it once. */
gboolean
_agent_store_schema_migrate (sqlite3  *db,
                             GError  **error)
{
  gint64 current;

  /* Most opens find the schema current: no need for the write lock */
  if (!check_database (db, &current, error))
    return FALSE;
  if (current == (gint64) G_N_ELEMENTS (migrations))
    return TRUE;

  for (;;)
    {
      g_autofree char *finish = NULL;
      gint64 version;

      if (!exec (db, "BEGIN IMMEDIATE", error))
        return FALSE;

      if (!check_database (db, &version, error))
        goto fail;

      if (version == (gint64) G_N_ELEMENTS (migrations))
        return exec (db, "COMMIT", error);

      g_debug ("Migrating the conversation database from schema %" G_GINT64_FORMAT " to %"
               G_GINT64_FORMAT, version, version + 1);

      finish = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %"
                                G_GINT64_FORMAT ";",
                                APPLICATION_ID, version + 1);
      if (!exec (db, migrations[version], error) || !exec (db, finish, error))
        goto fail;

      /* Nothing may point at nothing after a migration */
      if (!query_int (db, "SELECT count(*) FROM pragma_foreign_key_check", &version, error))
        goto fail;
      if (version != 0)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                       _("The conversation database %s has messages without a "
                         "conversation; it was left unchanged"),
                       file_name (db));
          goto fail;
        }

      if (!exec (db, "COMMIT", error))
        goto fail;
    }

fail:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}
