/* agent-chat-voice-recorder.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_VOICE_RECORDER (agent_chat_voice_recorder_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatVoiceRecorder, agent_chat_voice_recorder, AGENT_CHAT,
                      VOICE_RECORDER, GObject)

AgentChatVoiceRecorder *agent_chat_voice_recorder_new           (void);
gboolean                agent_chat_voice_recorder_start         (AgentChatVoiceRecorder  *self,
                                                                 GError                 **error);
GBytes                 *agent_chat_voice_recorder_stop          (AgentChatVoiceRecorder  *self);
void                    agent_chat_voice_recorder_cancel        (AgentChatVoiceRecorder  *self);
gboolean                agent_chat_voice_recorder_get_recording (AgentChatVoiceRecorder  *self);
double                  agent_chat_voice_recorder_get_level     (AgentChatVoiceRecorder  *self);

G_END_DECLS
