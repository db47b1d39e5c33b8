/* bench-workload.h — deterministic OpenAI chat-completion streams
 *
 * Each workload is a `text/event-stream` body as OpenAI's servers send it
 * with `stream_options.include_usage`: `chat.completion.chunk` objects with
 * id, object, created, model, system_fingerprint, choices (index, delta,
 * logprobs, finish_reason) and `"usage": null`, then a finish chunk, a usage
 * chunk with `"choices": []` and `data: [DONE]`. The same workload and size
 * always give the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  /* n text deltas: words of varying length, some non-ASCII or escaped. */
  BENCH_WORKLOAD_TEXT,
  /* 4 parallel tool calls whose arguments arrive as n interleaved
   * fragments in all; the first fragment of each call carries its id,
   * type and name. finish_reason "tool_calls". */
  BENCH_WORKLOAD_TOOLS,
  /* n reasoning_content deltas, then n content deltas (DeepSeek style). */
  BENCH_WORKLOAD_REASONING,
  /* A few words: the answer to the request that carries tool results. */
  BENCH_WORKLOAD_SHORT,
  BENCH_N_WORKLOADS
} BenchWorkload;

/* What a correct client sees for a whole stream. */
typedef struct
{
  guint64 n_events;            /* SSE events, [DONE] included */
  guint64 n_text_deltas;
  guint64 n_reasoning_deltas;
  guint64 n_tool_deltas;       /* tool-call fragments, first ones included */
  guint64 text_bytes;          /* decoded UTF-8 */
  guint64 reasoning_bytes;
  guint64 argument_bytes;
  guint   n_tool_calls;
} BenchExpect;

const char *bench_workload_to_string   (BenchWorkload  workload);
gboolean    bench_workload_from_string (const char    *string,
                                        BenchWorkload *workload);

typedef struct _BenchGen BenchGen;

BenchGen          *bench_gen_new         (BenchWorkload  workload,
                                          guint          n);
void               bench_gen_free        (BenchGen      *self);
/* Appends the next event ("data: …\n\n") to @out; FALSE after the last. */
gboolean           bench_gen_next        (BenchGen      *self,
                                          GString       *out);
/* Totals of what was generated so far: the whole stream's at the end. */
const BenchExpect *bench_gen_get_expect  (BenchGen      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BenchGen, bench_gen_free)

/* A whole stream in memory, with the end offset of every event. */
typedef struct
{
  GBytes      *bytes;
  GArray      *ends;      /* of gsize */
  BenchExpect  expect;
} BenchStream;

BenchStream *bench_stream_new  (BenchWorkload  workload,
                                guint          n);
void         bench_stream_free (BenchStream   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BenchStream, bench_stream_free)

/* Single events, for streams written by hand (the latency stream, the
 * tool loop of bench-loop). */
void bench_format_role_event    (GString    *out);
void bench_format_content_event (GString    *out,
                                 const char *text);
void bench_format_finish_event  (GString    *out,
                                 const char *finish_reason);
void bench_format_usage_event   (GString    *out,
                                 guint64     completion_tokens,
                                 guint64     reasoning_tokens);
void bench_format_done_event    (GString    *out);
/* A tool call's first fragment (its id and name, empty arguments), then
 * pieces of its arguments, as OpenAI streams them. */
void bench_format_tool_call_start_event     (GString    *out,
                                             guint       index,
                                             const char *id,
                                             const char *name);
void bench_format_tool_call_arguments_event (GString    *out,
                                             guint       index,
                                             const char *fragment);

G_END_DECLS
