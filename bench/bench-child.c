/* bench-child.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "bench-child.h"
#include "bench-client.h"
#include "bench-pipeline.h"
#include "bench-util.h"
#include "bench-workload.h"

static void
add_member (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  if (value == (gint64) value)
    json_builder_add_int_value (builder, (gint64) value);
  else
    json_builder_add_double_value (builder, value);
}

/* One JSON object on stdout: bench/run-all reads it too. */
static void
print_child_result (const BenchRun *run,
                    gint64          base_rss_kib,
                    GArray         *latencies_us)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  add_member (builder, "peak_rss_kib", bench_peak_rss_kib ());
  add_member (builder, "base_rss_kib", base_rss_kib);
  add_member (builder, "cpu_s", run->cpu);
  add_member (builder, "cpu_user_s", run->cpu_user);
  add_member (builder, "cpu_sys_s", run->cpu_sys);
  add_member (builder, "wall_s", run->wall);
  add_member (builder, "bytes", run->body_bytes);
  add_member (builder, "events", run->n_events);
  add_member (builder, "deltas", run->n_text_deltas + run->n_reasoning_deltas + run->n_tool_deltas);
  add_member (builder, "text_deltas", run->n_text_deltas);
  add_member (builder, "text_bytes", run->text_bytes);
  add_member (builder, "reasoning_deltas", run->n_reasoning_deltas);
  add_member (builder, "reasoning_bytes", run->reasoning_bytes);
  add_member (builder, "tool_deltas", run->n_tool_deltas);
  add_member (builder, "tool_calls", run->n_tool_calls);
  add_member (builder, "argument_bytes", run->argument_bytes);
  if (latencies_us != NULL)
    {
      json_builder_set_member_name (builder, "latencies_us");
      json_builder_begin_array (builder);
      for (guint i = 0; i < latencies_us->len; i++)
        json_builder_add_double_value (builder, g_array_index (latencies_us, double, i));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

int
bench_child_main (char **args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) latencies = NULL;
  guint n_args = args ? g_strv_length (args) : 0;
  gint64 base_rss_kib = bench_current_rss_kib ();
  BenchWorkload workload;
  BenchRun run = { 0 };
  guint64 n;
  gboolean ok;

  if (n_args == 4 && g_str_equal (args[0], "pipeline") &&
      bench_workload_from_string (args[1], &workload) &&
      g_ascii_string_to_unsigned (args[2], 10, 1, G_MAXUINT, &n, NULL))
    ok = bench_pipeline_run_generated (workload, n,
                                       g_str_equal (args[3], "events") ? BENCH_FEED_EVENTS
                                                                       : BENCH_FEED_PIECES,
                                       &run, &error);
  else if (n_args == 2 && g_str_equal (args[0], "session"))
    ok = bench_run_session (args[1], &run, &error);
  else if (n_args == 2 && g_str_equal (args[0], "latency"))
    ok = bench_run_latency (args[1],
                            (latencies = g_array_new (FALSE, FALSE, sizeof (double))), &error);
  else if (n_args == 2 && g_str_equal (args[0], "floor"))
    ok = bench_run_floor (args[1], &run, &error);
  else if ((n_args == 2 || (n_args == 3 && g_str_equal (args[2], "latency"))) &&
           g_str_equal (args[0], "socket"))
    ok = bench_run_socket (args[1], &run,
                           n_args == 3 ? (latencies = g_array_new (FALSE, FALSE, sizeof (double)))
                                       : NULL,
                           &error);
  else
    {
      g_printerr ("bench-stream: bad --child arguments\n");
      return 2;
    }

  if (!ok)
    {
      g_printerr ("bench-stream child: %s\n", error->message);
      return 1;
    }

  print_child_result (&run, base_rss_kib, latencies);
  return 0;
}
