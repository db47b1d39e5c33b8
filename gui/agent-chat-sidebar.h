/* agent-chat-sidebar.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_SIDEBAR (agent_chat_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatSidebar, agent_chat_sidebar, AGENT_CHAT, SIDEBAR, GtkWidget)

GtkWidget         *agent_chat_sidebar_new              (AgentStore         *store);
AgentStore        *agent_chat_sidebar_get_store        (AgentChatSidebar   *self);
AgentConversation *agent_chat_sidebar_get_conversation (AgentChatSidebar   *self);
void               agent_chat_sidebar_set_conversation (AgentChatSidebar   *self,
                                                        AgentConversation  *conversation);
GListModel        *agent_chat_sidebar_get_model        (AgentChatSidebar   *self);
GtkSearchEntry    *agent_chat_sidebar_get_search_entry (AgentChatSidebar   *self);
void               agent_chat_sidebar_focus_search     (AgentChatSidebar   *self);
void               agent_chat_sidebar_rename           (AgentChatSidebar   *self,
                                                        AgentConversation  *conversation);
gboolean           agent_chat_sidebar_delete           (AgentChatSidebar   *self,
                                                        AgentConversation  *conversation);
gboolean           agent_chat_sidebar_export_to_file   (AgentChatSidebar   *self,
                                                        AgentConversation  *conversation,
                                                        AgentExportFormat   format,
                                                        GFile              *file,
                                                        GError            **error);

G_END_DECLS
