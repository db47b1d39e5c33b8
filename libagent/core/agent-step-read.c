/* agent-step-read.c
 *
 * Reading the answer of a step: the event stream into the decoder, or the
 * body of an HTTP error for the provider's message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-debug-private.h"
#include "agent-error.h"
#include "core/agent-retry-private.h"
#include "core/agent-step-private.h"
#include "models/agent-models-private.h"

#define MAX_ERROR_BODY     (64 * 1024)
/* Bytes read in one main-loop dispatch before yielding to other sources. */
#define MAX_BYTES_PER_DISPATCH (1024 * 1024)
/* What is read is decoded once this much is: see drain() */
#define FEED_BATCH (16 * 1024)
/* How long a whole answer waits for the end of its body: see
 * wait_for_end_of_body() */
#define TAIL_WAIT_MS 50

/* A byte came: the idle limit starts again. Only the time is noted —
 * moving the timer on every read would wake the main context (an eventfd
 * write) each time; the timer looks at it when it fires. While the read
 * source is being dispatched, its context's time is the time the bytes
 * were seen ready: GLib read the clock after the poll that found them,
 * for its own timers (our limits are such timers), so it costs nothing
 * here. */
static inline void
touch (AgentStep *self)
{
  if (self->in_read_source && self->source != NULL)
    self->last_byte = g_source_get_time (self->source);
  else
    self->last_byte = g_get_monotonic_time ();
}

GError *
_agent_step_network_error (AgentStep    *self,
                           const GError *error,
                           gboolean      streaming)
{
  const char *host = g_uri_get_host (self->uri);

  if (streaming)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                        _("The connection to %s broke while the answer was streaming: %s"),
                        host, error->message);

  return g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                      _("Could not reach %s: %s"), host, error->message);
}

/* The body ended without an answer; say what it was instead. */
static GError *
describe_non_stream (AgentStep *self)
{
  const char *content_type;
  GError *error;

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (self->message),
                                                        NULL);

  if (self->sniff != NULL && self->sniff->len > 0 &&
      (error = _agent_provider_error_from_json ((const char * const *) self->secrets,
                                                AGENT_ERROR_PROVIDER,
                                                _("The provider reported an error"),
                                                (const char *)self->sniff->data,
                                                self->sniff->len)))
    return error;

  if (self->sniff == NULL || self->sniff->len == 0)
    return g_error_new_literal (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                _("The server sent an empty answer"));

  /* Another API's stream (Ollama's NDJSON), or no stream at all */
  return g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                      _("The server's answer is not an event stream, as the %s API's are "
                        "(Content-Type: %s): the server may speak another API"),
                      _(_agent_provider_get_backend (self->provider)->stream.display_name),
                      content_type ? content_type : _("none"));
}

static gboolean
is_event_stream (AgentStep *self)
{
  const char *content_type =
    soup_message_headers_get_content_type (soup_message_get_response_headers (self->message), NULL);

  return content_type != NULL && g_ascii_strcasecmp (content_type, "text/event-stream") == 0;
}

static void
finish_body (AgentStep *self)
{
  g_autoptr(GError) error = NULL;

  if (agent_stream_decoder_finish (self->decoder, &error))
    {
      _agent_step_return_success (self);
      return;
    }

  /* Nothing came that looks like the API's stream; but an event stream
   * cut in its first event is one, and is said to be cut */
  if (agent_stream_decoder_get_n_events (self->decoder) == 0 &&
      !(agent_stream_decoder_was_cut_off (self->decoder) && is_event_stream (self)))
    {
      g_clear_error (&error);
      error = describe_non_stream (self);
    }

  _agent_step_return_error (self, g_steal_pointer (&error));
}

static gboolean
feed (AgentStep   *self,
      const char  *data,
      gsize        len)
{
  g_autoptr(GError) error = NULL;

  touch (self);
  _agent_debug_data ((const char * const *) self->secrets, &self->debug_held, data, len);

  self->body_size += len;
  if (self->body_size > agent_provider_get_max_response_size (self->provider))
    {
      _agent_step_return_error (self, g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                                   _("The answer is larger than %llu bytes "
                                                     "(max-response-size)"),
                                                   (unsigned long long) agent_provider_get_max_response_size (self->provider)));
      return FALSE;
    }

  if (self->sniff != NULL && self->sniff->len < MAX_SNIFF)
    g_byte_array_append (self->sniff, (const guint8 *)data,
                         MIN (len, MAX_SNIFF - self->sniff->len));

  if (!agent_stream_decoder_feed (self->decoder, data, len, &error))
    {
      _agent_step_return_error (self, g_steal_pointer (&error));
      return FALSE;
    }

  return TRUE;
}


static gboolean
tail_waited_cb (gpointer data)
{
  g_autoptr(AgentStep) self = agent_step_ref (data);

  g_clear_pointer (&self->tail_timer, g_source_unref);
  finish_body (self);
  return G_SOURCE_REMOVE;
}

/* The answer is whole (its end marker came), but the body may not have
 * ended yet: an HTTP chunked body's last chunk often comes in a write (a
 * TLS record) of its own, just after. Waiting a little for it lets the
 * connection go back to the pool before the next step's request asks for
 * one: otherwise that request finds it busy and opens another (a TCP and
 * TLS handshake). A server that keeps the body open longer costs the step
 * TAIL_WAIT_MS and its connection. Returns TRUE to go on reading. */
static gboolean
wait_for_end_of_body (AgentStep *self)
{
  if (self->tail_timer != NULL)
    return TRUE;

  self->tail_timer = g_timeout_source_new (TAIL_WAIT_MS);
  g_source_set_callback (self->tail_timer, tail_waited_cb, self, NULL);
  g_source_set_static_name (self->tail_timer, "[agent-step-tail]");
  g_source_attach (self->tail_timer, g_task_get_context (self->task));
  return TRUE;
}

/* What one read of the body gave (@error is taken). Returns TRUE to go on
 * reading, FALSE once the step is over. */
static gboolean
take_read (AgentStep *self,
           gssize     n,
           GError    *error)
{
  if (n < 0 && agent_stream_decoder_is_done (self->decoder))
    {
      /* Waiting for the end of a whole answer's body: whatever ends the
       * wait (a broken connection, a cancellation), the answer stands */
      g_error_free (error);
      finish_body (self);
      return FALSE;
    }

  if (n < 0)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _agent_step_return_error (self, error);
      else
        {
          _agent_step_return_error (self, _agent_step_network_error (self, error, TRUE));
          g_error_free (error);
        }
      return FALSE;
    }

  if (n == 0)
    {
      self->body_complete = TRUE;
      finish_body (self);
      return FALSE;
    }

  if (!feed (self, (const char *)self->buffer, n))
    return FALSE;

  if (agent_stream_decoder_is_done (self->decoder))
    return wait_for_end_of_body (self);

  return TRUE;
}

static void
read_async_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  GError *error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  /* The step ended meanwhile (the wait for the end of the body is over) */
  if (self->task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  if (take_read (self, n, error))
    _agent_step_read_body (self);
}

/* Reads what the body stream has without blocking. Returns TRUE to wait
 * until it is readable again, FALSE once the step is over.
 *
 * What is read is decoded a batch at a time (up to FEED_BATCH bytes, or
 * all there is): libsoup hands a chunked body over in pieces (the start
 * of a chunk that came with its size line, then the rest), and each
 * piece decoded on its own would cost a pass through the step, the
 * decoder and the event stream's parser, which keeps the unfinished
 * line. Nothing waits: a batch is decoded as soon as a read would block. */
static gboolean
drain (AgentStep *self)
{
  GPollableInputStream *pollable = G_POLLABLE_INPUT_STREAM (self->stream);
  gsize total = 0;
  gsize batch = 0;   /* read into the buffer, not decoded yet */

  while (total < MAX_BYTES_PER_DISPATCH)
    {
      GError *error = NULL;
      gssize n;

      /* The cancellable is checked here, not given to the read: a read
       * that cannot block needs it only for that check, and GIO would
       * push it as the thread's current one (an allocation) on every
       * read. Cancelling also wakes the source, which is made with it. */
      if (g_cancellable_set_error_if_cancelled (self->cancellable, &error))
        n = -1;
      else
        n = g_pollable_input_stream_read_nonblocking (pollable, self->buffer + batch,
                                                      READ_BUFFER_SIZE - batch, NULL, &error);

      if (n > 0)
        {
          batch += n;
          total += n;
          if (batch < FEED_BATCH)
            continue;
          if (!take_read (self, batch, NULL))
            return FALSE;
          batch = 0;
          continue;
        }

      /* The end, an error or nothing more for now: the batch first, but
       * not after a cancellation (nothing comes after Stop) */
      if (batch > 0 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          !take_read (self, batch, NULL))
        {
          g_clear_error (&error);
          return FALSE;
        }
      batch = 0;

      if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          g_error_free (error);
          return TRUE;
        }

      if (!take_read (self, n, error))
        return FALSE;
    }

  /* A fast stream: let the rest of the application breathe. The source
   * fires again at once, since there is more to read. */
  return batch == 0 || take_read (self, batch, NULL);
}

static gboolean
readable_cb (GObject  *stream,
             gpointer  user_data)
{
  /* Finishing may drop the last other reference to the step. */
  g_autoptr(AgentStep) self = agent_step_ref (user_data);
  gboolean more;

  self->in_read_source = TRUE;
  more = drain (self);
  self->in_read_source = FALSE;

  if (more)
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->source, g_source_unref);
  return G_SOURCE_REMOVE;
}

/* Reads the body: with a pollable stream, drain it without blocking until
 * it would block (cheaper than one async read round trip per chunk), then
 * wait on one source, kept for the whole body, until it is readable again. */
void
_agent_step_read_body (AgentStep *self)
{
  if (!G_IS_POLLABLE_INPUT_STREAM (self->stream) ||
      !g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (self->stream)))
    {
      g_input_stream_read_async (self->stream, self->buffer, READ_BUFFER_SIZE,
                                 G_PRIORITY_DEFAULT, self->cancellable,
                                 read_async_cb, agent_step_ref (self));
      return;
    }

  if (!drain (self))
    return;

  self->source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (self->stream),
                                                        self->cancellable);
  g_source_set_callback (self->source, G_SOURCE_FUNC (readable_cb), self, NULL);
  g_source_set_static_name (self->source, "[agent-step-read]");
  g_source_attach (self->source, g_task_get_context (self->task));
}

/* Reads what is left of a body whose answer is whole (an HTTP chunked
 * body's last chunk, usually in the same packet as the end of the stream)
 * without waiting, so that the connection goes back to the pool before the
 * next request is made. Whatever comes after the end is not the answer's. */
static void
read_to_end (AgentStep *self)
{
  GPollableInputStream *pollable;

  if (!G_IS_POLLABLE_INPUT_STREAM (self->stream) ||
      !g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (self->stream)))
    return;

  pollable = G_POLLABLE_INPUT_STREAM (self->stream);
  for (guint i = 0; i < 4 && !self->body_complete; i++)
    {
      gssize n = g_pollable_input_stream_read_nonblocking (pollable, self->buffer,
                                                           READ_BUFFER_SIZE, NULL, NULL);

      if (n == 0)
        self->body_complete = TRUE;
      else if (n < 0)
        return;
    }
}

/* Done with the body stream. A body read to its end lets libsoup keep the
 * connection: the stream is closed with no cancellable, and libsoup puts
 * the connection back in its pool. Anything else (an error, a
 * cancellation, a time limit, a body still open after the wait for its
 * end) is closed with a cancelled cancellable, synchronously: libsoup then
 * drops the connection instead of reading, for as long as the server
 * writes, the rest of an answer nobody wants (and the server stops
 * generating it). Closed asynchronously instead, the connection was left
 * open about one time in ten (test-connections, cancel-mid-body). */
void
_agent_step_release_stream (AgentStep *self)
{
  g_autoptr(GCancellable) drop = NULL;

  if (self->stream == NULL)
    return;

  if (self->decoder != NULL && !self->body_complete &&
      agent_stream_decoder_is_done (self->decoder))
    read_to_end (self);

  if (!self->body_complete)
    {
      drop = g_cancellable_new ();
      g_cancellable_cancel (drop);
      /* At once: cancelled, it cannot block */
      g_input_stream_close (self->stream, drop, NULL);
    }
  else
    g_input_stream_close_async (self->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  g_clear_object (&self->stream);
}

/* An HTTP error status: read its body for the provider's message */


static void
error_body_read (AgentStep *self)
{
  guint status = soup_message_get_status (self->message);
  GError *error;

  _agent_step_release_stream (self);

  error = _agent_provider_error_from_http ((const char * const *) self->secrets, status,
                                           soup_message_get_reason_phrase (self->message),
                                           (const char *)self->error_body->data,
                                           self->error_body->len);
  /* Ollama's "model 'x' not found": a model to pull */
  _agent_model_error_refine_http (&error, status, (const char *) self->error_body->data,
                                  self->error_body->len);

  /* A request too long for the model is as long the next time */
  if (_agent_retry_status_is_retryable (status) &&
      !g_error_matches (error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      _agent_step_retry_or_fail (self, error,
                                 _agent_retry_after (soup_message_get_response_headers (self->message), now));
    }
  else
    _agent_step_return_error (self, error);
}

static void
read_error_body_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      _agent_step_return_error (self, g_steal_pointer (&error));
      return;
    }

  if (n == 0)
    self->body_complete = TRUE;
  else if (n > 0)
    {
      touch (self);
      g_byte_array_append (self->error_body, self->buffer, n);
      if (self->error_body->len < MAX_ERROR_BODY)
        {
          _agent_step_read_error_body (self);
          return;
        }
    }

  /* End of body, a broken connection, or enough of it. */
  error_body_read (self);
}

void
_agent_step_read_error_body (AgentStep *self)
{
  g_input_stream_read_async (self->stream, self->buffer,
                             MIN (READ_BUFFER_SIZE, MAX_ERROR_BODY - self->error_body->len),
                             G_PRIORITY_DEFAULT, self->cancellable,
                             read_error_body_cb, agent_step_ref (self));
}

