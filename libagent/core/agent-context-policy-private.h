/* agent-context-policy-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-context-policy.h"
#include "messages/agent-content-part-private.h"
#include "messages/agent-message.h"

G_BEGIN_DECLS

/* The estimate of what is added since the last usage: bytes per token */
#define AGENT_CONTEXT_CHARS_PER_TOKEN 4

gsize    _agent_context_message_chars   (AgentMessage       *message);
gint64   _agent_context_message_part_tokens (AgentMessage         *message,
                                             const AgentImageRule *images,
                                             const AgentImageRule *scaled);
gint64   _agent_context_estimate        (GPtrArray            *messages,
                                         GArray               *positions,
                                         guint                 since,
                                         const char           *system_prompt,
                                         const AgentImageRule *images,
                                         const AgentImageRule *scaled,
                                         gboolean             *estimated);
gint64   _agent_context_estimate_chars  (gsize               chars);
void     _agent_context_base            (GListModel         *memory,
                                         GPtrArray          *messages,
                                         GArray             *positions,
                                         guint              *summary_position);
guint    _agent_context_policy_boundary (AgentContextPolicy *self,
                                         GPtrArray          *messages,
                                         GArray             *positions);
gsize    _agent_context_policy_apply    (AgentContextPolicy *self,
                                         AgentContextStrategy strategy,
                                         GPtrArray          *messages,
                                         GArray             *positions,
                                         guint               boundary,
                                         guint              *n_trimmed,
                                         guint              *n_dropped);

G_END_DECLS
