/* agent-step.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "agent-debug-private.h"
#include "agent-error.h"
#include "agent-trace-private.h"
#include "transport/agent-retry-private.h"
#include "transport/agent-step-private.h"
#include "transport/agent-step-remote-private.h"
#include "wire/agent-wire-util-private.h"

static void send_attempt (AgentStep *self);

static void
destroy_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
agent_step_clear (gpointer data)
{
  AgentStep *self = data;

  g_assert (self->task == NULL);
  g_assert (self->source == NULL);
  g_assert (self->timer == NULL && self->step_timer == NULL && self->retry_timer == NULL);

  g_clear_pointer (&self->decoder, agent_stream_decoder_free);
  g_clear_pointer (&self->remote, _agent_step_remote_free);
  g_clear_pointer (&self->accumulator, agent_accumulator_free);
  g_clear_pointer (&self->error_body, g_byte_array_unref);
  g_clear_pointer (&self->sniff, g_byte_array_unref);
  g_clear_pointer (&self->buffer, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->request_headers, soup_message_headers_unref);
  g_clear_pointer (&self->body, g_bytes_unref);
  g_clear_error (&self->timeout_error);
  g_clear_object (&self->stream);
  g_clear_object (&self->message);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->turn_cancellable);
  g_clear_object (&self->provider_cancellable);
  g_clear_object (&self->provider);
  g_clear_pointer (&self->secrets, _agent_secrets_free);
  if (self->debug_held != NULL)
    g_string_free (self->debug_held, TRUE);
}

AgentStep *
agent_step_new (AgentProvider                  *provider,
                AgentRequestSettings           *settings,
                const AgentAccumulatorListener *listener,
                gpointer                        user_data)
{
  AgentStep *self = g_rc_box_new0 (AgentStep);
  const AgentProviderBackend *backend = _agent_provider_get_backend (provider);

  self->provider = g_object_ref (provider);
  self->secrets = _agent_provider_dup_request_secrets (provider, settings);
  self->accumulator = agent_accumulator_new (listener, user_data);
  /* A remote step's answer comes decoded already */
  if (backend->run_remote == NULL)
    self->decoder = agent_stream_decoder_new (&backend->stream, self->accumulator,
                                              (const char * const *) self->secrets);
  self->cancellable = g_cancellable_new ();
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

/* When the bytes being decoded came (monotonic µs): what a listener of the
 * accumulator takes for the time of a delta, without a clock of its own */
gint64
agent_step_get_read_time (AgentStep *self)
{
  return self->last_byte;
}

/* The most seconds the whole step (retries included) may take, 0 for no limit. */
void
agent_step_set_timeout (AgentStep *self,
                        double     seconds)
{
  self->step_timeout = seconds;
}

/* The most bytes the request body may have, 0 for no limit. */
void
agent_step_set_max_request_size (AgentStep *self,
                                 guint64    max_size)
{
  self->max_request_size = max_size;
}

void
agent_step_set_retry_func (AgentStep          *self,
                           AgentStepRetryFunc  func,
                           gpointer            user_data)
{
  self->retry_func = func;
  self->retry_data = user_data;
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

/* Cancelling the turn, or disposing the provider, cancels the step's own
 * cancellable: the current one (a retry after a connect timeout makes a
 * new one, linked anew). */
static void
cancel_cb (GCancellable *cancelled,
           GCancellable *cancellable)
{
  g_cancellable_cancel (cancellable);
}

static void
unlink_cancellables (AgentStep *self)
{
  if (self->turn_cancelled_id != 0)
    {
      g_cancellable_disconnect (self->turn_cancellable, self->turn_cancelled_id);
      self->turn_cancelled_id = 0;
    }
  if (self->provider_cancelled_id != 0)
    {
      g_cancellable_disconnect (self->provider_cancellable, self->provider_cancelled_id);
      self->provider_cancelled_id = 0;
    }
}

static void
link_cancellables (AgentStep *self)
{
  unlink_cancellables (self);
  self->turn_cancelled_id = g_cancellable_connect (self->turn_cancellable,
                                                   G_CALLBACK (cancel_cb),
                                                   g_object_ref (self->cancellable),
                                                   g_object_unref);
  self->provider_cancelled_id = g_cancellable_connect (self->provider_cancellable,
                                                       G_CALLBACK (cancel_cb),
                                                       g_object_ref (self->cancellable),
                                                       g_object_unref);
}

/* Ending */

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
stop_everything (AgentStep *self)
{
  destroy_source (&self->source);
  destroy_source (&self->timer);
  destroy_source (&self->step_timer);
  destroy_source (&self->retry_timer);
  destroy_source (&self->retry_cancel);
  destroy_source (&self->tail_timer);

  unlink_cancellables (self);
  _agent_step_remote_stop (self);

  _agent_debug_data_end ((const char * const *) self->secrets, &self->debug_held);

  _agent_step_release_stream (self);
  release_slot (self);
}

/* The request's span, from send_attempt() to its answer's last byte (or an
 * error); the path only, as a query may hold a key. */
static void
trace_request_end (AgentStep  *self,
                   const char *error_message)
{
  _agent_trace_end (self->trace_request, "libagent", "request", "POST %s: HTTP %u, %" G_GUINT64_FORMAT " bytes%s%s",
                    self->uri ? g_uri_get_path (self->uri) : "RunStep",
                    self->message ? soup_message_get_status (self->message) : 0, self->body_size,
                    error_message ? ": " : "", error_message ? error_message : "");
  self->trace_request = 0;
}

/* Every error leaving a step passes here: a time limit that was hit wins
 * over the cancellation it caused, and the secrets (the API key, …) never
 * leave in an error message, even when a server echoes them. */
void
_agent_step_return_error (AgentStep *self,
                          GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  stop_everything (self);

  if (self->timeout_error != NULL &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_cancellable_is_cancelled (self->turn_cancellable))
    {
      g_error_free (error);
      error = g_steal_pointer (&self->timeout_error);
    }

  if (error->domain != G_IO_ERROR || error->code != G_IO_ERROR_CANCELLED)
    {
      char *redacted = agent_redact (error->message, (const char * const *) self->secrets);

      g_free (error->message);
      error->message = redacted;
    }

  _agent_debug_note ("✗ %s", error->message);
  trace_request_end (self, error->message);
  g_task_return_error (task, error);
}

void
_agent_step_return_success (AgentStep *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  stop_everything (self);
  trace_request_end (self, NULL);
  g_task_return_boolean (task, TRUE);
}

/* Time limits */

static gboolean limit_reached_cb (gpointer data);

static GSource *
add_timer (AgentStep   *self,
           double       seconds,
           GSourceFunc  func)
{
  GSource *source = g_timeout_source_new ((guint) MIN (ceil (seconds * 1000), G_MAXUINT));

  g_source_set_callback (source, func, self, NULL);
  g_source_set_static_name (source, "[agent-step-timer]");
  g_source_attach (source, g_task_get_context (self->task));
  return source;
}

static gboolean
limit_reached_cb (gpointer data)
{
  AgentStep *self = data;
  double seconds = 0;
  const char *host = g_uri_get_host (self->uri);

  if (self->phase == PHASE_IDLE || self->phase == PHASE_UPLOAD)
    {
      /* Bytes came (or went) since the timer started: wait for the rest
       * of the limit after the last of them */
      gint64 deadline = self->last_byte +
                        (gint64) (agent_provider_get_idle_timeout (self->provider) * G_USEC_PER_SEC);
      gint64 now = g_get_monotonic_time ();

      if (deadline > now)
        {
          g_clear_pointer (&self->timer, g_source_unref);
          self->timer = add_timer (self, (deadline - now) / (double) G_USEC_PER_SEC,
                                   limit_reached_cb);
          return G_SOURCE_REMOVE;
        }
    }

  g_clear_error (&self->timeout_error);

  switch (self->phase)
    {
    case PHASE_CONNECT:
      seconds = agent_provider_get_connect_timeout (self->provider);
      self->timeout_error = g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                         _("No connection to %s within %g s (connect-timeout)"),
                                         host, seconds);
      break;

    case PHASE_UPLOAD:
      seconds = agent_provider_get_idle_timeout (self->provider);
      self->timeout_error = g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                         _("%s took in nothing of the request for %g s while it "
                                           "was being sent (idle-timeout)"),
                                         host, seconds);
      break;

    case PHASE_FIRST_BYTE:
      seconds = agent_provider_get_first_byte_timeout (self->provider);
      self->timeout_error = g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                         _("%s did not start answering within %g s (first-byte-timeout)"),
                                         host, seconds);
      break;

    case PHASE_IDLE:
      seconds = agent_provider_get_idle_timeout (self->provider);
      self->timeout_error = g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                         _("%s sent nothing for %g s in the middle of the answer "
                                           "(idle-timeout)"),
                                         host, seconds);
      break;

    case PHASE_NONE:
    default:
      g_assert_not_reached ();
    }

  g_clear_pointer (&self->timer, g_source_unref);
  /* The pending operation fails with G_IO_ERROR_CANCELLED, which becomes
   * the timeout error. */
  g_cancellable_cancel (self->cancellable);

  return G_SOURCE_REMOVE;
}

static gboolean
step_limit_reached_cb (gpointer data)
{
  AgentStep *self = data;

  g_clear_error (&self->timeout_error);
  self->timeout_error = g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                     _("The request took longer than %g s (step-timeout)"),
                                     self->step_timeout);
  g_clear_pointer (&self->step_timer, g_source_unref);
  g_cancellable_cancel (self->cancellable);

  return G_SOURCE_REMOVE;
}

/* Starts the limit of @phase (none if its timeout is 0). */
static void
enter_phase (AgentStep *self,
             Phase      phase)
{
  double seconds = 0;

  destroy_source (&self->timer);
  self->phase = phase;
  self->last_byte = g_get_monotonic_time ();

  switch (phase)
    {
    case PHASE_CONNECT:
      seconds = agent_provider_get_connect_timeout (self->provider);
      break;
    case PHASE_FIRST_BYTE:
      seconds = agent_provider_get_first_byte_timeout (self->provider);
      break;
    case PHASE_UPLOAD:
    case PHASE_IDLE:
      seconds = agent_provider_get_idle_timeout (self->provider);
      break;
    case PHASE_NONE:
    default:
      break;
    }

  if (seconds > 0)
    self->timer = add_timer (self, seconds, limit_reached_cb);
}

/* Retrying */

static gboolean
retry_now_cb (gpointer data)
{
  AgentStep *self = data;

  g_clear_pointer (&self->retry_timer, g_source_unref);
  destroy_source (&self->retry_cancel);

  self->attempt++;
  send_attempt (self);
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      data)
{
  AgentStep *self = data;

  g_clear_pointer (&self->retry_cancel, g_source_unref);
  _agent_step_return_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                       _("The request was cancelled")));
  return G_SOURCE_REMOVE;
}

/* Tries the request again after @retry_after µs (-1: the backoff), if
 * attempts are left and nothing of the answer reached the application;
 * otherwise fails with @error. */
void
_agent_step_retry_or_fail (AgentStep *self,
                           GError    *error,
                           gint64     retry_after)
{
  gint64 delay;

  if (retry_after > AGENT_RETRY_MAX_WAIT_US &&
      self->attempt < agent_provider_get_max_retries (self->provider))
    {
      /* Not waited for: the error says what the server asked */
      g_autofree char *message = g_strdup (error->message);

      g_free (error->message);
      if (retry_after >= AGENT_RETRY_MAX_REPORTED_US)
        /* Translators: the first %s is an error message, %.0f a number of seconds */
        error->message = g_strdup_printf (_("%s; not tried again: the server asked to wait more "
                                            "than 31 years, and libagent waits at most %.0f s"),
                                          message,
                                          AGENT_RETRY_MAX_WAIT_US / (double) G_USEC_PER_SEC);
      else
        /* Translators: the first %s is an error message, the %.0f numbers are seconds */
        error->message = g_strdup_printf (_("%s; not tried again: the server asked to wait "
                                            "%.0f s, and libagent waits at most %.0f s"),
                                          message, retry_after / (double) G_USEC_PER_SEC,
                                          AGENT_RETRY_MAX_WAIT_US / (double) G_USEC_PER_SEC);
      _agent_step_return_error (self, error);
      return;
    }

  if (self->attempt >= agent_provider_get_max_retries (self->provider))
    {
      _agent_step_return_error (self, error);
      return;
    }

  delay = retry_after >= 0 ? _agent_retry_floor (self->attempt, retry_after)
                           : _agent_retry_backoff (self->attempt, g_random_double ());

  _agent_debug_note ("↻ %s; trying again in %.1f s", error->message, delay / 1e6);
  if (self->retry_func != NULL)
    self->retry_func (self->retry_data, self->attempt + 1, delay / 1e6, error);
  g_error_free (error);

  /* A fresh start: the attempt that failed is over */
  g_clear_object (&self->message);
  g_clear_error (&self->timeout_error);
  g_clear_pointer (&self->error_body, g_byte_array_unref);
  destroy_source (&self->timer);
  if (g_cancellable_is_cancelled (self->cancellable) &&
      !g_cancellable_is_cancelled (self->turn_cancellable))
    {
      /* A connect timeout cancelled it: a new one for the next attempt */
      g_clear_object (&self->cancellable);
      self->cancellable = g_cancellable_new ();
      link_cancellables (self);
    }

  self->retry_timer = g_timeout_source_new ((guint) (delay / 1000));
  g_source_set_callback (self->retry_timer, retry_now_cb, self, NULL);
  g_source_set_static_name (self->retry_timer, "[agent-step-retry]");
  g_source_attach (self->retry_timer, g_task_get_context (self->task));

  self->retry_cancel = g_cancellable_source_new (self->cancellable);
  g_source_set_callback (self->retry_cancel, G_SOURCE_FUNC (retry_cancelled_cb), self, NULL);
  g_source_attach (self->retry_cancel, g_task_get_context (self->task));
}

/* Sending */

/* The request failed on a kept-alive connection before a byte of the
 * answer came: the server closed it while the request was on its way (or
 * just before, unseen). Not a failure of the server: sent again at once,
 * on a new connection, whatever max-retries says. Only once: a new
 * connection that fails is an error like any other. */
static void
retry_on_new_connection (AgentStep    *self,
                         const GError *error)
{
  _agent_debug_note ("↻ %s on a reused connection; sending again on a new one", error->message);

  g_clear_object (&self->message);
  g_clear_error (&self->timeout_error);
  destroy_source (&self->timer);
  self->force_new_connection = TRUE;
  send_attempt (self);
}

/* A Content-Length that is not a number of bytes ("-5", "1e3"): libsoup
 * 3 reads a minus sign as a length below zero, which its body stream does
 * not take (GObject warns, naming the property, and the body is read as if
 * it had no length). An error naming the header, or NULL. */
static GError *
check_content_length (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                    "Content-Length");
  guint64 length;

  if (value == NULL ||
      g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT64, &length, NULL))
    return NULL;

  return g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                      _("The server's answer has an invalid Content-Length header (“%s”): "
                        "it was not read"),
                      value);
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
  _agent_trace_end (self->trace_request, "libagent", "request first byte", "POST %s: HTTP %u",
                    g_uri_get_path (self->uri), soup_message_get_status (self->message));

  if (self->stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* A connect timeout is worth another try; a slow server
           * (first-byte timeout) is not: it would cost twice. */
          if (self->timeout_error != NULL && self->phase == PHASE_CONNECT &&
              !g_cancellable_is_cancelled (self->turn_cancellable))
            _agent_step_retry_or_fail (self, g_steal_pointer (&self->timeout_error), -1);
          else
            _agent_step_return_error (self, g_steal_pointer (&error));
        }
      else if (!self->new_connection && !self->force_new_connection)
        retry_on_new_connection (self, error);
      else
        _agent_step_retry_or_fail (self, _agent_step_network_error (self, error, FALSE), -1);
      return;
    }

  _agent_debug_response ((const char * const *) self->secrets, self->message);
  status = soup_message_get_status (self->message);

  if ((error = check_content_length (self->message)) != NULL)
    {
      /* Not an answer that can be trusted to end where it says */
      _agent_step_return_error (self, g_steal_pointer (&error));
      return;
    }

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      /* Never followed (see new_message()): an error, not retried */
      _agent_step_return_error (self, _agent_provider_error_from_redirect ((const char * const *) self->secrets,
                                                                           self->message));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      enter_phase (self, PHASE_IDLE);
      self->error_body = g_byte_array_new ();
      _agent_step_read_error_body (self);
      return;
    }

  enter_phase (self, PHASE_IDLE);
  self->sniff = g_byte_array_sized_new (MAX_SNIFF);
  _agent_step_read_body (self);
}

static void
wrote_headers_cb (SoupMessage *message,
                  AgentStep   *self)
{
  /* Connected: the connect-timeout is met. Sending a long history may
   * take long on a slow link; only a stall is a failure. */
  if (self->message == message && self->phase == PHASE_CONNECT)
    {
      _agent_trace_end (self->trace_request, "libagent", "request connect", "%s",
                        self->new_connection ? "new connection" : "kept connection");
      enter_phase (self, PHASE_UPLOAD);
    }
}

static void
wrote_body_data_cb (SoupMessage *message,
                    GBytes      *chunk,
                    AgentStep   *self)
{
  /* A piece of the request went: the server takes it in */
  if (self->message == message && self->phase == PHASE_UPLOAD)
    self->last_byte = g_get_monotonic_time ();
}

static void
wrote_body_cb (SoupMessage *message,
               AgentStep   *self)
{
  /* The request is out: now the server thinks */
  if (self->message == message &&
      (self->phase == PHASE_CONNECT || self->phase == PHASE_UPLOAD))
    enter_phase (self, PHASE_FIRST_BYTE);
}

static void
network_event_cb (SoupMessage        *message,
                  GSocketClientEvent  event,
                  GIOStream          *connection,
                  AgentStep          *self)
{
  /* Emitted only while a new connection is made for the message */
  if (self->message == message)
    self->new_connection = TRUE;
}

static SoupMessage *
new_message (AgentStep *self)
{
  SoupMessage *message = soup_message_new_from_uri (SOUP_METHOD_POST, self->uri);
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  /* The key goes to the base URL's origin only */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  /* libsoup opens a new connection for every request whose method is not
   * idempotent (POST), unless told otherwise: a TCP (and TLS) handshake
   * per step. The request is sent again on a new connection when a kept
   * one turns out closed (see retry_on_new_connection()). */
  soup_message_add_flags (message, self->force_new_connection ? SOUP_MESSAGE_NEW_CONNECTION
                                                              : SOUP_MESSAGE_IDEMPOTENT);
  soup_message_headers_iter_init (&iter, self->request_headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    soup_message_headers_replace (headers, name, value);
  _agent_message_set_body (message, NULL, self->body);

  return message;
}

static void
send_attempt (AgentStep *self)
{
  g_autoptr(GError) error = NULL;
  SoupSession *session;

  if (!(session = _agent_provider_get_soup_session (self->provider, &error)))
    {
      _agent_step_return_error (self, g_steal_pointer (&error));
      return;
    }

  self->message = new_message (self);
  self->trace_request = _agent_trace_begin ();
  g_signal_connect (self->message, "wrote-headers", G_CALLBACK (wrote_headers_cb), self);
  g_signal_connect (self->message, "wrote-body-data", G_CALLBACK (wrote_body_data_cb), self);
  g_signal_connect (self->message, "wrote-body", G_CALLBACK (wrote_body_cb), self);
  g_signal_connect (self->message, "network-event", G_CALLBACK (network_event_cb), self);
  self->new_connection = FALSE;
  self->body_complete = FALSE;
  _agent_debug_request ((const char * const *) self->secrets, self->message, self->body,
                        self->attempt);

  if (self->buffer == NULL)
    self->buffer = g_malloc (READ_BUFFER_SIZE);

  enter_phase (self, PHASE_CONNECT);
  soup_session_send_async (session, self->message, G_PRIORITY_DEFAULT, self->cancellable,
                           send_cb, agent_step_ref (self));
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
      _agent_step_return_error (self, g_steal_pointer (&error));
      return;
    }

  self->holds_slot = TRUE;

  /* Granted, but the turn was cancelled (or the step timed out) meanwhile */
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      _agent_step_return_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                           _("The request was cancelled")));
      return;
    }

  self->sent_at = g_get_monotonic_time ();
  if (_agent_provider_get_backend (self->provider)->run_remote != NULL)
    _agent_provider_get_backend (self->provider)->run_remote (self);
  else
    send_attempt (self);
}

void
agent_step_run_async (AgentStep           *self,
                      const AgentRequest  *request,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  const AgentProviderBackend *backend = _agent_provider_get_backend (self->provider);
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupMessage) message = NULL;

  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, agent_step_run_async);
  g_task_set_task_data (self->task, agent_step_ref (self), (GDestroyNotify)agent_step_unref);
  /* Our own cancellable says when to stop; a time limit is not a
   * cancellation of the task. */
  g_task_set_check_cancellable (self->task, FALSE);

  /* Cancelling the turn, or disposing the provider, cancels the step */
  self->turn_cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  self->provider_cancellable = g_object_ref (_agent_provider_get_cancellable (self->provider));
  link_cancellables (self);

  /* The request is built once and kept for the attempts (a remote step's
   * as the arguments of its call) */
  if (backend->build_remote != NULL)
    {
      if (!backend->build_remote (self, request, &error))
        {
          _agent_step_return_error (self, g_steal_pointer (&error));
          return;
        }
    }
  else if ((message = _agent_provider_build_message (self->provider, request, &error)) != NULL)
    {
      self->uri = g_uri_ref (soup_message_get_uri (message));
      self->request_headers = soup_message_headers_ref (soup_message_get_request_headers (message));
      self->body = _agent_provider_get_request_body (message);
    }
  else
    {
      _agent_step_return_error (self, g_steal_pointer (&error));
      return;
    }

  if (self->max_request_size > 0 && g_bytes_get_size (self->body) > self->max_request_size)
    {
      g_autofree char *size = g_format_size_full (g_bytes_get_size (self->body),
                                                  G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (self->max_request_size,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      _agent_step_return_error (self, g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                                   _("The request is %s, more than %s "
                                                     "(max-request-size)"),
                                                   size, limit));
      return;
    }

  if (self->step_timeout > 0)
    self->step_timer = add_timer (self, self->step_timeout, step_limit_reached_cb);

  /* Wait for a request slot (the provider's max-concurrent-requests) */
  self->queued_at = g_get_monotonic_time ();
  _agent_provider_acquire_async (self->provider, self->cancellable, acquire_cb,
                                 agent_step_ref (self));
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
