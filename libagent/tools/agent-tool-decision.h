/* agent-tool-decision.h
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

#define AGENT_TYPE_TOOL_DECISION (agent_tool_decision_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentToolDecision, agent_tool_decision, AGENT, TOOL_DECISION, GObject)

AGENT_AVAILABLE_IN_ALL
AgentToolDecision *agent_tool_decision_new_allow   (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentToolDecision *agent_tool_decision_new_block   (const char        *reason) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
gboolean           agent_tool_decision_get_allowed (AgentToolDecision *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_tool_decision_get_reason  (AgentToolDecision *self);

G_END_DECLS
