/* agent-test-cli.h
 *
 * agent-cli as a black box, for the test programs that run it: where it
 * is, how it is started, and the checks its --json contract calls for
 * (the done line, the error line, usage).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-test-process.h"

G_BEGIN_DECLS

AgentTestProcess *agent_test_cli_spawn                (const char * const *env,
                                                       const char         *input,
                                                       const char * const *args);
AgentTestProcess *agent_test_cli_run_full             (const char * const *env,
                                                       const char         *input,
                                                       const char * const *args);
AgentTestProcess *agent_test_cli_run                  (const char * const *args);
AgentTestProcess *agent_test_cli_run_json             (const char * const *args);

void              agent_test_cli_wait_for_text_deltas (AgentTestProcess   *cli,
                                                       guint               n);
char             *agent_test_cli_streamed_text        (AgentTestProcess   *cli);
const char       *agent_test_cli_done_content         (AgentTestProcess   *cli);
void              agent_test_cli_assert_usage         (JsonObject         *event,
                                                       gint64              prompt,
                                                       gint64              completion,
                                                       gint64              total);
void              agent_test_cli_assert_usage_summed  (AgentTestProcess   *cli);
const char       *agent_test_cli_assert_error         (AgentTestProcess   *cli,
                                                       const char         *code);

JsonObject       *agent_test_cli_finished_event       (AgentTestProcess   *cli,
                                                       const char         *id);
const char       *agent_test_cli_call_result          (AgentTestProcess   *cli,
                                                       const char         *id);
const char       *agent_test_cli_call_error           (AgentTestProcess   *cli,
                                                       const char         *id);

G_END_DECLS
