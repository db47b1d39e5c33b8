/* agent-stream-decoder.h
 *
 * The whole decoding pipeline of one response body, without I/O: framing
 * (SSE or NDJSON) → the provider's event decoder → the accumulator.
 * Bytes in any pieces in; deltas reported to the accumulator's listener.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-accumulator.h"
#include "agent-provider-private.h"

G_BEGIN_DECLS

typedef struct _AgentStreamDecoder AgentStreamDecoder;

AgentStreamDecoder *agent_stream_decoder_new             (const AgentProviderBackend *backend,
                                                          AgentAccumulator           *accumulator,
                                                          const char * const         *secrets);
void                agent_stream_decoder_free            (AgentStreamDecoder         *self);
gboolean            agent_stream_decoder_feed            (AgentStreamDecoder         *self,
                                                          const char                 *data,
                                                          gsize                       len,
                                                          GError                    **error);
gboolean            agent_stream_decoder_finish          (AgentStreamDecoder         *self,
                                                          GError                    **error);
gboolean            agent_stream_decoder_is_done         (AgentStreamDecoder         *self);
guint64             agent_stream_decoder_get_n_events    (AgentStreamDecoder         *self);
gboolean            agent_stream_decoder_was_cut_off     (AgentStreamDecoder         *self);
gpointer            agent_stream_decoder_get_provider_decoder (AgentStreamDecoder    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStreamDecoder, agent_stream_decoder_free)

G_END_DECLS
