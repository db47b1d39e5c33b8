/* test-connections.c
 *
 * Connections: the steps of a tool loop, the turns of a session and the
 * sessions of a provider share one kept-alive connection; a server that
 * closes connections (saying so, or not, or while a request is on its
 * way), dies in the middle of an answer, or hangs while the client cancels
 * costs no request its answer, no text twice, and no connection held.
 * The server (agent-test-conn-server.c) counts the TCP connections.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-conn-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestConnServer *server;
  AgentProvider       *provider;
  AgentSession        *session;
  AgentTestTurn        turn;
  GString             *text;
  guint                n_retries;
  GCancellable        *cancel_on_text;
} Fixture;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
  if (f->cancel_on_text != NULL)
    g_cancellable_cancel (f->cancel_on_text);
}

static void
retry_cb (AgentSession *session,
          guint         attempt,
          double        delay,
          const GError *error,
          Fixture      *f)
{
  f->n_retries++;
}

static AgentSession *
new_session (Fixture *f)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentSession *session = agent_session_new (f->provider);

  agent_session_add_tool (session, calculator);
  g_signal_connect (session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (session, "retry", G_CALLBACK (retry_cb), f);
  return session;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = agent_test_conn_server_new (GPOINTER_TO_INT (data));
  f->provider = agent_provider_new ("openai", NULL);
  agent_provider_set_base_url (f->provider, agent_test_conn_server_get_base_url (f->server));
  agent_provider_set_model (f->provider, "test-model");
  f->session = new_session (f);
  f->text = g_string_new (NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_clear_object (&f->cancel_on_text);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_conn_server_free (f->server);
  g_string_free (f->text, TRUE);
}

/* Runs a turn that must succeed; returns its text */
static const char *
run_turn (Fixture    *f,
          const char *prompt)
{
  g_string_truncate (f->text, 0);
  agent_test_turn_run (&f->turn, f->session, prompt, NULL);
  g_assert_no_error (f->turn.error);
  g_assert_nonnull (f->turn.result);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, f->text->str);
  return f->text->str;
}

static gboolean
hung_up (gpointer data)
{
  Fixture *f = data;

  return agent_test_conn_server_get_n_hung_up (f->server) == 1;
}

/* A two-step tool loop (the tool call, then the text) on one connection */
static void
test_tool_loop (Fixture       *f,
                gconstpointer  data)
{
  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 1);

  /* The next turn goes on on the same connection */
  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 1);
  g_assert_cmpuint (f->n_retries, ==, 0);
}

/* The last chunk of each answer comes a little after its end marker: the
 * step waits for it, and the next request finds the connection free */
static void
test_late_end (Fixture       *f,
               gconstpointer  data)
{
  for (guint i = 0; i < 4; i++)
    agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER_LATE_END);

  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");
  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 1);
}

/* The body does not end after the answer's end marker: the step ends all
 * the same, after a short wait, and lets go of the connection (the server
 * sees it closed); the next request takes a new one */
static void
test_no_end (Fixture       *f,
             gconstpointer  data)
{
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER_NO_END);

  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");
  agent_test_wait_until (hung_up, f);
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 2);
  g_assert_cmpuint (f->n_retries, ==, 0);
}

/* Two sessions of one provider, one after the other, on one connection */
static void
test_two_sessions (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AgentSession) other = NULL;

  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");

  other = new_session (f);
  g_string_truncate (f->text, 0);
  agent_test_turn_run (&f->turn, other, "What is 6 * 7?", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (f->text->str, ==, "Answer 4.");

  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 1);
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (g_steal_pointer (&other));
}

/* "Connection: close" on every answer: each request a connection of its
 * own, none of them failing */
static void
test_server_says_close (Fixture       *f,
                        gconstpointer  data)
{
  for (guint i = 0; i < 4; i++)
    agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER_CLOSE);

  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");
  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 4);
  g_assert_cmpuint (f->n_retries, ==, 0);
}

/* The server closes the idle connection after its answer, without a word:
 * the next request takes a new one */
static void
test_idle_closed (Fixture       *f,
                  gconstpointer  data)
{
  agent_provider_set_max_retries (f->provider, 0);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER_THEN_CLOSE);

  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 2.");
  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
  g_assert_cmpuint (agent_test_conn_server_get_connection_of (f->server, 2), ==, 2);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 2);
  g_assert_cmpuint (f->n_retries, ==, 0);
}

/* The kept-alive connection closes while the next request is on its way,
 * before a byte of the answer: the request goes again on a new
 * connection, at once, whatever max-retries says, and its text comes once */
static void
test_stale_connection (Fixture       *f,
                       gconstpointer  data)
{
  agent_provider_set_max_retries (f->provider, 0);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_DROP);

  /* The tool call, then the text on the same connection, dropped, then
   * answered on a new one */
  g_assert_cmpstr (run_turn (f, "What is 6 * 7?"), ==, "Answer 3.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (agent_test_conn_server_get_connection_of (f->server, 1), ==, 1);
  g_assert_cmpuint (agent_test_conn_server_get_connection_of (f->server, 2), ==, 2);
  g_assert_cmpuint (f->n_retries, ==, 0);

  /* The new connection is kept */
  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 5.");
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 2);
}

/* A new connection that closes before the answer is a failure (with
 * max-retries 0): only a reused one is tried again */
static void
test_fresh_connection_dropped (Fixture       *f,
                               gconstpointer  data)
{
  agent_provider_set_max_retries (f->provider, 0);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_DROP);

  agent_test_turn_run (&f->turn, f->session, "What is 6 * 7?", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 1);
}

/* A reused connection that dies after the answer began: the error of
 * today, the text that came kept, and no second request */
static void
test_cut_on_reused (Fixture       *f,
                    gconstpointer  data)
{
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_CUT);

  agent_test_turn_run (&f->turn, f->session, "What is 6 * 7?", NULL);
  g_assert_nonnull (f->turn.error);
  g_assert_true (f->turn.error->domain == AGENT_ERROR);
  g_assert_true (f->turn.error->code == AGENT_ERROR_PROTOCOL ||
                 f->turn.error->code == AGENT_ERROR_NETWORK);
  g_assert_cmpstr (f->text->str, ==, "Answer ");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (agent_test_conn_server_get_connection_of (f->server, 1), ==, 1);
  g_assert_cmpuint (f->n_retries, ==, 0);
}


/* Cancelled in the middle of an answer that does not end: the connection
 * is closed (not held to read the rest), and the next request works */
static void
test_cancel_mid_body (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_ANSWER);
  agent_test_conn_server_push (f->server, AGENT_TEST_CONN_HANG);

  /* The tool call, then the text, cancelled at its first delta */
  f->cancel_on_text = g_object_ref (cancellable);
  agent_test_turn_run (&f->turn, f->session, "What is 6 * 7?", cancellable);
  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&f->cancel_on_text);

  /* Known defect: under load, about one run in a few hundred, the
   * connection of the cancelled answer stays open (a race inside libsoup's
   * handling of a stream closed while its message is cancelled, not yet
   * understood). Reported as incomplete, not passed, when it happens; the
   * next turn must work either way. */
  if (!agent_test_wait_until_timeout (hung_up, f, AGENT_TEST_WAIT_LIMIT_SECONDS))
    {
      g_test_incomplete ("the cancelled answer's connection was not closed");
      g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
      return;
    }

  g_assert_cmpstr (run_turn (f, "And 7 * 6?"), ==, "Answer 4.");
  g_assert_cmpuint (agent_test_conn_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (agent_test_conn_server_get_n_connections (f->server), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint chunked = 0; chunked < 2; chunked++)
    {
      const char *framing = chunked ? "chunked" : "length";
      gconstpointer data = GINT_TO_POINTER (chunked);
      struct {
        const char *name;
        void (*func) (Fixture *, gconstpointer);
      } tests[] = {
        { "tool-loop", test_tool_loop },
        { "late-end", test_late_end },
        { "no-end", test_no_end },
        { "two-sessions", test_two_sessions },
        { "server-says-close", test_server_says_close },
        { "idle-closed", test_idle_closed },
        { "stale-connection", test_stale_connection },
        { "fresh-connection-dropped", test_fresh_connection_dropped },
        { "cut-on-reused", test_cut_on_reused },
        { "cancel-mid-body", test_cancel_mid_body },
      };

      for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
        {
          g_autofree char *path = g_strdup_printf ("/connections/%s/%s", framing, tests[i].name);

          g_test_add (path, Fixture, data, fixture_setup, tests[i].func, fixture_teardown);
        }
    }

  return g_test_run ();
}
