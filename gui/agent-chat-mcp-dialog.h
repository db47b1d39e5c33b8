/* agent-chat-mcp-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-mcp-servers.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MCP_DIALOG (agent_chat_mcp_dialog_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpDialog, agent_chat_mcp_dialog, AGENT_CHAT, MCP_DIALOG,
                      AdwWindow)

GtkWidget      *agent_chat_mcp_dialog_new          (GtkWindow           *parent,
                                                    AgentChatMcpServers *servers);
AgentMcpClient *agent_chat_mcp_dialog_build_client (AgentChatMcpDialog  *self,
                                                    GError             **error);
gboolean        agent_chat_mcp_dialog_add          (AgentChatMcpDialog  *self);
const char     *agent_chat_mcp_dialog_get_error    (AgentChatMcpDialog  *self);

G_END_DECLS
