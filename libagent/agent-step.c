/* agent-step.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-step.h"
#include "agent-stream-decoder.h"

#define READ_BUFFER_SIZE   (64 * 1024)
#define MAX_ERROR_BODY     (64 * 1024)
#define MAX_SNIFF          (4 * 1024)
/* Bytes read in one main-loop dispatch before yielding to other sources. */
#define MAX_BYTES_PER_DISPATCH (1024 * 1024)

struct _AgentStep
{
  AgentProvider       *provider;
  AgentAccumulator    *accumulator;
  AgentStreamDecoder  *decoder;
  SoupMessage         *message;
  GInputStream        *stream;
  GSource             *source;
  GTask               *task;
  GByteArray          *error_body;
  GByteArray          *sniff;        /* the start of the body, for diagnostics */
  guint8              *buffer;
  gint64               queued_at;    /* monotonic µs: when the step asked for a slot */
  gint64               sent_at;      /* when the request went out */
  guint                holds_slot : 1;
};

static void
agent_step_clear (gpointer data)
{
  AgentStep *self = data;

  g_assert (self->task == NULL);
  g_assert (self->source == NULL);

  g_clear_pointer (&self->decoder, agent_stream_decoder_free);
  g_clear_pointer (&self->accumulator, agent_accumulator_free);
  g_clear_pointer (&self->error_body, g_byte_array_unref);
  g_clear_pointer (&self->sniff, g_byte_array_unref);
  g_clear_pointer (&self->buffer, g_free);
  g_clear_object (&self->stream);
  g_clear_object (&self->message);
  g_clear_object (&self->provider);
}

AgentStep *
agent_step_new (AgentProvider                  *provider,
                const AgentAccumulatorListener *listener,
                gpointer                        user_data)
{
  AgentStep *self = g_rc_box_new0 (AgentStep);

  self->provider = g_object_ref (provider);
  self->accumulator = agent_accumulator_new (listener, user_data);
  self->decoder = agent_stream_decoder_new (_agent_provider_get_backend (provider),
                                            self->accumulator);
  return self;
}

AgentStep *
agent_step_ref (AgentStep *self)
{
  return g_rc_box_acquire (self);
}

void
agent_step_unref (AgentStep *self)
{
  g_rc_box_release_full (self, agent_step_clear);
}

AgentMessage *
agent_step_get_message (AgentStep *self)
{
  return agent_accumulator_get_message (self->accumulator);
}

/* Every error leaving a step passes here: the API key never leaves in an
 * error message, even when a server echoes it. */
static void
release_slot (AgentStep *self)
{
  if (self->holds_slot)
    {
      self->holds_slot = FALSE;
      _agent_provider_release (self->provider);
    }
}

static void
step_return_error (AgentStep *self,
                   GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  release_slot (self);

  if (error->domain != G_IO_ERROR || error->code != G_IO_ERROR_CANCELLED)
    {
      char *redacted = _agent_provider_redact (self->provider, error->message);

      g_free (error->message);
      error->message = redacted;
    }

  g_task_return_error (task, error);
}

static void
step_return_success (AgentStep *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  release_slot (self);
  g_task_return_boolean (task, TRUE);
}

static void
close_stream (AgentStep *self)
{
  if (self->stream != NULL)
    {
      g_input_stream_close_async (self->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      g_clear_object (&self->stream);
    }
}

static GError *
network_error (AgentStep    *self,
               const GError *error,
               gboolean      streaming)
{
  GUri *uri = soup_message_get_uri (self->message);
  const char *host = g_uri_get_host (uri);

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
      (error = _agent_provider_error_from_json (self->provider, AGENT_ERROR_PROVIDER,
                                                _("The provider reported an error"),
                                                (const char *)self->sniff->data,
                                                self->sniff->len)))
    return error;

  if (self->sniff == NULL || self->sniff->len == 0)
    return g_error_new_literal (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                _("The server sent an empty answer"));

  return g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                      _("The server's answer is not an event stream (Content-Type: %s)"),
                      content_type ? content_type : _("none"));
}

static void
finish_body (AgentStep *self)
{
  g_autoptr(GError) error = NULL;

  close_stream (self);

  if (agent_stream_decoder_finish (self->decoder, &error))
    {
      step_return_success (self);
      return;
    }

  if (agent_stream_decoder_get_n_events (self->decoder) == 0)
    {
      g_clear_error (&error);
      error = describe_non_stream (self);
    }

  step_return_error (self, g_steal_pointer (&error));
}

static gboolean
feed (AgentStep   *self,
      const char  *data,
      gsize        len)
{
  g_autoptr(GError) error = NULL;

  if (self->sniff != NULL && self->sniff->len < MAX_SNIFF)
    g_byte_array_append (self->sniff, (const guint8 *)data,
                         MIN (len, MAX_SNIFF - self->sniff->len));

  if (!agent_stream_decoder_feed (self->decoder, data, len, &error))
    {
      close_stream (self);
      step_return_error (self, g_steal_pointer (&error));
      return FALSE;
    }

  return TRUE;
}

static void read_body (AgentStep *self);

/* A read failed: the connection broke, or the turn was cancelled. */
static void
fail_read (AgentStep *self,
           GError    *error)
{
  close_stream (self);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    step_return_error (self, error);
  else
    {
      step_return_error (self, network_error (self, error, TRUE));
      g_error_free (error);
    }
}

/* What one read of the body gave (@error is taken). Returns TRUE to go on
 * reading, FALSE once the step is over. */
static gboolean
take_read (AgentStep *self,
           gssize     n,
           GError    *error)
{
  if (n < 0)
    {
      fail_read (self, error);
      return FALSE;
    }

  if (n == 0)
    {
      finish_body (self);
      return FALSE;
    }

  if (!feed (self, (const char *)self->buffer, n))
    return FALSE;

  if (agent_stream_decoder_is_done (self->decoder))
    {
      finish_body (self);
      return FALSE;
    }

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

  if (take_read (self, n, error))
    read_body (self);
}

/* Reads what the body stream has without blocking. Returns TRUE to wait
 * until it is readable again, FALSE once the step is over. */
static gboolean
drain (AgentStep *self)
{
  GPollableInputStream *pollable = G_POLLABLE_INPUT_STREAM (self->stream);
  GCancellable *cancellable = g_task_get_cancellable (self->task);
  gsize total = 0;

  while (total < MAX_BYTES_PER_DISPATCH)
    {
      GError *error = NULL;
      gssize n;

      n = g_pollable_input_stream_read_nonblocking (pollable, self->buffer, READ_BUFFER_SIZE,
                                                    cancellable, &error);

      if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          g_error_free (error);
          return TRUE;
        }

      if (!take_read (self, n, error))
        return FALSE;

      total += n;
    }

  /* A fast stream: let the rest of the application breathe. The source
   * fires again at once, since there is more to read. */
  return TRUE;
}

static gboolean
readable_cb (GObject  *stream,
             gpointer  user_data)
{
  /* Finishing may drop the last other reference to the step. */
  g_autoptr(AgentStep) self = agent_step_ref (user_data);

  if (drain (self))
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->source, g_source_unref);
  return G_SOURCE_REMOVE;
}

/* Reads the body: with a pollable stream, drain it without blocking until
 * it would block (cheaper than one async read round trip per chunk), then
 * wait on one source, kept for the whole body, until it is readable again. */
static void
read_body (AgentStep *self)
{
  if (!G_IS_POLLABLE_INPUT_STREAM (self->stream) ||
      !g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (self->stream)))
    {
      g_input_stream_read_async (self->stream, self->buffer, READ_BUFFER_SIZE,
                                 G_PRIORITY_DEFAULT, g_task_get_cancellable (self->task),
                                 read_async_cb, agent_step_ref (self));
      return;
    }

  if (!drain (self))
    return;

  self->source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (self->stream),
                                                        g_task_get_cancellable (self->task));
  g_source_set_callback (self->source, G_SOURCE_FUNC (readable_cb), self, NULL);
  g_source_set_static_name (self->source, "[agent-step-read]");
  g_source_attach (self->source, g_task_get_context (self->task));
}

static void read_error_body (AgentStep *self);

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
      close_stream (self);
      step_return_error (self, g_steal_pointer (&error));
      return;
    }

  if (n > 0)
    {
      g_byte_array_append (self->error_body, self->buffer, n);
      if (self->error_body->len < MAX_ERROR_BODY)
        {
          read_error_body (self);
          return;
        }
    }

  /* End of body, a broken connection, or enough of it. */
  close_stream (self);
  step_return_error (self,
                     _agent_provider_error_from_http (self->provider,
                                                      soup_message_get_status (self->message),
                                                      soup_message_get_reason_phrase (self->message),
                                                      (const char *)self->error_body->data,
                                                      self->error_body->len));
}

static void
read_error_body (AgentStep *self)
{
  g_input_stream_read_async (self->stream, self->buffer,
                             MIN (READ_BUFFER_SIZE, MAX_ERROR_BODY - self->error_body->len),
                             G_PRIORITY_DEFAULT, g_task_get_cancellable (self->task),
                             read_error_body_cb, agent_step_ref (self));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  g_autoptr(GError) error = NULL;
  guint status;

  self->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (self->stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        step_return_error (self, g_steal_pointer (&error));
      else
        step_return_error (self, network_error (self, error, FALSE));
      return;
    }

  self->buffer = g_malloc (READ_BUFFER_SIZE);
  status = soup_message_get_status (self->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      self->error_body = g_byte_array_new ();
      read_error_body (self);
      return;
    }

  self->sniff = g_byte_array_sized_new (MAX_SNIFF);
  read_body (self);
}

static void
acquire_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!_agent_provider_acquire_finish (AGENT_PROVIDER (object), result, &error))
    {
      step_return_error (self, g_steal_pointer (&error));
      return;
    }

  self->holds_slot = TRUE;

  /* Granted, but the turn was cancelled while waiting */
  if (g_task_return_error_if_cancelled (self->task))
    {
      g_clear_object (&self->task);
      release_slot (self);
      return;
    }

  self->sent_at = g_get_monotonic_time ();
  soup_session_send_async (_agent_provider_get_soup_session (self->provider),
                           self->message, G_PRIORITY_DEFAULT, g_task_get_cancellable (self->task),
                           send_cb, agent_step_ref (self));
}

/* How long the step waited for a request slot, and when it sent its
 * request (monotonic µs, 0 if it never did). */
void
agent_step_get_timing (AgentStep *self,
                       gint64    *wait_time,
                       gint64    *sent_at)
{
  if (wait_time != NULL)
    *wait_time = self->sent_at != 0 ? self->sent_at - self->queued_at : 0;
  if (sent_at != NULL)
    *sent_at = self->sent_at;
}

void
agent_step_run_async (AgentStep           *self,
                      const AgentRequest  *request,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, agent_step_run_async);
  g_task_set_task_data (self->task, agent_step_ref (self), (GDestroyNotify)agent_step_unref);

  self->message = _agent_provider_build_message (self->provider, request, &error);
  if (self->message == NULL)
    {
      step_return_error (self, g_steal_pointer (&error));
      return;
    }

  /* Wait for a request slot (the provider's max-concurrent-requests) */
  self->queued_at = g_get_monotonic_time ();
  _agent_provider_acquire_async (self->provider, cancellable, acquire_cb, agent_step_ref (self));
}

gboolean
agent_step_run_finish (AgentStep     *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_step_run_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
