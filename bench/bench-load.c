/* bench-load.c — many sessions at once in one process, and the memory
 *
 * Runs the scenario of tests/agent-test-load.h (N sessions streaming at
 * once from one in-process server on this main loop, each with a
 * calculator round trip) for several rounds, and prints for each: the wall
 * and CPU time, how late the slowest session got its first text delta and
 * its answer, the peak resident memory, and the heap in use afterwards
 * next to the baseline taken after a warm-up round. The server shares the
 * main loop (and the CPU figures) with the sessions.
 *
 *   bench-load [--sessions N] [--rounds R] [--deltas D] [--delay-ms MS]
 *              [--own-providers]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "agent-test-load.h"

static int opt_sessions = 100;
static int opt_rounds = 5;
static int opt_deltas = 50;
static int opt_delay_ms = 5;
static gboolean opt_own_providers;

static const GOptionEntry entries[] = {
  { "sessions", 0, 0, G_OPTION_ARG_INT, &opt_sessions, "Sessions at once (100)", "N" },
  { "rounds", 0, 0, G_OPTION_ARG_INT, &opt_rounds, "Rounds after the warm-up (5)", "R" },
  { "deltas", 0, 0, G_OPTION_ARG_INT, &opt_deltas, "Text deltas in each answer (50)", "D" },
  { "delay-ms", 0, 0, G_OPTION_ARG_INT, &opt_delay_ms, "Pause between two events (5)", "MS" },
  { "own-providers", 0, 0, G_OPTION_ARG_NONE, &opt_own_providers,
    "One AgentProvider per session instead of one for all", NULL },
  { NULL }
};

/* A "Name:   123 kB" line of /proc/self/status, in bytes */
static guint64
proc_status_bytes (const char *name)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, name)) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen (name) + 1, NULL, 10) * 1024;
}

/* The peak resident size starts again from the current one */
static void
reset_peak_rss (void)
{
  g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
}

static guint64
heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

/* What is left once the main loop has gone quiet, after malloc gave back
 * what it could */
static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  malloc_trim (0);
}

static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static gboolean
run_round (const AgentTestLoadOptions *options,
           const char                 *label,
           guint64                     baseline_heap)
{
  AgentTestLoadResult result;
  double cpu_before = cpu_seconds ();
  guint64 rss_before = proc_status_bytes ("VmRSS:");
  guint64 peak, heap_after;
  double cpu;
  gboolean ok;

  reset_peak_rss ();
  agent_test_load_run (options, &result);
  cpu = cpu_seconds () - cpu_before;
  peak = proc_status_bytes ("VmHWM:");
  settle ();
  heap_after = heap_in_use ();

  ok = result.n_correct == options->n_sessions && result.first_failure == NULL;
  printf ("%-8s %u/%u correct  wall %.3f s  cpu %.3f s  %" G_GUINT64_FORMAT " deltas  "
          "first delta ≤ %.3f s  done %.3f–%.3f s  peak RSS %.1f MB (+%.1f)  "
          "heap after %.2f MB (baseline %.2f, %+.1f kB)\n",
          label, result.n_correct, options->n_sessions, result.wall_us / 1e6, cpu,
          result.n_text_deltas, result.first_delta_max_us / 1e6, result.finish_min_us / 1e6,
          result.finish_max_us / 1e6, peak / 1e6, ((gint64) peak - (gint64) rss_before) / 1e6,
          heap_after / 1e6, baseline_heap / 1e6,
          ((gint64) heap_after - (gint64) baseline_heap) / 1e3);
  if (result.first_failure != NULL)
    printf ("         first failure: %s\n", result.first_failure);

  agent_test_load_result_clear (&result);
  return ok;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— many sessions at once");
  g_autoptr(GError) error = NULL;
  AgentTestLoadOptions options;
  AgentTestLoadOptions warm_up;
  guint64 baseline;
  gboolean ok = TRUE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (opt_sessions < 1 || opt_rounds < 1 || opt_deltas < 1 || opt_delay_ms < 0)
    {
      g_printerr ("--sessions, --rounds and --deltas must be 1 or more, --delay-ms 0 or more\n");
      return 2;
    }

  options = (AgentTestLoadOptions) {
    .n_sessions = opt_sessions,
    .n_deltas = opt_deltas,
    .delay_ms = opt_delay_ms,
    .shared_provider = !opt_own_providers,
  };
  printf ("bench-load (%s build, -O%s): %u sessions at once, %s, each a calculator round trip "
          "then %u text deltas %u ms apart\n",
          BENCH_BUILDTYPE, BENCH_OPTIMIZATION, options.n_sessions,
          options.shared_provider ? "one provider" : "one provider each",
          options.n_deltas, options.delay_ms);

  /* Libraries' one-time allocations (types, TLS, locales) happen here */
  warm_up = options;
  warm_up.n_sessions = MIN (options.n_sessions, 10);
  settle ();
  ok &= run_round (&warm_up, "warm-up", heap_in_use ());
  settle ();
  baseline = heap_in_use ();

  for (int i = 1; i <= opt_rounds; i++)
    {
      g_autofree char *label = g_strdup_printf ("round %d", i);

      ok &= run_round (&options, label, baseline);
    }

  return ok ? 0 : 1;
}
