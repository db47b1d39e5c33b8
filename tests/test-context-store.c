/* test-context-store.c — a long conversation, compacted with a summary,
 * stored, read back by another connection and continued: the summary is
 * still one, and still sent in place of what it replaces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

static void
add_answer (AgentTestServer *server,
            const char      *text,
            gint64           prompt_tokens)
{
  const char *deltas[] = { text, NULL };

  agent_test_openai_add_text_response (server, deltas, prompt_tokens, 5);
}

static gboolean
request_mentions (AgentTestServer *server,
                  guint            index,
                  const char      *text)
{
  g_autofree char *body = json_to_string (agent_test_server_get_request_body (server, index),
                                          FALSE);

  return strstr (body, text) != NULL;
}

static AgentSession *
new_session (AgentProvider *provider)
{
  g_autoptr(AgentContextPolicy) policy = agent_context_policy_new (AGENT_CONTEXT_STRATEGY_SUMMARIZE);
  AgentSession *session = agent_session_new (provider);

  agent_context_policy_set_keep_turns (policy, 1);
  agent_session_set_context_policy (session, policy);
  agent_session_set_context_window (session, 1000);
  return session;
}

static void
test_reload (void)
{
  TestStore t = { 0 };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) again = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(AgentMessage) summary = NULL;
  g_autoptr(AgentMessage) plain = NULL;
  AgentSession *session;
  AgentTestTurn turn = { 0 };
  gint64 id;

  test_store_open (&t);
  conversation = agent_store_create_conversation (t.store);

  /* A long first turn, then a second that needs a summary first */
  session = new_session (provider);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  add_answer (server, "A long answer about ducks.", 900);
  agent_test_turn_run (&turn, session, "Tell me about ducks", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);

  add_answer (server, "Ducks were discussed.", 900);
  add_answer (server, "Geese too.", 100);
  agent_test_turn_run (&turn, session, "And geese?", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 3);
  g_assert_false (request_mentions (server, 2, "A long answer about ducks."));
  g_assert_finalize_object (session);
  id = agent_conversation_get_id (conversation);  /* given at the first write */

  /* Read back elsewhere: the summary is one, with its range */
  again = test_store_read_back (&t, id, &other);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 5);
  summary = g_list_model_get_item (G_LIST_MODEL (again), 3);
  g_assert_true (agent_message_is_summary (summary));
  g_assert_cmpuint (agent_message_get_summary_start (summary), ==, 0);
  g_assert_cmpuint (agent_message_get_summary_end (summary), ==, 2);
  g_assert_cmpstr (agent_message_get_content (summary), ==, "Ducks were discussed.");
  g_assert_null (agent_message_get_provider_data (summary));
  plain = g_list_model_get_item (G_LIST_MODEL (again), 1);
  g_assert_false (agent_message_is_summary (plain));
  test_store_assert_same_messages (G_LIST_MODEL (conversation), G_LIST_MODEL (again));

  /* Continued: the summary goes in place of the first turn */
  session = new_session (provider);
  agent_session_set_memory (session, AGENT_MEMORY (again));
  add_answer (server, "Swans also.", 120);
  agent_test_turn_run (&turn, session, "And swans?", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 4);
  g_assert_true (request_mentions (server, 3, "Ducks were discussed."));
  g_assert_false (request_mentions (server, 3, "A long answer about ducks."));
  g_assert_true (request_mentions (server, 3, "Geese too."));
  g_assert_true (request_mentions (server, 3, "And swans?"));

  /* Without a policy too: the summary stands for what it replaced */
  agent_session_set_context_policy (session, NULL);
  add_answer (server, "Ducks again.", 130);
  agent_test_turn_run (&turn, session, "And ducks?", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);
  g_assert_true (request_mentions (server, 4, "Ducks were discussed."));
  g_assert_false (request_mentions (server, 4, "A long answer about ducks."));
  g_assert_true (request_mentions (server, 4, "Swans also."));
  g_assert_finalize_object (session);

  g_clear_object (&again);
  g_clear_object (&other);
  g_clear_object (&conversation);
  test_store_close (&t);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/context/store/reload", test_reload);

  return g_test_run ();
}
