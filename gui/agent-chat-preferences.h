/* agent-chat-preferences.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-connection.h"
#include "agent-chat-mcp-servers.h"
#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PREFERENCES (agent_chat_preferences_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPreferences, agent_chat_preferences,
                      AGENT_CHAT, PREFERENCES, AdwPreferencesWindow)

GtkWidget *agent_chat_preferences_new (GtkWindow            *parent,
                                       GSettings            *settings,
                                       AgentChatSecretStore *secrets,
                                       AgentChatConnection  *connection,
                                       AgentChatMcpServers  *mcp_servers);

void       agent_chat_preferences_add_server (AgentChatPreferences *self);

G_END_DECLS
