/* test-control-tools.c — running tools: in parallel, with timeouts, blocking,
 * return-direct and progress; request slots and metrics, through the public
 * API against a real HTTP server
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
#include "test-control-util.h"

/* A tool the test completes by hand */

typedef struct
{
  GPtrArray *invocations;
} Held;

static gboolean
hold_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data,
              GError             **error)
{
  Held *held = user_data;

  g_ptr_array_add (held->invocations, g_object_ref (invocation));

  return TRUE;
}

static AgentTool *
held_tool_new (const char *name,
               Held       *held)
{
  held->invocations = g_ptr_array_new_with_free_func (g_object_unref);
  return agent_tool_new (name, "Held by the test", NULL, hold_handler, held, NULL);
}

/* Tools side by side */

static guint started_together;
static AgentToolInvocation *waiting[8];

/* Answers the waiting calls one per main loop iteration, the last first:
 * an order no timer could promise on a loaded machine. */
static gboolean
complete_last_first (gpointer data)
{
  for (int n = 7; n >= 0; n--)
    {
      g_autofree char *result = NULL;

      if (waiting[n] == NULL)
        continue;
      result = g_strdup_printf ("result %d", n);
      agent_tool_invocation_return_result (waiting[n], result);
      g_clear_object (&waiting[n]);
      return G_SOURCE_CONTINUE;
    }
  return G_SOURCE_REMOVE;
}

/* Holds every call until all eight have started: they run side by side */
static gboolean
reverse_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data,
                 GError             **error)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  guint n = json_object_get_int_member (arguments, "n");

  g_assert_cmpuint (n, <, 8);
  g_assert_null (waiting[n]);
  waiting[n] = g_object_ref (invocation);
  if (++started_together == 8)
    g_idle_add (complete_last_first, NULL);

  return TRUE;
}

static void
test_parallel_eight (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("work", "Works", NULL, reverse_handler, NULL, NULL);
  AgentTestToolChunk chunks[16];
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  JsonArray *messages;

  started_together = 0;
  agent_session_add_tool (f->session, tool);

  /* Eight calls, their fragments interleaved */
  for (guint i = 0; i < 8; i++)
    {
      char *id = g_strdup_printf ("c%u", i);
      char *args = g_strdup_printf ("{\"n\":%u}", i);

      g_ptr_array_add (strings, id);
      g_ptr_array_add (strings, args);
      chunks[i] = (AgentTestToolChunk) { i, id, "work", "{\"n\":" };
      chunks[8 + i] = (AgentTestToolChunk) { i, NULL, NULL, args + 5 };
    }
  agent_test_openai_add_tool_response (f->server, chunks, 16, 1, 1);
  add_answer (f, "All done.");

  agent_test_turn_run (&f->turn, f->session, "work", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (started_together, ==, 8);

  /* They finished last to first... */
  g_assert_cmpuint (f->finished->len, ==, 8);
  g_assert_cmpstr (g_ptr_array_index (f->finished, 0), ==, "c7");
  g_assert_cmpstr (g_ptr_array_index (f->finished, 7), ==, "c0");

  /* ...and were answered in call order */
  messages = agent_test_openai_get_messages (f->server, 1);
  g_assert_cmpuint (json_array_get_length (messages), ==, 10);
  for (guint i = 0; i < 8; i++)
    {
      JsonObject *message = json_array_get_object_element (messages, 2 + i);
      g_autofree char *id = g_strdup_printf ("c%u", i);
      g_autofree char *result = g_strdup_printf ("result %u", i);

      g_assert_cmpstr (json_object_get_string_member (message, "tool_call_id"), ==, id);
      g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, result);
    }
  assert_memory_consistent (f);

  /* The turn's metrics count the eight runs */
  g_assert_cmpuint (agent_metrics_get_tool_calls (agent_message_get_turn_metrics (f->turn.result)), ==, 8);
  g_assert_cmpint (agent_metrics_get_tool_time (agent_message_get_turn_metrics (f->turn.result)), >, 0);
}

static void
test_tool_timeout (Fixture       *f,
                   gconstpointer  data)
{
  Held held = { 0 };
  g_autoptr(AgentTool) slow = held_tool_new ("slow", &held);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "slow", "{}" },
    { 1, "c1", "calculator", "{\"expression\":\"6*7\"}" },
  };
  AgentToolInvocation *invocation;
  AgentToolCall *call;

  agent_session_set_tool_timeout (f->session, 0.2);
  agent_session_add_tool (f->session, slow);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "One timed out.");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "The tool timed out after 0.2 s");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "42");

  /* The slow tool was told to stop; its late answer changes nothing */
  invocation = g_ptr_array_index (held.invocations, 0);
  g_assert_true (g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (invocation)));
  g_test_expect_message ("Agent", G_LOG_LEVEL_WARNING,
                         "The tool “slow” answered after its call was over (The tool timed out "
                         "after 0.2 s); its result was dropped");
  agent_tool_invocation_return_result (invocation, "too late");
  g_test_assert_expected_messages ();
  while (g_main_context_iteration (NULL, FALSE))
    ;
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "The tool timed out after 0.2 s");
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_FAILED);
  g_assert_cmpint (agent_tool_call_get_duration (call), >=, 200000);
  g_ptr_array_unref (held.invocations);
}

/* A tool's own timeout wins over the session's */
static void
test_tool_timeout_per_tool (Fixture       *f,
                            gconstpointer  data)
{
  Held held = { 0 };
  g_autoptr(AgentTool) slow = held_tool_new ("slow", &held);

  agent_session_set_tool_timeout (f->session, 60);
  agent_tool_set_timeout (slow, 0.1);
  agent_session_add_tool (f->session, slow);
  add_calls (f, "slow", "{}", 1);
  add_answer (f, "ok");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "The tool timed out after 0.1 s");
  g_ptr_array_unref (held.invocations);
}

static char *
blocking_body (AgentTool     *tool,
               JsonNode      *arguments,
               GCancellable  *cancellable,
               gpointer       user_data,
               GError       **error)
{
  JsonObject *object = json_node_get_object (arguments);
  gint64 ms = json_object_get_int_member (object, "ms");

  /* Sleeps in small pieces, watching its cancellable */
  for (gint64 slept = 0; slept < ms; slept += 5)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (5000);
    }

  if (g_thread_self () == user_data)
    return g_strdup ("ran on the main thread");
  return g_strdup_printf ("slept %" G_GINT64_FORMAT " ms", ms);
}

static void
test_blocking_tool (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTool) sleeper = agent_tool_new_blocking ("sleep", "Sleeps", NULL, blocking_body,
                                                          g_thread_self (), NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "sleep", "{\"ms\":30}" },
    { 1, "c1", "sleep", "{\"ms\":5000}" },
  };

  agent_session_set_tool_timeout (f->session, 0.3);
  agent_session_add_tool (f->session, sleeper);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "ok");

  agent_test_turn_run (&f->turn, f->session, "sleep", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "slept 30 ms");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "The tool timed out after 0.3 s");
}

/* Return-direct */

static gboolean
answer_handler (AgentTool           *tool,
                AgentToolInvocation *invocation,
                gpointer             user_data,
                GError             **error)
{
  agent_tool_invocation_return_result (invocation, user_data);

  return TRUE;
}

static void
test_return_direct (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTool) weather = agent_tool_new ("weather", "Weather", NULL, answer_handler,
                                                 (gpointer) "Sunny, 21 °C", NULL);
  g_autoptr(AgentTool) time = agent_tool_new ("time", "Time", NULL, answer_handler,
                                              (gpointer) "12:00", NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "weather", "{}" },
    { 1, "c1", "time", "{}" },
  };

  agent_tool_set_return_direct (weather, TRUE);
  agent_tool_set_return_direct (time, TRUE);
  agent_session_add_tool (f->session, weather);
  agent_session_add_tool (f->session, time);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);

  agent_test_turn_run (&f->turn, f->session, "weather and time?", NULL);

  g_assert_no_error (f->turn.error);
  /* No second request: the results are the answer, in call order */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Sunny, 21 °C\n\n12:00");
  g_assert_cmpint (agent_message_get_role (f->turn.result), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpuint (memory_length (f), ==, 5);
  g_assert_true (memory_message (f, 4) == f->turn.result);
  assert_memory_consistent (f);
}

static void
test_return_direct_mixed (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AgentTool) weather = agent_tool_new ("weather", "Weather", NULL, answer_handler,
                                                 (gpointer) "Sunny", NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "weather", "{}" },
    { 1, "c1", "calculator", "{\"expression\":\"2+2\"}" },
  };

  /* Not every tool of the step returns directly: the model is asked */
  agent_tool_set_return_direct (weather, TRUE);
  agent_session_add_tool (f->session, weather);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Sunny, and 4.");

  agent_test_turn_run (&f->turn, f->session, "weather and 2+2?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Sunny, and 4.");
}

/* Progress */

static gpointer
report_progress (gpointer data)
{
  AgentToolInvocation *invocation = data;

  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *text = g_strdup_printf ("part %u of 4", i);

      g_usleep (10000);
      agent_tool_invocation_report_progress (invocation, i / 4.0, text);
    }
  agent_tool_invocation_return_result (invocation, "all parts");
  g_object_unref (invocation);
  return NULL;
}

static gboolean
progress_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data,
                  GError             **error)
{
  g_thread_unref (g_thread_new ("progress", report_progress, g_object_ref (invocation)));

  return TRUE;
}

typedef struct
{
  GThread *main_thread;
  double   last;
  guint    count;
  gboolean off_thread;
  gboolean backwards;
  char    *text;
} Progress;

static void
tool_progress_cb (AgentSession  *session,
                  AgentToolCall *call,
                  double         fraction,
                  const char    *text,
                  Progress      *progress)
{
  if (g_thread_self () != progress->main_thread)
    progress->off_thread = TRUE;
  if (fraction < progress->last)
    progress->backwards = TRUE;
  g_assert_cmpfloat (agent_tool_call_get_progress (call), ==, fraction);
  progress->last = fraction;
  progress->count++;
  g_free (progress->text);
  progress->text = g_strdup (text);
}

static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("long", "Takes a while", NULL, progress_handler,
                                              NULL, NULL);
  Progress progress = { g_thread_self () };
  AgentToolCall *call;

  agent_session_add_tool (f->session, tool);
  g_signal_connect (f->session, "tool-progress", G_CALLBACK (tool_progress_cb), &progress);
  add_calls (f, "long", "{}", 1);
  add_answer (f, "Done.");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  /* Reports may merge when they come faster than the main loop runs */
  g_assert_cmpuint (progress.count, >=, 1);
  g_assert_cmpuint (progress.count, <=, 4);
  g_assert_false (progress.off_thread);
  g_assert_false (progress.backwards);
  g_assert_cmpfloat (progress.last, ==, 1.0);
  g_assert_cmpstr (progress.text, ==, "part 4 of 4");
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpfloat (agent_tool_call_get_progress (call), ==, 1.0);
  g_assert_cmpstr (agent_tool_call_get_progress_text (call), ==, "part 4 of 4");
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "all parts");
  g_free (progress.text);
}

/* Request slots */

static gboolean
n_requests_is (gpointer data)
{
  gpointer *args = data;

  return agent_test_server_get_n_requests (args[0]) == GPOINTER_TO_UINT (args[1]);
}

static void
wait_requests (Fixture *f,
               guint    n)
{
  gpointer args[2] = { f->server, GUINT_TO_POINTER (n) };

  agent_test_wait_until (n_requests_is, args);
}

static void
test_concurrency_limit (Fixture       *f,
                        gconstpointer  data)
{
  AgentSession *sessions[5];
  AgentTestTurn turns[5] = { { 0 } };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  agent_provider_set_max_concurrent_requests (f->provider, 2);

  for (guint i = 0; i < 5; i++)
    {
      AgentTestResponse *r = agent_test_openai_begin (f->server, "");

      agent_test_response_add_wait (r);
      agent_test_openai_add_text (r, "done");
      agent_test_openai_add_end (r, "stop", 1, 1);
    }

  for (guint i = 0; i < 5; i++)
    {
      sessions[i] = agent_session_new (f->provider);
      agent_test_turn_send (&turns[i], sessions[i], "hi", i == 4 ? cancellable : NULL);
    }

  /* Two go, three wait their turn */
  wait_requests (f, 2);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);

  /* One waiting is cancelled: it never sends */
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&turns[4]);
  g_assert_error (turns[4].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* Releasing the answers lets the others in, two at a time */
  while (agent_test_server_get_n_requests (f->server) < 4)
    {
      agent_test_server_release (f->server);
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < 4; i++)
    {
      while (!turns[i].finished)
        {
          agent_test_server_release (f->server);
          g_main_context_iteration (NULL, TRUE);
        }
      g_assert_no_error (turns[i].error);
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 4);

  /* The sessions that waited say so in their metrics */
  {
    gint64 waited = 0;

    for (guint i = 0; i < 4; i++)
      waited += agent_metrics_get_wait_time (agent_message_get_metrics (turns[i].result));
    g_assert_cmpint (waited, >, 0);
  }

  for (guint i = 0; i < 5; i++)
    {
      agent_test_turn_clear (&turns[i]);
      g_assert_finalize_object (sessions[i]);
    }
}

/* Metrics */

static void
test_metrics (Fixture       *f,
              gconstpointer  data)
{
  const char * const deltas[] = { "a", "b", "c", NULL };
  AgentTestResponse *r;
  AgentMetrics *step;
  AgentMetrics *turn;
  AgentMessage *first;

  add_calls (f, "calculator", "{\"expression\":\"1\"}", 1);
  r = agent_test_openai_begin (f->server, "");
  agent_test_openai_add_text (r, deltas[0]);
  agent_test_response_add_delay (r, 30);
  agent_test_openai_add_text (r, deltas[1]);
  agent_test_openai_add_text (r, deltas[2]);
  agent_test_openai_add_end (r, "stop", 100, 40);

  agent_test_turn_run (&f->turn, f->session, "go", NULL);
  g_assert_no_error (f->turn.error);

  /* The first step: one call, its usage */
  first = memory_message (f, 1);
  step = agent_message_get_metrics (first);
  g_assert_nonnull (step);
  g_assert_cmpuint (agent_metrics_get_steps (step), ==, 1);
  g_assert_cmpuint (agent_metrics_get_tool_calls (step), ==, 1);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_metrics_get_usage (step)), ==, 15);

  /* The last step streamed over 30 ms */
  step = agent_message_get_metrics (f->turn.result);
  g_assert_cmpint (agent_metrics_get_time_to_first_token (step), >=, 0);
  g_assert_cmpint (agent_metrics_get_duration (step), >=, 30000);
  g_assert_cmpint (agent_metrics_get_duration (step), >=, agent_metrics_get_time_to_first_token (step));
  g_assert_cmpfloat (agent_metrics_get_tokens_per_second (step), >, 0);
  /* 40 tokens over at most the whole step: a lower bound that cannot lie */
  g_assert_cmpfloat (agent_metrics_get_tokens_per_second (step), >=,
                     40 / (agent_metrics_get_duration (step) / 1e6));

  /* The turn: two steps, usage summed, one tool run */
  turn = agent_message_get_turn_metrics (f->turn.result);
  g_assert_nonnull (turn);
  g_assert_true (turn == agent_session_get_turn_metrics (f->session));
  g_assert_cmpuint (agent_metrics_get_steps (turn), ==, 2);
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_metrics_get_usage (turn)), ==, 110);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_metrics_get_usage (turn)), ==, 45);
  g_assert_cmpuint (agent_metrics_get_tool_calls (turn), ==, 1);
  g_assert_cmpint (agent_metrics_get_tool_time (turn), >=, 0);
  g_assert_cmpint (agent_metrics_get_duration (turn), >=, agent_metrics_get_duration (step));
  g_assert_cmpint (agent_metrics_get_time_to_first_token (turn), ==,
                   agent_metrics_get_time_to_first_token (agent_message_get_metrics (first)));
  g_assert_null (agent_message_get_turn_metrics (first));
}

/* A tool that lets its invocation go without answering */

static gboolean
dropping_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data,
                  GError             **error)
{
  return TRUE;
}

static gpointer
drop_in_thread (gpointer data)
{
  /* Holds it a while, then lets it go: the last reference goes here */
  g_usleep (20000);
  g_object_unref (data);
  return NULL;
}

static gboolean
thread_dropping_handler (AgentTool           *tool,
                         AgentToolInvocation *invocation,
                         gpointer             user_data,
                         GError             **error)
{
  GPtrArray *threads = user_data;

  g_ptr_array_add (threads, g_thread_new ("drop", drop_in_thread, g_object_ref (invocation)));

  return TRUE;
}

/* No tool-timeout: the turn would wait forever for an invocation nobody
 * holds; it answers "no answer" instead, and the turn goes on. */
static void
test_tool_dropped (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_thread_join);
  g_autoptr(AgentTool) lost = agent_tool_new ("lost", "Forgets to answer", NULL,
                                              dropping_handler, NULL, NULL);
  g_autoptr(AgentTool) far = agent_tool_new ("far", "Forgets to answer, in a thread", NULL,
                                             thread_dropping_handler, threads, NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "lost", "{}" },
    { 1, "c1", "far", "{}" },
  };
  AgentToolCall *call;

  g_assert_cmpfloat (agent_session_get_tool_timeout (f->session), ==, 0);
  agent_session_add_tool (f->session, lost);
  agent_session_add_tool (f->session, far);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Nothing came back.");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Nothing came back.");
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "The tool “lost” gave no answer");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "The tool “far” gave no answer");
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_FAILED);
  g_assert_true (agent_tool_call_is_error (call));
  assert_memory_consistent (f);
}

/* A JSON result, and a result after a completed one */
static gboolean
json_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data,
              GError             **error)
{
  /* 1e20: json-glib 1.6 writes it "1e+20.0", which is not JSON */
  g_autoptr(JsonNode) value = json_from_string ("{\"temperature\": 21, \"sky\": [\"sunny\"], "
                                                "\"light_years\": 1e20}", NULL);
  g_autoptr(JsonNode) text = json_node_init_string (json_node_alloc (), "plain text");

  if (g_str_equal (agent_tool_get_name (tool), "text"))
    agent_tool_invocation_return_json (invocation, text);
  else
    agent_tool_invocation_return_json (invocation, value);

  return TRUE;
}

static void
test_tool_json_result (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AgentTool) weather = agent_tool_new ("weather", "Weather", NULL, json_handler,
                                                 NULL, NULL);
  g_autoptr(AgentTool) text = agent_tool_new ("text", "Text", NULL, json_handler, NULL, NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "weather", "{}" },
    { 1, "c1", "text", "{}" },
  };

  agent_session_add_tool (f->session, weather);
  agent_session_add_tool (f->session, text);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "ok");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==,
                   "{\"temperature\":21,\"sky\":[\"sunny\"],\"light_years\":1e+20}");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "plain text");
}

static void
test_tool_parse_parameters (void)
{
  static const struct {
    const char *schema;
    const char *error;
  } cases[] = {
    { "{\"type\": \"object\", \"properties\": {}}", NULL },
    { "{\"properties\": {}}", NULL },
    { "", "The parameters schema is empty" },
    { "{\"type\": ", "The parameters schema is not valid JSON: " },
    { "[1, 2]", "The parameters schema is not a JSON object" },
    { "{\"type\": \"string\"}", "The parameters schema must have \"type\": \"object\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = agent_tool_parse_parameters (cases[i].schema, &error);

      if (cases[i].error == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
          g_assert_true (json_node_is_immutable (node));
        }
      else
        {
          g_assert_null (node);
          g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
          g_assert_true (g_str_has_prefix (error->message, cases[i].error));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/control/tools/eight-in-parallel", test_parallel_eight);
  ADD ("/control/tools/timeout", test_tool_timeout);
  ADD ("/control/tools/timeout-per-tool", test_tool_timeout_per_tool);
  ADD ("/control/tools/blocking", test_blocking_tool);
  ADD ("/control/tools/dropped", test_tool_dropped);
  ADD ("/control/tools/json-result", test_tool_json_result);
  g_test_add_func ("/control/tools/parse-parameters", test_tool_parse_parameters);
  ADD ("/control/tools/return-direct", test_return_direct);
  ADD ("/control/tools/return-direct-mixed", test_return_direct_mixed);
  ADD ("/control/tools/progress", test_progress);
  ADD ("/control/concurrency-limit", test_concurrency_limit);
  ADD ("/control/metrics", test_metrics);

  return g_test_run ();
}
