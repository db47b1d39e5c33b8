/* bench-util.h — clocks, memory and statistics for the benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One measured run. CPU is this process's (getrusage, all threads). */
typedef struct
{
  double   cpu;
  double   cpu_user;
  double   cpu_sys;
  double   wall;
  guint64  n_events;
  guint64  n_text_deltas;
  guint64  n_reasoning_deltas;
  guint64  n_tool_deltas;
  guint64  text_bytes;
  guint64  reasoning_bytes;
  guint64  argument_bytes;
  guint64  body_bytes;
  guint64  n_blocked;      /* voluntary context switches: times it waited */
  guint    n_tool_calls;
} BenchRun;

/* CPU time of the whole process (all threads), from getrusage(RUSAGE_SELF). */
typedef struct
{
  double user;
  double sys;
  glong  nvcsw;
} BenchCpu;

void     bench_cpu_now              (BenchCpu     *cpu);
double   bench_cpu_since            (const BenchCpu *start,
                                     double       *user,
                                     double       *sys);
/* Voluntary context switches since @start. */
guint64  bench_blocked_since        (const BenchCpu *start);
/* CLOCK_PROCESS_CPUTIME_ID, in seconds. */
double   bench_process_cputime      (void);
/* CLOCK_MONOTONIC: in seconds, and in nanoseconds (shared between
 * processes of one machine). */
double   bench_wall_now             (void);
gint64   bench_monotonic_ns         (void);

/* Peak resident set size of this process's address space, in KiB: VmHWM
 * from /proc/self/status. Unlike ru_maxrss it does not carry over the
 * high-water mark of the process image before exec(), i.e. of the parent
 * that forked us. Falls back to ru_maxrss. */
gint64   bench_peak_rss_kib         (void);
gint64   bench_current_rss_kib      (void);
/* Resets the peak to the current RSS (Linux ≥ 4.0); FALSE if it cannot. */
gboolean bench_reset_peak_rss       (void);

/* On a copy; @values is left untouched. */
double   bench_median               (const double *values,
                                     guint         n);
/* Nearest-rank percentile, @p in [0, 100]. */
double   bench_percentile           (const double *values,
                                     guint         n,
                                     double        p);
double   bench_max                  (const double *values,
                                     guint         n);
/* Least-squares fit y = slope·x + intercept. */
void     bench_least_squares        (const double *x,
                                     const double *y,
                                     guint         n,
                                     double       *slope,
                                     double       *intercept);

/* The @i-th delta of bench-gui's Markdown answer: paragraphs, lists and
 * code blocks, a word or a line a delta */
const char *bench_markdown_mix_word (guint i);

G_END_DECLS
