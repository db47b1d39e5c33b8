/* bench-report.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "bench-report.h"

#define MB 1e6
#define KIB_TO_MB(kib) ((kib) * 1024.0 / MB)

static void
row_free (BenchRow *row)
{
  g_free (row->workload);
  g_free (row->layer);
  g_free (row->mode);
  g_array_unref (row->cpu);
  g_array_unref (row->cpu_user);
  g_array_unref (row->cpu_sys);
  g_array_unref (row->wall);
  g_array_unref (row->server_cpu);
  g_array_unref (row->blocked);
  g_free (row);
}

BenchReport *
bench_report_new (void)
{
  BenchReport *self = g_new0 (BenchReport, 1);

  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  self->scaling = g_array_new (FALSE, FALSE, sizeof (BenchScalePoint));
  return self;
}

void
bench_report_free (BenchReport *self)
{
  if (self == NULL)
    return;

  g_free (self->date);
  g_free (self->build);
  g_free (self->versions);
  g_free (self->kernel);
  g_free (self->cpu_model);
  g_free (self->loadavg);
  g_ptr_array_unref (self->rows);
  g_clear_pointer (&self->latency_us, g_array_unref);
  g_array_unref (self->scaling);
  g_free (self);
}

static GArray *
new_samples (void)
{
  return g_array_new (FALSE, FALSE, sizeof (double));
}

BenchRow *
bench_report_add_row (BenchReport *self,
                      const char  *workload,
                      const char  *layer,
                      const char  *mode)
{
  BenchRow *row = g_new0 (BenchRow, 1);

  row->workload = g_strdup (workload);
  row->layer = g_strdup (layer);
  row->mode = g_strdup (mode);
  row->cpu = new_samples ();
  row->cpu_user = new_samples ();
  row->cpu_sys = new_samples ();
  row->wall = new_samples ();
  row->server_cpu = new_samples ();
  row->blocked = new_samples ();
  row->peak_rss_kib = -1;
  row->base_rss_kib = -1;
  g_ptr_array_add (self->rows, row);

  return row;
}

void
bench_row_add_sample (BenchRow       *row,
                      const BenchRun *run,
                      double          server_cpu)
{
  double blocked;

  g_array_append_val (row->cpu, run->cpu);
  g_array_append_val (row->cpu_user, run->cpu_user);
  g_array_append_val (row->cpu_sys, run->cpu_sys);
  g_array_append_val (row->wall, run->wall);
  g_array_append_val (row->server_cpu, server_cpu);
  blocked = run->n_blocked;
  g_array_append_val (row->blocked, blocked);
}

void
bench_row_set_rss (BenchRow *row,
                   gint64    peak_rss_kib,
                   gint64    base_rss_kib)
{
  row->peak_rss_kib = peak_rss_kib;
  row->base_rss_kib = base_rss_kib;
}

static double
median (GArray *samples)
{
  return bench_median ((const double *) (gpointer) samples->data, samples->len);
}

static double
us_per_event (BenchRow *row)
{
  return median (row->cpu) / row->events * 1e6;
}

static BenchRow *
find_row (BenchReport *self,
          const char  *workload,
          const char  *layer,
          const char  *mode)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      BenchRow *row = g_ptr_array_index (self->rows, i);

      if (g_str_equal (row->workload, workload) && g_str_equal (row->layer, layer) &&
          g_str_equal (row->mode, mode))
        return row;
    }

  return NULL;
}

static gboolean
is_http (BenchRow *row)
{
  return !g_str_equal (row->layer, "pipeline");
}

/* Table */

/* The workloads, in order of first appearance. */
static GPtrArray *
list_workloads (BenchReport *self)
{
  GPtrArray *workloads = g_ptr_array_new ();

  for (guint i = 0; i < self->rows->len; i++)
    {
      BenchRow *row = g_ptr_array_index (self->rows, i);

      if (!g_ptr_array_find_with_equal_func (workloads, row->workload, g_str_equal, NULL))
        g_ptr_array_add (workloads, row->workload);
    }

  return workloads;
}

static void
print_row (BenchRow *row)
{
  double cpu = median (row->cpu);
  double wall = median (row->wall);
  char deltas[32] = "-";
  char rss[32] = "-";
  char server[32] = "";

  if (row->deltas > 0)
    g_snprintf (deltas, sizeof deltas, "%.0f", row->deltas / wall);
  if (row->peak_rss_kib >= 0)
    g_snprintf (rss, sizeof rss, "%.1f", KIB_TO_MB (row->peak_rss_kib));
  if (is_http (row))
    g_snprintf (server, sizeof server, "%.2f", median (row->server_cpu) / row->events * 1e6);

  printf ("%-9s  %-13s  %-13s  %7.3f  %7.3f  %7.1f  %9s  %8.2f  %11s  %9s\n",
          row->workload, row->layer, row->mode, cpu, wall, row->bytes / wall / MB, deltas,
          us_per_event (row), rss, server);
}

static void
print_rows (BenchReport *self)
{
  g_autoptr(GPtrArray) workloads = list_workloads (self);

  printf ("Throughput: medians of %u run%s. MB = 10^6 bytes of SSE stream. MB/s and deltas/s per\n"
          "wall second; µs/event = CPU time of this process / SSE events; srv µs/ev = the server\n"
          "process's CPU / events. Peak RSS: a fresh process doing one run (VmHWM).\n\n",
          self->runs, self->runs == 1 ? "" : "s");
  printf ("workload   layer          mode             CPU s   wall s     MB/s   deltas/s"
          "  µs/event  peak RSS MB  srv µs/ev\n");
  printf ("---------  -------------  -------------  -------  -------  -------  ---------"
          "  --------  -----------  ---------\n");

  for (guint w = 0; w < workloads->len; w++)
    {
      if (w > 0)
        printf ("\n");

      for (guint i = 0; i < self->rows->len; i++)
        {
          BenchRow *row = g_ptr_array_index (self->rows, i);

          if (g_str_equal (row->workload, g_ptr_array_index (workloads, w)))
            print_row (row);
        }
    }

  printf ("\nStreams:");
  for (guint w = 0; w < workloads->len; w++)
    {
      BenchRow *row = find_row (self, g_ptr_array_index (workloads, w), "pipeline", "16 KiB feeds");

      if (row != NULL)
        printf ("%s %s %.2f MB, %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " deltas",
                w == 0 ? "" : ";", row->workload, row->bytes / MB, row->events, row->deltas);
    }
  printf (".\n");
}

static void
print_breakdown (BenchReport *self)
{
  BenchRow *pipeline = find_row (self, "text", "pipeline", "16 KiB feeds");
  BenchRow *pipeline_events = find_row (self, "text", "pipeline", "1 event/feed");
  const char *modes[] = { "64 KiB writes", "1 event/write" };
  double pipeline_us;

  if (pipeline == NULL || self->breakdown_events == 0)
    return;

  pipeline_us = self->pipeline_us;

  printf ("\nWhere the time goes (text workload, CPU µs per SSE event; the first three measured\n"
          "in turn in each run, the HTTP lines are the medians from the table)\n");
  printf ("  SSE framing alone (agent_sse_parser, 16 KiB feeds)     %6.2f\n", self->sse_us);
  printf ("  + OpenAI decoder (the scan, or a template; the DOM for\n"
          "    the rest), accumulator, listener                      %6.2f   (= %.2f, pipeline)\n",
          pipeline_us - self->sse_us, pipeline_us);
  printf ("  for comparison, a parse of every event with simdjson's\n"
          "    DOM (what the decoder did before the scan)           %6.2f\n"
          "                                  with cJSON               %6.2f\n"
          "                                  with json-glib           %6.2f\n",
          self->sse_json_us - self->sse_us,
          self->sse_cjson_us - self->sse_us, self->sse_json_glib_us - self->sse_us);
  if (pipeline_events != NULL)
    printf ("  one event per feed call instead of 16 KiB              %+6.2f\n",
            us_per_event (pipeline_events) - us_per_event (pipeline));

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      BenchRow *http = find_row (self, "text", "http+signals", modes[m]);
      BenchRow *floor = find_row (self, "text", "libsoup floor", modes[m]);
      double http_us, floor_us;

      if (http == NULL || floor == NULL)
        continue;

      http_us = us_per_event (http);
      floor_us = us_per_event (floor);
      printf ("  %s: http+signals %.2f = libsoup floor %.2f + pipeline %.2f"
              " + session/signals/rest %.2f\n",
              modes[m], http_us, floor_us, pipeline_us, http_us - floor_us - pipeline_us);
    }

  printf ("  fixed cost of one request (new session, connection, request, 8-event answer), CPU:\n"
          "    AgentSession turn %.2f ms, libsoup alone %.2f ms (included in the HTTP rows)\n",
          self->request_session_ms, self->request_floor_ms);

  printf ("\nlibagent over libsoup's own reading cost (http+signals / floor, CPU per event)\n");
  for (guint i = 0; i < self->rows->len; i++)
    {
      BenchRow *http = g_ptr_array_index (self->rows, i);
      BenchRow *floor;

      if (!g_str_equal (http->layer, "http+signals"))
        continue;
      floor = find_row (self, http->workload, "libsoup floor", http->mode);
      if (floor == NULL)
        continue;

      printf ("  %-9s  %-13s  %6.2f / %5.2f µs = %5.2f×  (%+.2f µs/event)\n",
              http->workload, http->mode, us_per_event (http), us_per_event (floor),
              us_per_event (http) / us_per_event (floor), us_per_event (http) - us_per_event (floor));
    }
}

static void
print_latency (BenchReport *self)
{
  const double *values;
  guint n;

  if (self->latency_us == NULL)
    return;

  values = (const double *) (gpointer) self->latency_us->data;
  n = self->latency_us->len;

  printf ("\nFirst-delta latency: server stamp → text-delta handler, %u events %u ms apart\n",
          n, self->latency_pause_ms);
  printf ("  median %.0f µs   p90 %.0f µs   max %.0f µs\n",
          bench_median (values, n), bench_percentile (values, n, 90), bench_max (values, n));
  printf ("  (of which the server's send() of the chunk, stamp → send() returned: median %.0f µs,"
          " max %.0f µs)\n", self->latency_write_median_us, self->latency_write_max_us);
}

static void
scaling_fit (BenchReport *self,
             double      *slope,
             double      *ratio_median,
             double      *ratio_min)
{
  guint n = self->scaling->len;
  g_autofree double *x = g_new (double, n);
  g_autofree double *y = g_new (double, n);
  double min_median = G_MAXDOUBLE, max_median = 0;
  double min_min = G_MAXDOUBLE, max_min = 0;
  double intercept;

  for (guint i = 0; i < n; i++)
    {
      BenchScalePoint *point = &g_array_index (self->scaling, BenchScalePoint, i);
      double median_cost = point->cpu / point->deltas;
      double min_cost = point->cpu_min / point->deltas;

      x[i] = point->bytes / MB;
      y[i] = KIB_TO_MB (point->peak_rss_kib - point->base_rss_kib);
      min_median = MIN (min_median, median_cost);
      max_median = MAX (max_median, median_cost);
      min_min = MIN (min_min, min_cost);
      max_min = MAX (max_min, min_cost);
    }

  bench_least_squares (x, y, n, slope, &intercept);
  *ratio_median = min_median > 0 ? max_median / min_median : 0;
  *ratio_min = min_min > 0 ? max_min / min_min : 0;
}

static void
print_scaling (BenchReport *self)
{
  double slope, ratio_median, ratio_min;

  if (self->scaling->len == 0)
    return;

  printf ("\nMemory and CPU vs stream size (text workload, pipeline alone, 16 KiB feeds, generated\n"
          "on the fly so the stream itself is never in memory; %u fresh process%s per size)\n",
          self->runs, self->runs == 1 ? "" : "es");
  printf ("   deltas  stream MB  peak RSS MB  growth MB  µs/delta median    min\n");
  for (guint i = 0; i < self->scaling->len; i++)
    {
      BenchScalePoint *point = &g_array_index (self->scaling, BenchScalePoint, i);

      printf ("  %7" G_GUINT64_FORMAT "  %9.1f  %11.1f  %9.2f  %15.3f  %5.3f\n",
              point->deltas, point->bytes / MB, KIB_TO_MB (point->peak_rss_kib),
              KIB_TO_MB (point->peak_rss_kib - point->base_rss_kib),
              point->cpu / point->deltas * 1e6, point->cpu_min / point->deltas * 1e6);
    }

  scaling_fit (self, &slope, &ratio_median, &ratio_min);
  printf ("  RSS growth per MB of stream (least squares): %.4f MB/MB\n", slope);
  printf ("  per-delta CPU, largest / smallest over the sizes: %.2f (medians), %.2f (minimums);"
          " ≈1 when linear\n", ratio_median, ratio_min);
}

static void
print_history (BenchReport *self)
{
  BenchHistory *history = &self->history;

  if (history->n_messages == 0)
    return;

  printf ("\nRequest building: %u messages (%u tool calls), _agent_provider_build_message()\n",
          history->n_messages, history->n_tool_calls);
  printf ("  median %.1f ms CPU (min %.1f, max %.1f), body %.2f MB; filling the memory took %.1f ms\n",
          history->build_ms_median, history->build_ms_min, history->build_ms_max,
          history->body_bytes / MB, history->fill_ms);
}

void
bench_report_print (BenchReport *self)
{
  printf ("libagent bench-stream, %s\n", self->date);
  printf ("%s, %u cores; %s\n", self->cpu_model ? self->cpu_model : "unknown CPU", self->cores,
          self->kernel ? self->kernel : "");
  printf ("build %s; %s; load average at start %s%s\n\n", self->build, self->versions,
          self->loadavg ? self->loadavg : "?", self->quick ? "; --quick" : "");

  print_rows (self);
  print_breakdown (self);
  print_latency (self);
  print_scaling (self);
  print_history (self);
}

/* JSON */

static void
add_double (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_samples (JsonBuilder *builder,
             const char  *name,
             GArray      *samples)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < samples->len; i++)
    json_builder_add_double_value (builder, g_array_index (samples, double, i));
  json_builder_end_array (builder);
}

static void
build_rows (BenchReport *self,
            JsonBuilder *builder)
{
  json_builder_set_member_name (builder, "throughput");
  json_builder_begin_array (builder);

  for (guint i = 0; i < self->rows->len; i++)
    {
      BenchRow *row = g_ptr_array_index (self->rows, i);
      double wall = median (row->wall);

      json_builder_begin_object (builder);
      add_string (builder, "workload", row->workload);
      add_string (builder, "layer", row->layer);
      add_string (builder, "mode", row->mode);
      add_double (builder, "cpu_s", median (row->cpu));
      add_double (builder, "cpu_user_s", median (row->cpu_user));
      add_double (builder, "cpu_sys_s", median (row->cpu_sys));
      add_double (builder, "wall_s", wall);
      add_double (builder, "mb_per_s", row->bytes / wall / MB);
      add_double (builder, "deltas_per_s", row->deltas / wall);
      add_double (builder, "us_per_event", us_per_event (row));
      add_int (builder, "stream_bytes", row->bytes);
      add_int (builder, "events", row->events);
      add_int (builder, "deltas", row->deltas);
      if (row->peak_rss_kib >= 0)
        {
          add_double (builder, "peak_rss_mb", KIB_TO_MB (row->peak_rss_kib));
          add_double (builder, "base_rss_mb", KIB_TO_MB (row->base_rss_kib));
        }
      if (is_http (row))
        {
          add_double (builder, "server_us_per_event", median (row->server_cpu) / row->events * 1e6);
          add_double (builder, "waits_per_event", median (row->blocked) / row->events);
        }
      add_samples (builder, "samples_cpu_s", row->cpu);
      add_samples (builder, "samples_wall_s", row->wall);
      json_builder_end_object (builder);
    }

  json_builder_end_array (builder);
}

static void
build_latency (BenchReport *self,
               JsonBuilder *builder)
{
  const double *values = (const double *) (gpointer) self->latency_us->data;
  guint n = self->latency_us->len;

  json_builder_set_member_name (builder, "first_delta_latency");
  json_builder_begin_object (builder);
  add_int (builder, "events", n);
  add_int (builder, "pause_ms", self->latency_pause_ms);
  add_double (builder, "median_us", bench_median (values, n));
  add_double (builder, "p90_us", bench_percentile (values, n, 90));
  add_double (builder, "max_us", bench_max (values, n));
  add_double (builder, "server_write_median_us", self->latency_write_median_us);
  add_double (builder, "server_write_max_us", self->latency_write_max_us);
  add_samples (builder, "samples_us", self->latency_us);
  json_builder_end_object (builder);
}

static void
build_scaling (BenchReport *self,
               JsonBuilder *builder)
{
  double slope, ratio_median, ratio_min;

  scaling_fit (self, &slope, &ratio_median, &ratio_min);

  json_builder_set_member_name (builder, "scaling");
  json_builder_begin_object (builder);
  add_double (builder, "rss_growth_mb_per_stream_mb", slope);
  add_double (builder, "cpu_per_delta_max_over_min_medians", ratio_median);
  add_double (builder, "cpu_per_delta_max_over_min_minimums", ratio_min);
  json_builder_set_member_name (builder, "points");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->scaling->len; i++)
    {
      BenchScalePoint *point = &g_array_index (self->scaling, BenchScalePoint, i);

      json_builder_begin_object (builder);
      add_int (builder, "deltas", point->deltas);
      add_int (builder, "stream_bytes", point->bytes);
      add_double (builder, "peak_rss_mb", KIB_TO_MB (point->peak_rss_kib));
      add_double (builder, "base_rss_mb", KIB_TO_MB (point->base_rss_kib));
      add_double (builder, "cpu_s_median", point->cpu);
      add_double (builder, "cpu_s_min", point->cpu_min);
      add_double (builder, "us_per_delta_median", point->cpu / point->deltas * 1e6);
      add_double (builder, "us_per_delta_min", point->cpu_min / point->deltas * 1e6);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

gboolean
bench_report_write_json (BenchReport  *self,
                         const char   *path,
                         GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  add_string (builder, "date", self->date);
  add_string (builder, "cpu_model", self->cpu_model);
  add_int (builder, "cores", self->cores);
  add_string (builder, "kernel", self->kernel);
  add_string (builder, "build", self->build);
  add_string (builder, "versions", self->versions);
  add_string (builder, "loadavg_at_start", self->loadavg);
  json_builder_set_member_name (builder, "quick");
  json_builder_add_boolean_value (builder, self->quick);
  add_int (builder, "runs", self->runs);

  build_rows (self, builder);

  json_builder_set_member_name (builder, "breakdown_text_us_per_event");
  json_builder_begin_object (builder);
  add_double (builder, "sse_framing", self->sse_us);
  add_double (builder, "sse_framing_and_json", self->sse_json_us);
  add_double (builder, "sse_framing_and_cjson", self->sse_cjson_us);
  add_double (builder, "sse_framing_and_json_glib", self->sse_json_glib_us);
  add_double (builder, "pipeline", self->pipeline_us);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "request_fixed_cost_ms");
  json_builder_begin_object (builder);
  add_double (builder, "session_turn", self->request_session_ms);
  add_double (builder, "libsoup_alone", self->request_floor_ms);
  json_builder_end_object (builder);

  if (self->latency_us != NULL)
    build_latency (self, builder);
  build_scaling (self, builder);

  json_builder_set_member_name (builder, "request_building");
  json_builder_begin_object (builder);
  add_int (builder, "messages", self->history.n_messages);
  add_int (builder, "tool_calls", self->history.n_tool_calls);
  add_double (builder, "build_ms_median", self->history.build_ms_median);
  add_double (builder, "build_ms_min", self->history.build_ms_min);
  add_double (builder, "build_ms_max", self->history.build_ms_max);
  add_int (builder, "body_bytes", self->history.body_bytes);
  add_double (builder, "fill_ms", self->history.fill_ms);
  json_builder_end_object (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);

  return json_generator_to_file (generator, path, error);
}
