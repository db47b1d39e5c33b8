/* agent-chat-window-voice.c
 *
 * The window's voice: the microphone beside Send (AgentChatVoiceButton)
 * and Read Aloud on the answers (AgentChatVoiceReader), their toasts over
 * the conversation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-voice-button.h"
#include "agent-chat-voice-reader.h"
#include "agent-chat-window-private.h"

static void
on_voice_toast (AgentChatWindow *self,
                AdwToast        *toast)
{
  _agent_chat_window_add_toast (self, g_object_ref (toast));
}

void
_agent_chat_window_init_voice (AgentChatWindow *self)
{
  GtkWidget *button = agent_chat_voice_button_new (self->settings, self->secrets, self->composer);

  g_signal_connect_object (button, "show-toast", G_CALLBACK (on_voice_toast), self,
                           G_CONNECT_SWAPPED);
  agent_gtk_composer_add_suffix (self->composer, button);

  self->voice_reader = G_OBJECT (agent_chat_voice_reader_new (self->settings, self->secrets,
                                                              self->chat_view));
  g_signal_connect_object (self->voice_reader, "show-toast", G_CALLBACK (on_voice_toast), self,
                           G_CONNECT_SWAPPED);
}
