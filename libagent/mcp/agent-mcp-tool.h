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

/**
 * AgentMcpToolChanges:
 * @AGENT_MCP_TOOL_CHANGE_NONE: nothing
 * @AGENT_MCP_TOOL_CHANGE_TITLE: the title
 * @AGENT_MCP_TOOL_CHANGE_DESCRIPTION: the description the model reads
 * @AGENT_MCP_TOOL_CHANGE_INPUT_SCHEMA: the schema of its arguments
 * @AGENT_MCP_TOOL_CHANGE_OUTPUT_SCHEMA: the schema of its structured results
 * @AGENT_MCP_TOOL_CHANGE_ANNOTATIONS: its hints (read-only, destructive…)
 *
 * What changed in the definition of a tool that an MCP server listed
 * again: see [signal@Agent.McpClient::tool-changed].
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/
{
  AGENT_MCP_TOOL_CHANGE_NONE          = 0,
  AGENT_MCP_TOOL_CHANGE_TITLE         = 1 << 0,
  AGENT_MCP_TOOL_CHANGE_DESCRIPTION   = 1 << 1,
  AGENT_MCP_TOOL_CHANGE_INPUT_SCHEMA  = 1 << 2,
  AGENT_MCP_TOOL_CHANGE_OUTPUT_SCHEMA = 1 << 3,
  AGENT_MCP_TOOL_CHANGE_ANNOTATIONS   = 1 << 4,
} AgentMcpToolChanges;

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
AGENT_AVAILABLE_IN_ALL
gboolean        agent_mcp_tool_get_read_only_hint   (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
gboolean        agent_mcp_tool_get_destructive_hint (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
gboolean        agent_mcp_tool_get_idempotent_hint  (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
gboolean        agent_mcp_tool_get_open_world_hint  (AgentMcpTool *self);
AGENT_AVAILABLE_IN_ALL
JsonNode       *agent_mcp_tool_get_output_schema    (AgentMcpTool *self);

G_END_DECLS
