/* agent-chat-preferences-voice.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PREFERENCES_VOICE (agent_chat_preferences_voice_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPreferencesVoice, agent_chat_preferences_voice, AGENT_CHAT,
                      PREFERENCES_VOICE, AdwPreferencesPage)

AdwPreferencesPage *agent_chat_preferences_voice_new (GSettings            *settings,
                                                      AgentChatSecretStore *secrets);

G_END_DECLS
