/* agent-profile-search.c — the web search of a profile
 *
 * The backend of the profile's search-provider and search-url, with its
 * key as the profile's API key is found: in the keyring (the schema of
 * agent-secret.c, the service's name as provider and its URL as base-url)
 * when libagent has one, else in the service's variable (TAVILY_API_KEY,
 * BRAVE_API_KEY).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-features.h"
#include "profiles/agent-profile-private.h"
#if AGENT_HAS_KEYRING
# include "store/agent-secret.h"
#endif

/* The backend with @api_key (NULL: the variable's), errors naming the
 * profile; NULL without an error when the profile has no web search */
static AgentSearchBackend *
backend_new (AgentProfile  *self,
             const char    *api_key,
             GError       **error)
{
  const char *name = agent_profile_get_search_provider (self);
  const char *variable = NULL;
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(GError) local_error = NULL;

  if (name == NULL)
    return NULL;

  if (!g_strv_contains (agent_search_backend_list_names (), name))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Profile “%s”: unknown search service “%s” (known: searxng, brave, tavily)"),
                   agent_profile_get_name (self), name);
      return NULL;
    }

  variable = agent_search_backend_get_api_key_variable (name);
  if (api_key == NULL && variable != NULL)
    api_key = g_getenv (variable);
  if (variable != NULL && (api_key == NULL || *api_key == '\0'))
    {
#if AGENT_HAS_KEYRING
      /* Translators: the first is the profile, the second a service, the
       * last an environment variable */
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Profile “%s”: %s needs an API key, in the keyring or in %s"),
                   agent_profile_get_name (self), name, variable);
#else
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Profile “%s”: %s needs an API key in %s"),
                   agent_profile_get_name (self), name, variable);
#endif
      return NULL;
    }

  backend = agent_search_backend_new_for_name (name, agent_profile_get_search_url (self), api_key,
                                               &local_error);
  if (backend == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Profile “%s”: %s"), agent_profile_get_name (self), local_error->message);
      return NULL;
    }
  return g_steal_pointer (&backend);
}

/**
 * agent_profile_create_search_backend:
 * @self: a [class@Agent.Profile]
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates the backend of the profile's search service
 * ([property@Agent.Profile:search-provider],
 * [property@Agent.Profile:search-url]), for
 * [func@Agent.web_search_tool_new], with the API key from the service's
 * environment variable
 * ([func@Agent.SearchBackend.get_api_key_variable]). To look in the
 * keyring too, use [method@Agent.Profile.create_search_backend_async].
 *
 * Returns: (transfer full) (nullable): a new [class@Agent.SearchBackend],
 *   or %NULL without an error when the profile has no search service
 *   (then `web_search` is not to be offered), or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT for an unknown service, a bad URL or a
 *   missing key
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_profile_create_search_backend (AgentProfile  *self,
                                     GError       **error)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return backend_new (self, NULL, error);
}

#if AGENT_HAS_KEYRING
static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentProfile *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  AgentSearchBackend *backend;

  key = agent_secret_lookup_api_key_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* No keyring is no key: the variable's, if any, is taken */
  if (error != NULL)
    g_debug ("No search API key from the keyring: %s", error->message);
  g_clear_error (&error);

  backend = backend_new (self, key, &error);
  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, backend, g_object_unref);
}
#endif

/**
 * agent_profile_create_search_backend_async:
 * @self: a [class@Agent.Profile]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the backend is ready
 * @user_data: data for @callback
 *
 * Creates the backend of the profile's search service as
 * [method@Agent.Profile.create_search_backend] does, with the API key from
 * the keyring when libagent was built with it and the keyring holds one,
 * else from the service's environment variable. The key is kept with
 * [func@Agent.secret_store_api_key_async], the service's name (`tavily`,
 * `brave`) as the provider and its URL as the base URL:
 * [property@Agent.Profile:search-url], or the service's own
 * ([func@Agent.SearchBackend.get_default_url]).
 *
 * Since: 0.1
 */
void
agent_profile_create_search_backend_async (AgentProfile        *self,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *name;
  GError *error = NULL;
  AgentSearchBackend *backend;

  g_return_if_fail (AGENT_IS_PROFILE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_profile_create_search_backend_async);

  name = agent_profile_get_search_provider (self);
#if AGENT_HAS_KEYRING
  if (agent_search_backend_get_api_key_variable (name) != NULL)
    {
      const char *url = agent_profile_get_search_url (self);

      agent_secret_lookup_api_key_async (name,
                                         url != NULL ? url
                                                     : agent_search_backend_get_default_url (name),
                                         cancellable, lookup_cb, g_steal_pointer (&task));
      return;
    }
#endif

  backend = backend_new (self, NULL, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, backend, g_object_unref);
}

/**
 * agent_profile_create_search_backend_finish:
 * @self: a [class@Agent.Profile]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Profile.create_search_backend_async].
 *
 * Returns: (transfer full) (nullable): a new [class@Agent.SearchBackend],
 *   or %NULL without an error when the profile has no search service, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_profile_create_search_backend_finish (AgentProfile  *self,
                                            GAsyncResult  *result,
                                            GError       **error)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_profile_create_search_backend_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
