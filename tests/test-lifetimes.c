/* test-lifetimes.c — a provider disposed while it works
 *
 * g_object_run_dispose() is what a binding's explicit dispose, or an
 * application tearing things down, does to an object that others still
 * hold. A provider disposed that way while it lists models or serves
 * turns (streaming, or waiting for one of its request slots) ends every
 * one of them: each callback is called once, with G_IO_ERROR_CANCELLED,
 * and nothing is left behind (the sanitizers and valgrind runs of this
 * program check the memory). The provider stays configured: a later
 * request starts afresh. Dropping the last reference instead lets the
 * work finish: it holds the provider until then.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* What one asynchronous call gave its callback, and how often it came */
typedef struct
{
  guint    n_calls;
  GError  *error;
  char   **names;         /* a listing's */
  AgentMessage *message;  /* a turn's */
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_error (&outcome->error);
  g_clear_pointer (&outcome->names, g_strfreev);
  g_clear_object (&outcome->message);
  outcome->n_calls = 0;
}

static gboolean
outcome_arrived (gpointer data)
{
  return ((Outcome *) data)->n_calls > 0;
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  g_clear_pointer (&outcome->names, g_strfreev);
  outcome->names = agent_provider_list_models_finish (AGENT_PROVIDER (object), result,
                                                      &outcome->error);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  g_clear_object (&outcome->message);
  outcome->message = agent_session_send_finish (AGENT_SESSION (object), result, &outcome->error);
}

/* Lets whatever was still on its way arrive: a second callback would */
static void
settle (void)
{
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* A list of models whose end the server holds back until released */
static void
add_held_models (AgentTestServer *server)
{
  AgentTestResponse *r = agent_test_server_add_response (server, SOUP_STATUS_OK);

  agent_test_response_set_content_type (r, "application/json");
  agent_test_response_add_bytes (r, "{\"object\":\"list\",\"data\":[{\"id\":\"first\"}", -1);
  agent_test_response_add_wait (r);
  agent_test_response_add_bytes (r, ",{\"id\":\"second\"}]}", -1);
}

static gboolean
server_done (gpointer data)
{
  AgentTestServer *server = data;

  return agent_test_server_get_n_waiting (server) == 0;
}

static void
test_dispose_while_listing (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = agent_test_openai_provider_new (server);
  Outcome outcome = { 0 };

  add_held_models (server);
  agent_provider_list_models_async (provider, NULL, listed_cb, &outcome);
  agent_test_server_wait_until_waiting (server);

  g_object_run_dispose (G_OBJECT (provider));
  agent_test_wait_until (outcome_arrived, &outcome);
  agent_test_server_release (server);
  agent_test_wait_until (server_done, server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (outcome.names);
  outcome_clear (&outcome);

  /* Still configured: a new listing starts afresh */
  add_held_models (server);
  agent_provider_list_models_async (provider, NULL, listed_cb, &outcome);
  agent_test_server_wait_until_waiting (server);
  agent_test_server_release (server);
  agent_test_wait_until (outcome_arrived, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_strv_length (outcome.names), ==, 2);
  outcome_clear (&outcome);

  g_assert_finalize_object (provider);
}

/* The last reference dropped: the listing holds the provider, finishes,
 * and lets it go */
static void
test_unref_while_listing (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = agent_test_openai_provider_new (server);
  Outcome outcome = { 0 };

  add_held_models (server);
  agent_provider_list_models_async (provider, NULL, listed_cb, &outcome);
  agent_test_server_wait_until_waiting (server);

  g_object_add_weak_pointer (G_OBJECT (provider), (gpointer *) &provider);
  g_object_unref (provider);
  g_assert_nonnull (provider);

  agent_test_server_release (server);
  agent_test_wait_until (outcome_arrived, &outcome);
  settle ();
  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_no_error (outcome.error);
  g_assert_cmpstr (outcome.names[1], ==, "second");
  g_assert_null (provider);
  outcome_clear (&outcome);
}

static gboolean
server_has_waiting (gpointer data)
{
  return agent_test_server_get_n_waiting (data) > 0;
}

/* One turn streams through the provider's only request slot, another
 * waits for it: disposing the provider ends both */
static void
test_dispose_with_turns (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) streaming = agent_session_new (provider);
  g_autoptr(AgentSession) waiting = agent_session_new (provider);
  const char * const again[] = { "Again.", NULL };
  Outcome first = { 0 };
  Outcome second = { 0 };
  AgentTestResponse *r;
  g_autoptr(AgentMessage) partial = NULL;

  agent_provider_set_max_concurrent_requests (provider, 1);
  r = agent_test_openai_begin (server, NULL);
  agent_test_openai_add_text (r, "Once upon");
  agent_test_response_add_wait (r);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_session_send_async (streaming, "Tell a story", NULL, sent_cb, &first);
  agent_test_wait_until (server_has_waiting, server);
  agent_session_send_async (waiting, "Me too", NULL, sent_cb, &second);
  settle ();
  g_assert_true (agent_session_get_busy (waiting));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  g_object_run_dispose (G_OBJECT (provider));
  agent_test_wait_until (outcome_arrived, &first);
  agent_test_wait_until (outcome_arrived, &second);
  agent_test_server_release (server);
  settle ();

  g_assert_cmpuint (first.n_calls, ==, 1);
  g_assert_error (first.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (second.n_calls, ==, 1);
  g_assert_error (second.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* What streamed is kept, as for any cancelled turn; the waiting turn
   * sent nothing */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (streaming))),
                    ==, 2);
  partial = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (streaming)), 1);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Once upon");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_false (agent_session_get_busy (streaming));
  g_assert_false (agent_session_get_busy (waiting));
  outcome_clear (&first);
  outcome_clear (&second);

  /* The slot came back: a new turn goes */
  agent_test_openai_add_text_response (server, again, 1, 1);
  agent_session_send_async (waiting, "Once more", NULL, sent_cb, &second);
  agent_test_wait_until (outcome_arrived, &second);
  g_assert_no_error (second.error);
  g_assert_cmpstr (agent_message_get_content (second.message), ==, "Again.");
  outcome_clear (&second);

  g_clear_object (&streaming);
  g_clear_object (&waiting);
  g_assert_finalize_object (provider);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lifetimes/provider/dispose-while-listing", test_dispose_while_listing);
  g_test_add_func ("/lifetimes/provider/unref-while-listing", test_unref_while_listing);
  g_test_add_func ("/lifetimes/provider/dispose-with-turns", test_dispose_with_turns);

  return g_test_run ();
}
