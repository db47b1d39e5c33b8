/* test-sse-util.c — the event collector shared by the SSE parser tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-util.h"
#include "test-sse-util.h"

void
collector_init (Collector *c)
{
  memset (c, 0, sizeof *c);
  c->log = g_string_new (NULL);
  c->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->max_size = AGENT_SSE_DEFAULT_MAX_SIZE;
}

void
collector_clear (Collector *c)
{
  g_string_free (c->log, TRUE);
  g_hash_table_unref (c->types);
}

gboolean
collect_event (const AgentSseEvent  *event,
               gpointer              user_data,
               GError              **error)
{
  Collector *c = user_data;

  g_assert_nonnull (event->type);
  g_assert_nonnull (event->data);
  g_assert_nonnull (event->last_event_id);
  g_assert_cmpint (event->data[event->data_len], ==, '\0');
  g_assert_cmpuint (event->data_len, <, c->max_size);

  c->n_events++;

  if (c->fail_at != 0 && c->n_events == c->fail_at)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Event %u refused", c->n_events);
      return FALSE;
    }

  g_string_append_printf (c->log, "%s|%s|", event->type, event->last_event_id);
  agent_test_append_escaped (c->log, event->data, event->data_len);
  g_string_append_c (c->log, '\n');

  g_hash_table_add (c->types, g_strdup (event->type));

  if (strcmp (event->type, "ping") == 0)
    c->n_ping++;

  if (event->data_len == 6 && memcmp (event->data, "[DONE]", 6) == 0)
    c->n_done++;

  return TRUE;
}

gboolean
feed_parser (gpointer     parser,
             const char  *bytes,
             gsize        len,
             GError     **error)
{
  return agent_sse_parser_feed (parser, bytes, len, error);
}

/* Parses @stream and finishes it; returns what finish returned. */
gboolean
parse_stream (const char         *stream,
              gsize               len,
              AgentTestFeedMode   mode,
              GRand              *rand,
              Collector          *c,
              gboolean           *partial,
              GError            **error)
{
  g_autoptr(AgentSseParser) parser = agent_sse_parser_new (collect_event, c);

  agent_sse_parser_set_max_size (parser, c->max_size);

  if (!agent_test_feed (feed_parser, parser, stream, len, mode, rand, error))
    return FALSE;

  if (!agent_sse_parser_finish (parser, error))
    return FALSE;

  if (partial != NULL)
    *partial = agent_sse_parser_had_partial_event (parser);

  return TRUE;
}

/* Checks that @stream gives the events of @expected however it is cut. */
void
assert_events (const char *stream,
               gsize       len,
               const char *expected,
               gboolean    expected_partial)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (0x5eed + len);

  for (guint round = 0; round < 2 + N_RANDOM_ROUNDS; round++)
    {
      AgentTestFeedMode mode = MIN (round, AGENT_TEST_FEED_RANDOM);
      g_autoptr(GError) error = NULL;
      gboolean partial = !expected_partial;
      Collector c;

      collector_init (&c);

      g_assert_true (parse_stream (stream, len, mode, rand, &c, &partial, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (c.log->str, ==, expected);
      g_assert_cmpint (partial, ==, expected_partial);

      collector_clear (&c);
    }
}
