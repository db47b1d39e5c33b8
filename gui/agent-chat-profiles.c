/* agent-chat-profiles.c
 *
 * The app's servers: libagent's profiles (AgentProfileList), the file
 * agent-cli reads too ($AGENT_PROFILES, or ~/.config/libagent/profiles.ini).
 * Each has a name, a provider, a base URL and a model (NULL for the
 * provider's own) and default settings; its key is in the keyring, by
 * provider and base URL, never in the file.
 *
 * At the first start without that file, the server of the settings (the
 * provider, base-url and model keys, from before there were profiles)
 * becomes one profile, named after the server ("OpenAI", or its host), and
 * is saved. With nothing to carry over, the list stays empty: that is the
 * first run, where the window offers servers to start with
 * (agent-chat-first-run.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-names.h"
#include "agent-chat-profiles.h"

static const char * const server_keys[] = { "provider", "base-url", "model" };

/**
 * agent_chat_profiles_name_for_server:
 * @provider: a provider name
 * @base_url: (nullable): its base URL; %NULL or "" for the provider's own
 *
 * Returns: (transfer full): a name for a profile of that server: the
 *   provider's title on its own server ("OpenAI"), else the host (and port)
 */
char *
agent_chat_profiles_name_for_server (const char *provider,
                                     const char *base_url)
{
  g_autoptr(AgentProvider) probe = agent_provider_new (provider, NULL);
  g_autofree char *host = NULL;
  g_auto(GStrv) parts = NULL;

  if (base_url == NULL || *base_url == '\0' ||
      (probe != NULL && g_str_equal (base_url, agent_provider_get_default_base_url (probe))))
    return g_strdup (agent_chat_provider_title (provider));
  host = agent_chat_dup_host_port (base_url);
  if (host == NULL)
    return g_strdup (agent_chat_provider_title (provider));
  /* A profile's name holds no brackets: "::1:8080" for an IPv6 host */
  parts = g_strsplit_set (host, "[]", -1);
  return g_strjoinv ("", parts);
}

/**
 * agent_chat_profiles_add:
 * @profiles: the app's profiles
 * @name: the name wished; "Name 2", "Name 3"… when it is taken
 * @provider: a provider name
 * @base_url: (nullable): the base URL; %NULL for the provider's own
 * @model: (nullable): the model; %NULL for the provider's default
 * @error: return location for a #GError
 *
 * Adds a profile, the default one when it is the first, and saves the list.
 *
 * Returns: (transfer none) (nullable): the profile added
 */
AgentProfile *
agent_chat_profiles_add (AgentProfileList  *profiles,
                         const char        *name,
                         const char        *provider,
                         const char        *base_url,
                         const char        *model,
                         GError           **error)
{
  g_autoptr(AgentProfile) profile = NULL;
  g_autofree char *unique = g_strdup (name);

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (profiles), NULL);
  g_return_val_if_fail (name != NULL && provider != NULL, NULL);

  for (guint i = 2; agent_profile_list_lookup (profiles, unique) != NULL; i++)
    {
      g_free (unique);
      /* Translators: a server's name when another has it already, as in "Ollama 2" */
      unique = g_strdup_printf (C_("server name", "%s %u"), name, i);
    }
  profile = agent_profile_new (unique, provider);
  agent_profile_set_base_url (profile, base_url != NULL && *base_url ? base_url : NULL);
  agent_profile_set_model (profile, model != NULL && *model ? model : NULL);
  if (!agent_profile_list_add (profiles, profile, error))
    return NULL;
  if (agent_profile_list_get_default_name (profiles) == NULL ||
      agent_profile_list_lookup (profiles, agent_profile_list_get_default_name (profiles)) == NULL)
    agent_profile_list_set_default_name (profiles, unique);
  if (!agent_profile_list_save (profiles, error))
    return NULL;
  return profile;
}

/* The server of the settings, when one was set, as the first profile */
static void
migrate (AgentProfileList *profiles,
         GSettings        *settings)
{
  g_autofree char *provider = g_settings_get_string (settings, "provider");
  g_autofree char *base_url = g_settings_get_string (settings, "base-url");
  g_autofree char *model = g_settings_get_string (settings, "model");
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;
  gboolean set = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (server_keys); i++)
    {
      g_autoptr(GVariant) value = g_settings_get_user_value (settings, server_keys[i]);

      set |= value != NULL;
    }
  if (!set)
    return;
  name = agent_chat_profiles_name_for_server (provider, base_url);
  if (agent_chat_profiles_add (profiles, name, provider, base_url, model, &error) == NULL)
    g_warning ("The server of the settings could not be kept as a profile: %s", error->message);
}

/**
 * agent_chat_profiles_open:
 * @settings: the app's settings
 * @first_run: (out): whether there are no servers yet, nor any to carry over
 *
 * Reads the profiles, or makes the first of the settings' server.
 *
 * Returns: (transfer full): the app's profiles
 */
AgentProfileList *
agent_chat_profiles_open (GSettings *settings,
                          gboolean  *first_run)
{
  g_autoptr(AgentProfileList) profiles = agent_profile_list_new (NULL);
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  if (g_file_test (agent_profile_list_get_path (profiles), G_FILE_TEST_EXISTS))
    {
      if (!agent_profile_list_load (profiles, &error))
        g_warning ("The servers could not be read: %s", error->message);
    }
  else
    migrate (profiles, settings);
  *first_run = g_list_model_get_n_items (G_LIST_MODEL (profiles)) == 0;
  return g_steal_pointer (&profiles);
}

#if AGENT_HAS_STORE
/**
 * agent_chat_profiles_rename_in_store:
 * @store: the stored conversations
 * @name: a profile's old name
 * @new_name: its new name
 *
 * The conversations held with the profile @name follow it to @new_name:
 * else, opened again, they would go to the default server.
 */
void
agent_chat_profiles_rename_in_store (AgentStore *store,
                                     const char *name,
                                     const char *new_name)
{
  g_autoptr(GListModel) conversations = NULL;
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (AGENT_IS_STORE (store));
  g_return_if_fail (name != NULL && new_name != NULL);

  /* Gathered first: a change may move them in the list */
  conversations = agent_store_list_conversations (store);
  for (guint i = 0; i < g_list_model_get_n_items (conversations); i++)
    {
      g_autoptr(AgentConversation) conversation = g_list_model_get_item (conversations, i);

      if (g_strcmp0 (agent_conversation_get_profile (conversation), name) == 0)
        g_ptr_array_add (held, g_steal_pointer (&conversation));
    }

  for (guint i = 0; i < held->len; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!agent_conversation_set_profile (g_ptr_array_index (held, i), new_name, &error))
        g_warning ("%s", error->message);
    }
}
#endif
