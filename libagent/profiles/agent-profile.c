/* agent-profile.c — one named server: provider, base URL, model, settings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-features.h"
#include "profiles/agent-profile-private.h"
#include "transport/agent-request-settings-private.h"
#if AGENT_HAS_KEYRING
# include "store/agent-secret.h"
#endif

/**
 * AgentProfile:
 *
 * A server to talk to, under a name people choose: the API it speaks
 * ([property@Agent.Profile:provider]), where it is
 * ([property@Agent.Profile:base-url]), the model to ask
 * ([property@Agent.Profile:model]) and the defaults of its requests
 * ([property@Agent.Profile:settings], [property@Agent.Profile:context-window]),
 * and the web search its `web_search` tool uses
 * ([property@Agent.Profile:search-provider], [property@Agent.Profile:search-url]).
 *
 * Profiles are kept in an [class@Agent.ProfileList], the file agent-chat and
 * agent-cli share. A profile holds no API key: the key stays in the keyring,
 * found by provider and base URL, or in the provider's environment variable;
 * [method@Agent.Profile.create_provider_async] finds it. So does the key of
 * its search service: [method@Agent.Profile.create_search_backend_async].
 *
 * Since: 0.1
 */

struct _AgentProfile
{
  GObject               parent_instance;
  char                 *name;
  char                 *provider;
  char                 *base_url;
  char                 *model;
  AgentRequestSettings *settings;
  guint64               context_window;
  char                 *search_provider;
  char                 *search_url;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_PROVIDER,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_SETTINGS,
  PROP_CONTEXT_WINDOW,
  PROP_SEARCH_PROVIDER,
  PROP_SEARCH_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentProfile, agent_profile, G_TYPE_OBJECT)

static void
agent_profile_finalize (GObject *object)
{
  AgentProfile *self = AGENT_PROFILE (object);

  g_free (self->name);
  g_free (self->provider);
  g_free (self->base_url);
  g_free (self->model);
  g_free (self->search_provider);
  g_free (self->search_url);

  G_OBJECT_CLASS (agent_profile_parent_class)->finalize (object);
}

static void
agent_profile_dispose (GObject *object)
{
  AgentProfile *self = AGENT_PROFILE (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (agent_profile_parent_class)->dispose (object);
}

static void
agent_profile_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AgentProfile *self = AGENT_PROFILE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PROVIDER:
      g_value_set_string (value, self->provider);
      break;
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_CONTEXT_WINDOW:
      g_value_set_uint64 (value, self->context_window);
      break;
    case PROP_SEARCH_PROVIDER:
      g_value_set_string (value, self->search_provider);
      break;
    case PROP_SEARCH_URL:
      g_value_set_string (value, self->search_url);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_profile_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AgentProfile *self = AGENT_PROFILE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      _agent_profile_set_name (self, g_value_get_string (value));
      break;
    case PROP_PROVIDER:
      self->provider = g_value_dup_string (value);
      break;
    case PROP_BASE_URL:
      agent_profile_set_base_url (self, g_value_get_string (value));
      break;
    case PROP_MODEL:
      agent_profile_set_model (self, g_value_get_string (value));
      break;
    case PROP_CONTEXT_WINDOW:
      agent_profile_set_context_window (self, g_value_get_uint64 (value));
      break;
    case PROP_SEARCH_PROVIDER:
      agent_profile_set_search_provider (self, g_value_get_string (value));
      break;
    case PROP_SEARCH_URL:
      agent_profile_set_search_url (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_profile_class_init (AgentProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_profile_dispose;
  object_class->finalize = agent_profile_finalize;
  object_class->get_property = agent_profile_get_property;
  object_class->set_property = agent_profile_set_property;

  /**
   * AgentProfile:name:
   *
   * The name people know the profile by, unique in its list. It is set
   * when the profile is made and changes only through
   * [method@Agent.ProfileList.rename].
   *
   * Since: 0.1
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:provider:
   *
   * The API the server speaks, one of [func@Agent.Provider.list_names]
   * (`openai`, `ollama`, …).
   *
   * Since: 0.1
   */
  properties[PROP_PROVIDER] =
    g_param_spec_string ("provider", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:base-url:
   *
   * The URL of the server, or %NULL for the provider's own service.
   *
   * Since: 0.1
   */
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:model:
   *
   * The model to ask, or %NULL for the provider's default.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:settings:
   *
   * The defaults of the profile's requests (temperature, top-p, seed):
   * what is set in it is set in the providers
   * [method@Agent.Profile.create_provider] makes. The object stays the same
   * for the profile's life; change it in place.
   *
   * Since: 0.1
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, AGENT_TYPE_REQUEST_SETTINGS,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:context-window:
   *
   * The context window to run the model with, in tokens, or 0 for the
   * server's choice: set it on the session
   * ([method@Agent.Session.set_context_window]); Ollama runs the model with
   * it (`num_ctx`).
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_WINDOW] =
    g_param_spec_uint64 ("context-window", NULL, NULL, 0, G_MAXUINT64, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:search-provider:
   *
   * The service the `web_search` tool asks with this profile, one of
   * [func@Agent.SearchBackend.list_names] (`searxng`, `brave`, `tavily`),
   * or %NULL for none: then the tool is not offered.
   * [method@Agent.Profile.create_search_backend_async] makes its backend,
   * with its key from the keyring.
   *
   * Since: 0.1
   */
  properties[PROP_SEARCH_PROVIDER] =
    g_param_spec_string ("search-provider", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfile:search-url:
   *
   * The URL of the search service: the SearXNG instance for `searxng`
   * (which has no other), or an endpoint in place of the service's own
   * for `brave` and `tavily`; %NULL for the service's own.
   *
   * Since: 0.1
   */
  properties[PROP_SEARCH_URL] =
    g_param_spec_string ("search-url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_profile_init (AgentProfile *self)
{
  self->settings = agent_request_settings_new ();
}

/**
 * agent_profile_new:
 * @name: the profile's name
 * @provider: the API the server speaks, one of [func@Agent.Provider.list_names]
 *
 * Creates a profile for the provider's own service and default model.
 *
 * Returns: (transfer full): a new [class@Agent.Profile]
 *
 * Since: 0.1
 */
AgentProfile *
agent_profile_new (const char *name,
                   const char *provider)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (provider != NULL, NULL);

  return g_object_new (AGENT_TYPE_PROFILE, "name", name, "provider", provider, NULL);
}

/**
 * agent_profile_get_name:
 * @self: a [class@Agent.Profile]
 *
 * Gets the profile's name. [property@Agent.Profile:name].
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.1
 */
const char *
agent_profile_get_name (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->name;
}

void
_agent_profile_set_name (AgentProfile *self,
                         const char   *name)
{
  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

/* A name must fit in a key file's group name, and be seen */
gboolean
_agent_profile_check_name (const char  *name,
                           GError     **error)
{
  g_autofree char *stripped = NULL;

  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("A profile name must be UTF-8 text"));
      return FALSE;
    }
  stripped = g_strstrip (g_strdup (name));
  if (*stripped == '\0' || strlen (stripped) != strlen (name))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The profile name “%s” is empty or begins or ends with a space"), name);
      return FALSE;
    }
  for (const char *p = name; *p != '\0'; p++)
    if (*p == '[' || *p == ']' || g_ascii_iscntrl (*p))
      {
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The profile name “%s” holds “[”, “]” or a control character"), name);
        return FALSE;
      }
  return TRUE;
}

/**
 * agent_profile_get_provider:
 * @self: a [class@Agent.Profile]
 *
 * Gets the API the profile's server speaks. [property@Agent.Profile:provider].
 *
 * Returns: (transfer none): the provider's name, such as `openai` or `ollama`
 *
 * Since: 0.1
 */
const char *
agent_profile_get_provider (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->provider;
}

/**
 * agent_profile_get_base_url:
 * @self: a [class@Agent.Profile]
 *
 * Gets the server's URL. [property@Agent.Profile:base-url].
 *
 * Returns: (transfer none) (nullable): the base URL, or %NULL for the
 *   provider's own service
 *
 * Since: 0.1
 */
const char *
agent_profile_get_base_url (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->base_url;
}

/**
 * agent_profile_set_base_url:
 * @self: a [class@Agent.Profile]
 * @base_url: (nullable): the server's URL, or %NULL for the provider's own
 *
 * Sets the server's URL. [property@Agent.Profile:base-url].
 *
 * Since: 0.1
 */
void
agent_profile_set_base_url (AgentProfile *self,
                            const char   *base_url)
{
  g_return_if_fail (AGENT_IS_PROFILE (self));

  if (base_url != NULL && *base_url == '\0')
    base_url = NULL;
  if (g_strcmp0 (self->base_url, base_url) == 0)
    return;
  g_free (self->base_url);
  self->base_url = g_strdup (base_url);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_URL]);
}

/**
 * agent_profile_get_model:
 * @self: a [class@Agent.Profile]
 *
 * Gets the model to ask. [property@Agent.Profile:model].
 *
 * Returns: (transfer none) (nullable): the model, or %NULL for the
 *   provider's default
 *
 * Since: 0.1
 */
const char *
agent_profile_get_model (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->model;
}

/**
 * agent_profile_set_model:
 * @self: a [class@Agent.Profile]
 * @model: (nullable): the model, or %NULL for the provider's default
 *
 * Sets the model to ask. [property@Agent.Profile:model].
 *
 * Since: 0.1
 */
void
agent_profile_set_model (AgentProfile *self,
                         const char   *model)
{
  g_return_if_fail (AGENT_IS_PROFILE (self));

  if (model != NULL && *model == '\0')
    model = NULL;
  if (g_strcmp0 (self->model, model) == 0)
    return;
  g_free (self->model);
  self->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * agent_profile_get_context_window:
 * @self: a [class@Agent.Profile]
 *
 * Gets the context window to run the model with.
 * [property@Agent.Profile:context-window].
 *
 * Returns: the window in tokens, or 0 for the server's choice
 *
 * Since: 0.1
 */
guint64
agent_profile_get_context_window (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), 0);
  return self->context_window;
}

/**
 * agent_profile_set_context_window:
 * @self: a [class@Agent.Profile]
 * @context_window: the window in tokens, or 0 for the server's choice
 *
 * Sets the context window to run the model with.
 * [property@Agent.Profile:context-window].
 *
 * Since: 0.1
 */
void
agent_profile_set_context_window (AgentProfile *self,
                                  guint64       context_window)
{
  g_return_if_fail (AGENT_IS_PROFILE (self));

  if (self->context_window == context_window)
    return;
  self->context_window = context_window;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_WINDOW]);
}

/**
 * agent_profile_get_search_provider:
 * @self: a [class@Agent.Profile]
 *
 * Gets the search service of the `web_search` tool.
 * [property@Agent.Profile:search-provider].
 *
 * Returns: (transfer none) (nullable): the service's name, such as
 *   `tavily`, or %NULL for no web search
 *
 * Since: 0.1
 */
const char *
agent_profile_get_search_provider (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->search_provider;
}

/**
 * agent_profile_set_search_provider:
 * @self: a [class@Agent.Profile]
 * @search_provider: (nullable): one of [func@Agent.SearchBackend.list_names],
 *   or %NULL for no web search
 *
 * Sets the search service of the `web_search` tool.
 * [property@Agent.Profile:search-provider]. A name libagent does not know
 * is kept, and refused when the backend is made.
 *
 * Since: 0.1
 */
void
agent_profile_set_search_provider (AgentProfile *self,
                                   const char   *search_provider)
{
  g_return_if_fail (AGENT_IS_PROFILE (self));

  if (search_provider != NULL && *search_provider == '\0')
    search_provider = NULL;
  if (g_strcmp0 (self->search_provider, search_provider) == 0)
    return;
  g_free (self->search_provider);
  self->search_provider = g_strdup (search_provider);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_PROVIDER]);
}

/**
 * agent_profile_get_search_url:
 * @self: a [class@Agent.Profile]
 *
 * Gets the URL of the search service.
 * [property@Agent.Profile:search-url].
 *
 * Returns: (transfer none) (nullable): the URL, or %NULL for the
 *   service's own
 *
 * Since: 0.1
 */
const char *
agent_profile_get_search_url (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->search_url;
}

/**
 * agent_profile_set_search_url:
 * @self: a [class@Agent.Profile]
 * @search_url: (nullable): the URL of the search service, or %NULL for
 *   the service's own
 *
 * Sets the URL of the search service.
 * [property@Agent.Profile:search-url].
 *
 * Since: 0.1
 */
void
agent_profile_set_search_url (AgentProfile *self,
                              const char   *search_url)
{
  g_return_if_fail (AGENT_IS_PROFILE (self));

  if (search_url != NULL && *search_url == '\0')
    search_url = NULL;
  if (g_strcmp0 (self->search_url, search_url) == 0)
    return;
  g_free (self->search_url);
  self->search_url = g_strdup (search_url);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_URL]);
}

/**
 * agent_profile_get_settings:
 * @self: a [class@Agent.Profile]
 *
 * Gets the defaults of the profile's requests, to read or change in place.
 * [property@Agent.Profile:settings].
 *
 * Returns: (transfer none): the settings, owned by the profile
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_profile_get_settings (AgentProfile *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  return self->settings;
}

/* Takes what @from says (its provider is the same); the list does it when
 * the file changed, so that those who hold the profile see the change */
void
_agent_profile_assign (AgentProfile *self,
                       AgentProfile *from)
{
  g_object_freeze_notify (G_OBJECT (self));
  agent_profile_set_base_url (self, from->base_url);
  agent_profile_set_model (self, from->model);
  agent_profile_set_context_window (self, from->context_window);
  agent_profile_set_search_provider (self, from->search_provider);
  agent_profile_set_search_url (self, from->search_url);
  agent_request_settings_unset_all (self->settings);
  _agent_request_settings_merge (self->settings, from->settings);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * agent_profile_create_provider:
 * @self: a [class@Agent.Profile]
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a provider set up as the profile says: its API, base URL, model
 * and request settings, with the API key from the provider's environment
 * variable ([method@Agent.Provider.get_api_key_variable]) if it is set. To
 * look in the keyring too, use [method@Agent.Profile.create_provider_async].
 *
 * Returns: (transfer full): a new [class@Agent.Provider], or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT if the profile names an API libagent does
 *   not speak
 *
 * Since: 0.1
 */
AgentProvider *
agent_profile_create_provider (AgentProfile  *self,
                               GError       **error)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *variable;

  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  provider = agent_provider_new (self->provider, &local_error);
  if (provider == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Profile “%s”: %s"), self->name, local_error->message);
      return NULL;
    }
  if (self->base_url != NULL)
    agent_provider_set_base_url (provider, self->base_url);
  if (self->model != NULL)
    agent_provider_set_model (provider, self->model);
  _agent_request_settings_merge (agent_provider_get_settings (provider), self->settings);

  variable = agent_provider_get_api_key_variable (provider);
  if (variable != NULL && g_getenv (variable) != NULL)
    agent_provider_set_api_key (provider, g_getenv (variable));

  return g_steal_pointer (&provider);
}

#if AGENT_HAS_KEYRING
static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentProvider *provider = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  key = agent_secret_lookup_api_key_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* No keyring is no key: the environment's, if any, stays */
  if (error != NULL)
    g_debug ("No API key from the keyring: %s", error->message);
  if (key != NULL)
    agent_provider_set_api_key (provider, key);
  g_task_return_pointer (task, g_object_ref (provider), g_object_unref);
}
#endif

/**
 * agent_profile_create_provider_async:
 * @self: a [class@Agent.Profile]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the provider is ready
 * @user_data: data for @callback
 *
 * Creates a provider as [method@Agent.Profile.create_provider] does, with
 * the API key from the keyring (stored with
 * [func@Agent.secret_store_api_key_async] for the profile's provider and
 * base URL) when libagent was built with it and the keyring holds one,
 * else from the provider's environment variable.
 *
 * Since: 0.1
 */
void
agent_profile_create_provider_async (AgentProfile        *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  GError *error = NULL;

  g_return_if_fail (AGENT_IS_PROFILE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_profile_create_provider_async);

  provider = agent_profile_create_provider (self, &error);
  if (provider == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

#if AGENT_HAS_KEYRING
  g_task_set_task_data (task, g_object_ref (provider), g_object_unref);
  agent_secret_lookup_api_key_async (agent_provider_get_name (provider),
                                     agent_provider_get_base_url (provider),
                                     cancellable, lookup_cb, g_steal_pointer (&task));
#else
  g_task_return_pointer (task, g_steal_pointer (&provider), g_object_unref);
#endif
}

/**
 * agent_profile_create_provider_finish:
 * @self: a [class@Agent.Profile]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Profile.create_provider_async].
 *
 * Returns: (transfer full): a new [class@Agent.Provider], or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AgentProvider *
agent_profile_create_provider_finish (AgentProfile  *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_profile_create_provider_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
