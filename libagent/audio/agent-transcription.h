/* agent-transcription.h
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

#define AGENT_TYPE_TRANSCRIPTION (agent_transcription_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentTranscription, agent_transcription, AGENT, TRANSCRIPTION, GObject)

AGENT_AVAILABLE_IN_ALL
AgentTranscription *agent_transcription_new                (AgentProvider       *provider) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentProvider      *agent_transcription_get_provider       (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_model          (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_model          (AgentTranscription  *self,
                                                            const char          *model);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_language       (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_language       (AgentTranscription  *self,
                                                            const char          *language);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_prompt         (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_prompt         (AgentTranscription  *self,
                                                            const char          *prompt);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_response_format (AgentTranscription *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_response_format (AgentTranscription *self,
                                                             const char         *format);
AGENT_AVAILABLE_IN_ALL
double              agent_transcription_get_temperature    (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_temperature    (AgentTranscription  *self,
                                                            double               temperature);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_transcription_get_stream         (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_set_stream         (AgentTranscription  *self,
                                                            gboolean             stream);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_text           (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_detected_language (AgentTranscription *self);
AGENT_AVAILABLE_IN_ALL
double              agent_transcription_get_duration       (AgentTranscription  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_transcription_transcribe_async   (AgentTranscription  *self,
                                                            GBytes              *audio,
                                                            const char          *filename,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
char               *agent_transcription_transcribe_finish  (AgentTranscription  *self,
                                                            GAsyncResult        *result,
                                                            GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char         *agent_transcription_get_audio_type     (const char          *filename);

G_END_DECLS
