/* test-sse-stream.c — the SSE parser at the end of a stream, under any
 * chunking, at its limits, after errors, and on the recorded corpus
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
test_eof_incomplete_event (void)
{
  assert_stream ("data: a\n\ndata: b\n", "message||a\n", TRUE);
  assert_stream ("data: a\n\ndata: b\r\n", "message||a\n", TRUE);
  assert_stream ("data: a\n\nevent: x\ndata: b\ndata: c\n", "message||a\n", TRUE);
  /* Only a type or an id pending is not an event. */
  assert_stream ("data: a\n\nevent: x\n", "message||a\n", FALSE);
  assert_stream ("data: a\n\nid: 1\n", "message||a\n", FALSE);
  assert_stream ("", "", FALSE);
}

static void
test_eof_unterminated_line (void)
{
  assert_stream ("data: a\n\ndata: b", "message||a\n", TRUE);
  assert_stream ("data: a\n\n: comment", "message||a\n", TRUE);
  assert_stream ("data: a", "", TRUE);
  /* A CR ends a line, even as the very last byte. */
  assert_stream ("data: a\r\r", "message||a\n", FALSE);
  assert_stream ("data: a\r", "", TRUE);
  assert_stream ("data: a\n\r", "message||a\n", FALSE);
}

static void
test_partial_before_finish (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  g_assert_false (agent_sse_parser_had_partial_event (parser));
  g_assert_true (agent_sse_parser_feed (parser, "data: a", 7, &error));
  g_assert_true (agent_sse_parser_had_partial_event (parser));
  g_assert_true (agent_sse_parser_feed (parser, "\n", 1, &error));
  g_assert_true (agent_sse_parser_had_partial_event (parser));
  g_assert_true (agent_sse_parser_feed (parser, "\n", 1, &error));
  g_assert_false (agent_sse_parser_had_partial_event (parser));
  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_no_error (error);
  g_assert_false (agent_sse_parser_had_partial_event (parser));
  g_assert_cmpuint (c.n_events, ==, 1);

  collector_clear (&c);
}

static void
test_nul_bytes (void)
{
  static const char stream[] = "data: a\0b\ndata: \0\n\n";
  static const char expected[] = "message||a\\0b\\n\\0\n";

  assert_events (stream, sizeof stream - 1, expected, FALSE);
}

static void
test_utf8_split (void)
{
  /* Two, three and four byte sequences, in the type, the id and the data. */
  static const char stream[] =
    "event: h\xC3\xA9\n"
    "id: \xE2\x82\xAC\n"
    "data: \xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xE4\xB8\xAD\xE6\x96\x87\n"
    "\n";
  static const char expected[] =
    "h\xC3\xA9|\xE2\x82\xAC|"
    "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xE4\xB8\xAD\xE6\x96\x87\n";
  gsize len = sizeof stream - 1;

  for (gsize i = 0; i <= len; i++)
    {
      g_autoptr(AgentSseParser) parser = NULL;
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      parser = agent_sse_parser_new (collect_event, &c);

      g_assert_true (agent_test_feed_cut (feed_parser, parser, stream, len, i, &error));
      g_assert_true (agent_sse_parser_finish (parser, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, expected);
      g_assert_true (g_utf8_validate (c.log->str, -1, NULL));

      collector_clear (&c);
    }

  assert_events (stream, len, expected, FALSE);
}

/* A stream with a bit of everything, for cutting in many ways. */
static GString *
make_mixed_stream (guint n_events)
{
  static const char *endings[] = { "\n", "\r\n", "\r" };
  GString *stream = g_string_new ("\xEF\xBB\xBF");
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < n_events; i++)
    {
      const char *eol = endings[g_rand_int_range (rand, 0, G_N_ELEMENTS (endings))];

      if (i % 7 == 0)
        g_string_append_printf (stream, ": keep-alive %u%s", i, eol);
      if (i % 5 == 0)
        g_string_append_printf (stream, "event: type-%u%s", i % 3, eol);
      if (i % 11 == 0)
        g_string_append_printf (stream, "id: %u%s", i, eol);
      if (i % 13 == 0)
        g_string_append_printf (stream, "retry: %u%s", i * 10, eol);
      if (i % 17 == 0)
        g_string_append_printf (stream, " data: ignored%s", eol);

      g_string_append_printf (stream,
                              "data: {\"id\":\"chatcmpl-%u\",\"choices\":[{\"delta\":"
                              "{\"content\":\"t\xC3\xA9xt %u\"}}]}%s",
                              i, i, eol);

      if (i % 3 == 0)
        g_string_append_printf (stream, "data:second line%s", eol);

      g_string_append (stream, eol);
    }

  /* And an unfinished event to end. */
  g_string_append (stream, "data: cut");

  return stream;
}

static void
test_chunking (void)
{
  g_autoptr(GString) stream = make_mixed_stream (500);
  g_autofree char *reference = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const gsize fixed_sizes[] = { 2, 3, 7, 64, 4096, 16384 };

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      g_autoptr(GError) error = NULL;
      gboolean partial = FALSE;
      Collector c;

      collector_init (&c);
      g_assert_true (parse_stream (stream->str, stream->len, mode, rand, &c, &partial, &error));
      g_assert_no_error (error);
      g_assert_true (partial);
      g_assert_cmpuint (c.n_events, ==, 500);

      if (reference == NULL)
        reference = g_strdup (c.log->str);
      else
        g_assert_cmpstr (c.log->str, ==, reference);

      collector_clear (&c);
    }

  for (guint i = 0; i < G_N_ELEMENTS (fixed_sizes); i++)
    {
      g_autoptr(AgentSseParser) parser = NULL;
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      parser = agent_sse_parser_new (collect_event, &c);

      g_assert_true (agent_test_feed_pieces (feed_parser, parser, stream->str, stream->len,
                                             fixed_sizes[i], NULL, &error));

      g_assert_true (agent_sse_parser_finish (parser, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, reference);
      g_assert_cmpint (agent_sse_parser_get_retry (parser), ==, 4940);

      collector_clear (&c);
    }
}

static void
test_linear_one_byte (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) stream = g_string_new ("data: ");
  Collector c;

  /* One long line and many short ones, one byte at a time. A parser that
   * rescanned what it buffered would take minutes here. */
  for (guint i = 0; i < 512 * 1024; i++)
    g_string_append_c (stream, 'a' + i % 26);
  g_string_append (stream, "\r\n");
  for (guint i = 0; i < 20000; i++)
    g_string_append (stream, "data:x\r");
  g_string_append (stream, "\r");

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  g_assert_true (agent_test_feed (feed_parser, parser, stream->str, stream->len,
                                  AGENT_TEST_FEED_BYTES, NULL, &error));

  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_events, ==, 1);
  g_assert_cmpuint (c.log->len, ==, strlen ("message||") + 512 * 1024 + 20000 * 3 + 1);

  collector_clear (&c);
}

static void
test_limit_line (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  /* Exactly the limit is fine, however it arrives. */
  collector_init (&c);
  c.max_size = 16;
  g_assert_true (parse_stream ("data: 0123456789\n\n", 18, AGENT_TEST_FEED_WHOLE, NULL, &c, NULL,
                               &error));
  g_assert_true (parse_stream ("data: 0123456789\n\n", 18, AGENT_TEST_FEED_BYTES, NULL, &c, NULL,
                               &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_events, ==, 2);
  collector_clear (&c);

  /* One byte more is not, whether the line is complete or not, and whatever
   * the line is. */
  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      static const char *streams[] = {
        "data: a\n\ndata: 01234567890\n\n",
        "data: a\n\ndata: 01234567890",
        "data: a\n\n: comment comment",
        "data: a\n\nxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
        "data: a\r\rxxxxxxxxxxxxxxxxx\r",
      };

      for (guint i = 0; i < G_N_ELEMENTS (streams); i++)
        {
          collector_init (&c);
          c.max_size = 16;

          g_assert_false (parse_stream (streams[i], strlen (streams[i]), mode, NULL,
                                        &c, NULL, &error));
          g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
          g_assert_nonnull (strstr (error->message, "line"));
          g_assert_nonnull (strstr (error->message, "16 bytes"));
          g_assert_cmpstr (c.log->str, ==, "message||a\n");
          g_clear_error (&error);

          collector_clear (&c);
        }
    }

  /* The line ending does not count. */
  collector_init (&c);
  c.max_size = 7;
  parser = agent_sse_parser_new (collect_event, &c);
  agent_sse_parser_set_max_size (parser, 7);
  g_assert_true (agent_sse_parser_feed (parser, "data: a\r", 8, &error));
  g_assert_true (agent_sse_parser_feed (parser, "\n\r\n", 3, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_events, ==, 1);
  collector_clear (&c);
}

static void
assert_too_large (const char *stream,
                  gsize       max_size,
                  const char *expected,
                  const char *what)
{
  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      c.max_size = max_size;

      g_assert_false (parse_stream (stream, strlen (stream), mode, NULL, &c, NULL, &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
      g_assert_nonnull (strstr (error->message, what));
      g_assert_cmpstr (c.log->str, ==, expected);

      collector_clear (&c);
    }
}

static void
test_limit_event (void)
{
  static const char *fits =
    "data: 0123456\ndata: 0123456\ndata: 0123456\ndata: 0123456\n\n"
    "event: 01\ndata: 0123456\ndata: 0123456\ndata: 0123456\ndata: 0\n\n";

  /* Each data line counts its value and a LF: 4 lines of 8 make 32. */
  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      c.max_size = 32;

      g_assert_true (parse_stream (fits, strlen (fits), mode, NULL, &c, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (c.n_events, ==, 2);

      collector_clear (&c);
    }

  /* One byte more is too much: the events before are delivered, not the
   * ones after. */
  assert_too_large ("data: 0\n\n"
                    "data: 0123456\ndata: 0123456\ndata: 0123456\ndata: 01234567\n\n"
                    "data: 1\n\n",
                    32,
                    "message||0\n",
                    "event of the event stream is larger than 32 bytes");

  /* The event type counts too, whichever comes first. */
  assert_too_large ("event: 0123456789\ndata: 0123456\ndata: 0123456\ndata: 0123456\n\n",
                    32,
                    "",
                    "larger than 32 bytes");
  assert_too_large ("data: 0123456\ndata: 0123456\ndata: 0123456\nevent: 0123456789\n\n",
                    32,
                    "",
                    "larger than 32 bytes");
}

static void
test_limit_default (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *piece = g_malloc (64 * 1024);
  gsize fed = 0;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  memset (piece, 'x', 64 * 1024);
  memcpy (piece, "data: ", 6);

  g_assert_true (agent_sse_parser_feed (parser, piece, 64 * 1024, &error));
  fed += 64 * 1024;
  memset (piece, 'x', 6);

  /* No line ending ever comes: the parser must give up once the line is
   * longer than 16 MiB, not keep buffering. */
  while (fed < 32 * 1024 * 1024)
    {
      if (!agent_sse_parser_feed (parser, piece, 64 * 1024, &error))
        break;
      fed += 64 * 1024;
    }

  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, "A line of the event stream is longer than 16 MiB");
  g_assert_cmpuint (fed, ==, AGENT_SSE_DEFAULT_MAX_SIZE);
  g_assert_cmpuint (c.n_events, ==, 0);

  collector_clear (&c);
}

static void
test_refuse_after_error (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);
  agent_sse_parser_set_max_size (parser, 8);

  g_assert_false (agent_sse_parser_feed (parser, "data: 0123456789\n\n", 18, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_clear_error (&error);

  g_assert_false (agent_sse_parser_feed (parser, "data: a\n\n", 9, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_false (agent_sse_parser_feed (parser, "", 0, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_false (agent_sse_parser_finish (parser, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_cmpuint (c.n_events, ==, 0);

  /* A reset makes it usable again. */
  agent_sse_parser_reset (parser);
  g_assert_true (agent_sse_parser_feed (parser, "data: a\n\n", 9, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||a\n");

  collector_clear (&c);
}

static void
test_callback_error (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  static const char stream[] = "data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n";
  Collector c;

  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      collector_init (&c);
      c.fail_at = 2;

      g_assert_false (parse_stream (stream, sizeof stream - 1, mode, NULL, &c, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
      g_assert_cmpstr (error->message, ==, "Event 2 refused");
      g_clear_error (&error);

      /* Nothing after the failing event was dispatched. */
      g_assert_cmpuint (c.n_events, ==, 2);
      g_assert_cmpstr (c.log->str, ==, "message||1\n");

      collector_clear (&c);
    }

  collector_init (&c);
  c.fail_at = 1;
  parser = agent_sse_parser_new (collect_event, &c);

  g_assert_false (agent_sse_parser_feed (parser, stream, sizeof stream - 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  g_assert_false (agent_sse_parser_feed (parser, stream, sizeof stream - 1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpuint (c.n_events, ==, 1);

  collector_clear (&c);
}

static void
test_reset (void)
{
  g_autoptr(AgentSseParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *big = NULL;
  Collector c;

  collector_init (&c);
  parser = agent_sse_parser_new (collect_event, &c);

  /* Leave every piece of state set: id, retry, type, data, a pending line,
   * a pending CR, and large buffers. */
  big = g_strnfill (200 * 1024, 'b');
  g_assert_true (feed_literal (parser, "\xEF\xBB\xBF" "id: 9\nretry: 5\n", &error));
  g_assert_true (feed_literal (parser, "data: ", &error));
  g_assert_true (agent_sse_parser_feed (parser, big, 200 * 1024, &error));
  g_assert_true (feed_literal (parser, "\nevent: e\ndata: x\r", &error));
  g_assert_no_error (error);
  g_assert_cmpint (agent_sse_parser_get_retry (parser), ==, 5);
  g_assert_true (agent_sse_parser_had_partial_event (parser));

  agent_sse_parser_reset (parser);

  g_assert_cmpint (agent_sse_parser_get_retry (parser), ==, -1);
  g_assert_false (agent_sse_parser_had_partial_event (parser));

  /* A new stream: its byte order mark is dropped, the pending CR forgotten,
   * the old id, type and data gone. */
  g_assert_true (feed_literal (parser, "\xEF\xBB\xBF" "\ndata: y\n\n", &error));
  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||y\n");
  g_assert_false (agent_sse_parser_had_partial_event (parser));

  /* And after finish too. */
  g_assert_true (agent_sse_parser_feed (parser, "data: z", 7, &error));
  g_assert_true (agent_sse_parser_finish (parser, &error));
  g_assert_true (agent_sse_parser_had_partial_event (parser));
  agent_sse_parser_reset (parser);
  g_assert_false (agent_sse_parser_had_partial_event (parser));
  g_assert_true (agent_sse_parser_feed (parser, "data: w\n\n", 9, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "message||y\nmessage||w\n");

  collector_clear (&c);
}

/* The corpus of recorded streams. */

static int
compare_strings (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static char *
sorted_types (GHashTable *types)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, types);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);

  g_ptr_array_sort_with_data (keys, compare_strings, NULL);
  g_ptr_array_add (keys, NULL);

  return g_strjoinv (",", (char **) keys->pdata);
}

static void
test_corpus_file (gconstpointer user_data)
{
  const char *path = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  g_autoptr(GPtrArray) expected_types = g_ptr_array_new ();
  g_autoptr(JsonObject) transport = NULL;
  g_autofree char *expected_types_str = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *contents = NULL;
  JsonArray *values;
  gboolean expected_partial;
  gsize len;

  transport = agent_test_load_corpus_file (path, ".sse", &contents, &len);

  values = json_object_get_array_member (transport, "event_field_values");
  for (guint i = 0; i < json_array_get_length (values); i++)
    g_ptr_array_add (expected_types, (gpointer) json_array_get_string_element (values, i));
  g_ptr_array_sort_with_data (expected_types, compare_strings, NULL);
  g_ptr_array_add (expected_types, NULL);
  expected_types_str = g_strjoinv (",", (char **) expected_types->pdata);

  expected_partial =
    json_object_get_boolean_member_with_default (transport,
                                                 "incomplete_event_discarded_at_eof",
                                                 FALSE);

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      g_autofree char *types = NULL;
      gboolean partial = FALSE;
      Collector c;

      collector_init (&c);

      g_assert_true (parse_stream (contents, len, mode, rand, &c, &partial, &error));
      g_assert_no_error (error);

      g_assert_cmpint (c.n_events, ==, json_object_get_int_member (transport, "events_dispatched"));
      types = sorted_types (c.types);
      g_assert_cmpstr (types, ==, expected_types_str);
      g_assert_cmpint (partial, ==, expected_partial);
      g_assert_cmpint (c.n_done > 0,
                       ==,
                       json_object_get_boolean_member (transport, "done_sentinel"));
      if (json_object_has_member (transport, "ping_events"))
        g_assert_cmpint (c.n_ping, ==, json_object_get_int_member (transport, "ping_events"));

      if (reference == NULL)
        reference = g_strdup (c.log->str);
      else
        g_assert_cmpstr (c.log->str, ==, reference);

      collector_clear (&c);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sse/eof/incomplete-event", test_eof_incomplete_event);
  g_test_add_func ("/sse/eof/unterminated-line", test_eof_unterminated_line);
  g_test_add_func ("/sse/eof/partial-before-finish", test_partial_before_finish);
  g_test_add_func ("/sse/nul-bytes", test_nul_bytes);
  g_test_add_func ("/sse/utf8-split", test_utf8_split);
  g_test_add_func ("/sse/chunking", test_chunking);
  g_test_add_func ("/sse/linear-one-byte", test_linear_one_byte);
  g_test_add_func ("/sse/limit/line", test_limit_line);
  g_test_add_func ("/sse/limit/event", test_limit_event);
  g_test_add_func ("/sse/limit/default", test_limit_default);
  g_test_add_func ("/sse/refuse-after-error", test_refuse_after_error);
  g_test_add_func ("/sse/callback-error", test_callback_error);
  g_test_add_func ("/sse/reset", test_reset);

  agent_test_add_corpus_tests ("/sse/corpus", NULL, ".sse", test_corpus_file);

  return g_test_run ();
}
