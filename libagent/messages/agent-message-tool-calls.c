/* agent-message-tool-calls.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"

/* The tool calls of an assistant message */

/**
 * agent_message_get_tool_calls:
 * @self: a #AgentMessage
 *
 * Gets a list of [class@Agent.ToolCall], in index order.
 *
 * Returns: (transfer none): a list of [class@Agent.ToolCall], in index order
 *
 * Since: 0.1
 */
GListModel *
agent_message_get_tool_calls (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return G_LIST_MODEL (self->tool_calls);
}

/**
 * agent_message_get_n_tool_calls:
 * @self: a #AgentMessage
 *
 * Gets the number of tool calls in the message.
 *
 * Returns: the number of tool calls in the message
 *
 * Since: 0.1
 */
guint
agent_message_get_n_tool_calls (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->tool_calls));
}

/**
 * agent_message_get_tool_call:
 * @self: a #AgentMessage
 * @position: the index of the call
 *
 * Gets the call at @position, or %NULL.
 *
 * Returns: (transfer none) (nullable): the call at @position, or %NULL
 *
 * Since: 0.1
 */
AgentToolCall *
agent_message_get_tool_call (AgentMessage *self,
                             guint         position)
{
  g_autoptr(AgentToolCall) call = NULL;

  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  /* The store keeps its own reference, so transfer none is safe. */
  call = g_list_model_get_item (G_LIST_MODEL (self->tool_calls), position);
  return call;
}

/**
 * agent_message_add_tool_call:
 * @self: a #AgentMessage
 * @tool_call: a #AgentToolCall
 *
 * Appends @tool_call to an assistant message, for example to rebuild a
 * stored conversation. Its index becomes its position.
 *
 * Since: 0.1
 */
void
agent_message_add_tool_call (AgentMessage  *self,
                             AgentToolCall *tool_call)
{
  g_return_if_fail (AGENT_IS_MESSAGE (self));
  g_return_if_fail (AGENT_IS_TOOL_CALL (tool_call));

  _agent_tool_call_set_index (tool_call, agent_message_get_n_tool_calls (self));
  g_list_store_append (self->tool_calls, tool_call);
}

void
_agent_message_clear_tool_calls (AgentMessage *self)
{
  g_list_store_remove_all (self->tool_calls);
}
