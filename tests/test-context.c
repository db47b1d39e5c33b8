/* test-context.c — long conversations: a context policy compacts what a
 * request sends (keep the last turns, shorten old tool results, summarize
 * with the model), on its own before the window is full or once after the
 * server refused a request as too long; the memory keeps everything. And
 * the estimate of a conversation (context-used): images counted as the
 * API bills them, followed while an answer streams, said to be an
 * estimate when it is one.
 *
 * The assertions are on the request bodies the real HTTP server received.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-png.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define SYSTEM_PROMPT "You are terse."
#define TOO_LONG \
  "{\"error\": {\"message\": \"This model's maximum context length is 1000 tokens. However, " \
  "your messages resulted in 1200 tokens. Please reduce the length of the messages.\", " \
  "\"type\": \"invalid_request_error\", \"param\": \"messages\", " \
  "\"code\": \"context_length_exceeded\"}}"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  GPtrArray       *compactions;  /* "strategy:start:end:before>after" */
  GString         *summary_text; /* text-delta of summaries */
  GString         *text;         /* text-delta of answers */
  guint            n_pressure;
  gint64           pressure_used;
} Fixture;

static void
compacted_cb (AgentSession         *session,
              AgentContextStrategy  strategy,
              guint                 start,
              guint                 end,
              gint64                before,
              gint64                after,
              AgentMessage         *summary,
              Fixture              *f)
{
  g_assert_true (summary == NULL || agent_message_is_summary (summary));
  g_assert_cmpint (after, <, before);
  g_ptr_array_add (f->compactions,
                   g_strdup_printf ("%u:%u:%u:%s", strategy, start, end,
                                    summary ? agent_message_get_content (summary) : ""));
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *text,
               Fixture      *f)
{
  if (agent_message_is_summary (message))
    {
      g_assert_true (agent_session_get_current_message (session) == message);
      g_string_append (f->summary_text, text);
    }
  else
    g_string_append (f->text, text);
}

static void
pressure_cb (AgentSession *session,
             gint64        used,
             guint64       window,
             Fixture      *f)
{
  f->n_pressure++;
  f->pressure_used = used;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  agent_session_set_system_prompt (f->session, SYSTEM_PROMPT);
  f->compactions = g_ptr_array_new_with_free_func (g_free);
  f->summary_text = g_string_new (NULL);
  f->text = g_string_new (NULL);
  g_signal_connect (f->session, "compacted", G_CALLBACK (compacted_cb), f);
  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (f->session, "context-pressure", G_CALLBACK (pressure_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_ptr_array_unref (f->compactions);
  g_string_free (f->summary_text, TRUE);
  g_string_free (f->text, TRUE);
}

static void
set_policy (Fixture              *f,
            AgentContextStrategy  strategy,
            guint                 keep_turns)
{
  g_autoptr(AgentContextPolicy) policy = agent_context_policy_new (strategy);

  agent_context_policy_set_keep_turns (policy, keep_turns);
  agent_context_policy_set_max_tool_result_length (policy, 100);
  agent_session_set_context_policy (f->session, policy);
}

static void
add_answer (Fixture    *f,
            const char *text,
            gint64      prompt_tokens)
{
  const char *deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, prompt_tokens, 5);
}

static void
add_tool_call (Fixture    *f,
               const char *id,
               const char *tool,
               const char *arguments)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);

  agent_test_openai_add_tool_call (r, 0, id, tool, arguments);
  agent_test_openai_add_end (r, "tool_calls", 20, 5);
}

static void
add_too_long (Fixture *f)
{
  agent_test_response_set_body (agent_test_server_add_response (f->server, 400),
                                "application/json", TOO_LONG);
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

static gsize
body_size (Fixture *f,
           guint    index)
{
  g_autofree char *text = json_to_string (agent_test_server_get_request_body (f->server, index),
                                          FALSE);

  return strlen (text);
}

/* Every tool call in request @index is followed by its result, and every
 * result follows its call; the system prompt comes first */
static void
assert_request_whole (Fixture *f,
                      guint    index)
{
  JsonArray *messages = agent_test_openai_get_messages (f->server, index);
  guint n = json_array_get_length (messages);
  g_autoptr(GHashTable) open_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, index, 0, "role"), ==, "system");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, index, 0, "content"), ==,
                   SYSTEM_PROMPT);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *role = json_object_get_string_member (message, "role");

      if (g_str_equal (role, "tool"))
        g_assert_true (g_hash_table_remove (open_calls,
                                            json_object_get_string_member (message, "tool_call_id")));
      else
        g_assert_cmpuint (g_hash_table_size (open_calls), ==, 0);

      if (json_object_has_member (message, "tool_calls"))
        {
          JsonArray *calls = json_object_get_array_member (message, "tool_calls");

          for (guint j = 0; j < json_array_get_length (calls); j++)
            g_hash_table_add (open_calls,
                              g_strdup (json_object_get_string_member (json_array_get_object_element (calls, j),
                                                                       "id")));
        }
    }
  g_assert_cmpuint (g_hash_table_size (open_calls), ==, 0);
}

static gboolean
request_mentions (Fixture    *f,
                  guint       index,
                  const char *text)
{
  g_autofree char *body = json_to_string (agent_test_server_get_request_body (f->server, index),
                                          FALSE);

  return strstr (body, text) != NULL;
}

static gboolean
echo_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data,
              GError             **error)
{
  g_autofree char *result = g_strnfill (5000, 'x');

  agent_tool_invocation_return_result (invocation, result);
  return TRUE;
}

static void
add_echo_tool (Fixture *f)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("echo", "Echoes a lot", NULL, echo_handler, NULL,
                                              NULL);

  agent_session_add_tool (f->session, tool);
}

/* Refused as too long in the middle of a turn with a tool call: the
 * older turn is left out, the running one (with its call and result)
 * sent again, and the server's limit becomes the window */
static void
test_keep_last_retry (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AgentMessage) first = NULL;

  add_echo_tool (f);
  set_policy (f, AGENT_CONTEXT_STRATEGY_KEEP_LAST, 1);

  add_answer (f, "Hello there.", 30);
  agent_test_turn_run (&f->turn, f->session, "An old question", NULL);
  g_assert_no_error (f->turn.error);
  agent_test_turn_clear (&f->turn);

  add_tool_call (f, "call_1", "echo", "{}");
  add_too_long (f);
  add_answer (f, "Done.", 40);
  agent_test_turn_run (&f->turn, f->session, "Echo please", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Done.");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 4);

  /* Request 2 was refused; 3 is it again, without the old turn */
  g_assert_true (request_mentions (f, 2, "An old question"));
  g_assert_false (request_mentions (f, 3, "An old question"));
  g_assert_true (request_mentions (f, 3, "Echo please"));
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 3)), ==, 4);
  g_assert_cmpuint (body_size (f, 3), <, body_size (f, 2));
  assert_request_whole (f, 2);
  assert_request_whole (f, 3);

  g_assert_cmpuint (f->compactions->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->compactions, 0), ==, "2:0:2:");
  g_assert_cmpuint (agent_session_get_context_window (f->session), ==, 1000);

  /* The memory keeps everything */
  g_assert_cmpuint (memory_length (f), ==, 6);
  first = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), 0);
  g_assert_cmpstr (agent_message_get_content (first), ==, "An old question");

  /* And the next turn stays compacted */
  agent_test_turn_clear (&f->turn);
  add_answer (f, "Again.", 40);
  agent_test_turn_run (&f->turn, f->session, "More", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_false (request_mentions (f, 4, "An old question"));
  g_assert_true (request_mentions (f, 4, "Echo please"));
}

/* Old tool results are shortened; their calls stay with them */
static void
test_trim_retry (Fixture       *f,
                 gconstpointer  data)
{
  JsonObject *tool;
  const char *content;

  add_echo_tool (f);
  set_policy (f, AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS, 1);

  add_tool_call (f, "call_1", "echo", "{}");
  add_answer (f, "Echoed.", 1300);
  agent_test_turn_run (&f->turn, f->session, "Echo please", NULL);
  g_assert_no_error (f->turn.error);
  agent_test_turn_clear (&f->turn);

  add_too_long (f);
  add_answer (f, "Fine.", 100);
  agent_test_turn_run (&f->turn, f->session, "And now?", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 4);

  g_assert_cmpuint (strlen (agent_test_openai_tool_message_content (f->server, 2, "call_1")), ==,
                    5000);
  tool = agent_test_openai_find_tool_message (f->server, 3, "call_1");
  g_assert_nonnull (tool);
  content = json_object_get_string_member (tool, "content");
  g_assert_cmpuint (strlen (content), <, 200);
  g_assert_true (g_str_has_prefix (content, "xxxxxxxxxx"));
  agent_test_assert_contains (content, "4900 more bytes cut");
  g_assert_cmpuint (body_size (f, 3) + 4000, <, body_size (f, 2));
  assert_request_whole (f, 3);
  g_assert_true (request_mentions (f, 3, "Echo please"));

  g_assert_cmpuint (f->compactions->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->compactions, 0), ==, "1:0:4:");

  /* The memory keeps the whole result */
  {
    g_autoptr(AgentMessage) result = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), 2);

    g_assert_cmpuint (strlen (agent_message_get_content (result)), ==, 5000);
  }
}

/* Refused again after compacting: the turn fails, after one retry */
static void
test_never_loops (Fixture       *f,
                  gconstpointer  data)
{
  gint64 requested, limit;

  set_policy (f, AGENT_CONTEXT_STRATEGY_KEEP_LAST, 1);

  add_answer (f, "Hello.", 30);
  agent_test_turn_run (&f->turn, f->session, "First", NULL);
  agent_test_turn_clear (&f->turn);

  add_too_long (f);
  add_too_long (f);
  add_answer (f, "Never asked.", 30);
  agent_test_turn_run (&f->turn, f->session, "Second", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH);
  g_assert_true (agent_error_get_context_tokens (f->turn.error, &requested, &limit));
  g_assert_cmpint (requested, ==, 1200);
  g_assert_cmpint (limit, ==, 1000);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (memory_length (f), ==, 3);
}

/* Nothing to compact (one turn, keep-turns 1): the refusal stands, and
 * the request is not sent again */
static void
test_nothing_to_compact (Fixture       *f,
                         gconstpointer  data)
{
  set_policy (f, AGENT_CONTEXT_STRATEGY_KEEP_LAST | AGENT_CONTEXT_STRATEGY_SUMMARIZE, 1);

  add_too_long (f);
  agent_test_turn_run (&f->turn, f->session, "Only", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (f->compactions->len, ==, 0);
}

/* Over the threshold of a known window: the model summarizes the older
 * turns (streamed, flagged), the summary goes into the memory, and the
 * request sends it in their place */
static void
test_summarize (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AgentMessage) summary = NULL;
  JsonArray *messages;
  const char *deltas[] = { "The user ", "said hello.", NULL };

  add_echo_tool (f);
  set_policy (f, AGENT_CONTEXT_STRATEGY_SUMMARIZE, 1);
  agent_session_set_context_window (f->session, 1000);
  agent_session_set_context_pressure_threshold (f->session, 0.5);

  add_answer (f, "Hello there.", 600);
  agent_test_turn_run (&f->turn, f->session, "Hello", NULL);
  g_assert_no_error (f->turn.error);
  agent_test_turn_clear (&f->turn);
  g_assert_cmpuint (f->n_pressure, ==, 1);
  g_assert_cmpint (agent_session_get_context_used (f->session), >=, 605);

  agent_test_openai_add_text_response (f->server, deltas, 610, 8);
  add_answer (f, "It is 4.", 700);
  agent_test_turn_run (&f->turn, f->session, "What is 2+2?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "It is 4.");
  g_assert_cmpstr (f->summary_text->str, ==, "The user said hello.");
  g_assert_cmpstr (f->text->str, ==, "Hello there.It is 4.");

  /* Request 1 asked for the summary: the older turn, then the prompt; no tools */
  messages = agent_test_openai_get_messages (f->server, 1);
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 1, "content"), ==, "Hello");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 2, "content"), ==,
                   "Hello there.");
  agent_test_assert_contains (agent_test_openai_get_message_string (f->server, 1, 3, "content"),
                              "Summarize");
  g_assert_false (json_object_has_member (agent_test_openai_get_request (f->server, 1), "tools"));

  /* Request 2: the summary in place of the older turn */
  messages = agent_test_openai_get_messages (f->server, 2);
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  agent_test_assert_contains (agent_test_openai_get_message_string (f->server, 2, 1, "content"),
                              "The user said hello.");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 2, "content"), ==,
                   "What is 2+2?");
  g_assert_false (request_mentions (f, 2, "Hello there."));
  assert_request_whole (f, 2);

  g_assert_cmpuint (f->compactions->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->compactions, 0), ==, "4:0:2:The user said hello.");

  /* Memory: everything, and the summary after what it replaces */
  g_assert_cmpuint (memory_length (f), ==, 5);
  summary = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), 3);
  g_assert_true (agent_message_is_summary (summary));
  g_assert_cmpuint (agent_message_get_summary_start (summary), ==, 0);
  g_assert_cmpuint (agent_message_get_summary_end (summary), ==, 2);
  g_assert_cmpstr (agent_message_get_content (summary), ==, "The user said hello.");
  g_assert_cmpint (agent_message_get_state (summary), ==, AGENT_MESSAGE_STATE_COMPLETE);

  /* Past the threshold again: the next summary takes in the first one */
  {
    const char *again[] = { "Hello, then 2+2.", NULL };
    g_autoptr(AgentMessage) second = NULL;

    agent_test_turn_clear (&f->turn);
    agent_test_openai_add_text_response (f->server, again, 700, 8);
    add_answer (f, "Bye.", 60);
    agent_test_turn_run (&f->turn, f->session, "Bye", NULL);
    g_assert_no_error (f->turn.error);

    g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 3)), ==, 5);
    agent_test_assert_contains (agent_test_openai_get_message_string (f->server, 3, 1, "content"),
                                "The user said hello.");
    g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 3, 3, "content"), ==,
                     "It is 4.");
    g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 4)), ==, 3);
    agent_test_assert_contains (agent_test_openai_get_message_string (f->server, 4, 1, "content"),
                                "Hello, then 2+2.");
    g_assert_false (request_mentions (f, 4, "The user said hello."));

    second = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), 6);
    g_assert_true (agent_message_is_summary (second));
    g_assert_cmpuint (agent_message_get_summary_start (second), ==, 0);
    g_assert_cmpuint (agent_message_get_summary_end (second), ==, 5);
    g_assert_cmpuint (f->compactions->len, ==, 2);
  }
}

/* A failed summary fails the turn and leaves the memory as it was */
static void
test_summary_fails (Fixture       *f,
                    gconstpointer  data)
{
  set_policy (f, AGENT_CONTEXT_STRATEGY_SUMMARIZE, 1);
  agent_session_set_context_window (f->session, 100);

  add_answer (f, "Hello there.", 90);
  agent_test_turn_run (&f->turn, f->session, "Hello", NULL);
  agent_test_turn_clear (&f->turn);

  agent_test_response_set_body (agent_test_server_add_response (f->server, 400),
                                "application/json", "{\"error\": {\"message\": \"Bad model\"}}");
  agent_test_turn_run (&f->turn, f->session, "Next", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  agent_test_assert_contains (f->turn.error->message, "summarized");
  g_assert_cmpuint (memory_length (f), ==, 3);
  g_assert_null (agent_session_get_current_message (f->session));
}

/* Without a policy, the estimate and the pressure signal still work */
static void
test_pressure (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *long_text = g_strnfill (4000, 'a');

  agent_session_set_context_window (f->session, 1800);

  g_assert_cmpint (agent_session_get_context_used (f->session), ==, -1);
  add_answer (f, "Short.", 500);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  agent_test_turn_clear (&f->turn);
  /* 500 + 5 reported, nothing added since */
  g_assert_cmpint (agent_session_get_context_used (f->session), ==, 505);
  g_assert_cmpuint (f->n_pressure, ==, 0);

  /* 4000 more bytes: about 1000 tokens more, past 80 % of 1800 */
  add_answer (f, "Long.", 1510);
  agent_test_turn_run (&f->turn, f->session, long_text, NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (f->n_pressure, ==, 1);
  g_assert_cmpint (f->pressure_used, ==, 505 + 1000);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (f->compactions->len, ==, 0);
}

/* An image counts as the API bills it, not as its bytes: a 1200 × 900 PNG
 * is 765 tokens for OpenAI (85, and 170 for each of its four 512-pixel
 * tiles once fitted into 768 on its shorter side) */
static void
test_attachment_tokens (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GBytes) png = agent_test_grey_png_new (1200, 900, 900);
  g_autoptr(AgentMessage) question = agent_test_image_message_new ("Describe it", png);
  AgentTestResponse *response = agent_test_server_add_response (f->server, 200);
  gsize chars = strlen (SYSTEM_PROMPT) + strlen ("Describe it") + strlen ("A grey field.");

  /* No usage reported: the whole conversation is estimated */
  agent_test_openai_add_role (response, "");
  agent_test_openai_add_text (response, "A grey field.");
  agent_test_openai_add_finish (response, "stop");
  agent_test_response_add_done (response);
  agent_test_turn_run_message (&f->turn, f->session, question);
  g_assert_no_error (f->turn.error);

  g_assert_cmpint (agent_session_get_context_used (f->session), ==, (chars + 3) / 4 + 765);
}

static void
on_used_while_streaming (AgentSession *session,
                         GParamSpec   *pspec,
                         GArray       *values)
{
  gint64 used = agent_session_get_context_used (session);

  if (agent_session_get_current_message (session) != NULL)
    g_array_append_val (values, used);
}

/* While an answer streams, the estimate follows it: a few times a second,
 * not at every delta (5 bursts of 50 deltas, 300 ms apart) */
static void
test_streaming (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *text = g_strnfill (400, 'x');
  AgentTestResponse *response = agent_test_server_add_response (f->server, 200);

  agent_test_openai_add_role (response, "");
  for (guint burst = 0; burst < 5; burst++)
    {
      for (guint i = 0; i < 50; i++)
        agent_test_openai_add_text (response, text);
      agent_test_response_add_delay (response, 300);
    }
  agent_test_openai_add_end (response, "stop", 10, 25000);
  g_signal_connect (f->session, "notify::context-used", G_CALLBACK (on_used_while_streaming),
                    values);
  agent_test_turn_run (&f->turn, f->session, "Write at length", NULL);
  g_assert_no_error (f->turn.error);

  g_assert_cmpuint (values->len, >=, 4);
  g_assert_cmpuint (values->len, <=, 20);
  for (guint i = 1; i < values->len; i++)
    g_assert_cmpint (g_array_index (values, gint64, i), >, g_array_index (values, gint64, i - 1));
  g_assert_cmpint (g_array_index (values, gint64, values->len - 1), <=, 25010);
  g_assert_cmpint (g_array_index (values, gint64, values->len - 1), >=, 20000);
  /* Then the server's own count */
  g_assert_cmpint (agent_session_get_context_used (f->session), ==, 25010);
}

/* An estimate says so (context-estimated); the server's count does not.
 * A memory shown anew is estimated at once, its images as each provider's
 * API bills them (1200 × 900: OpenAI 765, Anthropic 1440, Gemini four
 * tiles of 258, Ollama 576) */
static void
test_estimated (Fixture       *f,
                gconstpointer  data)
{
  static const struct { const char *provider; gint64 tokens; } bills[] = {
    { "openai", 765 }, { "openai-responses", 765 }, { "anthropic", 1440 },
    { "gemini", 4 * 258 }, { "ollama", 576 },
  };
  g_autoptr(GBytes) png = agent_test_grey_png_new (1200, 900, 900);
  g_autoptr(AgentMessage) question = agent_test_image_message_new ("Describe it", png);
  g_autoptr(AgentMessage) more = agent_message_new (AGENT_MESSAGE_ROLE_USER, "12345678");
  g_autoptr(AgentMemory) shown = agent_simple_memory_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (agent_session_get_context_used (f->session), ==, -1);
  g_assert_true (agent_session_get_context_estimated (f->session));

  add_answer (f, "Short.", 500);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_cmpint (agent_session_get_context_used (f->session), ==, 505);
  g_assert_false (agent_session_get_context_estimated (f->session));

  /* Added since: the server's count and an estimate of the rest */
  g_assert_true (agent_memory_append (agent_session_get_memory (f->session), more, &error));
  g_assert_no_error (error);
  agent_session_estimate_context_used (f->session);
  g_assert_cmpint (agent_session_get_context_used (f->session), ==, 505 + 2);
  g_assert_true (agent_session_get_context_estimated (f->session));

  /* Another conversation shown: estimated before any request */
  g_assert_true (agent_memory_append (shown, question, &error));
  for (guint i = 0; i < G_N_ELEMENTS (bills); i++)
    {
      g_autoptr(AgentProvider) provider = agent_test_provider_new (f->server, bills[i].provider);
      g_autoptr(AgentSession) session = agent_session_new (provider);

      agent_session_set_memory (session, shown);
      agent_session_estimate_context_used (session);
      g_assert_cmpint (agent_session_get_context_used (session), ==,
                       (strlen ("Describe it") + 3) / 4 + bills[i].tokens);
      g_assert_true (agent_session_get_context_estimated (session));
    }

  /* Empty: nothing to show */
  agent_session_set_memory (f->session, NULL);
  agent_session_estimate_context_used (f->session);
  g_assert_cmpint (agent_session_get_context_used (f->session), ==, -1);
}

/* The policy's properties and their defaults */
static void
test_policy_properties (void)
{
  g_autoptr(AgentContextPolicy) policy = agent_context_policy_new (AGENT_CONTEXT_STRATEGY_KEEP_LAST);
  g_autofree char *prompt = NULL;
  AgentContextStrategy strategy;

  g_object_get (policy, "strategy", &strategy, "summary-prompt", &prompt, NULL);
  g_assert_cmpint (strategy, ==, AGENT_CONTEXT_STRATEGY_KEEP_LAST);
  agent_test_assert_contains (prompt, "Summarize");
  g_assert_true (agent_context_policy_get_auto_compact (policy));
  g_assert_cmpuint (agent_context_policy_get_keep_turns (policy), ==, 4);
  agent_context_policy_set_summary_prompt (policy, "Be brief.");
  g_assert_cmpstr (agent_context_policy_get_summary_prompt (policy), ==, "Be brief.");
  agent_context_policy_set_summary_prompt (policy, NULL);
  agent_test_assert_contains (agent_context_policy_get_summary_prompt (policy), "Summarize");
}

/* Context windows from the model lists */

typedef struct
{
  const char *provider;
  const char *model;
  const char *body;
  const char *method;
  const char *path;
  gint64      tokens;
} WindowCase;

static const WindowCase window_cases[] = {
  /* Ollama's /api/show (trimmed: license, modelfile and tensors left out) */
  { "ollama", "llama3.2:3b",
    "{\"details\": {\"parent_model\": \"\", \"format\": \"gguf\", \"family\": \"llama\", "
    "\"parameter_size\": \"3.2B\", \"quantization_level\": \"Q4_K_M\"}, \"model_info\": "
    "{\"general.architecture\": \"llama\", \"general.parameter_count\": 3212749888, "
    "\"llama.attention.head_count\": 24, \"llama.block_count\": 28, "
    "\"llama.context_length\": 131072, \"llama.embedding_length\": 3072}, "
    "\"capabilities\": [\"completion\", \"tools\"]}",
    "POST", "/api/show", 131072 },
  { "gemini", "gemini-2.5-flash",
    "{\"name\": \"models/gemini-2.5-flash\", \"version\": \"001\", \"displayName\": "
    "\"Gemini 2.5 Flash\", \"inputTokenLimit\": 1048576, \"outputTokenLimit\": 65536, "
    "\"supportedGenerationMethods\": [\"generateContent\", \"countTokens\"], "
    "\"temperature\": 1, \"thinking\": true}",
    "GET", "/v1beta/models/gemini-2.5-flash", 1048576 },
  /* OpenRouter's list */
  { "openai", "meta-llama/llama-3.1-8b-instruct",
    "{\"data\": [{\"id\": \"openai/gpt-4o\", \"context_length\": 128000}, "
    "{\"id\": \"meta-llama/llama-3.1-8b-instruct\", \"name\": \"Meta: Llama 3.1 8B "
    "Instruct\", \"context_length\": 16384, \"top_provider\": {\"context_length\": 16384, "
    "\"max_completion_tokens\": 16384}}]}",
    "GET", "/models", 16384 },
  /* OpenAI's own list says nothing */
  { "openai", "gpt-4o",
    "{\"object\": \"list\", \"data\": [{\"id\": \"gpt-4o\", \"object\": \"model\", "
    "\"created\": 1715367049, \"owned_by\": \"system\"}]}",
    "GET", "/models", 0 },
};

static void
fetched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **answer = user_data;

  *answer = g_object_ref (result);
}

static void
test_window_case (gconstpointer data)
{
  const WindowCase *c = data;
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new (c->provider, NULL);
  g_autoptr(GAsyncResult) answer = NULL;
  g_autoptr(GError) error = NULL;
  gint64 tokens;

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (server));
  agent_provider_set_model (provider, c->model);
  /* The model's own window (test-ollama-window has Ollama's bound) */
  agent_provider_set_max_context_window (provider, 0);
  agent_test_response_set_body (agent_test_server_add_response (server, 200), "application/json",
                                c->body);

  agent_provider_fetch_context_window_async (provider, NULL, NULL, fetched_cb, &answer);
  while (answer == NULL)
    g_main_context_iteration (NULL, TRUE);
  tokens = agent_provider_fetch_context_window_finish (provider, answer, &error);

  g_assert_no_error (error);
  g_assert_cmpint (tokens, ==, c->tokens);
  g_assert_cmpstr (agent_test_server_get_request_method (server, 0), ==, c->method);
  /* (below the test server's base path) */
  g_assert_true (g_str_has_suffix (agent_test_server_get_request_path (server, 0), c->path));
  if (g_str_equal (c->method, "POST"))
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (agent_test_server_get_request_body (server, 0)),
                                                    "model"), ==, c->model);
}

static void
test_window_error (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(GAsyncResult) answer = NULL;
  g_autoptr(GError) error = NULL;

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (server));
  agent_provider_set_model (provider, "missing");
  agent_test_response_set_body (agent_test_server_add_response (server, 404), "application/json",
                                "{\"error\":\"model 'missing' not found\"}");

  agent_provider_fetch_context_window_async (provider, NULL, NULL, fetched_cb, &answer);
  while (answer == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (agent_provider_fetch_context_window_finish (provider, answer, &error), ==, -1);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
  agent_test_assert_contains (error->message, "not found");
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/context/keep-last/retry", test_keep_last_retry);
  ADD ("/context/trim/retry", test_trim_retry);
  ADD ("/context/retry/never-loops", test_never_loops);
  ADD ("/context/retry/nothing-to-compact", test_nothing_to_compact);
  ADD ("/context/summarize/before-request", test_summarize);
  ADD ("/context/summarize/fails", test_summary_fails);
  ADD ("/context/pressure", test_pressure);
  ADD ("/context/estimate/attachments", test_attachment_tokens);
  ADD ("/context/estimate/streaming", test_streaming);
  ADD ("/context/estimate/estimated", test_estimated);
  g_test_add_func ("/context/policy/properties", test_policy_properties);
  for (guint i = 0; i < G_N_ELEMENTS (window_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/context/window/%s/%u", window_cases[i].provider, i);

      g_test_add_data_func (path, &window_cases[i], test_window_case);
    }
  g_test_add_func ("/context/window/error", test_window_error);

  return g_test_run ();
}
