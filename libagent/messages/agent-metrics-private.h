/* agent-metrics-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-metrics.h"

G_BEGIN_DECLS

struct _AgentMetrics
{
  guint       steps;
  gint64      time_to_first_token;  /* µs, -1 when nothing streamed */
  gint64      duration;             /* µs */
  gint64      wait_time;            /* µs waiting for a request slot */
  gint64      generation_time;      /* µs from the first delta to the last */
  AgentUsage *usage;
  guint       tool_calls;
  gint64      tool_time;            /* µs, summed over the calls */
};

AgentMetrics *_agent_metrics_new (const AgentMetrics *values);

G_END_DECLS
