/* agent-metrics.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>

#include "messages/agent-metrics-private.h"

/**
 * AgentMetrics:
 *
 * What one step (a model request), or a whole turn, cost and how fast it
 * went: the time to the first token, the duration, the time spent waiting
 * for a request slot, the generation speed, the tokens used, and the tools
 * that ran.
 *
 * A step's metrics are on its message ([property@Agent.Message:metrics]);
 * a turn's on its final message ([property@Agent.Message:turn-metrics]) and
 * the session ([property@Agent.Session:turn-metrics]). Times are in
 * microseconds. An `AgentMetrics` is immutable.
 *
 * Since: 0.1
 */

G_DEFINE_BOXED_TYPE (AgentMetrics, agent_metrics, agent_metrics_ref, agent_metrics_unref)

AgentMetrics *
_agent_metrics_new (const AgentMetrics *values)
{
  AgentMetrics *self = g_atomic_rc_box_new0 (AgentMetrics);

  *self = *values;
  if (self->usage != NULL)
    agent_usage_ref (self->usage);

  return self;
}

/**
 * agent_metrics_ref:
 * @self: a [struct@Agent.Metrics]
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AgentMetrics *
agent_metrics_ref (AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
agent_metrics_clear (gpointer data)
{
  AgentMetrics *self = data;

  g_clear_pointer (&self->usage, agent_usage_unref);
}

/**
 * agent_metrics_unref:
 * @self: (transfer full): a [struct@Agent.Metrics]
 *
 * Releases a reference on @self; the last one frees it.
 *
 * Since: 0.1
 */
void
agent_metrics_unref (AgentMetrics *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, agent_metrics_clear);
}

/**
 * agent_metrics_get_steps:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets how many model requests were made: 1 for a step, all of them for a
 * turn.
 *
 * Returns: how many model requests: 1 for a step, the turn's count for a turn
 *
 * Since: 0.1
 */
guint
agent_metrics_get_steps (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->steps;
}

/**
 * agent_metrics_get_time_to_first_token:
 * @self: a [struct@Agent.Metrics]
 *
 * The time from sending the request to the first streamed delta (of text,
 * reasoning or a tool call); for a turn, that of its first step.
 *
 * Returns: microseconds, or -1 if nothing streamed
 *
 * Since: 0.1
 */
gint64
agent_metrics_get_time_to_first_token (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->time_to_first_token;
}

/**
 * agent_metrics_get_duration:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets how long the step (from sending the request to the end of the answer)
 * or the turn (from start to end, tools included) took, in microseconds.
 *
 * Returns: how long the step (from sending the request to the end of the
 *   answer) or the turn (from start to end, tools included) took, in
 *   microseconds
 *
 * Since: 0.1
 */
gint64
agent_metrics_get_duration (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration;
}

/**
 * agent_metrics_get_wait_time:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets how long requests waited for a free slot of the provider's
 * [property@Agent.Provider:max-concurrent-requests], in microseconds.
 *
 * Returns: how long requests waited for a free slot of the provider's
 *   [property@Agent.Provider:max-concurrent-requests], in microseconds
 *
 * Since: 0.1
 */
gint64
agent_metrics_get_wait_time (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->wait_time;
}

/**
 * agent_metrics_get_tokens_per_second:
 * @self: a [struct@Agent.Metrics]
 *
 * The generation speed: completion tokens over the time from the first
 * delta to the last.
 *
 * Returns: tokens per second, or -1 when the provider reported no usage
 *   or the answer came in one piece
 *
 * Since: 0.1
 */
double
agent_metrics_get_tokens_per_second (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, -1);

  if (self->usage == NULL || self->generation_time <= 0)
    return -1;

  return agent_usage_get_completion_tokens (self->usage) / (self->generation_time / 1e6);
}

/**
 * agent_metrics_get_usage:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets the tokens used, summed over the turn's steps for a turn, or %NULL
 * when the provider reported none.
 *
 * Returns: (transfer none) (nullable): the tokens used, summed over the
 *   turn's steps for a turn, or %NULL when the provider reported none
 *
 * Since: 0.1
 */
AgentUsage *
agent_metrics_get_usage (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->usage;
}

/**
 * agent_metrics_get_tool_calls:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets how many tool calls there were: for a step, the calls the model made
 * in it; for a turn, the calls that ran.
 *
 * Returns: for a step, the calls the model made in it; for a turn, the
 *   calls that ran
 *
 * Since: 0.1
 */
guint
agent_metrics_get_tool_calls (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tool_calls;
}

/**
 * agent_metrics_get_tool_time:
 * @self: a [struct@Agent.Metrics]
 *
 * Gets the running time of the turn's tools, summed over the calls, in
 * microseconds (0 for a step).
 *
 * Returns: the running time of the turn's tools, summed over the calls, in
 *   microseconds (0 for a step)
 *
 * Since: 0.1
 */
gint64
agent_metrics_get_tool_time (const AgentMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tool_time;
}

/* A time in microseconds; null when it is not known */
static void
add_microseconds (JsonBuilder *builder,
                  const char  *name,
                  gint64       microseconds)
{
  json_builder_set_member_name (builder, name);
  if (microseconds < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, microseconds);
}

/**
 * agent_metrics_to_json:
 * @self: an [struct@Agent.Metrics]
 *
 * Writes the metrics as a JSON object: `steps`, `time-to-first-token-us`,
 * `duration-us`, `wait-us`, `tokens-per-second` (rounded), `tool-calls`
 * and `tool-time-us`, each time in microseconds and null when it is not
 * known. This is the form of agent-cli's `--json` output and of the events
 * of the Python and JavaScript `stream()`.
 *
 * Returns: (transfer full): a new JSON object
 *
 * Since: 0.1
 */
JsonNode *
agent_metrics_to_json (const AgentMetrics *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  double tokens_per_second;

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "steps");
  json_builder_add_int_value (builder, agent_metrics_get_steps (self));
  add_microseconds (builder, "time-to-first-token-us", agent_metrics_get_time_to_first_token (self));
  add_microseconds (builder, "duration-us", agent_metrics_get_duration (self));
  add_microseconds (builder, "wait-us", agent_metrics_get_wait_time (self));
  /* Rounded: json-glib would print every digit of a double */
  json_builder_set_member_name (builder, "tokens-per-second");
  tokens_per_second = agent_metrics_get_tokens_per_second (self);
  if (tokens_per_second < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, (gint64) (tokens_per_second + 0.5));
  json_builder_set_member_name (builder, "tool-calls");
  json_builder_add_int_value (builder, agent_metrics_get_tool_calls (self));
  add_microseconds (builder, "tool-time-us", agent_metrics_get_tool_time (self));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
