/* test-store-async.c — the store's writer thread and its asynchronous reads
 *
 * Real SQLite files in temporary folders: the order of many quick
 * appends, the thread each commit's fsync runs on, reads beside the
 * writes, cancelled reads, a disk that fills up, and opening a store on
 * a thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

/* Every fdatasync() SQLite makes (it commits with synchronous=FULL),
 * counted by the thread it runs on: this program's own comes before the
 * C library's. */
static GThread *main_thread;
static gint n_main_syncs;
static gint n_other_syncs;

int
fdatasync (int fd)
{
  static int (*real_fdatasync) (int);

  if (real_fdatasync == NULL)
    real_fdatasync = (int (*) (int)) dlsym (RTLD_NEXT, "fdatasync");

  if (g_thread_self () == main_thread)
    g_atomic_int_inc (&n_main_syncs);
  else
    g_atomic_int_inc (&n_other_syncs);
  return real_fdatasync (fd);
}

static void
append (AgentConversation *conversation,
        AgentMessage      *message)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), message, &error));
  g_assert_no_error (error);
  g_object_unref (message);
}

/* Message @i of a long conversation: questions, answers, and now and then
 * an answer with two calls and their results */
static void
append_numbered (AgentConversation *conversation,
                 guint              i)
{
  g_autofree char *text = g_strdup_printf ("Message %u: %s", i, i % 7 ? "words" : "äöü ✓");

  if (i % 50 == 49)
    {
      AgentMessage *calls = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, text);
      g_autoptr(AgentToolCall) a = agent_tool_call_new ("call_a", "calculator", "{\"e\":\"1\"}");
      g_autoptr(AgentToolCall) b = agent_tool_call_new ("call_b", "calculator", "{\"e\":\"2\"}");

      agent_message_add_tool_call (calls, a);
      agent_message_add_tool_call (calls, b);
      append (conversation, calls);
      append (conversation, agent_message_new_tool_result ("call_a", "calculator", "1", FALSE));
      append (conversation, agent_message_new_tool_result ("call_b", "calculator", "2", FALSE));
    }
  else
    append (conversation, agent_message_new (i % 2 ? AGENT_MESSAGE_ROLE_ASSISTANT
                                                   : AGENT_MESSAGE_ROLE_USER, text));
}

/* 1,000 appends in a row, without the main loop running between them:
 * the list has them at once, the file has them all, in order, once
 * flushed; a store opened afresh reads the same. */
static void
test_ordering (void)
{
  TestStore db = { 0 };
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autofree char *positions = NULL;
  g_autofree char *expected = NULL;
  guint n;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  for (guint i = 0; i < 1000; i++)
    append_numbered (conversation, i);
  n = g_list_model_get_n_items (G_LIST_MODEL (conversation));
  g_assert_cmpuint (n, ==, 1000 + 2 * 20);

  test_store_flush (db.store);
  g_assert_cmpint (agent_conversation_get_id (conversation), ==, 1);
  positions = test_store_query (db.path, "SELECT count(*) || ':' || min (position) || ':' || "
                                         "max (position) || ':' || count (DISTINCT position) "
                                         "FROM messages WHERE conversation_id = 1");
  expected = g_strdup_printf ("%u:0:%u:%u", n, n - 1, n);
  g_assert_cmpstr (positions, ==, expected);

  copy = test_store_read_back (&db, 1, &other);
  test_store_assert_same_messages (G_LIST_MODEL (conversation), G_LIST_MODEL (copy));
  g_clear_object (&copy);
  g_clear_object (&other);
  g_clear_object (&conversation);
  test_store_assert_sound (db.path);
  test_store_close (&db);
}

/* A turn with a tool call, through a real session and HTTP: every commit
 * (each an fdatasync) runs on the store's writer thread, none on the
 * main thread that runs the turn. */
static void
test_commit_thread (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestTurn turn = { 0 };
  TestStore db = { 0 };

  test_store_open (&db);
  agent_session_add_tool (session, calculator);
  conversation = agent_store_create_conversation (db.store);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  g_assert_true (agent_conversation_record_session (conversation, session, &error));
  g_assert_no_error (error);
  test_store_add_tool_turn (server, "It is 4.");

  /* From here on: opening the store committed its schema on this thread */
  g_atomic_int_set (&n_main_syncs, 0);
  g_atomic_int_set (&n_other_syncs, 0);
  agent_test_turn_run (&turn, session, "What is 2 + 2?", NULL);
  g_assert_no_error (turn.error);
  g_assert_true (agent_conversation_rename (conversation, "Sums", &error));
  g_assert_no_error (error);
  test_store_flush (db.store);

  /* The question, the calls with their results, the answer, the title:
   * at least three commits, each synced, none on this thread */
  g_assert_cmpint (g_atomic_int_get (&n_other_syncs), >=, 3);
  g_assert_cmpint (g_atomic_int_get (&n_main_syncs), ==, 0);

  copy = test_store_read_back (&db, agent_conversation_get_id (conversation), &other);
  test_store_assert_same_messages (G_LIST_MODEL (conversation), G_LIST_MODEL (copy));
  g_assert_cmpstr (agent_conversation_get_title (copy), ==, "Sums");
  agent_test_turn_clear (&turn);
  g_clear_object (&copy);
  g_clear_object (&other);
  g_clear_object (&session);
  g_clear_object (&conversation);
  test_store_close (&db);
}

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      data)
{
  ((Wait *) data)->result = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return ((Wait *) data)->result != NULL;
}

static GListModel *
search (AgentStore    *store,
        const char    *text,
        GCancellable  *cancellable,
        GError       **error)
{
  Wait wait = { NULL };
  GListModel *found;

  agent_store_search_async (store, text, cancellable, done_cb, &wait);
  agent_test_wait_until (has_result, &wait);
  found = agent_store_search_finish (store, wait.result, error);
  g_object_unref (wait.result);
  return found;
}

static gboolean
load (AgentConversation  *conversation,
      GCancellable       *cancellable,
      GError            **error)
{
  Wait wait = { NULL };
  gboolean loaded;

  agent_conversation_load_async (conversation, cancellable, done_cb, &wait);
  agent_test_wait_until (has_result, &wait);
  loaded = agent_conversation_load_finish (conversation, wait.result, error);
  g_object_unref (wait.result);
  return loaded;
}

/* Searches and loads on threads, on connections of their own, while the
 * writer commits a long queue of messages: each sees whole transactions
 * (a conversation written before, found and read whole; the one being
 * written, seen with a whole number of its batches) */
static void
test_read_beside_writes (void)
{
  TestStore db = { 0 };
  g_autoptr(AgentConversation) kept = NULL;
  g_autoptr(AgentConversation) busy = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(GListModel) found = NULL;
  g_autoptr(AgentSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint n_seen;

  test_store_open (&db);
  kept = agent_store_create_conversation (db.store);
  for (guint i = 0; i < 200; i++)
    append_numbered (kept, i);
  append (kept, agent_message_new (AGENT_MESSAGE_ROLE_USER, "About zanzibar"));
  test_store_flush (db.store);

  /* A second store reads, while the first one's writer is busy */
  busy = agent_store_create_conversation (db.store);
  append (busy, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Start"));
  other = test_store_open_again (&db);
  for (guint i = 0; i < 600; i++)
    append (busy, agent_message_new (AGENT_MESSAGE_ROLE_USER, "More about zanzibar"));

  found = search (other, "zanzibar", NULL, &error);
  g_assert_no_error (error);
  /* The one written before, last in the list; the other if its batches
   * with the word were in */
  g_assert_cmpuint (g_list_model_get_n_items (found), >=, 1);
  result = g_list_model_get_item (found, g_list_model_get_n_items (found) - 1);
  g_assert_cmpint (agent_conversation_get_id (agent_search_result_get_conversation (result)), ==,
                   agent_conversation_get_id (kept));
  g_assert_cmpint (agent_search_result_get_position (result), ==,
                   g_list_model_get_n_items (G_LIST_MODEL (kept)) - 1);

  /* Written by this process, in memory; read by the other store only when
   * asked (a new conversation has nothing to read) */
  g_assert_true (agent_conversation_is_loaded (kept));
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (kept));
  g_assert_false (agent_conversation_is_loaded (copy));
  g_assert_true (load (copy, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (agent_conversation_is_loaded (copy));
  test_store_assert_same_messages (G_LIST_MODEL (kept), G_LIST_MODEL (copy));
  g_clear_object (&copy);
  copy = agent_store_create_conversation (other);
  g_assert_true (agent_conversation_is_loaded (copy));
  g_clear_object (&copy);

  /* The one being written: a whole number of batches (one message each) */
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (busy));
  g_assert_nonnull (copy);
  g_assert_true (load (copy, NULL, &error));
  g_assert_no_error (error);
  n_seen = g_list_model_get_n_items (G_LIST_MODEL (copy));
  g_assert_cmpuint (n_seen, >=, 1);
  g_assert_cmpuint (n_seen, <=, 601);
  g_clear_object (&copy);

  test_store_flush (db.store);
  g_clear_object (&found);
  g_clear_object (&result);
  g_clear_object (&other);
  other = test_store_open_again (&db);
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (busy));
  g_assert_true (load (copy, NULL, &error));
  test_store_assert_same_messages (G_LIST_MODEL (busy), G_LIST_MODEL (copy));

  g_clear_object (&copy);
  g_clear_object (&other);
  g_clear_object (&busy);
  g_clear_object (&kept);
  test_store_close (&db);
}

static void
flush_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      data)
{
  GError **error = data;

  g_assert_false (agent_store_flush_finish (AGENT_STORE (object), result, error));
}

/* Reads cancelled before they start, or as soon as they are asked for,
 * finish with G_IO_ERROR_CANCELLED and change nothing; a cancelled flush
 * stops waiting, not the writes */
static void
test_cancel (void)
{
  TestStore db = { 0 };
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GListModel) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;
  Wait wait = { NULL };

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  for (guint i = 0; i < 100; i++)
    append_numbered (conversation, i);
  other = test_store_open_again (&db);

  /* Cancelled before */
  g_cancellable_cancel (cancellable);
  g_assert_null (search (other, "words", cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  copy = agent_store_lookup_conversation (other, agent_conversation_get_id (conversation));
  g_assert_false (load (copy, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* Cancelled while it runs */
  g_cancellable_reset (cancellable);
  agent_store_search_async (other, "words", cancellable, done_cb, &wait);
  g_cancellable_cancel (cancellable);
  agent_test_wait_until (has_result, &wait);
  g_assert_null (agent_store_search_finish (other, wait.result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&wait.result);

  g_cancellable_reset (cancellable);
  agent_conversation_load_async (copy, cancellable, done_cb, &wait);
  g_cancellable_cancel (cancellable);
  agent_test_wait_until (has_result, &wait);
  g_assert_false (agent_conversation_load_finish (copy, wait.result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&wait.result);

  /* Nothing half done: read afresh, it is whole */
  g_assert_true (load (copy, NULL, &error));
  g_assert_no_error (error);
  test_store_assert_same_messages (G_LIST_MODEL (conversation), G_LIST_MODEL (copy));
  found = search (other, "words", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (found), ==, 1);

  /* A flush cancelled at once: the writes still go in */
  g_cancellable_reset (cancellable);
  for (guint i = 100; i < 400; i++)
    append_numbered (conversation, i);
  agent_store_flush_async (db.store, cancellable, flush_done_cb, &error);
  g_cancellable_cancel (cancellable);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  test_store_flush (db.store);
  count = test_store_query (db.path, "SELECT count(*) FROM messages");
  g_assert_cmpuint (g_ascii_strtoull (count, NULL, 10), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (conversation)));

  g_clear_object (&copy);
  g_clear_object (&other);
  g_clear_object (&conversation);
  test_store_close (&db);
}

static void
write_failed_cb (AgentConversation *conversation,
                 const GError      *error,
                 GError           **seen)
{
  g_assert_null (*seen);
  *seen = g_error_copy (error);
}

/* The disk fills up (a file size limit, as the kernel enforces it, on the
 * writer's thread as on any other): the failure reaches the user through
 * write-failed, the flush and the next turn, which sends nothing; what
 * was written before stays, and the file is sound. */
static void
test_disk_full (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(GError) failed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *wal = NULL;
  g_autoptr(GString) big = g_string_new (NULL);
  struct rlimit saved, limit;
  AgentTestTurn turn = { 0 };
  TestStore db = { 0 };
  GStatBuf info;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  g_signal_connect (conversation, "write-failed", G_CALLBACK (write_failed_cb), &failed);
  agent_test_openai_add_text_response (server, (const char *[]) { "Hello.", NULL }, 1, 1);
  agent_test_turn_run (&turn, session, "Hi", NULL);
  g_assert_no_error (turn.error);
  test_store_flush (db.store);

  /* No file may grow any more */
  wal = g_strconcat (db.path, "-wal", NULL);
  g_assert_cmpint (g_stat (wal, &info), ==, 0);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = info.st_size;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

  for (guint i = 0; i < 20000; i++)
    g_string_append (big, "A long question. ");
  agent_test_openai_add_text_response (server, (const char *[]) { "Never.", NULL }, 1, 1);
  agent_test_turn_run (&turn, session, big->str, NULL);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);

  /* Told three ways; the model was not asked */
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_assert_error (failed, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (failed->message, db.path);
  g_assert_cmpstr (turn.error->message, ==, failed->message);
  g_assert_false (test_store_try_flush (db.store, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_clear_error (&error);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  /* What the user sees stays; nothing more is written, even with room */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 3);
  {
    g_autoptr(AgentMessage) more = agent_message_new (AGENT_MESSAGE_ROLE_USER, "And now?");

    g_assert_false (agent_memory_append (AGENT_MEMORY (conversation), more, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
    g_clear_error (&error);
  }

  /* The first turn is kept, and the file is sound */
  copy = test_store_read_back (&db, agent_conversation_get_id (conversation), &other);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, 2);
  g_signal_handlers_disconnect_by_data (conversation, &failed);
  agent_test_turn_clear (&turn);
  g_clear_object (&copy);
  g_clear_object (&other);
  g_clear_object (&session);
  g_clear_object (&conversation);
  test_store_assert_sound (db.path);
  test_store_close (&db);
}

/* Opening on a thread: the list as agent_store_new() reads it; a file
 * that is not a database, refused */
static void
test_new_async (void)
{
  TestStore db = { 0 };
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *garbage = NULL;
  Wait wait = { NULL };

  test_store_open (&db);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(AgentConversation) conversation = agent_store_create_conversation (db.store);
      g_autofree char *text = g_strdup_printf ("Conversation %u", i);

      append (conversation, agent_message_new (AGENT_MESSAGE_ROLE_USER, text));
    }
  test_store_flush (db.store);

  agent_store_new_async (db.path, NULL, done_cb, &wait);
  agent_test_wait_until (has_result, &wait);
  store = agent_store_new_finish (wait.result, &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 3);
  {
    g_autoptr(AgentConversation) newest = g_list_model_get_item (list, 0);

    g_assert_cmpstr (agent_conversation_get_title (newest), ==, "Conversation 2");
  }

  garbage = agent_test_write_file (db.dir, "garbage.db", "Not a database, not at all. " \
                                   "Not a database, not at all. Not a database, not at all.", -1);
  agent_store_new_async (garbage, NULL, done_cb, &wait);
  agent_test_wait_until (has_result, &wait);
  g_assert_null (agent_store_new_finish (wait.result, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_clear_object (&wait.result);

  /* Not g_assert_finalize_object(): GTask's thread may hold the last
   * reference a little longer */
  g_clear_object (&list);
  g_clear_object (&store);
  test_store_close (&db);
}

int
main (int   argc,
      char *argv[])
{
  main_thread = g_thread_self ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/async/ordering", test_ordering);
  g_test_add_func ("/store/async/commit-thread", test_commit_thread);
  g_test_add_func ("/store/async/read-beside-writes", test_read_beside_writes);
  g_test_add_func ("/store/async/cancel", test_cancel);
  g_test_add_func ("/store/async/disk-full", test_disk_full);
  g_test_add_func ("/store/async/new-async", test_new_async);

  return g_test_run ();
}
