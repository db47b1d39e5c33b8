/* agent-chat-voice-button.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent-gtk.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_VOICE_BUTTON (agent_chat_voice_button_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatVoiceButton, agent_chat_voice_button, AGENT_CHAT, VOICE_BUTTON,
                      GtkWidget)

GtkWidget *agent_chat_voice_button_new (GSettings            *settings,
                                        AgentChatSecretStore *secrets,
                                        AgentGtkComposer     *composer);

G_END_DECLS
