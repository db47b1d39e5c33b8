/* test-provider-openai-responses.c — the OpenAI Responses backend: streams
 *
 *  - /openai-responses/corpus: every tests/corpus/openai-responses/<name>.sse,
 *    decoded by the backend fed whole, one byte at a time and in random
 *    pieces (and cut in two, under 4 KiB), against the "result" of its
 *    .expected.json (conventions in tests/corpus/MANIFEST.md): id, model,
 *    status (as the finish reason libagent derives from it), usage (raw,
 *    and the counts read from it), the error event, and each output item:
 *    function calls (call_id as the call's id, the item id in its provider
 *    data, name, arguments, whether they are valid JSON), the text of the
 *    message items, the summary and reasoning text of the reasoning
 *    items, and the reasoning items kept whole (id, encrypted content) in
 *    the message's provider data. What the listener heard is checked
 *    against the message.
 *    Not compared: each item's "status" (libagent has no item status; the
 *    calls' state is checked instead), the message items' "role" (always
 *    assistant: checked through the message's role), "response_error" of
 *    the file that also has an "error" event (decoding stops at that first
 *    error, before response.failed; response.failed alone is tested
 *    below), and "transport" other than events_dispatched (framing is
 *    test-sse's).
 *  - decoding details: items only sent whole, separators, item_id keys,
 *    truncated streams, [DONE].
 *
 * Sessions are test-provider-openai-responses-session's.
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

/* provider_data["openai-responses"] */
static JsonObject *
own_data (JsonNode *provider_data)
{
  JsonObject *object = provider_data && JSON_NODE_HOLDS_OBJECT (provider_data)
                     ? json_node_get_object (provider_data) : NULL;

  return agent_test_member_object (object, "openai-responses");
}

static JsonArray *
message_output (AgentMessage *message)
{
  JsonObject *data = own_data (agent_message_get_provider_data (message));

  return data ? json_object_get_array_member (data, "output") : NULL;
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

      if (g_strcmp0 (agent_test_member_string (item, "type"), "reasoning") != 0)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          JsonArray *texts = agent_test_member_array (item, kinds[k]);

          for (guint t = 0; texts != NULL && t < json_array_get_length (texts); t++)
            g_ptr_array_add (parts, (gpointer) json_array_get_string_element (texts, t));
        }
    }

  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  return g_strjoinv ("\n\n", (char **) parts->pdata);
}

/* The counts are read from the provider's fields. */
static const AgentTestUsageNames usage_names = {
  "input_tokens", "output_tokens", "total_tokens",
  "output_tokens_details.reasoning_tokens", "input_tokens_details.cached_tokens",
};

/* A function_call output item against the call */
static void
compare_call (GString       *problems,
              JsonObject    *item,
              AgentToolCall *call,
              guint          index,
              gboolean       complete,
              JsonObject    *kept_item)
{
  const char *arguments = agent_tool_call_get_arguments (call);
  const char *call_id = agent_test_member_string (item, "call_id");
  JsonNode *provider_data = agent_tool_call_get_provider_data (call);
  g_autoptr(JsonNode) parsed = agent_tool_call_parse_arguments (call, NULL);

  agent_test_expect_int (problems, "call index", index, agent_tool_call_get_index (call));
  agent_test_expect_call_id (problems, "call (call_id)", call, call_id, AGENT_TEST_CALLS_READY);
  agent_test_expect_str (problems, "call item id (provider data)",
                         agent_test_member_string (item, "id"),
                         agent_test_member_string (own_data (provider_data), "id"));
  agent_test_expect_str (problems, "call name", agent_test_member_string (item, "name"),
                         agent_tool_call_get_name (call));
  agent_test_expect_str (problems, "call arguments", agent_test_member_string (item, "arguments"),
                         arguments);
  agent_test_expect_int (problems, "arguments_valid_json",
                         json_object_get_boolean_member (item, "arguments_valid_json"),
                         arguments[0] != '\0' && parsed != NULL);
  agent_test_expect_call_state (problems, "call", call, AGENT_TEST_CALLS_READY);
  if (complete)
    agent_test_expect_str (problems, "call place (provider data)", call_id,
                           agent_test_member_string (kept_item, "call_id"));
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

  agent_test_expect_int (problems, "output items kept in the provider data",
                         complete ? json_array_get_length (output) : 0,
                         kept ? json_array_get_length (kept) : 0);

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);
      const char *type = agent_test_member_string (item, "type");
      JsonObject *kept_item = kept && i < json_array_get_length (kept)
                            ? json_array_get_object_element (kept, i) : NULL;
      g_autofree char *what = g_strdup_printf ("output[%u] (%s)", i, type);

      agent_test_expect_int (problems, "output_index", i,
                             agent_test_member_int (item, "output_index"));
      if (complete)
        agent_test_expect_str (problems, what, type, agent_test_member_string (kept_item, "type"));

      if (g_strcmp0 (type, "function_call") == 0)
        {
          if (n_calls >= agent_message_get_n_tool_calls (message))
            {
              g_string_append_printf (problems, "\n  %s: no such call", what);
              continue;
            }
          compare_call (problems, item, agent_message_get_tool_call (message, n_calls), n_calls,
                        complete, kept_item);
          n_calls++;
        }
      else if (g_strcmp0 (type, "message") == 0)
        g_ptr_array_add (texts, (gpointer) agent_test_member_string (item, "text"));
      else if (g_strcmp0 (type, "reasoning") == 0 && complete)
        {
          /* Kept whole, to be sent back as it came */
          agent_test_expect_str (problems, "reasoning item id (provider data)",
                                 agent_test_member_string (item, "id"),
                                 agent_test_member_string (kept_item, "id"));
          agent_test_expect_int (problems, "reasoning item encrypted content (provider data)",
                                 json_object_has_member (item, "has_encrypted_content") &&
                                 json_object_get_boolean_member (item, "has_encrypted_content"),
                                 agent_test_member_string (kept_item, "encrypted_content") != NULL);
        }
    }

  agent_test_expect_int (problems, "number of calls", n_calls,
                         agent_message_get_n_tool_calls (message));
  g_ptr_array_add (texts, NULL);
  /* Joined with nothing, as the SDKs' output_text */
  text = texts->len > 1 ? g_strjoinv ("", (char **) texts->pdata) : NULL;
  agent_test_expect_str (problems, "content", text, agent_message_get_content (message));
  agent_test_expect_str (problems, "reasoning", reasoning, agent_message_get_reasoning (message));
}

/* An AgentTestReplayCheck, of an AgentTestCorpusFile */
static char *
replay_compare (AgentTestReplay *r,
                gpointer         user_data)
{
  AgentTestCorpusFile *file = user_data;
  g_autoptr(GString) problems = g_string_new (NULL);
  JsonObject *result = file->result;
  JsonObject *error_event = agent_test_member_object (agent_test_member_object (result, "error"),
                                                      "error");
  JsonArray *output = json_object_get_array_member (result, "output");
  AgentMessage *message = agent_test_replay_get_message (r);
  const char *status = agent_test_member_string (result, "status");
  const char *finish_reason = NULL;
  gboolean has_calls = FALSE;

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);

      has_calls = has_calls ||
                  g_strcmp0 (agent_test_member_string (item, "type"), "function_call") == 0;
    }

  if (error_event != NULL)
    {
      const char *provider_message = agent_test_member_string (error_event, "message");

      agent_test_expect_true (problems, "the error event is AGENT_ERROR_PROVIDER",
                              g_error_matches (r->error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
      agent_test_expect_true (problems, "the error carries the provider's message",
                              r->error != NULL &&
                              strstr (r->error->message, provider_message) != NULL);
      agent_test_expect_true (problems, "finish() fails after an error", !r->finish_ok);
    }
  else
    {
      if (r->error != NULL)
        agent_test_expect_str (problems, "error", NULL, r->error->message);
      agent_test_expect_true (problems, "finish() succeeds", r->finish_ok);
      agent_test_expect_true (problems, "the end marker was seen",
                              agent_stream_decoder_is_done (r->decoder));
      agent_test_expect_int (problems, "events decoded",
                             agent_test_member_int (file->transport, "events_dispatched"),
                             agent_stream_decoder_get_n_events (r->decoder));
    }

  /* The API has no finish reason: libagent derives it from the status. */
  if (g_strcmp0 (status, "completed") == 0)
    finish_reason = has_calls ? "tool_calls" : "stop";
  else if (g_strcmp0 (status, "incomplete") == 0)
    finish_reason = "length";
  agent_test_expect_str (problems, "finish reason", finish_reason,
                         agent_message_get_finish_reason (message));

  agent_test_expect_str (problems, "id", agent_test_member_string (result, "id"),
                         agent_message_get_response_id (message));
  agent_test_expect_str (problems, "model", agent_test_member_string (result, "model"),
                         agent_message_get_model (message));
  agent_test_expect_usage (problems, agent_message_get_usage (message),
                           json_object_get_member (result, "usage"), &usage_names);
  compare_output (problems, message, output, error_event == NULL);
  agent_test_expect_heard (problems, r, NULL);

  return problems->len > 0 ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

static void
test_corpus (gconstpointer data)
{
  AgentTestCorpusFile file;

  agent_test_corpus_file_load (&file, data, ".sse");
  agent_test_replay_body (&agent_openai_responses_backend, file.body, file.body_len,
                          AGENT_TEST_REPLAY_ALL, replay_compare, &file);
  agent_test_corpus_file_clear (&file);
}

/* Decoding details */

static AgentTestReplay *
replay_events (const char * const *events,
               AgentTestFeedMode   mode)
{
  AgentTestReplay *r = new_replay ();
  g_autoptr(GString) body = g_string_new (NULL);

  for (guint i = 0; events[i] != NULL; i++)
    {
      g_autofree char *json = agent_test_json_text (events[i]);

      agent_test_append_typed_event (body, json);
    }
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
  g_assert_cmpstr (agent_test_member_string (own_data (agent_tool_call_get_provider_data (call)),
                                             "id"), ==,
                   "fc_2");
  g_assert_cmpstr (agent_message_get_finish_reason (message), ==, "tool_calls");
  g_assert_cmpuint (json_array_get_length (message_output (message)), ==, 4);
}

/* Two summary parts are paragraphs apart, two message items joined with
 * nothing but a content break; argument deltas keyed by item_id alone; a
 * refusal. */
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
      guint n_breaks = 0;

      g_assert_no_error (r->error);
      g_assert_cmpstr (r->problems->str, ==, "");
      g_assert_cmpstr (agent_message_get_reasoning (message), ==, "One\n\nTwo");
      /* The text of the two message items as it came; where B begins */
      g_assert_cmpstr (agent_message_get_content (message), ==, "AB");
      g_assert_cmpuint (agent_message_get_content_breaks (message, &n_breaks)[0], ==, 1);
      g_assert_cmpuint (n_breaks, ==, 1);
      g_assert_cmpstr (agent_message_get_refusal (message), ==, "No.");
      g_assert_cmpstr (r->text->str, ==, "AB");
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

  return g_test_run ();
}
