/* test-store-concurrency.c — several programs writing one database: two
 * continuing the same conversation, a writer that keeps the database
 * busy for longer than a fixed timeout, and errors that name the file
 *
 * Real SQLite files; agent-cli processes against an AgentTestServer
 * served from this process's main loop; other programs' connections as
 * second AgentStores (each its own connection and claims, as another
 * process has).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

static void
append (AgentConversation *conversation,
        AgentMessageRole   role,
        const char        *text)
{
  g_autoptr(AgentMessage) message = agent_message_new (role, text);
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), message, &error));
  g_assert_no_error (error);
  /* In, as another program sees it */
  test_store_flush_conversation (conversation);
}

static void
assert_contents (GListModel         *model,
                 const char * const *expected)
{
  guint n = g_list_model_get_n_items (model);

  g_assert_cmpuint (n, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (model, i);

      g_assert_cmpstr (agent_message_get_content (message), ==, expected[i]);
    }
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

/* Two connections, as two programs: the one whose turn runs has the
 * conversation, the other is refused (and writes nothing) until that
 * turn is at rest, then goes on after it. */
static void
test_claim (void)
{
  TestStore db;
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(AgentConversation) mine = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;
  g_autofree char *id_text = NULL;
  g_autoptr(AgentConversation) theirs = NULL;
  guint changes = 0;
  gint64 id;

  test_store_open (&db);
  mine = agent_store_create_conversation (db.store);
  append (mine, AGENT_MESSAGE_ROLE_USER, "one");
  id = agent_conversation_get_id (mine);

  /* My turn runs: the other program waits, and writes nothing */
  other_store = test_store_open_again (&db);
  theirs = agent_store_lookup_conversation (other_store, id);
  g_assert_nonnull (theirs);
  g_signal_connect (theirs, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  g_assert_false (agent_conversation_claim (theirs, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_BUSY);
  id_text = g_strdup_printf ("conversation %" G_GINT64_FORMAT " of %s", id, db.path);
  agent_test_assert_contains (error->message, id_text);
  g_clear_error (&error);
  {
    g_autoptr(AgentMessage) message = agent_message_new (AGENT_MESSAGE_ROLE_USER, "too early");

    g_assert_false (agent_memory_append (AGENT_MEMORY (theirs), message, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_BUSY);
    g_clear_error (&error);
  }
  count = test_store_query (db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "1");

  /* My answer: the turn is at rest; theirs goes on after it */
  append (mine, AGENT_MESSAGE_ROLE_ASSISTANT, "answer one");
  g_assert_true (agent_conversation_claim (theirs, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, >, 0);
  append (theirs, AGENT_MESSAGE_ROLE_USER, "two");
  append (theirs, AGENT_MESSAGE_ROLE_ASSISTANT, "answer two");

  /* Mine goes on after theirs, without asking (the write claims) */
  append (mine, AGENT_MESSAGE_ROLE_USER, "three");
  assert_contents (G_LIST_MODEL (mine),
                   (const char * const[]) { "one", "answer one", "two", "answer two", "three",
                                            NULL });

  /* A cut chosen on what they had is refused once mine moved on */
  g_assert_false (agent_memory_truncate (AGENT_MEMORY (theirs), 3, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_BUSY);
  g_clear_error (&error);
  append (mine, AGENT_MESSAGE_ROLE_ASSISTANT, "answer three");
  g_assert_false (agent_memory_truncate (AGENT_MEMORY (theirs), 3, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_BUSY);
  agent_test_assert_contains (error->message, "read again, and nothing was changed");
  g_clear_error (&error);
  assert_contents (G_LIST_MODEL (theirs),
                   (const char * const[]) { "one", "answer one", "two", "answer two", "three",
                                            "answer three", NULL });

  /* A claim given up by hand, and one that goes with its program */
  g_assert_true (agent_conversation_claim (theirs, &error));
  g_assert_false (agent_conversation_claim (mine, &error));
  g_clear_error (&error);
  agent_conversation_release (theirs);
  g_assert_true (agent_conversation_claim (mine, &error));
  g_assert_no_error (error);
  g_assert_false (agent_conversation_claim (theirs, &error));
  g_clear_error (&error);
  g_clear_object (&mine);
  g_assert_finalize_object (g_steal_pointer (&db.store));  /* the program is gone */
  g_assert_true (agent_conversation_claim (theirs, &error));
  g_assert_no_error (error);

  g_signal_handlers_disconnect_by_data (theirs, &changes);
  g_clear_object (&theirs);
  g_assert_finalize_object (g_steal_pointer (&other_store));
  test_store_assert_sound (db.path);
  test_store_close (&db);
}

/* A turn that fails before the model answers leaves the question last:
 * no answer puts the turn at rest, but its end, in the session the
 * conversation was recorded with, lets other programs go on. */
static void
test_failed_turn_releases (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) theirs = NULL;
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *r;
  AgentTestTurn turn = { 0 };
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  g_assert_true (agent_conversation_record_session (conversation, session, &error));
  g_assert_no_error (error);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  agent_provider_set_max_retries (provider, 0);
  r = agent_test_server_add_response (server, 500);
  agent_test_response_set_body (r, "application/json", "{\"error\":{\"message\":\"down\"}}");

  agent_test_turn_run (&turn, session, "Anyone there?", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 1);

  other_store = test_store_open_again (&db);
  theirs = agent_store_lookup_conversation (other_store,
                                            agent_conversation_get_id (conversation));
  g_assert_true (agent_conversation_claim (theirs, &error));
  g_assert_no_error (error);

  agent_test_turn_clear (&turn);
  g_clear_object (&theirs);
  g_assert_finalize_object (g_steal_pointer (&other_store));
  g_clear_object (&conversation);
  g_assert_finalize_object (g_steal_pointer (&session));
  test_store_close (&db);
}

/* agent-cli -c twice at once, five turns each: every turn succeeds, each
 * answer printed is kept, and the conversation alternates question and
 * answer, each answer after its question */
typedef struct
{
  const char      *path;
  char             name;
  guint            n_done;
  guint            n_failed;
  AgentTestProcess *cli;
  GPtrArray       *printed;
} Worker;

static void
respond_after_last_user (AgentTestServer *server,
                         const char      *path,
                         JsonNode        *body,
                         gpointer         user_data)
{
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  JsonObject *last = json_array_get_object_element (messages,
                                                    json_array_get_length (messages) - 1);
  g_autofree char *answer = g_strdup_printf ("re: %s", json_object_get_string_member (last,
                                                                                  "content"));
  AgentTestResponse *r = agent_test_openai_begin (server, "");

  /* Slow enough for the other program to come in the middle */
  agent_test_response_add_delay (r, 100);
  agent_test_openai_add_text (r, answer);
  agent_test_openai_add_end (r, "stop", 1, 1);
}

static void
worker_next (Worker *worker)
{
  g_autofree char *prompt = g_strdup_printf ("%c%u", worker->name, worker->n_done);

  worker->cli = agent_test_cli_spawn (NULL, NULL,
                                      AGENT_TEST_ARGS ("--json", "--store", worker->path, "-c",
                                                       prompt));
}

static gboolean
workers_done (gpointer data)
{
  Worker *workers = data;

  for (guint w = 0; w < 2; w++)
    {
      Worker *worker = &workers[w];

      if (worker->cli == NULL || !agent_test_process_is_finished (worker->cli))
        continue;

      agent_test_process_parse_json (worker->cli);
      if (worker->cli->status == 0)
        g_ptr_array_add (worker->printed, g_strdup (agent_test_cli_done_content (worker->cli)));
      else
        {
          g_test_message ("%c%u failed: %s", worker->name, worker->n_done,
                          worker->cli->out->str);
          worker->n_failed++;
        }
      g_clear_pointer (&worker->cli, agent_test_process_free);
      if (++worker->n_done < 5)
        worker_next (worker);
    }

  return workers[0].cli == NULL && workers[1].cli == NULL;
}

static void
test_continue_two_processes (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) first = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  TestStore db;
  Worker workers[2] = {
    { NULL, 'A', 0, 0, NULL, g_ptr_array_new_with_free_func (g_free) },
    { NULL, 'B', 0, 0, NULL, g_ptr_array_new_with_free_func (g_free) },
  };
  guint n;

  test_store_open (&db);
  g_clear_object (&db.store);
  agent_test_server_set_responder (server, respond_after_last_user, NULL);

  first = agent_test_cli_run (AGENT_TEST_ARGS ("--store", db.path, "--base-url",
                                               agent_test_server_get_base_url (server),
                                               "start"));
  agent_test_process_assert_exit (first, 0);

  for (guint w = 0; w < 2; w++)
    {
      workers[w].path = db.path;
      worker_next (&workers[w]);
    }
  agent_test_wait_until (workers_done, workers);

  /* Every turn succeeded, and what it printed is kept */
  store = test_store_open_again (&db);
  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  conversation = g_list_model_get_item (list, 0);
  g_assert_true (agent_conversation_load (conversation, &error));
  g_assert_no_error (error);

  n = g_list_model_get_n_items (G_LIST_MODEL (conversation));
  g_assert_cmpuint (workers[0].n_failed + workers[1].n_failed, ==, 0);
  g_assert_cmpuint (n, ==, 22);
  for (guint i = 0; i < n; i += 2)
    {
      g_autoptr(AgentMessage) question = g_list_model_get_item (G_LIST_MODEL (conversation), i);
      g_autoptr(AgentMessage) answer = g_list_model_get_item (G_LIST_MODEL (conversation), i + 1);
      g_autofree char *expected = g_strdup_printf ("re: %s",
                                                   agent_message_get_content (question));

      g_assert_cmpint (agent_message_get_role (question), ==, AGENT_MESSAGE_ROLE_USER);
      g_assert_cmpint (agent_message_get_role (answer), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
      g_assert_cmpstr (agent_message_get_content (answer), ==, expected);
    }
  for (guint w = 0; w < 2; w++)
    {
      g_assert_cmpuint (workers[w].printed->len, ==, 5);
      for (guint i = 0; i < workers[w].printed->len; i++)
        {
          g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM messages WHERE "
                                                  "content = '%s'",
                                                  (char *) g_ptr_array_index (workers[w].printed,
                                                                              i));
          g_autofree char *count = test_store_query (db.path, sql);

          g_assert_cmpstr (count, ==, "1");
        }
      g_ptr_array_unref (workers[w].printed);
    }

  g_clear_object (&conversation);
  g_clear_object (&list);
  g_assert_finalize_object (g_steal_pointer (&store));
  test_store_assert_sound (db.path);
  test_store_close (&db);
}

/* Another program keeps the database busy — short transactions, one after
 * the other, for longer than a fixed busy timeout (10 s) — while agent-cli
 * has an answer to keep: it waits its turn, and keeps it. */
typedef struct
{
  char     *path;
  GThread  *thread;
  gint      started;
  gint      stop;
} Hog;

static gpointer
hog_thread (gpointer data)
{
  Hog *hog = data;
  sqlite3 *db = NULL;
  gint64 end = g_get_monotonic_time () + 12 * G_USEC_PER_SEC;

  g_assert_cmpint (sqlite3_open (hog->path, &db), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 60000);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE IF NOT EXISTS hog (x)", NULL, NULL, NULL),
                   ==, SQLITE_OK);

  /* The lock is free for a moment between two transactions only */
  g_assert_cmpint (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);
  g_atomic_int_set (&hog->started, TRUE);
  while (g_get_monotonic_time () < end && !g_atomic_int_get (&hog->stop))
    {
      g_assert_cmpint (sqlite3_exec (db, "INSERT INTO hog VALUES (1)", NULL, NULL, NULL),
                       ==, SQLITE_OK);
      g_usleep (50 * 1000);
      g_assert_cmpint (sqlite3_exec (db, "COMMIT; BEGIN IMMEDIATE", NULL, NULL, NULL),
                       ==, SQLITE_OK);
    }
  sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
  sqlite3_close (db);
  return NULL;
}

static void
start_hog (AgentTestServer *server,
           const char      *path,
           JsonNode        *body,
           gpointer         user_data)
{
  Hog *hog = user_data;
  const char * const deltas[] = { "Kept ", "in the end", NULL };

  /* The question is stored: now the database is busy, and the answer
   * comes at once */
  if (hog->thread == NULL)
    {
      hog->thread = g_thread_new ("hog", hog_thread, hog);
      while (!g_atomic_int_get (&hog->started))
        g_usleep (1000);
    }
  agent_test_openai_add_text_response (server, deltas, 1, 1);
}

static void
test_busy_writer (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *count = NULL;
  TestStore db;
  Hog hog = { 0 };

  test_store_open (&db);
  g_clear_object (&db.store);
  hog.path = db.path;
  agent_test_server_set_responder (server, start_hog, &hog);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--store", db.path, "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Hello"));
  g_atomic_int_set (&hog.stop, TRUE);
  g_thread_join (hog.thread);

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Kept in the end");
  count = test_store_query (db.path, "SELECT count(*) FROM messages WHERE "
                                     "content = 'Kept in the end'");
  g_assert_cmpstr (count, ==, "1");

  test_store_assert_sound (db.path);
  test_store_close (&db);
}

/* Errors of the store name its file */
static void
test_errors_name_file (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-errors");
  g_autofree char *garbage = agent_test_write_file (dir, "garbage.db",
                                                    "This is not a database, not at all; it "
                                                    "is text, long enough to be seen as a file "
                                                    "SQLite would have to read a header from.", -1);
  g_autofree char *foreign = g_build_filename (dir, "foreign.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = NULL;

  store = agent_store_new (garbage, &error);
  g_assert_null (store);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (error->message, garbage);
  g_clear_error (&error);

  test_store_exec (foreign, "PRAGMA application_id = 42; CREATE TABLE t (x);");
  store = agent_store_new (foreign, &error);
  g_assert_null (store);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (error->message, "foreign.db is a database of another program");
  g_clear_error (&error);

  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/concurrency/claim", test_claim);
  g_test_add_func ("/store/concurrency/failed-turn-releases", test_failed_turn_releases);
  g_test_add_func ("/store/concurrency/continue-two-processes", test_continue_two_processes);
  g_test_add_func ("/store/concurrency/busy-writer", test_busy_writer);
  g_test_add_func ("/store/concurrency/errors-name-file", test_errors_name_file);

  return g_test_run ();
}
