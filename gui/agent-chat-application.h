/* agent-chat-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

#include "agent-chat-connection.h"
#if AGENT_HAS_STORE
# include "agent-chat-documents.h"
#endif
#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

typedef struct _AgentChatMcpServers AgentChatMcpServers;

#define AGENT_CHAT_TYPE_APPLICATION (agent_chat_application_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatApplication, agent_chat_application,
                      AGENT_CHAT, APPLICATION, AdwApplication)

AgentChatApplication *agent_chat_application_new              (void);
GSettings            *agent_chat_application_get_settings     (AgentChatApplication *self);
AgentChatSecretStore *agent_chat_application_get_secret_store (AgentChatApplication *self);
AgentProfileList     *agent_chat_application_get_profiles     (AgentChatApplication *self);
gboolean              agent_chat_application_get_first_run    (AgentChatApplication *self);
void                  agent_chat_application_keep_process     (AgentChatApplication *self,
                                                               GSubprocess          *process);
AgentChatConnection  *agent_chat_application_new_connection   (AgentChatApplication *self,
                                                               const char           *provider,
                                                               const char           *base_url,
                                                               const char           *model);
GtkWindow            *agent_chat_application_open_window      (AgentChatApplication *self,
                                                               AgentChatConnection  *connection);
AgentChatMcpServers  *agent_chat_application_get_mcp_servers  (AgentChatApplication *self);
AgentMcpServerList   *agent_chat_application_get_mcp_server_list (AgentChatApplication *self);
void                  agent_chat_application_search           (AgentChatApplication *self,
                                                               const char           *text);
#if AGENT_HAS_STORE
AgentStore           *agent_chat_application_get_store        (AgentChatApplication *self);
AgentChatDocuments   *agent_chat_application_get_documents    (AgentChatApplication *self);
#endif

G_END_DECLS
