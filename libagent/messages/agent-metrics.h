/* agent-metrics.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <glib-object.h>

#include "agent-usage.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_METRICS (agent_metrics_get_type ())

typedef struct _AgentMetrics AgentMetrics;

AGENT_AVAILABLE_IN_ALL
GType         agent_metrics_get_type                (void) G_GNUC_CONST;
AGENT_AVAILABLE_IN_ALL
AgentMetrics *agent_metrics_ref                     (AgentMetrics       *self);
AGENT_AVAILABLE_IN_ALL
void          agent_metrics_unref                   (AgentMetrics       *self);
AGENT_AVAILABLE_IN_ALL
guint         agent_metrics_get_steps               (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
gint64        agent_metrics_get_time_to_first_token (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
gint64        agent_metrics_get_duration            (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
gint64        agent_metrics_get_wait_time           (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
double        agent_metrics_get_tokens_per_second   (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
AgentUsage   *agent_metrics_get_usage               (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
guint         agent_metrics_get_tool_calls          (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
gint64        agent_metrics_get_tool_time           (const AgentMetrics *self);
AGENT_AVAILABLE_IN_ALL
JsonNode     *agent_metrics_to_json                 (const AgentMetrics *self) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentMetrics, agent_metrics_unref)

G_END_DECLS
