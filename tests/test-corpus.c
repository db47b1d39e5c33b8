/* test-corpus.c — recorded OpenAI chat streams replayed against expected.json
 *
 * Every tests/corpus/openai-chat/<name>.sse is decoded two ways and compared with
 * the "result" of its .expected.json (conventions in tests/corpus/MANIFEST.md):
 *
 *  - wire level: agent_stream_decoder + the openai-chat backend + an
 *    accumulator, the body fed whole, one byte at a time, in random pieces
 *    (several fixed seeds) and, for files under 4 KiB, cut in two at every
 *    possible point;
 *  - end to end: the public API (AgentProvider "openai", AgentSession) over
 *    real HTTP from the in-process test server, the body written whole and
 *    in random pieces.
 *
 * Not compared, because the library does not model them:
 *  - "logprobs_token_count": libagent drops logprobs (AgentMessage has no
 *    field for them);
 *  - "provider_usage" (Groq's x_groq.usage): libagent only uses it as a
 *    fallback when the standard "usage" never came (test-accumulator checks
 *    that); in the corpus the standard field is present, so "usage" is what
 *    is compared;
 *  - "message.role" is always "assistant" and is compared with the role;
 *  - "error" is compared through the GError of the decoder / the turn, not
 *    through the message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "providers/agent-openai-chat-private.h"
#include "messages/agent-tool-call-private.h"

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

/* The first four modes are the AgentTestReplayModes; these go over HTTP. */
enum
{
  MODE_HTTP_WHOLE = AGENT_TEST_REPLAY_CUTS + 1,
  MODE_HTTP_PIECES,
};

static const char * const modes[] = {
  "whole", "bytes", "random", "cuts", "http-whole", "http-pieces", NULL
};

/* Expectations */

typedef struct
{
  AgentTestCorpusFile file;
  /* From an independent reading of the body (see reference_event) */
  guint               ref_events;   /* events an EventSource would dispatch */
  AgentTestDeltas     ref;          /* non-empty strings of choice 0 */
  gboolean            ref_over;     /* [DONE] or an error came */
} Expected;

/* The choice an expectation talks about: the result itself, or choices[i]
 * when the stream had more than one. */
static JsonObject *
expected_choice (Expected *e,
                 guint     index)
{
  JsonArray *choices;

  if (!json_object_has_member (e->file.result, "choices"))
    {
      g_assert_cmpuint (index, ==, 0);
      return e->file.result;
    }

  choices = json_object_get_array_member (e->file.result, "choices");
  g_assert_cmpuint (index, <, json_array_get_length (choices));
  return json_array_get_object_element (choices, index);
}

static guint
expected_n_choices (Expected *e)
{
  JsonArray *choices = agent_test_member_array (e->file.result, "choices");

  return choices != NULL ? json_array_get_length (choices) : 1;
}

static JsonArray *
expected_tool_calls (Expected *e)
{
  JsonObject *message = json_object_get_object_member (expected_choice (e, 0), "message");

  return json_object_get_array_member (message, "tool_calls");
}

static JsonObject *
expected_error (Expected *e)
{
  return agent_test_member_object (agent_test_member_object (e->file.result, "error"), "error");
}

static gint64
expected_total_tokens (Expected *e)
{
  return agent_test_member_int (agent_test_member_object (e->file.result, "usage"),
                                "total_tokens");
}

/* A whole answer: the [DONE] sentinel, or a finish reason, arrived. */
static gboolean
expected_complete (Expected *e)
{
  return json_object_get_boolean_member (e->file.transport, "done_sentinel") ||
         agent_test_member_string (expected_choice (e, 0), "finish_reason") != NULL;
}

/* An independent reading of the body, with json-glib rather than the
 * library's cJSON and agent_test_read_sse() rather than its SSE parser,
 * only to count what the listener must see. It follows the rules the
 * MANIFEST lists for "transport"; the number of events it finds is checked
 * against transport.events_dispatched. */
static void
reference_event (const char *data,
                 gpointer    user_data)
{
  Expected *e = user_data;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root;
  JsonArray *choices;

  if (e->ref_over)
    return;
  if (strcmp (data, "[DONE]") == 0)
    {
      e->ref_over = TRUE;
      return;
    }

  node = agent_test_parse_json (data);
  root = json_node_get_object (node);

  if (json_object_has_member (root, "error"))
    {
      e->ref_over = TRUE;
      return;
    }

  choices = agent_test_member_array (root, "choices");
  for (guint i = 0; choices != NULL && i < json_array_get_length (choices); i++)
    {
      JsonObject *choice = json_array_get_object_element (choices, i);
      JsonObject *delta = agent_test_member_object (choice, "delta");
      static const char * const reasoning_names[] = { "reasoning", "reasoning_content" };
      JsonArray *calls;
      const char *s;

      if (json_object_has_member (choice, "index") &&
          json_object_get_int_member (choice, "index") != 0)
        continue;
      if (delta == NULL)
        continue;

      if ((s = agent_test_member_string (delta, "content")) && s[0] != '\0')
        e->ref.n_text++;
      if ((s = agent_test_member_string (delta, "refusal")) && s[0] != '\0')
        e->ref.n_refusal++;
      for (guint k = 0; k < G_N_ELEMENTS (reasoning_names); k++)
        if ((s = agent_test_member_string (delta, reasoning_names[k])) && s[0] != '\0')
          e->ref.n_reasoning++;

      calls = agent_test_member_array (delta, "tool_calls");
      for (guint k = 0; calls != NULL && k < json_array_get_length (calls); k++)
        {
          JsonObject *call = json_array_get_object_element (calls, k);
          JsonObject *function = agent_test_member_object (call, "function");
          JsonNode *arguments = function ? json_object_get_member (function, "arguments") : NULL;

          if (arguments == NULL || JSON_NODE_HOLDS_NULL (arguments))
            continue;
          if (JSON_NODE_HOLDS_OBJECT (arguments) ||
              (JSON_NODE_HOLDS_VALUE (arguments) && json_node_get_string (arguments)[0] != '\0'))
            e->ref.n_fragments++;
        }
    }
}

static void
expected_load (Expected   *e,
               const char *path)
{
  memset (e, 0, sizeof *e);
  agent_test_corpus_file_load (&e->file, path, ".sse");
  e->ref_events = agent_test_read_sse (e->file.body, e->file.body_len, reference_event, e);
  /* The reference reader agrees with the corpus' own transport analysis. */
  g_assert_cmpuint (e->ref_events, ==,
                    json_object_get_int_member (e->file.transport, "events_dispatched"));
}

static void
expected_clear (Expected *e)
{
  agent_test_corpus_file_clear (&e->file);
}

/* Comparison, collecting every mismatch so a failure says all that is wrong
 * and where (file, mode, seed or cut point). */

/* The counts are read from the provider's fields. */
static const AgentTestUsageNames usage_names = {
  "prompt_tokens", "completion_tokens", "total_tokens",
  "completion_tokens_details.reasoning_tokens", "prompt_tokens_details.cached_tokens",
};

/* The message of one choice against {"message": …, "finish_reason": …} */
static void
compare_message (GString        *problems,
                 AgentMessage   *message,
                 JsonObject     *choice,
                 AgentTestCalls  calls_state)
{
  JsonObject *expected = json_object_get_object_member (choice, "message");
  JsonArray *calls = json_object_get_array_member (expected, "tool_calls");
  guint n_calls = json_array_get_length (calls);

  agent_test_expect_str (problems, "message.role", json_object_get_string_member (expected, "role"),
                         agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT
                         ? "assistant" : "other");
  /* null and "" differ: null means no content string ever arrived. */
  agent_test_expect_str (problems, "message.content",
                         agent_test_member_string (expected, "content"),
                         agent_message_get_content (message));
  agent_test_expect_str (problems, "message.reasoning",
                         agent_test_member_string (expected, "reasoning"),
                         agent_message_get_reasoning (message));
  agent_test_expect_str (problems, "message.refusal",
                         agent_test_member_string (expected, "refusal"),
                         agent_message_get_refusal (message));
  agent_test_expect_str (problems, "finish_reason",
                         agent_test_member_string (choice, "finish_reason"),
                         agent_message_get_finish_reason (message));

  agent_test_expect_int (problems, "number of tool calls", n_calls,
                         agent_message_get_n_tool_calls (message));
  if (n_calls != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *what = NULL;
      g_autofree char *call_name = g_strdup_printf ("tool_calls[%u]", i);
      const char *arguments = agent_tool_call_get_arguments (call);
      gboolean valid;

#define WHAT(field) (g_free (what), what = g_strdup_printf ("%s.%s", call_name, field))
      /* "index" in expected.json is the wire index; the library's index
       * is the position in order of first appearance. */
      agent_test_expect_int (problems, WHAT ("index (position)"), i,
                             agent_tool_call_get_index (call));
      agent_test_expect_call_id (problems, call_name, call, agent_test_member_string (want, "id"),
                                 calls_state);
      agent_test_expect_str (problems, WHAT ("type"), agent_test_member_string (want, "type"),
                             _agent_tool_call_get_type_name (call));
      agent_test_expect_str (problems, WHAT ("name"), agent_test_member_string (want, "name"),
                             agent_tool_call_get_name (call));
      agent_test_expect_str (problems, WHAT ("arguments"),
                             agent_test_member_string (want, "arguments"), arguments);

      /* arguments_valid_json is about the bytes the model sent: "" is not
       * valid JSON, even though parse_arguments() reads it as {}. */
      parsed = agent_tool_call_parse_arguments (call, &error);
      valid = arguments[0] != '\0' && parsed != NULL;
      agent_test_expect_int (problems, WHAT ("arguments_valid_json"),
                             json_object_get_boolean_member (want, "arguments_valid_json"), valid);
      if (arguments[0] == '\0')
        agent_test_expect_true (problems, WHAT ("arguments: empty arguments parse as {}"),
                                parsed != NULL && JSON_NODE_HOLDS_OBJECT (parsed) &&
                                json_object_get_size (json_node_get_object (parsed)) == 0);
      if (parsed == NULL)
        agent_test_expect_true (problems, WHAT ("arguments: a parse failure is INVALID_ARGUMENT"),
                                g_error_matches (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT));
      agent_test_expect_call_state (problems, call_name, call, calls_state);
#undef WHAT
    }
}

/* id, model and usage of the whole response, on the message of choice 0 */
static void
compare_response (GString      *problems,
                  AgentMessage *message,
                  Expected     *e)
{
  agent_test_expect_str (problems, "id", agent_test_member_string (e->file.result, "id"),
                         agent_message_get_response_id (message));
  agent_test_expect_str (problems, "model", agent_test_member_string (e->file.result, "model"),
                         agent_message_get_model (message));
  agent_test_expect_usage (problems, agent_message_get_usage (message),
                           json_object_get_member (e->file.result, "usage"), &usage_names);
}

/* The provider's error, when the stream carried one. */
static void
compare_error (GString      *problems,
               const GError *error,
               Expected     *e)
{
  JsonObject *want = expected_error (e);
  const char *provider_message;

  if (want == NULL)
    {
      if (error != NULL)
        agent_test_expect_str (problems, "error", NULL, error->message);
      return;
    }

  provider_message = json_object_get_string_member (want, "message");
  if (error == NULL)
    {
      agent_test_expect_str (problems, "error", provider_message, NULL);
      return;
    }

  agent_test_expect_true (problems, "the error is AGENT_ERROR_PROVIDER",
                          g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
  if (strstr (error->message, provider_message) == NULL)
    agent_test_expect_str (problems, "error message (should contain the provider's)",
                           provider_message, error->message);
}

/* Wire-level replay */

/* Everything about one replay (an AgentTestReplayCheck) */
static char *
replay_compare (AgentTestReplay *r,
                gpointer         user_data)
{
  Expected *e = user_data;
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message = agent_test_replay_get_message (r);
  AgentOpenaiChatDecoder *chat = agent_stream_decoder_get_provider_decoder (r->decoder);
  guint n_choices = expected_n_choices (e);

  compare_error (problems, r->error, e);

  if (expected_error (e) != NULL)
    {
      /* The stream failed: finish() says so again, and what streamed
       * before the error is in the message. */
      agent_test_expect_true (problems, "finish() fails after an error", !r->finish_ok);
      agent_test_expect_true (problems, "finish() after an error is AGENT_ERROR_PROTOCOL",
                              g_error_matches (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
    }
  else if (expected_complete (e))
    {
      agent_test_expect_true (problems, "finish() succeeds", r->finish_ok);
      if (r->finish_error)
        agent_test_expect_str (problems, "finish() error", NULL, r->finish_error->message);
    }
  else
    {
      agent_test_expect_true (problems, "finish() fails on an incomplete answer", !r->finish_ok);
      agent_test_expect_true (problems, "finish() fails with AGENT_ERROR_PROTOCOL",
                              g_error_matches (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
    }

  agent_test_expect_int (problems, "done sentinel seen",
                         json_object_get_boolean_member (e->file.transport, "done_sentinel"),
                         agent_stream_decoder_is_done (r->decoder));
  agent_test_expect_int (problems, "events decoded", e->ref_events,
                         agent_stream_decoder_get_n_events (r->decoder));

  compare_response (problems, message, e);
  agent_test_expect_int (problems, "number of choices", n_choices,
                         _agent_openai_chat_decoder_get_n_choices (chat));

  for (guint i = 0; i < n_choices; i++)
    {
      AgentAccumulator *accumulator = _agent_openai_chat_decoder_get_choice (chat, i);
      g_autofree char *prefix = g_strdup_printf ("\n choice %u:", i);

      if (accumulator == NULL)
        {
          g_string_append_printf (problems, "%s missing", prefix);
          continue;
        }
      if (n_choices > 1)
        g_string_append (problems, prefix);
      compare_message (problems, agent_accumulator_get_message (accumulator),
                       expected_choice (e, i), AGENT_TEST_CALLS_READY);
      if (n_choices > 1 && g_str_has_suffix (problems->str, prefix))
        g_string_truncate (problems, problems->len - strlen (prefix));
    }

  agent_test_expect_heard (problems, r, &e->ref);

  if (problems->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&problems), FALSE);
}

/* End to end over HTTP, through the public API */

static const char final_text[] = "All done.";

/* The answer to the second request, after the tool results: final_text,
 * in 3 tokens. */
static void
add_final_response (AgentTestServer *server)
{
  static const char * const deltas[] = { "All ", "done.", NULL };

  agent_test_openai_add_text_response (server, deltas, 1, 2);
}

/* The second request carries the first answer back, byte for byte. */
static void
compare_second_request (GString         *problems,
                        AgentTestServer *server,
                        Expected        *e)
{
  JsonObject *want = json_object_get_object_member (expected_choice (e, 0), "message");
  JsonArray *want_calls = expected_tool_calls (e);
  guint n_calls = json_array_get_length (want_calls);
  JsonNode *body = agent_test_server_get_request_body (server, 1);
  JsonArray *messages;
  JsonObject *assistant;
  JsonArray *calls;

  if (body == NULL)
    {
      agent_test_expect_true (problems, "the second request has a JSON body", FALSE);
      return;
    }
  messages = json_object_get_array_member (json_node_get_object (body), "messages");
  agent_test_expect_int (problems, "messages in the second request", 2 + n_calls,
                         json_array_get_length (messages));
  if (json_array_get_length (messages) != 2 + n_calls)
    return;

  assistant = json_array_get_object_element (messages, 1);
  agent_test_expect_str (problems, "request: assistant role", "assistant",
                         json_object_get_string_member (assistant, "role"));
  agent_test_expect_str (problems, "request: assistant content",
                         agent_test_member_string (want, "content"),
                         agent_test_member_string (assistant, "content"));
  calls = json_object_get_array_member (assistant, "tool_calls");
  agent_test_expect_int (problems, "request: tool calls", n_calls, json_array_get_length (calls));

  for (guint i = 0; i < n_calls && i < json_array_get_length (calls); i++)
    {
      JsonObject *want_call = json_array_get_object_element (want_calls, i);
      JsonObject *call = json_array_get_object_element (calls, i);
      JsonObject *function = json_object_get_object_member (call, "function");
      JsonObject *result = json_array_get_object_element (messages, 2 + i);

      agent_test_expect_str (problems, "request: call id",
                             agent_test_member_string (want_call, "id"),
                             agent_test_member_string (call, "id"));
      agent_test_expect_str (problems, "request: call name",
                             agent_test_member_string (want_call, "name"),
                             agent_test_member_string (function, "name"));
      agent_test_expect_str (problems, "request: call arguments",
                             agent_test_member_string (want_call, "arguments"),
                             agent_test_member_string (function, "arguments"));
      agent_test_expect_str (problems, "request: tool result role", "tool",
                             agent_test_member_string (result, "role"));
      agent_test_expect_str (problems, "request: tool result refers to its call",
                             agent_test_member_string (call, "id"),
                             agent_test_member_string (result, "tool_call_id"));
    }
}

/* A turn that fails with the provider's error: memory keeps the user's
 * message and what streamed, marked interrupted. */
static void
compare_failed_turn (GString          *problems,
                     AgentTestSession *s,
                     Expected         *e)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (s->session));
  g_autoptr(AgentMessage) user = NULL;
  g_autoptr(AgentMessage) partial = NULL;
  const char *content;

  agent_test_expect_true (problems, "the turn fails", s->turn.result == NULL);
  compare_error (problems, s->turn.error, e);
  agent_test_expect_int (problems, "step-finished emitted", 0, s->steps->len);
  agent_test_expect_int (problems, "messages in memory", 2, g_list_model_get_n_items (memory));
  if (g_list_model_get_n_items (memory) != 2)
    return;

  user = g_list_model_get_item (memory, 0);
  partial = g_list_model_get_item (memory, 1);
  agent_test_expect_true (problems, "memory[0] is the user's message",
                          agent_message_get_role (user) == AGENT_MESSAGE_ROLE_USER &&
                          g_strcmp0 (agent_message_get_content (user), "Go") == 0);
  agent_test_expect_int (problems, "memory[1] state", AGENT_MESSAGE_STATE_INTERRUPTED,
                         agent_message_get_state (partial));
  compare_message (problems, partial, expected_choice (e, 0), AGENT_TEST_CALLS_UNKNOWN_TOOL);
  agent_test_expect_str (problems, "reasoning-delta signals concatenated",
                         agent_message_get_reasoning (partial),
                         agent_test_heard (s->reasoning_of, partial));
  content = agent_message_get_content (partial);
  agent_test_expect_str (problems, "text-delta signals concatenated", content ? content : "",
                         agent_test_heard (s->text_of, partial));
}

/* A turn that went well: one step, or two when the model called tools */
static void
compare_turn (GString          *problems,
              AgentTestSession *s,
              Expected         *e,
              gboolean          pieces)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (s->session));
  guint n_calls = json_array_get_length (expected_tool_calls (e));
  AgentUsage *usage = agent_session_get_usage (s->session);
  AgentMessage *first;
  AgentMessage *last;
  const char *content;

  if (s->turn.error != NULL)
    {
      agent_test_expect_str (problems, "the turn failed", NULL, s->turn.error->message);
      return;
    }
  agent_test_expect_int (problems, "step-finished emitted", n_calls > 0 ? 2 : 1, s->steps->len);
  agent_test_expect_int (problems, "requests", n_calls > 0 ? 2 : 1,
                         agent_test_server_get_n_requests (s->server));
  if (s->steps->len != (n_calls > 0 ? 2u : 1u) || s->turn.result == NULL)
    return;

  first = g_ptr_array_index (s->steps, 0);
  agent_test_expect_int (problems, "first message state", AGENT_MESSAGE_STATE_COMPLETE,
                         agent_message_get_state (first));
  compare_message (problems, first, expected_choice (e, 0),
                   n_calls > 0 ? AGENT_TEST_CALLS_UNKNOWN_TOOL : AGENT_TEST_CALLS_READY);
  compare_response (problems, first, e);

  content = agent_message_get_content (first);
  agent_test_expect_str (problems, "text-delta signals concatenated", content ? content : "",
                         agent_test_heard (s->text_of, first));
  content = agent_message_get_reasoning (first);
  agent_test_expect_str (problems, "reasoning-delta signals concatenated", content ? content : "",
                         agent_test_heard (s->reasoning_of, first));

  if (pieces)
    {
      for (guint i = 0; i < n_calls && i < agent_message_get_n_tool_calls (first); i++)
        {
          AgentToolCall *call = agent_message_get_tool_call (first, i);

          agent_test_expect_str (problems, "tool-call-delta signals concatenated",
                                 agent_tool_call_get_arguments (call),
                                 agent_test_heard (s->fragments_of, call));
        }
      agent_test_expect_int (problems, "calls announced by tool-call-delta", n_calls,
                             g_hash_table_size (s->fragments_of));
    }
  else
    agent_test_expect_int (problems, "tool-call-delta emitted with the toggle off", 0,
                           s->n_fragments);

  /* The turn's usage adds up the steps (a sum, without a raw object);
   * the final answer used 3 tokens. None reported, none summed. */
  agent_test_expect_int (problems, "the turn has usage",
                         expected_total_tokens (e) > 0 || n_calls > 0, usage != NULL);
  if (usage != NULL)
    agent_test_expect_int (problems, "turn total tokens",
                           expected_total_tokens (e) + (n_calls ? 3 : 0),
                           agent_usage_get_total_tokens (usage));

  if (n_calls == 0)
    {
      /* The first answer was the last. */
      agent_test_expect_true (problems, "the turn's result is the first step's message",
                              s->turn.result == first);
      agent_test_expect_int (problems, "messages in memory", 2, g_list_model_get_n_items (memory));
      return;
    }

  last = g_ptr_array_index (s->steps, 1);
  agent_test_expect_true (problems, "the turn's result is the last step's message",
                          s->turn.result == last);
  agent_test_expect_str (problems, "final content", final_text, agent_message_get_content (last));
  agent_test_expect_str (problems, "final text-delta signals", final_text,
                         agent_test_heard (s->text_of, last));
  /* user, assistant with calls, one result per call, final answer */
  agent_test_expect_int (problems, "messages in memory", 3 + n_calls,
                         g_list_model_get_n_items (memory));
  for (guint i = 0; i < n_calls && 2 + i < g_list_model_get_n_items (memory) &&
                    i < agent_message_get_n_tool_calls (first); i++)
    {
      g_autoptr(AgentMessage) result = g_list_model_get_item (memory, 2 + i);
      AgentToolCall *call = agent_message_get_tool_call (first, i);

      agent_test_expect_true (problems, "a tool result follows the call",
                              agent_message_get_role (result) == AGENT_MESSAGE_ROLE_TOOL &&
                              agent_message_is_error (result));
      agent_test_expect_str (problems, "the tool result refers to its call",
                             agent_tool_call_get_id (call),
                             agent_message_get_tool_call_id (result));
    }
  compare_second_request (problems, s->server, e);
}

static void
test_http (const AgentTestCorpusCase *c)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentTestResponse *response;
  AgentTestSession s;
  Expected e;

  expected_load (&e, c->path);
  agent_test_session_init (&s, "openai");
  agent_provider_set_model (s.provider, "test-model");
  /* No tools: every call the model makes fails as an unknown tool. */

  response = agent_test_server_add_response (s.server, 200);
  if (c->mode == MODE_HTTP_WHOLE)
    agent_test_response_add_file_in_pieces (response, c->path, 0, 0);
  else
    agent_test_response_add_file_in_pieces (response, c->path, g_str_hash (e.file.name),
                                            AGENT_TEST_MAX_PIECE);
  if (json_array_get_length (expected_tool_calls (&e)) > 0 && expected_error (&e) == NULL)
    add_final_response (s.server);

  /* Tool-call fragments are emitted in one mode only: the toggle must not
   * change what is stored. */
  agent_session_set_stream_tool_call_chunks (s.session, c->mode == MODE_HTTP_PIECES);

  agent_test_turn_run (&s.turn, s.session, "Go", NULL);

  if (expected_error (&e) != NULL)
    compare_failed_turn (problems, &s, &e);
  else
    compare_turn (problems, &s, &e, c->mode == MODE_HTTP_PIECES);

  if (problems->len > 0)
    g_test_fail_printf ("%s:%s", modes[c->mode], problems->str);

  agent_test_session_clear (&s);
  expected_clear (&e);
}

static void
test_case (gconstpointer data)
{
  const AgentTestCorpusCase *c = data;
  Expected e;

  if (c->mode >= MODE_HTTP_WHOLE)
    {
      test_http (c);
      return;
    }

  expected_load (&e, c->path);
  agent_test_replay_body (&agent_openai_chat_backend, e.file.body, e.file.body_len, c->mode,
                          replay_compare, &e);
  expected_clear (&e);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* Report every broken file, not only the first. */
  g_test_set_nonfatal_assertions ();

  agent_test_add_corpus_cases ("/corpus/openai-chat", "openai-chat", ".sse", modes, test_case);

  return g_test_run ();
}
