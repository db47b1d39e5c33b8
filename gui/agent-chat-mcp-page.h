/* agent-chat-mcp-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-mcp-row.h"
#include "agent-chat-mcp-servers.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MCP_PAGE (agent_chat_mcp_page_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpPage, agent_chat_mcp_page, AGENT_CHAT, MCP_PAGE,
                      AdwPreferencesPage)

GtkWidget           *agent_chat_mcp_page_new         (AgentChatMcpServers *servers);
AgentChatMcpServers *agent_chat_mcp_page_get_servers (AgentChatMcpPage    *self);
AgentChatMcpRow     *agent_chat_mcp_page_find_row    (AgentChatMcpPage    *self,
                                                      const char          *name);
GtkWidget           *agent_chat_mcp_page_add_server  (AgentChatMcpPage    *self);

G_END_DECLS
