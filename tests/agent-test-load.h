/* agent-test-load.h
 *
 * Many sessions streaming at once from one in-process AgentTestServer, each
 * with a tool round trip: the scenario of test-load (which checks that all
 * of them finish correctly) and of bench/bench-load (which measures it).
 *
 * Session i asks "Session i: what is i*7+3?". Its first answer streams a
 * role chunk, then waits at a barrier that opens only once the first
 * answers of all the sessions are streaming at the same time; then a
 * calculator call comes, in fragments. The real calculator tool runs;
 * the second answer, in @n_deltas text deltas, quotes the tool result the
 * request carried. A session is correct when its answer and its memory
 * (user, call, result, answer) hold its own numbers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef struct
{
  guint    n_sessions;
  guint    n_deltas;         /* text deltas in each final answer */
  guint    delay_ms;         /* between two events of an answer */
  gboolean shared_provider;  /* one AgentProvider for all, or one each */
} AgentTestLoadOptions;

typedef struct
{
  guint   n_correct;
  guint   max_waiting;       /* first answers streaming at once, at the barrier */
  guint64 n_text_deltas;
  gint64  wall_us;           /* first send to last completion */
  gint64  first_delta_max_us;  /* barrier opened to first text delta: the worst session */
  gint64  finish_min_us;       /* barrier opened to a session's completion */
  gint64  finish_max_us;
  char   *first_failure;     /* what was wrong with the first wrong session, or NULL */
} AgentTestLoadResult;

void agent_test_load_run          (const AgentTestLoadOptions *options,
                                   AgentTestLoadResult        *result);
void agent_test_load_result_clear (AgentTestLoadResult        *result);

G_END_DECLS
