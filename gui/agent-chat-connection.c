/* agent-chat-connection.c
 *
 * The model server a window talks to: provider, base URL and model. One
 * source of truth for the window's session, its subtitle, Preferences and
 * the model list: the app's settings, with the options of the command line
 * that opened the window (--provider, --base-url, --model) in their place.
 *
 * What it gives is what is used: an empty base URL or model setting stands
 * for the provider's own, and the connection says which that is. A value
 * set here (from Preferences) is saved in the settings and ends that
 * option's override for this window; other windows keep theirs, and follow
 * the settings where they have none.
 *
 * A user name and password in the base URL ("http://user:password@host/")
 * are a secret: never saved in the settings (Preferences refuse such a URL,
 * and one saved by an older version is taken out), never shown (the URL is
 * shown without them). A window opened with one on the command line uses
 * it, as agent-cli does, which also keeps it out of what it stores.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-connection.h"
#include "agent-chat-demo.h"
#include "agent-chat-names.h"

struct _AgentChatConnection
{
  GObject    parent_instance;

  GSettings        *settings;
  AgentProfileList *profiles;  /* NULL: the settings alone */
  AgentProfile     *profile;   /* the one in use, of @profiles */
  char             *overrides[3];  /* by Key; NULL for none */
  char             *values[3];     /* by Key: what is in use */
};

G_DEFINE_FINAL_TYPE (AgentChatConnection, agent_chat_connection, G_TYPE_OBJECT)

typedef enum
{
  KEY_PROVIDER,
  KEY_BASE_URL,
  KEY_MODEL,
  N_KEYS
} Key;

static const char * const key_names[N_KEYS] = { "provider", "base-url", "model" };

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_FROM_COMMAND_LINE,
  PROP_PROFILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
replace (char       **value,
         const char  *with)
{
  g_free (*value);
  *value = g_strdup (with);
}

/* The profile's value, "" for the provider's own */
static char *
dup_profile_value (AgentProfile *profile,
                   Key           key)
{
  const char *value = NULL;

  switch (key)
    {
    case KEY_PROVIDER:
      value = agent_profile_get_provider (profile);
      break;
    case KEY_BASE_URL:
      value = agent_profile_get_base_url (profile);
      break;
    case KEY_MODEL:
      value = agent_profile_get_model (profile);
      break;
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }
  return g_strdup (value != NULL ? value : "");
}

/* The setting (or the profile's value), or its override */
static char *
dup_given (AgentChatConnection *self,
           Key                  key)
{
  if (self->overrides[key] != NULL)
    return g_strdup (self->overrides[key]);
  if (self->profile != NULL)
    return dup_profile_value (self->profile, key);
  return g_settings_get_string (self->settings, key_names[key]);
}

/* Works out what is in use, and says what changed */
static void
update (AgentChatConnection *self)
{
  g_autoptr(AgentProvider) probe = NULL;
  char *values[N_KEYS];

  values[KEY_PROVIDER] = dup_given (self, KEY_PROVIDER);
  values[KEY_BASE_URL] = dup_given (self, KEY_BASE_URL);
  values[KEY_MODEL] = dup_given (self, KEY_MODEL);

  /* Empty: the provider's own */
  probe = agent_provider_new (values[KEY_PROVIDER], NULL);
  if (probe != NULL && *values[KEY_BASE_URL] == '\0')
    replace (&values[KEY_BASE_URL], agent_provider_get_default_base_url (probe));
  if (probe != NULL && *values[KEY_MODEL] == '\0')
    replace (&values[KEY_MODEL], agent_provider_get_model (probe));

  g_object_freeze_notify (G_OBJECT (self));
  for (Key key = 0; key < N_KEYS; key++)
    {
      if (g_strcmp0 (self->values[key], values[key]) != 0)
        {
          g_free (self->values[key]);
          self->values[key] = values[key];
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROVIDER + key]);
        }
      else
        g_free (values[key]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static void
on_setting_changed (AgentChatConnection *self,
                    const char          *name)
{
  update (self);
}

/* Uses @profile (or the settings, for NULL), and watches it */
static void
follow_profile (AgentChatConnection *self,
                AgentProfile        *profile)
{
  if (self->profile == profile)
    return;
  if (self->profile != NULL)
    g_signal_handlers_disconnect_by_func (self->profile, on_setting_changed, self);
  g_set_object (&self->profile, profile);
  if (profile != NULL)
    g_signal_connect_object (profile, "notify", G_CALLBACK (on_setting_changed), self,
                             G_CONNECT_SWAPPED);
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

/* The list changed: the profile in use may have gone (or been replaced) */
static void
on_profiles_changed (AgentChatConnection *self)
{
  AgentProfile *profile = NULL;

  if (self->profile != NULL)
    profile = agent_profile_list_lookup (self->profiles, agent_profile_get_name (self->profile));
  if (profile == NULL && agent_profile_list_get_default_name (self->profiles) != NULL)
    profile = agent_profile_list_lookup (self->profiles,
                                         agent_profile_list_get_default_name (self->profiles));
  if (profile == NULL && g_list_model_get_n_items (G_LIST_MODEL (self->profiles)) > 0)
    {
      g_autoptr(AgentProfile) first = g_list_model_get_item (G_LIST_MODEL (self->profiles), 0);

      profile = first;
    }
  follow_profile (self, profile);
}

/**
 * agent_chat_connection_get_profiles:
 * @self: a #AgentChatConnection
 *
 * Returns: (transfer none) (nullable): the profiles it is to one of
 */
AgentProfileList *
agent_chat_connection_get_profiles (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->profiles;
}

/**
 * agent_chat_connection_get_profile:
 * @self: a #AgentChatConnection
 *
 * Returns: (transfer none) (nullable): the profile in use, or %NULL when
 *   the connection is the settings'
 */
AgentProfile *
agent_chat_connection_get_profile (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->profile;
}

/**
 * agent_chat_connection_get_profile_name:
 * @self: a #AgentChatConnection
 *
 * Returns: (nullable): the name of the profile in use
 */
const char *
agent_chat_connection_get_profile_name (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->profile != NULL ? agent_profile_get_name (self->profile) : NULL;
}

/**
 * agent_chat_connection_use_profile:
 * @self: a #AgentChatConnection
 * @name: (nullable): a profile's name; %NULL for the default profile
 *
 * Talks to the server of the profile called @name (the options of the
 * command line still stand in for its values).
 *
 * Returns: whether there is such a profile
 */
gboolean
agent_chat_connection_use_profile (AgentChatConnection *self,
                                   const char          *name)
{
  AgentProfile *profile;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), FALSE);

  if (self->profiles == NULL)
    return FALSE;
  if (name == NULL)
    name = agent_profile_list_get_default_name (self->profiles);
  profile = name != NULL ? agent_profile_list_lookup (self->profiles, name) : NULL;
  if (profile == NULL)
    return FALSE;
  follow_profile (self, profile);
  return TRUE;
}

static void
save_profiles (AgentChatConnection *self)
{
  g_autoptr(GError) error = NULL;

  if (!agent_profile_list_save (self->profiles, &error))
    g_warning ("The servers could not be saved: %s", error->message);
}

/* Saves @value in the profile in use */
static void
set_profile_value (AgentChatConnection *self,
                   Key                  key,
                   const char          *value)
{
  const char *name = agent_profile_get_name (self->profile);
  g_autoptr(AgentProfile) replaced = NULL;
  gboolean is_default;

  if (value != NULL && *value == '\0')
    value = NULL;
  switch (key)
    {
    case KEY_PROVIDER:
      if (g_strcmp0 (agent_profile_get_provider (self->profile), value) == 0 || value == NULL)
        return;
      /* Another provider, another profile, with the URL and model set, as
       * the settings keep theirs */
      replaced = agent_profile_new (name, value);
      agent_profile_set_base_url (replaced, agent_profile_get_base_url (self->profile));
      agent_profile_set_model (replaced, agent_profile_get_model (self->profile));
      agent_profile_set_context_window (replaced,
                                        agent_profile_get_context_window (self->profile));
      is_default = g_strcmp0 (agent_profile_list_get_default_name (self->profiles), name) == 0;
      g_object_ref (self->profile);
      agent_profile_list_remove (self->profiles, name);
      agent_profile_list_add (self->profiles, replaced, NULL);
      if (is_default)
        agent_profile_list_set_default_name (self->profiles, name);
      g_object_unref (self->profile);
      follow_profile (self, replaced);
      break;
    case KEY_BASE_URL:
      agent_profile_set_base_url (self->profile, value);
      break;
    case KEY_MODEL:
      agent_profile_set_model (self->profile, value);
      break;
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }
  save_profiles (self);
}

/* Saves @value in the settings (or the profile) and ends the override of @key */
static void
set_value (AgentChatConnection *self,
           Key                  key,
           const char          *value)
{
  gboolean was_overridden = agent_chat_connection_get_from_command_line (self);

  g_clear_pointer (&self->overrides[key], g_free);
  if (self->profile != NULL)
    set_profile_value (self, key, value);
  else
    /* The settings' "changed" updates the values, when the setting changed */
    g_settings_set_string (self->settings, key_names[key], value != NULL ? value : "");
  update (self);
  if (was_overridden != agent_chat_connection_get_from_command_line (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FROM_COMMAND_LINE]);
}

/**
 * agent_chat_connection_get_provider:
 * @self: a #AgentChatConnection
 *
 * Returns: the name of the provider in use
 */
const char *
agent_chat_connection_get_provider (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->values[KEY_PROVIDER];
}

/**
 * agent_chat_connection_get_base_url:
 * @self: a #AgentChatConnection
 *
 * Returns: the base URL requests go to: the provider's own when no other
 *   is set
 */
const char *
agent_chat_connection_get_base_url (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->values[KEY_BASE_URL];
}

/**
 * agent_chat_connection_get_model:
 * @self: a #AgentChatConnection
 *
 * Returns: the model asked: the provider's default when no other is set
 */
const char *
agent_chat_connection_get_model (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return self->values[KEY_MODEL];
}

/**
 * agent_chat_connection_get_from_command_line:
 * @self: a #AgentChatConnection
 *
 * Returns: whether an option of the command line stands in for a setting
 */
gboolean
agent_chat_connection_get_from_command_line (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), FALSE);

  for (Key key = 0; key < N_KEYS; key++)
    if (self->overrides[key] != NULL)
      return TRUE;
  return FALSE;
}

/**
 * agent_chat_connection_set_provider:
 * @self: a #AgentChatConnection
 * @provider: a provider name
 *
 * Uses @provider, and saves it in the settings.
 */
void
agent_chat_connection_set_provider (AgentChatConnection *self,
                                    const char          *provider)
{
  g_return_if_fail (AGENT_CHAT_IS_CONNECTION (self));
  g_return_if_fail (provider != NULL);

  set_value (self, KEY_PROVIDER, provider);
}

/* Whether @url holds user information (a user name, a password) */
static gboolean
has_userinfo (const char *url)
{
  g_autoptr(GUri) uri = url ? g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_HAS_PASSWORD,
                                           NULL)
                            : NULL;

  return uri != NULL && g_uri_get_userinfo (uri) != NULL;
}

/**
 * agent_chat_url_hide_userinfo:
 * @url: (nullable): a URL
 *
 * Returns: (transfer full) (nullable): @url without its user name and
 *   password, to show or store; a copy of @url when it has none, or is no URL
 */
char *
agent_chat_url_hide_userinfo (const char *url)
{
  g_autoptr(GUri) uri = NULL;

  if (!has_userinfo (url))
    return g_strdup (url);
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_HAS_PASSWORD, NULL);
  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);
}

/**
 * agent_chat_connection_dup_shown_base_url:
 * @self: a #AgentChatConnection
 *
 * Returns: (transfer full): the base URL in use, without user name and
 *   password: to show
 */
char *
agent_chat_connection_dup_shown_base_url (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);
  return agent_chat_url_hide_userinfo (self->values[KEY_BASE_URL]);
}

/**
 * agent_chat_connection_set_base_url:
 * @self: a #AgentChatConnection
 * @base_url: (nullable): the server's base URL; %NULL, "" or the
 *   provider's own for the provider's own
 * @error: return location for a #GError
 *
 * Uses @base_url, and saves it in the settings: the provider's own URL is
 * saved as "", so that it follows the provider. A URL with a user name or
 * password is refused (%G_IO_ERROR_INVALID_ARGUMENT): the settings are no
 * place for a secret.
 *
 * Returns: whether @base_url is used
 */
gboolean
agent_chat_connection_set_base_url (AgentChatConnection  *self,
                                    const char           *base_url,
                                    GError              **error)
{
  g_autoptr(AgentProvider) probe = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), FALSE);

  if (has_userinfo (base_url))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A user name or password in the address would be saved as plain "
                             "text. Leave it out; to use one for a window, start Agent Chat "
                             "with --base-url."));
      return FALSE;
    }

  probe = agent_provider_new (self->values[KEY_PROVIDER], NULL);
  if (base_url != NULL && probe != NULL &&
      g_str_equal (base_url, agent_provider_get_default_base_url (probe)))
    base_url = NULL;
  set_value (self, KEY_BASE_URL, base_url);
  return TRUE;
}

/**
 * agent_chat_connection_set_model:
 * @self: a #AgentChatConnection
 * @model: (nullable): the model; %NULL or "" for the provider's default
 *
 * Uses @model, and saves it in the settings.
 */
void
agent_chat_connection_set_model (AgentChatConnection *self,
                                 const char          *model)
{
  g_return_if_fail (AGENT_CHAT_IS_CONNECTION (self));

  set_value (self, KEY_MODEL, model);
}

/* The profile's request settings are the provider's: below a conversation's
 * and Preferences' defaults (agent-chat-window-settings.c), over the
 * server's. A setting the profile leaves unset is the server's. */
static void
apply_profile_settings (AgentChatConnection  *self,
                        AgentRequestSettings *to)
{
  static const char * const names[] = { "temperature", "top-p", "top-k", "seed" };
  AgentRequestSettings *from = NULL;

  /* Not for another API the command line asked for: what one API takes,
   * another may refuse */
  if (self->profile != NULL &&
      (self->overrides[KEY_PROVIDER] == NULL ||
       g_strcmp0 (self->overrides[KEY_PROVIDER], agent_profile_get_provider (self->profile)) == 0))
    from = agent_profile_get_settings (self->profile);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (from == NULL || !agent_request_settings_is_set (from, names[i]))
      agent_request_settings_unset (to, names[i]);

  if (from == NULL)
    return;
  if (agent_request_settings_is_set (from, "temperature"))
    agent_request_settings_set_temperature (to, agent_request_settings_get_temperature (from));
  if (agent_request_settings_is_set (from, "top-p"))
    agent_request_settings_set_top_p (to, agent_request_settings_get_top_p (from));
  if (agent_request_settings_is_set (from, "top-k"))
    agent_request_settings_set_top_k (to, agent_request_settings_get_top_k (from));
  if (agent_request_settings_is_set (from, "seed"))
    agent_request_settings_set_seed (to, agent_request_settings_get_seed (from));
}

/**
 * agent_chat_connection_apply:
 * @self: a #AgentChatConnection
 * @provider: a provider of the connection's kind
 *
 * Points @provider at the connection's server and model.
 */
void
agent_chat_connection_apply (AgentChatConnection *self,
                             AgentProvider       *provider)
{
  g_return_if_fail (AGENT_CHAT_IS_CONNECTION (self));
  g_return_if_fail (AGENT_IS_PROVIDER (provider));

  agent_provider_set_base_url (provider, self->values[KEY_BASE_URL]);
  agent_provider_set_model (provider, self->values[KEY_MODEL]);
  apply_profile_settings (self, agent_provider_get_settings (provider));
}

/**
 * agent_chat_connection_create_provider:
 * @self: a #AgentChatConnection
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): a provider for the connection, or
 *   %NULL if its provider name is unknown
 */
AgentProvider *
agent_chat_connection_create_provider (AgentChatConnection  *self,
                                       GError              **error)
{
  AgentProvider *provider;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);

  provider = agent_provider_new (self->values[KEY_PROVIDER], error);
  if (provider != NULL)
    agent_chat_connection_apply (self, provider);
  return provider;
}

/**
 * agent_chat_connection_dup_host:
 * @self: a #AgentChatConnection
 *
 * Returns: (transfer full): the server's host, with its port when the URL
 *   names one (or the base URL itself, when it is no URL)
 */
char *
agent_chat_connection_dup_host (AgentChatConnection *self)
{
  char *host;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);

  host = agent_chat_dup_host_port (self->values[KEY_BASE_URL]);
  return host != NULL ? host : g_strdup (self->values[KEY_BASE_URL]);
}

/**
 * agent_chat_connection_is_demo:
 * @self: a #AgentChatConnection
 *
 * libagent's demo server (agent-demo-server) listens on the loopback
 * address only, speaks the openai API and serves one model, "demo": that
 * is what ./run starts the app with when no other server is set up.
 *
 * Returns: whether the connection is to the demo server
 */
gboolean
agent_chat_connection_is_demo (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), FALSE);

  return agent_chat_demo_is_server (self->values[KEY_PROVIDER], self->values[KEY_BASE_URL],
                                    self->values[KEY_MODEL]);
}

/**
 * agent_chat_connection_dup_subtitle:
 * @self: a #AgentChatConnection
 *
 * Returns: (transfer full): the model and the server's host, for a window's
 *   subtitle; the demo server says so
 */
char *
agent_chat_connection_dup_subtitle (AgentChatConnection *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);

  return agent_chat_connection_dup_subtitle_for (self, self->values[KEY_MODEL]);
}

/**
 * agent_chat_connection_dup_subtitle_for:
 * @self: a #AgentChatConnection
 * @model: the model a chat uses (picked for it, or the connection's)
 *
 * Returns: (transfer full): @model and the server's host, for a window's
 *   subtitle; the demo server says so
 */
char *
agent_chat_connection_dup_subtitle_for (AgentChatConnection *self,
                                        const char          *model)
{
  g_autofree char *host = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), NULL);

  host = agent_chat_connection_dup_host (self);
  if (agent_chat_connection_is_demo (self))
    /* Translators: the window's subtitle when it talks to libagent's demo
     * server, which gives canned answers; %s is its host and port */
    return g_strdup_printf (_("Demo server · %s"), host);
  /* Translators: the window's subtitle: the model, then the host of the
   * server, as in "gpt-4o-mini · api.openai.com" */
  return g_strdup_printf (C_("window subtitle", "%s · %s"), model, host);
}

static char *
normalize (const char *base_url)
{
  gsize len = strlen (base_url);

  while (len > 0 && base_url[len - 1] == '/')
    len--;
  return g_strndup (base_url, len);
}

/**
 * agent_chat_connection_equal:
 * @self: a #AgentChatConnection
 * @other: another #AgentChatConnection
 *
 * Returns: whether both talk to the same server, with the same model
 */
gboolean
agent_chat_connection_equal (AgentChatConnection *self,
                             AgentChatConnection *other)
{
  g_autofree char *url = NULL;
  g_autofree char *other_url = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (self), FALSE);
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (other), FALSE);

  url = normalize (self->values[KEY_BASE_URL]);
  other_url = normalize (other->values[KEY_BASE_URL]);
  return g_str_equal (self->values[KEY_PROVIDER], other->values[KEY_PROVIDER]) &&
         g_str_equal (url, other_url) &&
         g_str_equal (self->values[KEY_MODEL], other->values[KEY_MODEL]);
}

/**
 * agent_chat_connection_check_options:
 * @provider: (nullable): the --provider option
 * @base_url: (nullable): the --base-url option
 * @error: return location for a #GError
 *
 * Returns: whether the options of the command line can be used: a known
 *   provider, an http or https URL
 */
gboolean
agent_chat_connection_check_options (const char  *provider,
                                     const char  *base_url,
                                     GError     **error)
{
  /* Not the desktop assistant's: agent-chat is where the models it shares
   * are set up, and a profile of it would have the service ask itself */
  if (g_strcmp0 (provider, "desktop") == 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--provider: agent-chat sets up the models the desktop assistant "
                             "shares; it cannot use them through the assistant"));
      return FALSE;
    }
  if (provider != NULL &&
      !g_strv_contains ((const char * const *) agent_provider_list_names (), provider))
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) known = NULL;
      g_autofree char *names = NULL;

      for (const char * const *name = agent_provider_list_names (); *name != NULL; name++)
        if (!g_str_equal (*name, "desktop"))
          g_strv_builder_add (builder, *name);
      known = g_strv_builder_end (builder);
      names = g_strjoinv (", ", known);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: the second %s lists the provider names */
                   _("--provider: “%s” is not one of %s"), provider, names);
      return FALSE;
    }
  if (base_url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
      const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

      if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
          (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--base-url: “%s” is not an http or https URL"), base_url);
          return FALSE;
        }
    }
  return TRUE;
}

static void
agent_chat_connection_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AgentChatConnection *self = AGENT_CHAT_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
    case PROP_BASE_URL:
    case PROP_MODEL:
      g_value_set_string (value, self->values[prop_id - PROP_PROVIDER]);
      break;

    case PROP_FROM_COMMAND_LINE:
      g_value_set_boolean (value, agent_chat_connection_get_from_command_line (self));
      break;

    case PROP_PROFILE:
      g_value_set_string (value, agent_chat_connection_get_profile_name (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_connection_finalize (GObject *object)
{
  AgentChatConnection *self = AGENT_CHAT_CONNECTION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->profile);
  g_clear_object (&self->profiles);
  for (Key key = 0; key < N_KEYS; key++)
    {
      g_clear_pointer (&self->overrides[key], g_free);
      g_clear_pointer (&self->values[key], g_free);
    }

  G_OBJECT_CLASS (agent_chat_connection_parent_class)->finalize (object);
}

static void
agent_chat_connection_class_init (AgentChatConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = agent_chat_connection_get_property;
  object_class->finalize = agent_chat_connection_finalize;

  /**
   * AgentChatConnection:provider:
   *
   * The name of the provider in use.
   */
  properties[PROP_PROVIDER] =
    g_param_spec_string ("provider", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatConnection:base-url:
   *
   * The base URL requests go to.
   */
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatConnection:model:
   *
   * The model asked.
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatConnection:from-command-line:
   *
   * Whether an option of the command line stands in for a setting.
   */
  properties[PROP_FROM_COMMAND_LINE] =
    g_param_spec_boolean ("from-command-line", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatConnection:profile:
   *
   * The name of the profile in use, if it is to one.
   */
  properties[PROP_PROFILE] =
    g_param_spec_string ("profile", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_chat_connection_init (AgentChatConnection *self)
{
}

/**
 * agent_chat_connection_new:
 * @settings: the app's settings
 * @provider: (nullable): the --provider option, if given
 * @base_url: (nullable): the --base-url option, if given
 * @model: (nullable): the --model option, if given
 *
 * Returns: (transfer full): the connection of a window
 */
AgentChatConnection *
agent_chat_connection_new (GSettings  *settings,
                           const char *provider,
                           const char *base_url,
                           const char *model)
{
  AgentChatConnection *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_CONNECTION, NULL);
  self->settings = g_object_ref (settings);
  self->overrides[KEY_PROVIDER] = g_strdup (provider);
  self->overrides[KEY_BASE_URL] = g_strdup (base_url);
  self->overrides[KEY_MODEL] = g_strdup (model);
  {
    /* An older version saved what was typed: a password goes */
    g_autofree char *saved = g_settings_get_string (settings, key_names[KEY_BASE_URL]);

    if (has_userinfo (saved))
      {
        g_autofree char *clean = agent_chat_url_hide_userinfo (saved);

        g_settings_set_string (settings, key_names[KEY_BASE_URL], clean);
        g_message ("%s", _("The user name and password of the base URL were removed from the "
                           "settings"));
      }
  }
  for (Key key = 0; key < N_KEYS; key++)
    {
      g_autofree char *signal = g_strconcat ("changed::", key_names[key], NULL);

      g_signal_connect_object (settings, signal, G_CALLBACK (on_setting_changed), self,
                               G_CONNECT_SWAPPED);
      /* GSettings emits "changed" only for keys that were read */
      g_free (g_settings_get_string (settings, key_names[key]));
    }
  update (self);
  return self;
}

/**
 * agent_chat_connection_new_for_profile:
 * @settings: the app's settings
 * @profiles: the app's profiles
 * @profile: (nullable): the name of the profile; %NULL for the default one
 * @provider: (nullable): the --provider option, if given
 * @base_url: (nullable): the --base-url option, if given
 * @model: (nullable): the --model option, if given
 *
 * Returns: (transfer full): the connection of a window to one of
 *   @profiles (to the settings' server while @profiles is empty)
 */
AgentChatConnection *
agent_chat_connection_new_for_profile (GSettings        *settings,
                                       AgentProfileList *profiles,
                                       const char       *profile,
                                       const char       *provider,
                                       const char       *base_url,
                                       const char       *model)
{
  AgentChatConnection *self;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (profiles), NULL);

  self = agent_chat_connection_new (settings, provider, base_url, model);
  self->profiles = g_object_ref (profiles);
  g_signal_connect_object (profiles, "items-changed", G_CALLBACK (on_profiles_changed), self,
                           G_CONNECT_SWAPPED);
  if (!agent_chat_connection_use_profile (self, profile))
    on_profiles_changed (self);
  return self;
}
