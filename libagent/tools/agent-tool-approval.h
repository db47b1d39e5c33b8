/* agent-tool-approval.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-tool.h"
#include "agent-tool-call.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_TOOL_APPROVAL (agent_tool_approval_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentToolApproval, agent_tool_approval, AGENT, TOOL_APPROVAL, GObject)

AGENT_AVAILABLE_IN_ALL
AgentToolApproval *agent_tool_approval_new             (AgentTool         *tool,
                                                        AgentToolCall     *tool_call,
                                                        GCancellable      *cancellable) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool         *agent_tool_approval_get_tool        (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
AgentToolCall     *agent_tool_approval_get_tool_call   (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
GCancellable      *agent_tool_approval_get_cancellable (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
void               agent_tool_approval_allow           (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
void               agent_tool_approval_deny            (AgentToolApproval *self,
                                                        const char        *reason);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_tool_approval_is_answered     (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_tool_approval_get_allowed     (AgentToolApproval *self);
AGENT_AVAILABLE_IN_ALL
char              *agent_tool_approval_dup_reason      (AgentToolApproval *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
