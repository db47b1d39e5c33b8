/* agent-usage.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_USAGE (agent_usage_get_type ())

typedef struct _AgentUsage AgentUsage;

AGENT_AVAILABLE_IN_ALL
GType       agent_usage_get_type              (void) G_GNUC_CONST;
AGENT_AVAILABLE_IN_ALL
AgentUsage *agent_usage_new                   (gint64            prompt_tokens,
                                               gint64            completion_tokens,
                                               gint64            total_tokens) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentUsage *agent_usage_new_from_json         (JsonNode         *node) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentUsage *agent_usage_ref                   (AgentUsage       *self);
AGENT_AVAILABLE_IN_ALL
void        agent_usage_unref                 (AgentUsage       *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_prompt_tokens     (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_completion_tokens (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_total_tokens      (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_reasoning_tokens  (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_cached_tokens     (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_usage_get_cache_creation_tokens (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
JsonNode   *agent_usage_get_raw               (const AgentUsage *self);
AGENT_AVAILABLE_IN_ALL
AgentUsage *agent_usage_add                   (const AgentUsage *self,
                                               const AgentUsage *other);
AGENT_AVAILABLE_IN_ALL
JsonNode   *agent_usage_to_json               (const AgentUsage *self) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentUsage, agent_usage_unref)

G_END_DECLS
