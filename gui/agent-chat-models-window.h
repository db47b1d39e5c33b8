/* agent-chat-models-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MODELS_WINDOW (agent_chat_models_window_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatModelsWindow, agent_chat_models_window, AGENT_CHAT, MODELS_WINDOW,
                      AdwWindow)

GtkWindow         *agent_chat_models_window_new         (AgentProvider         *provider,
                                                         const char            *server);
AgentModelManager *agent_chat_models_window_get_manager (AgentChatModelsWindow *self);
void               agent_chat_models_window_refresh     (AgentChatModelsWindow *self);

G_END_DECLS
