/* test-provider-anthropic.c — the Anthropic Messages backend: streams
 *
 * - /anthropic/corpus/<name>/{whole,bytes,random,cuts}: every stream of
 *   tests/corpus/anthropic decoded by agent_stream_decoder with the
 *   anthropic backend, fed whole, one byte at a time, in random pieces
 *   (several seeds) and, under 4 KiB, cut in two (at every byte near a
 *   line's ends, at every 13th inside lines), against the "result" of its
 *   .expected.json, and what the accumulator's listener heard against an
 *   independent reading of the body (json-glib, a plain line splitter).
 *   Compared: id, model, role, stop_reason (the finish reason), usage (the
 *   merged object as the raw usage, and the counts read from it), the text
 *   blocks (concatenated into the content), the thinking blocks
 *   (concatenated into the reasoning; with their signatures, and every
 *   block libagent does not model, in the provider data), the tool_use
 *   blocks (id, name, arguments, arguments_valid_json, input), whether
 *   message_stop came (the decoder's end marker) and the number of events.
 *   Not compared, because libagent does not model them:
 *    - "stop_sequence" and "stop_details" (AgentMessage has no field);
 *    - "caller" of a tool_use block (sent by the API, never needed back);
 *    - "block_stopped": an unstopped block is only cut off (max_tokens),
 *      which the stop reason says;
 *   and compared differently:
 *    - "arguments" of a tool_use block that streamed no non-empty
 *      partial_json is "" in the corpus; libagent gives such a call its
 *      starting "input" ({}) as its arguments, so that is what is compared.
 * - /anthropic/wire/…: blocks the corpus has none of, incomplete streams.
 * - /anthropic/session/…: AgentSession against the in-process server: a
 *   tool round trip with thinking (the second request checked field by
 *   field), HTTP errors, a mid-stream error event, a stream cut off.
 *
 * Request bodies and model listing are test-provider-anthropic-request's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "messages/agent-tool-call-private.h"

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

#define API_KEY "sk-ant-test-0123456789"

/* Corpus */

static const char * const modes[] = { "whole", "bytes", "random", "cuts", NULL };

typedef struct
{
  AgentTestCorpusFile file;
  GString            *content;     /* text blocks, NULL if none */
  GString            *reasoning;   /* thinking blocks, NULL if none */
  GPtrArray          *calls;       /* JsonObject of the tool_use blocks */
  GPtrArray          *kept;        /* JsonObject of the blocks the provider data keeps */
  /* The independent reading of the body */
  guint               ref_events;
  AgentTestDeltas     ref;
  GHashTable         *tools;       /* while reading: see reference_event */
} Expected;

/* What the listener must hear, event by event. @tools maps the index of a
 * tool_use block to 0 (open, no input yet), 1 (input came) or 2 (closed). */
static void
reference_event (const char *data,
                 gpointer    user_data)
{
  Expected *e = user_data;
  g_autoptr(JsonNode) node = agent_test_parse_json (data);
  JsonObject *event = json_node_get_object (node);
  const char *type = agent_test_member_string (event, "type");
  gint64 index = json_object_get_int_member_with_default (event, "index", -1);
  gpointer key = GINT_TO_POINTER ((int) index);
  JsonObject *part;
  const char *s;

  if (g_strcmp0 (type, "content_block_start") == 0)
    {
      part = json_object_get_object_member (event, "content_block");
      type = agent_test_member_string (part, "type");
      if (g_strcmp0 (type, "tool_use") == 0)
        g_hash_table_insert (e->tools, key, GINT_TO_POINTER (0));
      if (g_strcmp0 (type, "text") == 0 && (s = agent_test_member_string (part, "text")) && s[0])
        e->ref.n_text++;
    }
  else if (g_strcmp0 (type, "content_block_delta") == 0)
    {
      part = json_object_get_object_member (event, "delta");
      type = agent_test_member_string (part, "type");
      if (!strcmp (type, "text_delta") && agent_test_member_string (part, "text")[0])
        e->ref.n_text++;
      else if (!strcmp (type, "thinking_delta") && agent_test_member_string (part, "thinking")[0])
        e->ref.n_reasoning++;
      else if (!strcmp (type, "input_json_delta") &&
               agent_test_member_string (part, "partial_json")[0] &&
               g_hash_table_contains (e->tools, key))
        {
          e->ref.n_fragments++;
          g_hash_table_insert (e->tools, key, GINT_TO_POINTER (1));
        }
    }
  else if (g_strcmp0 (type, "content_block_stop") == 0 || g_strcmp0 (type, "message_delta") == 0)
    {
      GHashTableIter iter;
      gpointer k, state;

      /* A block closed without input gets {} as one fragment. */
      g_hash_table_iter_init (&iter, e->tools);
      while (g_hash_table_iter_next (&iter, &k, &state))
        if ((k == key || index < 0) && GPOINTER_TO_INT (state) != 2)
          {
            if (GPOINTER_TO_INT (state) == 0)
              e->ref.n_fragments++;
            g_hash_table_iter_replace (&iter, GINT_TO_POINTER (2));
          }
    }
}

static void
expected_load (Expected   *e,
               const char *path)
{
  JsonArray *content;

  memset (e, 0, sizeof *e);
  agent_test_corpus_file_load (&e->file, path, ".sse");

  e->calls = g_ptr_array_new ();
  e->kept = g_ptr_array_new ();
  content = json_object_get_array_member (e->file.result, "content");
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);
      const char *type = agent_test_member_string (block, "type");

      if (g_strcmp0 (type, "text") == 0)
        {
          if (e->content == NULL)
            e->content = g_string_new (NULL);
          g_string_append (e->content, agent_test_member_string (block, "text"));
        }
      else if (g_strcmp0 (type, "tool_use") == 0)
        g_ptr_array_add (e->calls, block);
      else if (json_object_get_boolean_member_with_default (block, "block_stopped", TRUE))
        g_ptr_array_add (e->kept, block);

      if (g_strcmp0 (type, "thinking") == 0)
        {
          if (e->reasoning == NULL)
            e->reasoning = g_string_new (NULL);
          g_string_append (e->reasoning, agent_test_member_string (block, "thinking"));
        }
    }

  e->tools = g_hash_table_new (NULL, NULL);
  e->ref_events = agent_test_read_sse (e->file.body, e->file.body_len, reference_event, e);
  g_clear_pointer (&e->tools, g_hash_table_unref);
  g_assert_cmpuint (e->ref_events, ==,
                    json_object_get_int_member (e->file.transport, "events_dispatched"));
}

static void
expected_clear (Expected *e)
{
  agent_test_corpus_file_clear (&e->file);
  if (e->content != NULL)
    g_string_free (e->content, TRUE);
  if (e->reasoning != NULL)
    g_string_free (e->reasoning, TRUE);
  g_ptr_array_unref (e->calls);
  g_ptr_array_unref (e->kept);
}

static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *expected)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), expected);
  gint64 input = json_object_get_int_member (expected, "input_tokens");
  gint64 output = json_object_get_int_member (expected, "output_tokens");

  if (usage == NULL)
    {
      g_string_append (problems, "\n  no usage");
      return;
    }
  agent_test_expect_json (problems, "usage (raw)", node, agent_usage_get_raw (usage));
  agent_test_expect_int (problems, "prompt tokens", input, agent_usage_get_prompt_tokens (usage));
  agent_test_expect_int (problems, "completion tokens", output,
                         agent_usage_get_completion_tokens (usage));
  agent_test_expect_int (problems, "total tokens", input + output,
                         agent_usage_get_total_tokens (usage));
}

/* The blocks kept in the provider data against the expected ones. */
static void
compare_kept (GString      *problems,
              AgentMessage *message,
              Expected     *e)
{
  JsonNode *data = agent_message_get_provider_data (message);
  JsonObject *mine = data ? agent_test_member_object (json_node_get_object (data), "anthropic")
                          : NULL;
  JsonArray *kept = mine ? json_object_get_array_member (mine, "content") : NULL;

  agent_test_expect_int (problems, "blocks kept in the provider data", e->kept->len,
                         kept ? json_array_get_length (kept) : 0);
  if (kept == NULL || json_array_get_length (kept) != e->kept->len)
    return;

  for (guint i = 0; i < e->kept->len; i++)
    {
      JsonObject *want = g_ptr_array_index (e->kept, i);
      JsonObject *got = json_array_get_object_element (kept, i);
      static const char * const strings[] = { "type", "id", "name", "tool_use_id", "thinking",
                                              "signature" };

      for (guint k = 0; k < G_N_ELEMENTS (strings); k++)
        if (json_object_has_member (want, strings[k]))
          agent_test_expect_str (problems, strings[k], agent_test_member_string (want, strings[k]),
                                 agent_test_member_string (got, strings[k]));
      if (json_object_has_member (want, "input"))
        agent_test_expect_json (problems, "kept block input",
                                json_object_get_member (want, "input"),
                                json_object_get_member (got, "input"));
    }
}

static void
compare_calls (GString      *problems,
               AgentMessage *message,
               Expected     *e)
{
  agent_test_expect_int (problems, "number of tool calls", e->calls->len,
                         agent_message_get_n_tool_calls (message));
  if (e->calls->len != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < e->calls->len; i++)
    {
      JsonObject *want = g_ptr_array_index (e->calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      JsonNode *input = json_object_get_member (want, "input");
      const char *want_arguments = agent_test_member_string (want, "arguments");
      g_autofree char *from_input = NULL;
      g_autoptr(JsonNode) parsed = NULL;
      gboolean want_valid = TRUE;

      if (want_arguments[0] == '\0')
        want_arguments = from_input = json_to_string (input, FALSE);
      else
        want_valid = json_object_get_boolean_member (want, "arguments_valid_json");

      parsed = agent_tool_call_parse_arguments (call, NULL);
      agent_test_expect_int (problems, "call index", i, agent_tool_call_get_index (call));
      agent_test_expect_call_id (problems, "call", call, agent_test_member_string (want, "id"),
                                 AGENT_TEST_CALLS_READY);
      agent_test_expect_str (problems, "call name", agent_test_member_string (want, "name"),
                             agent_tool_call_get_name (call));
      agent_test_expect_str (problems, "call type", "function",
                             _agent_tool_call_get_type_name (call));
      agent_test_expect_str (problems, "call arguments", want_arguments,
                             agent_tool_call_get_arguments (call));
      agent_test_expect_int (problems, "arguments_valid_json", want_valid, parsed != NULL);
      if (!JSON_NODE_HOLDS_NULL (input))
        agent_test_expect_json (problems, "call input", input, parsed);
      agent_test_expect_call_state (problems, "call", call, AGENT_TEST_CALLS_READY);
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
  JsonObject *result = e->file.result;
  gboolean stop_received = json_object_get_boolean_member (result, "message_stop_received");

  if (r->error != NULL)
    agent_test_expect_str (problems, "error", NULL, r->error->message);
  /* A stop reason, or message_stop, makes a whole answer. */
  if (r->finish_error != NULL)
    agent_test_expect_str (problems, "finish() error", NULL, r->finish_error->message);
  agent_test_expect_int (problems, "finish() succeeds", TRUE, r->finish_ok);
  agent_test_expect_int (problems, "message_stop seen", stop_received,
                         agent_stream_decoder_is_done (r->decoder));
  agent_test_expect_int (problems, "events decoded", e->ref_events,
                         agent_stream_decoder_get_n_events (r->decoder));

  agent_test_expect_str (problems, "id", agent_test_member_string (result, "id"),
                         agent_message_get_response_id (message));
  agent_test_expect_str (problems, "model", agent_test_member_string (result, "model"),
                         agent_message_get_model (message));
  agent_test_expect_str (problems, "role", agent_test_member_string (result, "role"),
                         agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT
                         ? "assistant" : NULL);
  agent_test_expect_str (problems, "stop reason", agent_test_member_string (result, "stop_reason"),
                         agent_message_get_finish_reason (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_object_member (result, "usage"));
  agent_test_expect_str (problems, "content", e->content ? e->content->str : NULL,
                         agent_message_get_content (message));
  agent_test_expect_str (problems, "reasoning", e->reasoning ? e->reasoning->str : NULL,
                         agent_message_get_reasoning (message));
  agent_test_expect_str (problems, "refusal", NULL, agent_message_get_refusal (message));
  compare_calls (problems, message, e);
  compare_kept (problems, message, e);
  agent_test_expect_heard (problems, r, &e->ref);

  return problems->len > 0 ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

static void
test_corpus (gconstpointer data)
{
  const AgentTestCorpusCase *c = data;
  Expected e;

  expected_load (&e, c->path);
  agent_test_replay_body (&agent_anthropic_backend, e.file.body, e.file.body_len,
                          c->mode == AGENT_TEST_REPLAY_CUTS ? AGENT_TEST_REPLAY_LINE_CUTS : c->mode,
                          replay_compare, &e);
  expected_clear (&e);
}

/* Blocks the corpus has none of: redacted thinking, a delta for a block
 * that never started, an unknown event, a tool whose input came whole in
 * content_block_start. */
static void
test_wire_extra_blocks (void)
{
  static const char body[] =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_x\",\"model\":\"m\","
      "\"usage\":{\"input_tokens\":3,\"output_tokens\":null}}}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":0,"
      "\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":7,\"delta\":{\"type\":\"input_json_delta\","
      "\"partial_json\":\"{}\"}}\n\n"
    "event: something_new\n"
    "data: {\"type\":\"something_new\",\"index\":0}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
      "\"id\":\"toolu_w\",\"name\":\"get\",\"input\":{\"k\":[1,2]}}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
    "event: message_delta\n"
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
      "\"usage\":{\"output_tokens\":9}}\n\n"
    "event: message_stop\n"
    "data: {\"type\":\"message_stop\"}\n\n";
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_anthropic_backend);
  g_autoptr(JsonNode) want = agent_test_parse_json (
    "{\"anthropic\":{\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy\"}]}}");
  g_autoptr(JsonNode) usage = agent_test_parse_json ("{\"input_tokens\":3,\"output_tokens\":9}");
  AgentMessage *message;

  g_assert_true (agent_test_replay_feed (r, body, strlen (body), &r->error));
  agent_test_replay_finish (r);
  g_assert_no_error (r->finish_error);
  g_assert_true (agent_stream_decoder_is_done (r->decoder));

  message = agent_test_replay_get_message (r);
  g_assert_null (agent_message_get_content (message));
  g_assert_null (agent_message_get_reasoning (message));
  g_assert_true (agent_test_json_equal (want, agent_message_get_provider_data (message)));
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 0)), ==,
                   "{\"k\":[1,2]}");
  g_assert_true (agent_test_json_equal (usage,
                                        agent_usage_get_raw (agent_message_get_usage (message))));
  g_assert_cmpstr (r->problems->str, ==, "");
}

/* A stream that ends before the stop reason is cut off; one that is not
 * JSON is a protocol error. */
static void
test_wire_incomplete (void)
{
  static const char cut[] =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_c\",\"model\":\"m\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
      "\"text\":\"Hal\"}}\n\n";
  static const char garbage[] = "event: content_block_delta\ndata: <html>\n\n";
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_anthropic_backend);
  g_autoptr(AgentTestReplay) g = agent_test_replay_new_for_backend (&agent_anthropic_backend);

  g_assert_true (agent_test_replay_feed (r, cut, strlen (cut), &r->error));
  agent_test_replay_finish (r);
  g_assert_false (r->finish_ok);
  g_assert_error (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (agent_test_replay_get_message (r)), ==, "Hal");

  g_assert_false (agent_test_replay_feed (g, garbage, strlen (garbage), &g->error));
  g_assert_error (g->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (g->error->message, "<html>"));
}

/* Sessions against the in-process server */

typedef AgentTestSession Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  agent_test_session_init (f, "anthropic");
  /* Its breakpoints are test-prompt-cache's */
  agent_provider_set_prompt_cache (f->provider, FALSE);
  agent_provider_set_model (f->provider, "claude-test");
  agent_provider_set_api_key (f->provider, API_KEY);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_session_clear (f);
}

static void
add_start (AgentTestResponse *response,
           const char        *id,
           gint64             input_tokens)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"message_start\",\"message\":{\"id\":\"%s\","
                                           "\"type\":\"message\",\"role\":\"assistant\","
                                           "\"model\":\"claude-test-20250101\",\"content\":[],"
                                           "\"stop_reason\":null,\"stop_sequence\":null,"
                                           "\"usage\":{\"input_tokens\":%" G_GINT64_FORMAT ","
                                           "\"cache_read_input_tokens\":0,\"output_tokens\":1}}}",
                                           id, input_tokens);

  agent_test_add_typed_event (response, json);
}

static void
add_text_block (AgentTestResponse  *response,
                guint               index,
                const char * const *deltas)
{
  g_autofree char *start = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":%u,"
                                            "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                                            index);
  g_autofree char *stop = g_strdup_printf ("{\"type\":\"content_block_stop\",\"index\":%u}", index);

  agent_test_add_typed_event (response, start);
  for (guint i = 0; deltas[i]; i++)
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":%u,"
                                                "\"delta\":{\"type\":\"text_delta\","
                                                "\"text\":\"%s\"}}",
                                                index, deltas[i]);

      agent_test_add_typed_event (response, delta);
    }
  agent_test_add_typed_event (response, stop);
}

static void
add_end (AgentTestResponse *response,
         const char        *stop_reason,
         gint64             output_tokens)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"message_delta\","
                                           "\"delta\":{\"stop_reason\":\"%s\","
                                           "\"stop_sequence\":null},\"usage\":{\"output_tokens\":%"
                                           G_GINT64_FORMAT "}}",
                                           stop_reason, output_tokens);

  agent_test_add_typed_event (response, json);
  agent_test_add_typed_event (response, "{\"type\":\"message_stop\"}");
}

#define THINKING_1 "The user wants 2+2. "
#define THINKING_2 "I will use the calculator."
#define SIGNATURE  "EqQBCkgIARABGAIiQL+sig/nature=="

static void
add_events (AgentTestResponse  *response,
            const char * const *events)
{
  for (guint i = 0; events[i] != NULL; i++)
    agent_test_add_typed_event (response, events[i]);
}

static void
add_tool_response (AgentTestServer *server)
{
  static const char * const thinking[] = {
    "{\"type\":\"content_block_start\",\"index\":0,"
    "\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}",
    "{\"type\": \"ping\"}",
    "{\"type\":\"content_block_delta\",\"index\":0,"
    "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"" THINKING_1 "\"}}",
    "{\"type\":\"content_block_delta\",\"index\":0,"
    "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"" THINKING_2 "\"}}",
    "{\"type\":\"content_block_delta\",\"index\":0,"
    "\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" SIGNATURE "\"}}",
    "{\"type\":\"content_block_stop\",\"index\":0}",
    NULL
  };
  static const char * const text[] = { "Let me ", "compute.", NULL };
  static const char * const tool_use[] = {
    "{\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_01A\",\"name\":\"calculator\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":2,"
    "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}",
    "{\"type\":\"content_block_delta\",\"index\":2,"
    "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expres\"}}",
    "{\"type\":\"content_block_delta\",\"index\":2,"
    "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"sion\\\": \\\"2+\"}}",
    "{\"type\":\"content_block_delta\",\"index\":2,"
    "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"2\\\"}\"}}",
    "{\"type\":\"content_block_stop\",\"index\":2}",
    NULL
  };
  AgentTestResponse *r = agent_test_server_add_response (server, 200);

  add_start (r, "msg_01", 20);
  add_events (r, thinking);
  add_text_block (r, 1, text);
  add_events (r, tool_use);
  add_end (r, "tool_use", 30);
}

static void
add_text_response (AgentTestServer    *server,
                   const char * const *deltas)
{
  AgentTestResponse *r = agent_test_server_add_response (server, 200);

  add_start (r, "msg_02", 60);
  add_text_block (r, 0, deltas);
  add_end (r, "end_turn", 8);
}

static JsonObject *
nth_object (JsonArray *array,
            guint      nth)
{
  g_assert_cmpuint (nth, <, json_array_get_length (array));
  return json_array_get_object_element (array, nth);
}

static void
test_tool_round_trip (Fixture       *f,
                      gconstpointer  data)
{
  static const char * const answer[] = { "2 + 2 ", "= 4.", NULL };
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentMessage) first = NULL;
  JsonObject *body;
  JsonArray *messages;
  JsonArray *content;
  JsonArray *tools;
  JsonObject *object;
  GListModel *memory;

  agent_session_add_tool (f->session, calculator);
  agent_session_set_system_prompt (f->session, "You are terse.");
  agent_session_set_stream_tool_call_chunks (f->session, TRUE);
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_LOW);
  agent_provider_set_max_tokens (f->provider, 2000);
  add_tool_response (f->server);
  add_text_response (f->server, answer);

  agent_test_turn_run (&f->turn, f->session, "What is 2+2?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "2 + 2 = 4.");
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "end_turn");
  g_assert_cmpstr (agent_message_get_response_id (f->turn.result), ==, "msg_02");
  g_assert_cmpstr (agent_message_get_model (f->turn.result), ==, "claude-test-20250101");
  g_assert_cmpstr (f->text->str, ==, "Let me compute.2 + 2 = 4.");
  g_assert_cmpstr (f->fragments->str, ==, "{\"expression\": \"2+2\"}");
  /* Thinking streamed as reasoning, kept out of the answer */
  g_assert_cmpstr (f->reasoning->str, ==, THINKING_1 THINKING_2);

  memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 4);
  first = g_list_model_get_item (memory, 1);
  g_assert_cmpstr (agent_message_get_content (first), ==, "Let me compute.");
  g_assert_cmpstr (agent_message_get_reasoning (first), ==, THINKING_1 THINKING_2);
  g_assert_cmpstr (agent_message_get_finish_reason (first), ==, "tool_use");
  g_assert_cmpuint (agent_message_get_n_tool_calls (first), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_result (agent_message_get_tool_call (first, 0)), ==, "4");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (first)), ==, 50);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (f->session)), ==, 118);

  /* Both requests: path, headers, options */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (f->server, i), ==, "/v1/messages");
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "x-api-key"), ==,
                       API_KEY);
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "anthropic-version"), ==,
                       "2023-06-01");
      g_assert_null (agent_test_server_get_request_header (f->server, i, "Authorization"));
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Accept"), ==,
                       "text/event-stream");

      body = agent_test_openai_get_request (f->server, i);
      g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "claude-test");
      g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 2000);
      g_assert_true (json_object_get_boolean_member (body, "stream"));
      g_assert_cmpstr (json_object_get_string_member (body, "system"), ==, "You are terse.");
      agent_test_assert_json (json_object_get_member (body, "thinking"),
                              "{\"type\":\"enabled\",\"budget_tokens\":1024}");
      g_assert_false (json_object_has_member (body, "temperature"));
      g_assert_cmpuint (json_object_get_size (body), ==, 7);

      tools = json_object_get_array_member (body, "tools");
      g_assert_cmpuint (json_array_get_length (tools), ==, 1);
      object = nth_object (tools, 0);
      g_assert_cmpuint (json_object_get_size (object), ==, 3);
      g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, "calculator");
      g_assert_cmpstr (json_object_get_string_member (object, "description"), ==,
                       agent_tool_get_description (calculator));
      g_assert_true (agent_test_json_equal (json_object_get_member (object, "input_schema"),
                                            agent_tool_get_parameters (calculator)));
    }

  messages = json_object_get_array_member (agent_test_openai_get_request (f->server, 0),
                                           "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  agent_test_assert_json (json_array_get_element (messages, 0),
                          "{\"role\":\"user\",\"content\":\"What is 2+2?\"}");

  /* The second request carries the first answer back: the thinking block
   * with its signature exactly, the text, the call with its input as an
   * object; then the result in a user message, under the call's id. */
  messages = json_object_get_array_member (agent_test_openai_get_request (f->server, 1),
                                           "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  agent_test_assert_json (json_array_get_element (messages, 0),
                          "{\"role\":\"user\",\"content\":\"What is 2+2?\"}");

  object = nth_object (messages, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "role"), ==, "assistant");
  content = json_object_get_array_member (object, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  agent_test_assert_json (json_array_get_element (content, 0),
                          "{\"type\":\"thinking\",\"thinking\":\"" THINKING_1 THINKING_2 "\","
                          "\"signature\":\"" SIGNATURE "\"}");
  agent_test_assert_json (json_array_get_element (content, 1),
                          "{\"type\":\"text\",\"text\":\"Let me compute.\"}");
  agent_test_assert_json (json_array_get_element (content, 2),
                          "{\"type\":\"tool_use\",\"id\":\"toolu_01A\",\"name\":\"calculator\","
                          "\"input\":{\"expression\":\"2+2\"}}");

  agent_test_assert_json (json_array_get_element (messages, 2),
                          "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                          "\"tool_use_id\":\"toolu_01A\",\"content\":\"4\"}]}");
}

/* The API's own error body, with the key echoed back in it. */
static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  AgentTestResponse *r;
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));

  r = agent_test_server_add_response (f->server, 400);
  agent_test_response_set_body (r, "application/json",
                                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                                "\"message\":\"max_tokens: 999999 > 64000, the maximum\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "max_tokens: 999999 > 64000, the maximum"));
  g_assert_nonnull (strstr (f->turn.error->message, "invalid_request_error"));
  g_assert_nonnull (strstr (f->turn.error->message, "400"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 1);

  r = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (r, "application/json",
                                "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                                "\"message\":\"invalid x-api-key " API_KEY "\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (f->turn.error->message, "invalid x-api-key"));
  g_assert_null (strstr (f->turn.error->message, API_KEY));
}

/* An error event in the middle of a 200 stream: the provider's message,
 * and what streamed before it kept as an interrupted message. */
static void
test_stream_error (Fixture       *f,
                   gconstpointer  data)
{
  static const char * const partial[] = { "Partial ", "answer", NULL };
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_autoptr(AgentMessage) message = NULL;
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_e", 5);
  add_text_block (r, 0, partial);
  agent_test_add_typed_event (r, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                                 "\"message\":\"Overloaded (key " API_KEY ")\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "Overloaded"));
  g_assert_nonnull (strstr (f->turn.error->message, "overloaded_error"));
  g_assert_null (strstr (f->turn.error->message, API_KEY));
  g_assert_cmpstr (f->text->str, ==, "Partial answer");

  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);
  message = g_list_model_get_item (memory, 1);
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Partial answer");
}

/* A body that ends without the stop reason, or without any event. */
static void
test_cut_off (Fixture       *f,
              gconstpointer  data)
{
  static const char * const partial[] = { "Cut ", NULL };
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_c", 5);
  add_text_block (r, 0, partial);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (f->text->str, ==, "Cut ");

  /* The last event cut in the middle, after the stop reason: whole. */
  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_d", 5);
  add_text_block (r, 0, partial);
  agent_test_add_typed_event (r, "{\"type\":\"message_delta\","
                                 "\"delta\":{\"stop_reason\":\"end_turn\"},"
                                 "\"usage\":{\"output_tokens\":2}}");
  agent_test_response_add_bytes (r, "event: message_stop\ndata: {\"type\":\"mess", -1);
  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Cut ");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* Report every broken file, not only the first. */
  g_test_set_nonfatal_assertions ();

  agent_test_add_corpus_cases ("/anthropic/corpus", "anthropic", ".sse", modes, test_corpus);
  g_test_add_func ("/anthropic/wire/extra-blocks", test_wire_extra_blocks);
  g_test_add_func ("/anthropic/wire/incomplete", test_wire_incomplete);
  g_test_add ("/anthropic/session/tool-round-trip", Fixture, NULL,
              fixture_setup, test_tool_round_trip, fixture_teardown);
  g_test_add ("/anthropic/session/http-error", Fixture, NULL,
              fixture_setup, test_http_error, fixture_teardown);
  g_test_add ("/anthropic/session/stream-error", Fixture, NULL,
              fixture_setup, test_stream_error, fixture_teardown);
  g_test_add ("/anthropic/session/cut-off", Fixture, NULL,
              fixture_setup, test_cut_off, fixture_teardown);

  return g_test_run ();
}
