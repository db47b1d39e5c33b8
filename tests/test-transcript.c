/* test-transcript.c — AgentSession's transcript model, as a list view sees it
 *
 * A shadow copy of the model is kept up to date from items-changed alone,
 * as GtkListView does; after every signal it must equal the model, and the
 * model must equal the memory followed by the message streaming now.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GListModel      *transcript;
  GPtrArray       *shadow;    /* the items, as items-changed described them */
  GPtrArray       *changes;   /* "position,removed,added" */
  guint            n_in_place;  /* items replaced by themselves */
  AgentTestTurn    turn;
} Fixture;

/* The model must be the memory, then the current message if it is not in
 * memory yet */
static void
assert_model_is_memory_and_current (Fixture *f)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  AgentMessage *current = agent_session_get_current_message (f->session);
  guint n_memory = g_list_model_get_n_items (memory);
  g_autoptr(AgentMessage) last = n_memory > 0 ? g_list_model_get_item (memory, n_memory - 1)
                                              : NULL;
  guint expected = n_memory + (current != NULL && current != last ? 1 : 0);

  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, expected);
  for (guint i = 0; i < expected; i++)
    {
      g_autoptr(AgentMessage) item = g_list_model_get_item (f->transcript, i);
      g_autoptr(AgentMessage) wanted = i < n_memory ? g_list_model_get_item (memory, i)
                                                    : g_object_ref (current);

      g_assert_true (item == wanted);
    }
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *f)
{
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_object_unref);

  g_assert_cmpuint (position + removed, <=, f->shadow->len);
  for (guint i = 0; i < removed; i++)
    g_ptr_array_add (gone, g_ptr_array_steal_index (f->shadow, position));
  for (guint i = 0; i < added; i++)
    {
      gpointer item = g_list_model_get_item (model, position + i);

      g_assert_nonnull (item);
      g_ptr_array_insert (f->shadow, position + i, item);
      if (removed == 1 && added == 1 && g_ptr_array_index (gone, 0) == item)
        f->n_in_place++;
    }
  g_ptr_array_add (f->changes, g_strdup_printf ("%u,%u,%u", position, removed, added));

  /* The shadow equals the model */
  g_assert_cmpuint (f->shadow->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < f->shadow->len; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_assert_true (item == g_ptr_array_index (f->shadow, i));
    }
  assert_model_is_memory_and_current (f);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  agent_session_add_tool (f->session, calculator);
  f->shadow = g_ptr_array_new_with_free_func (g_object_unref);
  f->changes = g_ptr_array_new_with_free_func (g_free);
  f->transcript = agent_session_get_transcript (f->session);
  g_signal_connect (f->transcript, "items-changed", G_CALLBACK (items_changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_ptr_array_unref (f->changes);
  g_ptr_array_unref (f->shadow);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
}

static char *
changes (Fixture *f)
{
  g_ptr_array_add (f->changes, NULL);
  g_ptr_array_set_size (f->changes, f->changes->len - 1);
  return g_strjoinv (" ", (char **) f->changes->pdata);
}

static gboolean
text_arrived (gpointer data)
{
  Fixture *f = data;
  AgentMessage *current = agent_session_get_current_message (f->session);

  return current != NULL && g_strcmp0 (agent_message_get_content (current), "Hello ") == 0;
}

/* A text answer: the user's message, the answer while it streams, then
 * the answer in memory at the same position */
static void
test_text_turn (Fixture       *f,
                gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  g_autofree char *sequence = NULL;
  g_autoptr(AgentMessage) streaming = NULL;

  agent_test_openai_add_text (r, "Hello ");
  agent_test_response_add_wait (r);
  agent_test_openai_add_text (r, "there.");
  agent_test_openai_add_end (r, "stop", 1, 2);

  agent_test_turn_send (&f->turn, f->session, "Hi", NULL);
  agent_test_wait_until (text_arrived, f);

  /* Streaming: the answer is the last item, and not in memory */
  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 2);
  streaming = g_list_model_get_item (f->transcript, 1);
  g_assert_true (streaming == agent_session_get_current_message (f->session));
  g_assert_cmpstr (agent_message_get_content (streaming), ==, "Hello ");

  agent_test_server_wait_until_waiting (f->server);
  agent_test_server_release (f->server);
  agent_test_turn_wait (&f->turn);
  g_assert_no_error (f->turn.error);

  g_assert_true (f->turn.result == streaming);
  g_assert_cmpstr (agent_message_get_content (streaming), ==, "Hello there.");
  sequence = changes (f);
  /* user added, answer added, answer replaced by itself (into memory) */
  g_assert_cmpstr (sequence, ==, "0,0,1 1,0,1 1,1,1");
  g_assert_cmpuint (f->n_in_place, ==, 1);
}

/* A tool round trip: user, the call (streamed, then in memory), the
 * result, the answer */
static void
test_tool_turn (Fixture       *f,
                gconstpointer  data)
{
  static const AgentTestToolChunk chunk = { 0, "call_1", "calculator",
                                            "{\"expression\":\"6*7\"}" };
  static const char * const answer[] = { "It is ", "42.", NULL };
  g_autofree char *sequence = NULL;

  agent_test_openai_add_tool_response (f->server, &chunk, 1, 1, 1);
  agent_test_openai_add_text_response (f->server, answer, 1, 1);

  agent_test_turn_run (&f->turn, f->session, "What is 6*7?", NULL);
  g_assert_no_error (f->turn.error);

  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 4);
  sequence = changes (f);
  g_assert_cmpstr (sequence, ==, "0,0,1 1,0,1 1,1,1 2,0,1 3,0,1 3,1,1");
  g_assert_cmpuint (f->n_in_place, ==, 2);
}

/* A step that fails before any text: its message leaves the transcript */
static void
test_failed_step (Fixture       *f,
                  gconstpointer  data)
{
  agent_provider_set_max_retries (f->provider, 0);
  agent_test_response_set_body (agent_test_server_add_response (f->server, 400),
                                "application/json", "{\"error\":{\"message\":\"Bad\"}}");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);

  /* Only the user's message stays */
  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 1);
  g_assert_null (agent_session_get_current_message (f->session));
}

/* A step cut off after some text: the partial answer stays, in place */
static void
test_interrupted_step (Fixture       *f,
                       gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  g_autoptr(AgentMessage) last = NULL;
  g_autofree char *sequence = NULL;

  agent_test_openai_add_text (r, "Half an ans");
  agent_test_response_set_drop (r);
  agent_provider_set_max_retries (f->provider, 0);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_nonnull (f->turn.error);

  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 2);
  last = g_list_model_get_item (f->transcript, 1);
  g_assert_cmpstr (agent_message_get_content (last), ==, "Half an ans");
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  sequence = changes (f);
  g_assert_cmpstr (sequence, ==, "0,0,1 1,0,1 1,1,1");
}

/* Another memory: the transcript shows it */
static void
test_set_memory (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AgentMemory) memory = AGENT_MEMORY (agent_simple_memory_new ());
  g_autoptr(AgentMessage) a = agent_message_new (AGENT_MESSAGE_ROLE_USER, "one");
  g_autoptr(AgentMessage) b = agent_message_new (AGENT_MESSAGE_ROLE_USER, "two");
  g_autofree char *sequence = NULL;

  agent_memory_append (memory, a, NULL);
  agent_memory_append (memory, b, NULL);
  agent_session_set_memory (f->session, memory);

  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 2);
  g_assert_true (agent_memory_truncate (memory, 0, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 0);
  sequence = changes (f);
  g_assert_cmpstr (sequence, ==, "0,0,2 0,2,0");
}

static void
continue_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  AgentTestTurn *turn = user_data;

  turn->result = agent_session_continue_finish (AGENT_SESSION (object), result, &turn->error);
  turn->finished = TRUE;
}

static void
run_continue (Fixture *f)
{
  agent_test_turn_clear (&f->turn);
  agent_session_continue_async (f->session, NULL, continue_cb, &f->turn);
  agent_test_wait_for (&f->turn.finished);
}

/* Regenerating: the answer cut off the memory, then the turn continued
 * from the prompt; the transcript follows */
static void
test_regenerate (Fixture       *f,
                 gconstpointer  data)
{
  static const char * const first[] = { "First ", "answer.", NULL };
  static const char * const second[] = { "Second ", "answer.", NULL };
  AgentMemory *memory = agent_session_get_memory (f->session);
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) answer = NULL;
  g_autofree char *sequence = NULL;

  agent_test_openai_add_text_response (f->server, first, 1, 2);
  agent_test_openai_add_text_response (f->server, second, 1, 2);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);

  g_assert_true (agent_memory_truncate (memory, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 1);

  run_continue (f);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Second answer.");
  g_assert_cmpuint (g_list_model_get_n_items (f->transcript), ==, 2);
  answer = g_list_model_get_item (f->transcript, 1);
  g_assert_true (answer == f->turn.result);

  /* The second request is the first one again: the prompt, no answer */
  g_assert_true (agent_test_json_equal (agent_test_server_get_request_body (f->server, 0),
                                        agent_test_server_get_request_body (f->server, 1)));
  sequence = changes (f);
  g_assert_cmpstr (sequence, ==, "0,0,1 1,0,1 1,1,1 1,1,0 1,0,1 1,1,1");
}

/* Nothing to answer: the memory is empty, or ends with an answer */
static void
test_continue_nothing_to_answer (Fixture       *f,
                                 gconstpointer  data)
{
  static const char * const answer[] = { "Done.", NULL };

  run_continue (f);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);

  agent_test_openai_add_text_response (f->server, answer, 1, 1);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);

  run_continue (f);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_false (agent_session_get_busy (f->session));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/transcript/text-turn", test_text_turn);
  ADD ("/transcript/tool-turn", test_tool_turn);
  ADD ("/transcript/failed-step", test_failed_step);
  ADD ("/transcript/interrupted-step", test_interrupted_step);
  ADD ("/transcript/set-memory", test_set_memory);
  ADD ("/transcript/regenerate", test_regenerate);
  ADD ("/transcript/continue-nothing-to-answer", test_continue_nothing_to_answer);

  return g_test_run ();
}
