/* agent-mcp-elicitation.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentMcpElicitationMode:
 * @AGENT_MCP_ELICITATION_MODE_FORM: the server asks for values, described by
 *   [method@Agent.McpElicitation.get_requested_schema]; the answer carries
 *   them
 * @AGENT_MCP_ELICITATION_MODE_URL: the server asks the user to open
 *   [method@Agent.McpElicitation.get_url] in a browser (to sign in, to pay,
 *   to enter what must not pass through the client); the answer says
 *   whether the user agreed to open it
 *
 * What an [class@Agent.McpElicitation] asks of the user.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MCP_ELICITATION_MODE_FORM,
  AGENT_MCP_ELICITATION_MODE_URL,
} AgentMcpElicitationMode;

/**
 * AgentMcpElicitationAction:
 * @AGENT_MCP_ELICITATION_ACTION_ACCEPT: the user gave what was asked
 * @AGENT_MCP_ELICITATION_ACTION_DECLINE: the user explicitly refused
 * @AGENT_MCP_ELICITATION_ACTION_CANCEL: the user dismissed the request
 *   without choosing (closed the dialog, pressed Escape)
 *
 * How the user answered an [class@Agent.McpElicitation], as the MCP
 * specification names the actions.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MCP_ELICITATION_ACTION_ACCEPT,
  AGENT_MCP_ELICITATION_ACTION_DECLINE,
  AGENT_MCP_ELICITATION_ACTION_CANCEL,
} AgentMcpElicitationAction;

#define AGENT_TYPE_MCP_ELICITATION (agent_mcp_elicitation_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpElicitation, agent_mcp_elicitation, AGENT, MCP_ELICITATION, GObject)

AGENT_AVAILABLE_IN_ALL
const char              *agent_mcp_elicitation_get_server_name      (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
AgentMcpElicitationMode  agent_mcp_elicitation_get_mode             (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
const char              *agent_mcp_elicitation_get_message          (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
JsonObject              *agent_mcp_elicitation_get_requested_schema (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
const char              *agent_mcp_elicitation_get_url              (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
const char              *agent_mcp_elicitation_get_elicitation_id   (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
gboolean                 agent_mcp_elicitation_get_answered         (AgentMcpElicitation  *self);

AGENT_AVAILABLE_IN_ALL
gboolean                 agent_mcp_elicitation_validate             (AgentMcpElicitation  *self,
                                                                     JsonObject           *content,
                                                                     GError              **error);
AGENT_AVAILABLE_IN_ALL
gboolean                 agent_mcp_elicitation_accept               (AgentMcpElicitation  *self,
                                                                     JsonObject           *content,
                                                                     GError              **error);
AGENT_AVAILABLE_IN_ALL
void                     agent_mcp_elicitation_decline              (AgentMcpElicitation  *self);
AGENT_AVAILABLE_IN_ALL
void                     agent_mcp_elicitation_cancel               (AgentMcpElicitation  *self);

G_END_DECLS
