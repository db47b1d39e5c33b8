/* agent-chat-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>
#include <agent-gtk.h>

#include "agent-chat-application.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_WINDOW (agent_chat_window_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatWindow, agent_chat_window, AGENT_CHAT, WINDOW, AdwApplicationWindow)

AgentChatWindow   *agent_chat_window_new          (AgentChatApplication *application);
AgentChatConnection *agent_chat_window_get_connection (AgentChatWindow    *self);
void               agent_chat_window_set_connection (AgentChatWindow      *self,
                                                     AgentChatConnection  *connection);
AgentSession      *agent_chat_window_get_session  (AgentChatWindow      *self);
AgentGtkComposer  *agent_chat_window_get_composer (AgentChatWindow      *self);
AgentGtkChatView  *agent_chat_window_get_chat_view (AgentChatWindow     *self);
void               agent_chat_window_send         (AgentChatWindow      *self,
                                                   const char           *text);
void               agent_chat_window_stop         (AgentChatWindow      *self);
void               agent_chat_window_set_memory   (AgentChatWindow      *self,
                                                   AgentMemory          *memory);
void               agent_chat_window_scroll_to_bottom (AgentChatWindow  *self);
void               agent_chat_window_pick_model   (AgentChatWindow      *self,
                                                   const char           *model);
void               agent_chat_window_pick_profile_model (AgentChatWindow *self,
                                                         const char      *profile,
                                                         const char      *model);
#if AGENT_HAS_STORE
GtkWidget         *agent_chat_window_get_sidebar  (AgentChatWindow      *self);
gboolean           agent_chat_window_open_conversation (AgentChatWindow *self,
                                                        gint64           id);
void               agent_chat_window_search       (AgentChatWindow      *self,
                                                   const char           *text);
#endif

G_END_DECLS
