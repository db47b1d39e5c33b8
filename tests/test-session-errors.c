/* test-session-errors.c — the tool loop against a real HTTP server when
 * things go wrong (unknown tools, invalid arguments, failing tools, the step
 * limit, HTTP errors, broken streams), and what holds whatever the thread:
 * busy, tools on other threads, other main contexts, the properties
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

static gboolean
count_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data,
               GError             **error)
{
  calls_run++;
  agent_tool_invocation_return_result (invocation, "ran");

  return TRUE;
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

static gboolean
error_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data,
               GError             **error)
{
  g_autoptr(GError) not_found = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                                     "No such file: /nope");

  agent_tool_invocation_return_error (invocation, not_found);

  return TRUE;
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
  g_assert_cmpuint (agent_error_get_http_status (f->turn.error), ==, 401);
  g_assert_nonnull (strstr (f->turn.error->message, "401"));
  g_assert_nonnull (strstr (f->turn.error->message, "Incorrect API key provided"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));
  {
    /* The status travels with copies, and comes back to an error a binding
     * made again of the code and message (PyGObject keeps only those) */
    g_autoptr(GError) copy = g_error_copy (f->turn.error);
    g_autoptr(GError) remade = g_error_new_literal (AGENT_ERROR, f->turn.error->code,
                                                    f->turn.error->message);
    g_autoptr(GError) other = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                                                   "The key is wrong");
    g_autoptr(GError) elsewhere = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                       f->turn.error->message);

    g_assert_cmpuint (agent_error_get_http_status (copy), ==, 401);
    g_assert_cmpuint (agent_error_get_http_status (remade), ==, 401);
    g_assert_cmpuint (agent_error_get_http_status (other), ==, 0);
    g_assert_cmpuint (agent_error_get_http_status (elsewhere), ==, 0);
  }
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer sk-test-SECRET-0123456789");

  /* 500 with an HTML body */
  r = agent_test_server_add_response (f->server, 500);
  agent_test_response_set_body (r, "text/html", "<html><body>Internal error</body></html>");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_cmpuint (agent_error_get_http_status (f->turn.error), ==, 500);
  g_assert_nonnull (strstr (f->turn.error->message, "500"));

  /* 404 with an Ollama-style body: a model to pull */
  r = agent_test_server_add_response (f->server, 404);
  agent_test_response_set_body (r, "application/json", "{\"error\":\"model \\\"nope\\\" not found\"}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  g_assert_cmpuint (agent_error_get_http_status (f->turn.error), ==, 404);
  g_assert_nonnull (strstr (f->turn.error->message, "“nope” is not installed"));

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
  g_assert_cmpuint (agent_error_get_http_status (f->turn.error), ==, 0);
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

static gboolean
threaded_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data,
                  GError             **error)
{
  g_thread_unref (g_thread_new ("tool-worker", worker, g_object_ref (invocation)));

  return TRUE;
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
