/* bench-loop-server.h — the model server of the tool-loop benchmark
 *
 * `bench-loop --serve [--cert FILE --key FILE]` listens on 127.0.0.1: plain
 * HTTP on one port and, given a certificate and its key (PEM), HTTPS on
 * another. It prints "http PORT", "https PORT" and "ready" on stdout. A
 * base URL names the answers:
 *
 *   SCHEME://127.0.0.1:PORT/FRAMING/STEPS/STEP_MS   (+ /chat/completions)
 *
 *   FRAMING  sse:    chunked; headers and the role event at once, the rest
 *                    of the answer after STEP_MS, one SSE event per chunk
 *            length: the whole SSE body after STEP_MS, with Content-Length
 *   STEPS    requests per prompt: the first STEPS - 1 answers each ask for
 *            one `calculator` call, the last one answers text
 *   STEP_MS  the server's own time per step (milliseconds)
 *
 * What the answers hold and what is checked in the requests:
 * bench-loop-answers.h. Which step a request is comes from the request,
 * so one conversation can hold several prompts. Connections are kept
 * alive, as an API's servers do.
 *
 * On stdin, one command per line:
 *
 *   begin TAG   the connections accepted from now on belong to TAG
 *   end         prints "loop {JSON}" (below) for TAG and forgets it
 *
 * It exits when its stdin closes. The JSON of a loop:
 *
 *   requests, connections (accepted), handshakes (TLS handshakes done),
 *   failed_handshakes, requests_per_connection [n…], handshake_ms […]
 *   (accept → handshake done), server_ms […] (per request, handler →
 *   response written: the server's own time), gaps_ms […] (per request
 *   after the first of its prompt: the previous response written → this
 *   request read: what the client added to the step), prompts (requests
 *   of step 0), answers (text answers sent), results_ok (requests after
 *   the first of a prompt whose tool results all hold what was asked
 *   for), errors ["…"] (what a request got wrong).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int bench_loop_server_main (const char *certificate_file,
                            const char *key_file);

G_END_DECLS
