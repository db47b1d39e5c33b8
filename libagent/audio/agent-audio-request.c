/* agent-audio-request.c — one request of the audio API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "audio/agent-audio-request-private.h"
#include "transport/agent-retry-private.h"

#define READ_SIZE      (16 * 1024)
/* An error's body, read for its message */
#define MAX_ERROR_BODY (64 * 1024)

typedef struct
{
  AgentProvider       *provider;
  char                *url;
  char                *content_type;
  char                *accept;
  GBytes              *body;
  AgentAudioChunkFunc  chunk_func;
  gpointer             chunk_data;
  char               **secrets;

  SoupMessage         *message;
  GInputStream        *stream;
  GByteArray          *answer;
  guint8              *buffer;
  guint64              max_size;
  guint                attempt;

  /* Ours: cancelled by the caller's, by the provider's dispose, or by a
   * time limit (then timeout_error says which) */
  GCancellable        *cancellable;
  GCancellable        *caller_cancellable;
  gulong               caller_cancelled_id;
  GCancellable        *provider_cancellable;
  gulong               provider_cancelled_id;
  GSource             *timer;
  GError              *timeout_error;
  gboolean             timed_out;
  GSource             *retry_timer;
  GSource             *retry_cancel;
} Request;

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
request_free (gpointer data)
{
  Request *request = data;

  destroy_source (&request->timer);
  destroy_source (&request->retry_timer);
  destroy_source (&request->retry_cancel);
  _agent_close_stream_now (&request->stream);
  if (request->caller_cancellable != NULL)
    g_cancellable_disconnect (request->caller_cancellable, request->caller_cancelled_id);
  if (request->provider_cancellable != NULL)
    g_cancellable_disconnect (request->provider_cancellable, request->provider_cancelled_id);
  g_clear_object (&request->caller_cancellable);
  g_clear_object (&request->provider_cancellable);
  g_clear_object (&request->cancellable);
  g_clear_object (&request->message);
  g_clear_object (&request->provider);
  g_clear_pointer (&request->answer, g_byte_array_unref);
  g_clear_pointer (&request->body, g_bytes_unref);
  g_clear_error (&request->timeout_error);
  _agent_secrets_free (request->secrets);
  g_free (request->url);
  g_free (request->content_type);
  g_free (request->accept);
  g_free (request->buffer);
  g_free (request);
}

void
_agent_audio_set_string (GObject     *object,
                         char       **field,
                         const char  *value,
                         GParamSpec  *pspec)
{
  if (value != NULL && value[0] == '\0')
    value = NULL;
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (object, pspec);
}

gboolean
_agent_audio_check_provider (AgentProvider  *provider,
                             GError        **error)
{
  const char *name = agent_provider_get_name (provider);

  if (g_strcmp0 (name, "openai") == 0 || g_strcmp0 (name, "openai-responses") == 0)
    return TRUE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
               _("The %s API has no audio endpoints; use an OpenAI-compatible server "
                 "(provider “openai”)"),
               agent_provider_get_display_name (provider));
  return FALSE;
}

static void
cancel_cb (GCancellable *cancellable,
           gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
timer_cb (gpointer user_data)
{
  Request *request = user_data;

  g_clear_pointer (&request->timer, g_source_unref);
  request->timed_out = TRUE;
  g_cancellable_cancel (request->cancellable);
  return G_SOURCE_REMOVE;
}

/* Waits @seconds (none if 0) for what comes next, then fails with @error */
static void
start_timer (Request *request,
             double   seconds,
             GError  *error)
{
  destroy_source (&request->timer);
  g_clear_error (&request->timeout_error);
  request->timeout_error = error;
  if (seconds <= 0)
    return;

  request->timer = g_timeout_source_new ((guint) MIN (ceil (seconds * 1000), G_MAXUINT));
  g_source_set_callback (request->timer, timer_cb, request, NULL);
  g_source_attach (request->timer, g_main_context_get_thread_default ());
}

static void
start_first_byte_timer (Request *request)
{
  double seconds = agent_provider_get_first_byte_timeout (request->provider);
  const char *host = g_uri_get_host (soup_message_get_uri (request->message));

  start_timer (request, seconds,
               g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                            _("%s did not start answering within %g s (first-byte-timeout)"),
                            host, seconds));
}

static void
start_idle_timer (Request *request)
{
  double seconds = agent_provider_get_idle_timeout (request->provider);

  start_timer (request, seconds,
               g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                            _("The server sent nothing for %g s (idle-timeout)"), seconds));
}

/* A failed transfer: the time limit that ended it, the caller's
 * cancellation, or a network error in words */
static void
return_transfer_error (GTask  *task,
                       GError *error)
{
  Request *request = g_task_get_task_data (task);

  if (request->timed_out &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_cancellable_is_cancelled (request->caller_cancellable))
    {
      g_error_free (error);
      g_task_return_error (task, g_steal_pointer (&request->timeout_error));
    }
  else
    g_task_return_error (task, _agent_provider_transfer_error (
                                 (const char * const *) request->secrets, request->message,
                                 error));
}

static void send_request (GTask *task);

static gboolean
retry_now_cb (gpointer user_data)
{
  GTask *task = user_data;
  Request *request = g_task_get_task_data (task);

  g_clear_pointer (&request->retry_timer, g_source_unref);
  destroy_source (&request->retry_cancel);
  send_request (task);
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Request *request = g_task_get_task_data (task);

  g_clear_pointer (&request->retry_cancel, g_source_unref);
  destroy_source (&request->retry_timer);
  return_transfer_error (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                    _("Operation was cancelled")));
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Tries again after @retry_after µs (-1: the backoff) if attempts are
 * left and the wait is not too long; otherwise fails with @error */
static void
retry_or_fail (GTask  *task,
               GError *error,
               gint64  retry_after)
{
  Request *request = g_task_get_task_data (task);
  gint64 delay;

  if (request->attempt >= agent_provider_get_max_retries (request->provider) ||
      retry_after > AGENT_RETRY_MAX_WAIT_US)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  g_error_free (error);
  delay = retry_after >= 0 ? _agent_retry_floor (request->attempt, retry_after)
                           : _agent_retry_backoff (request->attempt, g_random_double ());
  request->attempt++;
  destroy_source (&request->timer);

  /* The task's reference passes to whichever of the two fires */
  request->retry_timer = g_timeout_source_new ((guint) MAX (delay / 1000, 1));
  g_source_set_callback (request->retry_timer, retry_now_cb, task, NULL);
  g_source_attach (request->retry_timer, g_main_context_get_thread_default ());
  request->retry_cancel = g_cancellable_source_new (request->cancellable);
  g_source_set_callback (request->retry_cancel, G_SOURCE_FUNC (retry_cancelled_cb), task, NULL);
  g_source_attach (request->retry_cancel, g_main_context_get_thread_default ());
}

/* The answer is there, whole */
static void
answer_read (GTask *task)
{
  Request *request = g_task_get_task_data (task);
  guint status = soup_message_get_status (request->message);
  const char *data = (const char *) request->answer->data;
  gsize len = MIN (request->answer->len, MAX_ERROR_BODY);
  GError *error;

  destroy_source (&request->timer);

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&request->answer)),
                             (GDestroyNotify) g_bytes_unref);
      return;
    }

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      g_task_return_error (task, _agent_provider_error_from_redirect (
                                   (const char * const *) request->secrets, request->message));
      return;
    }

  error = _agent_provider_error_from_http ((const char * const *) request->secrets, status,
                                           soup_message_get_reason_phrase (request->message),
                                           data, len);
  if (_agent_retry_status_is_retryable (status))
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      SoupMessageHeaders *headers = soup_message_get_response_headers (request->message);

      g_clear_object (&request->stream);
      retry_or_fail (g_object_ref (task), error,
                     _agent_retry_after (headers, now));
      return;
    }
  g_task_return_error (task, error);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  gboolean success = SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (request->message));
  GError *error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  if (n < 0)
    {
      return_transfer_error (task, error);
      return;
    }

  if (n == 0)
    {
      g_input_stream_close (request->stream, NULL, NULL);
      g_clear_object (&request->stream);
      answer_read (task);
      return;
    }

  if (success)
    {
      const char *content_type;

      if (request->answer->len + n > request->max_size)
        {
          g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                                   _("The answer is larger than %llu bytes "
                                     "(max-response-size)"),
                                   (unsigned long long) request->max_size);
          return;
        }
      g_byte_array_append (request->answer, request->buffer, n);
      content_type = soup_message_headers_get_one (
                       soup_message_get_response_headers (request->message), "Content-Type");
      if (request->chunk_func != NULL &&
          !request->chunk_func (content_type, request->buffer, n, request->chunk_data, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else if (request->answer->len < MAX_ERROR_BODY)
    g_byte_array_append (request->answer, request->buffer, n);

  start_idle_timer (request);
  g_input_stream_read_async (request->stream, request->buffer, READ_SIZE, G_PRIORITY_DEFAULT,
                             request->cancellable, read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  Request *request = g_task_get_task_data (task);
  GError *error = NULL;

  request->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (request->stream == NULL)
    {
      /* A connection that failed is tried again; a time limit or the
       * caller's cancellation is not */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          error->domain == AGENT_ERROR ||
          request->attempt >= agent_provider_get_max_retries (request->provider))
        {
          return_transfer_error (task, error);
          g_object_unref (task);
        }
      else
        retry_or_fail (task, error, -1);
      return;
    }

  g_byte_array_set_size (request->answer, 0);
  start_idle_timer (request);
  g_input_stream_read_async (request->stream, request->buffer, READ_SIZE, G_PRIORITY_DEFAULT,
                             request->cancellable, read_cb, task);
}

/* One attempt; takes the reference of @task */
static void
send_request (GTask *task)
{
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  SoupSession *session;

  g_clear_object (&request->message);
  request->message = soup_message_new (SOUP_METHOD_POST, request->url);
  /* The key goes to the base URL's origin only */
  soup_message_add_flags (request->message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (request->message);
  soup_message_headers_replace (headers, "Accept", request->accept);
  _agent_message_set_body (request->message, request->content_type, request->body);
  if (!_agent_provider_add_headers (request->provider, NULL, headers, &error) ||
      !(session = _agent_provider_get_soup_session (request->provider, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  start_first_byte_timer (request);
  soup_session_send_async (session, request->message, G_PRIORITY_DEFAULT, request->cancellable,
                           send_cb, task);
}

void
_agent_audio_request_async (AgentProvider       *provider,
                            const char          *path,
                            const char          *content_type,
                            GBytes              *body,
                            const char          *accept,
                            AgentAudioChunkFunc  chunk_func,
                            gpointer             chunk_data,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Request *request;

  task = g_task_new (provider, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agent_audio_request_async);

  request = g_new0 (Request, 1);
  request->provider = g_object_ref (provider);
  request->content_type = g_strdup (content_type);
  request->accept = g_strdup (accept);
  request->body = g_bytes_ref (body);
  request->chunk_func = chunk_func;
  request->chunk_data = chunk_data;
  request->secrets = _agent_provider_dup_secrets (provider);
  request->answer = g_byte_array_new ();
  request->buffer = g_malloc (READ_SIZE);
  request->max_size = agent_provider_get_max_response_size (provider);
  if (request->max_size == 0)
    request->max_size = G_MAXUINT64;
  request->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      request->caller_cancellable = g_object_ref (cancellable);
      request->caller_cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_cb),
                                                            request->cancellable, NULL);
    }
  request->provider_cancellable = g_object_ref (_agent_provider_get_cancellable (provider));
  request->provider_cancelled_id = g_cancellable_connect (request->provider_cancellable,
                                                          G_CALLBACK (cancel_cb),
                                                          request->cancellable, NULL);
  g_task_set_task_data (task, request, request_free);

  if (!_agent_audio_check_provider (provider, &error) ||
      !(request->url = _agent_provider_build_url (provider, path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  send_request (g_steal_pointer (&task));
}

GBytes *
_agent_audio_request_finish (AgentProvider  *provider,
                             GAsyncResult   *result,
                             char          **content_type,
                             GError        **error)
{
  Request *request;

  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);

  request = g_task_get_task_data (G_TASK (result));
  if (content_type != NULL)
    *content_type = request->message != NULL
      ? g_strdup (soup_message_headers_get_one (
                    soup_message_get_response_headers (request->message), "Content-Type"))
      : NULL;
  return g_task_propagate_pointer (G_TASK (result), error);
}
