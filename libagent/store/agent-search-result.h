/* agent-search-result.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-conversation.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_SEARCH_RESULT (agent_search_result_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentSearchResult, agent_search_result, AGENT, SEARCH_RESULT, GObject)

AGENT_AVAILABLE_IN_ALL
AgentConversation *agent_search_result_get_conversation (AgentSearchResult *self);
AGENT_AVAILABLE_IN_ALL
int                agent_search_result_get_position     (AgentSearchResult *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_search_result_get_snippet      (AgentSearchResult *self);

G_END_DECLS
