/* agent-cli-web.c — the web tools of agent-cli
 *
 * --tool fetch_url             fetches pages; --fetch-allow HOST (repeatable)
 *                              lets it reach a host, address or network on
 *                              this computer or the local network
 * --tool web_search            searches with --search-url URL (a SearXNG
 *                              instance), or --search-provider brave or
 *                              tavily with the key in BRAVE_API_KEY or
 *                              TAVILY_API_KEY, else in the keyring
 *                              (--search-url then replaces the service's
 *                              endpoint); without these options, with the
 *                              search service of the profile in effect
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-profiles.h"
#include "agent-cli-web.h"

static char **opt_fetch_allow;
static char *opt_search_url;
static char *opt_search_provider;

const GOptionEntry cli_web_entries[] = {
  { "fetch-allow", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_fetch_allow,
    N_("Let fetch_url reach HOST although it is on this computer or a private network: a host "
       "name, an address or a network such as 192.168.1.0/24 (repeatable)"), N_("HOST") },
  { "search-url", 0, 0, G_OPTION_ARG_STRING, &opt_search_url,
    N_("The SearXNG instance web_search asks (or the endpoint of --search-provider)"),
    N_("URL") },
  { "search-provider", 0, 0, G_OPTION_ARG_STRING, &opt_search_provider,
    N_("The service web_search asks: searxng (default, with --search-url), brave (the key in "
       "BRAVE_API_KEY) or tavily (the key in TAVILY_API_KEY)"), N_("NAME") },
  { NULL }
};

#if AGENT_HAS_KEYRING
static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The key the keyring holds for the service @name at @url */
static char *
keyring_key (const char *name,
             const char *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *key;

  agent_secret_lookup_api_key_async (name, url, NULL, lookup_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  key = agent_secret_lookup_api_key_finish (result, &error);
  if (error != NULL)
    g_debug ("No search API key from the keyring: %s", error->message);
  return key;
}
#endif

/* The service of the options, else the profile's; its key from its
 * variable, else (when that is not set at all) from the keyring */
static AgentSearchBackend *
search_backend_new (GError **error)
{
  AgentProfile *profile = cli_profiles_get_chosen ();
  const char *name = opt_search_provider;
  const char *url = opt_search_url;
  g_autofree char *stored = NULL;
  const char *variable;
  const char *key;

  if (name == NULL && url == NULL && profile != NULL &&
      agent_profile_get_search_provider (profile) != NULL)
    {
      name = agent_profile_get_search_provider (profile);
      url = agent_profile_get_search_url (profile);
    }
  if (name == NULL)
    name = "searxng";

  if (g_str_equal (name, "searxng") && url == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("web_search needs a search service: give --search-url URL "
                             "(a SearXNG instance), --search-provider brave or tavily, or a "
                             "profile with one"));
      return NULL;
    }

  variable = agent_search_backend_get_api_key_variable (name);
  key = variable != NULL ? g_getenv (variable) : NULL;
#if AGENT_HAS_KEYRING
  if (variable != NULL && key == NULL)
    key = stored = keyring_key (name, url != NULL ? url
                                                  : agent_search_backend_get_default_url (name));
#endif
  if (variable != NULL && (key == NULL || key[0] == '\0'))
    {
      /* Translators: the first is a search service, the second a variable */
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The search service %s needs an API key, in %s or the keyring"),
                   name, variable);
      return NULL;
    }

  return agent_search_backend_new_for_name (name, url, key, error);
}

/* What --save-profile keeps of the search options: checked, NULL when
 * not given */
gboolean
cli_web_get_search_options (const char **name,
                            const char **url,
                            GError     **error)
{
  *name = opt_search_provider;
  *url = opt_search_url;
  if (*name == NULL && *url != NULL)
    *name = "searxng";
  if (*name != NULL && !g_strv_contains (agent_search_backend_list_names (), *name))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Unknown search service “%s” (known: searxng, brave, tavily)"), *name);
      return FALSE;
    }
  if (*url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (*url, G_URI_FLAGS_NONE, NULL);

      if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                          g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--search-url: “%s” is not an http or https URL"), *url);
          return FALSE;
        }
    }
  return TRUE;
}

AgentTool *
cli_web_tool_new (const char  *name,
                  GError     **error)
{
  if (g_str_equal (name, "fetch_url"))
    return agent_fetch_url_tool_new_full ((const char * const *) opt_fetch_allow, 0, 0, error);

  if (g_str_equal (name, "web_search"))
    {
      g_autoptr(AgentSearchBackend) backend = search_backend_new (error);

      if (backend == NULL)
        return NULL;
      return agent_web_search_tool_new (backend);
    }

  return agent_builtin_tool_new (name, error);
}
