/* agent-store-search.c — full-text search over the stored conversations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "store/agent-store-private.h"

/* What the user typed, as an FTS5 query: every word must appear, each
 * taken literally (quoted, so that no character is FTS5 syntax), the last
 * one as a prefix while it is being typed. NULL if there is no word. */
char *
_agent_store_search_query (const char *text)
{
  g_autoptr(GString) query = g_string_new (NULL);
  g_auto(GStrv) words = g_regex_split_simple ("\\s+", text, G_REGEX_OPTIMIZE, 0);
  gboolean typing = *text != '\0' && !g_unichar_isspace (g_utf8_get_char (g_utf8_prev_char (text + strlen (text))));
  const char *last = NULL;

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (*words[i] == '\0')
        continue;

      if (query->len > 0)
        g_string_append_c (query, ' ');
      g_string_append_c (query, '"');
      for (const char *p = words[i]; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (query, '"');
          g_string_append_c (query, *p);
        }
      g_string_append_c (query, '"');
      last = words[i];
    }

  if (last == NULL)
    return NULL;
  if (typing)
    g_string_append_c (query, '*');
  return g_string_free (g_steal_pointer (&query), FALSE);
}

typedef struct
{
  int    position;
  gint64 rowid;
} Hit;

/* Adds to @hits (id → Hit) the first row of each conversation: columns
 * conversation id, position, rowid to make the snippet from */
static gboolean
collect_hits (AgentStoreDb  *db,
              const char    *sql,
              const char    *query,
              GHashTable    *hits,
              GError       **error)
{
  sqlite3_stmt *statement = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (db, error);
      return FALSE;
    }

  sqlite3_bind_text (statement, 1, query, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (statement, 0);
      Hit *hit;

      if (g_hash_table_contains (hits, &id))
        continue;

      hit = g_new0 (Hit, 1);
      hit->position = sqlite3_column_int (statement, 1);
      hit->rowid = sqlite3_column_int64 (statement, 2);
      g_hash_table_insert (hits, g_memdup2 (&id, sizeof id), hit);
    }
  sqlite3_finalize (statement);

  if (rc != SQLITE_DONE)
    {
      _agent_store_db_set_error (db, error);
      return FALSE;
    }
  return TRUE;
}

/* The first hit of each conversation, messages first, then titles:
 * conversation id → Hit. On any thread, with its own connection. */
GHashTable *
_agent_store_collect_hits (AgentStoreDb  *db,
                           const char    *query,
                           GError       **error)
{
  g_autoptr(GHashTable) hits = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  /* A conversation is a tree: only its active branch is on screen. The
   * path runs up from the leaf through the parents; a message's place in
   * the list is its distance from the root. */
  if (!collect_hits (db,
                     "WITH RECURSIVE "
                     "matched (conversation_id, position, rowid) AS ("
                     "  SELECT m.conversation_id, m.position, m.id "
                     "  FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
                     "  WHERE messages_fts MATCH ?1), "
                     "path (conversation_id, position, depth) AS ("
                     "  SELECT c.id, c.leaf, 0 FROM conversations c "
                     "  WHERE c.leaf IS NOT NULL "
                     "    AND c.id IN (SELECT conversation_id FROM matched) "
                     "  UNION ALL "
                     "  SELECT m.conversation_id, m.parent, path.depth + 1 "
                     "  FROM messages m JOIN path ON m.conversation_id = path.conversation_id "
                     "    AND m.position = path.position "
                     "  WHERE m.parent IS NOT NULL), "
                     "lengths (conversation_id, last) AS ("
                     "  SELECT conversation_id, max (depth) FROM path GROUP BY conversation_id) "
                     "SELECT h.conversation_id, min (l.last - p.depth), h.rowid "
                     "FROM matched h JOIN path p USING (conversation_id, position) "
                     "  JOIN lengths l USING (conversation_id) "
                     "GROUP BY h.conversation_id",
                     query, hits, error) ||
      !collect_hits (db,
                     "SELECT rowid, -1, rowid FROM titles_fts WHERE titles_fts MATCH ?1",
                     query, hits, error))
    return NULL;
  return g_steal_pointer (&hits);
}

/* The results, in the order of the list, which holds only what is not
 * deleted */
GListModel *
_agent_store_search_results (AgentStore  *self,
                             const char  *query,
                             GHashTable  *hits)
{
  g_autoptr(GListStore) results = g_list_store_new (AGENT_TYPE_SEARCH_RESULT);
  g_autoptr(GListModel) conversations = agent_store_list_conversations (self);
  guint n = g_list_model_get_n_items (conversations);

  for (guint i = 0; i < n && g_hash_table_size (hits) > 0; i++)
    {
      g_autoptr(AgentConversation) conversation = g_list_model_get_item (conversations, i);
      gint64 id = agent_conversation_get_id (conversation);
      Hit *hit = g_hash_table_lookup (hits, &id);

      if (hit != NULL)
        {
          g_autoptr(AgentSearchResult) result = NULL;

          result = _agent_search_result_new (conversation, _agent_store_get_db (self), query,
                                             hit->position, hit->rowid);
          g_list_store_append (results, result);
          g_hash_table_remove (hits, &id);
        }
    }

  return G_LIST_MODEL (g_steal_pointer (&results));
}

/* What the user typed, checked: FALSE with @error when it is not text;
 * *@query NULL when it has no word */
gboolean
_agent_store_prepare_search (const char  *text,
                             char       **query,
                             GError     **error)
{
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The text to search for is not valid UTF-8"));
      return FALSE;
    }
  *query = _agent_store_search_query (text);
  return TRUE;
}

/**
 * agent_store_search:
 * @self: a [class@Agent.Store]
 * @text: what the user typed
 * @error: return location for a [struct@GLib.Error]
 *
 * Finds the conversations whose messages (or title) hold every word of
 * @text, the last word as a prefix while it is being typed (no space after
 * it). Case and accents are ignored; words are taken literally.
 *
 * This reads the database on the calling thread; an application searching
 * as the user types uses [method@Agent.Store.search_async].
 *
 * Returns: (transfer full): a list of [class@Agent.SearchResult], one per
 *   conversation, newest first; empty when @text has no word
 *
 * Since: 0.1
 */
GListModel *
agent_store_search (AgentStore  *self,
                    const char  *text,
                    GError     **error)
{
  g_autoptr(GHashTable) hits = NULL;
  g_autofree char *query = NULL;

  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!_agent_store_prepare_search (text, &query, error))
    return NULL;
  if (query == NULL)
    return G_LIST_MODEL (g_list_store_new (AGENT_TYPE_SEARCH_RESULT));

  if (!(hits = _agent_store_collect_hits (_agent_store_get_db (self), query, error)))
    return NULL;
  return _agent_store_search_results (self, query, hits);
}
