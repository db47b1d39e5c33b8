/* agent-search-result.c — a conversation found by a search, and where
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "store/agent-store-private.h"

/* What FTS5 puts around a matched word in a snippet: noncharacters, which
 * no text holds, so they cannot be confused with the text's own. */
#define MATCH_START "\xef\xb7\x90"  /* U+FDD0 */
#define MATCH_END   "\xef\xb7\x91"  /* U+FDD1 */

/**
 * AgentSearchResult:
 *
 * A conversation found by [method@Agent.Store.search], with the place
 * where it matched.
 *
 * Since: 0.1
 */

struct _AgentSearchResult
{
  GObject            parent_instance;
  AgentConversation *conversation;
  AgentStoreDb      *db;
  char              *query;
  char              *snippet;     /* NULL until asked for */
  gint64             rowid;       /* of the message, or of the conversation (title) */
  int                position;
};

enum {
  PROP_0,
  PROP_CONVERSATION,
  PROP_POSITION,
  PROP_SNIPPET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentSearchResult, agent_search_result, G_TYPE_OBJECT)

static void
agent_search_result_finalize (GObject *object)
{
  AgentSearchResult *self = (AgentSearchResult *)object;

  g_clear_object (&self->conversation);
  g_clear_pointer (&self->db, _agent_store_db_unref);
  g_clear_pointer (&self->query, g_free);
  g_clear_pointer (&self->snippet, g_free);

  G_OBJECT_CLASS (agent_search_result_parent_class)->finalize (object);
}

static void
agent_search_result_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentSearchResult *self = AGENT_SEARCH_RESULT (object);

  switch (prop_id)
    {
    case PROP_CONVERSATION:
      g_value_set_object (value, self->conversation);
      break;

    case PROP_POSITION:
      g_value_set_int (value, self->position);
      break;

    case PROP_SNIPPET:
      g_value_set_string (value, agent_search_result_get_snippet (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_search_result_class_init (AgentSearchResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_search_result_finalize;
  object_class->get_property = agent_search_result_get_property;

  /**
   * AgentSearchResult:conversation:
   *
   * The conversation that matched.
   */
  properties[PROP_CONVERSATION] =
    g_param_spec_object ("conversation", NULL, NULL, AGENT_TYPE_CONVERSATION, flags);

  /**
   * AgentSearchResult:position:
   *
   * The position of the first message that matched, or -1 when only the
   * title matched. Only the conversation's active branch is searched: the
   * position is in the list the conversation shows.
   */
  properties[PROP_POSITION] =
    g_param_spec_int ("position", NULL, NULL, -1, G_MAXINT, -1, flags);

  /**
   * AgentSearchResult:snippet:
   *
   * The words around the match, as Pango markup: the text escaped and each
   * matched word in `<b>`…`</b>`.
   */
  properties[PROP_SNIPPET] =
    g_param_spec_string ("snippet", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_search_result_init (AgentSearchResult *self)
{
  self->position = -1;
}

AgentSearchResult *
_agent_search_result_new (AgentConversation *conversation,
                          AgentStoreDb      *db,
                          const char        *query,
                          int                position,
                          gint64             rowid)
{
  AgentSearchResult *self = g_object_new (AGENT_TYPE_SEARCH_RESULT, NULL);

  self->conversation = g_object_ref (conversation);
  self->db = _agent_store_db_ref (db);
  self->query = g_strdup (query);
  self->position = position;
  self->rowid = rowid;
  return self;
}

/* @snippet has the matches between MATCH_START and MATCH_END */
static char *
snippet_to_markup (const char *snippet)
{
  g_autoptr(GString) markup = g_string_new (NULL);
  const char *p = snippet ? snippet : "";
  gboolean open = FALSE;

  while (*p)
    {
      const char *marker = strstr (p, open ? MATCH_END : MATCH_START);
      g_autofree char *escaped = g_markup_escape_text (p, marker ? marker - p : -1);

      g_string_append (markup, escaped);
      if (marker == NULL)
        break;
      g_string_append (markup, open ? "</b>" : "<b>");
      open = !open;
      p = marker + strlen (MATCH_START);
    }
  if (open)
    g_string_append (markup, "</b>");

  return g_string_free (g_steal_pointer (&markup), FALSE);
}

/* The snippet of one row: asked for when a view shows the result, so that a
 * search matching thousands of messages computes a few dozen snippets */
static char *
query_snippet (AgentSearchResult *self)
{
  static const char message_sql[] =
    "SELECT snippet (messages_fts, 0, '" MATCH_START "', '" MATCH_END "', '…', 12) "
    "FROM messages_fts WHERE messages_fts MATCH ?1 AND rowid = ?2";
  static const char title_sql[] =
    "SELECT highlight (titles_fts, 0, '" MATCH_START "', '" MATCH_END "') "
    "FROM titles_fts WHERE titles_fts MATCH ?1 AND rowid = ?2";
  sqlite3_stmt *statement = NULL;
  char *snippet = NULL;

  if (sqlite3_prepare_v2 (self->db->db, self->position >= 0 ? message_sql : title_sql, -1,
                          &statement, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (statement, 1, self->query, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (statement, 2, self->rowid);
      if (sqlite3_step (statement) == SQLITE_ROW)
        snippet = snippet_to_markup ((const char *) sqlite3_column_text (statement, 0));
    }
  sqlite3_finalize (statement);

  return snippet ? snippet : g_strdup ("");
}

/**
 * agent_search_result_get_conversation:
 * @self: a [class@Agent.SearchResult]
 *
 * Gets the conversation that matched: the one in the store's list, whose
 * messages a view can open at [method@Agent.SearchResult.get_position].
 *
 * Returns: (transfer none): the conversation, owned by the result
 *
 * Since: 0.1
 */
AgentConversation *
agent_search_result_get_conversation (AgentSearchResult *self)
{
  g_return_val_if_fail (AGENT_IS_SEARCH_RESULT (self), NULL);
  return self->conversation;
}

/**
 * agent_search_result_get_position:
 * @self: a [class@Agent.SearchResult]
 *
 * Gets where the conversation matched: the position, in the conversation's
 * list of messages, of the first message that holds every word searched
 * for. Messages on branches that are not active (answers regenerated
 * over, questions edited) are not searched.
 *
 * Returns: the position of the message, or -1 when only the title matched
 *
 * Since: 0.1
 */
int
agent_search_result_get_position (AgentSearchResult *self)
{
  g_return_val_if_fail (AGENT_IS_SEARCH_RESULT (self), -1);
  return self->position;
}

/**
 * agent_search_result_get_snippet:
 * @self: a [class@Agent.SearchResult]
 *
 * Gets the words around the match, for a list of results: a few words on
 * each side, `…` where the text was cut, as Pango markup (the text escaped,
 * each matched word in `<b>`…`</b>`), ready for gtk_label_set_markup(). It
 * is read from the database the first time it is asked for.
 *
 * Returns: (transfer none): the snippet, owned by the result; an empty string
 *   when the message is no longer there
 *
 * Since: 0.1
 */
const char *
agent_search_result_get_snippet (AgentSearchResult *self)
{
  g_return_val_if_fail (AGENT_IS_SEARCH_RESULT (self), NULL);

  if (self->snippet == NULL)
    self->snippet = query_snippet (self);
  return self->snippet;
}
