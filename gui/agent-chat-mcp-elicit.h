/* agent-chat-mcp-elicit.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MCP_ELICIT (agent_chat_mcp_elicit_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpElicit, agent_chat_mcp_elicit, AGENT_CHAT, MCP_ELICIT, GObject)

AgentChatMcpElicit *agent_chat_mcp_elicit_new         (AgentMcpClient *client);
GtkWindow          *agent_chat_mcp_elicit_pick_window (GtkApplication *application);

G_END_DECLS
