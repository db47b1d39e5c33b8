/* agent-speech.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-provider.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_SPEECH (agent_speech_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentSpeech, agent_speech, AGENT, SPEECH, GObject)

AGENT_AVAILABLE_IN_ALL
AgentSpeech   *agent_speech_new                 (AgentProvider       *provider) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentProvider *agent_speech_get_provider        (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
const char    *agent_speech_get_model           (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_set_model           (AgentSpeech         *self,
                                                 const char          *model);
AGENT_AVAILABLE_IN_ALL
const char    *agent_speech_get_voice           (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_set_voice           (AgentSpeech         *self,
                                                 const char          *voice);
AGENT_AVAILABLE_IN_ALL
const char    *agent_speech_get_response_format (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_set_response_format (AgentSpeech         *self,
                                                 const char          *format);
AGENT_AVAILABLE_IN_ALL
double         agent_speech_get_speed           (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_set_speed           (AgentSpeech         *self,
                                                 double               speed);
AGENT_AVAILABLE_IN_ALL
const char    *agent_speech_get_instructions    (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_set_instructions    (AgentSpeech         *self,
                                                 const char          *instructions);
AGENT_AVAILABLE_IN_ALL
const char    *agent_speech_get_content_type    (AgentSpeech         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_speech_synthesize_async    (AgentSpeech         *self,
                                                 const char          *input,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GBytes        *agent_speech_synthesize_finish   (AgentSpeech         *self,
                                                 GAsyncResult        *result,
                                                 GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
