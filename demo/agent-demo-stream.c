/* agent-demo-stream.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writes a streamed response: prebuilt SSE events, one per chunk of a chunked HTTP body,
 * one every few milliseconds, until the last one or until the client goes away.
 */

#include "config.h"

#include "agent-demo-stream.h"

/* A streamed response: preformatted SSE events written one per timer tick. */
typedef struct
{
  SoupServerMessage *msg;
  GPtrArray         *events;
  guint              position;
  guint              timeout_id;
} DemoStream;

static void
demo_stream_stop (DemoStream *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
}

static void
demo_stream_free (DemoStream *self)
{
  demo_stream_stop (self);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self);
}

static void
demo_stream_write_next (DemoStream *self)
{
  SoupMessageBody *body = soup_server_message_get_response_body (self->msg);

  soup_message_body_append_bytes (body, g_ptr_array_index (self->events, self->position++));
  if (self->position == self->events->len)
    soup_message_body_complete (body);
  soup_server_message_unpause (self->msg);
}

static gboolean
demo_stream_tick (gpointer user_data)
{
  DemoStream *self = user_data;

  demo_stream_write_next (self);
  if (self->position < self->events->len)
    return G_SOURCE_CONTINUE;

  self->timeout_id = 0;
  return G_SOURCE_REMOVE;
}

/* Answers @msg with @events (transfer full; element-type GBytes), the first at once, then
 * one every @delay_ms. */
void
demo_stream_start (SoupServerMessage *msg,
                   GPtrArray         *events,
                   guint              delay_ms)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  DemoStream *self = g_new0 (DemoStream, 1);

  self->msg = msg;
  self->events = events;

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);

  /* The stream lives exactly as long as the message; a client that goes away only stops
   * the timer, and the message's finalization frees the rest. */
  g_object_set_data_full (G_OBJECT (msg), "demo-stream", self,
                          (GDestroyNotify) demo_stream_free);
  g_signal_connect_swapped (msg, "finished", G_CALLBACK (demo_stream_stop), self);
  g_signal_connect_swapped (msg, "disconnected", G_CALLBACK (demo_stream_stop), self);

  demo_stream_write_next (self);
  self->timeout_id = g_timeout_add (delay_ms, demo_stream_tick, self);
}
