/* test-load.c — one process, 100 sessions streaming at once, each with a
 * tool round trip (see agent-test-load.h): every one finishes with its own
 * answer and a consistent memory, and all of them stream at the same time.
 * bench/bench-load measures the same run (time, memory); this only checks
 * it is right.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-load.h"

#define N_SESSIONS 100

static void
check_run (gboolean shared_provider)
{
  AgentTestLoadOptions options = {
    .n_sessions = N_SESSIONS,
    .n_deltas = 20,
    .delay_ms = 2,
    .shared_provider = shared_provider,
  };
  AgentTestLoadResult result;

  agent_test_load_run (&options, &result);
  g_test_message ("%u sessions in %.3f s: first text delta after the barrier within %.3f s, "
                  "finished from %.3f to %.3f s",
                  N_SESSIONS, result.wall_us / 1e6, result.first_delta_max_us / 1e6,
                  result.finish_min_us / 1e6, result.finish_max_us / 1e6);

  g_assert_cmpstr (result.first_failure, ==, NULL);
  g_assert_cmpuint (result.n_correct, ==, N_SESSIONS);
  /* Every first answer was streaming at the same moment: none queued
   * behind another's connection */
  g_assert_cmpuint (result.max_waiting, ==, N_SESSIONS);
  g_assert_cmpuint (result.n_text_deltas, ==, N_SESSIONS * options.n_deltas);

  agent_test_load_result_clear (&result);
}

/* One provider for all: its HTTP session opens a connection for each */
static void
test_load_shared_provider (void)
{
  check_run (TRUE);
}

static void
test_load_own_providers (void)
{
  check_run (FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/load/shared-provider", test_load_shared_provider);
  g_test_add_func ("/load/own-providers", test_load_own_providers);

  return g_test_run ();
}
