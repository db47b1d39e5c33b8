/* test-store-list.c — AgentStore: the list, deleting with undo, search,
 * migrations, and readers while a turn writes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>
#include <sqlite3.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

/* Starts a conversation with a user message */
static AgentConversation *
start (AgentStore *store,
       const char *text)
{
  g_autoptr(AgentConversation) conversation = agent_store_create_conversation (store);
  g_autoptr(AgentMessage) message = agent_message_new (AGENT_MESSAGE_ROLE_USER, text);
  g_autoptr(GError) error = NULL;

  agent_memory_append (AGENT_MEMORY (conversation), message, &error);
  g_assert_no_error (error);
  /* Listed once written, with its id */
  test_store_flush (store);
  g_assert_cmpint (agent_conversation_get_id (conversation), >, 0);
  return g_steal_pointer (&conversation);
}

static void
add_message (AgentConversation *conversation,
             AgentMessageRole   role,
             const char        *text)
{
  g_autoptr(AgentMessage) message = agent_message_new (role, text);
  g_autoptr(GError) error = NULL;

  agent_memory_append (AGENT_MEMORY (conversation), message, &error);
  g_assert_no_error (error);
}

/* The titles of @list, in order, joined with "|" */
static char *
titles (GListModel *list)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (list, i);
      AgentConversation *conversation;

      if (AGENT_IS_SEARCH_RESULT (item))
        conversation = agent_search_result_get_conversation (AGENT_SEARCH_RESULT (item));
      else
        conversation = AGENT_CONVERSATION (item);
      g_string_append_printf (out, "%s%s", i ? "|" : "",
                              agent_conversation_get_title (conversation));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
assert_titles (GListModel *list,
               const char *expected)
{
  g_autofree char *actual = titles (list);

  g_assert_cmpstr (actual, ==, expected);
}

static void
count_changes_cb (GListModel *list,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

static void
test_list (void)
{
  TestStore db = { 0 };
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GListModel) other_list = NULL;
  g_autoptr(AgentConversation) first = NULL;
  g_autoptr(AgentConversation) second = NULL;
  g_autoptr(AgentConversation) empty = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(JsonNode) settings = agent_test_parse_json ("{\"base-url\":\"http://h/v1\","
                                                        "\"system-prompt\":\"Be kind\","
                                                        "\"max-tokens\":100}");
  g_autoptr(JsonNode) secret = agent_test_parse_json ("{\"headers\":[{\"X-Api-Key\":\"k\"}]}");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint changes = 0;

  test_store_open (&db);
  list = agent_store_list_conversations (db.store);
  g_signal_connect (list, "items-changed", G_CALLBACK (count_changes_cb), &changes);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);

  /* Nothing is written, nor listed, before the first message */
  empty = agent_store_create_conversation (db.store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);
  first = start (db.store, "  First question\nwith a second line");
  second = start (db.store, "A question so long that its title has to be cut somewhere before "
                            "its end");
  assert_titles (list, "A question so long that its title has to be cut somewhere…|"
                       "First question");
  g_assert_cmpuint (changes, ==, 2);

  /* A new message brings a conversation to the top */
  add_message (first, AGENT_MESSAGE_ROLE_ASSISTANT, "An answer");
  assert_titles (list, "First question|A question so long that its title has to be cut "
                       "somewhere…");

  /* Renaming, the model and the settings do not move it */
  agent_conversation_rename (second, "  Renamed ", &error);
  g_assert_no_error (error);
  agent_conversation_set_model (second, "anthropic", "claude-test", &error);
  g_assert_no_error (error);
  agent_conversation_set_settings (second, settings, &error);
  g_assert_no_error (error);
  assert_titles (list, "First question|Renamed");

  /* Never a credential */
  g_assert_false (agent_conversation_set_settings (second, secret, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* As another connection sees it */
  other = test_store_open_again (&db);
  other_list = agent_store_list_conversations (other);
  assert_titles (other_list, "First question|Renamed");
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (second));
  g_assert_cmpstr (agent_conversation_get_provider (copy), ==, "anthropic");
  g_assert_cmpstr (agent_conversation_get_model (copy), ==, "claude-test");
  text = json_to_string (agent_conversation_get_settings (copy), FALSE);
  g_assert_cmpstr (text, ==, "{\"base-url\":\"http://h/v1\",\"system-prompt\":\"Be kind\","
                             "\"max-tokens\":100}");
  g_assert_true (g_date_time_equal (agent_conversation_get_created (copy),
                                    agent_conversation_get_created (second)));
  g_assert_null (agent_store_lookup_conversation (other, 4242));

  /* A conversation's settings, given before its first message */
  agent_conversation_set_model (empty, "ollama", "llama-test", &error);
  g_assert_no_error (error);
  add_message (empty, AGENT_MESSAGE_ROLE_USER, "Third");
  g_clear_object (&copy);
  g_clear_object (&other_list);
  g_clear_object (&other);
  other = test_store_open_again (&db);
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (empty));
  g_assert_cmpstr (agent_conversation_get_model (copy), ==, "llama-test");
  g_assert_cmpstr (agent_conversation_get_title (copy), ==, "Third");

  g_signal_handlers_disconnect_by_data (list, &changes);
  g_clear_object (&copy);
  g_assert_finalize_object (g_steal_pointer (&other));
  test_store_close (&db);
}

/* As if every deletion in @path had happened @seconds earlier */
static void
backdate_deletions (const char *path,
                    int         seconds)
{
  g_autofree char *sql = g_strdup_printf ("UPDATE conversations SET deleted = deleted - %d "
                                          "WHERE deleted IS NOT NULL", seconds * 1000000);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
}

static void
test_delete_undo_purge (void)
{
  TestStore db = { 0 };
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GListModel) found = NULL;
  g_autoptr(AgentConversation) one = NULL;
  g_autoptr(AgentConversation) two = NULL;
  g_autoptr(AgentConversation) three = NULL;
  g_autoptr(AgentConversation) never = NULL;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;

  test_store_open (&db);
  list = agent_store_list_conversations (db.store);
  one = start (db.store, "One");
  two = start (db.store, "Two has zanzibarian words");
  three = start (db.store, "Three");
  assert_titles (list, "Three|Two has zanzibarian words|One");

  agent_store_delete_conversation (db.store, two, &error);
  g_assert_no_error (error);
  assert_titles (list, "Three|One");
  found = agent_store_search (db.store, "zanzibarian", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 0);
  g_clear_object (&found);

  /* Undo: back in its place */
  agent_store_restore_conversation (db.store, two, &error);
  g_assert_no_error (error);
  assert_titles (list, "Three|Two has zanzibarian words|One");
  g_assert_false (agent_store_restore_conversation (db.store, two, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* For good: the rows, the index and the file's bytes */
  agent_store_delete_conversation (db.store, two, &error);
  g_assert_no_error (error);
  agent_store_purge_deleted (db.store, &error);
  g_assert_no_error (error);
  count = test_store_query (db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "2");
  g_clear_pointer (&count, g_free);
  count = test_store_query (db.path, "SELECT count(*) FROM messages_fts "
                                     "WHERE messages_fts MATCH 'zanzibarian'");
  g_assert_cmpstr (count, ==, "0");
  g_assert_false (test_store_file_contains (db.path, "zanzibarian"));
  agent_store_check (db.store, &error);
  g_assert_no_error (error);

  /* Nothing more is written to it */
  message = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hello?");
  g_assert_false (agent_memory_append (AGENT_MEMORY (two), message, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_clear_error (&error);

  /* Deleted, and the same file opened elsewhere (agent-cli while the app
   * shows its Undo): the Undo still works */
  agent_store_delete_conversation (db.store, one, &error);
  g_assert_no_error (error);
  {
    g_autoptr(AgentStore) elsewhere = test_store_open_again (&db);
    g_autoptr(GListModel) other_list = agent_store_list_conversations (elsewhere);

    assert_titles (other_list, "Three");
  }
  g_assert_true (agent_store_restore_conversation (db.store, one, &error));
  g_assert_no_error (error);
  assert_titles (list, "Three|One");

  /* Deleted and not purged: kept while an Undo could still come, purged
   * when a store is opened once that time has passed */
  never = agent_store_create_conversation (db.store);
  g_assert_true (agent_store_delete_conversation (db.store, never, &error));
  agent_store_delete_conversation (db.store, one, &error);
  g_assert_no_error (error);
  g_clear_object (&list);
  g_assert_finalize_object (g_steal_pointer (&db.store));
  db.store = test_store_open_again (&db);
  list = agent_store_list_conversations (db.store);
  assert_titles (list, "Three");
  g_clear_pointer (&count, g_free);
  count = test_store_query (db.path, "SELECT count(*) FROM conversations");
  g_assert_cmpstr (count, ==, "2");

  g_clear_object (&list);
  g_assert_finalize_object (g_steal_pointer (&db.store));
  backdate_deletions (db.path, 11 * 60);
  db.store = test_store_open_again (&db);
  list = agent_store_list_conversations (db.store);
  assert_titles (list, "Three");
  g_clear_pointer (&count, g_free);
  count = test_store_query (db.path, "SELECT count(*) FROM conversations");
  g_assert_cmpstr (count, ==, "1");

  g_clear_object (&list);
  test_store_close (&db);
}

static AgentSearchResult *
search_one (AgentStore *store,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) found = NULL;

  /* A search reads what is committed */
  test_store_flush (store);
  found = agent_store_search (store, text, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);
  return g_list_model_get_item (found, 0);
}

static guint
search_count (AgentStore *store,
              const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) found = NULL;

  /* A search reads what is committed */
  test_store_flush (store);
  found = agent_store_search (store, text, &error);

  g_assert_no_error (error);
  return g_list_model_get_n_items (found);
}

static void
test_search (void)
{
  static const char * const odd[] = {
    "\"", "\"\"", "*", "fox*", "AND", "OR NOT", "NEAR(a b", "-fox", "content:fox", "^fox", "(",
    ")", "{", "'", "fox\"quick", "\\", "  ", "",
  };
  TestStore db = { 0 };
  g_autoptr(AgentConversation) animals = NULL;
  g_autoptr(AgentConversation) drinks = NULL;
  g_autoptr(AgentConversation) titled = NULL;
  g_autoptr(AgentSearchResult) result = NULL;
  g_autoptr(GListModel) found = NULL;
  g_autoptr(GError) error = NULL;

  test_store_open (&db);
  animals = start (db.store, "Tell me about animals");
  add_message (animals, AGENT_MESSAGE_ROLE_ASSISTANT,
               "The Quick brown FOX jumps over <b>the lazy</b> dog & co.");
  drinks = start (db.store, "Un café crème, s'il vous plaît");
  titled = start (db.store, "Nothing to see");
  agent_conversation_rename (titled, "Holiday plans", &error);
  g_assert_no_error (error);

  /* Every word, in any order, any case; matched words in bold, the rest
   * escaped */
  result = search_one (db.store, "quick FOX");
  g_assert_true (agent_search_result_get_conversation (result) == animals);
  g_assert_cmpint (agent_search_result_get_position (result), ==, 1);
  g_assert_cmpstr (agent_search_result_get_snippet (result), ==,
                   "The <b>Quick</b> brown <b>FOX</b> jumps over &lt;b&gt;the lazy&lt;/b&gt; "
                   "dog &amp; co.");
  g_clear_object (&result);
  g_assert_cmpuint (search_count (db.store, "fox quick"), ==, 1);
  g_assert_cmpuint (search_count (db.store, "fox cafe"), ==, 0);

  /* Accents; the last word as a prefix while typing, not after a space */
  result = search_one (db.store, "CAFE creme");
  g_assert_true (agent_search_result_get_conversation (result) == drinks);
  g_assert_cmpint (agent_search_result_get_position (result), ==, 0);
  g_clear_object (&result);
  g_assert_cmpuint (search_count (db.store, "anim"), ==, 1);
  g_assert_cmpuint (search_count (db.store, "anim "), ==, 0);

  /* Titles */
  result = search_one (db.store, "holiday");
  g_assert_true (agent_search_result_get_conversation (result) == titled);
  g_assert_cmpint (agent_search_result_get_position (result), ==, -1);
  g_assert_cmpstr (agent_search_result_get_snippet (result), ==, "<b>Holiday</b> plans");
  g_clear_object (&result);

  /* Newest first */
  add_message (animals, AGENT_MESSAGE_ROLE_USER, "And the café?");
  test_store_flush (db.store);
  found = agent_store_search (db.store, "caf", &error);
  g_assert_no_error (error);
  assert_titles (found, "Tell me about animals|Un café crème, s'il vous plaît");
  g_clear_object (&found);

  /* What people type is never query syntax, and never an error */
  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    {
      found = agent_store_search (db.store, odd[i], &error);
      g_assert_no_error (error);
      g_clear_object (&found);
    }
  g_assert_cmpuint (search_count (db.store, "-fox"), ==, 1);

  g_clear_object (&animals);
  g_clear_object (&drinks);
  g_clear_object (&titled);
  test_store_close (&db);
}

static void
load_sql (const char *path,
          const char *file)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, file, NULL);
  g_autofree char *sql = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (source, &sql, NULL, &error);
  g_assert_no_error (error);
  test_store_exec (path, sql);
}

/* A database of the first schema opens, migrated, with nothing lost */
static void
test_migrate_from_v1 (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-v1");
  g_autofree char *path = g_build_filename (dir, "old.db", NULL);
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AgentConversation) sums = NULL;
  g_autoptr(AgentMessage) assistant = NULL;
  g_autoptr(AgentMessage) last = NULL;
  g_autoptr(AgentSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *data = NULL;
  AgentToolCall *call;

  load_sql (path, "test-store-v1.sql");
  store = agent_store_new (path, &error);
  g_assert_no_error (error);
  version = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "8");

  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 2);
  sums = agent_store_lookup_conversation (store, 1);
  g_assert_cmpstr (agent_conversation_get_title (sums), ==, "Old sums");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (sums)), ==, 4);

  assistant = g_list_model_get_item (G_LIST_MODEL (sums), 1);
  g_assert_cmpstr (agent_message_get_reasoning (assistant), ==, "Use the calculator.");
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_message_get_usage (assistant)), ==, 10);
  data = json_to_string (agent_message_get_provider_data (assistant), FALSE);
  g_assert_cmpstr (data, ==, "{\"anthropic\":{\"signature\":\"sig==\"}}");
  call = agent_message_get_tool_call (assistant, 0);
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"expression\":\"3+4+5\"}");
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_SUCCEEDED);
  g_assert_cmpint (agent_tool_call_get_duration (call), ==, 1500);
  last = g_list_model_get_item (G_LIST_MODEL (sums), 3);
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  /* Version 4: errors kept with their turns; the old ones had none kept */
  g_assert_null (agent_conversation_get_error (sums, 3));
  {
    g_autoptr(GError) cut = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_NETWORK, "Cut off");
    g_autofree char *kept = NULL;

    g_assert_true (agent_conversation_set_error (sums, 3, cut, &error));
    g_assert_no_error (error);
    test_store_flush (store);
    kept = test_store_query (path, "SELECT error IS NOT NULL FROM messages "
                                   "WHERE conversation_id = 1 AND position = 3");
    g_assert_cmpstr (kept, ==, "1");
  }

  /* What version 1 stored is in the search index of version 2 */
  result = search_one (store, "pythagoras");
  g_assert_true (agent_search_result_get_conversation (result) == sums);
  g_clear_object (&result);
  result = search_one (store, "cafe");
  g_assert_cmpint (agent_conversation_get_id (agent_search_result_get_conversation (result)), ==, 2);
  g_clear_object (&result);

  /* Version 3: the trash */
  agent_store_delete_conversation (store, sums, &error);
  g_assert_no_error (error);
  agent_store_check (store, &error);
  g_assert_no_error (error);
  test_store_assert_sound (path);

  g_clear_object (&sums);
  g_clear_object (&list);
  g_assert_finalize_object (g_steal_pointer (&store));
  agent_test_remove_dir (dir);
}

/* The bytes of @path, which must not have changed; and SQLite left no
 * file of its own beside it */
static void
assert_unchanged (const char *path,
                  GBytes     *before)
{
  g_autofree char *contents = NULL;
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  g_autoptr(GBytes) after = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  after = g_bytes_new (contents, len);
  if (!g_bytes_equal (before, after))
    g_error ("%s was changed", path);
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
}

static GBytes *
read_bytes (const char *path)
{
  char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static void
new_async_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Opens @path both ways: each must fail, leaving it as it was */
static GError *
assert_refused (const char *path)
{
  g_autoptr(GBytes) before = read_bytes (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AgentStore) store = NULL;
  GError *error = NULL;
  GError *async_error = NULL;

  store = agent_store_new (path, &error);
  g_assert_null (store);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  assert_unchanged (path, before);

  agent_store_new_async (path, NULL, new_async_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  store = agent_store_new_finish (result, &async_error);
  g_assert_null (store);
  g_assert_error (async_error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_assert_cmpstr (async_error->message, ==, error->message);
  g_error_free (async_error);
  assert_unchanged (path, before);

  return error;
}

/* Files that are not ours to change are refused before anything is
 * written: their bytes are as they were (not even switched to WAL), and
 * no -wal, -shm or -journal file is left beside them */
static void
test_refused_files (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-refused");
  g_autofree char *newer = g_build_filename (dir, "newer.db", NULL);
  g_autofree char *foreign = g_build_filename (dir, "foreign.db", NULL);
  g_autofree char *garbage = agent_test_write_file (dir, "garbage.db",
                                                    "not a database, not at all, no", -1);
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *tables = NULL;

  test_store_exec (newer, "PRAGMA application_id = 1634168436; PRAGMA user_version = 99;"
                          "CREATE TABLE future (x)");
  error = assert_refused (newer);
  agent_test_assert_contains (error->message, "newer version");
  agent_test_assert_contains (error->message, "left unchanged");
  g_clear_error (&error);
  version = test_store_query (newer, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "99");

  test_store_exec (foreign, "CREATE TABLE notes (text)");
  error = assert_refused (foreign);
  agent_test_assert_contains (error->message, "another program");
  g_clear_error (&error);
  tables = test_store_query (foreign, "SELECT group_concat (name) FROM sqlite_schema");
  g_assert_cmpstr (tables, ==, "notes");

  g_clear_error (&error);
  error = assert_refused (garbage);

  agent_test_remove_dir (dir);
}

/* Readers, each with its own connection, open and read the conversation
 * over and over while turns with tool calls write it: each must see whole
 * turns' steps only, never a call without its result. */

typedef struct
{
  const char *path;
  gint64      id;
  gint        stop;
  guint       n_reads;
  guint       n_seen[32];  /* how often each message count was seen */
  char       *problem;
} Reader;

static gboolean
consistent (GListModel  *messages,
            char       **problem)
{
  guint n = g_list_model_get_n_items (messages);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);
      guint n_calls = agent_message_get_n_tool_calls (message);

      for (guint c = 0; c < n_calls; c++)
        {
          g_autoptr(AgentMessage) result = g_list_model_get_item (messages, i + 1 + c);
          const char *id = agent_tool_call_get_id (agent_message_get_tool_call (message, c));

          if (result == NULL || g_strcmp0 (agent_message_get_tool_call_id (result), id) != 0)
            {
              *problem = g_strdup_printf ("message %u: call %s has no result (%u messages)",
                                          i, id, n);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gpointer
reader_thread (gpointer data)
{
  Reader *reader = data;

  while (!g_atomic_int_get (&reader->stop) && reader->problem == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AgentStore) store = agent_store_new (reader->path, &error);
      g_autoptr(AgentConversation) conversation = NULL;

      if (store == NULL)
        {
          reader->problem = g_strdup (error->message);
          break;
        }
      conversation = agent_store_lookup_conversation (store, reader->id);
      if (conversation == NULL || !agent_conversation_load (conversation, &error))
        {
          reader->problem = g_strdup (error ? error->message : "the conversation is gone");
          break;
        }
      consistent (G_LIST_MODEL (conversation), &reader->problem);
      reader->n_seen[MIN (g_list_model_get_n_items (G_LIST_MODEL (conversation)), 31)]++;
      reader->n_reads++;
    }
  return NULL;
}

static void
test_concurrent_readers (void)
{
  TestStore db = { 0 };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentConversation) conversation = NULL;
  Reader readers[2] = { 0 };
  GThread *threads[G_N_ELEMENTS (readers)];
  AgentTestTurn turn = { 0 };
  guint n_counts = 0;

  test_store_open (&db);
  agent_session_add_tool (session, calculator);
  conversation = start (db.store, "Start");
  agent_session_set_memory (session, AGENT_MEMORY (conversation));

  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      readers[i].path = db.path;
      readers[i].id = agent_conversation_get_id (conversation);
      threads[i] = g_thread_new ("reader", reader_thread, &readers[i]);
    }

  /* Four turns of user, calls, results and answer: 5 messages each */
  for (guint t = 0; t < 4; t++)
    {
      test_store_add_tool_turn (server, "Done.");
      agent_test_turn_run (&turn, session, "Compute again.", NULL);
      g_assert_no_error (turn.error);
      /* Let the readers see this state too */
      g_usleep (50000);
    }
  agent_test_turn_clear (&turn);

  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      g_atomic_int_set (&readers[i].stop, TRUE);
      g_thread_join (threads[i]);
      g_assert_cmpstr (readers[i].problem, ==, NULL);
      g_assert_cmpuint (readers[i].n_reads, >, 0);
      g_test_message ("reader %u: %u reads", i, readers[i].n_reads);
      for (guint n = 0; n < 32; n++)
        if (readers[i].n_seen[n] > 0)
          n_counts++;
    }
  /* The readers saw the conversation grow, not only its end */
  g_assert_cmpuint (n_counts, >, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 21);

  g_clear_object (&session);
  g_clear_object (&conversation);
  test_store_assert_sound (db.path);
  test_store_close (&db);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/list", test_list);
  g_test_add_func ("/store/delete-undo-purge", test_delete_undo_purge);
  g_test_add_func ("/store/search", test_search);
  g_test_add_func ("/store/migrate-from-v1", test_migrate_from_v1);
  g_test_add_func ("/store/refused-files", test_refused_files);
  g_test_add_func ("/store/concurrent-readers", test_concurrent_readers);

  return g_test_run ();
}
