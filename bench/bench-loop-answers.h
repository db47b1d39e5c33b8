/* bench-loop-answers.h — what the tool loop's model server says, and what
 * it checks in the requests
 *
 * The answers are OpenAI chat-completion chunks (bench-workload.h's
 * events). Step @step (0-based) of a loop of @n_steps: the first
 * @n_steps - 1 each ask for one call of BENCH_LOOP_TOOL with the arguments
 * {"expression": "(step + 1) * 7 + 1"} in 6 fragments (finish reason
 * "tool_calls"); the last one answers a text of 15 deltas, which ends with
 * "the loop is done." Each answer ends with a usage chunk and [DONE].
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BENCH_LOOP_TOOL "calculator"

/* The events after the role event (GBytes each, one SSE event), for the
 * answer to step @step; @serial makes the tool call's id unique. */
GPtrArray *bench_loop_answer_events (guint      step,
                                     guint      n_steps,
                                     guint      serial);

/* Which step the request @body asks for: the number of tool results after
 * its last user message. Checks that it streams, offers BENCH_LOOP_TOOL,
 * and that each tool result holds the value of the expression its step
 * asked for; appends what is wrong to @problems (char *). @results_ok:
 * there were tool results and all were right. */
guint      bench_loop_read_request  (GBytes    *body,
                                     guint      n_steps,
                                     gboolean  *results_ok,
                                     GPtrArray *problems);

G_END_DECLS
