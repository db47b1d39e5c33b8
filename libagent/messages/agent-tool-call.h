/* agent-tool-call.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentToolCallState:
 * @AGENT_TOOL_CALL_STATE_STREAMING: the call's fragments are still arriving
 * @AGENT_TOOL_CALL_STATE_READY: the model has finished writing the call
 * @AGENT_TOOL_CALL_STATE_AWAITING_APPROVAL: the tool needs the user's approval,
 *   which was asked for (see [signal@Agent.Session::approve-tool-call])
 * @AGENT_TOOL_CALL_STATE_RUNNING: the tool is running
 * @AGENT_TOOL_CALL_STATE_SUCCEEDED: the tool returned a result
 * @AGENT_TOOL_CALL_STATE_FAILED: the tool (or the lookup of the tool, or the
 *   parsing of its arguments) failed; the error text is the call's result
 * @AGENT_TOOL_CALL_STATE_CANCELLED: the turn was cancelled before the tool finished
 * @AGENT_TOOL_CALL_STATE_DENIED: the tool did not run: the user denied it, a
 *   hook blocked it, or a limit stopped it; the reason is the call's result
 *
 * The life cycle of an [class@Agent.ToolCall].
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_TOOL_CALL_STATE_STREAMING,
  AGENT_TOOL_CALL_STATE_READY,
  AGENT_TOOL_CALL_STATE_RUNNING,
  AGENT_TOOL_CALL_STATE_SUCCEEDED,
  AGENT_TOOL_CALL_STATE_FAILED,
  AGENT_TOOL_CALL_STATE_CANCELLED,
  AGENT_TOOL_CALL_STATE_AWAITING_APPROVAL,
  AGENT_TOOL_CALL_STATE_DENIED,
} AgentToolCallState;

#define AGENT_TYPE_TOOL_CALL (agent_tool_call_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentToolCall, agent_tool_call, AGENT, TOOL_CALL, GObject)

AGENT_AVAILABLE_IN_ALL
AgentToolCall      *agent_tool_call_new             (const char     *id,
                                                     const char     *name,
                                                     const char     *arguments) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
guint               agent_tool_call_get_index       (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_tool_call_get_id          (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_tool_call_get_name        (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_tool_call_get_arguments   (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
JsonNode           *agent_tool_call_parse_arguments (AgentToolCall  *self,
                                                     GError        **error);
AGENT_AVAILABLE_IN_ALL
AgentToolCallState  agent_tool_call_get_state       (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_tool_call_get_result      (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_tool_call_is_error        (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
JsonNode           *agent_tool_call_get_provider_data (AgentToolCall *self);
AGENT_AVAILABLE_IN_ALL
void                agent_tool_call_set_provider_data (AgentToolCall *self,
                                                       JsonNode      *provider_data);
AGENT_AVAILABLE_IN_ALL
double              agent_tool_call_get_progress    (AgentToolCall  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_tool_call_get_progress_text (AgentToolCall *self);
AGENT_AVAILABLE_IN_ALL
gint64              agent_tool_call_get_duration    (AgentToolCall  *self);

G_END_DECLS
