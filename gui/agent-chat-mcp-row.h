/* agent-chat-mcp-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

#include "agent-chat-mcp-sign-in.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MCP_ROW (agent_chat_mcp_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpRow, agent_chat_mcp_row, AGENT_CHAT, MCP_ROW, AdwExpanderRow)

GtkWidget      *agent_chat_mcp_row_new        (AgentMcpClient     *client,
                                               AgentChatMcpSignIn *sign_in);
AgentMcpClient *agent_chat_mcp_row_get_client (AgentChatMcpRow *self);
GPtrArray      *agent_chat_mcp_row_list_tools (AgentChatMcpRow *self);

G_END_DECLS
