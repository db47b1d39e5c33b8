/* test-session.c — the tool loop against a real HTTP server
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

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GString         *text;          /* every text-delta, concatenated */
  GPtrArray       *events;        /* "signal:detail" in emission order */
  AgentTestTurn    turn;
} Fixture;

static void
record (Fixture    *f,
        const char *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
record (Fixture    *f,
        const char *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (f->events, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
  record (f, "text:%s", delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    Fixture       *f)
{
  record (f, "tool-call-delta:%u:%s:%s", agent_tool_call_get_index (call),
          agent_tool_call_get_name (call), delta);
}

static void
tool_call_cb (AgentSession  *session,
              AgentToolCall *call,
              Fixture       *f)
{
  record (f, "tool-call:%s:%s", agent_tool_call_get_name (call), agent_tool_call_get_arguments (call));
}

static void
tool_started_cb (AgentSession  *session,
                 AgentToolCall *call,
                 Fixture       *f)
{
  record (f, "tool-started:%s", agent_tool_call_get_id (call));
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Fixture       *f)
{
  record (f, "tool-finished:%s:%s%s", agent_tool_call_get_id (call),
          agent_tool_call_is_error (call) ? "error:" : "", agent_tool_call_get_result (call));
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  Fixture      *f)
{
  record (f, "step-finished:%s", agent_message_get_finish_reason (message));
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
  f->text = g_string_new (NULL);
  f->events = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (f->session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), f);
  g_signal_connect (f->session, "tool-call", G_CALLBACK (tool_call_cb), f);
  g_signal_connect (f->session, "tool-started", G_CALLBACK (tool_started_cb), f);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), f);
  g_signal_connect (f->session, "step-finished", G_CALLBACK (step_finished_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_string_free (f->text, TRUE);
  g_ptr_array_unref (f->events);
}

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


/* Scripted model answers */

static void
add_calculator_call (Fixture    *f,
                     const char *id,
                     const char *expression)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);
  g_autofree char *arguments = g_strdup_printf ("{\"expression\": \"%s\"}", expression);
  gsize len = strlen (arguments);

  /* Arguments in three fragments */
  agent_test_openai_add_tool_call (r, 0, id, "calculator", "");
  {
    g_autofree char *a = g_strndup (arguments, len / 3);
    g_autofree char *b = g_strndup (arguments + len / 3, len / 3);

    agent_test_openai_add_tool_call (r, 0, NULL, NULL, a);
    agent_test_openai_add_tool_call (r, 0, NULL, NULL, b);
    agent_test_openai_add_tool_call (r, 0, NULL, NULL, arguments + 2 * (len / 3));
  }
  agent_test_openai_add_end (r, "tool_calls", 20, 5);
}

static void
add_answer (Fixture    *f,
            const char *text)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);

  agent_test_openai_add_text (r, text);
  agent_test_openai_add_end (r, "stop", 30, 7);
}

static AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_autoptr(AgentMessage) message = g_list_model_get_item (memory, index);

  g_assert_nonnull (message);
  return message;  /* the memory keeps it alive */
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

/* The arguments of call @nth of the assistant's message (the second one)
 * in request @request, as sent. */
static const char *
sent_arguments (Fixture *f,
                guint    request,
                guint    nth)
{
  JsonObject *assistant = agent_test_openai_get_message (f->server, request, 1);
  JsonArray *calls = json_object_get_array_member (assistant, "tool_calls");

  return agent_test_openai_function_string (calls, nth, "arguments");
}

static gboolean
has_event (Fixture    *f,
           const char *event)
{
  for (guint i = 0; i < f->events->len; i++)
    if (g_str_equal (g_ptr_array_index (f->events, i), event))
      return TRUE;
  return FALSE;
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

/* The invariant every test checks at the end: no assistant message in
 * memory has a call without its result right after it, in call order. */
static void
assert_memory_consistent (Fixture *f)
{
  guint n = memory_length (f);

  for (guint i = 0; i < n; i++)
    {
      AgentMessage *message = memory_message (f, i);
      guint n_calls = agent_message_get_n_tool_calls (message);

      for (guint c = 0; c < n_calls; c++)
        {
          AgentToolCall *call = agent_message_get_tool_call (message, c);
          AgentMessage *result;

          g_assert_cmpuint (i + 1 + c, <, n);
          result = memory_message (f, i + 1 + c);
          g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
          g_assert_cmpstr (agent_message_get_tool_call_id (result), ==, agent_tool_call_get_id (call));
        }
    }
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

static void
pending_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data)
{
  Pending *pending = user_data;

  pending->n_started++;
  g_ptr_array_add (pending->invocations, g_object_ref (invocation));
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

  /* A late answer from the tool is accepted and ignored */
  agent_tool_invocation_return_result (invocation, "too late");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (memory_length (f), ==, 4);
  g_ptr_array_unref (pending.invocations);
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


static void
test_unknown_tool (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r;
  JsonObject *tool;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_u", "weather", "{\"city\":\"Paris\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "Sorry.");

  agent_test_turn_run (&f->turn, f->session, "Weather?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Sorry.");
  tool = agent_test_openai_get_message (f->server, 1, 2);
  g_assert_cmpstr (json_object_get_string_member (tool, "tool_call_id"), ==, "call_u");
  g_assert_nonnull (strstr (json_object_get_string_member (tool, "content"), "weather"));
  g_assert_nonnull (strstr (json_object_get_string_member (tool, "content"), "calculator"));
  g_assert_true (agent_message_is_error (memory_message (f, 2)));
  g_assert_true (has_event (f, "tool-started:call_u"));
  assert_memory_consistent (f);
}

static guint calls_run;

static void
count_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data)
{
  calls_run++;
  agent_tool_invocation_return_result (invocation, "ran");
}

static void
test_invalid_arguments (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("count", "Counts", NULL, count_handler, NULL, NULL);
  AgentTestResponse *r;
  const char *content;

  agent_session_add_tool (f->session, tool);
  calls_run = 0;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_bad", "count", "{\"n\": 1");  /* cut short */
  agent_test_openai_add_tool_call (r, 1, "call_list", "count", "[1, 2]");    /* not an object */
  agent_test_openai_add_tool_call (r, 2, "call_empty", "count", "");         /* no parameters: {} */
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "Recovered.");

  agent_test_turn_run (&f->turn, f->session, "Count", NULL);

  g_assert_no_error (f->turn.error);
  /* Only the call with usable arguments ran */
  g_assert_cmpuint (calls_run, ==, 1);
  content = agent_test_openai_get_message_string (f->server, 1, 2, "content");
  g_assert_nonnull (strstr (content, "not valid JSON"));
  content = agent_test_openai_get_message_string (f->server, 1, 3, "content");
  g_assert_nonnull (strstr (content, "not a JSON object"));
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 4, "content"), ==, "ran");
  /* The arguments go back byte for byte, even the broken ones */
  g_assert_cmpstr (sent_arguments (f, 1, 0), ==, "{\"n\": 1");
  assert_memory_consistent (f);
}

static void
error_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No such file: /nope");

  agent_tool_invocation_return_error (invocation, error);
}

static void
test_tool_error (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("read_file", "Reads", NULL, error_handler, NULL, NULL);
  AgentTestResponse *r;

  agent_session_add_tool (f->session, tool);

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "call_r", "read_file", "{\"path\":\"/nope\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "The file does not exist.");

  agent_test_turn_run (&f->turn, f->session, "Read /nope", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_true (has_event (f, "tool-finished:call_r:error:No such file: /nope"));
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 2, "content"), ==,
                   "No such file: /nope");
  g_assert_cmpint (agent_tool_call_get_state (agent_message_get_tool_call (memory_message (f, 1), 0)), ==,
                   AGENT_TOOL_CALL_STATE_FAILED);
}

static void
test_max_steps (Fixture       *f,
                gconstpointer  data)
{
  agent_session_set_max_steps (f->session, 2);
  add_calculator_call (f, "m1", "1+1");
  add_calculator_call (f, "m2", "2+2");
  add_calculator_call (f, "m3", "3+3");

  agent_test_turn_run (&f->turn, f->session, "Loop", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (f->turn.error->message, "2"));
  g_assert_cmpstr (agent_error_get_code (f->turn.error), ==, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  /* The results of the last step's calls are stored all the same */
  g_assert_cmpuint (memory_length (f), ==, 5);
  assert_memory_consistent (f);
  g_assert_false (agent_session_get_busy (f->session));
}

static void
test_http_errors (Fixture       *f,
                  gconstpointer  data)
{
  AgentTestResponse *r;

  /* Each failure once: the retries have their own tests */
  agent_provider_set_max_retries (f->provider, 0);

  agent_provider_set_api_key (f->provider, "sk-test-SECRET-0123456789");

  /* 401, with the key echoed back by the server */
  r = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (r, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided: sk-test-SECRET-0123456789.\","
                                "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (f->turn.error->message, "401"));
  g_assert_nonnull (strstr (f->turn.error->message, "Incorrect API key provided"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer sk-test-SECRET-0123456789");

  /* 500 with an HTML body */
  r = agent_test_server_add_response (f->server, 500);
  agent_test_response_set_body (r, "text/html", "<html><body>Internal error</body></html>");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "500"));

  /* 404 with an Ollama-style body */
  r = agent_test_server_add_response (f->server, 404);
  agent_test_response_set_body (r, "application/json", "{\"error\":\"model \\\"nope\\\" not found\"}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "model \"nope\" not found"));

  /* Nothing streamed: memory holds the three user messages only */
  g_assert_cmpuint (memory_length (f), ==, 3);
}

static void
test_connection_refused (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *url = agent_test_closed_port_url (&socket);

  agent_provider_set_max_retries (f->provider, 0);

  agent_provider_set_base_url (f->provider, url);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_nonnull (strstr (f->turn.error->message, "127.0.0.1"));
  g_assert_cmpuint (memory_length (f), ==, 1);
}

static void
test_dropped_connection (Fixture       *f,
                         gconstpointer  data)
{
  AgentTestResponse *r;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Half an ");
  agent_test_openai_add_text (r, "answer");
  agent_test_response_set_drop (r);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpstr (f->text->str, ==, "Half an answer");
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "Half an answer");
  g_assert_cmpint (agent_message_get_state (memory_message (f, 1)), ==, AGENT_MESSAGE_STATE_INTERRUPTED);

  /* Closed cleanly between chunks, without the terminator: libsoup sees a
   * clean end of body, the stream's own end marker is what is missing. */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Another half");
  agent_test_response_set_drop_at_boundary (r);

  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 3)), ==, "Another half");
}

static void
test_stream_endings (Fixture       *f,
                     gconstpointer  data)
{
  AgentTestResponse *r;

  /* A finish reason and a clean end, but no [DONE]: complete */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Fine.");
  agent_test_openai_add_finish (r, "stop");
  agent_test_turn_run (&f->turn, f->session, "A", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Fine.");

  /* Neither: the answer is incomplete, and the text is kept */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Trunc");
  agent_test_turn_run (&f->turn, f->session, "B", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 3)), ==, "Trunc");
  g_assert_cmpint (agent_message_get_state (memory_message (f, 3)), ==, AGENT_MESSAGE_STATE_INTERRUPTED);

  /* Cut in the middle of an event */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Cut");
  agent_test_response_add_bytes (r, "data: {\"id\":\"c1\",\"choi", -1);
  agent_test_turn_run (&f->turn, f->session, "C", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (f->turn.error->message, "middle of an event"));

  /* An error event in the middle of a 200 stream */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (r, "Before the error");
  agent_test_response_add_bytes (r, "event: error\ndata: {\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\"}}\n\n", -1);
  agent_test_turn_run (&f->turn, f->session, "D", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "Overloaded"));
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 7)), ==, "Before the error");

  /* A 200 JSON body that is not a stream */
  r = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_body (r, "application/json", "{\"object\":\"chat.completion\",\"choices\":[]}");
  agent_test_turn_run (&f->turn, f->session, "E", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (f->turn.error->message, "application/json"));

  /* A 200 body with only an error object */
  r = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_body (r, "application/json", "{\"error\":{\"message\":\"quota exceeded\"}}");
  agent_test_turn_run (&f->turn, f->session, "F", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "quota exceeded"));

  /* An event that is not JSON */
  r = agent_test_openai_begin (f->server, NULL);
  agent_test_response_add_bytes (r, "data: <html>\n\n", -1);
  agent_test_turn_run (&f->turn, f->session, "G", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (f->turn.error->message, "<html>"));

  assert_memory_consistent (f);
}

static void
test_busy (Fixture       *f,
           gconstpointer  data)
{
  AgentTestTurn second = { 0 };
  AgentTestResponse *r;

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_response_add_wait (r);
  agent_test_openai_add_text (r, "first");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "first", NULL);
  g_assert_true (agent_session_get_busy (f->session));

  agent_test_turn_run (&second, f->session, "second", NULL);
  g_assert_error (second.error, AGENT_ERROR, AGENT_ERROR_BUSY);
  g_assert_null (second.result);
  agent_test_turn_clear (&second);

  agent_test_server_wait_until_waiting (f->server);
  agent_test_server_release (f->server);
  agent_test_turn_wait (&f->turn);
  g_assert_no_error (f->turn.error);
  /* The refused text never reached the memory */
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 0)), ==, "first");
}

/* Tools may answer from another thread; the session hears it on its own. */
static GThread *main_thread;

static gpointer
worker (gpointer data)
{
  AgentToolInvocation *invocation = data;
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  g_autofree char *result = NULL;

  g_usleep (10000);
  result = g_strdup_printf ("%s!", json_object_get_string_member (arguments, "word"));
  agent_tool_invocation_return_result (invocation, result);
  g_object_unref (invocation);
  return NULL;
}

static void
threaded_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data)
{
  g_thread_unref (g_thread_new ("tool-worker", worker, g_object_ref (invocation)));
}

static gboolean finished_off_main_thread;

static void
check_thread_cb (AgentSession  *session,
                 AgentToolCall *call,
                 gpointer       user_data)
{
  if (g_thread_self () != main_thread)
    finished_off_main_thread = TRUE;
}

static void
test_tool_thread (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("shout", "Shouts", NULL, threaded_handler, NULL, NULL);
  AgentTestResponse *r;

  main_thread = g_thread_self ();
  finished_off_main_thread = FALSE;
  agent_session_add_tool (f->session, tool);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (check_thread_cb), NULL);

  r = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_tool_call (r, 0, "t1", "shout", "{\"word\":\"hey\"}");
  agent_test_openai_add_tool_call (r, 1, "t2", "shout", "{\"word\":\"ho\"}");
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_answer (f, "Loud.");

  agent_test_turn_run (&f->turn, f->session, "Shout", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_false (finished_off_main_thread);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 2, "content"), ==, "hey!");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 3, "content"), ==, "ho!");
}

/* Signals come on the thread-default main context of the caller of
 * send_async, here a worker thread with its own context, while the main
 * thread serves HTTP. */
typedef struct
{
  Fixture  *f;
  GThread  *thread;
  gboolean  wrong_thread;
  guint     n_deltas;
  gboolean  done;
  GError   *error;
} ThreadTurn;

static void
thread_delta_cb (AgentSession *session,
                 AgentMessage *message,
                 const char   *delta,
                 ThreadTurn   *t)
{
  t->n_deltas++;
  if (g_thread_self () != t->thread)
    t->wrong_thread = TRUE;
}

static void
thread_send_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ThreadTurn *t = user_data;
  g_autoptr(AgentMessage) message = agent_session_send_finish (AGENT_SESSION (object), result, &t->error);

  if (g_thread_self () != t->thread)
    t->wrong_thread = TRUE;
  g_atomic_int_set (&t->done, TRUE);
  /* The main thread waits in its own context for this */
  g_main_context_wakeup (NULL);
}

static gpointer
turn_thread (gpointer data)
{
  ThreadTurn *t = data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  g_autoptr(AgentSession) session = NULL;

  g_main_context_push_thread_default (context);

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (t->f->server));
  session = agent_session_new (provider);
  g_signal_connect (session, "text-delta", G_CALLBACK (thread_delta_cb), t);
  agent_session_send_async (session, "From a thread", NULL, thread_send_cb, t);
  while (!g_atomic_int_get (&t->done))
    g_main_context_iteration (context, TRUE);

  g_clear_object (&session);
  g_clear_object (&provider);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  return NULL;
}

static gboolean
thread_turn_done (gpointer data)
{
  return g_atomic_int_get (&((ThreadTurn *)data)->done);
}

static void
test_other_context (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const words[] = { "one ", "two ", "three", NULL };
  ThreadTurn t = { f };

  agent_test_openai_add_text_response (f->server, words, 10, 3);
  t.thread = g_thread_new ("turn", turn_thread, &t);
  agent_test_wait_until (thread_turn_done, &t);
  g_thread_join (t.thread);

  g_assert_no_error (t.error);
  g_assert_cmpuint (t.n_deltas, ==, 3);
  g_assert_false (t.wrong_thread);
}

static void
current_message_cb (AgentSession *session,
                    GParamSpec   *pspec,
                    guint        *n_content_notifies)
{
  AgentMessage *message = agent_session_get_current_message (session);

  if (message != NULL)
    g_signal_connect (message, "notify::content", G_CALLBACK (agent_test_count_notify),
                      n_content_notifies);
}

static void
test_properties (Fixture       *f,
                 gconstpointer  data)
{
  static const char * const words[] = { "a", "b", "c", NULL };
  guint n_busy = 0;
  guint n_content = 0;

  g_signal_connect (f->session, "notify::busy", G_CALLBACK (agent_test_count_notify), &n_busy);
  g_signal_connect (f->session, "notify::current-message", G_CALLBACK (current_message_cb), &n_content);

  agent_test_openai_add_text_response (f->server, words, 10, 3);
  agent_test_turn_run (&f->turn, f->session, "abc", NULL);
  g_assert_no_error (f->turn.error);

  /* busy went on and off; the streamed message's content grew 3 times
   * (the initial "" is not a delta) */
  g_assert_cmpuint (n_busy, ==, 2);
  g_assert_cmpuint (n_content, ==, 3);
  g_assert_cmpint (agent_session_get_max_steps (f->session), ==, 10);
  g_assert_false (agent_session_get_stream_tool_call_chunks (f->session));
  g_assert_cmpuint (g_list_model_get_n_items (agent_session_get_tools (f->session)), ==, 1);
  g_assert_nonnull (agent_session_lookup_tool (f->session, "calculator"));
  g_assert_true (agent_session_remove_tool (f->session, agent_session_lookup_tool (f->session, "calculator")));
  g_assert_null (agent_session_lookup_tool (f->session, "calculator"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/session/text-only", test_text_only);
  ADD ("/session/tools/single", test_single_tool);
  ADD ("/session/tools/parallel", test_parallel_tools);
  ADD ("/session/tools/several-steps", test_several_steps);
  ADD ("/session/cancel/mid-stream", test_cancel_mid_stream);
  ADD ("/session/cancel/before-text", test_cancel_before_text);
  ADD ("/session/cancel/already-cancelled", test_cancel_already_cancelled);
  ADD ("/session/cancel/during-tool", test_cancel_during_tool);
  ADD ("/session/toggle/off", test_toggle_off);
  ADD ("/session/toggle/on", test_toggle_on);
  ADD ("/session/toggle/flip-midway", test_toggle_flip_midway);
  ADD ("/session/errors/unknown-tool", test_unknown_tool);
  ADD ("/session/errors/invalid-arguments", test_invalid_arguments);
  ADD ("/session/errors/tool-error", test_tool_error);
  ADD ("/session/errors/max-steps", test_max_steps);
  ADD ("/session/errors/http", test_http_errors);
  ADD ("/session/errors/connection-refused", test_connection_refused);
  ADD ("/session/errors/dropped-connection", test_dropped_connection);
  ADD ("/session/errors/stream-endings", test_stream_endings);
  ADD ("/session/busy", test_busy);
  ADD ("/session/tools/thread", test_tool_thread);
  ADD ("/session/context/other-thread", test_other_context);
  ADD ("/session/properties", test_properties);

  return g_test_run ();
}
