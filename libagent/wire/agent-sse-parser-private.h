/* agent-sse-parser-private.h
 *
 * An incremental Server-Sent Events parser following the WHATWG HTML
 * "Server-sent events" parsing rules (§9.2.6 "Interpreting an event stream").
 *
 * Pure: bytes in, events out; no I/O, no GObject, no main loop. Bytes may be
 * fed in pieces of any size; a line, a UTF-8 sequence or a CR LF pair may be
 * split across calls.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The longest line, and the largest event (its data lines, one LF each,
 * plus its event type), accepted. Beyond either, feeding fails with
 * AGENT_ERROR_PROTOCOL. */
#define AGENT_SSE_DEFAULT_MAX_SIZE (16 * 1024 * 1024)

typedef struct _AgentSseParser AgentSseParser;

typedef struct
{
  /* The event type: the value of the last `event:` field, or "message". */
  const char *type;
  /* The data buffer, with the last LF removed. NUL-terminated; may contain
   * NUL bytes, so use @data_len. Valid only during the callback. */
  const char *data;
  gsize       data_len;
  /* The last event ID (persists across events, per spec), or "" */
  const char *last_event_id;
} AgentSseEvent;

/* Called for each dispatched event. Return FALSE and set @error to stop
 * parsing; agent_sse_parser_feed() then returns FALSE with that error, and the
 * parser refuses further input until reset. The callback must not feed, reset
 * or free the parser. */
typedef gboolean (*AgentSseEventFunc) (const AgentSseEvent  *event,
                                       gpointer              user_data,
                                       GError              **error);

AgentSseParser *agent_sse_parser_new          (AgentSseEventFunc  func,
                                               gpointer           user_data);
void            agent_sse_parser_free         (AgentSseParser    *self);
void            agent_sse_parser_set_max_size (AgentSseParser    *self,
                                               gsize              max_size);
gboolean        agent_sse_parser_feed         (AgentSseParser    *self,
                                               const char        *data,
                                               gsize              len,
                                               GError           **error);
gboolean        agent_sse_parser_finish       (AgentSseParser    *self,
                                               GError           **error);
gint64          agent_sse_parser_get_retry    (AgentSseParser    *self);
gboolean        agent_sse_parser_had_partial_event (AgentSseParser *self);
void            agent_sse_parser_reset        (AgentSseParser    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentSseParser, agent_sse_parser_free)

G_END_DECLS
