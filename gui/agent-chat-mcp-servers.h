/* agent-chat-mcp-servers.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <agent.h>

#include "agent-chat-mcp-sign-in.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MCP_SERVERS (agent_chat_mcp_servers_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpServers, agent_chat_mcp_servers,
                      AGENT_CHAT, MCP_SERVERS, GObject)

char                *agent_chat_mcp_servers_dup_default_path (void);
AgentChatMcpServers *agent_chat_mcp_servers_new              (const char          *path);
const char          *agent_chat_mcp_servers_get_path         (AgentChatMcpServers *self);
AgentMcpServerList  *agent_chat_mcp_servers_get_list         (AgentChatMcpServers *self);
const GError        *agent_chat_mcp_servers_get_load_error   (AgentChatMcpServers *self);
AgentChatMcpSignIn  *agent_chat_mcp_servers_get_sign_in      (AgentChatMcpServers *self,
                                                              AgentMcpClient      *client);
void                 agent_chat_mcp_servers_start            (AgentChatMcpServers *self);
void                 agent_chat_mcp_servers_reconnect        (AgentChatMcpServers *self,
                                                              AgentMcpClient      *client);
gboolean             agent_chat_mcp_servers_add              (AgentChatMcpServers *self,
                                                              AgentMcpClient      *client,
                                                              GError             **error);
gboolean             agent_chat_mcp_servers_remove           (AgentChatMcpServers *self,
                                                              const char          *name,
                                                              GError             **error);
gboolean             agent_chat_mcp_servers_set_enabled      (AgentChatMcpServers *self,
                                                              AgentMcpClient      *client,
                                                              gboolean             enabled,
                                                              GError             **error);
void                 agent_chat_mcp_servers_shutdown         (AgentChatMcpServers *self);
char                *agent_chat_mcp_describe_transport       (AgentMcpClient      *client);
char                *agent_chat_mcp_describe_state           (AgentMcpClient      *client);

G_END_DECLS
