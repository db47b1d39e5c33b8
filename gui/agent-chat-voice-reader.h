/* agent-chat-voice-reader.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent-gtk.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_VOICE_READER (agent_chat_voice_reader_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatVoiceReader, agent_chat_voice_reader, AGENT_CHAT, VOICE_READER,
                      GObject)

AgentChatVoiceReader *agent_chat_voice_reader_new  (GSettings            *settings,
                                                    AgentChatSecretStore *secrets,
                                                    AgentGtkChatView     *view);
void                  agent_chat_voice_reader_stop (AgentChatVoiceReader *self);
char                 *agent_chat_voice_plain_text  (const char           *markdown);

G_END_DECLS
