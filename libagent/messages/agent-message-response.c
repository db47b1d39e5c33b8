/* agent-message-response.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message-private.h"

/* When a message was made, and what the server reported about the request
 * that produced an assistant message. The turn sets these through the
 * _agent_message_set_*() functions of agent-message.c, which notify. */

/**
 * agent_message_get_finish_reason:
 * @self: a #AgentMessage
 *
 * Gets why the model stopped, as the provider named it.
 *
 * Returns: (nullable): why the model stopped, as the provider named it
 *
 * Since: 0.1
 */
const char *
agent_message_get_finish_reason (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->finish_reason;
}

/**
 * agent_message_get_usage:
 * @self: a #AgentMessage
 *
 * Gets the tokens used by the request that produced this message.
 *
 * Returns: (transfer none) (nullable): the tokens used by the request that
 *   produced this message
 *
 * Since: 0.1
 */
AgentUsage *
agent_message_get_usage (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->usage;
}

/**
 * agent_message_get_response_id:
 * @self: a #AgentMessage
 *
 * Gets the provider's identifier of the response.
 *
 * Returns: (nullable): the provider's identifier of the response
 *
 * Since: 0.1
 */
const char *
agent_message_get_response_id (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->response_id;
}

/**
 * agent_message_get_model:
 * @self: a #AgentMessage
 *
 * Gets the model that wrote the message.
 *
 * Returns: (nullable): the model that wrote the message
 *
 * Since: 0.1
 */
const char *
agent_message_get_model (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->model;
}

/**
 * agent_message_get_created:
 * @self: a #AgentMessage
 *
 * Gets when the message was created.
 *
 * Returns: (transfer none): when the message was created
 *
 * Since: 0.1
 */
GDateTime *
agent_message_get_created (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->created;
}

/**
 * agent_message_get_metrics:
 * @self: a #AgentMessage
 *
 * Gets the metrics of the request that produced an assistant message.
 *
 * Returns: (transfer none) (nullable): for an assistant message, the
 *   metrics of the request that produced it
 *
 * Since: 0.1
 */
AgentMetrics *
agent_message_get_metrics (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->metrics;
}

/**
 * agent_message_get_turn_metrics:
 * @self: a #AgentMessage
 *
 * Gets the metrics of the whole turn, kept on its final message.
 *
 * Returns: (transfer none) (nullable): for the final message of a turn,
 *   the metrics of the whole turn
 *
 * Since: 0.1
 */
AgentMetrics *
agent_message_get_turn_metrics (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->turn_metrics;
}
