/* bench-stream.c — what streaming a chat completion costs, layer by layer
 *
 * Prints a table and writes the same numbers as JSON. See README.md for
 * what each number means. No number is ever compared with a limit here:
 * the machines are shared and noisy; people read the numbers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <cjson/cJSON.h>

#include "json/agent-json-private.h"
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "bench-child.h"
#include "bench-client.h"
#include "bench-history.h"
#include "bench-pipeline.h"
#include "bench-report.h"
#include "bench-server.h"
#include "bench-util.h"
#include "bench-workload.h"

#ifndef BENCH_BUILDTYPE
# define BENCH_BUILDTYPE "unknown"
#endif
#ifndef BENCH_OPTIMIZATION
# define BENCH_OPTIMIZATION "unknown"
#endif

static const BenchWorkload workloads[] = {
  BENCH_WORKLOAD_TEXT, BENCH_WORKLOAD_TOOLS, BENCH_WORKLOAD_REASONING,
};

typedef struct
{
  guint    sizes[G_N_ELEMENTS (workloads)];
  guint    runs;
  guint    latency_events;
  guint    scaling[5];
  guint    history_messages;
  gboolean quick;
} Config;

/* The server process */

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *output;
  int               port;
  guint             next_tag;
} Server;

typedef struct
{
  double  cpu;
  guint64 bytes;
  double  write_median_us;
  double  write_max_us;
} Served;

static char *exe_path;

static gboolean
server_start (Server  *self,
              GError **error)
{
  const char * const argv[] = { exe_path, "--serve", NULL };
  g_autofree char *line = NULL;

  self->process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                           G_SUBPROCESS_FLAGS_STDOUT_PIPE, error);
  if (self->process == NULL)
    return FALSE;

  self->output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  line = g_data_input_stream_read_line (self->output, NULL, NULL, error);
  if (line == NULL || sscanf (line, "port %d", &self->port) != 1)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the server did not start");
      return FALSE;
    }

  return TRUE;
}

static void
server_stop (Server *self)
{
  if (self->process == NULL)
    return;

  /* The server quits when its stdin closes. */
  g_output_stream_close (g_subprocess_get_stdin_pipe (self->process), NULL, NULL);
  g_subprocess_wait (self->process, NULL, NULL);
  g_clear_object (&self->output);
  g_clear_object (&self->process);
}

/* A base URL naming what the server sends; @tag is set to the run's tag. */
static char *
server_url (Server        *self,
            BenchWorkload  workload,
            const char    *mode,
            guint          n,
            char         **tag)
{
  *tag = g_strdup_printf ("r%u", self->next_tag++);
  return g_strdup_printf ("http://127.0.0.1:%d/%s/%s/%u/%s", self->port,
                          bench_workload_to_string (workload), mode, n, *tag);
}

static double
field_double (const char *line,
              const char *key)
{
  const char *p = strstr (line, key);

  return p != NULL ? g_ascii_strtod (p + strlen (key), NULL) : 0;
}

/* Reads the server's report lines until @n_responses for @tag came; the
 * first one is returned. */
static gboolean
server_wait (Server      *self,
             const char  *tag,
             guint        n_responses,
             Served      *served,
             GError     **error)
{
  g_autofree char *prefix = g_strdup_printf ("served %s ", tag);
  guint seen = 0;

  memset (served, 0, sizeof *served);

  while (seen < n_responses)
    {
      g_autofree char *line = g_data_input_stream_read_line (self->output, NULL, NULL, error);

      if (line == NULL)
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the server went away");
          return FALSE;
        }

      if (!g_str_has_prefix (line, prefix))
        continue;

      if (seen++ == 0)
        {
          served->cpu = field_double (line, "cpu=");
          served->bytes = (guint64) field_double (line, "bytes=");
          served->write_median_us = field_double (line, "write_median_us=");
          served->write_max_us = field_double (line, "write_max_us=");
        }
    }

  return TRUE;
}

/* Child processes, for memory */

static JsonObject *
run_child (const char * const  *args,
           GError             **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *output = NULL;
  JsonNode *root;

  g_ptr_array_add (argv, exe_path);
  g_ptr_array_add (argv, (gpointer) "--child");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE, error);
  if (process == NULL ||
      !g_subprocess_communicate_utf8 (process, NULL, NULL, &output, NULL, error))
    return NULL;

  if (!g_subprocess_get_successful (process))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the child “%s %s” failed",
                   args[0], args[1]);
      return NULL;
    }

  if (!json_parser_load_from_data (parser, output, -1, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the child wrote no JSON object");
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* Measurements */

static BenchRow *
add_row (BenchReport   *report,
         BenchWorkload  workload,
         const char    *layer,
         const char    *mode,
         BenchStream   *stream)
{
  BenchRow *row = bench_report_add_row (report, bench_workload_to_string (workload), layer, mode);

  row->bytes = g_bytes_get_size (stream->bytes);
  row->events = stream->expect.n_events;
  row->deltas = stream->expect.n_text_deltas + stream->expect.n_reasoning_deltas +
                stream->expect.n_tool_deltas;
  return row;
}

static gboolean
measure_pipeline (BenchReport    *report,
                  const Config   *config,
                  BenchWorkload   workload,
                  BenchStream    *stream,
                  GError        **error)
{
  static const struct { BenchFeed feed; const char *mode; const char *arg; } feeds[] = {
    { BENCH_FEED_PIECES, "16 KiB feeds", "pieces" },
    { BENCH_FEED_EVENTS, "1 event/feed", "events" },
  };
  BenchRow *rows[G_N_ELEMENTS (feeds)];
  g_autofree char *size = g_strdup_printf ("%u", config->sizes[workload]);
  BenchRun run;

  for (guint f = 0; f < G_N_ELEMENTS (feeds); f++)
    rows[f] = add_row (report, workload, "pipeline", feeds[f].mode, stream);

  /* One run untimed, then the feed modes in turn, so that a change in the
   * machine's load hits both alike. */
  if (!bench_pipeline_run (stream, BENCH_FEED_PIECES, &run, error))
    return FALSE;

  for (guint r = 0; r < config->runs; r++)
    {
      for (guint f = 0; f < G_N_ELEMENTS (feeds); f++)
        {
          if (!bench_pipeline_run (stream, feeds[f].feed, &run, error) ||
              !bench_check_run ("pipeline", &stream->expect, &run, error))
            return FALSE;
          bench_row_add_sample (rows[f], &run, 0);
        }
    }

  /* Peak RSS of a fresh process, the stream generated as it is fed. */
  for (guint f = 0; f < G_N_ELEMENTS (feeds); f++)
    {
      const char *args[] = { "pipeline", bench_workload_to_string (workload), size, feeds[f].arg, NULL };
      g_autoptr(JsonObject) child = run_child (args, error);

      if (child == NULL)
        return FALSE;
      bench_row_set_rss (rows[f], json_object_get_int_member (child, "peak_rss_kib"),
                         json_object_get_int_member (child, "base_rss_kib"));
    }

  return TRUE;
}

/* One HTTP run of @layer (0: session, 1: floor) in @mode. */
static gboolean
http_run (Server         *server,
          const Config   *config,
          BenchWorkload   workload,
          BenchStream    *stream,
          const char     *mode,
          guint           layer,
          BenchRun       *run,
          double         *server_cpu,
          GError        **error)
{
  g_autofree char *tag = NULL;
  g_autofree char *url = server_url (server, workload, mode, config->sizes[workload], &tag);
  Served served;

  if (layer == 0)
    {
      if (!bench_run_session (url, run, error) ||
          !bench_check_run ("http+signals", &stream->expect, run, error) ||
          !server_wait (server, tag, workload == BENCH_WORKLOAD_TOOLS ? 2 : 1, &served, error))
        return FALSE;
    }
  else
    {
      if (!bench_run_floor (url, run, error) ||
          !server_wait (server, tag, 1, &served, error))
        return FALSE;
      if (run->body_bytes != g_bytes_get_size (stream->bytes))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "libsoup floor: read %" G_GUINT64_FORMAT " bytes of %" G_GSIZE_FORMAT,
                       run->body_bytes, g_bytes_get_size (stream->bytes));
          return FALSE;
        }
    }

  *server_cpu = served.cpu;
  return TRUE;
}

static gboolean
measure_http (BenchReport    *report,
              const Config   *config,
              Server         *server,
              BenchWorkload   workload,
              BenchStream    *stream,
              GError        **error)
{
  static const struct { const char *mode; const char *label; } modes[] = {
    { "large", "64 KiB writes" },
    { "event", "1 event/write" },
  };
  static const char * const layers[] = { "http+signals", "libsoup floor" };
  BenchRow *rows[G_N_ELEMENTS (modes)][G_N_ELEMENTS (layers)];
  BenchRun run;
  double server_cpu;

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint l = 0; l < G_N_ELEMENTS (layers); l++)
      {
        rows[m][l] = add_row (report, workload, layers[l], modes[m].label, stream);
        if (l == 1)
          rows[m][l]->deltas = 0;
      }

  /* One untimed session run, then all four in turn. */
  if (!http_run (server, config, workload, stream, "large", 0, &run, &server_cpu, error))
    return FALSE;

  for (guint r = 0; r < config->runs; r++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      for (guint l = 0; l < G_N_ELEMENTS (layers); l++)
        {
          if (!http_run (server, config, workload, stream, modes[m].mode, l, &run, &server_cpu,
                         error))
            return FALSE;
          bench_row_add_sample (rows[m][l], &run, server_cpu);
        }

  /* Peak RSS of a fresh client process doing one run. */
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint l = 0; l < G_N_ELEMENTS (layers); l++)
      {
        g_autofree char *tag = NULL;
        g_autofree char *url = server_url (server, workload, modes[m].mode,
                                           config->sizes[workload], &tag);
        const char *args[] = { l == 0 ? "session" : "floor", url, NULL };
        g_autoptr(JsonObject) child = run_child (args, error);
        guint n_responses = l == 0 && workload == BENCH_WORKLOAD_TOOLS ? 2 : 1;

        if (child == NULL || !server_wait (server, tag, n_responses, &(Served) { 0 }, error))
          return FALSE;
        bench_row_set_rss (rows[m][l], json_object_get_int_member (child, "peak_rss_kib"),
                           json_object_get_int_member (child, "base_rss_kib"));
      }

  return TRUE;
}

/* The parts of the pipeline, in turn within each run so that the
 * differences are not differences in the machine's load. */
static gboolean
measure_breakdown (BenchReport   *report,
                   const Config  *config,
                   BenchStream   *stream,
                   GError       **error)
{
  g_autofree double *sse = g_new (double, config->runs);
  g_autofree double *json = g_new (double, config->runs);
  g_autofree double *cjson = g_new (double, config->runs);
  g_autofree double *json_glib = g_new (double, config->runs);
  g_autofree double *pipeline = g_new (double, config->runs);
  double events = stream->expect.n_events;

  for (guint r = 0; r < config->runs; r++)
    {
      BenchRun run;

      sse[r] = bench_pipeline_sse_only (stream);
      json[r] = bench_pipeline_sse_json (stream);
      cjson[r] = bench_pipeline_sse_cjson (stream);
      json_glib[r] = bench_pipeline_sse_json_glib (stream);
      if (!bench_pipeline_run (stream, BENCH_FEED_PIECES, &run, error))
        return FALSE;
      pipeline[r] = run.cpu;
    }

  report->breakdown_events = stream->expect.n_events;
  report->sse_us = bench_median (sse, config->runs) / events * 1e6;
  report->sse_json_us = bench_median (json, config->runs) / events * 1e6;
  report->sse_cjson_us = bench_median (cjson, config->runs) / events * 1e6;
  report->sse_json_glib_us = bench_median (json_glib, config->runs) / events * 1e6;
  report->pipeline_us = bench_median (pipeline, config->runs) / events * 1e6;

  return TRUE;
}

/* The fixed cost of one request: a new session (or SoupSession), the
 * connection, the request, the headers, and a 5-delta answer. */
static gboolean
measure_request_cost (BenchReport   *report,
                      const Config  *config,
                      Server        *server,
                      GError       **error)
{
  g_autofree double *session = g_new (double, config->runs);
  g_autofree double *floor = g_new (double, config->runs);

  for (guint r = 0; r < config->runs; r++)
    {
      for (guint layer = 0; layer < 2; layer++)
        {
          g_autofree char *tag = NULL;
          g_autofree char *url = server_url (server, BENCH_WORKLOAD_SHORT, "large", 5, &tag);
          BenchRun run;

          if (!(layer == 0 ? bench_run_session (url, &run, error) : bench_run_floor (url, &run, error)) ||
              !server_wait (server, tag, 1, &(Served) { 0 }, error))
            return FALSE;
          (layer == 0 ? session : floor)[r] = run.cpu;
        }
    }

  report->request_session_ms = bench_median (session, config->runs) * 1e3;
  report->request_floor_ms = bench_median (floor, config->runs) * 1e3;

  return TRUE;
}

static gboolean
measure_latency (BenchReport   *report,
                 const Config  *config,
                 Server        *server,
                 GError       **error)
{
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *tag = NULL;
  g_autofree char *url = NULL;
  Served served;

  url = server_url (server, BENCH_WORKLOAD_TEXT, "latency", config->latency_events, &tag);
  if (!bench_run_latency (url, latencies, error) ||
      !server_wait (server, tag, 1, &served, error))
    return FALSE;

  if (latencies->len != config->latency_events)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "latency: %u stamped deltas of %u",
                   latencies->len, config->latency_events);
      return FALSE;
    }

  report->latency_us = g_array_ref (latencies);
  report->latency_write_median_us = served.write_median_us;
  report->latency_write_max_us = served.write_max_us;

  return TRUE;
}

/* A fresh process per size and run, the sizes in turn within each pass so
 * that a busy moment of the machine does not land on one size only. */
static gboolean
measure_scaling (BenchReport   *report,
                 const Config  *config,
                 GError       **error)
{
  guint n_sizes = G_N_ELEMENTS (config->scaling);
  g_autofree double *cpu = g_new0 (double, n_sizes * config->runs);
  g_autofree BenchScalePoint *points = g_new0 (BenchScalePoint, n_sizes);

  for (guint r = 0; r < config->runs; r++)
    {
      for (guint i = 0; i < n_sizes; i++)
        {
          g_autofree char *size = g_strdup_printf ("%u", config->scaling[i]);
          const char *args[] = { "pipeline", "text", size, "pieces", NULL };
          g_autoptr(JsonObject) child = run_child (args, error);
          BenchScalePoint *point = &points[i];

          if (child == NULL)
            return FALSE;

          point->deltas = json_object_get_int_member (child, "deltas");
          point->bytes = json_object_get_int_member (child, "bytes");
          if (json_object_get_int_member (child, "peak_rss_kib") > point->peak_rss_kib)
            {
              point->peak_rss_kib = json_object_get_int_member (child, "peak_rss_kib");
              point->base_rss_kib = json_object_get_int_member (child, "base_rss_kib");
            }
          cpu[i * config->runs + r] = json_object_get_double_member (child, "cpu_s");
        }
    }

  for (guint i = 0; i < n_sizes; i++)
    {
      const double *samples = &cpu[i * config->runs];

      points[i].cpu = bench_median (samples, config->runs);
      points[i].cpu_min = samples[0];
      for (guint r = 1; r < config->runs; r++)
        points[i].cpu_min = MIN (points[i].cpu_min, samples[r]);
      g_array_append_val (report->scaling, points[i]);
    }

  return TRUE;
}

static void
describe_machine (BenchReport *report)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *cpuinfo = NULL;
  g_autofree char *loadavg = NULL;
  struct utsname uts;

  report->date = g_date_time_format (now, "%Y-%m-%d %H:%M:%S %z");
  report->cores = g_get_num_processors ();
  report->build = g_strdup_printf ("%s (optimization %s)%s", BENCH_BUILDTYPE, BENCH_OPTIMIZATION,
#ifdef __OPTIMIZE__
                                   ""
#else
                                   ", bench compiled WITHOUT optimization"
#endif
                                   );
  report->versions = g_strdup_printf ("GLib %u.%u.%u, libsoup %u.%u.%u, %s, cJSON %s, json-glib %s",
                                      glib_major_version, glib_minor_version, glib_micro_version,
                                      soup_get_major_version (), soup_get_minor_version (),
                                      soup_get_micro_version (), agent_json_library_version (),
                                      cJSON_Version (), JSON_VERSION_S);

  if (uname (&uts) == 0)
    report->kernel = g_strdup_printf ("%s %s %s", uts.sysname, uts.release, uts.machine);

  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      const char *model = strstr (cpuinfo, "model name");
      const char *colon = model ? strchr (model, ':') : NULL;

      if (colon != NULL)
        report->cpu_model = g_strndup (colon + 2, strcspn (colon + 2, "\n"));
    }

  /* The 1, 5 and 15 minute load averages: how busy the machine was. */
  if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
    {
      g_auto(GStrv) fields = g_strsplit (loadavg, " ", 4);

      if (g_strv_length (fields) >= 3)
        report->loadavg = g_strdup_printf ("%s %s %s", fields[0], fields[1], fields[2]);
    }
}

static void
configure (Config   *config,
           gboolean  quick,
           int       runs)
{
  static const guint full_sizes[] = { 200000, 50000, 20000 };
  static const guint full_scaling[] = { 25000, 50000, 100000, 200000, 400000 };
  guint divisor = quick ? 20 : 1;

  for (guint i = 0; i < G_N_ELEMENTS (workloads); i++)
    config->sizes[workloads[i]] = full_sizes[i] / divisor;
  for (guint i = 0; i < G_N_ELEMENTS (full_scaling); i++)
    config->scaling[i] = full_scaling[i] / divisor;

  config->quick = quick;
  config->runs = runs > 0 ? (guint) runs : quick ? 1 : 5;
  config->latency_events = quick ? 10 : 50;
  config->history_messages = quick ? 1000 : 10000;
}

static gboolean
run_all (BenchReport   *report,
         const Config  *config,
         GError       **error)
{
  BenchStream *streams[G_N_ELEMENTS (workloads)] = { NULL };
  Server server = { 0 };
  gboolean ok = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (workloads); i++)
    streams[i] = bench_stream_new (workloads[i], config->sizes[workloads[i]]);

  g_printerr ("pipeline...\n");
  for (guint i = 0; i < G_N_ELEMENTS (workloads); i++)
    if (!measure_pipeline (report, config, workloads[i], streams[i], error))
      goto out;
  if (!measure_breakdown (report, config, streams[0], error))
    goto out;

  if (!server_start (&server, error))
    goto out;

  /* Warm up: GIO modules, type registration, the first connection. */
  {
    g_autofree char *tag = NULL;
    g_autofree char *url = server_url (&server, BENCH_WORKLOAD_SHORT, "large", 5, &tag);
    BenchRun run;

    if (!bench_run_session (url, &run, error) || !server_wait (&server, tag, 1, &(Served) { 0 }, error))
      goto out;
  }

  if (!measure_request_cost (report, config, &server, error))
    goto out;

  for (guint i = 0; i < G_N_ELEMENTS (workloads); i++)
    {
      g_printerr ("http: %s...\n", bench_workload_to_string (workloads[i]));
      if (!measure_http (report, config, &server, workloads[i], streams[i], error))
        goto out;
    }

  g_printerr ("latency...\n");
  if (!measure_latency (report, config, &server, error))
    goto out;

  g_printerr ("scaling...\n");
  if (!measure_scaling (report, config, error))
    goto out;

  g_printerr ("request building...\n");
  if (!bench_history_run (config->history_messages, MAX (config->runs, 3), &report->history, error))
    goto out;

  ok = TRUE;

out:
  server_stop (&server);
  for (guint i = 0; i < G_N_ELEMENTS (workloads); i++)
    bench_stream_free (streams[i]);
  return ok;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BenchReport) report = NULL;
  g_autofree char *json_out = NULL;
  g_auto(GStrv) child_args = NULL;
  gboolean quick = FALSE;
  gboolean serve = FALSE;
  gboolean child = FALSE;
  int runs = 0;
  Config config = { 0 };
  const GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Small sizes and one run: a smoke test", NULL },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs per measurement (default 5, 1 with --quick)", "N" },
    { "json-out", 0, 0, G_OPTION_ARG_FILENAME, &json_out,
      "Write the results as JSON to FILE (default: bench/results/bench-stream.json if that "
      "directory exists)", "FILE" },
    { "serve", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &serve, NULL, NULL },
    { "child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &child, NULL, NULL },
    { G_OPTION_REMAINING, 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING_ARRAY, &child_args, NULL, NULL },
    { NULL }
  };

  /* Never through a proxy, whatever the environment says. */
  g_setenv ("no_proxy", "127.0.0.1,localhost", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");

  context = g_option_context_new ("- measure libagent's streaming hot path");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (serve)
    return bench_server_main ();
  if (child)
    return bench_child_main (child_args);

  if (runs < 0 || runs > BENCH_MAX_RUNS)
    {
      g_printerr ("--runs must be between 1 and %d\n", BENCH_MAX_RUNS);
      return 2;
    }

  exe_path = g_file_read_link ("/proc/self/exe", &error);
  if (exe_path == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  configure (&config, quick, runs);

  report = bench_report_new ();
  report->quick = config.quick;
  report->runs = config.runs;
  report->latency_pause_ms = BENCH_LATENCY_PAUSE_MS;
  describe_machine (report);

  if (!run_all (report, &config, &error))
    {
      g_printerr ("bench-stream: %s\n", error->message);
      g_free (exe_path);
      return 1;
    }

  bench_report_print (report);

  if (json_out == NULL && g_file_test ("bench/results", G_FILE_TEST_IS_DIR))
    json_out = g_strdup ("bench/results/bench-stream.json");
  if (json_out != NULL)
    {
      if (!bench_report_write_json (report, json_out, &error))
        {
          g_printerr ("bench-stream: %s\n", error->message);
          g_free (exe_path);
          return 1;
        }
      printf ("\nJSON written to %s\n", json_out);
    }

  g_free (exe_path);
  return 0;
}
