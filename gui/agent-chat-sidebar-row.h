/* agent-chat-sidebar-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_SIDEBAR_ROW (agent_chat_sidebar_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatSidebarRow, agent_chat_sidebar_row, AGENT_CHAT, SIDEBAR_ROW,
                      GtkWidget)

GtkWidget         *agent_chat_sidebar_row_new              (void);
GObject           *agent_chat_sidebar_row_get_item         (AgentChatSidebarRow *self);
void               agent_chat_sidebar_row_set_item         (AgentChatSidebarRow *self,
                                                            GObject             *item);
AgentConversation *agent_chat_sidebar_row_get_conversation (AgentChatSidebarRow *self);
const char        *agent_chat_sidebar_row_get_title        (AgentChatSidebarRow *self);
void               agent_chat_sidebar_row_popup_menu       (AgentChatSidebarRow *self);

AgentConversation *agent_chat_sidebar_item_get_conversation (GObject            *item);

G_END_DECLS
