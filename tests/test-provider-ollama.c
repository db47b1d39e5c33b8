/* test-provider-ollama.c — Ollama's native chat API (/api/chat, NDJSON): streams
 *
 * - Every tests/corpus/ollama/<name>.ndjson decoded by the backend (whole,
 *   one byte at a time, in random pieces with several seeds, and cut in two
 *   at every byte) and compared with the "result" of its .expected.json;
 *   then replayed end to end over HTTP through AgentSession.
 * - A two-step tool round trip with thinking, against the in-process
 *   server; errors (HTTP error bodies, an error line mid-stream, a cut
 *   stream, a body that is not JSON).
 *
 * The request body and model listing are test-provider-ollama-request's.
 *
 * Fields of expected.json not compared, and why:
 *  - "message.role": always "assistant"; compared with the message's role;
 *  - "done": compared with the decoder's end marker, not the message;
 *  - "tool_calls[].index": the wire index; the library's index is the
 *    position, which is compared (and equals the wire index here);
 *  - "source", "body_provenance", "notes", …: about the corpus, not the
 *    stream.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-feed.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

/* Helpers */

static void
add_line (AgentTestResponse *response,
          const char        *json)
{
  g_autofree char *line = g_strconcat (json, "\n", NULL);

  agent_test_response_add_bytes (response, g_strdelimit (line, "'", '"'), -1);
}

static AgentTestResponse *
add_ndjson_response (AgentTestServer *server)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  agent_test_response_set_content_type (response, "application/x-ndjson");
  return response;
}

/* Corpus: expectations */

typedef struct
{
  AgentTestCorpusFile file;
  JsonObject         *message;
  JsonArray          *calls;
  const char         *error;
  /* From an independent reading of the body with json-glib */
  guint               ref_lines;    /* non-empty lines */
  guint               ref_events;   /* lines the decoder must see: up to done or error */
  AgentTestDeltas     ref;          /* non-empty content and thinking, calls with arguments */
} Expected;

static void
reference_read (Expected *e)
{
  g_auto(GStrv) lines = g_strsplit (e->file.body, "\n", -1);
  gboolean over = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *root;
      JsonObject *message;
      JsonArray *calls;
      const char *s;

      g_strchomp (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      e->ref_lines++;
      if (over)
        continue;
      e->ref_events++;

      node = agent_test_parse_json (lines[i]);
      root = json_node_get_object (node);
      if (json_object_has_member (root, "error"))
        {
          over = TRUE;
          continue;
        }

      message = agent_test_member_object (root, "message");
      if ((s = agent_test_member_string (message, "content")) && s[0] != '\0')
        e->ref.n_text++;
      if ((s = agent_test_member_string (message, "thinking")) && s[0] != '\0')
        e->ref.n_reasoning++;
      calls = agent_test_member_array (message, "tool_calls");
      for (guint k = 0; calls != NULL && k < json_array_get_length (calls); k++)
        {
          JsonObject *call = json_array_get_object_element (calls, k);

          if (agent_test_member_object (agent_test_member_object (call, "function"), "arguments"))
            e->ref.n_fragments++;
        }

      if (json_object_has_member (root, "done") && json_object_get_boolean_member (root, "done"))
        over = TRUE;
    }
}

static void
expected_load (Expected   *e,
               const char *path)
{
  memset (e, 0, sizeof *e);
  agent_test_corpus_file_load (&e->file, path, ".ndjson");
  e->message = agent_test_member_object (e->file.result, "message");
  e->calls = agent_test_member_array (e->message, "tool_calls");
  e->error = agent_test_member_string (e->file.result, "error");

  reference_read (e);
  g_assert_cmpuint (e->ref_lines, ==, json_object_get_int_member (e->file.transport, "lines"));
}

static void
expected_clear (Expected *e)
{
  agent_test_corpus_file_clear (&e->file);
}

static guint
expected_n_calls (Expected *e)
{
  return e->calls ? json_array_get_length (e->calls) : 0;
}

/* Corpus: comparison */

/* Usage: the raw object holds every counter of the last line, and the
 * counts are read from Ollama's names. */
static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *expected)
{
  g_autoptr(GList) members = NULL;
  JsonObject *raw;
  gint64 prompt, completion;

  if (expected == NULL)
    {
      agent_test_expect_true (problems, "usage: expected none", usage == NULL);
      return;
    }
  if (usage == NULL || agent_usage_get_raw (usage) == NULL)
    {
      agent_test_expect_true (problems, "usage: expected some, got none", FALSE);
      return;
    }

  raw = json_node_get_object (agent_usage_get_raw (usage));
  members = json_object_get_members (expected);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *what = g_strdup_printf ("usage.%s", (char *)l->data);

      agent_test_expect_json (problems, what, json_object_get_member (expected, l->data),
                              json_object_get_member (raw, l->data));
    }

  prompt = json_object_get_int_member (expected, "prompt_eval_count");
  completion = json_object_get_int_member (expected, "eval_count");
  agent_test_expect_int (problems, "prompt tokens", prompt,
                         agent_usage_get_prompt_tokens (usage));
  agent_test_expect_int (problems, "completion tokens", completion,
                         agent_usage_get_completion_tokens (usage));
  agent_test_expect_int (problems, "total tokens", prompt + completion,
                         agent_usage_get_total_tokens (usage));
}

static void
compare_message (GString        *problems,
                 AgentMessage   *message,
                 Expected       *e,
                 AgentTestCalls  calls_state)
{
  g_autoptr(JsonNode) empty_object = agent_test_parse_json ("{}");
  const char *content = agent_message_get_content (message);
  guint n_calls = expected_n_calls (e);

  agent_test_expect_true (problems, "message.role",
                          agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT);
  /* Ollama's content is always a string: no line at all is "" too. */
  agent_test_expect_str (problems, "message.content",
                         agent_test_member_string (e->message, "content"), content ? content : "");
  agent_test_expect_str (problems, "message.thinking",
                         agent_test_member_string (e->message, "thinking"),
                         agent_message_get_reasoning (message));
  agent_test_expect_str (problems, "message.refusal", NULL, agent_message_get_refusal (message));
  agent_test_expect_str (problems, "done_reason",
                         agent_test_member_string (e->file.result, "done_reason"),
                         agent_message_get_finish_reason (message));
  agent_test_expect_str (problems, "model", agent_test_member_string (e->file.result, "model"),
                         agent_message_get_model (message));
  compare_usage (problems, agent_message_get_usage (message),
                 agent_test_member_object (e->file.result, "usage"));

  agent_test_expect_int (problems, "number of tool calls", n_calls,
                         agent_message_get_n_tool_calls (message));
  if (n_calls != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (e->calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      const char *arguments_json = agent_test_member_string (want, "arguments_json");
      g_autoptr(JsonNode) parsed = NULL;

      agent_test_expect_int (problems, "tool call index (position)", i,
                             agent_tool_call_get_index (call));
      if (json_object_has_member (want, "index"))
        agent_test_expect_int (problems, "tool call wire index",
                               json_object_get_int_member (want, "index"),
                               agent_tool_call_get_index (call));
      agent_test_expect_call_id (problems, "tool call", call, agent_test_member_string (want, "id"),
                                 calls_state);
      agent_test_expect_str (problems, "tool call name", agent_test_member_string (want, "name"),
                             agent_tool_call_get_name (call));
      /* Serialized once, compactly; no arguments at all is "" (read as {}). */
      agent_test_expect_str (problems, "tool call arguments", arguments_json ? arguments_json : "",
                             agent_tool_call_get_arguments (call));
      parsed = agent_tool_call_parse_arguments (call, NULL);
      if (json_object_get_boolean_member_with_default (want, "arguments_missing", FALSE))
        agent_test_expect_json (problems, "missing arguments parse as {}", empty_object, parsed);
      else
        agent_test_expect_json (problems, "tool call arguments (parsed)",
                                json_object_get_member (want, "arguments"), parsed);
      agent_test_expect_call_state (problems, "tool call", call, calls_state);
    }
}

/* An AgentTestReplayCheck */
static char *
replay_compare (AgentTestReplay *r,
                gpointer         user_data)
{
  Expected *e = user_data;
  g_autoptr(GString) problems = g_string_new (NULL);

  if (e->error != NULL)
    {
      /* A last line without its newline is read at the end of the body. */
      GError *provider_error = r->error ? r->error : r->finish_error;

      agent_test_expect_true (problems, "the error line is AGENT_ERROR_PROVIDER",
                              g_error_matches (provider_error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
      agent_test_expect_true (problems, "the error carries the provider's message",
                              provider_error != NULL &&
                              strstr (provider_error->message, e->error) != NULL);
      agent_test_expect_true (problems, "finish() fails after an error", !r->finish_ok);
      if (r->error != NULL)
        agent_test_expect_true (problems, "finish() after an error is AGENT_ERROR_PROTOCOL",
                                g_error_matches (r->finish_error, AGENT_ERROR,
                                                 AGENT_ERROR_PROTOCOL));
    }
  else
    {
      if (r->error != NULL)
        agent_test_expect_str (problems, "error", NULL, r->error->message);
      agent_test_expect_true (problems, "finish() succeeds", r->finish_ok);
    }

  agent_test_expect_int (problems, "end marker seen",
                         json_object_get_boolean_member_with_default (e->file.result, "done",
                                                                      FALSE),
                         agent_stream_decoder_is_done (r->decoder));
  agent_test_expect_int (problems, "lines decoded", e->ref_events,
                         agent_stream_decoder_get_n_events (r->decoder));

  compare_message (problems, agent_test_replay_get_message (r), e, AGENT_TEST_CALLS_READY);
  agent_test_expect_heard (problems, r, &e->ref);

  if (problems->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&problems), FALSE);
}

static void
test_corpus_wire (gconstpointer data)
{
  Expected e;

  expected_load (&e, data);

  agent_test_replay_body (&agent_ollama_backend, e.file.body, e.file.body_len,
                          AGENT_TEST_REPLAY_ALL, replay_compare, &e);

  expected_clear (&e);
}

/* Corpus: end to end, through AgentSession over HTTP */

static void
add_final_answer (AgentTestServer *server,
                  const char      *text)
{
  AgentTestResponse *response = add_ndjson_response (server);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *line = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "llama3.2");
  json_builder_set_member_name (builder, "message");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "done");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  line = json_to_string (node, FALSE);

  add_line (response, line);
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':''},"
                      "'done':true,'done_reason':'stop','prompt_eval_count':7,'eval_count':2}");
}

/* The second request carries the calls back, and their results */
static void
compare_second_request (GString         *problems,
                        AgentTestServer *server,
                        Expected        *e)
{
  g_autoptr(JsonNode) empty_object = agent_test_parse_json ("{}");
  JsonObject *body = json_node_get_object (agent_test_server_get_request_body (server, 1));
  JsonArray *messages = agent_test_member_array (body, "messages");
  JsonObject *assistant = json_array_get_object_element (messages, 1);
  JsonArray *calls = agent_test_member_array (assistant, "tool_calls");
  guint n_calls = expected_n_calls (e);

  agent_test_expect_int (problems, "messages sent back", 2 + n_calls,
                         json_array_get_length (messages));
  agent_test_expect_int (problems, "calls sent back", n_calls,
                         calls ? json_array_get_length (calls) : 0);
  agent_test_expect_str (problems, "thinking sent back",
                         agent_test_member_string (e->message, "thinking"),
                         agent_test_member_string (assistant, "thinking"));
  for (guint i = 0; calls != NULL && i < n_calls && i < json_array_get_length (calls); i++)
    {
      JsonObject *want = json_array_get_object_element (e->calls, i);
      JsonObject *call = json_array_get_object_element (calls, i);
      JsonObject *function = agent_test_member_object (call, "function");
      JsonObject *result = json_array_get_object_element (messages, 2 + i);
      JsonNode *arguments = json_object_get_member (want, "arguments");
      const char *name = agent_test_member_string (want, "name");

      agent_test_expect_str (problems, "call name sent back", name,
                             agent_test_member_string (function, "name"));
      if (JSON_NODE_HOLDS_NULL (arguments))
        agent_test_expect_json (problems, "no arguments go back as {}", empty_object,
                                json_object_get_member (function, "arguments"));
      else
        agent_test_expect_json (problems, "arguments sent back as an object", arguments,
                                json_object_get_member (function, "arguments"));
      agent_test_expect_str (problems, "tool result role", "tool",
                             agent_test_member_string (result, "role"));
      agent_test_expect_str (problems, "tool result tool_name", name,
                             agent_test_member_string (result, "tool_name"));
      agent_test_expect_str (problems, "tool result matches its call",
                             agent_test_member_string (call, "id"),
                             agent_test_member_string (result, "tool_call_id"));
    }
}

static void
test_corpus_http (gconstpointer data)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentTestResponse *response;
  AgentTestSession s;
  GListModel *memory;
  guint n_calls;
  Expected e;

  expected_load (&e, data);
  n_calls = expected_n_calls (&e);
  agent_test_session_init (&s, "ollama");
  memory = G_LIST_MODEL (agent_session_get_memory (s.session));

  if (e.error != NULL)
    {
      /* The recording was the body of an HTTP 400 */
      response = agent_test_server_add_response (s.server, 400);
      agent_test_response_set_body (response, "application/json", e.file.body);
    }
  else
    {
      response = add_ndjson_response (s.server);
      agent_test_response_add_file_in_pieces (response, e.file.path, g_str_hash (e.file.name),
                                              AGENT_TEST_MAX_PIECE);
      if (n_calls > 0)
        add_final_answer (s.server, "All done.");
    }

  agent_test_turn_run (&s.turn, s.session, "Go", NULL);

  if (e.error != NULL)
    {
      agent_test_expect_true (problems, "the turn fails with AGENT_ERROR_HTTP",
                              g_error_matches (s.turn.error, AGENT_ERROR, AGENT_ERROR_HTTP));
      agent_test_expect_true (problems, "the error carries the provider's message",
                              s.turn.error != NULL &&
                              strstr (s.turn.error->message, e.error) != NULL);
    }
  else if (s.turn.error != NULL)
    agent_test_expect_str (problems, "the turn failed", NULL, s.turn.error->message);
  else
    {
      g_autoptr(AgentMessage) first = g_list_model_get_item (memory, 1);
      const char *reasoning = agent_message_get_reasoning (first);

      agent_test_expect_int (problems, "requests", n_calls > 0 ? 2 : 1,
                             agent_test_server_get_n_requests (s.server));
      agent_test_expect_int (problems, "messages in memory", n_calls > 0 ? 3 + n_calls : 2,
                             g_list_model_get_n_items (memory));
      compare_message (problems, first, &e,
                       n_calls > 0 ? AGENT_TEST_CALLS_UNKNOWN_TOOL : AGENT_TEST_CALLS_READY);
      agent_test_expect_int (problems, "first message state", AGENT_MESSAGE_STATE_COMPLETE,
                             agent_message_get_state (first));
      agent_test_expect_str (problems, "reasoning-delta signals", reasoning ? reasoning : "",
                             s.reasoning->str);
      agent_test_expect_str (problems, "text-delta signals",
                             n_calls > 0 ? "All done." : agent_test_member_string (e.message,
                                                                                   "content"),
                             s.text->str);
      if (n_calls > 0)
        compare_second_request (problems, s.server, &e);
    }

  if (problems->len > 0)
    g_test_fail_printf ("%s:%s", e.file.path, problems->str);

  agent_test_session_clear (&s);
  expected_clear (&e);
}

/* A tool round trip with thinking, through AgentSession */

static gboolean
get_weather (AgentTool           *tool,
             AgentToolInvocation *invocation,
             gpointer             user_data,
             GError             **error)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  g_autofree char *result = g_strdup_printf ("Sunny in %s for %" G_GINT64_FORMAT " days",
                                             json_object_get_string_member (arguments, "city"),
                                             json_object_get_int_member (arguments, "days"));

  agent_tool_invocation_return_result (invocation, result);

  return TRUE;
}

static gboolean
get_time (AgentTool           *tool,
          AgentToolInvocation *invocation,
          gpointer             user_data,
          GError             **error)
{
  agent_tool_invocation_return_result (invocation, "12:00");

  return TRUE;
}

static gboolean
add_piece (gpointer     user_data,
           const char  *bytes,
           gsize        len,
           GError     **error)
{
  agent_test_response_add_bytes (user_data, bytes, len);
  return TRUE;
}

/* Thinking, text, two calls on two lines (the second with an id and an
 * index, as newer servers send), the end; ' stands for " */
static const char tool_stream[] =
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.3Z','message':{'role':'assistant',"
  "'content':'','thinking':'The user wants'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.4Z','message':{'role':'assistant',"
  "'content':'','thinking':' the weather \\u2600.'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.5Z','message':{'role':'assistant',"
  "'content':'Let me check.'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.6Z','message':{'role':'assistant',"
  "'content':'','tool_calls':[{'function':{'name':'get_weather',"
  "'arguments':{'city':'Tokyo','days':2}}}]},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.7Z','message':{'role':'assistant',"
  "'content':'','tool_calls':[{'id':'call_abc','function':{'index':1,'name':'get_time',"
  "'arguments':{}}}]},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.8Z','message':{'role':'assistant',"
  "'content':''},'done':true,'done_reason':'stop','total_duration':1000,"
  "'prompt_eval_count':40,'eval_count':25}\n";

static void
test_session_tool_round_trip (void)
{
  g_autofree char *schema = agent_test_json_text ("{'type': 'object', 'properties': {"
                                                  "  'city': {'type': 'string',"
                                                  "           'description': 'A city'},"
                                                  "  'days': {'type': 'integer'}},"
                                                  " 'required': ['city']}");
  g_autofree char *stream = agent_test_json_text (tool_stream);
  g_autoptr(JsonNode) parameters = agent_test_parse_json (schema);
  g_autoptr(AgentTool) weather = agent_tool_new ("get_weather", "The weather in a city", parameters,
                                                 get_weather, NULL, NULL);
  g_autoptr(AgentTool) clock = agent_tool_new ("get_time", "The time", NULL, get_time, NULL, NULL);
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *expected_text = NULL;
  g_autoptr(AgentMessage) first = NULL;
  AgentTestResponse *response;
  AgentTestSession s;
  GListModel *memory;
  JsonObject *body;
  JsonArray *tools;
  const char *weather_id;

  agent_test_session_init (&s, "ollama");
  agent_provider_set_model (s.provider, "qwen3:8b");
  agent_provider_set_api_key (s.provider, "sk-ollama-secret");
  agent_provider_set_max_tokens (s.provider, 256);
  agent_provider_set_reasoning_effort (s.provider, AGENT_REASONING_EFFORT_HIGH);
  agent_session_set_system_prompt (s.session, "You are terse.");
  agent_session_add_tool (s.session, weather);
  agent_session_add_tool (s.session, clock);

  /* The first answer in pieces of 7 bytes, the calls on two lines */
  response = add_ndjson_response (s.server);
  agent_test_feed_pieces (add_piece, response, stream, strlen (stream), 7, NULL, NULL);
  add_final_answer (s.server, "Sunny, and noon.");

  agent_test_turn_run (&s.turn, s.session, "Weather in Tokyo?", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "Sunny, and noon.");

  /* The thinking streamed as reasoning, apart from the answer */
  g_assert_cmpstr (s.reasoning->str, ==, "The user wants the weather \u2600.");
  g_assert_cmpuint (s.n_reasoning, ==, 2);
  g_assert_cmpstr (s.text->str, ==, "Let me check.Sunny, and noon.");

  memory = G_LIST_MODEL (agent_session_get_memory (s.session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 5);
  first = g_list_model_get_item (memory, 1);
  g_assert_cmpstr (agent_message_get_content (first), ==, "Let me check.");
  g_assert_cmpstr (agent_message_get_reasoning (first), ==, "The user wants the weather \u2600.");
  g_assert_cmpstr (agent_message_get_finish_reason (first), ==, "stop");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (first)), ==, 65);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (s.session)), ==, 65 + 9);
  g_assert_cmpuint (agent_message_get_n_tool_calls (first), ==, 2);
  weather_id = agent_tool_call_get_id (agent_message_get_tool_call (first, 0));
  g_assert_nonnull (weather_id);
  g_assert_cmpstr (agent_tool_call_get_id (agent_message_get_tool_call (first, 1)), ==, "call_abc");

  /* Both requests: path, headers */
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (s.server, i), ==, "/api/chat");
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "Authorization"), ==,
                       "Bearer sk-ollama-secret");
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "Content-Type"), ==,
                       "application/json");
      g_assert_cmpstr (agent_test_server_get_request_header (s.server, i, "Accept"), ==,
                       "application/x-ndjson");
    }

  /* The second request, field by field */
  body = json_node_get_object (agent_test_server_get_request_body (s.server, 1));
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen3:8b");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_true (json_object_get_boolean_member (body, "think"));
  g_assert_cmpint (json_object_get_int_member (agent_test_member_object (body, "options"),
                                               "num_predict"), ==, 256);
  /* and the window (test-ollama-window) */
  g_assert_cmpuint (json_object_get_size (agent_test_member_object (body, "options")), ==, 2);

  tools = agent_test_member_array (body, "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 2);
  {
    JsonObject *tool = json_array_get_object_element (tools, 0);
    JsonObject *function = agent_test_member_object (tool, "function");

    g_assert_cmpstr (json_object_get_string_member (tool, "type"), ==, "function");
    g_assert_cmpstr (json_object_get_string_member (function, "name"), ==, "get_weather");
    g_assert_cmpstr (json_object_get_string_member (function, "description"), ==,
                     "The weather in a city");
    g_assert_true (agent_test_json_equal (json_object_get_member (function, "parameters"),
                                          parameters));
    function = agent_test_member_object (json_array_get_object_element (tools, 1), "function");
    g_assert_cmpstr (json_object_get_string_member (function, "name"), ==, "get_time");
    g_assert_true (agent_test_json_equal (json_object_get_member (function, "parameters"),
                                          agent_tool_get_parameters (clock)));
  }

  expected_text = g_strdup_printf (
    "[{'role': 'system', 'content': 'You are terse.'},"
    " {'role': 'user', 'content': 'Weather in Tokyo?'},"
    " {'role': 'assistant', 'content': 'Let me check.',"
    "  'thinking': 'The user wants the weather \\u2600.', 'tool_calls': ["
    "   {'id': '%s', 'function': {'name': 'get_weather',"
    "                             'arguments': {'city': 'Tokyo', 'days': 2}}},"
    "   {'id': 'call_abc', 'function': {'name': 'get_time', 'arguments': {}}}]},"
    " {'role': 'tool', 'content': 'Sunny in Tokyo for 2 days', 'tool_name': 'get_weather',"
    "  'tool_call_id': '%s'},"
    " {'role': 'tool', 'content': '12:00', 'tool_name': 'get_time', 'tool_call_id': 'call_abc'}]",
    weather_id, weather_id);
  g_strdelimit (expected_text, "'", '"');
  expected = agent_test_parse_json (expected_text);
  if (!agent_test_json_equal (expected, json_object_get_member (body, "messages")))
    {
      g_autofree char *got = json_to_string (json_object_get_member (body, "messages"), FALSE);

      g_error ("The second request's messages: %s", got);
    }

  g_clear_object (&first);
  agent_test_session_clear (&s);
}

/* Errors */

static void
test_http_errors (void)
{
  static const struct {
    guint       status;
    const char *body;
    const char *message;
    int         code;
  } cases[] = {
    { 400, "{\"error\":\"registry.ollama.ai/library/gemma3:1b does not support tools\"}",
      "does not support tools", AGENT_ERROR_HTTP },
    { 404, "{\"error\":\"model \\\"nope\\\" not found, try pulling it first\"}",
      /* A model to pull: models/agent-model-errors.c */
      "Model “nope” is not installed; pull it with `agent-cli --pull nope`",
      AGENT_ERROR_MODEL_NOT_FOUND },
    { 400, "{\"error\":\"invalid key sk-ollama-secret in options\"}",
      "invalid key [redacted] in options", AGENT_ERROR_HTTP },
    { 401, "{\"error\":\"unauthorized: sk-ollama-secret is not valid\"}",
      "unauthorized: [redacted] is not valid", AGENT_ERROR_AUTHENTICATION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AgentTestResponse *response;
      AgentTestSession s;

      agent_test_session_init (&s, "ollama");
      response = agent_test_server_add_response (s.server, cases[i].status);
      agent_provider_set_api_key (s.provider, "sk-ollama-secret");
      agent_test_response_set_body (response, "application/json", cases[i].body);
      agent_test_turn_run (&s.turn, s.session, "Hi", NULL);

      g_assert_error (s.turn.error, AGENT_ERROR, cases[i].code);
      if (strstr (s.turn.error->message, cases[i].message) == NULL)
        g_test_fail_printf ("%u: %s", cases[i].status, s.turn.error->message);
      g_assert_null (strstr (s.turn.error->message, "sk-ollama-secret"));

      agent_test_session_clear (&s);
    }
}

/* An error line in a 200 stream, or a stream cut short: what streamed
 * stays in memory, interrupted. */
static void
run_broken_stream (const char *last_line,
                   int         code,
                   const char *message)
{
  g_autoptr(AgentMessage) partial = NULL;
  AgentTestResponse *response;
  AgentTestSession s;
  GListModel *memory;

  agent_test_session_init (&s, "ollama");
  response = add_ndjson_response (s.server);
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','thinking':'Hmm'},"
                      "'done':false}");
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':'Partial '},"
                      "'done':false}");
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':'answer'},"
                      "'done':false}");
  if (last_line != NULL)
    add_line (response, last_line);

  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);

  g_assert_error (s.turn.error, AGENT_ERROR, code);
  g_assert_nonnull (strstr (s.turn.error->message, message));
  g_assert_cmpstr (s.text->str, ==, "Partial answer");
  g_assert_cmpuint (s.steps->len, ==, 0);

  memory = G_LIST_MODEL (agent_session_get_memory (s.session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);
  partial = g_list_model_get_item (memory, 1);
  g_assert_cmpint (agent_message_get_role (partial), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Partial answer");
  g_assert_cmpstr (agent_message_get_reasoning (partial), ==, "Hmm");
  g_clear_object (&partial);

  agent_test_session_clear (&s);
}

static void
test_mid_stream_error (void)
{
  run_broken_stream ("{'error':'an error was encountered while running the model: unexpected EOF'}",
                     AGENT_ERROR_PROVIDER,
                     "an error was encountered while running the model: unexpected EOF");
}

static void
test_cut_stream (void)
{
  run_broken_stream (NULL, AGENT_ERROR_PROTOCOL, "ended before the answer was complete");
}

static void
test_not_json (void)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_ollama_backend);
  static const char body[] = "{\"message\":{\"content\":\"ok\"},\"done\":false}\n"
                             "<html>Bad gateway</html>\n";

  g_assert_false (agent_test_replay_feed (r, body, strlen (body), &r->error));
  g_assert_error (r->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (r->error->message, "<html>Bad gateway</html>"));
  g_assert_cmpstr (r->text->str, ==, "ok");
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) files = NULL;

  g_test_init (&argc, &argv, NULL);
  /* Report every broken corpus file, not only the first. */
  g_test_set_nonfatal_assertions ();

  files = agent_test_list_corpus ("ollama", ".ndjson");
  g_assert_nonnull (files[0]);
  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      g_autofree char *name = g_strndup (basename, strlen (basename) - strlen (".ndjson"));
      g_autofree char *wire = g_strdup_printf ("/ollama/corpus/wire/%s", name);
      g_autofree char *http = g_strdup_printf ("/ollama/corpus/http/%s", name);

      g_test_add_data_func_full (wire, g_strdup (files[i]), test_corpus_wire, g_free);
      g_test_add_data_func_full (http, g_strdup (files[i]), test_corpus_http, g_free);
    }

  g_test_add_func ("/ollama/session/tool-round-trip", test_session_tool_round_trip);
  g_test_add_func ("/ollama/errors/http", test_http_errors);
  g_test_add_func ("/ollama/errors/mid-stream", test_mid_stream_error);
  g_test_add_func ("/ollama/errors/cut-stream", test_cut_stream);
  g_test_add_func ("/ollama/errors/not-json", test_not_json);

  return g_test_run ();
}
