/* bench-loop-client.h — libagent as a contender of the tool-loop benchmark
 *
 * `bench-loop --child BASE_URL [--ca FILE] [--prompts N]`: an AgentSession
 * (provider "openai", the built-in calculator tool, the certificate
 * authorities of FILE trusted through agent_provider_set_tls_ca_file())
 * sends N prompts in turn; each runs the server's tool loop to its text
 * answer. Prints one JSON object: the process's CPU (getrusage, all
 * threads) and the wall time from the first send_async() to the last
 * answer, the steps (step-finished), the tool runs, the text bytes and
 * the peak RSS.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int bench_loop_client_main (const char *base_url,
                            const char *ca_file,
                            guint       n_prompts);

G_END_DECLS
