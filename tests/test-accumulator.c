/* test-accumulator.c — the accumulator and the openai-chat decoder, quirk by quirk:
 * tool calls, content, reasoning and errors (whole streams: test-accumulator-stream.c)
 *
 * Each test is a small hand-written stream fed through agent_stream_decoder,
 * so the SSE framing is the real one. Every stream is decoded twice, whole
 * and one byte at a time, and both must give the same message, the same
 * listener calls and the same errors.
 *
 * JSON in this file is written with ' for " (and \' for \") to stay
 * readable; see json().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "providers/agent-openai-chat-private.h"
#include "messages/agent-tool-call-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-util.h"
#include "test-accumulator-util.h"

/* OpenRouter (and others) repeat id and name on every fragment: they are
 * taken once, never appended. */
static void
test_repeated_id_name (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "get_weather", "'{\\'ci'");
  g_autofree char *c2 = tool_chunk (0, "call_1", "get_weather", "'ty\\': '");
  g_autofree char *c3 = tool_chunk (0, "call_1", "get_weather", "'\\'Paris\\'}'");
  g_autoptr(GString) body = body_new (c1, c2, c3, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  AgentToolCall *call;

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 1);
  call = run_call (run, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_name (call), ==, "get_weather");
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"city\": \"Paris\"}");
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_READY);

  /* One listener call per fragment, each with the id and name as sent. */
  g_assert_cmpuint (run->tool_deltas->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpstr (run_tool_delta (run, i)->id, ==, "call_1");
      g_assert_cmpstr (run_tool_delta (run, i)->name, ==, "get_weather");
    }
}

/* Some servers send the arguments as a JSON object: it is serialized once,
 * compactly, and is the same JSON. */
static void
test_arguments_object (void)
{
  const char *object = "{'city': 'Paris', 'days': [1, 2.5, true], 'nested': {'a': null, 'b': 'x y'}}";
  g_autofree char *c1 = tool_chunk (0, "call_1", "get_weather", object);
  g_autoptr(GString) body = body_new (c1, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autofree char *sent = json (object);
  g_autoptr(JsonNode) want = agent_test_parse_json (sent);
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  const char *arguments;

  g_assert_true (run->finish_ok);
  arguments = agent_tool_call_get_arguments (run_call (run, 0));
  parsed = agent_tool_call_parse_arguments (run_call (run, 0), &error);
  g_assert_no_error (error);
  g_assert_true (agent_test_json_equal (parsed, want));
  /* compact: the only spaces are inside the string value */
  g_assert_null (strstr (arguments, ": "));
  g_assert_null (strstr (arguments, ", "));
  g_assert_nonnull (strstr (arguments, "x y"));
  /* once: one fragment, the whole object */
  g_assert_cmpuint (run->tool_deltas->len, ==, 1);
  g_assert_cmpstr (run_tool_delta (run, 0)->fragment, ==, arguments);
}

/* A tool without parameters: "arguments": "" stays "", and parses as {} */
static void
test_arguments_empty (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "get_time", "''");
  g_autofree char *c2 = tool_chunk (0, NULL, NULL, "''");
  g_autoptr(GString) body = body_new (c1, c2, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (run->finish_ok);
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "");
  parsed = agent_tool_call_parse_arguments (run_call (run, 0), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (parsed));
  g_assert_cmpuint (json_object_get_size (json_node_get_object (parsed)), ==, 0);
  /* Announced once (id and name); the empty fragments change nothing. */
  g_assert_cmpuint (run->tool_deltas->len, ==, 1);
  g_assert_cmpuint (run_tool_delta (run, 0)->len, ==, 0);
}

/* "arguments": null, or no arguments member, contribute nothing. */
static void
test_arguments_null (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "get_time", "null");
  g_autofree char *c2 = tool_chunk (0, NULL, NULL, "null");
  g_autofree char *c3 = tool_chunk (1, "call_2", "get_date", NULL);
  g_autoptr(GString) body = body_new (c1, c2, c3, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "");
  g_assert_cmpstr (agent_tool_call_get_name (run_call (run, 0)), ==, "get_time");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 1)), ==, "");
  g_assert_cmpstr (agent_tool_call_get_name (run_call (run, 1)), ==, "get_date");
  for (guint i = 0; i < run->tool_deltas->len; i++)
    g_assert_cmpuint (run_tool_delta (run, i)->len, ==, 0);
}

/* Some servers end a tool call with "stop": the calls are still there. */
static void
test_tool_call_finish_stop (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "get_time", "'{}'");
  g_autoptr(GString) body = body_new (c1, FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_true (run->finish_ok);
  g_assert_cmpstr (agent_message_get_finish_reason (run_message (run)), ==, "stop");
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{}");
  g_assert_cmpint (agent_tool_call_get_state (run_call (run, 0)), ==, AGENT_TOOL_CALL_STATE_READY);
}

/* stream_options.include_usage: a last chunk with "choices": [] */
static void
test_usage_only_chunk (void)
{
  const char *usage = "{'prompt_tokens':10,'completion_tokens':3,'total_tokens':13,"
                      "'prompt_tokens_details':{'cached_tokens':4},"
                      "'completion_tokens_details':{'reasoning_tokens':2}}";
  g_autofree char *chunk = g_strdup_printf ("{'id':'r1','choices':[],'usage':%s}", usage);
  g_autoptr(GString) body = body_new (TEXT ("Hi"), FINISH ("stop"), chunk,
                                      /* a later "usage": null erases nothing */
                                      "{'id':'r1','choices':[],'usage':null}",
                                      "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autofree char *usage_json = json (usage);
  g_autoptr(JsonNode) want = agent_test_parse_json (usage_json);
  AgentUsage *got;

  g_assert_true (run->finish_ok);
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Hi");
  g_assert_cmpstr (agent_message_get_finish_reason (run_message (run)), ==, "stop");
  got = run_usage (run);
  g_assert_true (agent_test_json_equal (agent_usage_get_raw (got), want));
  g_assert_cmpint (agent_usage_get_prompt_tokens (got), ==, 10);
  g_assert_cmpint (agent_usage_get_completion_tokens (got), ==, 3);
  g_assert_cmpint (agent_usage_get_total_tokens (got), ==, 13);
  g_assert_cmpint (agent_usage_get_cached_tokens (got), ==, 4);
  g_assert_cmpint (agent_usage_get_reasoning_tokens (got), ==, 2);
}

/* Comments (": keep-alive", ":" alone, ": OPENROUTER PROCESSING") may come
 * anywhere, even between the data line and the blank line of an event. */
static void
test_keep_alive (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "f", "'{\\'a\\':'");
  g_autofree char *c2 = tool_chunk (0, NULL, NULL, "'1}'");
  g_autofree char *c1_json = json (c1);
  g_autofree char *split_event = g_strdup_printf ("data: %s\n: keep-alive\n:\n\n", c1_json);
  g_autoptr(GString) plain = body_new (TEXT ("Hel"), TEXT ("lo"), c1, c2, FINISH ("tool_calls"),
                                       "[DONE]", NULL);
  g_autoptr(GString) commented = body_new (": keep-alive\n\n", ":\n",
                                           TEXT ("Hel"),
                                           ": OPENROUTER PROCESSING\n\n",
                                           TEXT ("lo"),
                                           ":\n:\n: keep-alive\n",
                                           split_event,
                                           c2,
                                           FINISH ("tool_calls"),
                                           ": keep-alive\n\n",
                                           "[DONE]",
                                           ": keep-alive\n\n", NULL);
  g_autoptr(AgentTestReplay) a = decode (plain);
  g_autoptr(AgentTestReplay) b = decode (commented);
  g_autofree char *sa = summarize (a);
  g_autofree char *sb = summarize (b);

  g_assert_true (a->finish_ok);
  g_assert_cmpstr (agent_message_get_content (run_message (a)), ==, "Hello");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (a, 0)), ==, "{\"a\":1}");
  /* Same message, same listener calls, same number of events. */
  g_assert_cmpstr (sa, ==, sb);
}

static void
assert_provider_error (AgentTestReplay *run,
                       const char      *provider_message)
{
  g_assert_error (run->error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (message_of (run->error), provider_message));
  g_assert_true (g_utf8_validate (message_of (run->error), -1, NULL));
  /* The stream is over: finishing fails, and so does feeding more. */
  g_assert_false (run->finish_ok);
  g_assert_error (run->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
}

/* {"error": …} in the middle of a 200 stream, without "event: error" */
static void
test_error_object_mid_stream (void)
{
  g_autoptr(GString) body = body_new (TEXT ("Hel"), TEXT ("lo"),
                                      "{'error':{'message':'Rate limit reached for gpt-x','type':'requests','code':'rate_limit_exceeded'}}",
                                      TEXT (" never"), FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(GString) string_error = body_new (TEXT ("Hi"), "{'error':'Upstream timed out'}",
                                              "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (string_error);
  g_autoptr(GError) error = NULL;

  assert_provider_error (run, "Rate limit reached for gpt-x");
  /* What streamed before the error is kept; nothing after it is taken. */
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Hello");
  g_assert_cmpstr (run->text->str, ==, "Hello");
  g_assert_null (agent_message_get_finish_reason (run_message (run)));
  g_assert_false (agent_stream_decoder_feed (run->decoder, "\n", 1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);

  assert_provider_error (run2, "Upstream timed out");
  g_assert_cmpstr (agent_message_get_content (run_message (run2)), ==, "Hi");
}

/* "event: error" with an error body (Groq, OpenRouter) */
static void
test_event_error (void)
{
  g_autofree char *groq = json ("{'error':{'message':'Tool call validation failed','type':'invalid_request_error','code':'tool_use_failed'}}");
  g_autofree char *groq_event = g_strdup_printf ("event: error\ndata: %s\n\n", groq);
  g_autofree char *plain = json ("{'message':'Overloaded','code':529}");
  g_autofree char *plain_event = g_strdup_printf ("event: error\ndata: %s\n\n", plain);
  g_autoptr(GString) body = body_new ("{'id':'r1','choices':[{'index':0,'delta':{'reasoning':'Let me think'}}]}",
                                      groq_event, "[DONE]", NULL);
  g_autoptr(GString) body2 = body_new (TEXT ("a"), plain_event, NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (body2);

  assert_provider_error (run, "Tool call validation failed");
  g_assert_cmpstr (agent_message_get_reasoning (run_message (run)), ==, "Let me think");
  g_assert_false (agent_stream_decoder_is_done (run->decoder));

  assert_provider_error (run2, "Overloaded");
  g_assert_cmpstr (agent_message_get_content (run_message (run2)), ==, "a");
}

/* "event: error" whose data is not JSON is still the provider's error. */
static void
test_event_error_text (void)
{
  g_autoptr(GString) body = body_new (TEXT ("a"), "event: error\ndata: Internal server error\n\n", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  assert_provider_error (run, "Internal server error");
}

/* An error without a message: the error quotes the event, still as valid
 * UTF-8 however the quote is cut. */
static void
test_error_without_message (void)
{
  g_autoptr(GString) pad = g_string_new (NULL);
  g_autoptr(GString) body = NULL;
  g_autofree char *event = NULL;

  for (guint i = 0; i < 150; i++)
    g_string_append (pad, "\xc3\xa9");  /* é */
  event = g_strdup_printf ("{'error':{'code':502,'metadata':{'raw':'x%s'}}}", pad->str);
  body = body_new (TEXT ("a"), event, NULL);

  {
    g_autoptr(AgentTestReplay) run = decode (body);

    assert_provider_error (run, "502");
    g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "a");
  }
}

/* An index no server would send (out of the range of an integer) must not
 * join its fragment to another call. */
static void
test_absurd_index (void)
{
  g_autofree char *c1 = tool_chunk (-1, "a", "f", "'{}'");
  g_autofree char *c2 = tool_chunk (-1, "b", "g", "'{}'");  /* retires "a" */
  g_autoptr(GString) body = body_new (c1, c2,
                                      "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':1e300,'function':{'arguments':'X'}}]}}]}",
                                      FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), >=, 2);
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{}");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 1)), ==, "{}");
}

/* Parallel calls whose fragments interleave: keyed by index, in order of
 * first appearance; index values 1 and 3 become positions 0 and 1. */
static void
test_parallel_interleaved (void)
{
  g_autofree char *a1 = tool_chunk (1, "call_a", "get_weather", "''");
  g_autofree char *b1 = tool_chunk (3, "call_b", "get_time", "''");
  g_autofree char *a2 = tool_chunk (1, NULL, NULL, "'{\\'city\\''");
  g_autofree char *b2 = tool_chunk (3, NULL, NULL, "'{\\'tz\\':'");
  g_autofree char *a3 = tool_chunk (1, NULL, NULL, "': \\'Paris\\'}'");
  g_autofree char *b3 = tool_chunk (3, NULL, NULL, "'\\'UTC\\'}'");
  g_autoptr(GString) body = body_new (a1, b1, a2, b2, a3, b3, FINISH ("tool_calls"), "[DONE]", NULL);
  /* The same, index 3 first */
  g_autoptr(GString) reversed = body_new (b1, a1, b2, a2, b3, a3, FINISH ("tool_calls"), "[DONE]",
                                          NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (reversed);

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 2);
  g_assert_cmpuint (agent_tool_call_get_index (run_call (run, 0)), ==, 0);
  g_assert_cmpuint (agent_tool_call_get_index (run_call (run, 1)), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 0)), ==, "call_a");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{\"city\": \"Paris\"}");
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 1)), ==, "call_b");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 1)), ==, "{\"tz\":\"UTC\"}");
  /* The listener names the call each fragment belongs to. */
  g_assert_cmpuint (run->tool_deltas->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpuint (run_tool_delta (run, i)->index, ==, i % 2);

  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run2)), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run2, 0)), ==, "call_b");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run2, 0)), ==, "{\"tz\":\"UTC\"}");
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run2, 1)), ==, "call_a");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run2, 1)), ==, "{\"city\": \"Paris\"}");
}

/* Mistral leaves out "index": the position in the array is the key. */
static void
test_missing_index (void)
{
  g_autoptr(GString) body = body_new (
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':["
      "{'id':'a','function':{'name':'f','arguments':'{\\'x\\':'}},"
      "{'id':'b','function':{'name':'g','arguments':'{}'}}]}}]}",
    /* a continuation of the first call, still without index */
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':["
      "{'function':{'arguments':'1}'}}]}}]}",
    FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 0)), ==, "a");
  g_assert_cmpstr (agent_tool_call_get_name (run_call (run, 0)), ==, "f");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{\"x\":1}");
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 1)), ==, "b");
  g_assert_cmpstr (agent_tool_call_get_name (run_call (run, 1)), ==, "g");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 1)), ==, "{}");
  /* The default type is function */
  g_assert_cmpstr (_agent_tool_call_get_type_name (run_call (run, 0)), ==, "function");
}

/* Without index, each call arrives whole at position 0: a different id at
 * the same position is a new call, not a continuation. */
static void
test_new_id_same_position (void)
{
  g_autofree char *c1 = tool_chunk (-1, "a", "f", "'{\\'n\\':1}'");
  g_autofree char *c2 = tool_chunk (-1, "b", "f", "'{\\'n\\':2}'");
  g_autofree char *c3 = tool_chunk (-1, NULL, NULL, "' '");   /* continues "b" */
  /* The same with an explicit index 0 on every call */
  g_autofree char *d1 = tool_chunk (0, "a", "f", "'{\\'n\\':1}'");
  g_autofree char *d2 = tool_chunk (0, "b", "f", "'{\\'n\\':2}'");
  g_autoptr(GString) body = body_new (c1, c2, c3, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(GString) body2 = body_new (d1, d2, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (body2);

  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 0)), ==, "a");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{\"n\":1}");
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 1)), ==, "b");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 1)), ==, "{\"n\":2} ");
  g_assert_cmpuint (agent_tool_call_get_index (run_call (run, 1)), ==, 1);

  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run2)), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run2, 1)), ==, "{\"n\":2}");
}

/* GLM: a continuation with "name": "" (and no id) keeps the name */
static void
test_empty_name_continuation (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_1", "webSearch", "''");
  g_autofree char *c2 = tool_chunk (0, NULL, "", "'{\\'q\\': '");
  /* an empty id on a continuation (vLLM) changes nothing either */
  g_autofree char *c3 = tool_chunk (0, "", "", "'\\'x\\'}'");
  g_autoptr(GString) body = body_new (c1, c2, c3, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_name (run_call (run, 0)), ==, "webSearch");
  g_assert_cmpstr (agent_tool_call_get_id (run_call (run, 0)), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (run, 0)), ==, "{\"q\": \"x\"}");
  g_assert_cmpstr (run_tool_delta (run, 1)->name, ==, "webSearch");
  g_assert_cmpstr (run_tool_delta (run, 2)->id, ==, "call_1");
}

/* null content is no content; "" is content (and no delta to report) */
static void
test_content_null_vs_empty (void)
{
  g_autofree char *call = tool_chunk (0, "c", "f", "'{}'");
  g_autoptr(GString) nulls = body_new ("{'id':'r1','choices':[{'index':0,'delta':{'role':'assistant','content':null}}]}",
                                       call, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(GString) empties = body_new ("{'id':'r1','choices':[{'index':0,'delta':{'role':'assistant','content':''}}]}",
                                         call, TEXT (""), FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(GString) absent = body_new (call, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) a = decode (nulls);
  g_autoptr(AgentTestReplay) b = decode (empties);
  g_autoptr(AgentTestReplay) c = decode (absent);

  g_assert_null (agent_message_get_content (run_message (a)));
  g_assert_cmpstr (agent_message_get_content (run_message (b)), ==, "");
  g_assert_null (agent_message_get_content (run_message (c)));
  g_assert_cmpuint (a->n_text + b->n_text + c->n_text, ==, 0);
}

/* DeepSeek's reasoning_content and Groq/OpenRouter's reasoning */
static void
test_reasoning (void)
{
  g_autoptr(GString) body = body_new (
    "{'id':'r1','choices':[{'index':0,'delta':{'role':'assistant','content':null,'reasoning_content':'First, '}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'reasoning':'then'}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'reasoning_content':''}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'reasoning':null,'content':'Answer'}}]}",
    FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_cmpstr (agent_message_get_reasoning (run_message (run)), ==, "First, then");
  g_assert_cmpstr (run->reasoning->str, ==, "First, then");
  g_assert_cmpuint (run->n_reasoning, ==, 2);
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Answer");
  g_assert_cmpstr (run->log->str, ==, "reasoning:First, \nreasoning:then\ntext:Answer\n");
}

static void
test_refusal (void)
{
  g_autoptr(GString) body = body_new (
    "{'id':'r1','choices':[{'index':0,'delta':{'role':'assistant','content':null,'refusal':''}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'refusal':'I can\\'t '}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'refusal':'help.'}}]}",
    FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_cmpstr (agent_message_get_refusal (run_message (run)), ==, "I can\"t help.");
  g_assert_cmpstr (run->refusal->str, ==, "I can\"t help.");
  g_assert_cmpuint (run->n_refusal, ==, 2);
  g_assert_null (agent_message_get_content (run_message (run)));
  g_assert_cmpuint (run->n_text, ==, 0);
}

/* Invalid UTF-8 inside JSON strings becomes U+FFFD: the message and the
 * listener only see valid UTF-8. */
static void
test_invalid_utf8 (void)
{
  g_autoptr(GString) body = body_new (
    TEXT ("caf\xc3"),                       /* a sequence cut short */
    TEXT ("\xa9!"),                         /* its continuation, alone */
    "{'id':'r1','choices':[{'index':0,'delta':{'reasoning':'x\xff\xfey'}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'refusal':'\xed\xa0\x80'}}]}",  /* a surrogate */
    FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  AgentMessage *message = run_message (run);

  g_assert_true (run->finish_ok);
  g_assert_true (g_utf8_validate (or_empty (agent_message_get_content (message)), -1, NULL));
  g_assert_true (g_utf8_validate (or_empty (agent_message_get_reasoning (message)), -1, NULL));
  g_assert_true (g_utf8_validate (or_empty (agent_message_get_refusal (message)), -1, NULL));
  g_assert_true (g_str_has_prefix (or_empty (agent_message_get_content (message)), "caf\xef\xbf\xbd"));
  g_assert_true (g_str_has_suffix (or_empty (agent_message_get_content (message)), "!"));
  g_assert_true (g_str_has_prefix (or_empty (agent_message_get_reasoning (message)), "x\xef\xbf\xbd"));
  g_assert_true (g_str_has_suffix (or_empty (agent_message_get_reasoning (message)), "y"));
  g_assert_nonnull (strstr (or_empty (agent_message_get_refusal (message)), "\xef\xbf\xbd"));
  /* The listener got the same (check_delta validated each delta). */
  g_assert_cmpstr (run->text->str, ==, or_empty (agent_message_get_content (message)));
  g_assert_cmpstr (run->reasoning->str, ==, or_empty (agent_message_get_reasoning (message)));
}

/* Tool-call fields reach the tool-call-delta signal and the API as
 * strings: they must be valid UTF-8 too. */
static void
test_invalid_utf8_tool_call (void)
{
  g_autofree char *c1 = tool_chunk (0, "call_\xff", "get_\xc3", "'{\\'city\\': \\'caf\xc3'");
  g_autofree char *c2 = tool_chunk (0, NULL, NULL, "'\xa9\\'}'");
  g_autoptr(GString) body = body_new (c1, c2, FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  AgentToolCall *call = run_call (run, 0);

  g_assert_true (g_utf8_validate (agent_tool_call_get_id (call), -1, NULL));
  g_assert_true (g_utf8_validate (agent_tool_call_get_name (call), -1, NULL));
  for (guint i = 0; i < run->tool_deltas->len; i++)
    g_assert_true (g_utf8_validate (run_tool_delta (run, i)->fragment, -1, NULL));
  g_assert_true (g_utf8_validate (agent_tool_call_get_arguments (call), -1, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* A failed check marks its test failed and the others still run. */
  g_test_set_nonfatal_assertions ();

  g_test_add_func ("/accumulator/repeated-id-name", test_repeated_id_name);
  g_test_add_func ("/accumulator/arguments/object", test_arguments_object);
  g_test_add_func ("/accumulator/arguments/empty", test_arguments_empty);
  g_test_add_func ("/accumulator/arguments/null", test_arguments_null);
  g_test_add_func ("/accumulator/tool-call-finish-stop", test_tool_call_finish_stop);
  g_test_add_func ("/accumulator/usage-only-chunk", test_usage_only_chunk);
  g_test_add_func ("/accumulator/keep-alive", test_keep_alive);
  g_test_add_func ("/accumulator/error/object-mid-stream", test_error_object_mid_stream);
  g_test_add_func ("/accumulator/error/event-error", test_event_error);
  g_test_add_func ("/accumulator/error/event-error-text", test_event_error_text);
  g_test_add_func ("/accumulator/error/without-message", test_error_without_message);
  g_test_add_func ("/accumulator/absurd-index", test_absurd_index);
  g_test_add_func ("/accumulator/parallel-interleaved", test_parallel_interleaved);
  g_test_add_func ("/accumulator/missing-index", test_missing_index);
  g_test_add_func ("/accumulator/new-id-same-position", test_new_id_same_position);
  g_test_add_func ("/accumulator/empty-name-continuation", test_empty_name_continuation);
  g_test_add_func ("/accumulator/content-null-vs-empty", test_content_null_vs_empty);
  g_test_add_func ("/accumulator/reasoning", test_reasoning);
  g_test_add_func ("/accumulator/refusal", test_refusal);
  g_test_add_func ("/accumulator/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/accumulator/invalid-utf8-tool-call", test_invalid_utf8_tool_call);

  return g_test_run ();
}
