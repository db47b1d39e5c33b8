/* bench-client.h — the client side of the HTTP benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bench-util.h"

G_BEGIN_DECLS

/* One turn of an AgentSession against @base_url, with text-delta,
 * reasoning-delta and (stream-tool-call-chunks on) tool-call-delta
 * handlers that count. The run is measured from send_async() to the first
 * step-finished signal: the whole turn for text answers, the first step
 * (the 4 tool calls) for the tools workload, whose tool results the
 * session then sends back for a short text answer, not measured. */
gboolean bench_run_session (const char  *base_url,
                            BenchRun    *run,
                            GError     **error);

/* The same request and body read with libsoup alone: send_async, then the
 * body drained with g_pollable_input_stream_read_nonblocking() into a
 * 64 KiB buffer and discarded, as libagent reads it. Measured from
 * send_async() to the end of the body. */
gboolean bench_run_floor   (const char  *base_url,
                            BenchRun    *run,
                            GError     **error);

/* The floor of the floor (bench-socket.c): the request written on a plain
 * blocking socket and the whole response read and discarded, headers and
 * chunk framing included (run->body_bytes). With @latencies_us (a
 * latency-mode URL), the time from each stamp to the read that got it. */
gboolean bench_run_socket  (const char  *base_url,
                            BenchRun    *run,
                            GArray      *latencies_us,
                            GError     **error);

/* A session against a latency-mode URL: appends to @latencies_us the
 * time from the server's stamp in each delta to the text-delta handler. */
gboolean bench_run_latency (const char  *base_url,
                            GArray      *latencies_us,
                            GError     **error);

G_END_DECLS
