/* bench-server.h — the HTTP side of the benchmarks, run in its own process
 *
 * `bench-stream --serve` listens on 127.0.0.1, prints "port N" on stdout
 * and answers POST {base}/chat/completions, where the base URL names what
 * to send: http://127.0.0.1:N/WORKLOAD/MODE/SIZE/TAG
 *
 *   WORKLOAD  text, tools, reasoning (see bench-workload.h)
 *   MODE      large:   the body in 64 KiB writes (chunks)
 *             event:   one SSE event per write (chunk)
 *             latency: SIZE content events 50 ms apart, each carrying the
 *                      CLOCK_MONOTONIC time (ns) at which the server
 *                      handed it to libsoup, as the text " @<ns>"
 *   TAG       anything; echoed in the report line
 *
 * SoupServer accepts the connection and reads the request; the handler
 * then takes the connection over (soup_server_message_steal_connection)
 * and writes the chunked body itself, with the tests' SSE writer
 * (tests/common/agent-test-sse.c), each HTTP chunk in one send() with
 * TCP_NODELAY, as production servers (nginx, Node, Go, uvicorn) do:
 * libsoup's server would send a chunk's size line, data and CRLF in three
 * send() calls, three TCP segments per event on loopback. The connection
 * is closed after the response ("Connection: close").
 *
 * A request that carries tool results (the second step of the tools
 * workload) is answered with a short text. After each response the server
 * prints "served TAG key=value …" (its own CPU time for the response, the
 * body size, and in latency mode how long each event's send() took from
 * the stamp). It exits when its stdin closes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BENCH_LARGE_WRITE  (64 * 1024)
#define BENCH_LATENCY_PAUSE_MS 50

int bench_server_main (void);

G_END_DECLS
