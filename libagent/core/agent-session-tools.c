/* agent-session-tools.c — the tools the model may call
 *
 * Adding, finding and removing the session's tools, kept by name so that
 * a lookup stays quick with thousands of them (an MCP server may bring
 * that many). The tools property, validate-tool-arguments and tool-failed
 * are agent-session.c's; running the calls is agent-turn-tools.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-session-private.h"

/**
 * agent_session_lookup_tool:
 * @self: a [class@Agent.Session]
 * @name: the name of a tool
 *
 * Finds the tool the model calls @name among the session's tools.
 *
 * Returns: (transfer none) (nullable): the tool called @name, or %NULL
 *
 * Since: 0.1
 */
AgentTool *
agent_session_lookup_tool (AgentSession *self,
                           const char   *name)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* An index of the list: an MCP server may bring thousands of tools */
  if (self->tool_names == NULL)
    return NULL;
  return g_hash_table_lookup (self->tool_names, name);
}

/**
 * agent_session_add_tool:
 * @self: a [class@Agent.Session]
 * @tool: a tool the model may call
 *
 * Offers @tool to the model from the next request on. A tool of the same
 * name is replaced.
 *
 * Since: 0.1
 */
void
agent_session_add_tool (AgentSession *self,
                        AgentTool    *tool)
{
  AgentTool *existing;

  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_TOOL (tool));

  if ((existing = agent_session_lookup_tool (self, agent_tool_get_name (tool))))
    agent_session_remove_tool (self, existing);

  if (self->tool_names == NULL)
    self->tool_names = g_hash_table_new (g_str_hash, g_str_equal);
  /* The name belongs to the tool, which the list keeps */
  g_hash_table_insert (self->tool_names, (gpointer) agent_tool_get_name (tool), tool);
  g_list_store_append (self->tools, tool);
}

/**
 * agent_session_remove_tool:
 * @self: a [class@Agent.Session]
 * @tool: a tool
 *
 * Stops offering @tool to the model.
 *
 * Returns: whether @tool was offered
 *
 * Since: 0.1
 */
gboolean
agent_session_remove_tool (AgentSession *self,
                           AgentTool    *tool)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (AGENT_IS_TOOL (tool), FALSE);

  if (!g_list_store_find (self->tools, tool, &position))
    return FALSE;

  if (g_hash_table_lookup (self->tool_names, agent_tool_get_name (tool)) == tool)
    g_hash_table_remove (self->tool_names, agent_tool_get_name (tool));
  g_list_store_remove (self->tools, position);
  return TRUE;
}
