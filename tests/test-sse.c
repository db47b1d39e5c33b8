/* test-sse.c — the SSE parser, rule by rule: the examples of the spec, line
 * endings, the byte order mark, fields, comments, ids and retry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "agent-error.h"
#include "wire/agent-sse-parser-private.h"

#include "agent-test-feed.h"
#include "agent-test-util.h"
#include "test-sse-util.h"

static void
test_spec_stock_ticker (void)
{
  assert_stream ("data: YHOO\n"
                 "data: +2\n"
                 "data: 10\n"
                 "\n",
                 "message||YHOO\\n+2\\n10\n",
                 FALSE);
}

static void
test_spec_event_types (void)
{
  assert_stream ("event: add\n"
                 "data: 73857293\n"
                 "\n"
                 "event: remove\n"
                 "data: 2153\n"
                 "\n"
                 "event: add\n"
                 "data: 113411\n"
                 "\n",
                 "add||73857293\n"
                 "remove||2153\n"
                 "add||113411\n",
                 FALSE);
}

static void
test_spec_comment_and_ids (void)
{
  /* As in the spec: the last block is followed by a blank line... */
  assert_stream (": test stream\n"
                 "\n"
                 "data: first event\n"
                 "id: 1\n"
                 "\n"
                 "data:second event\n"
                 "id\n"
                 "\n"
                 "data:  third event\n"
                 "\n",
                 "message|1|first event\n"
                 "message||second event\n"
                 "message|| third event\n",
                 FALSE);

  /* ...without which the end of the stream does not dispatch it. */
  assert_stream (": test stream\n"
                 "\n"
                 "data: first event\n"
                 "id: 1\n"
                 "\n"
                 "data:second event\n"
                 "id\n"
                 "\n"
                 "data:  third event\n",
                 "message|1|first event\n"
                 "message||second event\n",
                 TRUE);
}

static void
test_spec_empty_data (void)
{
  assert_stream ("data\n"
                 "\n"
                 "data\n"
                 "data\n"
                 "\n"
                 "data:\n",
                 "message||\n"
                 "message||\\n\n",
                 TRUE);
}

static void
test_spec_leading_space (void)
{
  assert_stream ("data:test\n"
                 "\n"
                 "data: test\n"
                 "\n",
                 "message||test\n"
                 "message||test\n",
                 FALSE);
}

static void
test_line_endings_lf (void)
{
  assert_stream ("event: a\ndata: 1\ndata: 2\n\ndata: 3\n\n",
                 "a||1\\n2\nmessage||3\n",
                 FALSE);
}

static void
test_line_endings_cr (void)
{
  assert_stream ("event: a\rdata: 1\rdata: 2\r\rdata: 3\r\r",
                 "a||1\\n2\nmessage||3\n",
                 FALSE);
}

static void
test_line_endings_crlf (void)
{
  assert_stream ("event: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata: 3\r\n\r\n",
                 "a||1\\n2\nmessage||3\n",
                 FALSE);
}

static void
test_line_endings_mixed (void)
{
  /* CR CR is two line endings; LF CR is two; CR LF is one. */
  assert_stream ("data: 1\r\rdata: 2\n\rdata: 3\r\n\ndata: 4\n\r\n",
                 "message||1\nmessage||2\nmessage||3\nmessage||4\n",
                 FALSE);
}

static void
test_line_endings_crlf_split (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  /* The LF that completes the CR LF must not make a blank line. */
  g_assert_true (agent_sse_parser_feed (parser, "data: a\r", 8, &error));
  g_assert_no_error (error);
  g_assert_true (agent_sse_parser_feed (parser, "\ndata: b\r", 9, &error));
  g_assert_no_error (error);
  g_assert_true (agent_sse_parser_feed (parser, "\n", 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_events, ==, 0);
  g_assert_true (agent_sse_parser_feed (parser, "\r", 1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||a\\nb\n");

  /* An empty piece between CR and LF changes nothing. */
  g_assert_true (agent_sse_parser_feed (parser, "\n", 1, &error));
  g_assert_true (agent_sse_parser_feed (parser, "data: c\r", 8, &error));
  g_assert_true (agent_sse_parser_feed (parser, "", 0, &error));
  g_assert_true (agent_sse_parser_feed (parser, NULL, 0, &error));
  g_assert_true (agent_sse_parser_feed (parser, "\n\r\n", 3, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||a\\nb\nmessage||c\n");

  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_false (agent_sse_parser_had_partial_event (parser));

  collector_clear (&c);

  assert_stream ("data: a\r\ndata: b\r\n\r\n", "message||a\\nb\n", FALSE);
}

static void
test_line_endings_cr_then_other (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  /* A CR ending a piece, then something other than LF: the CR alone ended
   * the line, and the next byte starts a new one. */
  g_assert_true (agent_sse_parser_feed (parser, "data: a\r", 8, &error));
  g_assert_true (agent_sse_parser_feed (parser, "data: b\r", 8, &error));
  g_assert_true (agent_sse_parser_feed (parser, "\r", 1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||a\\nb\n");

  /* A CR then CR: the second is a blank line. */
  g_assert_true (agent_sse_parser_feed (parser, "data: c\r", 8, &error));
  g_assert_true (agent_sse_parser_feed (parser, "\r", 1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||a\\nb\nmessage||c\n");

  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_false (agent_sse_parser_had_partial_event (parser));

  collector_clear (&c);
}

static void
test_bom_start (void)
{
  assert_stream ("\xEF\xBB\xBF" "data: a\n\n", "message||a\n", FALSE);
  assert_stream ("\xEF\xBB\xBF" "\n" "data: a\n\n", "message||a\n", FALSE);
  /* A stream that is nothing but a byte order mark is empty. */
  assert_stream ("\xEF\xBB\xBF", "", FALSE);
}

static void
test_bom_split (void)
{
  static const char stream[] = "\xEF\xBB\xBF" "data: a\n\n";

  /* Every way of cutting the stream in three. */
  for (gsize i = 0; i <= sizeof stream - 1; i++)
    {
      for (gsize j = i; j <= sizeof stream - 1; j++)
        {
          g_autoptr(AgentSseParser) parser = NULL;
          g_autoptr(GError) error = NULL;
          Collector c;

          collector_init (&c);
          parser = agent_sse_parser_new (collect_event, &c);

          g_assert_true (agent_sse_parser_feed (parser, stream, i, &error));
          g_assert_true (agent_sse_parser_feed (parser, stream + i, j - i, &error));
          g_assert_true (agent_sse_parser_feed (parser, stream + j, sizeof stream - 1 - j, &error));
          g_assert_true (agent_sse_parser_finish (parser, &error));
          g_assert_no_error (error);
          g_assert_cmpstr (c.log->str, ==, "message||a\n");

          collector_clear (&c);
        }
    }
}

static void
test_bom_not_at_start (void)
{
  /* A second byte order mark is part of the first line's field name. */
  assert_stream ("\xEF\xBB\xBF\xEF\xBB\xBF" "data: a\n\ndata: b\n\n", "message||b\n", FALSE);

  /* After the first line, a byte order mark is an ordinary character. */
  assert_stream ("data: a\n\n\xEF\xBB\xBF" "data: b\n\ndata: c\n\n",
                 "message||a\nmessage||c\n",
                 FALSE);
  assert_stream ("data: \xEF\xBB\xBF" "x\n\n", "message||\xEF\xBB\xBF" "x\n", FALSE);

  /* A byte order mark begun but not finished is data too. */
  assert_stream ("\xEF\xBB" "data: a\n\ndata: b\n\n", "message||b\n", FALSE);
  assert_stream ("\xEF" "data: a\n\ndata: b\n\n", "message||b\n", FALSE);
  assert_stream ("\xEF\xBB", "", TRUE);
}

static void
test_field_without_colon (void)
{
  /* "event" alone sets an empty type, which means "message". */
  assert_stream ("event: x\nevent\ndata\n\n", "message||\n", FALSE);
  assert_stream ("id: 3\nid\ndata: a\n\n", "message||a\n", FALSE);
}

static void
test_field_unknown (void)
{
  assert_stream ("foo: bar\n"
                 "dat: x\n"
                 "datas: x\n"
                 "DATA: x\n"
                 "Data: x\n"
                 "data : x\n"
                 "events: x\n"
                 "ID: 7\n"
                 "data: y\n"
                 "\n",
                 "message||y\n",
                 FALSE);
}

static void
test_field_leading_space (void)
{
  /* " data" is not "data": the line is ignored. */
  assert_stream (" data: x\n\ndata: y\n\n", "message||y\n", FALSE);
  assert_stream (" data: x\n data: z\n\n", "", FALSE);
}

static void
test_field_value (void)
{
  /* Only one space is removed, and nothing else. */
  assert_stream ("data:  two\n\n", "message|| two\n", FALSE);
  assert_stream ("data:\tx\n\n", "message||\tx\n", FALSE);
  assert_stream ("data: a:b: c\n\n", "message||a:b: c\n", FALSE);
  assert_stream ("data: \n\n", "message||\n", FALSE);
  assert_stream ("data: x \n\n", "message||x \n", FALSE);
}

static void
test_comments (void)
{
  assert_stream (": comment\n"
                 ":\n"
                 "data: x\n"
                 ": another: one\n"
                 "\n"
                 ":data: y\n"
                 "\n",
                 "message||x\n",
                 FALSE);
}

static void
test_event_type_reset (void)
{
  /* The type is reset after every dispatch, and by a blank line that
   * dispatches nothing. */
  assert_stream ("event: add\n"
                 "data: 1\n"
                 "\n"
                 "data: 2\n"
                 "\n"
                 "event: lost\n"
                 "\n"
                 "data: 3\n"
                 "\n"
                 "event: a\n"
                 "event: b\n"
                 "data: 4\n"
                 "\n"
                 "data: 5\n"
                 "event: late\n"
                 "\n",
                 "add||1\n"
                 "message||2\n"
                 "message||3\n"
                 "b||4\n"
                 "late||5\n",
                 FALSE);
}

static void
test_empty_data_not_dispatched (void)
{
  assert_stream ("\n\n\n", "", FALSE);
  assert_stream ("event: x\n\n", "", FALSE);
  assert_stream ("\r\n\r\n: c\r\n\r\n", "", FALSE);
  assert_stream ("id: 5\n\ndata: a\n\n", "message|5|a\n", FALSE);
}

static void
test_id_persistence (void)
{
  assert_stream ("id: 1\n"
                 "data: a\n"
                 "\n"
                 "data: b\n"
                 "\n"
                 "id: 2\n"
                 "\n"
                 "data: c\n"
                 "\n"
                 "data: d\n"
                 "id:\n"
                 "\n"
                 "data: e\n"
                 "\n",
                 "message|1|a\n"
                 "message|1|b\n"
                 "message|2|c\n"
                 "message||d\n"
                 "message||e\n",
                 FALSE);
}

static void
test_id_nul (void)
{
  static const char stream[] = "id: 1\ndata: a\n\nid: 2\0003\ndata: b\n\nid: \0\ndata: c\n\n";

  assert_events (stream,
                 sizeof stream - 1,
                 "message|1|a\nmessage|1|b\nmessage|1|c\n",
                 FALSE);
}

static void
assert_retry (const char *stream,
              gint64      expected)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  g_assert_true (agent_sse_parser_feed (parser, stream, strlen (stream), &error));
  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_no_error (error);
  g_assert_cmpint (agent_sse_parser_get_retry (parser), ==, expected);

  collector_clear (&c);
}

static void
test_retry (void)
{
  assert_retry ("", -1);
  assert_retry ("data: x\n\n", -1);
  assert_retry ("retry: 1000\n", 1000);
  assert_retry ("retry:0\n", 0);
  assert_retry ("retry: 007\n", 7);
  assert_retry ("retry: 1000\nretry: 10a\n", 1000);
  assert_retry ("retry: 1000\nretry: -5\n", 1000);
  assert_retry ("retry: 1000\nretry: +5\n", 1000);
  assert_retry ("retry: 1000\nretry: 1.5\n", 1000);
  assert_retry ("retry: 1000\nretry:\n", 1000);
  assert_retry ("retry: 1000\nretry\n", 1000);
  assert_retry ("retry: 1000\nretry:  5\n", 1000);
  assert_retry ("retry: 1000\nretry: 5 \n", 1000);
  assert_retry ("retry: 1000\nretry: \xD9\xA3\n", 1000);
  assert_retry ("retry: 1000\nretry: 2000\n", 2000);
  assert_retry ("retry: 99999999999999999999999999\n", G_MAXINT64);
  /* Not applied until its line ends. */
  assert_retry ("retry: 1000\nretry: 2000", 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sse/spec/stock-ticker", test_spec_stock_ticker);
  g_test_add_func ("/sse/spec/event-types", test_spec_event_types);
  g_test_add_func ("/sse/spec/comment-and-ids", test_spec_comment_and_ids);
  g_test_add_func ("/sse/spec/empty-data", test_spec_empty_data);
  g_test_add_func ("/sse/spec/leading-space", test_spec_leading_space);
  g_test_add_func ("/sse/lf", test_line_endings_lf);
  g_test_add_func ("/sse/cr", test_line_endings_cr);
  g_test_add_func ("/sse/crlf", test_line_endings_crlf);
  g_test_add_func ("/sse/mixed-line-endings", test_line_endings_mixed);
  g_test_add_func ("/sse/crlf-split", test_line_endings_crlf_split);
  g_test_add_func ("/sse/cr-then-other", test_line_endings_cr_then_other);
  g_test_add_func ("/sse/bom/start", test_bom_start);
  g_test_add_func ("/sse/bom/split", test_bom_split);
  g_test_add_func ("/sse/bom/not-at-start", test_bom_not_at_start);
  g_test_add_func ("/sse/field/no-colon", test_field_without_colon);
  g_test_add_func ("/sse/field/unknown", test_field_unknown);
  g_test_add_func ("/sse/field/leading-space", test_field_leading_space);
  g_test_add_func ("/sse/field/value", test_field_value);
  g_test_add_func ("/sse/comments", test_comments);
  g_test_add_func ("/sse/event-type-reset", test_event_type_reset);
  g_test_add_func ("/sse/empty-data-not-dispatched", test_empty_data_not_dispatched);
  g_test_add_func ("/sse/id/persistence", test_id_persistence);
  g_test_add_func ("/sse/id/nul", test_id_nul);
  g_test_add_func ("/sse/retry", test_retry);

  return g_test_run ();
}
