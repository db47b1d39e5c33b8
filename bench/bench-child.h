/* bench-child.h — one measurement in a fresh process, as JSON on stdout
 *
 * `bench-stream --child …` runs one of these and prints one JSON object:
 * the measurement (BenchRun: CPU, wall, what the client saw) and the
 * process's peak RSS. bench-stream uses them for memory; bench/run-all
 * runs them as the libagent contenders.
 *
 *   --child pipeline WORKLOAD N pieces|events
 *   --child session URL
 *   --child latency URL   (a latency-mode URL; "latencies_us" in the output)
 *   --child floor URL
 *   --child socket URL [latency]   (bench-socket.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @args: what follows --child; returns the exit status. */
int bench_child_main (char **args);

G_END_DECLS
