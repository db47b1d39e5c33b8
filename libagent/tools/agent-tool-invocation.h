/* agent-tool-invocation.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agent-tool.h"
#include "agent-tool-call.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_TOOL_INVOCATION (agent_tool_invocation_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentToolInvocation, agent_tool_invocation, AGENT, TOOL_INVOCATION, GObject)

AGENT_AVAILABLE_IN_ALL
AgentToolInvocation *agent_tool_invocation_new                (AgentTool           *tool,
                                                               AgentToolCall       *tool_call,
                                                               GCancellable        *cancellable) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool           *agent_tool_invocation_get_tool           (AgentToolInvocation *self);
AGENT_AVAILABLE_IN_ALL
AgentToolCall       *agent_tool_invocation_get_tool_call      (AgentToolInvocation *self);
AGENT_AVAILABLE_IN_ALL
JsonNode            *agent_tool_invocation_get_arguments      (AgentToolInvocation *self);
AGENT_AVAILABLE_IN_ALL
GCancellable        *agent_tool_invocation_get_cancellable    (AgentToolInvocation *self);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_tool_invocation_is_completed       (AgentToolInvocation *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_tool_invocation_return_result      (AgentToolInvocation *self,
                                                               const char          *result);
AGENT_AVAILABLE_IN_ALL
void                 agent_tool_invocation_return_json        (AgentToolInvocation *self,
                                                               JsonNode            *value);
AGENT_AVAILABLE_IN_ALL
void                 agent_tool_invocation_return_error       (AgentToolInvocation *self,
                                                               const GError        *error);
AGENT_AVAILABLE_IN_ALL
void                 agent_tool_invocation_return_error_literal (AgentToolInvocation *self,
                                                                 const char          *message);
AGENT_AVAILABLE_IN_ALL
char                *agent_tool_invocation_dup_result         (AgentToolInvocation *self,
                                                               gboolean            *is_error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                 agent_tool_invocation_report_progress    (AgentToolInvocation *self,
                                                               double               fraction,
                                                               const char          *text);

G_END_DECLS
