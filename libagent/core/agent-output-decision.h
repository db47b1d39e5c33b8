/* agent-output-decision.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <glib-object.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentOutputVerdict:
 * @AGENT_OUTPUT_VERDICT_ALLOW: the answer stands
 * @AGENT_OUTPUT_VERDICT_REJECT: the answer is refused: the turn fails
 * @AGENT_OUTPUT_VERDICT_REPLACE: another text stands for the answer
 *
 * What an [class@Agent.OutputDecision] says of a final answer.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_OUTPUT_VERDICT_ALLOW,
  AGENT_OUTPUT_VERDICT_REJECT,
  AGENT_OUTPUT_VERDICT_REPLACE,
} AgentOutputVerdict;

#define AGENT_TYPE_OUTPUT_DECISION (agent_output_decision_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentOutputDecision, agent_output_decision, AGENT, OUTPUT_DECISION, GObject)

AGENT_AVAILABLE_IN_ALL
AgentOutputDecision *agent_output_decision_new_allow       (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentOutputDecision *agent_output_decision_new_reject      (const char          *reason) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentOutputDecision *agent_output_decision_new_replace     (const char          *text) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentOutputVerdict   agent_output_decision_get_verdict     (AgentOutputDecision *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_output_decision_get_reason      (AgentOutputDecision *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_output_decision_get_replacement (AgentOutputDecision *self);

G_END_DECLS
