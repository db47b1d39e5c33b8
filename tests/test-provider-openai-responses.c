/* test-provider-openai-responses.c — the OpenAI Responses backend
 *
 *  - /openai-responses/corpus: every tests/corpus/openai-responses/<name>.sse,
 *    decoded by the backend fed whole, one byte at a time and in random
 *    pieces, against the "result" of its .expected.json (conventions in
 *    tests/corpus/MANIFEST.md): id, model, status (as the finish reason
 *    libagent derives from it), usage (raw, and the counts read from it),
 *    the error event, and each output item: function calls (call_id as
 *    the call's id, the item id in its provider data, name, arguments,
 *    whether they are valid JSON), the text of the message items, the
 *    summary and reasoning text of the reasoning items, and the reasoning
 *    items kept whole (id, encrypted content) in the message's provider
 *    data. What the listener heard is checked against the message.
 *    Not compared: each item's "status" (libagent has no item status; the
 *    calls' state is checked instead), the message items' "role" (always
 *    assistant: checked through the message's role), "response_error" of
 *    the file that also has an "error" event (decoding stops at that first
 *    error, before response.failed; response.failed alone is tested
 *    below), and "transport" other than events_dispatched (framing is
 *    test-sse's).
 *  - decoding details: items only sent whole, separators, item_id keys,
 *    truncated streams, [DONE].
 *  - through AgentSession against the in-process server: a two-step tool
 *    round trip (the second request checked field by field), reasoning
 *    options, HTTP and mid-stream errors, incomplete answers, and model
 *    listing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-provider-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define SECRET_KEY "sk-test-SECRET-0123456789"

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

/* Helpers */

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static gint64
member_int (JsonObject *object,
            const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_int (node) : 0;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  return json_node_get_string (node);
}

/* provider_data["openai-responses"] */
static JsonObject *
own_data (JsonNode *provider_data)
{
  JsonObject *object = provider_data && JSON_NODE_HOLDS_OBJECT (provider_data)
                     ? json_node_get_object (provider_data) : NULL;

  return member_object (object, "openai-responses");
}

static JsonArray *
message_output (AgentMessage *message)
{
  JsonObject *data = own_data (agent_message_get_provider_data (message));

  return data ? json_object_get_array_member (data, "output") : NULL;
}

static void
expect_str (GString    *problems,
            const char *what,
            const char *expected,
            const char *actual)
{
  if (g_strcmp0 (expected, actual) != 0)
    g_string_append_printf (problems, "\n  %s: expected “%s”, got “%s”", what,
                            expected ? expected : "(null)", actual ? actual : "(null)");
}

static void
expect_int (GString    *problems,
            const char *what,
            gint64      expected,
            gint64      actual)
{
  if (expected != actual)
    g_string_append_printf (problems,
                            "\n  %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT,
                            what, expected, actual);
}

static void
expect_true (GString    *problems,
             const char *what,
             gboolean    value)
{
  if (!value)
    g_string_append_printf (problems, "\n  %s", what);
}

/* The JSON in this file is written with ' for " (and \\' for \\"), to be
 * readable: the real text. */
static char *
json_text (const char *quoted)
{
  return g_strdelimit (g_strdup (quoted), "'", '"');
}

/* One SSE event as the API sends it, with its type on the event: line */
static void
append_event (GString    *body,
              const char *quoted)
{
  g_autofree char *json = json_text (quoted);
  g_autoptr(JsonNode) node = agent_test_parse_json (json);
  const char *type = json_object_get_string_member (json_node_get_object (node), "type");

  g_string_append_printf (body, "event: %s\ndata: %s\n\n", type, json);
}

static void
add_event (AgentTestResponse *response,
           const char        *quoted)
{
  g_autoptr(GString) event = g_string_new (NULL);

  append_event (event, quoted);
  agent_test_response_add_bytes (response, event->str, event->len);
}

static void
set_json_body (AgentTestResponse *response,
               const char        *quoted)
{
  g_autofree char *json = json_text (quoted);

  agent_test_response_set_body (response, "application/json", json);
}

static AgentTestReplay *
new_replay (void)
{
  return agent_test_replay_new_for_backend (&agent_openai_responses_backend);
}

/* The corpus */

/* The expected reasoning: every summary_text then reasoning_text part of
 * every reasoning item, in order, one paragraph each. */
static char *
expected_reasoning (JsonArray *output)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);
      static const char * const kinds[] = { "summary_text", "reasoning_text" };

      if (g_strcmp0 (member_string (item, "type"), "reasoning") != 0)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          JsonNode *node = json_object_get_member (item, kinds[k]);
          JsonArray *texts = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node)
                                                                  : NULL;

          for (guint t = 0; texts != NULL && t < json_array_get_length (texts); t++)
            g_ptr_array_add (parts, (gpointer) json_array_get_string_element (texts, t));
        }
    }

  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  return g_strjoinv ("\n\n", (char **) parts->pdata);
}

static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonNode   *expected)
{
  JsonObject *object;

  if (expected == NULL || JSON_NODE_HOLDS_NULL (expected))
    {
      expect_true (problems, "usage: expected none", usage == NULL);
      return;
    }
  if (usage == NULL)
    {
      expect_true (problems, "usage: expected some, got none", FALSE);
      return;
    }

  expect_true (problems, "usage: the raw object is the API's",
               agent_test_json_equal (agent_usage_get_raw (usage), expected));
  object = json_node_get_object (expected);
  expect_int (problems, "usage.prompt_tokens", member_int (object, "input_tokens"),
              agent_usage_get_prompt_tokens (usage));
  expect_int (problems, "usage.completion_tokens", member_int (object, "output_tokens"),
              agent_usage_get_completion_tokens (usage));
  expect_int (problems, "usage.total_tokens", member_int (object, "total_tokens"),
              agent_usage_get_total_tokens (usage));
  expect_int (problems, "usage.reasoning_tokens",
              member_int (member_object (object, "output_tokens_details"), "reasoning_tokens"),
              agent_usage_get_reasoning_tokens (usage));
  expect_int (problems, "usage.cached_tokens",
              member_int (member_object (object, "input_tokens_details"), "cached_tokens"),
              agent_usage_get_cached_tokens (usage));
}

/* The output items against the message: its calls, text, reasoning and
 * provider data. */
static void
compare_output (GString      *problems,
                AgentMessage *message,
                JsonArray    *output,
                gboolean      complete)
{
  JsonArray *kept = message_output (message);
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autofree char *reasoning = expected_reasoning (output);
  guint n_calls = 0;

  expect_int (problems, "output items kept in the provider data",
              complete ? json_array_get_length (output) : 0,
              kept ? json_array_get_length (kept) : 0);

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);
      const char *type = member_string (item, "type");
      JsonObject *kept_item = kept && i < json_array_get_length (kept)
                            ? json_array_get_object_element (kept, i) : NULL;
      g_autofree char *what = g_strdup_printf ("output[%u] (%s)", i, type);

      expect_int (problems, "output_index", i, member_int (item, "output_index"));
      if (complete)
        expect_str (problems, what, type, member_string (kept_item, "type"));

      if (g_strcmp0 (type, "function_call") == 0)
        {
          AgentToolCall *call = n_calls < agent_message_get_n_tool_calls (message)
                              ? agent_message_get_tool_call (message, n_calls) : NULL;
          const char *arguments = call ? agent_tool_call_get_arguments (call) : NULL;
          g_autoptr(JsonNode) parsed = NULL;

          if (call == NULL)
            {
              g_string_append_printf (problems, "\n  %s: no such call", what);
              continue;
            }
          expect_int (problems, "call index", n_calls, agent_tool_call_get_index (call));
          expect_str (problems, "call id (call_id)", member_string (item, "call_id"),
                      agent_tool_call_get_id (call));
          expect_str (problems, "call item id (provider data)", member_string (item, "id"),
                      member_string (own_data (agent_tool_call_get_provider_data (call)), "id"));
          expect_str (problems, "call name", member_string (item, "name"),
                      agent_tool_call_get_name (call));
          expect_str (problems, "call arguments", member_string (item, "arguments"), arguments);
          parsed = agent_tool_call_parse_arguments (call, NULL);
          expect_int (problems, "arguments_valid_json",
                      json_object_get_boolean_member (item, "arguments_valid_json"),
                      arguments[0] != '\0' && parsed != NULL);
          expect_int (problems, "call state", AGENT_TOOL_CALL_STATE_READY,
                      agent_tool_call_get_state (call));
          if (complete)
            expect_str (problems, "call place (provider data)", member_string (item, "call_id"),
                        member_string (kept_item, "call_id"));
          n_calls++;
        }
      else if (g_strcmp0 (type, "message") == 0)
        g_ptr_array_add (texts, (gpointer) member_string (item, "text"));
      else if (g_strcmp0 (type, "reasoning") == 0 && complete)
        {
          /* Kept whole, to be sent back as it came */
          expect_str (problems, "reasoning item id (provider data)", member_string (item, "id"),
                      member_string (kept_item, "id"));
          expect_int (problems, "reasoning item encrypted content (provider data)",
                      json_object_has_member (item, "has_encrypted_content") &&
                      json_object_get_boolean_member (item, "has_encrypted_content"),
                      member_string (kept_item, "encrypted_content") != NULL);
        }
    }

  expect_int (problems, "number of calls", n_calls, agent_message_get_n_tool_calls (message));
  g_ptr_array_add (texts, NULL);
  text = texts->len > 1 ? g_strjoinv ("\n\n", (char **) texts->pdata) : NULL;
  expect_str (problems, "content", text, agent_message_get_content (message));
  expect_str (problems, "reasoning", reasoning, agent_message_get_reasoning (message));
}

static char *
replay_compare (AgentTestReplay *r,
                JsonObject      *expected)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  JsonObject *result = json_object_get_object_member (expected, "result");
  JsonObject *transport = json_object_get_object_member (expected, "transport");
  JsonObject *error_event = member_object (member_object (result, "error"), "error");
  JsonArray *output = json_object_get_array_member (result, "output");
  AgentMessage *message = agent_test_replay_get_message (r);
  const char *status = member_string (result, "status");
  const char *finish_reason = NULL;
  gboolean has_calls = FALSE;

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);

      has_calls = has_calls || g_strcmp0 (member_string (item, "type"), "function_call") == 0;
    }

  if (error_event != NULL)
    {
      const char *provider_message = member_string (error_event, "message");

      expect_true (problems, "the error event is AGENT_ERROR_PROVIDER",
                   g_error_matches (r->error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
      expect_true (problems, "the error carries the provider's message",
                   r->error != NULL && strstr (r->error->message, provider_message) != NULL);
      expect_true (problems, "finish() fails after an error", !r->finish_ok);
    }
  else
    {
      if (r->error != NULL)
        expect_str (problems, "error", NULL, r->error->message);
      expect_true (problems, "finish() succeeds", r->finish_ok);
      expect_true (problems, "the end marker was seen", agent_stream_decoder_is_done (r->decoder));
      expect_int (problems, "events decoded", member_int (transport, "events_dispatched"),
                  agent_stream_decoder_get_n_events (r->decoder));
    }

  /* The API has no finish reason: libagent derives it from the status. */
  if (g_strcmp0 (status, "completed") == 0)
    finish_reason = has_calls ? "tool_calls" : "stop";
  else if (g_strcmp0 (status, "incomplete") == 0)
    finish_reason = "length";
  expect_str (problems, "finish reason", finish_reason, agent_message_get_finish_reason (message));

  expect_str (problems, "id", member_string (result, "id"),
              agent_message_get_response_id (message));
  expect_str (problems, "model", member_string (result, "model"),
              agent_message_get_model (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_member (result, "usage"));
  compare_output (problems, message, output, error_event == NULL);

  /* What the listener heard */
  g_string_append (problems, r->problems->str);
  expect_str (problems, "text deltas", agent_message_get_content (message) ?: "", r->text->str);
  expect_str (problems, "reasoning deltas", agent_message_get_reasoning (message) ?: "",
              r->reasoning->str);
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      expect_str (problems, "a call's fragments", agent_tool_call_get_arguments (call),
                  agent_test_replay_get_fragments (r, call));
    }

  return problems->len > 0 ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

static void
test_corpus (gconstpointer data)
{
  const char *path = data;
  g_autofree char *body = NULL;
  g_autofree char *expected_path = NULL;
  g_autoptr(JsonObject) transport = NULL;
  g_autoptr(JsonNode) expected = NULL;
  gsize len;

  transport = agent_test_load_corpus_file (path, ".sse", &body, &len);
  expected_path = g_strdup_printf ("%.*s.expected.json", (int) (strlen (path) - 4), path);
  expected = agent_test_load_json (expected_path);

  for (guint mode = 0; mode < 2 + G_N_ELEMENTS (seeds); mode++)
    {
      g_autoptr(AgentTestReplay) r = new_replay ();
      g_autoptr(GRand) rand = mode >= 2 ? g_rand_new_with_seed (seeds[mode - 2]) : NULL;
      g_autofree char *problems = NULL;

      agent_test_feed (agent_test_replay_feed, r, body, len,
                       mode == 0 ? AGENT_TEST_FEED_WHOLE : mode == 1 ? AGENT_TEST_FEED_BYTES
                                                                      : AGENT_TEST_FEED_RANDOM,
                       rand, &r->error);
      agent_test_replay_finish (r);

      if ((problems = replay_compare (r, json_node_get_object (expected))))
        {
          g_test_fail_printf ("%s, %s%s", path,
                              mode == 0 ? "fed whole" : mode == 1 ? "fed one byte at a time"
                                                                  : "fed in random pieces",
                              problems);
          return;
        }
    }
}

/* Decoding details */

static AgentTestReplay *
replay_events (const char * const *events,
               AgentTestFeedMode   mode)
{
  AgentTestReplay *r = new_replay ();
  g_autoptr(GString) body = g_string_new (NULL);

  for (guint i = 0; events[i] != NULL; i++)
    append_event (body, events[i]);
  agent_test_feed (agent_test_replay_feed, r, body->str, body->len, mode, NULL, &r->error);
  agent_test_replay_finish (r);
  return r;
}

#define CREATED \
  "{'type':'response.created','response':{'id':'resp_1','model':'m','status':'in_progress'}}"
#define COMPLETED \
  "{'type':'response.completed','response':{'id':'resp_1','model':'m','status':'completed'," \
  "'usage':{'input_tokens':5,'output_tokens':7,'total_tokens':12}}}"

/* Servers that only send the final items: their text is taken from them. */
static void
test_items_only_done (void)
{
  static const char * const events[] = {
    CREATED,
    "{'type':'response.output_item.done','output_index':0,'item':{'id':'rs_1','type':'reasoning',"
      "'summary':[{'type':'summary_text','text':'First.'},"
      "{'type':'summary_text','text':'Second.'}]}}",
    "{'type':'response.output_item.done','output_index':1,'item':{'id':'msg_1','type':'message',"
      "'role':'assistant','content':[{'type':'output_text','text':'Hello'}]}}",
    "{'type':'response.output_item.added','output_index':2,"
      "'item':{'id':'fc_1','type':'function_call',"
      "'call_id':'call_1','name':'f'}}",
    "{'type':'response.output_item.done','output_index':2,"
      "'item':{'id':'fc_1','type':'function_call',"
      "'call_id':'call_1','name':'f','arguments':'{\\'a\\':1}'}}",
    /* A call seen only once it is done */
    "{'type':'response.output_item.done','output_index':3,"
      "'item':{'id':'fc_2','type':'function_call',"
      "'call_id':'call_2','name':'g','arguments':'{}'}}",
    COMPLETED,
    NULL
  };
  g_autoptr(AgentTestReplay) r = replay_events (events, AGENT_TEST_FEED_WHOLE);
  AgentMessage *message = agent_test_replay_get_message (r);
  AgentToolCall *call;

  g_assert_no_error (r->error);
  g_assert_true (r->finish_ok);
  g_assert_cmpstr (r->problems->str, ==, "");
  g_assert_cmpstr (agent_message_get_reasoning (message), ==, "First.\n\nSecond.");
  g_assert_cmpstr (agent_message_get_content (message), ==, "Hello");
  g_assert_cmpstr (r->reasoning->str, ==, "First.\n\nSecond.");
  g_assert_cmpstr (r->text->str, ==, "Hello");
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 2);
  call = agent_message_get_tool_call (message, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"a\":1}");
  g_assert_cmpstr (agent_test_replay_get_fragments (r, call), ==, "{\"a\":1}");
  call = agent_message_get_tool_call (message, 1);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_2");
  g_assert_cmpstr (agent_tool_call_get_name (call), ==, "g");
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{}");
  g_assert_cmpstr (member_string (own_data (agent_tool_call_get_provider_data (call)), "id"), ==,
                   "fc_2");
  g_assert_cmpstr (agent_message_get_finish_reason (message), ==, "tool_calls");
  g_assert_cmpuint (json_array_get_length (message_output (message)), ==, 4);
}

/* Two message items and two summary parts are paragraphs apart; argument
 * deltas keyed by item_id alone; a refusal. */
static void
test_separators_and_item_ids (void)
{
  static const char * const events[] = {
    CREATED,
    "{'type':'response.output_item.added','output_index':0,"
      "'item':{'id':'rs_1','type':'reasoning','summary':[]}}",
    "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
      "'summary_index':0,'delta':'One'}",
    "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
      "'summary_index':1,'delta':'Two'}",
    "{'type':'response.output_item.done','output_index':0,'item':{'id':'rs_1','type':'reasoning',"
      "'summary':[{'type':'summary_text','text':'One'},{'type':'summary_text','text':'Two'}]}}",
    "{'type':'response.output_item.added','output_index':1,"
      "'item':{'id':'msg_1','type':'message','content':[]}}",
    "{'type':'response.output_text.delta','item_id':'msg_1','output_index':1,"
      "'content_index':0,'delta':'A'}",
    "{'type':'response.output_item.added','output_index':2,"
      "'item':{'id':'msg_2','type':'message','content':[]}}",
    "{'type':'response.output_text.delta','item_id':'msg_2','content_index':0,'delta':'B'}",
    "{'type':'response.refusal.delta','item_id':'msg_2','content_index':1,'delta':'No.'}",
    "{'type':'response.output_item.added','output_index':3,"
      "'item':{'id':'fc_1','type':'function_call',"
      "'call_id':'call_1','name':'f','arguments':''}}",
    "{'type':'response.function_call_arguments.delta','item_id':'fc_1','delta':'{\\'x\\''}",
    "{'type':'response.function_call_arguments.delta','item_id':'fc_1','delta':':2}'}",
    "{'type':'response.function_call_arguments.done','item_id':'fc_1','arguments':'{\\'x\\':2}'}",
    COMPLETED,
    NULL
  };

  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      g_autoptr(AgentTestReplay) r = replay_events (events, mode);
      AgentMessage *message = agent_test_replay_get_message (r);
      AgentToolCall *call;

      g_assert_no_error (r->error);
      g_assert_cmpstr (r->problems->str, ==, "");
      g_assert_cmpstr (agent_message_get_reasoning (message), ==, "One\n\nTwo");
      g_assert_cmpstr (agent_message_get_content (message), ==, "A\n\nB");
      g_assert_cmpstr (agent_message_get_refusal (message), ==, "No.");
      g_assert_cmpstr (r->text->str, ==, "A\n\nB");
      g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 1);
      call = agent_message_get_tool_call (message, 0);
      g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"x\":2}");
      g_assert_cmpstr (agent_test_replay_get_fragments (r, call), ==, "{\"x\":2}");
      g_assert_cmpuint (r->n_fragments, ==, 2);
    }
}

/* The end of the stream without response.completed: cut off. */
static void
test_truncated (void)
{
  static const char * const events[] = {
    CREATED,
    "{'type':'response.output_item.added','output_index':0,"
      "'item':{'id':'msg_1','type':'message','content':[]}}",
    "{'type':'response.output_text.delta','output_index':0,'content_index':0,'delta':'Half'}",
    NULL
  };
  g_autoptr(AgentTestReplay) r = replay_events (events, AGENT_TEST_FEED_WHOLE);

  g_assert_no_error (r->error);
  g_assert_false (r->finish_ok);
  g_assert_error (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (agent_test_replay_get_message (r)), ==, "Half");
  g_assert_null (agent_message_get_finish_reason (agent_test_replay_get_message (r)));
}

/* Some compatible servers end with data: [DONE] */
static void
test_done_marker (void)
{
  g_autoptr(AgentTestReplay) r = new_replay ();
  static const char body[] =
    "event: response.output_text.delta\n"
    "data: {\"type\":\"response.output_text.delta\",\"output_index\":0,"
    "\"content_index\":0,\"delta\":\"Hi\"}\n\n"
    "data: [DONE]\n\n";

  agent_test_feed (agent_test_replay_feed, r, body, strlen (body), AGENT_TEST_FEED_BYTES, NULL,
                   &r->error);
  agent_test_replay_finish (r);
  g_assert_no_error (r->error);
  g_assert_true (r->finish_ok);
  g_assert_cmpstr (agent_message_get_content (agent_test_replay_get_message (r)), ==, "Hi");
  g_assert_cmpstr (agent_message_get_finish_reason (agent_test_replay_get_message (r)), ==, "stop");
}

/* response.failed alone, and an error event in its other shape */
static void
test_failed_events (void)
{
  static const char * const failed[] = {
    CREATED,
    "{'type':'response.failed','response':{'id':'resp_1','status':'failed',"
      "'error':{'code':'server_error','message':'Something broke'}}}",
    NULL
  };
  static const char * const failed_without_error[] = {
    "{'type':'response.failed','response':{'id':'resp_1','status':'failed','error':null}}",
    NULL
  };
  static const char * const error_event[] = {
    "{'type':'error','code':'rate_limit_exceeded','message':'Slow down','param':null}",
    NULL
  };
  g_autoptr(AgentTestReplay) r1 = replay_events (failed, AGENT_TEST_FEED_WHOLE);
  g_autoptr(AgentTestReplay) r2 = replay_events (failed_without_error, AGENT_TEST_FEED_WHOLE);
  g_autoptr(AgentTestReplay) r3 = replay_events (error_event, AGENT_TEST_FEED_BYTES);

  g_assert_error (r1->error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (r1->error->message, "Something broke"));
  g_assert_nonnull (strstr (r1->error->message, "server_error"));
  g_assert_error (r2->error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_error (r3->error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (r3->error->message, "Slow down"));
}

/* Through a session */

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GString         *text;
  GString         *reasoning;
  AgentTestTurn    turn;
} Fixture;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
}

static void
reasoning_delta_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    Fixture      *f)
{
  g_string_append (f->reasoning, delta);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(GError) error = NULL;

  f->server = agent_test_server_new ();
  f->provider = agent_provider_new ("openai-responses", &error);
  g_assert_no_error (error);
  agent_provider_set_base_url (f->provider, agent_test_server_get_base_url (f->server));
  agent_provider_set_model (f->provider, "gpt-5-test");
  agent_provider_set_api_key (f->provider, SECRET_KEY);
  f->session = agent_session_new (f->provider);
  agent_session_add_tool (f->session, calculator);
  f->text = g_string_new (NULL);
  f->reasoning = g_string_new (NULL);

  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (f->session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), f);
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
  g_string_free (f->reasoning, TRUE);
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

static JsonObject *
request_body (Fixture *f,
              guint    index)
{
  JsonNode *body = agent_test_server_get_request_body (f->server, index);

  g_assert_nonnull (body);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (body));
  return json_node_get_object (body);
}

static JsonObject *
input_item (Fixture *f,
            guint    index,
            guint    nth)
{
  JsonArray *input = json_object_get_array_member (request_body (f, index), "input");

  g_assert_cmpuint (nth, <, json_array_get_length (input));
  return json_array_get_object_element (input, nth);
}

static guint
input_length (Fixture *f,
              guint    index)
{
  return json_array_get_length (json_object_get_array_member (request_body (f, index), "input"));
}

static void
assert_json (JsonNode   *node,
             const char *quoted)
{
  g_autofree char *expected = json_text (quoted);
  g_autoptr(JsonNode) want = agent_test_parse_json (expected);

  if (!agent_test_json_equal (node, want))
    {
      g_autofree char *got = json_to_string (node, FALSE);

      g_error ("Expected %s, got %s", expected, got);
    }
}

static void
assert_object (JsonObject *object,
               const char *quoted)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  assert_json (node, quoted);
}

#define REASONING_ITEM \
  "{'id':'rs_1','type':'reasoning','encrypted_content':'gAAAAB-opaque'," \
  "'summary':[{'type':'summary_text','text':'Two times seven.'}]}"

/* The model reasons, says something, and calls the calculator with its
 * arguments in three deltas. */
static void
add_tool_step (Fixture    *f,
               const char *reasoning_item)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);
  g_autofree char *reasoning_done = NULL;

  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{'type':'response.created','sequence_number':0,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.in_progress','sequence_number':1,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':0,'sequence_number':2,"
                "'item':{'id':'rs_1','type':'reasoning','summary':[]}}");
  add_event (r, "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
                "'summary_index':0,'sequence_number':3,'delta':'Two times '}");
  add_event (r, "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
                "'summary_index':0,'sequence_number':4,'delta':'seven.'}");
  reasoning_done = g_strdup_printf ("{'type':'response.output_item.done','output_index':0,"
                                    "'sequence_number':5,'item':%s}", reasoning_item);
  add_event (r, reasoning_done);
  add_event (r, "{'type':'response.output_item.added','output_index':1,'sequence_number':6,"
                "'item':{'id':'msg_1','type':'message','status':'in_progress','role':'assistant',"
                "'content':[]}}");
  add_event (r, "{'type':'response.output_text.delta','item_id':'msg_1','output_index':1,"
                "'content_index':0,'sequence_number':7,'delta':'Let me '}");
  add_event (r, "{'type':'response.output_text.delta','item_id':'msg_1','output_index':1,"
                "'content_index':0,'sequence_number':8,'delta':'compute.'}");
  add_event (r, "{'type':'response.output_item.done','output_index':1,'sequence_number':9,"
                "'item':{'id':'msg_1','type':'message','status':'completed','role':'assistant',"
                "'content':[{'type':'output_text','annotations':[],'text':'Let me compute.'}]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':2,'sequence_number':10,"
                "'item':{'id':'fc_1','type':'function_call','status':'in_progress',"
                "'call_id':'call_1','name':'calculator','arguments':''}}");
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':11,'delta':'{\\'expression\\''}");
  agent_test_response_add_delay (r, 10);
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':12,'delta':': \\'2*'}");
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':13,'delta':'7\\'}'}");
  add_event (r, "{'type':'response.function_call_arguments.done','item_id':'fc_1','output_index':2,"
                "'sequence_number':14,'arguments':'{\\'expression\\': \\'2*7\\'}'}");
  add_event (r, "{'type':'response.output_item.done','output_index':2,'sequence_number':15,"
                "'item':{'id':'fc_1','type':'function_call','status':'completed',"
                "'call_id':'call_1','name':'calculator',"
                "'arguments':'{\\'expression\\': \\'2*7\\'}'}}");
  add_event (r, "{'type':'response.completed','sequence_number':16,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'completed','output':[],"
                "'usage':{'input_tokens':40,'input_tokens_details':{'cached_tokens':8},"
                "'output_tokens':20,'output_tokens_details':{'reasoning_tokens':12},"
                "'total_tokens':60}}}");
}

static void
add_answer_step (Fixture    *f,
                 const char *text)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);
  g_autofree char *delta = g_strdup_printf ("{'type':'response.output_text.delta','output_index':0,"
                                            "'content_index':0,'delta':'%s'}", text);

  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{'type':'response.created','response':{'id':'resp_2','model':'gpt-5-test',"
                "'status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':0,"
                "'item':{'id':'msg_2','type':'message','role':'assistant','content':[]}}");
  add_event (r, delta);
  add_event (r, "{'type':'response.completed','response':{'id':'resp_2','model':'gpt-5-test',"
                "'status':'completed',"
                "'usage':{'input_tokens':70,'output_tokens':5,'total_tokens':75}}}");
}

static void
test_tool_round_trip (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentMessage *assistant;
  AgentToolCall *call;
  JsonObject *body;

  agent_session_set_system_prompt (f->session, "Be brief.");
  agent_provider_set_max_tokens (f->provider, 512);
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_HIGH);
  add_tool_step (f, REASONING_ITEM);
  add_answer_step (f, "It is 14.");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "It is 14.");
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "stop");

  /* Reasoning streamed as reasoning, apart from the text */
  g_assert_cmpstr (f->reasoning->str, ==, "Two times seven.");
  g_assert_cmpstr (f->text->str, ==, "Let me compute.It is 14.");

  /* Memory: user, assistant with its call, tool result, answer */
  g_assert_cmpuint (memory_length (f), ==, 4);
  assistant = memory_message (f, 1);
  g_assert_cmpstr (agent_message_get_reasoning (assistant), ==, "Two times seven.");
  g_assert_cmpstr (agent_message_get_content (assistant), ==, "Let me compute.");
  g_assert_cmpstr (agent_message_get_finish_reason (assistant), ==, "tool_calls");
  g_assert_cmpstr (agent_message_get_response_id (assistant), ==, "resp_1");
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_message_get_usage (assistant)), ==, 40);
  g_assert_cmpint (agent_usage_get_reasoning_tokens (agent_message_get_usage (assistant)), ==, 12);
  g_assert_cmpint (agent_usage_get_cached_tokens (agent_message_get_usage (assistant)), ==, 8);
  call = agent_message_get_tool_call (assistant, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "14");
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 2)), ==, "14");

  /* Both requests */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (f->server, i), ==, "/v1/responses");
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Authorization"), ==,
                       "Bearer " SECRET_KEY);
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Accept"), ==,
                       "text/event-stream");
    }
  g_assert_cmpuint (input_length (f, 0), ==, 1);
  assert_object (input_item (f, 0, 0), "{'role':'user','content':'What is 2*7?'}");

  /* The second request, field by field */
  body = request_body (f, 1);
  g_assert_cmpuint (json_object_get_size (body), ==, 9);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "gpt-5-test");
  g_assert_cmpstr (json_object_get_string_member (body, "instructions"), ==, "Be brief.");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_false (json_object_get_boolean_member (body, "store"));
  g_assert_cmpint (json_object_get_int_member (body, "max_output_tokens"), ==, 512);
  assert_json (json_object_get_member (body, "reasoning"), "{'effort':'high','summary':'auto'}");
  assert_json (json_object_get_member (body, "include"), "['reasoning.encrypted_content']");
  {
    JsonArray *declared = json_object_get_array_member (body, "tools");
    JsonObject *tool = json_array_get_object_element (declared, 0);

    g_assert_cmpuint (json_array_get_length (declared), ==, 1);
    g_assert_cmpuint (json_object_get_size (tool), ==, 4);
    g_assert_cmpstr (json_object_get_string_member (tool, "type"), ==, "function");
    g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==, "calculator");
    g_assert_cmpstr (json_object_get_string_member (tool, "description"), ==,
                     agent_tool_get_description (calculator));
    g_assert_true (agent_test_json_equal (json_object_get_member (tool, "parameters"),
                                          agent_tool_get_parameters (calculator)));
  }

  /* The input: the user, the reasoning item exactly as it came, the text,
   * the call (its item id, call_id, arguments byte for byte), its result */
  g_assert_cmpuint (input_length (f, 1), ==, 5);
  assert_object (input_item (f, 1, 0), "{'role':'user','content':'What is 2*7?'}");
  assert_object (input_item (f, 1, 1), REASONING_ITEM);
  assert_object (input_item (f, 1, 2), "{'role':'assistant','content':'Let me compute.'}");
  assert_object (input_item (f, 1, 3),
                 "{'type':'function_call','id':'fc_1','call_id':'call_1','name':'calculator',"
                 "'arguments':'{\\'expression\\': \\'2*7\\'}'}");
  assert_object (input_item (f, 1, 4),
                 "{'type':'function_call_output','call_id':'call_1','output':'14'}");
}

/* Reasoning options: nothing for a model not known to reason; once it
 * reasoned, its summaries and encrypted reasoning are asked for; a
 * reasoning item without content is not sent back, nor the call's item id. */
static void
test_reasoning_options (Fixture       *f,
                        gconstpointer  data)
{
  JsonObject *body;

  add_tool_step (f, "{'id':'rs_1','type':'reasoning','summary':[]}");
  add_answer_step (f, "It is 14.");
  add_answer_step (f, "Done.");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);
  g_assert_no_error (f->turn.error);

  body = request_body (f, 0);
  g_assert_false (json_object_has_member (body, "reasoning"));
  g_assert_false (json_object_has_member (body, "include"));
  g_assert_false (json_object_has_member (body, "max_output_tokens"));
  g_assert_false (json_object_has_member (body, "instructions"));
  g_assert_false (json_object_get_boolean_member (body, "store"));

  body = request_body (f, 1);
  assert_json (json_object_get_member (body, "reasoning"), "{'summary':'auto'}");
  assert_json (json_object_get_member (body, "include"), "['reasoning.encrypted_content']");
  g_assert_cmpuint (input_length (f, 1), ==, 4);
  assert_object (input_item (f, 1, 1), "{'role':'assistant','content':'Let me compute.'}");
  assert_object (input_item (f, 1, 2),
                 "{'type':'function_call','call_id':'call_1','name':'calculator',"
                 "'arguments':'{\\'expression\\': \\'2*7\\'}'}");

  /* NONE: the lowest effort */
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_NONE);
  agent_test_turn_run (&f->turn, f->session, "Thanks", NULL);
  g_assert_no_error (f->turn.error);
  assert_json (json_object_get_member (request_body (f, 2), "reasoning"),
               "{'effort':'minimal','summary':'auto'}");
  g_assert_cmpuint (input_length (f, 2), ==, 6);
  assert_object (input_item (f, 2, 4), "{'role':'assistant','content':'It is 14.'}");
}

/* A message cut off while it reasoned (nothing follows its reasoning):
 * the reasoning item is not sent alone. */
static void
test_reasoning_cut_off (Fixture       *f,
                        gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  add_event (r, "{'type':'response.output_item.done','output_index':0,'item':" REASONING_ITEM "}");
  add_event (r, "{'type':'response.incomplete','response':{'id':'resp_1','status':'incomplete',"
                "'incomplete_details':{'reason':'max_output_tokens'}}}");
  add_answer_step (f, "Sorry.");

  agent_test_turn_run (&f->turn, f->session, "Think hard", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "length");
  g_assert_cmpstr (f->reasoning->str, ==, "Two times seven.");

  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (input_length (f, 1), ==, 2);
  assert_object (input_item (f, 1, 1), "{'role':'user','content':'Again'}");
}

/* An answer cut off at max_output_tokens while it called a tool: the call
 * is not run. */
static void
test_incomplete_tool_call (Fixture       *f,
                           gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  add_event (r, "{'type':'response.output_item.added','output_index':0,'item':{'id':'fc_1',"
                "'type':'function_call','call_id':'call_1','name':'calculator','arguments':''}}");
  add_event (r, "{'type':'response.function_call_arguments.delta','output_index':0,"
                "'delta':'{\\'expr'}");
  add_event (r, "{'type':'response.incomplete','response':{'id':'resp_1','status':'incomplete',"
                "'incomplete_details':{'reason':'max_output_tokens'}}}");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 401);
  set_json_body (r,
                 "{'error':{'message':'Incorrect API key provided: " SECRET_KEY ".',"
                 "'type':'invalid_request_error','param':null,'code':'invalid_api_key'}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (f->turn.error->message, "Incorrect API key provided"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));

  r = agent_test_server_add_response (f->server, 400);
  set_json_body (r,
                 "{'error':{'message':'Encrypted content is not supported with this model.',"
                 "'type':'invalid_request_error','param':'include','code':null}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "400"));
  g_assert_nonnull (strstr (f->turn.error->message,
                            "Encrypted content is not supported with this model."));

  g_assert_cmpuint (memory_length (f), ==, 2);
}

/* Mid-stream errors: the provider's message, without the key; what
 * streamed before stays, interrupted. */
static void
test_stream_error (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r;
  AgentMessage *message;

  r = agent_test_server_add_response (f->server, 200);
  add_event (r, "{'type':'response.output_item.added','output_index':0,'item':{'id':'msg_1',"
                "'type':'message','content':[]}}");
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'Half an '}");
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'answer'}");
  add_event (r, "{'type':'error','code':'server_error','message':'The server had an error (key "
                SECRET_KEY ")\",\"param\":null,\"sequence_number\":4}");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "The server had an error"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));
  message = memory_message (f, 1);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Half an answer");
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);

  r = agent_test_server_add_response (f->server, 200);
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'Partly'}");
  add_event (r, "{'type':'response.failed','response':{'id':'resp_2','status':'failed',"
                "'error':{'code':'rate_limit_exceeded',"
                "'message':'Rate limit reached for gpt-5-test'}}}");

  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "Rate limit reached for gpt-5-test"));
  message = memory_message (f, 3);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Partly");
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AgentTestTurn *outcome = user_data;
  g_auto(GStrv) names = NULL;

  names = agent_provider_list_models_finish (AGENT_PROVIDER (object), result, &outcome->error);

  if (names != NULL)
    {
      g_autofree char *joined = g_strjoinv (",", names);

      outcome->result = agent_message_new (AGENT_MESSAGE_ROLE_USER, joined);
    }
  outcome->finished = TRUE;
}

static void
test_list_models (Fixture       *f,
                  gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  set_json_body (r,
                 "{'object':'list','data':[{'id':'gpt-5','object':'model'},"
                 "{'id':'gpt-4o-mini','object':'model'}]}");
  agent_provider_list_models_async (f->provider, NULL, list_models_cb, &f->turn);
  agent_test_turn_wait (&f->turn);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "gpt-5,gpt-4o-mini");
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/models");
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer " SECRET_KEY);
}

static void
test_backend (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("responses", NULL);

  g_assert_cmpstr (agent_provider_get_name (provider), ==, "openai-responses");
  g_assert_cmpstr (agent_provider_get_default_base_url (provider), ==, "https://api.openai.com/v1");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "OPENAI_API_KEY");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  agent_test_add_corpus_tests ("/openai-responses/corpus", "openai-responses", ".sse", test_corpus);
  g_test_add_func ("/openai-responses/decode/items-only-done", test_items_only_done);
  g_test_add_func ("/openai-responses/decode/separators-and-item-ids",
                   test_separators_and_item_ids);
  g_test_add_func ("/openai-responses/decode/truncated", test_truncated);
  g_test_add_func ("/openai-responses/decode/done-marker", test_done_marker);
  g_test_add_func ("/openai-responses/decode/failed", test_failed_events);
  g_test_add_func ("/openai-responses/backend", test_backend);

#define ADD(path, func) \
  g_test_add ("/openai-responses/session/" path, Fixture, NULL, \
              fixture_setup, func, fixture_teardown)
  ADD ("tool-round-trip", test_tool_round_trip);
  ADD ("reasoning-options", test_reasoning_options);
  ADD ("reasoning-cut-off", test_reasoning_cut_off);
  ADD ("incomplete-tool-call", test_incomplete_tool_call);
  ADD ("http-error", test_http_error);
  ADD ("stream-error", test_stream_error);
  ADD ("list-models", test_list_models);
#undef ADD

  return g_test_run ();
}
