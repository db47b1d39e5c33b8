/* test-sse-util.h — the event collector shared by the SSE parser tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "wire/agent-sse-parser-private.h"

#include "agent-test-feed.h"

G_BEGIN_DECLS

/* Every stream is parsed several ways (AgentTestFeedMode: whole, one byte
 * at a time, then this many times in random pieces); all must give the
 * same events. */
#define N_RANDOM_ROUNDS 8

typedef struct
{
  /* The events, one per line: "type|last event id|data", the data escaped. */
  GString    *log;
  guint       n_events;
  guint       n_ping;
  guint       n_done;
  GHashTable *types;
  gsize       max_size;
  /* Fail on the event of this number (counting from 1), or never if 0. */
  guint       fail_at;
} Collector;

void     collector_init  (Collector           *c);
void     collector_clear (Collector           *c);
gboolean collect_event   (const AgentSseEvent *event,
                          gpointer             user_data,
                          GError             **error);
gboolean feed_parser     (gpointer             parser,
                          const char          *bytes,
                          gsize                len,
                          GError             **error);
gboolean parse_stream    (const char          *stream,
                          gsize                len,
                          AgentTestFeedMode    mode,
                          GRand               *rand,
                          Collector           *c,
                          gboolean            *partial,
                          GError             **error);
void     assert_events   (const char          *stream,
                          gsize                len,
                          const char          *expected,
                          gboolean             expected_partial);

#define assert_stream(stream, expected, partial) \
  assert_events (stream, sizeof (stream) - 1, expected, partial)

#define feed_literal(parser, bytes, error) \
  agent_sse_parser_feed (parser, bytes, sizeof (bytes) - 1, error)

G_END_DECLS
