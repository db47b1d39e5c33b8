/* agent-chat-conversation-settings.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_CONVERSATION_SETTINGS (agent_chat_conversation_settings_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatConversationSettings, agent_chat_conversation_settings,
                      AGENT_CHAT, CONVERSATION_SETTINGS, GtkPopover)

GtkWidget  *agent_chat_conversation_settings_new        (void);
void        agent_chat_conversation_settings_set_values (AgentChatConversationSettings *self,
                                                         JsonObject                    *values);
JsonObject *agent_chat_conversation_settings_dup_values (AgentChatConversationSettings *self);

G_END_DECLS
