/* test-session.c — the tool loop against a real HTTP server: text, tools,
 * cancelling and streamed tool-call chunks (errors: test-session-errors.c)
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
#include "test-session-util.h"

static void
test_text_only (Fixture       *f,
                gconstpointer  data)
{
  static const char * const words[] = { "Hello", ", ", "world", "!", NULL };
  JsonObject *request;
  AgentUsage *usage;

  agent_test_openai_add_text_response (f->server, words, 10, 3);
  agent_test_turn_run (&f->turn, f->session, "Say hello", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_nonnull (f->turn.result);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Hello, world!");
  g_assert_cmpstr (f->text->str, ==, "Hello, world!");
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "stop");
  g_assert_cmpint (agent_message_get_state (f->turn.result), ==, AGENT_MESSAGE_STATE_COMPLETE);

  usage = agent_session_get_usage (f->session);
  g_assert_nonnull (usage);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, 13);

  /* The request */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/chat/completions");
  g_assert_null (agent_test_server_get_request_header (f->server, 0, "Authorization"));
  request = agent_test_openai_get_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "test-model");
  g_assert_true (json_object_get_boolean_member (request, "stream"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (request, "stream_options"),
                                                 "include_usage"));

  /* Memory: user, assistant */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session))), ==, 2);
  g_assert_false (agent_session_get_busy (f->session));
}

static gint
event_position (Fixture    *f,
                const char *prefix)
{
  for (guint i = 0; i < f->events->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (f->events, i), prefix))
      return i;
  return -1;
}

static guint
count_events (Fixture    *f,
              const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < f->events->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (f->events, i), prefix))
      n++;
  return n;
}

static void
test_single_tool (Fixture       *f,
                  gconstpointer  data)
{
  JsonObject *assistant;
  JsonArray *calls;
  JsonObject *call;
  JsonObject *tool;
  AgentMessage *message;

  add_calculator_call (f, "call_a", "2*7");
  add_answer (f, "It is 14.");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "It is 14.");

  /* Events, in order */
  g_assert_true (has_event (f, "tool-call:calculator:{\"expression\": \"2*7\"}"));
  g_assert_true (has_event (f, "tool-finished:call_a:14"));
  g_assert_cmpint (event_position (f, "tool-call:"), <, event_position (f, "step-finished:tool_calls"));
  g_assert_cmpint (event_position (f, "step-finished:tool_calls"), <, event_position (f, "tool-started:call_a"));
  g_assert_cmpint (event_position (f, "tool-started:call_a"), <, event_position (f, "tool-finished:call_a"));
  g_assert_cmpint (event_position (f, "tool-finished:call_a"), <, event_position (f, "text:It is 14."));
  g_assert_cmpuint (count_events (f, "tool-call-delta:"), ==, 0);

  /* The second request carries the call and its result, exactly */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 0)), ==, 1);
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 1)), ==, 3);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 0, "role"), ==, "user");
  assistant = agent_test_openai_get_message (f->server, 1, 1);
  g_assert_cmpstr (json_object_get_string_member (assistant, "role"), ==, "assistant");
  g_assert_true (json_object_get_null_member (assistant, "content"));
  calls = json_object_get_array_member (assistant, "tool_calls");
  call = json_array_get_object_element (calls, 0);
  g_assert_cmpstr (json_object_get_string_member (call, "id"), ==, "call_a");
  g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "function");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "name"), ==, "calculator");
  g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "arguments"), ==,
                   "{\"expression\": \"2*7\"}");
  tool = agent_test_openai_get_message (f->server, 1, 2);
  g_assert_cmpstr (json_object_get_string_member (tool, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_a");
  g_assert_cmpstr (json_object_get_string_member (tool, "content"), ==, "14");

  /* Tools are offered in every request */
  g_assert_true (json_object_has_member (agent_test_openai_get_request (f->server, 1), "tools"));

  /* Memory: user, assistant+call, tool, assistant */
  g_assert_cmpuint (memory_length (f), ==, 4);
  message = memory_message (f, 1);
  g_assert_cmpint (agent_message_get_role (message), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 1);
  g_assert_cmpint (agent_tool_call_get_state (agent_message_get_tool_call (message, 0)), ==,
                   AGENT_TOOL_CALL_STATE_SUCCEEDED);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 2)), ==, "14");
  g_assert_true (memory_message (f, 3) == f->turn.result);
  assert_memory_consistent (f);

  /* Usage summed over the two steps */
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_session_get_usage (f->session)), ==, 50);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_session_get_usage (f->session)), ==, 12);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (f->session)), ==, 62);
}

/* A tool whose invocations the test completes by hand. */
typedef struct
{
  GPtrArray *invocations;
  guint      n_started;
} Pending;

static gboolean
pending_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data,
                 GError             **error)
{
  Pending *pending = user_data;

  pending->n_started++;
  g_ptr_array_add (pending->invocations, g_object_ref (invocation));

  return TRUE;
}

static AgentTool *
pending_tool_new (const char *name,
                  Pending    *pending)
{
  pending->invocations = g_ptr_array_new_with_free_func (g_object_unref);
  return agent_tool_new (name, "A tool the test completes by hand", NULL,
                         pending_handler, pending, NULL);
}

static gboolean
has_started (gpointer data)
{
  Pending *pending = data;

  return pending->n_started > 0;
}

static void
test_parallel_tools (Fixture       *f,
                     gconstpointer  data)
{
  Pending pending = { 0 };
  g_autoptr(AgentTool) tool = pending_tool_new ("lookup", &pending);
  AgentTestResponse *r;
  JsonArray *messages;

  agent_session_add_tool (f->session, tool);

  /* Two calls, fragments interleaved, text before them */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Let me check both.");
  agent_test_openai_add_tool_call (r, 0, "call_x", "lookup", "");
  agent_test_openai_add_tool_call (r, 1, "call_y", "calculator", "");
  agent_test_openai_add_tool_call (r, 0, NULL, NULL, "{\"key\":");
  agent_test_openai_add_tool_call (r, 1, NULL, NULL, "{\"expression\":");
  agent_test_openai_add_tool_call (r, 1, NULL, NULL, "\"1+1\"}");
  agent_test_openai_add_tool_call (r, 0, NULL, NULL, "\"x\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "Done.");

  agent_test_turn_send (&f->turn, f->session, "Go", NULL);

  /* The calculator finished at once; lookup is still running */
  agent_test_wait_until (has_started, &pending);
  g_assert_true (has_event (f, "tool-finished:call_y:2"));
  g_assert_false (has_event (f, "tool-finished:call_x:X"));
  g_assert_true (agent_session_get_busy (f->session));
  /* The answer with the calls is in memory now, no longer the current one */
  g_assert_null (agent_session_get_current_message (f->session));
  g_assert_cmpuint (memory_length (f), ==, 2);
  /* No second request while a tool runs */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);

  agent_tool_invocation_return_result (g_ptr_array_index (pending.invocations, 0), "X");
  agent_test_turn_wait (&f->turn);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Done.");
  g_assert_true (has_event (f, "text:Let me check both."));
  g_assert_cmpint (event_position (f, "text:Let me check both."), <, event_position (f, "tool-call:"));

  /* Results in call order (x then y), though y finished first */
  messages = agent_test_openai_get_messages (f->server, 1);
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"), ==,
                   "Let me check both.");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "tool_call_id"), ==, "call_x");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==, "X");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "tool_call_id"), ==, "call_y");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"), ==, "2");
  {
    JsonArray *calls = json_object_get_array_member (json_array_get_object_element (messages, 1), "tool_calls");

    g_assert_cmpuint (json_array_get_length (calls), ==, 2);
    g_assert_cmpstr (agent_test_openai_function_string (calls, 0, "arguments"), ==,
                     "{\"key\":\"x\"}");
    g_assert_cmpstr (agent_test_openai_function_string (calls, 1, "arguments"), ==,
                     "{\"expression\":\"1+1\"}");
  }
  assert_memory_consistent (f);
  g_ptr_array_unref (pending.invocations);
}

static void
test_several_steps (Fixture       *f,
                    gconstpointer  data)
{
  agent_session_set_system_prompt (f->session, "You are terse.");

  add_calculator_call (f, "s1", "1+2");
  add_calculator_call (f, "s2", "3*3");
  add_answer (f, "9.");

  agent_test_turn_run (&f->turn, f->session, "Compute", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 2)), ==, 6);
  /* system first, then the conversation in order */
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 0, "role"), ==, "system");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 0, "content"), ==,
                   "You are terse.");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 1, "role"), ==, "user");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 2, "role"), ==, "assistant");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 3, "content"), ==, "3");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 4, "role"), ==, "assistant");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 5, "content"), ==, "9");
  g_assert_cmpuint (count_events (f, "step-finished:"), ==, 3);
  g_assert_cmpuint (memory_length (f), ==, 6);
  assert_memory_consistent (f);

  /* A second turn continues the same conversation */
  add_answer (f, "Bye.");
  agent_test_turn_run (&f->turn, f->session, "Thanks", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 3)), ==, 8);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (f->session)), ==, 37);
}

static gboolean
text_arrived (gpointer data)
{
  Fixture *f = data;

  return f->text->len > 0;
}

static void
test_cancel_mid_stream (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AgentTestResponse *r;
  AgentMessage *partial;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Once upon");
  agent_test_openai_add_tool_call (r, 0, "call_never", "calculator", "{\"expr");
  agent_test_response_add_wait (r);     /* the server stalls here */
  agent_test_openai_add_text (r, " a time");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Tell a story", cancellable);
  agent_test_wait_until (text_arrived, f);
  agent_test_server_wait_until_waiting (f->server);
  g_assert_nonnull (agent_session_get_current_message (f->session));

  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (f->turn.result);
  g_assert_false (agent_session_get_busy (f->session));
  g_assert_null (agent_session_get_current_message (f->session));

  /* What streamed stays, marked interrupted, without the unfinished call */
  g_assert_cmpuint (memory_length (f), ==, 2);
  partial = memory_message (f, 1);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Once upon");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpuint (agent_message_get_n_tool_calls (partial), ==, 0);
  assert_memory_consistent (f);
  g_assert_cmpuint (count_events (f, "tool-started:"), ==, 0);

  /* The session is usable again */
  agent_test_server_release (f->server);
  add_answer (f, "Again.");
  agent_test_turn_run (&f->turn, f->session, "Once more", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Again.");
  g_assert_cmpuint (memory_length (f), ==, 4);
}

static void
test_cancel_before_text (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  agent_test_response_add_wait (r);
  agent_test_openai_add_text (r, "late");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Hi", cancellable);
  agent_test_server_wait_until_waiting (f->server);
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* Only the user's message: nothing streamed */
  g_assert_cmpuint (memory_length (f), ==, 1);
  g_assert_cmpuint (f->text->len, ==, 0);
}

static void
test_cancel_already_cancelled (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  g_cancellable_cancel (cancellable);
  add_answer (f, "unused");
  agent_test_turn_run (&f->turn, f->session, "Hi", cancellable);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (memory_length (f), ==, 1);
  g_assert_false (agent_session_get_busy (f->session));
}

static void
test_cancel_during_tool (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Pending pending = { 0 };
  g_autoptr(AgentTool) tool = pending_tool_new ("slow", &pending);
  AgentTestResponse *r;
  AgentToolInvocation *invocation;
  AgentMessage *result;

  agent_session_add_tool (f->session, tool);

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_slow", "slow", "{}");
  agent_test_openai_add_tool_call (r, 1, "call_fast", "calculator", "{\"expression\":\"6/3\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Go", cancellable);
  agent_test_wait_until (has_started, &pending);

  invocation = g_ptr_array_index (pending.invocations, 0);
  g_assert_false (g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (invocation)));

  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* The tool saw the cancellation */
  g_assert_true (g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (invocation)));
  /* No request after the cancellation */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);

  /* user, assistant with 2 calls, 2 results: the slow one "cancelled" */
  g_assert_cmpuint (memory_length (f), ==, 4);
  assert_memory_consistent (f);
  result = memory_message (f, 2);
  g_assert_cmpstr (agent_message_get_tool_call_id (result), ==, "call_slow");
  g_assert_true (agent_message_is_error (result));
  g_assert_cmpint (agent_tool_call_get_state (agent_message_get_tool_call (memory_message (f, 1), 0)), ==,
                   AGENT_TOOL_CALL_STATE_CANCELLED);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 3)), ==, "2");

  /* A late answer from the tool is ignored, and says so */
  g_test_expect_message ("Agent", G_LOG_LEVEL_WARNING,
                         "The tool “slow” answered after its call was over (The tool was "
                         "cancelled before it finished); its result was dropped");
  agent_tool_invocation_return_result (invocation, "too late");
  g_test_assert_expected_messages ();
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (memory_length (f), ==, 4);
  g_ptr_array_unref (pending.invocations);
}

/* g_object_run_dispose() — what a binding or a destroy does — during a
 * turn cancels it: the callback gets G_IO_ERROR_CANCELLED, the memory is
 * consistent, nothing aborts. */
static void
test_dispose_mid_stream (Fixture       *f,
                         gconstpointer  data)
{
  AgentTestResponse *r;
  AgentMemory *memory;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Once upon");
  agent_test_response_add_wait (r);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Tell a story", NULL);
  agent_test_wait_until (text_arrived, f);
  agent_test_server_wait_until_waiting (f->server);
  memory = g_object_ref (agent_session_get_memory (f->session));

  g_object_run_dispose (G_OBJECT (f->session));
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (agent_session_get_busy (f->session));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (memory)), ==, 2);
  g_assert_true (agent_session_get_memory (f->session) == memory);
  assert_memory_consistent (f);
  agent_test_server_release (f->server);
  g_object_unref (memory);
}

static void
test_dispose_during_tool (Fixture       *f,
                          gconstpointer  data)
{
  Pending pending = { 0 };
  g_autoptr(AgentTool) tool = pending_tool_new ("slow", &pending);
  AgentTestResponse *r;

  agent_session_add_tool (f->session, tool);
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_slow", "slow", "{}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Go", NULL);
  agent_test_wait_until (has_started, &pending);

  g_object_run_dispose (G_OBJECT (f->session));
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (
                   g_ptr_array_index (pending.invocations, 0))));
  g_assert_cmpuint (memory_length (f), ==, 3);
  assert_memory_consistent (f);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_ptr_array_unref (pending.invocations);
}

/* busy goes false after completed and after the callback, so that a
 * notify::busy handler starting the next turn sees this one over. */
static void
log_busy (AgentSession *session,
          GParamSpec   *pspec,
          GPtrArray    *log)
{
  g_ptr_array_add (log, g_strdup (agent_session_get_busy (session) ? "busy" : "idle"));
}

static void
log_completed (AgentSession *session,
               AgentMessage *message,
               GPtrArray    *log)
{
  g_ptr_array_add (log, g_strdup ("completed"));
}

static void
log_callback (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  GPtrArray *log = data;
  g_autoptr(AgentMessage) message = agent_session_send_finish (AGENT_SESSION (object), result,
                                                               NULL);

  g_assert_nonnull (message);
  g_ptr_array_add (log, g_strdup ("callback"));
}

static gboolean
log_ends_idle (gpointer data)
{
  GPtrArray *log = data;

  return log->len > 0 && g_str_equal (g_ptr_array_index (log, log->len - 1), "idle");
}

static void
test_busy_goes_false_last (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);

  add_answer (f, "Hi.");
  g_signal_connect (f->session, "notify::busy", G_CALLBACK (log_busy), log);
  g_signal_connect (f->session, "completed", G_CALLBACK (log_completed), log);
  agent_session_send_async (f->session, "Hello", NULL, log_callback, log);
  agent_test_wait_until (log_ends_idle, log);

  g_assert_cmpuint (log->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (log, 0), ==, "busy");
  g_assert_cmpstr (g_ptr_array_index (log, 1), ==, "completed");
  g_assert_cmpstr (g_ptr_array_index (log, 2), ==, "callback");
  g_assert_cmpstr (g_ptr_array_index (log, 3), ==, "idle");
  g_signal_handlers_disconnect_by_data (f->session, log);
}

static void
run_toggle (Fixture  *f,
            gboolean  chunks,
            gboolean  flip_midway)
{
  AgentTestResponse *r;

  agent_session_set_stream_tool_call_chunks (f->session, chunks);

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_t", "calculator", "");
  agent_test_openai_add_tool_call (r, 0, NULL, NULL, "{\"expres");
  if (flip_midway)
    agent_test_response_add_wait (r);
  agent_test_openai_add_tool_call (r, 0, NULL, NULL, "sion\": ");
  agent_test_openai_add_tool_call (r, 0, NULL, NULL, "\"5-3\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "2");

  agent_test_turn_send (&f->turn, f->session, "5-3?", NULL);
  if (flip_midway)
    {
      agent_test_server_wait_until_waiting (f->server);
      agent_session_set_stream_tool_call_chunks (f->session, !chunks);
      agent_test_server_release (f->server);
    }
  agent_test_turn_wait (&f->turn);
  g_assert_no_error (f->turn.error);
}

static void
test_toggle_off (Fixture       *f,
                 gconstpointer  data)
{
  run_toggle (f, FALSE, FALSE);
  g_assert_cmpuint (count_events (f, "tool-call-delta:"), ==, 0);
  g_assert_true (has_event (f, "tool-call:calculator:{\"expression\": \"5-3\"}"));
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (memory_message (f, 1), 0)), ==,
                   "{\"expression\": \"5-3\"}");
}

static void
test_toggle_on (Fixture       *f,
                gconstpointer  data)
{
  run_toggle (f, TRUE, FALSE);
  /* The call appears (id and name, no arguments yet), then each fragment */
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:"));
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:{\"expres"));
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:sion\": "));
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:\"5-3\"}"));
  g_assert_cmpuint (count_events (f, "tool-call-delta:"), ==, 4);
  g_assert_cmpint (event_position (f, "tool-call-delta:"), <, event_position (f, "tool-call:"));
  /* Stored exactly as with the toggle off */
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (memory_message (f, 1), 0)), ==,
                   "{\"expression\": \"5-3\"}");
  g_assert_cmpstr (sent_arguments (f, 1, 0), ==, "{\"expression\": \"5-3\"}");
}

static void
test_toggle_flip_midway (Fixture       *f,
                         gconstpointer  data)
{
  /* Off at first, switched on in the middle of the stream */
  run_toggle (f, FALSE, TRUE);
  g_assert_false (has_event (f, "tool-call-delta:0:calculator:{\"expres"));
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:sion\": "));
  g_assert_true (has_event (f, "tool-call-delta:0:calculator:\"5-3\"}"));
  g_assert_cmpuint (count_events (f, "tool-call-delta:"), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (memory_message (f, 1), 0)), ==,
                   "{\"expression\": \"5-3\"}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/session/text-only", test_text_only);
  ADD ("/session/tools/single", test_single_tool);
  ADD ("/session/tools/parallel", test_parallel_tools);
  ADD ("/session/tools/several-steps", test_several_steps);
  ADD ("/session/cancel/mid-stream", test_cancel_mid_stream);
  ADD ("/session/cancel/before-text", test_cancel_before_text);
  ADD ("/session/cancel/already-cancelled", test_cancel_already_cancelled);
  ADD ("/session/cancel/during-tool", test_cancel_during_tool);
  ADD ("/session/dispose/mid-stream", test_dispose_mid_stream);
  ADD ("/session/dispose/during-tool", test_dispose_during_tool);
  ADD ("/session/busy-goes-false-last", test_busy_goes_false_last);
  ADD ("/session/toggle/off", test_toggle_off);
  ADD ("/session/toggle/on", test_toggle_on);
  ADD ("/session/toggle/flip-midway", test_toggle_flip_midway);

  return g_test_run ();
}
