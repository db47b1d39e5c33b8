/* bench-partial-json.c — what showing a streamed object costs per delta
 *
 *   bench-partial-json [--runs N] [SSE-FILE…]
 *
 * Structured output streams the object as text deltas; object-delta shows
 * it after each one through AgentPartialJson. This measures, on the same
 * stream, per delta:
 *
 *   json          the hot-path JSON reader (simdjson) parsing the SSE
 *                 event that carried the delta, alone
 *   decode        the event through the whole pipeline: SSE framing, the
 *                 JSON reader, the OpenAI chat decoder and the accumulator
 *                 (one event per feed, as bench-stream's "pipeline"); the
 *                 goal is a partial cost no more than this event parse
 *   partial       agent_partial_json_feed() with the delta's text, then
 *                 agent_partial_json_get_value() and _get_revision(), as
 *                 the session does before emitting object-delta
 *   reparse       for contrast, what a reader without state would do:
 *                 json-glib parsing the whole text so far after each delta
 *                 (quadratic; only for streams under 64 KiB of text)
 *
 * Workloads: each SSE-FILE given (OpenAI chat-completion chunks, e.g.
 * tests/corpus/openai-chat/oaipy-json-object-unicode.sse, a real 47 KB
 * structured-output recording), and two made here: a list of 2,000
 * records in deltas of 4 bytes (about a token each), and one long string
 * member in deltas of 4 bytes. Times are CPU time of this process, medians
 * of --runs runs (default 5), each repeating the stream until it took 0.2 s.
 *
 * It prints numbers; it compares nothing with a limit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <agent.h>

#include "transport/agent-provider-private.h"
#include "json/agent-json-private.h"
#include "wire/agent-accumulator-private.h"
#include "wire/agent-stream-decoder-private.h"

#include "bench-util.h"

typedef struct
{
  char      *name;
  GPtrArray *events;   /* char *: each event's JSON */
  GPtrArray *deltas;   /* char *: each event's content delta (NULL: none) */
  GPtrArray *framed;   /* char *: each event as an SSE event, "data: …\n\n" */
  gsize      text_bytes;
  guint      n_deltas;
} Workload;

static void
workload_free (Workload *w)
{
  g_free (w->name);
  g_ptr_array_unref (w->events);
  g_ptr_array_unref (w->deltas);
  g_ptr_array_unref (w->framed);
  g_free (w);
}

static Workload *
workload_new (const char *name)
{
  Workload *w = g_new0 (Workload, 1);

  w->name = g_strdup (name);
  w->events = g_ptr_array_new_with_free_func (g_free);
  w->deltas = g_ptr_array_new_with_free_func (g_free);
  w->framed = g_ptr_array_new_with_free_func (g_free);
  return w;
}

/* The content delta of a chat.completion.chunk, read once (untimed) */
static char *
content_of (const char *event)
{
  g_autoptr(JsonNode) node = json_from_string (event, NULL);
  JsonObject *object;
  JsonArray *choices;
  JsonObject *delta;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  if (!json_object_has_member (object, "choices"))
    return NULL;
  choices = json_object_get_array_member (object, "choices");
  if (choices == NULL || json_array_get_length (choices) == 0)
    return NULL;
  delta = json_object_get_object_member (json_array_get_object_element (choices, 0), "delta");
  if (delta == NULL || !json_object_has_member (delta, "content") ||
      json_object_get_null_member (delta, "content"))
    return NULL;
  return g_strdup (json_object_get_string_member (delta, "content"));
}

static void
add_event (Workload   *w,
           const char *json)
{
  char *delta = content_of (json);

  g_ptr_array_add (w->events, g_strdup (json));
  g_ptr_array_add (w->deltas, delta);
  g_ptr_array_add (w->framed, g_strdup_printf ("data: %s\n\n", json));
  if (delta != NULL)
    {
      w->text_bytes += strlen (delta);
      w->n_deltas++;
    }
}

static Workload *
load_sse (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *name = g_path_get_basename (path);
  Workload *w;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return NULL;
    }

  w = workload_new (name);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (g_str_has_prefix (lines[i], "data: ") && !g_str_equal (lines[i] + 6, "[DONE]"))
        add_event (w, lines[i] + 6);
    }
  return w;
}

/* @text as chat-completion chunks of @piece bytes (whole characters) */
static Workload *
make_workload (const char *name,
               const char *text,
               gsize       piece)
{
  Workload *w = workload_new (name);
  gsize len = strlen (text);

  for (gsize at = 0; at < len;)
    {
      gsize size = MIN (piece, len - at);
      g_autofree char *delta = NULL;
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
      g_autofree char *quoted = NULL;
      g_autofree char *event = NULL;

      while (at + size < len && (text[at + size] & 0xc0) == 0x80)
        size++;
      delta = g_strndup (text + at, size);
      json_node_set_string (node, delta);
      quoted = json_to_string (node, FALSE);
      event = g_strdup_printf ("{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
                               "\"created\":1700000000,\"model\":\"bench\",\"choices\":[{"
                               "\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}",
                               quoted);
      add_event (w, event);
      at += size;
    }

  return w;
}

static char *
records_text (guint n)
{
  GString *text = g_string_new ("{\"files\": [");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s{\"name\": \"report-%u.pdf\", \"kind\": \"document\", "
                                  "\"size\": %u, \"tags\": [\"work\", \"2026\"], "
                                  "\"summary\": \"Quarterly figures, caf\xc3\xa9 receipts\"}",
                            i > 0 ? ", " : "", i, 1000 + i * 37);
  g_string_append (text, "]}");
  return g_string_free (text, FALSE);
}

static char *
long_string_text (gsize bytes)
{
  GString *text = g_string_new ("{\"title\": \"A letter\", \"body\": \"");

  while (text->len < bytes)
    g_string_append (text, "Dear friend, the weather here is fine and the days are long. ");
  g_string_append (text, "\"}");
  return g_string_free (text, FALSE);
}

typedef enum
{
  MEASURE_EVENT_PARSE,
  MEASURE_DECODE,
  MEASURE_PARTIAL,
  MEASURE_REPARSE,
} Measure;

static volatile guint sink;

/* One pass over the stream; returns the CPU seconds it took */
static double
one_pass (Workload         *w,
          Measure           measure,
          AgentJsonParser  *parser,
          AgentPartialJson *reader)
{
  double start = bench_process_cputime ();

  switch (measure)
    {
    case MEASURE_EVENT_PARSE:
      for (guint i = 0; i < w->events->len; i++)
        {
          const char *event = g_ptr_array_index (w->events, i);
          AgentJson root;

          if (g_ptr_array_index (w->deltas, i) == NULL)
            continue;
          if (agent_json_parser_parse (parser, event, strlen (event), &root, NULL))
            sink += agent_json_kind (&root);
        }
      break;

    case MEASURE_DECODE:
      {
        static const AgentAccumulatorListener listener = { NULL };
        AgentAccumulator *accumulator = agent_accumulator_new (&listener, NULL);
        AgentStreamDecoder *decoder = agent_stream_decoder_new (&agent_openai_chat_backend.stream,
                                                                accumulator, NULL);

        for (guint i = 0; i < w->framed->len; i++)
          {
            const char *event = g_ptr_array_index (w->framed, i);

            sink += agent_stream_decoder_feed (decoder, event, strlen (event), NULL);
          }
        agent_stream_decoder_free (decoder);
        agent_accumulator_free (accumulator);
      }
      break;

    case MEASURE_PARTIAL:
      agent_partial_json_reset (reader);
      for (guint i = 0; i < w->deltas->len; i++)
        {
          const char *delta = g_ptr_array_index (w->deltas, i);

          if (delta == NULL)
            continue;
          agent_partial_json_feed (reader, delta, -1, NULL);
          sink += agent_partial_json_get_revision (reader);
          sink += agent_partial_json_get_value (reader) != NULL;
        }
      break;

    case MEASURE_REPARSE:
      {
        g_autoptr(GString) so_far = g_string_new (NULL);
        g_autoptr(JsonParser) json = json_parser_new ();

        for (guint i = 0; i < w->deltas->len; i++)
          {
            const char *delta = g_ptr_array_index (w->deltas, i);

            if (delta == NULL)
              continue;
            g_string_append (so_far, delta);
            sink += json_parser_load_from_data (json, so_far->str, so_far->len, NULL);
          }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  return bench_process_cputime () - start;
}

/* µs per delta: the median of @runs runs, each of as many passes as fill 0.2 s */
static double
measure_us (Workload *w,
            Measure   measure,
            guint     runs)
{
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autofree double *values = g_new0 (double, runs);

  /* Warm up: the parser's buffers, the caches */
  one_pass (w, measure, parser, reader);

  for (guint r = 0; r < runs; r++)
    {
      double total = 0;
      guint passes = 0;

      while (total < 0.2 && (passes == 0 || measure != MEASURE_REPARSE || passes < 3))
        {
          total += one_pass (w, measure, parser, reader);
          passes++;
        }
      values[r] = total / passes / MAX (w->n_deltas, 1) * 1e6;
    }

  return bench_median (values, runs);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) workloads = g_ptr_array_new_with_free_func ((GDestroyNotify) workload_free);
  g_autofree char *records = records_text (2000);
  g_autofree char *letter = long_string_text (256 * 1024);
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  double load[3] = { 0 };
  int runs = 5;
  const GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs per measurement (default 5)", "N" },
    { NULL }
  };

  context = g_option_context_new ("[SSE-FILE…] — the cost of AgentPartialJson per delta");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  runs = CLAMP (runs, 1, 100);

  for (int i = 1; i < argc; i++)
    {
      Workload *w = load_sse (argv[i]);

      if (w == NULL)
        return 1;
      g_ptr_array_add (workloads, w);
    }
  g_ptr_array_add (workloads, make_workload ("2000 records, 4 B deltas", records, 4));
  g_ptr_array_add (workloads, make_workload ("256 KiB string, 4 B deltas", letter, 4));

  if (getloadavg (load, 3) < 0)
    load[0] = load[1] = load[2] = -1;
  g_print ("bench-partial-json: %s build (-O%s); load average %.2f %.2f %.2f; "
           "medians of %d runs, CPU time per delta\n\n",
           BENCH_BUILDTYPE, BENCH_OPTIMIZATION, load[0], load[1], load[2], runs);
  g_print ("%-34s %7s %8s %9s %10s %10s %10s %11s\n", "workload", "deltas", "text KiB",
           "json us", "decode us", "partial us", "/decode", "reparse us");

  for (guint i = 0; i < workloads->len; i++)
    {
      Workload *w = g_ptr_array_index (workloads, i);
      double event_us = measure_us (w, MEASURE_EVENT_PARSE, runs);
      double decode_us = measure_us (w, MEASURE_DECODE, runs);
      double partial_us = measure_us (w, MEASURE_PARTIAL, runs);
      g_autofree char *reparse = NULL;

      if (w->text_bytes < 64 * 1024)
        reparse = g_strdup_printf ("%.2f", measure_us (w, MEASURE_REPARSE, runs));
      else
        reparse = g_strdup ("-");

      g_print ("%-34s %7u %8.1f %9.3f %10.3f %10.3f %9.2fx %11s\n", w->name, w->n_deltas,
               w->text_bytes / 1024.0, event_us, decode_us, partial_us, partial_us / decode_us,
               reparse);
    }

  return 0;
}
