/* bench-pipeline.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "json/agent-json-private.h"

#include "messages/agent-message.h"
#include "wire/agent-sse-parser-private.h"
#include "transport/agent-provider-private.h"
#include "wire/agent-stream-decoder-private.h"
#include "messages/agent-tool-call.h"

#include "bench-pipeline.h"

static void
count_text (gpointer    user_data,
            const char *text,
            gsize       len)
{
  BenchRun *run = user_data;

  run->n_text_deltas++;
  run->text_bytes += len;
}

static void
count_reasoning (gpointer    user_data,
                 const char *text,
                 gsize       len)
{
  BenchRun *run = user_data;

  run->n_reasoning_deltas++;
  run->reasoning_bytes += len;
}

static void
count_tool_call (gpointer       user_data,
                 AgentToolCall *call,
                 const char    *fragment,
                 gsize          len)
{
  BenchRun *run = user_data;

  run->n_tool_deltas++;
}

static const AgentAccumulatorListener counting_listener = {
  .text_delta = count_text,
  .reasoning_delta = count_reasoning,
  .tool_call_delta = count_tool_call,
};

/* The answer is whole: the stream reached [DONE] and was finished. */
static void
collect (AgentStreamDecoder *decoder,
         AgentAccumulator   *accumulator,
         BenchRun           *run)
{
  AgentMessage *message = agent_accumulator_get_message (accumulator);

  run->n_events = agent_stream_decoder_get_n_events (decoder);
  run->n_tool_calls = agent_message_get_n_tool_calls (message);
  for (guint i = 0; i < run->n_tool_calls; i++)
    run->argument_bytes +=
      strlen (agent_tool_call_get_arguments (agent_message_get_tool_call (message, i)));
}

gboolean
bench_pipeline_run (BenchStream  *stream,
                    BenchFeed     feed,
                    BenchRun     *run,
                    GError      **error)
{
  gsize size;
  const char *data = g_bytes_get_data (stream->bytes, &size);
  AgentAccumulator *accumulator;
  AgentStreamDecoder *decoder;
  gboolean ok = TRUE;
  BenchCpu cpu;
  double wall;

  memset (run, 0, sizeof *run);

  bench_cpu_now (&cpu);
  wall = bench_wall_now ();

  accumulator = agent_accumulator_new (&counting_listener, run);
  decoder = agent_stream_decoder_new (&agent_openai_chat_backend.stream, accumulator, NULL);

  if (feed == BENCH_FEED_PIECES)
    {
      for (gsize offset = 0; ok && offset < size; offset += BENCH_FEED_PIECE_SIZE)
        ok = agent_stream_decoder_feed (decoder, data + offset,
                                        MIN (BENCH_FEED_PIECE_SIZE, size - offset), error);
    }
  else
    {
      gsize start = 0;

      for (guint i = 0; ok && i < stream->ends->len; i++)
        {
          gsize end = g_array_index (stream->ends, gsize, i);

          ok = agent_stream_decoder_feed (decoder, data + start, end - start, error);
          start = end;
        }
    }

  ok = ok && agent_stream_decoder_finish (decoder, error);

  run->cpu = bench_cpu_since (&cpu, &run->cpu_user, &run->cpu_sys);
  run->wall = bench_wall_now () - wall;
  run->body_bytes = size;

  collect (decoder, accumulator, run);
  agent_stream_decoder_free (decoder);
  agent_accumulator_free (accumulator);

  return ok;
}

typedef struct
{
  BenchRun           *run;
  AgentStreamDecoder *decoder;
  double              cpu;
} Timed;

static gboolean
timed_feed (Timed       *timed,
            GString     *pending,
            GError     **error)
{
  double start = bench_process_cputime ();
  gboolean ok;

  ok = agent_stream_decoder_feed (timed->decoder, pending->str, pending->len, error);
  timed->cpu += bench_process_cputime () - start;
  timed->run->body_bytes += pending->len;
  g_string_truncate (pending, 0);

  return ok;
}

gboolean
bench_pipeline_run_generated (BenchWorkload   workload,
                              guint           n,
                              BenchFeed       feed,
                              BenchRun       *run,
                              GError        **error)
{
  g_autoptr(BenchGen) gen = bench_gen_new (workload, n);
  g_autoptr(GString) pending = g_string_sized_new (BENCH_FEED_PIECE_SIZE + 4096);
  AgentAccumulator *accumulator;
  Timed timed = { 0 };
  gboolean ok = TRUE;
  double start;
  double wall;

  memset (run, 0, sizeof *run);
  wall = bench_wall_now ();

  start = bench_process_cputime ();
  accumulator = agent_accumulator_new (&counting_listener, run);
  timed.decoder = agent_stream_decoder_new (&agent_openai_chat_backend.stream, accumulator, NULL);
  timed.cpu = bench_process_cputime () - start;
  timed.run = run;

  while (ok && bench_gen_next (gen, pending))
    {
      if (feed == BENCH_FEED_EVENTS || pending->len >= BENCH_FEED_PIECE_SIZE)
        ok = timed_feed (&timed, pending, error);
    }
  if (ok && pending->len > 0)
    ok = timed_feed (&timed, pending, error);

  start = bench_process_cputime ();
  ok = ok && agent_stream_decoder_finish (timed.decoder, error);
  timed.cpu += bench_process_cputime () - start;

  run->cpu = timed.cpu;
  run->wall = bench_wall_now () - wall;

  collect (timed.decoder, accumulator, run);
  agent_stream_decoder_free (timed.decoder);
  agent_accumulator_free (accumulator);

  return ok;
}

static gboolean
discard_event (const AgentSseEvent  *event,
               gpointer              user_data,
               GError              **error)
{
  (*(guint64 *) user_data)++;  /* the first member of ParseState */
  return TRUE;
}

typedef struct
{
  guint64          n_events;
  AgentJsonParser *parser;
  JsonParser      *json_glib;
} ParseState;

static gboolean
is_done (const AgentSseEvent *event)
{
  return event->data_len == 6 && memcmp (event->data, "[DONE]", 6) == 0;
}

/* What libagent does: agent_json (simdjson) */
static gboolean
parse_event (const AgentSseEvent  *event,
             gpointer              user_data,
             GError              **error)
{
  ParseState *state = user_data;
  AgentJson root;

  state->n_events++;
  return is_done (event) ||
         agent_json_parser_parse (state->parser, event->data, event->data_len, &root, error);
}

/* For comparison: cJSON, which libagent used at first */
static gboolean
parse_event_cjson (const AgentSseEvent  *event,
                   gpointer              user_data,
                   GError              **error)
{
  ParseState *state = user_data;
  cJSON *root;

  state->n_events++;
  if (is_done (event))
    return TRUE;

  root = cJSON_ParseWithLength (event->data, event->data_len);
  if (root == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "cJSON cannot parse an event");
      return FALSE;
    }
  cJSON_Delete (root);

  return TRUE;
}

/* For comparison: json-glib's JsonParser */
static gboolean
parse_event_json_glib (const AgentSseEvent  *event,
                       gpointer              user_data,
                       GError              **error)
{
  ParseState *state = user_data;

  state->n_events++;
  return is_done (event) ||
         json_parser_load_from_data (state->json_glib, event->data, event->data_len, error);
}

static double
run_sse (BenchStream       *stream,
         AgentSseEventFunc  func)
{
  gsize size;
  const char *data = g_bytes_get_data (stream->bytes, &size);
  g_autoptr(GError) error = NULL;
  AgentSseParser *parser;
  ParseState state = { 0 };
  double start;
  double cpu;

  state.parser = agent_json_parser_new ();
  state.json_glib = json_parser_new_immutable ();

  start = bench_process_cputime ();
  parser = agent_sse_parser_new (func, &state);
  for (gsize offset = 0; offset < size; offset += BENCH_FEED_PIECE_SIZE)
    if (!agent_sse_parser_feed (parser, data + offset, MIN (BENCH_FEED_PIECE_SIZE, size - offset),
                                &error))
      g_error ("SSE framing failed: %s", error->message);
  agent_sse_parser_finish (parser, NULL);
  agent_sse_parser_free (parser);
  cpu = bench_process_cputime () - start;

  agent_json_parser_free (state.parser);
  g_object_unref (state.json_glib);

  if (state.n_events != stream->expect.n_events)
    g_error ("SSE framing found %" G_GUINT64_FORMAT " events instead of %" G_GUINT64_FORMAT,
             state.n_events, stream->expect.n_events);

  return cpu;
}

double
bench_pipeline_sse_only (BenchStream *stream)
{
  return run_sse (stream, discard_event);
}

double
bench_pipeline_sse_json (BenchStream *stream)
{
  return run_sse (stream, parse_event);
}

double
bench_pipeline_sse_cjson (BenchStream *stream)
{
  return run_sse (stream, parse_event_cjson);
}

double
bench_pipeline_sse_json_glib (BenchStream *stream)
{
  return run_sse (stream, parse_event_json_glib);
}

static gboolean
check (const char  *what,
       const char  *field,
       guint64      expected,
       guint64      seen,
       GError     **error)
{
  if (expected == seen)
    return TRUE;

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               "%s: expected %" G_GUINT64_FORMAT " %s, saw %" G_GUINT64_FORMAT,
               what, expected, field, seen);
  return FALSE;
}

gboolean
bench_check_run (const char         *what,
                 const BenchExpect  *expect,
                 const BenchRun     *run,
                 GError            **error)
{
  return check (what, "text deltas", expect->n_text_deltas, run->n_text_deltas, error) &&
         check (what, "text bytes", expect->text_bytes, run->text_bytes, error) &&
         check (what, "reasoning deltas", expect->n_reasoning_deltas, run->n_reasoning_deltas, error) &&
         check (what, "reasoning bytes", expect->reasoning_bytes, run->reasoning_bytes, error) &&
         check (what, "tool-call deltas", expect->n_tool_deltas, run->n_tool_deltas, error) &&
         check (what, "tool calls", expect->n_tool_calls, run->n_tool_calls, error) &&
         check (what, "argument bytes", expect->argument_bytes, run->argument_bytes, error);
}
