/* agent-chat-tool-card.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_TOOL_CARD (agent_chat_tool_card_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatToolCard, agent_chat_tool_card, AGENT_CHAT, TOOL_CARD, GtkWidget)

GtkWidget     *agent_chat_tool_card_new            (void);
AgentToolCall *agent_chat_tool_card_get_tool_call  (AgentChatToolCard *self);
void           agent_chat_tool_card_set_tool_call  (AgentChatToolCard *self,
                                                    AgentToolCall     *tool_call);
gboolean       agent_chat_tool_card_get_show_chunks (AgentChatToolCard *self);
void           agent_chat_tool_card_set_show_chunks (AgentChatToolCard *self,
                                                     gboolean           show_chunks);
char          *agent_chat_pretty_json              (const char        *json);

G_END_DECLS
