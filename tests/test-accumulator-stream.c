/* test-accumulator-stream.c — the openai-chat decoder over whole streams:
 * how they end, their framing and size, usage, the tool-call-delta listener,
 * several choices and many fragments
 *
 * Each test is a small hand-written stream fed through agent_stream_decoder,
 * decoded whole and one byte at a time (see test-accumulator-util.h). JSON in
 * this file is written with ' for " (and \' for \") to stay readable.
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
