/* agent-mcp-approval.c — which calls of an MCP server's tools ask the user
 *
 * The rule that makes a tool's requires-approval of the client's trusted,
 * allow-read-only and allow-destructive (the configuration's `trusted`,
 * `allowReadOnly` and `allowDestructive`; the properties are in
 * agent-mcp-client.c) and of the tool's hints:
 *
 *   read-only (readOnlyHint)          runs without asking if the server is
 *                                     trusted or allow-read-only
 *   destructive (destructiveHint,     asks, even on a trusted server, unless
 *   said by the server itself)        allow-destructive too
 *   any other                         runs without asking if trusted
 *
 * The hints are the server's word: a server that does not say its tool is
 * destructive is taken at its word here, as it is when it says a tool is
 * read-only; what a trusted server says is what the user chose to trust.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "mcp/agent-mcp-private.h"

gboolean
_agent_mcp_client_tool_needs_approval (AgentMcpClient *self,
                                       AgentMcpTool   *tool)
{
  if (agent_mcp_tool_get_read_only_hint (tool))
    return !self->trusted && !self->allow_read_only;
  if (_agent_mcp_tool_declares_destructive (tool))
    return !self->trusted || !self->allow_destructive;
  return !self->trusted;
}

/* After a change of the rule's inputs: the tools listed follow it */
void
_agent_mcp_client_update_approvals (AgentMcpClient *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), i);

      agent_tool_set_requires_approval (AGENT_TOOL (tool),
                                        _agent_mcp_client_tool_needs_approval (self, tool));
    }
}
