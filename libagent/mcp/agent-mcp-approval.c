/* agent-mcp-approval.c — which calls of an MCP server's tools ask the user
 *
 * Two properties of AgentMcpClient beside :trusted, read from the
 * configuration as `allowReadOnly` and `allowDestructive`, and the rule
 * that makes a tool's requires-approval of them and of the tool's hints:
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

enum {
  PROP_ALLOW_READ_ONLY,
  PROP_ALLOW_DESTRUCTIVE,
  N_APPROVAL_PROPS
};

static GParamSpec *properties[N_APPROVAL_PROPS];
static guint first_prop_id;

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

void
_agent_mcp_client_class_add_approval (GObjectClass *object_class,
                                      guint         first_id)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  first_prop_id = first_id;

  /**
   * AgentMcpClient:allow-read-only:
   *
   * Whether the tools the server says are read-only
   * ([property@Agent.McpTool:read-only-hint]) run without asking for
   * approval, even when the server is not
   * [property@Agent.McpClient:trusted]. The configuration's
   * `allowReadOnly`.
   *
   * Since: 0.1
   */
  properties[PROP_ALLOW_READ_ONLY] =
    g_param_spec_boolean ("allow-read-only", NULL, NULL, FALSE, flags);

  /**
   * AgentMcpClient:allow-destructive:
   *
   * Whether the tools the server says are destructive
   * (`destructiveHint`) run without asking when the server is
   * [property@Agent.McpClient:trusted]. Without it they ask for approval
   * of each call even then. The configuration's `allowDestructive`.
   *
   * Since: 0.1
   */
  properties[PROP_ALLOW_DESTRUCTIVE] =
    g_param_spec_boolean ("allow-destructive", NULL, NULL, FALSE, flags);

  for (guint i = 0; i < N_APPROVAL_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);
}

gboolean
_agent_mcp_client_get_approval_property (AgentMcpClient *self,
                                         guint           prop_id,
                                         GValue         *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_ALLOW_READ_ONLY:
      g_value_set_boolean (value, self->allow_read_only);
      return TRUE;

    case PROP_ALLOW_DESTRUCTIVE:
      g_value_set_boolean (value, self->allow_destructive);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_mcp_client_set_approval_property (AgentMcpClient *self,
                                         guint           prop_id,
                                         const GValue   *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_ALLOW_READ_ONLY:
      agent_mcp_client_set_allow_read_only (self, g_value_get_boolean (value));
      return TRUE;

    case PROP_ALLOW_DESTRUCTIVE:
      agent_mcp_client_set_allow_destructive (self, g_value_get_boolean (value));
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * agent_mcp_client_get_allow_read_only:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:allow-read-only].
 *
 * Returns: whether the server's read-only tools run without asking
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_allow_read_only (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->allow_read_only;
}

/**
 * agent_mcp_client_set_allow_read_only:
 * @self: a [class@Agent.McpClient]
 * @allow_read_only: whether the server's read-only tools run without asking
 *
 * Sets [property@Agent.McpClient:allow-read-only]. The tools already
 * listed change with it.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_allow_read_only (AgentMcpClient *self,
                                      gboolean        allow_read_only)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  allow_read_only = !!allow_read_only;
  if (self->allow_read_only == allow_read_only)
    return;

  self->allow_read_only = allow_read_only;
  _agent_mcp_client_update_approvals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_READ_ONLY]);
}

/**
 * agent_mcp_client_get_allow_destructive:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:allow-destructive].
 *
 * Returns: whether the destructive tools of a trusted server run without
 *   asking
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_allow_destructive (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->allow_destructive;
}

/**
 * agent_mcp_client_set_allow_destructive:
 * @self: a [class@Agent.McpClient]
 * @allow_destructive: whether the destructive tools of a trusted server
 *   run without asking
 *
 * Sets [property@Agent.McpClient:allow-destructive]. The tools already
 * listed change with it.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_allow_destructive (AgentMcpClient *self,
                                        gboolean        allow_destructive)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  allow_destructive = !!allow_destructive;
  if (self->allow_destructive == allow_destructive)
    return;

  self->allow_destructive = allow_destructive;
  _agent_mcp_client_update_approvals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_DESTRUCTIVE]);
}
