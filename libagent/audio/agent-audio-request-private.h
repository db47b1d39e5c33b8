/* agent-audio-request-private.h
 *
 * One request of the audio API of an OpenAI-compatible server
 * (/audio/transcriptions, /audio/speech): the provider's URL, key, headers,
 * session, size limit, timeouts and retries, its errors made as a chat's
 * are (AGENT_ERROR_*, the HTTP status kept, secrets redacted), and the
 * answer's bytes handed on as they arrive.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-provider-private.h"

G_BEGIN_DECLS

/* Each piece of a successful answer, as it arrives, with the answer's
 * Content-Type (NULL if none); FALSE with @error stops the request */
typedef gboolean (*AgentAudioChunkFunc) (const char    *content_type,
                                         const guint8  *data,
                                         gsize          len,
                                         gpointer       user_data,
                                         GError       **error);

/* Sets a string property's field (an empty string is NULL), notifying
 * @pspec when it changed */
void     _agent_audio_set_string     (GObject              *object,
                                      char                **field,
                                      const char           *value,
                                      GParamSpec           *pspec);

/* Whether @provider speaks the OpenAI audio API; if not, @error says so */
gboolean _agent_audio_check_provider (AgentProvider        *provider,
                                      GError              **error);

void     _agent_audio_request_async  (AgentProvider        *provider,
                                      const char           *path,
                                      const char           *content_type,
                                      GBytes               *body,
                                      const char           *accept,
                                      AgentAudioChunkFunc   chunk_func,
                                      gpointer              chunk_data,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
/* The whole answer; its Content-Type in @content_type */
GBytes  *_agent_audio_request_finish (AgentProvider        *provider,
                                      GAsyncResult         *result,
                                      char                **content_type,
                                      GError              **error);

G_END_DECLS
