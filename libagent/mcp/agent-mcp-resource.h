/* agent-mcp-resource.h
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

#define AGENT_TYPE_MCP_RESOURCE (agent_mcp_resource_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpResource, agent_mcp_resource, AGENT, MCP_RESOURCE, GObject)

AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_uri          (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_uri_template (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_name         (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_title        (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_description  (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_mcp_resource_get_mime_type    (AgentMcpResource *self);
AGENT_AVAILABLE_IN_ALL
gint64      agent_mcp_resource_get_size         (AgentMcpResource *self);

G_END_DECLS
