/* bench-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench-util.h"

void
bench_cpu_now (BenchCpu *cpu)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  cpu->user = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
  cpu->sys = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  cpu->nvcsw = usage.ru_nvcsw;
}

guint64
bench_blocked_since (const BenchCpu *start)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_nvcsw - start->nvcsw;
}

double
bench_cpu_since (const BenchCpu *start,
                 double         *user,
                 double         *sys)
{
  BenchCpu now;

  bench_cpu_now (&now);
  if (user != NULL)
    *user = now.user - start->user;
  if (sys != NULL)
    *sys = now.sys - start->sys;

  return (now.user - start->user) + (now.sys - start->sys);
}

double
bench_process_cputime (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double
bench_wall_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

gint64
bench_monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gint64
read_status_kib (const char *field)
{
  g_autofree char *status = NULL;
  gsize field_len = strlen (field);
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;

  for (line = status; line != NULL && *line != '\0'; line = strchr (line, '\n'))
    {
      if (*line == '\n')
        line++;
      if (strncmp (line, field, field_len) == 0 && line[field_len] == ':')
        return g_ascii_strtoll (line + field_len + 1, NULL, 10);
    }

  return -1;
}

gint64
bench_peak_rss_kib (void)
{
  gint64 kib = read_status_kib ("VmHWM");
  struct rusage usage;

  if (kib >= 0)
    return kib;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

gint64
bench_current_rss_kib (void)
{
  return read_status_kib ("VmRSS");
}

gboolean
bench_reset_peak_rss (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (file == NULL)
    return FALSE;
  ok = fputs ("5", file) >= 0;
  ok = fclose (file) == 0 && ok;

  return ok;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static double *
sorted_copy (const double *values,
             guint         n)
{
  double *copy = g_memdup2 (values, n * sizeof (double));

  qsort (copy, n, sizeof (double), compare_doubles);
  return copy;
}

double
bench_median (const double *values,
              guint         n)
{
  g_autofree double *sorted = NULL;

  if (n == 0)
    return 0;

  sorted = sorted_copy (values, n);
  if (n % 2 == 1)
    return sorted[n / 2];
  return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double
bench_percentile (const double *values,
                  guint         n,
                  double        p)
{
  g_autofree double *sorted = NULL;
  guint rank;

  if (n == 0)
    return 0;

  sorted = sorted_copy (values, n);
  rank = (guint) MAX (1.0, (p / 100.0) * n + 0.999999);
  return sorted[MIN (rank, n) - 1];
}

double
bench_max (const double *values,
           guint         n)
{
  double max = n > 0 ? values[0] : 0;

  for (guint i = 1; i < n; i++)
    max = MAX (max, values[i]);
  return max;
}

void
bench_least_squares (const double *x,
                     const double *y,
                     guint         n,
                     double       *slope,
                     double       *intercept)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  double denominator;

  for (guint i = 0; i < n; i++)
    {
      sx += x[i];
      sy += y[i];
      sxx += x[i] * x[i];
      sxy += x[i] * y[i];
    }

  denominator = n * sxx - sx * sx;
  *slope = denominator != 0 ? (n * sxy - sx * sy) / denominator : 0;
  *intercept = n > 0 ? (sy - *slope * sx) / n : 0;
}

static const char * const markdown_mix[] = {
  "Streaming ", "**keeps** ", "the ", "answer ", "`moving` ", "while ", "the ", "user ",
  "reads; ", "*nothing* ", "is ", "laid ", "out ", "twice.\n\n",
  "- a ", "list ", "item\n", "- another ", "one\n\n",
  "```c\n", "int x = 1;\n", "return x;\n", "```\n\n",
};

const char *
bench_markdown_mix_word (guint i)
{
  return markdown_mix[i % G_N_ELEMENTS (markdown_mix)];
}
