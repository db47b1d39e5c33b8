/* bench-pipeline.h — libagent's decoding pipeline alone, without I/O
 *
 * agent_stream_decoder_new (&agent_openai_chat_backend.stream, accumulator, NULL) with a
 * listener that counts deltas: SSE framing → agent_json (simdjson) → the OpenAI chat
 * decoder → the accumulator. No HTTP, no GObject signals.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "bench-util.h"
#include "bench-workload.h"

G_BEGIN_DECLS

typedef enum
{
  BENCH_FEED_PIECES,   /* BENCH_FEED_PIECE_SIZE bytes per feed call */
  BENCH_FEED_EVENTS,   /* one SSE event per feed call */
} BenchFeed;

#define BENCH_FEED_PIECE_SIZE (16 * 1024)

/* Measures new → feed everything → finish. */
gboolean bench_pipeline_run           (BenchStream        *stream,
                                       BenchFeed           feed,
                                       BenchRun           *run,
                                       GError            **error);

/* The same, with the stream generated piece by piece and never whole in
 * memory, so that the peak RSS is the pipeline's. Only the feed and
 * finish calls are timed. */
gboolean bench_pipeline_run_generated (BenchWorkload       workload,
                                       guint               n,
                                       BenchFeed           feed,
                                       BenchRun           *run,
                                       GError            **error);

/* CPU seconds of parts of the pipeline over @stream in BENCH_FEED_PIECE_SIZE
 * pieces: SSE framing alone (events discarded), and SSE framing plus
 * cJSON_ParseWithLength()/cJSON_Delete() of each event. */
double   bench_pipeline_sse_only      (BenchStream        *stream);
double   bench_pipeline_sse_json      (BenchStream        *stream);
double   bench_pipeline_sse_cjson     (BenchStream        *stream);
double   bench_pipeline_sse_json_glib (BenchStream        *stream);

/* Compares what a run saw with what the stream holds. */
gboolean bench_check_run              (const char         *what,
                                       const BenchExpect  *expect,
                                       const BenchRun     *run,
                                       GError            **error);

G_END_DECLS
