/* agent-chat-voice-player.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_VOICE_PLAYER (agent_chat_voice_player_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatVoicePlayer, agent_chat_voice_player, AGENT_CHAT, VOICE_PLAYER,
                      GObject)

AgentChatVoicePlayer *agent_chat_voice_player_new         (void);
gboolean              agent_chat_voice_player_start       (AgentChatVoicePlayer  *self,
                                                           GError               **error);
void                  agent_chat_voice_player_push        (AgentChatVoicePlayer  *self,
                                                           GBytes                *bytes);
void                  agent_chat_voice_player_end         (AgentChatVoicePlayer  *self);
void                  agent_chat_voice_player_stop        (AgentChatVoicePlayer  *self);
gboolean              agent_chat_voice_player_get_playing (AgentChatVoicePlayer  *self);

G_END_DECLS
