/* test-provider-gemini.c — the Gemini backend: streams and sessions
 *
 * - The corpus: every tests/corpus/gemini/<name>.sse decoded by the
 *   backend as the library decodes it, fed whole, one byte at a time, in
 *   random pieces (several seeds) and, under 4 KiB, cut in two at every
 *   byte, then over HTTP through an AgentSession (random pieces), against
 *   the "result" of its .expected.json. Compared: text, thought_text (as
 *   reasoning), function_calls (name, args as JSON, args_json byte for
 *   byte, has_thought_signature and, from an independent reading of the
 *   body, the signature itself), model, response_id, finish_reason and
 *   usage (the raw object, less the counts the backend adds under
 *   OpenAI's names, and the counts read from it). Not compared:
 *   "streamed_args", "args_missing" and "finalized_without_empty_functionCall",
 *   which describe how the wire spelled a call, not the call (the call
 *   they describe is compared); "transport.event_field_values" (only the
 *   number of events is compared).
 * - Vertex's partialArgs, every kind of value and path.
 * - A two-step tool round trip through AgentSession against the in-process
 *   server, with reasoning, streamed partialArgs, parallel calls, thought
 *   signatures and Gemini call ids, and the second request checked member
 *   by member.
 * - Errors: HTTP bodies, mid-stream error chunks, blocked prompts, cut
 *   streams, SAFETY.
 *
 * Requests for hand-made histories and model listing are
 * test-provider-gemini-request's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-feed.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

#define API_KEY "AIzaSy-test-SECRET-0123456789"

/* Helpers */

/* A session of a Gemini provider for the test server, at its root */
static void
session_init (AgentTestSession *s)
{
  agent_test_session_init (s, "gemini");
  agent_provider_set_model (s->provider, "test-model");
}

static JsonNode *
member (JsonNode   *node,
        const char *name)
{
  g_assert_true (node != NULL && JSON_NODE_HOLDS_OBJECT (node));
  return json_object_get_member (json_node_get_object (node), name);
}

static JsonNode *
element (JsonNode *node,
         guint     index)
{
  g_assert_true (node != NULL && JSON_NODE_HOLDS_ARRAY (node));
  g_assert_cmpuint (index, <, json_array_get_length (json_node_get_array (node)));
  return json_array_get_element (json_node_get_array (node), index);
}

static const char *
gemini_data (JsonNode   *provider_data,
             const char *name)
{
  JsonNode *data = provider_data ? member (provider_data, "gemini") : NULL;
  JsonNode *value = data ? member (data, name) : NULL;

  return value ? json_node_get_string (value) : NULL;
}

/* A chunk as Gemini writes it: {"candidates":[{"content":{"role":"model",
 * "parts":[PARTS]}, FINISH}], USAGE, "modelVersion", "responseId"} */
static void
add_chunk (AgentTestResponse *response,
           const char        *parts,
           const char        *finish_reason,
           const char        *usage)
{
  g_autoptr(GString) chunk = g_string_new ("data: {\"candidates\":[{\"content\":");

  g_string_append_printf (chunk, "{\"role\":\"model\",\"parts\":[%s]}", parts);
  if (finish_reason != NULL)
    g_string_append_printf (chunk, ",\"finishReason\":\"%s\"", finish_reason);
  g_string_append (chunk, ",\"index\":0}]");
  if (usage != NULL)
    g_string_append_printf (chunk, ",\"usageMetadata\":%s", usage);
  g_string_append (chunk, ",\"modelVersion\":\"test-model-001\",\"responseId\":\"resp-1\"}");
  /* Live Gemini separates events with CRLF CRLF. */
  g_string_append (chunk, "\r\n\r\n");
  agent_test_response_add_bytes (response, chunk->str, -1);
}

static void
add_text_answer (AgentTestServer *server,
                 const char      *text)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);
  g_autofree char *part = g_strdup_printf ("{\"text\":\"%s\"}", text);

  add_chunk (response, part, "STOP",
             "{\"promptTokenCount\":40,\"candidatesTokenCount\":5,\"totalTokenCount\":45}");
}

/* The corpus */

/* The first four modes are the AgentTestReplayModes; this one goes over HTTP. */
enum
{
  MODE_HTTP = AGENT_TEST_REPLAY_CUTS + 1,
};

static const char * const modes[] = { "whole", "bytes", "random", "cuts", "http", NULL };

typedef struct
{
  AgentTestCorpusFile file;
  /* From an independent reading of the body with json-glib */
  guint               n_events;
  GPtrArray          *signatures;   /* of each named functionCall part, "" if none */
  AgentTestDeltas     ref;          /* non-empty text and thought parts */
} Expected;

static void
reference_chunk (const char *data,
                 gpointer    user_data)
{
  Expected *e = user_data;
  g_autoptr(JsonNode) root = agent_test_parse_json (data);
  JsonNode *candidates = member (root, "candidates");
  JsonNode *content;
  JsonNode *parts;

  if (candidates == NULL || !(content = member (element (candidates, 0), "content")) ||
      !(parts = member (content, "parts")))
    return;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (parts)); i++)
    {
      JsonObject *part = json_node_get_object (element (parts, i));
      const char *signature = json_object_get_string_member_with_default (part, "thoughtSignature",
                                                                          "");

      if (json_object_has_member (part, "functionCall"))
        {
          JsonObject *call = json_object_get_object_member (part, "functionCall");

          if (json_object_has_member (call, "name"))
            g_ptr_array_add (e->signatures, g_strdup (signature));
        }
      else if (json_object_get_string_member_with_default (part, "text", "")[0] != '\0')
        {
          if (json_object_get_boolean_member_with_default (part, "thought", FALSE))
            e->ref.n_reasoning++;
          else
            e->ref.n_text++;
        }
    }
}

static void
expected_load (Expected   *e,
               const char *path)
{
  memset (e, 0, sizeof *e);
  agent_test_corpus_file_load (&e->file, path, ".sse");
  e->signatures = g_ptr_array_new_with_free_func (g_free);
  e->n_events = agent_test_read_sse (e->file.body, e->file.body_len, reference_chunk, e);
  g_assert_cmpuint (e->n_events, ==,
                    json_object_get_int_member (e->file.transport, "events_dispatched"));
}

static void
expected_clear (Expected *e)
{
  agent_test_corpus_file_clear (&e->file);
  g_clear_pointer (&e->signatures, g_ptr_array_unref);
}

static gint64
usage_count (JsonObject *usage,
             const char *name)
{
  return json_object_get_int_member_with_default (usage, name, 0);
}

/* The raw usage is Gemini's usageMetadata with the counts under OpenAI's
 * names added (AgentUsage reads those). */
static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *want)
{
  static const char * const added[] = {
    "prompt_tokens", "completion_tokens", "total_tokens",
    "completion_tokens_details", "prompt_tokens_details",
  };
  g_autoptr(JsonNode) want_node = json_node_init_object (json_node_alloc (), want);
  g_autoptr(JsonNode) gemini_only = NULL;
  g_autofree char *raw = NULL;
  gint64 thoughts = usage_count (want, "thoughtsTokenCount");

  if (usage == NULL)
    {
      g_string_append (problems, "\n  no usage");
      return;
    }

  raw = json_to_string (agent_usage_get_raw (usage), FALSE);
  gemini_only = agent_test_parse_json (raw);
  for (guint i = 0; i < G_N_ELEMENTS (added); i++)
    json_object_remove_member (json_node_get_object (gemini_only), added[i]);
  agent_test_expect_json (problems, "usage (raw, without the counts added)", want_node,
                          gemini_only);

  agent_test_expect_int (problems, "prompt tokens", usage_count (want, "promptTokenCount"),
                         agent_usage_get_prompt_tokens (usage));
  agent_test_expect_int (problems, "completion tokens",
                         usage_count (want, "candidatesTokenCount") + thoughts,
                         agent_usage_get_completion_tokens (usage));
  agent_test_expect_int (problems, "total tokens", usage_count (want, "totalTokenCount"),
                         agent_usage_get_total_tokens (usage));
  agent_test_expect_int (problems, "reasoning tokens", thoughts,
                         agent_usage_get_reasoning_tokens (usage));
  agent_test_expect_int (problems, "cached tokens", usage_count (want, "cachedContentTokenCount"),
                         agent_usage_get_cached_tokens (usage));
}

static void
compare_message (GString        *problems,
                 AgentMessage   *message,
                 Expected       *e,
                 AgentTestCalls  calls_state)
{
  JsonObject *result = e->file.result;
  JsonArray *calls = json_object_get_array_member (result, "function_calls");
  const char *content = agent_message_get_content (message);
  guint n_calls = json_array_get_length (calls);

  agent_test_expect_str (problems, "model", json_object_get_string_member (result, "model"),
                         agent_message_get_model (message));
  agent_test_expect_str (problems, "response id",
                         json_object_get_string_member (result, "response_id"),
                         agent_message_get_response_id (message));
  agent_test_expect_str (problems, "text", json_object_get_string_member (result, "text"),
                         content ? content : "");
  agent_test_expect_str (problems, "reasoning",
                         json_object_get_string_member_with_default (result, "thought_text",
                                                                     NULL),
                         agent_message_get_reasoning (message));
  agent_test_expect_str (problems, "finish reason",
                         json_object_get_string_member (result, "finish_reason"),
                         agent_message_get_finish_reason (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_object_member (result, "usage"));

  agent_test_expect_int (problems, "number of calls", n_calls,
                         agent_message_get_n_tool_calls (message));
  agent_test_expect_int (problems, "named functionCall parts (reference)", n_calls,
                         e->signatures->len);
  if (n_calls != agent_message_get_n_tool_calls (message) || n_calls != e->signatures->len)
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      const char *signature = g_ptr_array_index (e->signatures, i);
      g_autoptr(JsonNode) parsed = NULL;

      agent_test_expect_int (problems, "call index", i, agent_tool_call_get_index (call));
      agent_test_expect_str (problems, "call name", json_object_get_string_member (want, "name"),
                             agent_tool_call_get_name (call));
      agent_test_expect_str (problems, "call arguments",
                             json_object_get_string_member (want, "args_json"),
                             agent_tool_call_get_arguments (call));
      parsed = agent_tool_call_parse_arguments (call, NULL);
      agent_test_expect_json (problems, "call arguments (as JSON)",
                              json_object_get_member (want, "args"), parsed);

      /* The signature, exactly as the stream gave it */
      agent_test_expect_int (problems, "has_thought_signature",
                             json_object_get_boolean_member_with_default (want,
                                                                          "has_thought_signature",
                                                                          FALSE),
                             signature[0] != '\0');
      agent_test_expect_str (problems, "thoughtSignature", signature[0] ? signature : NULL,
                             gemini_data (agent_tool_call_get_provider_data (call),
                                          "thoughtSignature"));

      /* The corpus' calls have no id; Gemini's own would be kept. */
      agent_test_expect_call_id (problems, "call", call, NULL, calls_state);
      agent_test_expect_call_state (problems, "call", call, calls_state);
    }
}

/* An AgentTestReplayCheck */
static char *
replay_compare (AgentTestReplay *r,
                gpointer         user_data)
{
  Expected *e = user_data;
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message = agent_test_replay_get_message (r);
  AgentTestDeltas deltas = e->ref;

  if (r->error != NULL)
    agent_test_expect_str (problems, "error", NULL, r->error->message);
  if (!r->finish_ok)
    agent_test_expect_str (problems, "finish() error", NULL, r->finish_error->message);
  agent_test_expect_int (problems, "events decoded", e->n_events,
                         agent_stream_decoder_get_n_events (r->decoder));

  compare_message (problems, message, e, AGENT_TEST_CALLS_READY);

  /* Whole or assembled from partialArgs, a call's arguments come once. */
  deltas.n_fragments = agent_message_get_n_tool_calls (message);
  agent_test_expect_heard (problems, r, &deltas);

  if (problems->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&problems), FALSE);
}

/* Over HTTP, through a session without tools: each call fails as an
 * unknown tool, and the second request carries the calls back with their
 * signatures, and the errors. */
static void
compare_second_request (GString         *problems,
                        AgentTestServer *server,
                        Expected        *e)
{
  JsonArray *calls = json_object_get_array_member (e->file.result, "function_calls");
  guint n_calls = json_array_get_length (calls);
  JsonNode *contents = member (agent_test_server_get_request_body (server, 1), "contents");
  JsonNode *model;
  JsonNode *results;

  g_assert_cmpuint (json_array_get_length (json_node_get_array (contents)), ==, 3);
  model = element (contents, 1);
  g_assert_cmpstr (json_node_get_string (member (model, "role")), ==, "model");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (member (model, "parts"))), ==,
                    n_calls);
  results = member (element (contents, 2), "parts");
  g_assert_cmpstr (json_node_get_string (member (element (contents, 2), "role")), ==, "user");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (results)), ==, n_calls);

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (calls, i);
      JsonNode *part = element (member (model, "parts"), i);
      JsonNode *function = member (part, "functionCall");
      JsonNode *signature = member (part, "thoughtSignature");
      JsonNode *result = member (element (results, i), "functionResponse");
      const char *want_signature = g_ptr_array_index (e->signatures, i);

      agent_test_expect_str (problems, "request: call name",
                             json_object_get_string_member (want, "name"),
                             json_node_get_string (member (function, "name")));
      agent_test_expect_json (problems, "request: call args", json_object_get_member (want, "args"),
                              member (function, "args"));
      agent_test_expect_str (problems, "request: no id (Gemini gave none)", NULL,
                             member (function, "id") ? "an id" : NULL);
      agent_test_expect_str (problems, "request: thoughtSignature, exactly",
                             want_signature[0] ? want_signature : NULL,
                             signature ? json_node_get_string (signature) : NULL);
      agent_test_expect_str (problems, "request: result name",
                             json_object_get_string_member (want, "name"),
                             json_node_get_string (member (result, "name")));
      agent_test_expect_true (problems, "request: the unknown tool's result is an error",
                              member (member (result, "response"), "error") != NULL);
    }
}

static void
corpus_http (Expected *e)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  guint n_calls = json_array_get_length (json_object_get_array_member (e->file.result,
                                                                       "function_calls"));
  g_autoptr(AgentMessage) first = NULL;
  AgentTestResponse *response;
  AgentTestSession s;
  const char *text;

  session_init (&s);
  response = agent_test_server_add_response (s.server, 200);
  agent_test_response_add_file_in_pieces (response, e->file.path, g_str_hash (e->file.name),
                                          AGENT_TEST_MAX_PIECE);
  if (n_calls > 0)
    add_text_answer (s.server, "Done.");

  agent_test_turn_run (&s.turn, s.session, "Go", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, n_calls > 0 ? 2 : 1);

  first = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (s.session)), 1);
  compare_message (problems, first, e,
                   n_calls > 0 ? AGENT_TEST_CALLS_UNKNOWN_TOOL : AGENT_TEST_CALLS_READY);
  text = agent_message_get_content (first);
  agent_test_expect_str (problems, "text-delta signals", text ? text : "",
                         agent_test_heard (s.text_of, first));
  text = agent_message_get_reasoning (first);
  agent_test_expect_str (problems, "reasoning-delta signals", text ? text : "",
                         agent_test_heard (s.reasoning_of, first));
  if (n_calls > 0)
    compare_second_request (problems, s.server, e);

  if (problems->len > 0)
    g_test_fail_printf ("http:%s", problems->str);

  g_clear_object (&first);
  agent_test_session_clear (&s);
}

static void
test_corpus (gconstpointer data)
{
  const AgentTestCorpusCase *c = data;
  Expected e;

  expected_load (&e, c->path);
  if (c->mode == MODE_HTTP)
    corpus_http (&e);
  else
    agent_test_replay_body (&agent_gemini_backend, e.file.body, e.file.body_len, c->mode,
                            replay_compare, &e);
  expected_clear (&e);
}

/* A tool round trip through AgentSession */

static gboolean
pong_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data,
              GError             **error)
{
  agent_tool_invocation_return_result (invocation, "pong");

  return TRUE;
}

/* A schema with keywords Gemini refuses, at every depth, and a property
 * that happens to be called like one of them. */
static const char weather_schema[] =
  "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
  "\"additionalProperties\":false,"
  "\"properties\":{\"city\":{\"type\":\"string\",\"$comment\":\"a city\"},"
  "\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
  "\"additionalProperties\":false,\"properties\":{\"k\":{\"type\":\"string\"}}}},"
  "\"mode\":{\"anyOf\":[{\"type\":\"string\",\"$id\":\"m\",\"const\":\"auto\"},"
  "{\"type\":\"integer\",\"exclusiveMinimum\":0,\"minimum\":1}]}},"
  "\"required\":[\"city\"]}";

static const char weather_schema_for_gemini[] =
  "{\"type\":\"object\","
  "\"properties\":{\"city\":{\"type\":\"string\"},"
  "\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
  "\"properties\":{\"k\":{\"type\":\"string\"}}}},"
  "\"mode\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":1}]}},"
  "\"required\":[\"city\"]}";

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    GString       *log)
{
  g_string_append_printf (log, "%u:%s:%s\n", agent_tool_call_get_index (call),
                          agent_tool_call_get_name (call), delta);
}

static void
test_tool_round_trip (void)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentTool) weather = NULL;
  g_autoptr(AgentTool) ping = agent_tool_new ("ping", "Checks the line", NULL, pong_handler,
                                              NULL, NULL);
  g_autoptr(JsonNode) schema = agent_test_parse_json (weather_schema);
  g_autoptr(GString) deltas = g_string_new (NULL);
  g_autoptr(AgentMessage) model = NULL;
  g_autofree char *calculator_parameters = NULL;
  g_autofree char *body_text = NULL;
  AgentTestResponse *response;
  AgentTestSession s;
  AgentToolCall *call;
  JsonNode *body;
  JsonNode *declarations;

  session_init (&s);
  weather = agent_tool_new ("weather", "The weather in a city", schema, pong_handler, NULL, NULL);
  agent_session_add_tool (s.session, calculator);
  agent_session_add_tool (s.session, weather);
  agent_session_add_tool (s.session, ping);
  agent_session_set_system_prompt (s.session, "You are terse.");
  agent_session_set_stream_tool_call_chunks (s.session, TRUE);
  agent_provider_set_api_key (s.provider, API_KEY);
  agent_provider_set_max_tokens (s.provider, 512);
  agent_provider_set_reasoning_effort (s.provider, AGENT_REASONING_EFFORT_MEDIUM);
  g_signal_connect (s.session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), deltas);

  /* Thoughts, text, a call whose arguments stream as Vertex's partialArgs
   * (with a signature), a whole call with Gemini's id, and the text's
   * signature on an empty last part. */
  response = agent_test_server_add_response (s.server, 200);
  add_chunk (response, "{\"text\":\"Thinking about \",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"the sums.\",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"Let me \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"compute.\"}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\",\"willContinue\":true},"
                       "\"thoughtSignature\":\"c2lnLWNhbGwtMQ==\"}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.expression\","
                       "\"stringValue\":\"2*\",\"willContinue\":true}],\"willContinue\":true}}",
             NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.expression\","
                       "\"stringValue\":\"7\"}],\"willContinue\":true}}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{}}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\","
                       "\"args\":{\"expression\":\"3+4\"},\"id\":\"fc-2\"}}", NULL, NULL);
  add_chunk (response, "{\"text\":\"\",\"thoughtSignature\":\"c2lnLXRleHQ=\"}", "STOP",
             "{\"promptTokenCount\":30,\"candidatesTokenCount\":20,\"thoughtsTokenCount\":12,"
             "\"totalTokenCount\":62}");
  add_text_answer (s.server, "2*7 is 14 and 3+4 is 7.");

  agent_test_turn_run (&s.turn, s.session, "What are 2*7 and 3+4?", NULL);

  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "2*7 is 14 and 3+4 is 7.");

  /* The first step: reasoning apart from the text, both streamed */
  model = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (s.session)), 1);
  g_assert_cmpstr (agent_message_get_reasoning (model), ==, "Thinking about the sums.");
  g_assert_cmpstr (agent_message_get_content (model), ==, "Let me compute.");
  g_assert_cmpstr (agent_test_heard (s.reasoning_of, model), ==, "Thinking about the sums.");
  g_assert_cmpstr (agent_test_heard (s.text_of, model), ==, "Let me compute.");
  g_assert_cmpstr (gemini_data (agent_message_get_provider_data (model), "thoughtSignature"), ==,
                   "c2lnLXRleHQ=");
  g_assert_cmpint (agent_usage_get_reasoning_tokens (agent_message_get_usage (model)), ==, 12);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_message_get_usage (model)), ==, 32);
  g_assert_cmpuint (agent_message_get_n_tool_calls (model), ==, 2);
  call = agent_message_get_tool_call (model, 0);
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"expression\":\"2*7\"}");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "14");
  g_assert_cmpstr (gemini_data (agent_tool_call_get_provider_data (call), "thoughtSignature"), ==,
                   "c2lnLWNhbGwtMQ==");
  call = agent_message_get_tool_call (model, 1);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "fc-2");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "7");
  /* The streamed call is announced at once, its arguments come when whole. */
  g_assert_cmpstr (deltas->str, ==,
                   "0:calculator:\n"
                   "0:calculator:{\"expression\":\"2*7\"}\n"
                   "1:calculator:{\"expression\":\"3+4\"}\n");
  /* user, model, two results, model */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (s.session))),
                    ==, 5);

  /* Both requests: path, headers */
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (s.server, i), ==,
                       "/v1beta/models/test-model:streamGenerateContent");
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "x-goog-api-key"), ==,
                       API_KEY);
      g_assert_null (agent_test_server_get_request_header (s.server, i, "Authorization"));
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "Accept"), ==,
                       "text/event-stream");
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "Content-Type"), ==,
                       "application/json");
    }

  /* The second request, member by member */
  body = agent_test_server_get_request_body (s.server, 1);
  body_text = json_to_string (body, FALSE);
  g_assert_null (strstr (body_text, "SECRET"));
  /* Streaming is in the URL; nothing else is in the body. */
  g_assert_cmpuint (json_object_get_size (json_node_get_object (body)), ==, 4);
  agent_test_assert_json (
    member (body, "contents"),
    "[{\"role\":\"user\",\"parts\":[{\"text\":\"What are 2*7 and 3+4?\"}]},"
    " {\"role\":\"model\",\"parts\":["
    "   {\"text\":\"Let me compute.\",\"thoughtSignature\":\"c2lnLXRleHQ=\"},"
    "   {\"functionCall\":{\"name\":\"calculator\","
    "                     \"args\":{\"expression\":\"2*7\"}},"
    "    \"thoughtSignature\":\"c2lnLWNhbGwtMQ==\"},"
    "   {\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"3+4\"},"
    "    \"id\":\"fc-2\"}}]},"
    " {\"role\":\"user\",\"parts\":["
    "   {\"functionResponse\":{\"name\":\"calculator\","
    "                         \"response\":{\"result\":\"14\"}}},"
    "   {\"functionResponse\":{\"id\":\"fc-2\",\"name\":\"calculator\","
    "    \"response\":{\"result\":\"7\"}}}]}]");
  agent_test_assert_json (member (body, "systemInstruction"),
                          "{\"parts\":[{\"text\":\"You are terse.\"}]}");
  agent_test_assert_json (member (body, "generationConfig"),
                          "{\"maxOutputTokens\":512,"
                          "\"thinkingConfig\":{\"thinkingBudget\":8192,\"includeThoughts\":true}}");

  g_assert_cmpuint (json_array_get_length (json_node_get_array (member (body, "tools"))), ==, 1);
  declarations = member (element (member (body, "tools"), 0), "functionDeclarations");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (declarations)), ==, 3);
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 0), "name")), ==,
                   "calculator");
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 0), "description")), ==,
                   agent_tool_get_description (calculator));
  calculator_parameters = json_to_string (agent_tool_get_parameters (calculator), FALSE);
  agent_test_assert_json (member (element (declarations, 0), "parameters"), calculator_parameters);
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 1), "description")), ==,
                   "The weather in a city");
  agent_test_assert_json (member (element (declarations, 1), "parameters"),
                          weather_schema_for_gemini);
  /* Without parameters, none are declared (Gemini refuses empty objects). */
  agent_test_assert_json (element (declarations, 2),
                          "{\"name\":\"ping\",\"description\":\"Checks the line\"}");

  /* The first request had the same declarations and options */
  body = agent_test_server_get_request_body (s.server, 0);
  agent_test_assert_json (member (body, "contents"),
                          "[{\"role\":\"user\",\"parts\":[{\"text\":\"What are 2*7 and 3+4?\"}]}]");
  g_assert_nonnull (member (body, "tools"));
  g_assert_nonnull (member (body, "generationConfig"));

  g_clear_object (&model);
  agent_test_session_clear (&s);
}

/* Vertex's partialArgs: every kind of value and path */
static void
test_partial_args (void)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_gemini_backend);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  static const char * const chunks[] = {
    "{\"functionCall\":{\"name\":\"f\",\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.flags[1]\",\"boolValue\":true},"
    "{\"jsonPath\":\"$['odd key']\",\"nullValue\":null},{\"jsonPath\":\"$.n\",\"numberValue\":42}],"
    "\"willContinue\":true},\"thoughtSignature\":\"late\"}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.m[0][1]\",\"stringValue\":\"a\"},"
    "{\"jsonPath\":\"$.m[0][1]\",\"stringValue\":\"b\"},{\"jsonPath\":\"bad\",\"stringValue\":\"x\"},"
    "{\"jsonPath\":\"$[0]\",\"stringValue\":\"x\"},{\"jsonPath\":\"$.m[99999999999]\",\"stringValue\":\"x\"},"
    "{\"jsonPath\":\"$.n.x\",\"numberValue\":-0.25}],\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.s\",\"stringValue\":\"caf\\u00e9 \\\"q\\\"\"}]}}",
    /* A continuation of nothing: ignored */
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.s\",\"stringValue\":\"x\"}]}}",
    "{\"functionCall\":{\"name\":\"g\",\"args\":{\"z\":1.5,\"a\":[true,null]}}}",
    "{\"functionCall\":{\"name\":\"h\",\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.k\",\"stringValue\":\"v\",\"willContinue\":true}],"
    "\"willContinue\":true}}",
    NULL,
  };
  AgentMessage *message;
  AgentToolCall *call;

  for (guint i = 0; chunks[i]; i++)
    g_string_append_printf (body, "data: {\"candidates\":[{\"content\":{\"parts\":[%s]}}]}\n\n",
                            chunks[i]);
  /* The last call is ended by the finish reason. */
  g_string_append (body, "data: {\"candidates\":[{\"finishReason\":\"MAX_TOKENS\"}]}\n\n");

  g_assert_true (agent_test_feed (agent_test_replay_feed, r, body->str, body->len,
                                  AGENT_TEST_FEED_BYTES, NULL, &error));
  g_assert_no_error (error);
  agent_test_replay_finish (r);
  g_assert_true (r->finish_ok);
  g_assert_cmpstr (r->problems->str, ==, "");

  message = agent_test_replay_get_message (r);
  g_assert_cmpstr (agent_message_get_finish_reason (message), ==, "MAX_TOKENS");
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 3);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 0)), ==,
                   "{\"flags\":[null,true],\"odd key\":null,\"n\":{\"x\":-0.25},\"m\":[[null,\"ab\"]],"
                   "\"s\":\"café \\\"q\\\"\"}");
  call = agent_message_get_tool_call (message, 0);
  g_assert_cmpstr (gemini_data (agent_tool_call_get_provider_data (call), "thoughtSignature"), ==,
                   "late");
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 1)), ==,
                   "{\"z\":1.5,\"a\":[true,null]}");
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 2)), ==,
                   "{\"k\":\"v\"}");
  g_assert_cmpstr (agent_tool_call_get_name (agent_message_get_tool_call (message, 2)), ==, "h");
  g_assert_null (agent_message_get_content (message));
}

/* Errors */

static void
test_errors (void)
{
  g_autoptr(AgentMessage) partial = NULL;
  AgentTestResponse *response;
  AgentTestSession s;
  GListModel *memory;

  session_init (&s);
  memory = G_LIST_MODEL (agent_session_get_memory (s.session));
  agent_provider_set_api_key (s.provider, API_KEY);

  /* An HTTP error body, with the key echoed back */
  response = agent_test_server_add_response (s.server, 400);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"code\":400,\"message\":\"API key not valid: " API_KEY
                                ". Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\","
                                "\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\","
                                "\"reason\":\"API_KEY_INVALID\"}]}}");
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (s.turn.error->message, "400"));
  g_assert_nonnull (strstr (s.turn.error->message, "Please pass a valid API key."));
  g_assert_nonnull (strstr (s.turn.error->message, "INVALID_ARGUMENT"));
  g_assert_null (strstr (s.turn.error->message, "SECRET"));

  response = agent_test_server_add_response (s.server, 403);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"code\":403,\"message\":\"Method doesn't allow unregistered "
                                "callers.\",\"status\":\"PERMISSION_DENIED\"}}");
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (s.turn.error->message, "unregistered callers"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);

  /* An error chunk in the middle of the stream: what streamed is kept */
  response = agent_test_server_add_response (s.server, 200);
  add_chunk (response, "{\"text\":\"Thinking \",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"Half an \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"answer\"}", NULL, NULL);
  agent_test_response_add_bytes (response,
                                 "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded. "
                                 "Please try again later. (" API_KEY ")\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n",
                                 -1);
  agent_test_turn_run (&s.turn, s.session, "Again", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (s.turn.error->message,
                            "The model is overloaded. Please try again later."));
  g_assert_nonnull (strstr (s.turn.error->message, "UNAVAILABLE"));
  g_assert_null (strstr (s.turn.error->message, "SECRET"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 4);
  partial = g_list_model_get_item (memory, 3);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Half an answer");
  g_assert_cmpstr (agent_message_get_reasoning (partial), ==, "Thinking ");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_clear_object (&partial);

  /* A blocked prompt */
  response = agent_test_server_add_response (s.server, 200);
  agent_test_response_add_bytes (response,
                                 "data: {\"promptFeedback\":{\"blockReason\":\"PROHIBITED_CONTENT\"},"
                                 "\"usageMetadata\":{\"promptTokenCount\":8,\"totalTokenCount\":8},"
                                 "\"modelVersion\":\"gemini-2.5-flash\"}\r\n\r\n", -1);
  agent_test_turn_run (&s.turn, s.session, "Something bad", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (s.turn.error->message, "PROHIBITED_CONTENT"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 5);

  /* A stream that ends without a finish reason was cut off */
  response = agent_test_server_add_response (s.server, 200);
  add_chunk (response, "{\"text\":\"Cut \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"short\"}", NULL,
             "{\"promptTokenCount\":8,\"candidatesTokenCount\":2,\"totalTokenCount\":10}");
  agent_test_turn_run (&s.turn, s.session, "Once more", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  partial = g_list_model_get_item (memory, 6);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Cut short");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_clear_object (&partial);

  /* A safety stop: the answer ends there, its calls are not run */
  response = agent_test_server_add_response (s.server, 200);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"1\"}}}",
             "SAFETY", NULL);
  agent_test_turn_run (&s.turn, s.session, "Last", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (s.turn.error->message, "SAFETY"));
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 6);

  agent_test_session_clear (&s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  agent_test_add_corpus_cases ("/gemini/corpus", "gemini", ".sse", modes, test_corpus);
  g_test_add_func ("/gemini/stream/partial-args", test_partial_args);
  g_test_add_func ("/gemini/session/tool-round-trip", test_tool_round_trip);
  g_test_add_func ("/gemini/session/errors", test_errors);

  return g_test_run ();
}
