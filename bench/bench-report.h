/* bench-report.h — collected results, as a table and as JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "bench-history.h"
#include "bench-util.h"

G_BEGIN_DECLS

#define BENCH_MAX_RUNS 100

/* One line of the table: medians over the samples. */
typedef struct
{
  char    *workload;
  char    *layer;
  char    *mode;
  GArray  *cpu;          /* double, seconds, one per run */
  GArray  *cpu_user;
  GArray  *cpu_sys;
  GArray  *wall;
  GArray  *server_cpu;   /* the server process's, for HTTP rows */
  GArray  *blocked;      /* times the client waited (voluntary switches) */
  guint64  bytes;        /* of the stream */
  guint64  events;       /* SSE events in the stream */
  guint64  deltas;       /* deltas a client sees; 0 for the floor */
  gint64   peak_rss_kib; /* of a fresh process doing one run; -1 if unknown */
  gint64   base_rss_kib; /* its RSS before the run */
} BenchRow;

typedef struct
{
  guint64 deltas;
  guint64 bytes;
  gint64  peak_rss_kib;
  gint64  base_rss_kib;
  double  cpu;       /* median over the runs */
  double  cpu_min;   /* the fastest run */
} BenchScalePoint;

typedef struct
{
  char         *date;
  char         *build;
  char         *versions;
  char         *kernel;
  char         *cpu_model;
  char         *loadavg;
  guint         cores;
  gboolean      quick;
  guint         runs;

  GPtrArray    *rows;

  /* Parts of the pipeline, text workload, µs per event (CPU) */
  guint64       breakdown_events;
  double        sse_us;
  double        sse_json_us;
  double        sse_cjson_us;
  double        sse_json_glib_us;
  double        pipeline_us;

  /* CPU of one short request, ms: AgentSession turn, libsoup alone */
  double        request_session_ms;
  double        request_floor_ms;

  GArray       *latency_us;     /* double */
  double        latency_write_median_us;
  double        latency_write_max_us;
  guint         latency_pause_ms;

  GArray       *scaling;        /* BenchScalePoint */

  BenchHistory  history;
} BenchReport;

BenchReport *bench_report_new        (void);
void         bench_report_free       (BenchReport    *self);
BenchRow    *bench_report_add_row    (BenchReport    *self,
                                      const char     *workload,
                                      const char     *layer,
                                      const char     *mode);
void         bench_row_add_sample    (BenchRow       *row,
                                      const BenchRun *run,
                                      double          server_cpu);
void         bench_row_set_rss       (BenchRow       *row,
                                      gint64          peak_rss_kib,
                                      gint64          base_rss_kib);
void         bench_report_print      (BenchReport    *self);
gboolean     bench_report_write_json (BenchReport    *self,
                                      const char     *path,
                                      GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BenchReport, bench_report_free)

G_END_DECLS
