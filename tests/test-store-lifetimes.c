/* test-store-lifetimes.c — stores and conversations disposed while turns
 * write to them, and agent-cli stopped while it waits for a claim
 *
 * g_object_run_dispose() (a binding's explicit dispose, or an application
 * tearing down) on a conversation a session is writing its turn to: the
 * turn ends once (with AGENT_ERROR_STORAGE at its next write), the
 * database never holds a tool call without its result, and the claim goes
 * to other programs at once. On the store that gave the conversation out:
 * the conversation outlives it, as it does its last reference, and the
 * turn is written whole. Real SQLite files, a real HTTP server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"
#include "test-store-util.h"

/* What a turn gave its callback, and how often it came */
typedef struct
{
  guint         n_calls;
  AgentMessage *message;
  GError       *error;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->message);
  g_clear_error (&outcome->error);
  outcome->n_calls = 0;
}

static gboolean
outcome_arrived (gpointer data)
{
  return ((Outcome *) data)->n_calls > 0;
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_object (&outcome->message);
  g_clear_error (&outcome->error);
  outcome->message = agent_session_send_finish (AGENT_SESSION (object), result, &outcome->error);
}

static void
settle (void)
{
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* A tool the test answers by hand */
typedef struct
{
  AgentToolInvocation *invocation;
} Pending;

static gboolean
pending_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data,
                 GError             **error)
{
  Pending *pending = user_data;

  g_set_object (&pending->invocation, invocation);

  return TRUE;
}

static gboolean
has_started (gpointer data)
{
  return ((Pending *) data)->invocation != NULL;
}

typedef struct
{
  TestStore          db;
  AgentTestServer   *server;
  AgentProvider     *provider;
  AgentSession      *session;
  AgentConversation *conversation;
  Pending            pending;
  Outcome            outcome;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) tool = NULL;
  g_autoptr(GError) error = NULL;

  test_store_open (&f->db);
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  tool = agent_tool_new ("lookup", "A tool the test answers by hand", NULL, pending_handler,
                         &f->pending, NULL);
  agent_session_add_tool (f->session, tool);
  f->conversation = agent_store_create_conversation (f->db.store);
  agent_session_set_memory (f->session, AGENT_MEMORY (f->conversation));
  g_assert_true (agent_conversation_record_session (f->conversation, f->session, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  outcome_clear (&f->outcome);
  g_clear_object (&f->pending.invocation);
  g_assert_finalize_object (f->session);
  g_clear_object (&f->conversation);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  test_store_assert_sound (f->db.path);
  test_store_close (&f->db);
}

static char *
count_rows (Fixture    *f,
            const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", table);

  return test_store_query (f->db.path, sql);
}

/* Another program (another store on the file) may claim it */
static void
assert_claimable_elsewhere (Fixture *f)
{
  g_autoptr(AgentStore) other = test_store_open_again (&f->db);
  g_autoptr(AgentConversation) theirs = NULL;
  g_autoptr(GError) error = NULL;

  theirs = agent_store_lookup_conversation (other, agent_conversation_get_id (f->conversation));
  g_assert_nonnull (theirs);
  g_assert_true (agent_conversation_claim (theirs, &error));
  g_assert_no_error (error);
  agent_conversation_release (theirs);
}

/* Disposed while its tool runs: the call is not written without its
 * result; the result, when it comes, cannot be written either */
static void
test_conversation_dispose_during_tool (Fixture       *f,
                                       gconstpointer  data)
{
  AgentTestResponse *r;
  g_autofree char *messages = NULL;
  g_autofree char *calls = NULL;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_1", "lookup", "{}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);

  agent_session_send_async (f->session, "Look it up", NULL, sent_cb, &f->outcome);
  agent_test_wait_until (has_started, &f->pending);

  g_object_run_dispose (G_OBJECT (f->conversation));
  assert_claimable_elsewhere (f);
  agent_tool_invocation_return_result (f->pending.invocation, "found");
  agent_test_wait_until (outcome_arrived, &f->outcome);
  settle ();

  g_assert_cmpuint (f->outcome.n_calls, ==, 1);
  g_assert_error (f->outcome.error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (f->outcome.error->message, "closed");
  /* The question only: no call without its result */
  messages = count_rows (f, "messages");
  calls = count_rows (f, "tool_calls");
  g_assert_cmpstr (messages, ==, "1");
  g_assert_cmpstr (calls, ==, "0");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  assert_claimable_elsewhere (f);
}

/* Disposed while the answer streams: the answer cannot be written */
static void
test_conversation_dispose_mid_stream (Fixture       *f,
                                      gconstpointer  data)
{
  AgentTestResponse *r;
  g_autofree char *messages = NULL;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Once upon");
  agent_test_response_add_wait (r);
  agent_test_openai_add_text (r, " a time.");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_session_send_async (f->session, "Tell a story", NULL, sent_cb, &f->outcome);
  agent_test_server_wait_until_waiting (f->server);

  g_object_run_dispose (G_OBJECT (f->conversation));
  assert_claimable_elsewhere (f);
  agent_test_server_release (f->server);
  agent_test_wait_until (outcome_arrived, &f->outcome);
  settle ();

  g_assert_cmpuint (f->outcome.n_calls, ==, 1);
  g_assert_error (f->outcome.error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  messages = count_rows (f, "messages");
  g_assert_cmpstr (messages, ==, "1");
  g_assert_false (agent_session_get_busy (f->session));
}

/* The store disposed, or dropped, mid-turn: the conversation outlives it
 * and the turn is written whole; the store's list does not come back */
static void
test_store_dispose_mid_turn (Fixture       *f,
                             gconstpointer  data)
{
  AgentTestResponse *r;
  g_autofree char *messages = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(AgentConversation) written = NULL;
  gboolean drop = GPOINTER_TO_INT (data);

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_1", "lookup", "{}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Found it.");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_session_send_async (f->session, "Look it up", NULL, sent_cb, &f->outcome);
  agent_test_wait_until (has_started, &f->pending);

  if (drop)
    g_assert_finalize_object (g_steal_pointer (&f->db.store));
  else
    g_object_run_dispose (G_OBJECT (f->db.store));
  agent_tool_invocation_return_result (f->pending.invocation, "found");
  agent_test_wait_until (outcome_arrived, &f->outcome);
  settle ();

  g_assert_cmpuint (f->outcome.n_calls, ==, 1);
  g_assert_no_error (f->outcome.error);
  g_assert_cmpstr (agent_message_get_content (f->outcome.message), ==, "Found it.");
  messages = count_rows (f, "messages");
  g_assert_cmpstr (messages, ==, "4");
  if (!drop)
    {
      g_autoptr(GListModel) list = agent_store_list_conversations (f->db.store);

      g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);
    }

  other = test_store_open_again (&f->db);
  written = agent_store_lookup_conversation (other, agent_conversation_get_id (f->conversation));
  g_assert_nonnull (written);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (written)), ==, 4);
  assert_claimable_elsewhere (f);
}

/* agent-cli waiting for a conversation another program holds, stopped:
 * it leaves at once, having sent and written nothing, and the other
 * program keeps its claim */
static gboolean
says_waiting (gpointer data)
{
  AgentTestProcess *cli = data;

  return strstr (cli->err->str, "Another program is adding to this conversation") != NULL;
}

static void
test_cli_stopped_while_waiting (Fixture       *f,
                                gconstpointer  data)
{
  static const char * const answer[] = { "Hello.", NULL };
  static const int signals[] = { SIGINT, SIGTERM };
  g_autoptr(GError) error = NULL;

  /* A conversation agent-cli can continue, claimed by this program */
  agent_test_openai_add_text_response (f->server, answer, 1, 1);
  agent_session_send_async (f->session, "Hi", NULL, sent_cb, &f->outcome);
  agent_test_wait_until (outcome_arrived, &f->outcome);
  g_assert_no_error (f->outcome.error);
  g_assert_true (agent_conversation_claim (f->conversation, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      g_autofree char *messages = NULL;

      cli = agent_test_cli_spawn (NULL, NULL,
                                  AGENT_TEST_ARGS ("--store", f->db.path, "--base-url",
                                                   agent_test_server_get_base_url (f->server),
                                                   "--continue", "Are you there?"));
      agent_test_wait_until (says_waiting, cli);
      g_subprocess_send_signal (cli->process, signals[i]);
      agent_test_process_wait (cli);

      /* Both are an interruption */
      agent_test_process_assert_exit (cli, 130);
      g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
      messages = count_rows (f, "messages");
      g_assert_cmpstr (messages, ==, "2");
    }

  /* Still ours */
  {
    g_autoptr(AgentStore) other = test_store_open_again (&f->db);
    g_autoptr(AgentConversation) theirs = NULL;

    theirs = agent_store_lookup_conversation (other, agent_conversation_get_id (f->conversation));
    g_assert_false (agent_conversation_claim (theirs, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_BUSY);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func, data) \
  g_test_add (path, Fixture, data, fixture_setup, func, fixture_teardown)

  ADD ("/lifetimes/store/conversation-dispose-during-tool", test_conversation_dispose_during_tool,
       NULL);
  ADD ("/lifetimes/store/conversation-dispose-mid-stream", test_conversation_dispose_mid_stream,
       NULL);
  ADD ("/lifetimes/store/store-dispose-mid-turn", test_store_dispose_mid_turn,
       GINT_TO_POINTER (FALSE));
  ADD ("/lifetimes/store/store-unref-mid-turn", test_store_dispose_mid_turn,
       GINT_TO_POINTER (TRUE));
  ADD ("/lifetimes/store/cli-stopped-while-waiting", test_cli_stopped_while_waiting, NULL);

  return g_test_run ();
}
