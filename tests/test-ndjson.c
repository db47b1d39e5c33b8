/* test-ndjson.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "agent-error.h"
#include "wire/agent-ndjson-private.h"

#include "agent-test-feed.h"
#include "agent-test-util.h"

/* Every stream is split several ways (AgentTestFeedMode: whole, one byte
 * at a time, then this many times in random pieces); all must give the
 * same lines. */
#define N_RANDOM_ROUNDS 8

typedef struct
{
  /* The lines delivered, escaped, one per line. */
  GString *log;
  guint    n_lines;
  gsize    max_line;
  /* Fail on the line of this number (counting from 1), or never if 0. */
  guint    fail_at;
  /* Parse every line as JSON. */
  gboolean check_json;
} Collector;

static void
collector_init (Collector *c)
{
  memset (c, 0, sizeof *c);
  c->log = g_string_new (NULL);
  c->max_line = AGENT_NDJSON_DEFAULT_MAX_LINE;
}

static void
collector_clear (Collector *c)
{
  g_string_free (c->log, TRUE);
}

static gboolean
collect_line (const char  *line,
              gsize        len,
              gpointer     user_data,
              GError     **error)
{
  Collector *c = user_data;

  g_assert_nonnull (line);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len, <=, c->max_line);
  g_assert_cmpint (line[len], ==, '\0');
  g_assert_null (memchr (line, '\n', len));

  c->n_lines++;

  if (c->fail_at != 0 && c->n_lines == c->fail_at)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Line %u refused", c->n_lines);
      return FALSE;
    }

  if (c->check_json)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) json_error = NULL;

      g_assert_true (json_parser_load_from_data (parser, line, len, &json_error));
      g_assert_no_error (json_error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
    }

  agent_test_append_escaped (c->log, line, len);
  g_string_append_c (c->log, '\n');

  return TRUE;
}

static gboolean
feed_splitter (gpointer     splitter,
               const char  *bytes,
               gsize        len,
               GError     **error)
{
  return agent_ndjson_splitter_feed (splitter, bytes, len, error);
}

/* Splits @stream and finishes it; @n_at_finish gets the number of lines
 * that only finish delivered. */
static gboolean
split_stream (const char         *stream,
              gsize               len,
              AgentTestFeedMode   mode,
              GRand              *rand,
              Collector          *c,
              guint              *n_at_finish,
              GError            **error)
{
  g_autoptr(AgentNdjsonSplitter) splitter = agent_ndjson_splitter_new (collect_line, c);
  guint n_before;

  agent_ndjson_splitter_set_max_line (splitter, c->max_line);

  if (!agent_test_feed (feed_splitter, splitter, stream, len, mode, rand, error))
    return FALSE;

  n_before = c->n_lines;

  if (!agent_ndjson_splitter_finish (splitter, error))
    return FALSE;

  if (n_at_finish != NULL)
    *n_at_finish = c->n_lines - n_before;

  return TRUE;
}

static void
assert_lines (const char *stream,
              gsize       len,
              const char *expected)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (0x5eed + len);

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);

      g_assert_true (split_stream (stream, len, mode, rand, &c, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, expected);

      collector_clear (&c);
    }
}

#define assert_stream(stream, expected) \
  assert_lines (stream, sizeof (stream) - 1, expected)

#define feed_literal(splitter, bytes, error) \
  agent_ndjson_splitter_feed (splitter, bytes, sizeof (bytes) - 1, error)

static void
test_lf (void)
{
  assert_stream ("{\"a\":1}\n{\"b\":2}\n", "{\"a\":1}\n{\"b\":2}\n");
  assert_stream ("x\n", "x\n");
  assert_stream ("", "");
}

static void
test_crlf (void)
{
  assert_stream ("{\"a\":1}\r\n{\"b\":2}\r\n", "{\"a\":1}\n{\"b\":2}\n");
  assert_stream ("a\r\nb\nc\r\n", "a\nb\nc\n");
}

static void
test_crlf_split (void)
{
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  splitter = agent_ndjson_splitter_new (collect_line, &c);

  g_assert_true (feed_literal (splitter, "a\r", &error));
  g_assert_cmpuint (c.n_lines, ==, 0);
  g_assert_true (feed_literal (splitter, "\nb\r", &error));
  g_assert_cmpstr (c.log->str, ==, "a\n");
  g_assert_true (feed_literal (splitter, "", &error));
  g_assert_true (agent_ndjson_splitter_feed (splitter, NULL, 0, &error));
  g_assert_true (feed_literal (splitter, "\n", &error));
  g_assert_cmpstr (c.log->str, ==, "a\nb\n");
  g_assert_true (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "a\nb\n");

  collector_clear (&c);
}

static void
test_cr_kept (void)
{
  /* Only a CR right before the LF belongs to the line ending. */
  assert_stream ("a\rb\n", "a\\rb\n");
  assert_stream ("a\r\r\n", "a\\r\n");
  assert_stream ("\ra\n", "\\ra\n");
  assert_stream ("a\rb\rc", "a\\rb\\rc\n");
}

static void
test_empty_lines (void)
{
  /* Empty lines are skipped; blank but not empty ones are delivered. */
  assert_stream ("\n\n{}\n\n\r\n\r\n{}\n", "{}\n{}\n");
  assert_stream (" \n\t\n \r\n", " \n\t\n \n");
  assert_stream ("\n", "");
  assert_stream ("\r\n", "");
  assert_stream ("\r", "");
}

static void
test_no_trailing_newline (void)
{
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  splitter = agent_ndjson_splitter_new (collect_line, &c);

  g_assert_true (feed_literal (splitter, "{\"a\":1}\n{\"b\"", &error));
  g_assert_true (feed_literal (splitter, ":2}", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "{\"a\":1}\n");

  g_assert_true (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c.log->str, ==, "{\"a\":1}\n{\"b\":2}\n");

  /* Finishing again delivers nothing more. */
  g_assert_true (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_lines, ==, 2);

  collector_clear (&c);

  assert_stream ("a\nb", "a\nb\n");
  assert_stream ("a\nb\r", "a\nb\n");
  assert_stream ("a", "a\n");
}

static void
test_nul_bytes (void)
{
  static const char stream[] = "a\0b\n\0\n\0\r\n";

  assert_lines (stream, sizeof stream - 1, "a\\0b\n\\0\n\\0\n");
}

static void
test_utf8_split (void)
{
  static const char stream[] =
    "{\"text\":\"\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xE4\xB8\xAD\xE6\x96\x87\"}\r\n"
    "{\"more\":\"\xF0\x9F\x98\x80\"}";
  static const char expected[] =
    "{\"text\":\"\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xE4\xB8\xAD\xE6\x96\x87\"}\n"
    "{\"more\":\"\xF0\x9F\x98\x80\"}\n";
  gsize len = sizeof stream - 1;

  for (gsize i = 0; i <= len; i++)
    {
      g_autoptr(AgentNdjsonSplitter) splitter = NULL;
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      c.check_json = TRUE;
      splitter = agent_ndjson_splitter_new (collect_line, &c);

      g_assert_true (agent_test_feed_cut (feed_splitter, splitter, stream, len, i, &error));
      g_assert_true (agent_ndjson_splitter_finish (splitter, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, expected);

      collector_clear (&c);
    }

  assert_lines (stream, len, expected);
}

static void
test_chunking (void)
{
  g_autoptr(GString) stream = g_string_new (NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree char *reference = NULL;

  for (guint i = 0; i < 1000; i++)
    {
      g_string_append_printf (stream,
                              "{\"model\":\"m\",\"message\":{\"role\":\"assistant\","
                              "\"content\":\"t\xC3\xA9xt %u\"},\"done\":false}%s",
                              i,
                              i % 3 == 0 ? "\r\n" : "\n");
      if (i % 7 == 0)
        g_string_append (stream, i % 2 ? "\n" : "\r\n");
    }
  g_string_append (stream, "{\"done\":true}");

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      g_autoptr(GError) error = NULL;
      guint n_at_finish = 0;
      Collector c;

      collector_init (&c);
      c.check_json = round < 3;

      g_assert_true (split_stream (stream->str, stream->len, mode, rand, &c, &n_at_finish, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (c.n_lines, ==, 1001);
      g_assert_cmpuint (n_at_finish, ==, 1);

      if (reference == NULL)
        reference = g_strdup (c.log->str);
      else
        g_assert_cmpstr (c.log->str, ==, reference);

      collector_clear (&c);
    }
}

static void
test_linear_one_byte (void)
{
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) stream = g_string_new (NULL);
  Collector c;

  /* One long line then many short ones, one byte at a time. */
  for (guint i = 0; i < 512 * 1024; i++)
    g_string_append_c (stream, 'a' + i % 26);
  g_string_append (stream, "\r\n");
  for (guint i = 0; i < 20000; i++)
    g_string_append (stream, "{}\n");

  collector_init (&c);
  splitter = agent_ndjson_splitter_new (collect_line, &c);

  g_assert_true (agent_test_feed (feed_splitter, splitter, stream->str, stream->len,
                                  AGENT_TEST_FEED_BYTES, NULL, &error));

  g_assert_true (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.n_lines, ==, 20001);
  g_assert_cmpuint (c.log->len, ==, 512 * 1024 + 1 + 20000 * 3);

  collector_clear (&c);
}

static void
assert_too_long (const char *stream,
                 gsize       max_line,
                 const char *expected)
{
  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      c.max_line = max_line;

      g_assert_false (split_stream (stream, strlen (stream), mode, NULL, &c, NULL, &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
      g_assert_nonnull (strstr (error->message, "line"));
      g_assert_nonnull (strstr (error->message, "8 bytes"));
      g_assert_cmpstr (c.log->str, ==, expected);

      collector_clear (&c);
    }
}

static void
test_limit_line (void)
{
  static const char *fits = "12345678\n12345678\r\n1234567\r\r\n12345678\r";

  /* The line ending does not count... */
  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      g_autoptr(GError) error = NULL;
      Collector c;

      collector_init (&c);
      c.max_line = 8;

      g_assert_true (split_stream (fits, strlen (fits), mode, NULL, &c, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, "12345678\n12345678\n1234567\\r\n12345678\n");

      collector_clear (&c);
    }

  /* ...but one byte more is too much, whether or not the line is complete. */
  assert_too_long ("1\n123456789\n2\n", 8, "1\n");
  assert_too_long ("1\n123456789\r\n2\n", 8, "1\n");
  assert_too_long ("1\n12345678\r\r\n2\n", 8, "1\n");
  assert_too_long ("1\n123456789", 8, "1\n");
  assert_too_long ("1\n12345678\r\r", 8, "1\n");
  assert_too_long ("1\n123456789abcdefghijklmnopqrstuvwxyz", 8, "1\n");
}

static void
test_limit_default (void)
{
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *piece = g_malloc (64 * 1024);
  gsize fed = 0;
  Collector c;

  collector_init (&c);
  splitter = agent_ndjson_splitter_new (collect_line, &c);
  memset (piece, 'x', 64 * 1024);

  /* No newline ever comes: the splitter must give up around 16 MiB. */
  while (fed < 32 * 1024 * 1024)
    {
      if (!agent_ndjson_splitter_feed (splitter, piece, 64 * 1024, &error))
        break;
      fed += 64 * 1024;
    }

  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, "A line of the JSON stream is longer than 16 MiB");
  g_assert_cmpuint (fed, ==, AGENT_NDJSON_DEFAULT_MAX_LINE);
  g_assert_cmpuint (c.n_lines, ==, 0);

  collector_clear (&c);
}

static void
test_refuse_after_error (void)
{
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);
  splitter = agent_ndjson_splitter_new (collect_line, &c);
  agent_ndjson_splitter_set_max_line (splitter, 4);

  g_assert_false (feed_literal (splitter, "123456\n", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_clear_error (&error);

  g_assert_false (feed_literal (splitter, "{}\n", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_false (feed_literal (splitter, "", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);

  g_assert_false (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);

  g_assert_cmpuint (c.n_lines, ==, 0);

  collector_clear (&c);
}

static void
test_callback_error (void)
{
  static const char stream[] = "1\n2\n3\n4";
  g_autoptr(AgentNdjsonSplitter) splitter = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;

  for (guint mode = AGENT_TEST_FEED_WHOLE; mode <= AGENT_TEST_FEED_BYTES; mode++)
    {
      collector_init (&c);
      c.fail_at = 2;

      g_assert_false (split_stream (stream, sizeof stream - 1, mode, NULL, &c, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
      g_assert_cmpstr (error->message, ==, "Line 2 refused");
      g_clear_error (&error);

      g_assert_cmpuint (c.n_lines, ==, 2);
      g_assert_cmpstr (c.log->str, ==, "1\n");

      collector_clear (&c);
    }

  /* A failure in the line that finish delivers is reported by finish. */
  collector_init (&c);
  c.fail_at = 4;

  g_assert_false (split_stream (stream, sizeof stream - 1, AGENT_TEST_FEED_WHOLE, NULL, &c, NULL,
                                &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "Line 4 refused");
  g_clear_error (&error);
  g_assert_cmpstr (c.log->str, ==, "1\n2\n3\n");

  collector_clear (&c);

  /* And the splitter refuses anything further. */
  collector_init (&c);
  c.fail_at = 1;
  splitter = agent_ndjson_splitter_new (collect_line, &c);

  g_assert_false (feed_literal (splitter, "1\n2\n", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  g_assert_false (feed_literal (splitter, "3\n", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpuint (c.n_lines, ==, 1);

  collector_clear (&c);
}

/* The corpus of recorded streams. */

static void
test_corpus_file (gconstpointer user_data)
{
  const char *path = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  g_autoptr(JsonObject) transport = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  transport = agent_test_load_corpus_file (path, ".ndjson", &contents, &len);

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      guint n_at_finish = 0;
      Collector c;

      collector_init (&c);
      c.check_json = TRUE;

      g_assert_true (split_stream (contents, len, mode, rand, &c, &n_at_finish, &error));
      g_assert_no_error (error);

      g_assert_cmpint (c.n_lines, ==, json_object_get_int_member (transport, "lines"));
      g_assert_cmpuint (n_at_finish,
                        ==,
                        json_object_get_boolean_member (transport, "trailing_newline") ? 0 : 1);

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

  g_test_add_func ("/ndjson/lf", test_lf);
  g_test_add_func ("/ndjson/crlf", test_crlf);
  g_test_add_func ("/ndjson/crlf-split", test_crlf_split);
  g_test_add_func ("/ndjson/cr-kept", test_cr_kept);
  g_test_add_func ("/ndjson/empty-lines", test_empty_lines);
  g_test_add_func ("/ndjson/no-trailing-newline", test_no_trailing_newline);
  g_test_add_func ("/ndjson/nul-bytes", test_nul_bytes);
  g_test_add_func ("/ndjson/utf8-split", test_utf8_split);
  g_test_add_func ("/ndjson/chunking", test_chunking);
  g_test_add_func ("/ndjson/linear-one-byte", test_linear_one_byte);
  g_test_add_func ("/ndjson/limit/line", test_limit_line);
  g_test_add_func ("/ndjson/limit/default", test_limit_default);
  g_test_add_func ("/ndjson/refuse-after-error", test_refuse_after_error);
  g_test_add_func ("/ndjson/callback-error", test_callback_error);

  agent_test_add_corpus_tests ("/ndjson/corpus", "ollama", ".ndjson", test_corpus_file);

  return g_test_run ();
}
