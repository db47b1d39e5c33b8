/* agent-stream-decoder-private.h
 *
 * The whole decoding pipeline of one response body, without I/O: framing
 * (SSE or NDJSON) → the provider's event decoder → the accumulator.
 * Bytes in any pieces in; deltas reported to the accumulator's listener.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "wire/agent-accumulator-private.h"

G_BEGIN_DECLS

typedef enum
{
  AGENT_FRAMING_SSE,
  AGENT_FRAMING_NDJSON,
} AgentFraming;

/* How the answers of one API stream: what the stream decoder needs of a
 * provider's backend, so that this layer knows nothing of providers. */
typedef struct
{
  const char *display_name;   /* the API's name, translatable, for errors */
  AgentFraming framing;

  /* @secrets (NULL-terminated, or NULL) outlive the decoder: they are
   * redacted from what its errors quote, before any cut. */
  gpointer  (*decoder_new)   (AgentAccumulator    *accumulator,
                              const char * const  *secrets);
  void      (*decoder_free)  (gpointer             decoder);
  /* One framed event (an SSE event, or an NDJSON line; @event_type is
   * NULL for NDJSON). Sets *done when the provider's end marker arrived. */
  gboolean  (*decode)        (gpointer             decoder,
                              const char          *event_type,
                              const char          *data,
                              gsize                len,
                              gboolean            *done,
                              GError             **error);
  /* At the end of the body without an end marker: is the answer whole? */
  gboolean  (*is_complete)   (gpointer             decoder);
  /* Whether an event of this API came (an end marker alone is none): a
   * stream without one is another API's, or no answer at all. */
  gboolean  (*saw_event)     (gpointer             decoder);
} AgentStreamFormat;

typedef struct _AgentStreamDecoder AgentStreamDecoder;

AgentStreamDecoder *agent_stream_decoder_new             (const AgentStreamFormat    *format,
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

/* For a backend's decode(): TRUE, with @error set to a protocol error that
 * says so, if @parse_error (of agent_json_parser_parse()) is an event
 * nested more than AGENT_JSON_MAX_DEPTH deep, rather than one that is not
 * JSON. */
gboolean            agent_stream_event_too_deep          (const GError               *parse_error,
                                                          GError                    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStreamDecoder, agent_stream_decoder_free)

G_END_DECLS
