/* agent-provider-models.c
 *
 * Asking a provider's server which models it offers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "core/agent-provider-private.h"

#define MAX_MODELS_BODY (8 * 1024 * 1024)
#define READ_SIZE       (64 * 1024)

/* One listing: the request, its own cancellable (the caller's and the
 * provider's, chained, and the time limit's), and the body read so far, at
 * most MAX_MODELS_BODY + 1 bytes. */
typedef struct
{
  SoupMessage  *message;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  GCancellable *provider_cancellable;
  gulong        provider_cancelled_id;
  GSource      *timer;
  double        limit;       /* seconds, 0 for none */
  gboolean      timed_out;
  GInputStream *stream;
  GByteArray   *body;
} ListModels;

static void
list_models_free (gpointer data)
{
  ListModels *list = data;

  if (list->timer != NULL)
    {
      g_source_destroy (list->timer);
      g_source_unref (list->timer);
    }
  if (list->caller_cancelled_id != 0)
    g_cancellable_disconnect (list->caller_cancellable, list->caller_cancelled_id);
  g_clear_object (&list->caller_cancellable);
  if (list->provider_cancelled_id != 0)
    g_cancellable_disconnect (list->provider_cancellable, list->provider_cancelled_id);
  g_clear_object (&list->provider_cancellable);
  g_clear_object (&list->cancellable);
  g_clear_object (&list->stream);
  g_clear_object (&list->message);
  g_clear_pointer (&list->body, g_byte_array_unref);
  g_free (list);
}

static gboolean
timed_out_cb (gpointer data)
{
  ListModels *list = data;

  list->timed_out = TRUE;
  g_cancellable_cancel (list->cancellable);
  return G_SOURCE_REMOVE;
}

/* The caller's cancellable, or the provider's (it was disposed) */
static void
cancelled_cb (GCancellable *cancelled,
              ListModels   *list)
{
  g_cancellable_cancel (list->cancellable);
}

/* What went wrong on the way, in the user's words */
static void
return_transfer_error (GTask  *task,
                       GError *error)
{
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);

  if (list->timed_out)
    {
      g_error_free (error);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                               _("The server did not send its list of models within %g s"),
                               list->limit);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, error);
  else
    {
      g_autofree char *message = _agent_provider_redact (self, error->message);

      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK, _("Could not reach %s: %s"),
                               g_uri_get_host (soup_message_get_uri (list->message)), message);
      g_error_free (error);
    }
}

static void
body_read (GTask *task)
{
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(AgentJsonParser) parser = NULL;
  guint status = soup_message_get_status (list->message);
  const char *data = (const char *) list->body->data;
  gsize len = MIN (list->body->len, MAX_MODELS_BODY);
  AgentJson root;
  char **names;

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      char **secrets = _agent_provider_dup_secrets (self);

      g_task_return_error (task, _agent_provider_error_from_redirect ((const char * const *) secrets,
                                                                       list->message));
      _agent_secrets_free (secrets);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      char **secrets = _agent_provider_dup_secrets (self);

      g_task_return_error (task, _agent_provider_error_from_http ((const char * const *) secrets,
                                                                   status,
                                                                   soup_message_get_reason_phrase (list->message),
                                                                   data, len));
      _agent_secrets_free (secrets);
      return;
    }

  if (list->body->len > MAX_MODELS_BODY)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                               _("The server's list of models is larger than %d MiB"),
                               MAX_MODELS_BODY / (1024 * 1024));
      return;
    }

  parser = agent_json_parser_new ();
  if (!agent_json_parser_parse (parser, data, len, &root, NULL) ||
      !(names = _agent_provider_get_backend (self)->parse_models (&root)))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's list of models could not be read"));
      return;
    }

  g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      return_transfer_error (task, error);
      return;
    }

  /* The end, or enough to know it is too much */
  if (g_bytes_get_size (bytes) == 0 || list->body->len > MAX_MODELS_BODY)
    {
      body_read (task);
      return;
    }

  g_byte_array_append (list->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (list->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   list->cancellable, read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListModels *list = g_task_get_task_data (task);
  GError *error = NULL;

  list->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (list->stream == NULL)
    {
      return_transfer_error (task, error);
      return;
    }

  list->body = g_byte_array_new ();
  g_input_stream_read_bytes_async (list->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   list->cancellable, read_cb, g_steal_pointer (&task));
}

/**
 * agent_provider_list_models_async:
 * @self: a [class@Agent.Provider]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Asks the server which models it offers (`GET /models`, `/api/tags`, …),
 * for a model picker. Call [method@Agent.Provider.list_models_finish] from
 * @callback.
 *
 * The answer may take [property@Agent.Provider:connect-timeout] plus
 * [property@Agent.Provider:first-byte-timeout] and be at most 8 MiB; beyond
 * either, the listing fails with %AGENT_ERROR_TIMEOUT or
 * %AGENT_ERROR_LIMIT.
 *
 * Since: 0.1
 */
void
agent_provider_list_models_async (AgentProvider       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const AgentProviderBackend *backend;
  SoupSession *session;
  ListModels *list;

  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  backend = _agent_provider_get_backend (self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_provider_list_models_async);

  if (!(url = _agent_provider_build_url (self, backend->models_path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  list = g_new0 (ListModels, 1);
  list->message = soup_message_new (SOUP_METHOD_GET, url);
  /* The key goes to the base URL's origin only */
  soup_message_add_flags (list->message, SOUP_MESSAGE_NO_REDIRECT);
  list->cancellable = g_cancellable_new ();
  g_task_set_task_data (task, list, list_models_free);
  soup_message_headers_replace (soup_message_get_request_headers (list->message),
                                "Accept", "application/json");
  if (!_agent_provider_add_headers (self, soup_message_get_request_headers (list->message),
                                    &error) ||
      !(session = _agent_provider_get_soup_session (self, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (cancellable != NULL)
    {
      list->caller_cancellable = g_object_ref (cancellable);
      list->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                         G_CALLBACK (cancelled_cb),
                                                         list, NULL);
    }
  list->provider_cancellable = g_object_ref (_agent_provider_get_cancellable (self));
  list->provider_cancelled_id = g_cancellable_connect (list->provider_cancellable,
                                                       G_CALLBACK (cancelled_cb), list, NULL);

  /* A list is short: connecting and the answer get the limits of a
   * request's start, together */
  if (agent_provider_get_connect_timeout (self) > 0 &&
      agent_provider_get_first_byte_timeout (self) > 0)
    {
      list->limit = agent_provider_get_connect_timeout (self) +
                    agent_provider_get_first_byte_timeout (self);
      list->timer = g_timeout_source_new ((guint) MIN (list->limit * 1000, G_MAXUINT));
      g_source_set_callback (list->timer, timed_out_cb, list, NULL);
      g_source_attach (list->timer, g_main_context_get_thread_default ());
    }

  soup_session_send_async (session, list->message, G_PRIORITY_DEFAULT, list->cancellable,
                           send_cb, g_steal_pointer (&task));
}

/**
 * agent_provider_list_models_finish:
 * @self: a [class@Agent.Provider]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Provider.list_models_async]: the models the server
 * offers, in the order it gave them. The listing fails with
 * %AGENT_ERROR_AUTHENTICATION when the key was refused, %AGENT_ERROR_NETWORK
 * when the server could not be reached, %AGENT_ERROR_TIMEOUT or
 * %AGENT_ERROR_LIMIT beyond its limits, and %G_IO_ERROR_CANCELLED when it was
 * cancelled or the provider disposed.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the
 *   models, as the API wants them in [property@Agent.Provider:model] (an
 *   empty array when it offers none), or %NULL with @error set. Free with
 *   g_strfreev().
 *
 * Since: 0.1
 */
char **
agent_provider_list_models_finish (AgentProvider  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_provider_list_models_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
