/* agent-mcp-prompt.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <glib-object.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_MCP_PROMPT (agent_mcp_prompt_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpPrompt, agent_mcp_prompt, AGENT, MCP_PROMPT, GObject)

AGENT_AVAILABLE_IN_ALL
const char         *agent_mcp_prompt_get_name                 (AgentMcpPrompt *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_mcp_prompt_get_title                (AgentMcpPrompt *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_mcp_prompt_get_description          (AgentMcpPrompt *self);
AGENT_AVAILABLE_IN_ALL
const char * const *agent_mcp_prompt_get_argument_names       (AgentMcpPrompt *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_mcp_prompt_get_argument_description (AgentMcpPrompt *self,
                                                               const char     *argument);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_prompt_get_argument_required    (AgentMcpPrompt *self,
                                                               const char     *argument);

G_END_DECLS
