/* agent-context-policy.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentContextStrategy:
 * @AGENT_CONTEXT_STRATEGY_NONE: never compact
 * @AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS: shorten the results of tools
 *   older than the turns kept to [property@Agent.ContextPolicy:max-tool-result-length]
 * @AGENT_CONTEXT_STRATEGY_KEEP_LAST: send only the last
 *   [property@Agent.ContextPolicy:keep-turns] turns
 * @AGENT_CONTEXT_STRATEGY_SUMMARIZE: have the model summarize the turns
 *   before the last [property@Agent.ContextPolicy:keep-turns] into one
 *   message, kept in the memory and sent in their place
 *
 * What an [class@Agent.ContextPolicy] does when it compacts a conversation.
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/
{
  AGENT_CONTEXT_STRATEGY_NONE              = 0,
  AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS = 1 << 0,
  AGENT_CONTEXT_STRATEGY_KEEP_LAST         = 1 << 1,
  AGENT_CONTEXT_STRATEGY_SUMMARIZE         = 1 << 2,
} AgentContextStrategy;

#define AGENT_TYPE_CONTEXT_POLICY (agent_context_policy_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentContextPolicy, agent_context_policy, AGENT, CONTEXT_POLICY, GObject)

AGENT_AVAILABLE_IN_ALL
AgentContextPolicy   *agent_context_policy_new                        (AgentContextStrategy  strategy) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContextStrategy  agent_context_policy_get_strategy               (AgentContextPolicy   *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_context_policy_set_strategy               (AgentContextPolicy   *self,
                                                                       AgentContextStrategy  strategy);
AGENT_AVAILABLE_IN_ALL
guint                 agent_context_policy_get_keep_turns             (AgentContextPolicy   *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_context_policy_set_keep_turns             (AgentContextPolicy   *self,
                                                                       guint                 keep_turns);
AGENT_AVAILABLE_IN_ALL
guint                 agent_context_policy_get_max_tool_result_length (AgentContextPolicy   *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_context_policy_set_max_tool_result_length (AgentContextPolicy   *self,
                                                                       guint                 length);
AGENT_AVAILABLE_IN_ALL
gboolean              agent_context_policy_get_auto_compact           (AgentContextPolicy   *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_context_policy_set_auto_compact           (AgentContextPolicy   *self,
                                                                       gboolean              auto_compact);
AGENT_AVAILABLE_IN_ALL
const char           *agent_context_policy_get_summary_prompt         (AgentContextPolicy   *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_context_policy_set_summary_prompt         (AgentContextPolicy   *self,
                                                                       const char           *prompt);

G_END_DECLS
