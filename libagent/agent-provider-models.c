/* agent-provider-models.c
 *
 * Asking a provider's server which models it offers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-json.h"
#include "agent-provider-private.h"

#define MAX_MODELS_BODY (8 * 1024 * 1024)

typedef struct
{
  SoupMessage *message;
  GBytes      *body;
} ListModels;

static void
list_models_free (gpointer data)
{
  ListModels *list = data;

  g_clear_object (&list->message);
  g_clear_pointer (&list->body, g_bytes_unref);
  g_free (list);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(AgentJsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  const char *data;
  gsize len;
  guint status;
  AgentJson root;
  char **names;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = _agent_provider_redact (self, error->message);

          g_clear_error (&error);
          g_set_error (&error, AGENT_ERROR, AGENT_ERROR_NETWORK,
                       _("Could not reach %s: %s"),
                       g_uri_get_host (soup_message_get_uri (list->message)), message);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_bytes_get_data (body, &len);
  status = soup_message_get_status (list->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_error (task, _agent_provider_error_from_http (self, status,
                                                                   soup_message_get_reason_phrase (list->message),
                                                                   data, MIN (len, MAX_MODELS_BODY)));
      return;
    }

  parser = agent_json_parser_new ();
  if (len > MAX_MODELS_BODY || !agent_json_parser_parse (parser, data, len, &root, NULL) ||
      !(names = _agent_provider_get_backend (self)->parse_models (&root)))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's list of models could not be read"));
      return;
    }

  g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
}

/**
 * agent_provider_list_models_async:
 * @self: a #AgentProvider
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Asks the server which models it offers (`GET /models`, `/api/tags`, …),
 * for a model picker. Call [method@Agent.Provider.list_models_finish] from
 * @callback.
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
  g_task_set_task_data (task, list, list_models_free);
  soup_message_headers_replace (soup_message_get_request_headers (list->message),
                                "Accept", "application/json");
  backend->add_headers (self, soup_message_get_request_headers (list->message));

  if (!(session = _agent_provider_get_soup_session (self, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  soup_session_send_and_read_async (session, list->message,
                                    G_PRIORITY_DEFAULT, cancellable,
                                    list_models_cb, g_steal_pointer (&task));
}

/**
 * agent_provider_list_models_finish:
 * @self: a #AgentProvider
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the
 *   models, as the API wants them in [property@Agent.Provider:model], or
 *   %NULL with @error set
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
