/* agent-chat-web-search.c
 *
 * The web search services agent-chat offers, for Preferences › Web Search
 * and for the windows that give their sessions the web_search tool: what
 * each is called, whether it takes a key (kept in the keyring through the
 * secret store, as a server's: the service's id stands for the provider,
 * its address for the base URL) and how its AgentSearchBackend is made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-web-search.h"

#define BRAVE_URL "https://api.search.brave.com/res/v1/web/search"
#define TAVILY_URL "https://api.tavily.com"

static const AgentChatSearchService services[] = {
  /* Translators: no web search service: the model cannot search the web */
  { "none", N_("None"), NULL, FALSE },
  { "searxng", N_("SearXNG"), NULL, FALSE },
  { "brave", N_("Brave Search"), BRAVE_URL, TRUE },
  { "tavily", N_("Tavily"), TAVILY_URL, TRUE },
};

/**
 * agent_chat_search_services:
 * @n_services: (out): how many
 *
 * Returns: (transfer none): the services, "none" first
 */
const AgentChatSearchService *
agent_chat_search_services (guint *n_services)
{
  *n_services = G_N_ELEMENTS (services);
  return services;
}

/**
 * agent_chat_search_service_lookup:
 * @id: a service's id
 *
 * Returns: (transfer none) (nullable): the service, or %NULL for "none" and
 *   the ids this build does not offer
 */
const AgentChatSearchService *
agent_chat_search_service_lookup (const char *id)
{
  for (guint i = 1; i < G_N_ELEMENTS (services); i++)
    if (g_strcmp0 (services[i].id, id) == 0)
      return &services[i];
  return NULL;
}

/**
 * agent_chat_search_service_from_settings:
 * @settings: the app's settings
 *
 * Returns: (transfer none) (nullable): the service chosen, or %NULL for none
 */
const AgentChatSearchService *
agent_chat_search_service_from_settings (GSettings *settings)
{
  g_autofree char *id = g_settings_get_string (settings, "search-service");

  return agent_chat_search_service_lookup (id);
}

/**
 * agent_chat_search_service_dup_key_url:
 * @service: a service
 * @url: (nullable): the address set for it, empty or %NULL for its own
 *
 * Returns: (transfer full): the address its key is kept under in the
 *   keyring
 */
char *
agent_chat_search_service_dup_key_url (const AgentChatSearchService *service,
                                       const char                   *url)
{
  return g_strdup (url != NULL && *url != '\0' ? url : service->default_url);
}

static AgentSearchBackend *
new_keyed_backend (const AgentChatSearchService  *service,
                   const char                    *key,
                   const char                    *url,
                   GError                       **error)
{
  if (g_str_equal (service->id, "brave"))
    return agent_search_backend_new_brave (key, url, error);
  if (g_str_equal (service->id, "tavily"))
    return agent_search_backend_new_tavily (key, url, error);
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("Unknown web search service “%s”"), service->id);
  return NULL;
}

/**
 * agent_chat_search_service_new_backend:
 * @service: a service
 * @url: (nullable): the address set for it: SearXNG's, or one in place of
 *   the service's own (empty or %NULL)
 * @key: (nullable): its API key
 * @error: where to say why there is none
 *
 * Returns: (transfer full) (nullable): the backend that searches with
 *   @service, or %NULL with @error saying what is missing or wrong (never
 *   with the key in it)
 */
AgentSearchBackend *
agent_chat_search_service_new_backend (const AgentChatSearchService  *service,
                                       const char                    *url,
                                       const char                    *key,
                                       GError                       **error)
{
  const char *own_url = url != NULL && *url != '\0' ? url : NULL;

  if (!service->needs_key)
    return agent_search_backend_new_searxng (own_url, error);
  if (key == NULL || *key == '\0')
    {
      /* Translators: %s is a web search service, such as Brave Search */
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s needs an API key"), _(service->title));
      return NULL;
    }
  return new_keyed_backend (service, key, own_url, error);
}
