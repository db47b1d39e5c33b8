/* agent-mcp-tool.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include "agent-mcp-client.h"
#include "agent-tool.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_MCP_TOOL (agent_mcp_tool_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpTool, agent_mcp_tool, AGENT, MCP_TOOL, AgentTool)

AGENT_AVAILABLE_IN_ALL
AgentMcpClient *agent_mcp_tool_dup_client       (AgentMcpTool *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char     *agent_mcp_tool_get_remote_name  (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
const char     *agent_mcp_tool_get_title        (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
JsonNode       *agent_mcp_tool_get_annotations  (AgentMcpTool *self);

G_END_DECLS
