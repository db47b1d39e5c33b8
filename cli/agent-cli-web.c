/* agent-cli-web.c — the web tools of agent-cli
 *
 * --tool fetch_url             fetches pages; --fetch-allow HOST (repeatable)
 *                              lets it reach a host, address or network on
 *                              this computer or the local network
 * --tool web_search            searches with --search-url URL (a SearXNG
 *                              instance), or --search-provider brave with
 *                              the key in BRAVE_API_KEY (--search-url then
 *                              replaces Brave's endpoint)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

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
    N_("The service web_search asks: searxng (default, with --search-url) or brave (the key "
       "in BRAVE_API_KEY)"), N_("NAME") },
  { NULL }
};

static AgentSearchBackend *
search_backend_new (GError **error)
{
  const char *provider = opt_search_provider != NULL ? opt_search_provider : "searxng";

  if (g_str_equal (provider, "searxng"))
    {
      if (opt_search_url == NULL)
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("web_search needs a search service: give --search-url URL "
                                 "(a SearXNG instance) or --search-provider brave"));
          return NULL;
        }
      return agent_search_backend_new_searxng (opt_search_url, error);
    }

  if (g_str_equal (provider, "brave"))
    {
      const char *key = g_getenv ("BRAVE_API_KEY");

      if (key == NULL || key[0] == '\0')
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("--search-provider brave needs the API key in BRAVE_API_KEY"));
          return NULL;
        }
      return agent_search_backend_new_brave (key, opt_search_url, error);
    }

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("Unknown search provider “%s” (known: searxng, brave)"), provider);
  return NULL;
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
