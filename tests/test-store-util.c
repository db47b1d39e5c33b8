/* test-store-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <sqlite3.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-store-util.h"

/* A new store in a new folder */
void
test_store_open (TestStore *self)
{
  g_autoptr(GError) error = NULL;

  self->dir = agent_test_make_dir ("test-store");
  self->path = g_build_filename (self->dir, "conversations.db", NULL);
  self->store = agent_store_new (self->path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (self->store);
}

void
test_store_close (TestStore *self)
{
  if (self->store != NULL)
    g_assert_finalize_object (self->store);
  self->store = NULL;
  agent_test_remove_dir (self->dir);
  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->path, g_free);
}

static void
flushed_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  GError **error = data;

  agent_store_flush_finish (AGENT_STORE (source), result, error);
  *(gboolean *) g_object_get_data (G_OBJECT (source), "test-flushed") = TRUE;
}

/* Waits, iterating the main context, until the writes queued on @store's
 * connection are in; FALSE with @error when one failed since the last
 * flush. */
gboolean
test_store_try_flush (AgentStore  *store,
                      GError     **error)
{
  gboolean done = FALSE;

  g_object_set_data (G_OBJECT (store), "test-flushed", &done);
  agent_store_flush_async (store, NULL, flushed_cb, error);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_object_set_data (G_OBJECT (store), "test-flushed", NULL);
  return error == NULL || *error == NULL;
}

static void
conversation_flushed_cb (GObject      *source,
                         GAsyncResult *result,
                         gpointer      data)
{
  g_autoptr(GError) error = NULL;

  agent_conversation_flush_finish (AGENT_CONVERSATION (source), result, &error);
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

/* The same, for the connection of @conversation */
void
test_store_flush_conversation (AgentConversation *conversation)
{
  gboolean done = FALSE;

  agent_conversation_flush_async (conversation, NULL, conversation_flushed_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
test_store_flush (AgentStore *store)
{
  g_autoptr(GError) error = NULL;

  test_store_try_flush (store, &error);
  g_assert_no_error (error);
}

/* Another store on the same file: another connection, as another process
 * would have, once the writes of @self's store are in */
AgentStore *
test_store_open_again (TestStore *self)
{
  g_autoptr(GError) error = NULL;
  AgentStore *store;

  if (self->store != NULL)
    test_store_flush (self->store);
  store = agent_store_new (self->path, &error);

  g_assert_no_error (error);
  return store;
}

/* Conversation @id as a new store reads it from the file */
AgentConversation *
test_store_read_back (TestStore   *self,
                      gint64       id,
                      AgentStore **store)
{
  g_autoptr(GError) error = NULL;
  AgentConversation *conversation;

  *store = test_store_open_again (self);
  conversation = agent_store_lookup_conversation (*store, id);
  g_assert_nonnull (conversation);
  agent_conversation_load (conversation, &error);
  g_assert_no_error (error);
  return conversation;
}

/* A copy in @dir of the database tests/@name, checked to be of schema
 * @version; returns its path */
char *
test_store_copy_fixture (const char *dir,
                         const char *name,
                         const char *version)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, name, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *found = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_file_get_contents (source, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  found = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (found, ==, version);
  return g_steal_pointer (&path);
}

/* Raw SQL, on a connection of its own (waiting while the store's writer
 * thread commits) */
void
test_store_exec (const char *path,
                 const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 60000);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* The first column of the first row, as text ("" for no row, "NULL") */
char *
test_store_query (const char *path,
                  const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *statement = NULL;
  char *result;
  int rc;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &statement, NULL), ==, SQLITE_OK);
  rc = sqlite3_step (statement);
  if (rc == SQLITE_ROW)
    result = g_strdup (sqlite3_column_text (statement, 0) ? (const char *) sqlite3_column_text (statement, 0)
                                                          : "NULL");
  else
    {
      g_assert_cmpint (rc, ==, SQLITE_DONE);
      result = g_strdup ("");
    }
  sqlite3_finalize (statement);
  sqlite3_close (db);
  return result;
}

/* SQLite's own checks, without the library */
void
test_store_assert_sound (const char *path)
{
  g_autofree char *integrity = test_store_query (path, "PRAGMA integrity_check");
  g_autofree char *foreign = test_store_query (path, "PRAGMA foreign_key_check");

  g_assert_cmpstr (integrity, ==, "ok");
  g_assert_cmpstr (foreign, ==, "");
}

static gboolean
bytes_contain (const char *path,
               const char *needle)
{
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return FALSE;
  return memmem (contents, len, needle, strlen (needle)) != NULL;
}

/* Whether the database, its log or its shared memory hold @needle */
gboolean
test_store_file_contains (const char *path,
                          const char *needle)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  return bytes_contain (path, needle) || bytes_contain (wal, needle) || bytes_contain (shm, needle);
}

static void
assert_same_json (JsonNode *expected,
                  JsonNode *actual)
{
  g_autofree char *a = expected ? json_to_string (expected, FALSE) : NULL;
  g_autofree char *b = actual ? json_to_string (actual, FALSE) : NULL;

  g_assert_cmpstr (a, ==, b);
}

static void
assert_same_usage (AgentUsage *expected,
                   AgentUsage *actual)
{
  g_assert_true ((expected == NULL) == (actual == NULL));
  if (expected == NULL)
    return;
  g_assert_cmpint (agent_usage_get_prompt_tokens (expected), ==, agent_usage_get_prompt_tokens (actual));
  g_assert_cmpint (agent_usage_get_completion_tokens (expected), ==,
                   agent_usage_get_completion_tokens (actual));
  g_assert_cmpint (agent_usage_get_total_tokens (expected), ==, agent_usage_get_total_tokens (actual));
  g_assert_cmpint (agent_usage_get_reasoning_tokens (expected), ==,
                   agent_usage_get_reasoning_tokens (actual));
  g_assert_cmpint (agent_usage_get_cached_tokens (expected), ==, agent_usage_get_cached_tokens (actual));
  g_assert_cmpint (agent_usage_get_cache_creation_tokens (expected), ==,
                   agent_usage_get_cache_creation_tokens (actual));
  assert_same_json (agent_usage_get_raw (expected), agent_usage_get_raw (actual));
  {
    /* The counts the provider reported, and only those */
    g_autoptr(JsonNode) expected_json = agent_usage_to_json (expected);
    g_autoptr(JsonNode) actual_json = agent_usage_to_json (actual);

    assert_same_json (expected_json, actual_json);
  }
}

static void
assert_same_metrics (AgentMetrics *expected,
                     AgentMetrics *actual)
{
  g_assert_true ((expected == NULL) == (actual == NULL));
  if (expected == NULL)
    return;
  g_assert_cmpuint (agent_metrics_get_steps (expected), ==, agent_metrics_get_steps (actual));
  g_assert_cmpint (agent_metrics_get_time_to_first_token (expected), ==,
                   agent_metrics_get_time_to_first_token (actual));
  g_assert_cmpint (agent_metrics_get_duration (expected), ==, agent_metrics_get_duration (actual));
  g_assert_cmpint (agent_metrics_get_wait_time (expected), ==, agent_metrics_get_wait_time (actual));
  g_assert_cmpfloat (agent_metrics_get_tokens_per_second (expected), ==,
                     agent_metrics_get_tokens_per_second (actual));
  g_assert_cmpuint (agent_metrics_get_tool_calls (expected), ==, agent_metrics_get_tool_calls (actual));
  g_assert_cmpint (agent_metrics_get_tool_time (expected), ==, agent_metrics_get_tool_time (actual));
  assert_same_usage (agent_metrics_get_usage (expected), agent_metrics_get_usage (actual));
}

static void
assert_same_call (AgentToolCall *expected,
                  AgentToolCall *actual)
{
  g_assert_cmpuint (agent_tool_call_get_index (expected), ==, agent_tool_call_get_index (actual));
  g_assert_cmpstr (agent_tool_call_get_id (expected), ==, agent_tool_call_get_id (actual));
  g_assert_cmpstr (agent_tool_call_get_name (expected), ==, agent_tool_call_get_name (actual));
  g_assert_cmpstr (agent_tool_call_get_arguments (expected), ==, agent_tool_call_get_arguments (actual));
  g_assert_cmpint (agent_tool_call_get_state (expected), ==, agent_tool_call_get_state (actual));
  g_assert_cmpstr (agent_tool_call_get_result (expected), ==, agent_tool_call_get_result (actual));
  g_assert_cmpint (agent_tool_call_is_error (expected), ==, agent_tool_call_is_error (actual));
  g_assert_cmpint (agent_tool_call_get_duration (expected), ==, agent_tool_call_get_duration (actual));
  assert_same_json (agent_tool_call_get_provider_data (expected),
                    agent_tool_call_get_provider_data (actual));
}

static void
assert_same_message (AgentMessage *expected,
                     AgentMessage *actual)
{
  guint n_calls = agent_message_get_n_tool_calls (expected);

  g_assert_true (expected != actual);
  g_assert_cmpint (agent_message_get_role (expected), ==, agent_message_get_role (actual));
  g_assert_cmpint (agent_message_get_state (expected), ==, agent_message_get_state (actual));
  g_assert_cmpstr (agent_message_get_content (expected), ==, agent_message_get_content (actual));
  g_assert_cmpstr (agent_message_get_reasoning (expected), ==, agent_message_get_reasoning (actual));
  g_assert_cmpstr (agent_message_get_refusal (expected), ==, agent_message_get_refusal (actual));
  g_assert_cmpstr (agent_message_get_tool_call_id (expected), ==,
                   agent_message_get_tool_call_id (actual));
  g_assert_cmpstr (agent_message_get_tool_name (expected), ==, agent_message_get_tool_name (actual));
  g_assert_cmpint (agent_message_is_error (expected), ==, agent_message_is_error (actual));
  g_assert_cmpstr (agent_message_get_finish_reason (expected), ==,
                   agent_message_get_finish_reason (actual));
  g_assert_cmpstr (agent_message_get_response_id (expected), ==,
                   agent_message_get_response_id (actual));
  g_assert_cmpstr (agent_message_get_model (expected), ==, agent_message_get_model (actual));
  g_assert_true (g_date_time_equal (agent_message_get_created (expected),
                                    agent_message_get_created (actual)));
  assert_same_json (agent_message_get_provider_data (expected),
                    agent_message_get_provider_data (actual));
  assert_same_usage (agent_message_get_usage (expected), agent_message_get_usage (actual));
  assert_same_metrics (agent_message_get_metrics (expected), agent_message_get_metrics (actual));
  assert_same_metrics (agent_message_get_turn_metrics (expected),
                       agent_message_get_turn_metrics (actual));

  g_assert_cmpuint (agent_message_get_n_tool_calls (actual), ==, n_calls);
  for (guint i = 0; i < n_calls; i++)
    assert_same_call (agent_message_get_tool_call (expected, i),
                      agent_message_get_tool_call (actual, i));
}

/* Every field of every message, compared through the public API */
void
test_store_assert_same_messages (GListModel *expected,
                                 GListModel *actual)
{
  guint n = g_list_model_get_n_items (expected);

  g_assert_cmpuint (g_list_model_get_n_items (actual), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) a = g_list_model_get_item (expected, i);
      g_autoptr(AgentMessage) b = g_list_model_get_item (actual, i);

      assert_same_message (a, b);
    }
}

/* A turn with a tool: reasoning, two calculator calls, then @answer */
void
test_store_add_tool_turn (AgentTestServer *server,
                          const char      *answer)
{
  static const AgentTestToolChunk calls[] = {
    { 0, "call_a", "calculator", "{\"expression\":" },
    { 1, "call_b", "calculator", "{\"expression\":\"6*7\"}" },
    { 0, NULL, NULL, "\"2+2\"}" },
  };
  AgentTestResponse *response = agent_test_openai_begin (server, "");
  const char * const deltas[] = { answer, NULL };

  agent_test_response_add_sse (response,
                               "{\"choices\":[{\"index\":0,\"delta\":"
                               "{\"reasoning_content\":\"Two sums: use the tool.\"}}]}");
  agent_test_openai_add_text (response, "Let me compute. ");
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    agent_test_openai_add_tool_chunk (response, &calls[i]);
  agent_test_openai_add_end (response, "tool_calls", 30, 12);

  agent_test_openai_add_text_response (server, deltas, 50, 8);
}

void
test_store_append (AgentConversation *conversation,
                   AgentMessage      *message)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), message, &error));
  g_assert_no_error (error);
}
