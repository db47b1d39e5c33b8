/* agent-usage-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-usage.h"

G_BEGIN_DECLS

/* The counts a backend read from its provider's own usage object, which
 * is kept (a sealed copy) as the raw usage, unchanged. The cache's counts
 * are -1 when the provider did not report them. */
AgentUsage *_agent_usage_new_full (gint64    prompt_tokens,
                                   gint64    completion_tokens,
                                   gint64    total_tokens,
                                   gint64    reasoning_tokens,
                                   gint64    cached_tokens,
                                   gint64    cache_creation_tokens,
                                   JsonNode *raw);
gint64      _agent_usage_get_reported_cached_tokens         (const AgentUsage *self);
gint64      _agent_usage_get_reported_cache_creation_tokens (const AgentUsage *self);

G_END_DECLS
