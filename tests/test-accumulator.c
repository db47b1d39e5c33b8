/* test-accumulator.c — the accumulator and the openai-chat decoder, quirk by quirk
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

#include "agent-openai-chat-private.h"
#include "agent-tool-call-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-util.h"

/* Building streams */

/* ' becomes ", and \' becomes \" */
static char *
json (const char *sq)
{
  GString *out = g_string_new (NULL);

  for (const char *p = sq; *p; p++)
    {
      if (p[0] == '\\' && p[1] == '\'')
        {
          g_string_append (out, "\\\"");
          p++;
        }
      else if (*p == '\'')
        g_string_append_c (out, '"');
      else
        g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* A body from pieces: "{…}" is one `data:` event (JSON written with '),
 * "[DONE]" the end marker, anything else is copied as it is. */
static GString *
body_new (const char *first,
          ...)
{
  GString *body = g_string_new (NULL);
  va_list args;

  va_start (args, first);
  for (const char *piece = first; piece != NULL; piece = va_arg (args, const char *))
    {
      if (piece[0] == '{')
        {
          g_autofree char *data = json (piece);

          g_string_append_printf (body, "data: %s\n\n", data);
        }
      else if (strcmp (piece, "[DONE]") == 0)
        g_string_append (body, "data: [DONE]\n\n");
      else
        g_string_append (body, piece);
    }
  va_end (args);

  return body;
}

/* Decoding, with a listener that records everything */

/* Feeds @body in pieces of @piece bytes (all of it at once if 0), stopping
 * at the first error, then finishes. The listener's contract must hold. */
static AgentTestReplay *
run_pieces (const char *body,
            gsize       len,
            gsize       piece)
{
  AgentTestReplay *run = agent_test_replay_new ();

  if (piece == 0)
    piece = MAX (len, 1);

  agent_test_feed_pieces (agent_test_replay_feed, run, body, len, piece, NULL, &run->error);
  agent_test_replay_finish (run);
  g_assert_cmpstr (run->problems->str, ==, "");

  return run;
}

static AgentMessage *
run_message (AgentTestReplay *run)
{
  return agent_test_replay_get_message (run);
}

/* The call at @position. If there is none, the test fails and an empty
 * call stands in, so that the checks that follow report rather than crash
 * (assertions are not fatal here). */
static AgentToolCall *
run_call (AgentTestReplay *run,
          guint            position)
{
  static AgentToolCall *missing;

  if (position < agent_message_get_n_tool_calls (run_message (run)))
    return agent_message_get_tool_call (run_message (run), position);

  g_test_fail_printf ("there is no tool call at position %u", position);
  if (missing == NULL)
    missing = agent_tool_call_new (NULL, "", NULL);
  return missing;
}

static AgentTestToolDelta *
run_tool_delta (AgentTestReplay *run,
                guint            i)
{
  static AgentTestToolDelta missing = { NULL, G_MAXUINT, NULL, NULL, (char *) "", 0 };

  if (i < run->tool_deltas->len)
    return &g_array_index (run->tool_deltas, AgentTestToolDelta, i);

  g_test_fail_printf ("the listener heard of no tool-call delta %u", i);
  return &missing;
}

/* The message's usage. If there is none, the test fails and an empty usage
 * stands in (assertions are not fatal here). */
static AgentUsage *
run_usage (AgentTestReplay *run)
{
  static AgentUsage *missing;
  AgentUsage *usage = agent_message_get_usage (run_message (run));

  if (usage != NULL)
    return usage;

  g_test_fail_printf ("the message has no usage");
  if (missing == NULL)
    missing = agent_usage_new (0, 0, 0);
  return missing;
}

static const char *
or_empty (const char *s)
{
  return s ? s : "";
}

/* The error's message, or "" when there is none (the assertion about the
 * error itself already failed). */
static const char *
message_of (const GError *error)
{
  return error ? error->message : "";
}

/* Everything observable about a run, as text. */
static char *
summarize (AgentTestReplay *run)
{
  AgentMessage *message = run_message (run);
  GString *out = g_string_new (NULL);
  AgentUsage *usage = agent_message_get_usage (message);

  g_string_append_printf (out, "content=%s\nreasoning=%s\nrefusal=%s\nfinish=%s\nid=%s\nmodel=%s\n",
                          agent_message_get_content (message),
                          agent_message_get_reasoning (message),
                          agent_message_get_refusal (message),
                          agent_message_get_finish_reason (message),
                          agent_message_get_response_id (message),
                          agent_message_get_model (message));
  if (usage != NULL && agent_usage_get_raw (usage) != NULL)
    {
      g_autofree char *raw = json_to_string (agent_usage_get_raw (usage), FALSE);

      g_string_append_printf (out, "usage=%s\n", raw);
    }
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      g_string_append_printf (out, "call %u: index=%u id=%s name=%s type=%s state=%d args=%s\n", i,
                              agent_tool_call_get_index (call), agent_tool_call_get_id (call),
                              agent_tool_call_get_name (call), _agent_tool_call_get_type_name (call),
                              agent_tool_call_get_state (call), agent_tool_call_get_arguments (call));
    }
  g_string_append_printf (out, "error=%s:%d:%s\nfinish_ok=%d finish_error=%s\ndone=%d events=%u\n",
                          run->error ? g_quark_to_string (run->error->domain) : "",
                          run->error ? run->error->code : 0,
                          message_of (run->error),
                          run->finish_ok,
                          message_of (run->finish_error),
                          agent_stream_decoder_is_done (run->decoder),
                          (guint) agent_stream_decoder_get_n_events (run->decoder));
  g_string_append (out, run->log->str);

  return g_string_free (out, FALSE);
}

/* Decodes @body whole and one byte at a time (or in @piece bytes), checks
 * that both agree, and returns the whole run. */
static AgentTestReplay *
decode_len (const char *body,
            gsize       len,
            gsize       piece)
{
  g_autoptr(AgentTestReplay) pieces = run_pieces (body, len, piece);
  AgentTestReplay *whole = run_pieces (body, len, 0);
  g_autofree char *a = summarize (whole);
  g_autofree char *b = summarize (pieces);

  g_assert_cmpstr (a, ==, b);

  return whole;
}

static AgentTestReplay *
decode (GString *body)
{
  return decode_len (body->str, body->len, 1);
}

/* A tool-call delta: index (or -1 for none), id, name, arguments (' JSON
 * fragments are passed through json(), NULL leaves the member out). */
static char *
tool_chunk (int         index,
            const char *id,
            const char *name,
            const char *arguments)
{
  GString *call = g_string_new ("{");
  g_autoptr(GString) function = g_string_new (NULL);

  if (index >= 0)
    g_string_append_printf (call, "'index':%d,", index);
  if (id != NULL)
    g_string_append_printf (call, "'id':'%s','type':'function',", id);
  if (name != NULL)
    g_string_append_printf (function, "'name':'%s'", name);
  if (arguments != NULL)
    g_string_append_printf (function, "%s'arguments':%s", name ? "," : "", arguments);
  g_string_append_printf (call, "'function':{%s}}", function->str);

  {
    g_autofree char *calls = g_string_free (call, FALSE);

    return g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[%s]},'finish_reason':null}]}",
                            calls);
  }
}

#define FINISH(reason) "{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':'" reason "'}]}"
#define TEXT(text) "{'id':'r1','choices':[{'index':0,'delta':{'content':'" text "'}}]}"

/* Tests */

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

/* A data line that is not JSON is a protocol error naming it. */
static void
test_not_json (void)
{
  g_autoptr(GString) body = body_new (TEXT ("ok"), "data: <html>Bad gateway</html>\n\n", TEXT ("more"),
                                      NULL);
  g_autoptr(GString) array = body_new ("data: [1, 2]\n\n", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (array);

  g_assert_error (run->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (message_of (run->error), "<html>Bad gateway</html>"));
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "ok");
  g_assert_false (run->finish_ok);

  g_assert_error (run2->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (message_of (run2->error), "[1, 2]"));
}

/* After [DONE], nothing more is read. */
static void
test_done_then_garbage (void)
{
  g_autoptr(GString) body = body_new (TEXT ("Hi"), FINISH ("stop"), "[DONE]",
                                      "data: not json at all\n\n",
                                      "event: error\ndata: {\"error\":{\"message\":\"late\"}}\n\n",
                                      TEXT ("late text"),
                                      "data: {\"unfinished", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_no_error (run->error);
  g_assert_true (run->finish_ok);
  g_assert_no_error (run->finish_error);
  g_assert_true (agent_stream_decoder_is_done (run->decoder));
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Hi");
  g_assert_cmpuint (agent_stream_decoder_get_n_events (run->decoder), ==, 3);
}

/* No [DONE], but a finish reason and a clean end: the answer is whole. */
static void
test_end_without_done (void)
{
  g_autofree char *call = tool_chunk (0, "c", "f", "'{}'");
  g_autoptr(GString) body = body_new (TEXT ("Hi"), call, FINISH ("tool_calls"), NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_true (run->finish_ok);
  g_assert_no_error (run->finish_error);
  g_assert_false (agent_stream_decoder_is_done (run->decoder));
  g_assert_cmpint (agent_tool_call_get_state (run_call (run, 0)), ==, AGENT_TOOL_CALL_STATE_READY);
}

/* Neither [DONE] nor a finish reason: the answer may be cut short. */
static void
test_end_without_done_or_finish (void)
{
  g_autoptr(GString) body = body_new (TEXT ("Hi"), TEXT (" there"), NULL);
  g_autoptr(GString) empty = g_string_new ("");
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (empty);

  g_assert_false (run->finish_ok);
  g_assert_error (run->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Hi there");

  g_assert_false (run2->finish_ok);
  g_assert_error (run2->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpuint (agent_stream_decoder_get_n_events (run2->decoder), ==, 0);
}

/* The body stops in the middle of an event: a protocol error that says the
 * stream was cut off, unlike an end between events. */
static void
test_end_mid_event (void)
{
  g_autoptr(GString) clean = body_new (TEXT ("Hi"), NULL);
  g_autoptr(GString) no_blank = body_new (TEXT ("Hi"), "data: {\"id\":\"r1\",\"choices\":[]}\n", NULL);
  g_autoptr(GString) mid_line = body_new (TEXT ("Hi"), "data: {\"id\":\"r1\",\"choi", NULL);
  g_autoptr(AgentTestReplay) a = decode (clean);
  g_autoptr(AgentTestReplay) b = decode (no_blank);
  g_autoptr(AgentTestReplay) c = decode (mid_line);

  g_assert_error (a->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_error (b->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_error (c->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (message_of (b->finish_error), !=, message_of (a->finish_error));
  g_assert_cmpstr (message_of (c->finish_error), ==, message_of (b->finish_error));
  g_assert_nonnull (strstr (message_of (b->finish_error), "middle"));
  g_assert_cmpstr (agent_message_get_content (run_message (b)), ==, "Hi");
}

/* A finish reason, then a body cut in the middle of the next event (the
 * usage chunk, or "data: [DONE]" without its blank line, as in the
 * anthropic-compat corpus file): the answer itself is whole. */
static void
test_finish_then_cut (void)
{
  g_autoptr(GString) body = body_new (TEXT ("Hi"), FINISH ("stop"), "data: [DONE]", NULL);
  g_autoptr(GString) body2 = body_new (TEXT ("Hi"), FINISH ("stop"), "data: {\"usage\":{\"pro", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (body2);

  g_assert_true (run->finish_ok);
  g_assert_false (agent_stream_decoder_is_done (run->decoder));
  g_assert_true (run2->finish_ok);
  g_assert_null (agent_message_get_usage (run_message (run2)));
}

/* CRLF and CR line ends give the same result as LF. */
static void
test_line_endings (void)
{
  g_autofree char *c1 = tool_chunk (0, "c", "f", "'{\\'a\\':'");
  g_autofree char *c2 = tool_chunk (0, NULL, NULL, "'1}'");
  g_autoptr(GString) lf = body_new (": hello\n", TEXT ("Hi\\nthere"), c1, c2, FINISH ("tool_calls"),
                                    "{'id':'r1','choices':[],'usage':{'total_tokens':5}}", "[DONE]", NULL);
  g_autoptr(GString) crlf = g_string_new (lf->str);
  g_autoptr(GString) cr = g_string_new (lf->str);
  g_autoptr(AgentTestReplay) a = NULL;
  g_autoptr(AgentTestReplay) b = NULL;
  g_autoptr(AgentTestReplay) c = NULL;
  g_autofree char *sa = NULL;
  g_autofree char *sb = NULL;
  g_autofree char *sc = NULL;

  g_string_replace (crlf, "\n", "\r\n", 0);
  g_string_replace (cr, "\n", "\r", 0);
  a = decode (lf);
  b = decode (crlf);
  c = decode (cr);
  sa = summarize (a);
  sb = summarize (b);
  sc = summarize (c);

  g_assert_true (a->finish_ok);
  g_assert_cmpstr (agent_message_get_content (run_message (a)), ==, "Hi\nthere");
  g_assert_cmpstr (agent_tool_call_get_arguments (run_call (a, 0)), ==, "{\"a\":1}");
  g_assert_cmpstr (sa, ==, sb);
  g_assert_cmpstr (sa, ==, sc);
}

/* One event carrying 1 MiB of content in a single delta */
static void
test_huge_event (void)
{
  gsize n = 1024 * 1024;
  g_autoptr(GString) text = g_string_sized_new (n);
  g_autoptr(GString) body = NULL;
  g_autoptr(AgentTestReplay) run = NULL;
  g_autofree char *chunk = NULL;

  for (gsize i = 0; text->len < n; i++)
    g_string_append_c (text, "abcdefghijklmnopqrstuvwxyz0123456789 "[i % 37]);
  chunk = g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{'content':'%s'}}]}", text->str);
  body = body_new (chunk, FINISH ("stop"), "[DONE]", NULL);
  run = decode_len (body->str, body->len, 4096);

  g_assert_no_error (run->error);
  g_assert_true (run->finish_ok);
  g_assert_cmpuint (strlen (agent_message_get_content (run_message (run))), ==, n);
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, text->str);
  g_assert_cmpuint (run->n_text, ==, 1);
}

/* Groq reports usage in x_groq.usage: used when the standard field is
 * missing, never over it. */
static void
test_x_groq_usage (void)
{
  const char *groq = "'x_groq':{'id':'req_1','usage':{'prompt_tokens':7,'completion_tokens':5,'total_tokens':12,'queue_time':0.01}}";
  const char *standard = "'usage':{'prompt_tokens':8,'completion_tokens':6,'total_tokens':14}";
  g_autofree char *only_groq = g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':'stop'}],%s}", groq);
  g_autofree char *groq_first = g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':'stop'}],%s,%s}", groq, standard);
  g_autofree char *standard_first = g_strdup_printf ("{'id':'r1','choices':[],%s,%s}", standard, groq);
  g_autofree char *standard_alone = g_strdup_printf ("{'id':'r1','choices':[],%s}", standard);
  g_autoptr(GString) b1 = body_new (TEXT ("a"), only_groq, "[DONE]", NULL);
  g_autoptr(GString) b2 = body_new (TEXT ("a"), groq_first, "[DONE]", NULL);
  g_autoptr(GString) b3 = body_new (TEXT ("a"), FINISH ("stop"), standard_first, "[DONE]", NULL);
  g_autoptr(GString) b4 = body_new (TEXT ("a"), only_groq, standard_alone, "[DONE]", NULL);
  g_autoptr(AgentTestReplay) r1 = decode (b1);
  g_autoptr(AgentTestReplay) r2 = decode (b2);
  g_autoptr(AgentTestReplay) r3 = decode (b3);
  g_autoptr(AgentTestReplay) r4 = decode (b4);
  AgentUsage *usage;

  usage = run_usage (r1);
  g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==, 7);
  g_assert_cmpint (agent_usage_get_completion_tokens (usage), ==, 5);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, 12);

  g_assert_cmpint (agent_usage_get_total_tokens (run_usage (r2)), ==, 14);
  g_assert_cmpint (agent_usage_get_total_tokens (run_usage (r3)), ==, 14);
  g_assert_cmpint (agent_usage_get_total_tokens (run_usage (r4)), ==, 14);
}

/* tool_call_delta: each fragment exactly once, with index, id and name as
 * known so far; the fragments add up to the arguments. */
static void
test_listener_tool_call_delta (void)
{
  g_autoptr(GString) body = body_new (
    /* the id alone first, then the name, then the arguments */
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'id':'c0','type':'function'}]}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'function':{'name':'f'}}]}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'function':{'arguments':'{\\'a\\''}}]}}]}",
    /* a second call, whole in its first fragment */
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':1,'id':'c1','function':{'name':'g','arguments':'{}'}}]}}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'function':{'arguments':':1}'}}]}}]}",
    FINISH ("tool_calls"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  static const struct {
    guint index;
    const char *id;
    const char *name;
    const char *fragment;
  } want[] = {
    { 0, "c0", NULL, "" },
    { 0, "c0", "f", "" },
    { 0, "c0", "f", "{\"a\"" },
    { 1, "c1", "g", "{}" },
    { 0, "c0", "f", ":1}" },
  };
  g_autoptr(GString) total0 = g_string_new (NULL);
  g_autoptr(GString) total1 = g_string_new (NULL);

  g_assert_cmpuint (run->tool_deltas->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      AgentTestToolDelta *event = run_tool_delta (run, i);

      g_assert_cmpuint (event->index, ==, want[i].index);
      g_assert_cmpstr (event->id, ==, want[i].id);
      g_assert_cmpstr (event->name, ==, want[i].name);
      g_assert_cmpstr (event->fragment, ==, want[i].fragment);
      g_assert_cmpuint (event->len, ==, strlen (want[i].fragment));
      g_assert_true (event->call == run_call (run, event->index));
      g_string_append (event->index == 0 ? total0 : total1, event->fragment);
    }
  g_assert_cmpstr (total0->str, ==, agent_tool_call_get_arguments (run_call (run, 0)));
  g_assert_cmpstr (total1->str, ==, agent_tool_call_get_arguments (run_call (run, 1)));
  g_assert_cmpstr (total0->str, ==, "{\"a\":1}");
}

/* Many fragments: 50,000 across 4 interleaved calls. Only correctness is
 * checked; speed is measured in bench/. */
#define N_FRAGMENTS 50000
#define N_CALLS 4

static void
test_many_fragments (void)
{
  static const int keys[N_CALLS] = { 7, 2, 5, 0 };
  g_autoptr(GString) body = g_string_new (NULL);
  GString *want[N_CALLS];
  g_autoptr(AgentTestReplay) run = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint counts[N_CALLS] = { 0 };

  for (guint k = 0; k < N_CALLS; k++)
    {
      g_autofree char *chunk = NULL;
      g_autofree char *data = NULL;

      want[k] = g_string_new ("{\"values\":[");
      chunk = g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[{'index':%d,'id':'call_%u','type':'function','function':{'name':'tool_%u','arguments':'{\\'values\\':['}}]}}]}",
                               keys[k], k, k);
      data = json (chunk);
      g_string_append_printf (body, "data: %s\n\n", data);
    }

  /* The calls take turns in a random order. */
  for (guint i = 0; i < N_FRAGMENTS - 2 * N_CALLS; i++)
    {
      guint k = g_rand_int_range (rand, 0, N_CALLS);
      g_autofree char *fragment = g_strdup_printf ("%u,", i);

      g_string_append (want[k], fragment);
      g_string_append_printf (body, "data: {\"id\":\"r1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"arguments\":\"%s\"}}]}}]}\n\n",
                              keys[k], fragment);
    }

  for (guint k = 0; k < N_CALLS; k++)
    {
      g_string_append (want[k], "0]}");
      g_string_append_printf (body, "data: {\"id\":\"r1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"arguments\":\"0]}\"}}]}}]}\n\n",
                              keys[k]);
    }
  g_string_append (body, "data: {\"id\":\"r1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n");

  /* In pieces of the size a socket read gives */
  run = decode_len (body->str, body->len, 64 * 1024);

  g_assert_true (run->finish_ok);
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, N_CALLS);
  g_assert_cmpuint (run->tool_deltas->len, ==, N_FRAGMENTS);
  for (guint i = 0; i < run->tool_deltas->len; i++)
    {
      guint index = run_tool_delta (run, i)->index;

      g_assert_cmpuint (index, <, N_CALLS);
      if (index < N_CALLS)
        counts[index]++;
    }

  for (guint k = 0; k < N_CALLS; k++)
    {
      AgentToolCall *call = run_call (run, k);
      g_autofree char *name = g_strdup_printf ("tool_%u", k);
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpstr (agent_tool_call_get_name (call), ==, name);
      g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, want[k]->str);
      parsed = agent_tool_call_parse_arguments (call, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (counts[k], >, 1);
      g_string_free (want[k], TRUE);
    }
  g_assert_cmpuint (counts[0] + counts[1] + counts[2] + counts[3], ==, N_FRAGMENTS);
}

/* n > 1: choice 0 is the message (and the listener's); the others are kept
 * apart, silently. */
static void
test_several_choices (void)
{
  g_autoptr(GString) body = body_new (
    "{'id':'r1','model':'m','choices':[{'index':0,'delta':{'content':'A'}},{'index':1,'delta':{'content':'B'}}]}",
    "{'id':'r1','choices':[{'index':1,'delta':{'content':'b','tool_calls':[{'index':0,'id':'x','function':{'name':'f','arguments':'{}'}}]},'finish_reason':'tool_calls'}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{'content':'a'},'finish_reason':'stop'}]}",
    "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  AgentOpenaiChatDecoder *chat = agent_stream_decoder_get_provider_decoder (run->decoder);
  AgentMessage *second;

  g_assert_cmpuint (_agent_openai_chat_decoder_get_n_choices (chat), ==, 2);
  g_assert_true (_agent_openai_chat_decoder_get_choice (chat, 0) == run->accumulator);
  g_assert_null (_agent_openai_chat_decoder_get_choice (chat, 2));
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Aa");
  g_assert_cmpstr (agent_message_get_finish_reason (run_message (run)), ==, "stop");
  g_assert_cmpuint (agent_message_get_n_tool_calls (run_message (run)), ==, 0);
  g_assert_cmpstr (run->text->str, ==, "Aa");
  g_assert_cmpuint (run->tool_deltas->len, ==, 0);

  g_assert_nonnull (_agent_openai_chat_decoder_get_choice (chat, 1));
  if (_agent_openai_chat_decoder_get_choice (chat, 1) == NULL)
    return;
  second = agent_accumulator_get_message (_agent_openai_chat_decoder_get_choice (chat, 1));
  g_assert_cmpstr (agent_message_get_content (second), ==, "Bb");
  g_assert_cmpstr (agent_message_get_finish_reason (second), ==, "tool_calls");
  g_assert_cmpuint (agent_message_get_n_tool_calls (second), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (second, 0)), ==, "{}");
}

/* The finish reason is the last non-null, non-empty one; id and model the
 * first. */
static void
test_finish_reason_and_ids (void)
{
  g_autoptr(GString) body = body_new (
    "{'id':'','model':'','choices':[{'index':0,'delta':{'content':'a'},'finish_reason':''}]}",
    "{'id':'first','model':'m1','choices':[{'index':0,'delta':{},'finish_reason':'length'}]}",
    "{'id':'second','model':'m2','choices':[{'index':0,'delta':{},'finish_reason':null}]}",
    "{'id':'second','choices':[{'index':0,'delta':{},'finish_reason':''}]}",
    "[DONE]", NULL);
  g_autoptr(GString) body2 = body_new (
    "{'id':'r1','choices':[{'index':0,'delta':{'content':'a'},'finish_reason':'length'}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':'stop'}]}",
    "{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':null}]}",
    "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  g_autoptr(AgentTestReplay) run2 = decode (body2);

  g_assert_cmpstr (agent_message_get_finish_reason (run_message (run2)), ==, "stop");
  g_assert_cmpstr (agent_message_get_finish_reason (run_message (run)), ==, "length");
  g_assert_cmpstr (agent_message_get_response_id (run_message (run)), ==, "first");
  g_assert_cmpstr (agent_message_get_model (run_message (run)), ==, "m1");
}

/* Framing details that reach the decoder: an event's data over several
 * data: lines is joined with LF; a byte order mark is skipped; "event:"
 * names other than "error" change nothing. */
static void
test_framing (void)
{
  g_autoptr(GString) body = body_new ("\xef\xbb\xbf",
                                      "data: {\"id\":\"r1\",\n",
                                      "data: \"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n",
                                      "event: message\nid: 7\nretry: 100\n",
                                      FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);

  g_assert_no_error (run->error);
  g_assert_true (run->finish_ok);
  g_assert_cmpstr (agent_message_get_content (run_message (run)), ==, "Hi");
  g_assert_cmpstr (agent_message_get_response_id (run_message (run)), ==, "r1");
  g_assert_cmpuint (agent_stream_decoder_get_n_events (run->decoder), ==, 3);
}

/* \u escapes are decoded, including a surrogate pair; an escaped NUL or a
 * lone surrogate must not silently cut the rest of the text. */
static void
test_escapes (void)
{
  g_autoptr(GString) body = body_new (TEXT ("\\u00e9\\ud83d\\ude00\\t"), TEXT ("a\\u0000b"),
                                      /* a surrogate pair split across two deltas */
                                      TEXT ("<\\ud83d"), TEXT ("\\ude00>"),
                                      FINISH ("stop"), "[DONE]", NULL);
  g_autoptr(AgentTestReplay) run = decode (body);
  const char *content = agent_message_get_content (run_message (run));

  g_assert_true (g_str_has_prefix (content, "\xc3\xa9\xf0\x9f\x98\x80\t"));
  g_assert_true (g_utf8_validate (content, -1, NULL));
  /* What follows the NUL is not dropped (the NUL itself may be replaced),
   * and half a surrogate pair does not end the stream. */
  g_assert_no_error (run->error);
  g_assert_true (run->finish_ok);
  g_assert_nonnull (strstr (content, "b<"));
  g_assert_true (g_str_has_suffix (content, ">"));
  g_assert_cmpstr (run->text->str, ==, content);
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
  g_test_add_func ("/accumulator/escapes", test_escapes);
  g_test_add_func ("/accumulator/not-json", test_not_json);
  g_test_add_func ("/accumulator/end/done-then-garbage", test_done_then_garbage);
  g_test_add_func ("/accumulator/end/finish-without-done", test_end_without_done);
  g_test_add_func ("/accumulator/end/neither", test_end_without_done_or_finish);
  g_test_add_func ("/accumulator/end/mid-event", test_end_mid_event);
  g_test_add_func ("/accumulator/end/finish-then-cut", test_finish_then_cut);
  g_test_add_func ("/accumulator/line-endings", test_line_endings);
  g_test_add_func ("/accumulator/framing", test_framing);
  g_test_add_func ("/accumulator/huge-event", test_huge_event);
  g_test_add_func ("/accumulator/x-groq-usage", test_x_groq_usage);
  g_test_add_func ("/accumulator/listener-tool-call-delta", test_listener_tool_call_delta);
  g_test_add_func ("/accumulator/several-choices", test_several_choices);
  g_test_add_func ("/accumulator/finish-reason-and-ids", test_finish_reason_and_ids);
  g_test_add_func ("/accumulator/many-fragments", test_many_fragments);

  return g_test_run ();
}
