/* agent-transcription-private.h
 *
 * The reading of a transcription's answer (agent-transcription-read.c),
 * apart from the class that asks for it: a stream of server-sent events
 * (transcript.text.delta, transcript.text.done) read as it arrives, or a
 * whole answer, JSON or text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "audio/agent-transcription.h"
#include "transport/agent-provider-private.h"

G_BEGIN_DECLS

typedef struct _AgentTranscriptRead AgentTranscriptRead;

/* Called with each piece of a streamed transcript, never empty */
typedef void (*AgentTranscriptDeltaFunc) (const char *delta,
                                          gpointer    user_data);

/* @provider's secrets are kept out of the errors its server sends */
AgentTranscriptRead *_agent_transcript_read_new          (AgentProvider            *provider,
                                                          AgentTranscriptDeltaFunc  delta_func,
                                                          gpointer                  delta_data);
void                 _agent_transcript_read_free         (AgentTranscriptRead      *self);
/* An AgentAudioChunkFunc (@user_data: the reader): the answer's pieces as
 * they arrive; a text/event-stream answer is read as events, each delta
 * handed on at once */
gboolean             _agent_transcript_read_chunk        (const char               *content_type,
                                                          const guint8             *data,
                                                          gsize                     len,
                                                          gpointer                  user_data,
                                                          GError                  **error);
/* The end of a successful answer: FALSE with @error if a stream ended
 * inside an event */
gboolean             _agent_transcript_read_end          (AgentTranscriptRead      *self,
                                                          GError                  **error);
/* Whether the answer was a stream of events */
gboolean             _agent_transcript_read_is_streamed  (AgentTranscriptRead      *self);
/* The deltas so far ("" if none) */
const char          *_agent_transcript_read_get_streamed (AgentTranscriptRead      *self);
/* A streamed transcript's text: transcript.text.done's, else the deltas */
char                *_agent_transcript_read_dup_text     (AgentTranscriptRead      *self);
/* A whole answer in @format: the text, and for JSON its language and
 * duration; @plain when it was text, not JSON. FALSE with @error when
 * it is not a transcript */
gboolean             _agent_transcript_read_whole        (AgentTranscriptRead      *self,
                                                          GBytes                   *answer,
                                                          const char               *format,
                                                          char                    **text,
                                                          char                    **language,
                                                          double                   *duration,
                                                          gboolean                 *plain,
                                                          GError                  **error);

G_END_DECLS
