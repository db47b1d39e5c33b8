/* agent-tavily-backend.c — web_search's results from the Tavily API
 *
 * POST {base}/search with {"query": …, "max_results": n} and the key as a
 * bearer token (never in an error or a log); the results are
 * results[].title, url and content. The request and its bounds are the
 * base class's (agent-search-backend.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "tools/agent-search-backend-private.h"
#include "agent-error.h"
#include "agent-util-private.h"

#define AGENT_TYPE_TAVILY_BACKEND (agent_tavily_backend_get_type ())
G_DECLARE_FINAL_TYPE (AgentTavilyBackend, agent_tavily_backend, AGENT, TAVILY_BACKEND,
                      AgentSearchBackend)

struct _AgentTavilyBackend
{
  AgentSearchBackend parent_instance;
  char *url;
  char *api_key;
};

G_DEFINE_FINAL_TYPE (AgentTavilyBackend, agent_tavily_backend, AGENT_TYPE_SEARCH_BACKEND)

static JsonNode *
tavily_search (AgentSearchBackend  *backend,
               const char          *query,
               guint                max_results,
               GCancellable        *cancellable,
               GError             **error)
{
  AgentTavilyBackend *self = AGENT_TAVILY_BACKEND (backend);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  g_autofree char *bearer = NULL;
  JsonArray *results;
  gsize length;

  message = soup_message_new ("POST", self->url);
  if (message == NULL)
    {
      g_autofree char *shown = _agent_url_hide_userinfo (self->url);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Could not search with %s: “%s” is not a valid URL"), "Tavily", shown);
      return NULL;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "query");
  json_builder_add_string_value (builder, query);
  json_builder_set_member_name (builder, "max_results");
  json_builder_add_int_value (builder, MIN (max_results, 20));
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);
  text = json_to_string (body, FALSE);
  length = strlen (text);
  bytes = g_bytes_new_take (g_steal_pointer (&text), length);
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);

  bearer = g_strconcat ("Bearer ", self->api_key, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                bearer);

  root = _agent_search_backend_send_json (backend, message, self->url, self->api_key,
                                          cancellable, error);
  if (root == NULL)
    return NULL;

  results = _agent_search_backend_get_array (root, NULL, "results");
  if (results == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("Tavily answered without a “results” array"));
      return NULL;
    }

  return _agent_search_backend_collect_results (results, "content", max_results);
}

static void
agent_tavily_backend_finalize (GObject *object)
{
  AgentTavilyBackend *self = AGENT_TAVILY_BACKEND (object);

  g_free (self->url);
  g_free (self->api_key);

  G_OBJECT_CLASS (agent_tavily_backend_parent_class)->finalize (object);
}

static void
agent_tavily_backend_class_init (AgentTavilyBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_tavily_backend_finalize;
  AGENT_SEARCH_BACKEND_CLASS (klass)->search = tavily_search;
}

static void
agent_tavily_backend_init (AgentTavilyBackend *self)
{
}

/**
 * agent_search_backend_new_tavily:
 * @api_key: a Tavily API key
 * @base_url: (nullable): the URL of the Tavily API, %NULL for
 *   `https://api.tavily.com`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a backend that asks the Tavily Search API:
 * `POST {base_url}/search` with a JSON body holding the `query` and
 * `max_results`, and @api_key in the `Authorization: Bearer` header (never
 * in a log or an error), reading `results[].title`, `url` and `content`.
 *
 * Returns: (transfer full): a new [class@Agent.SearchBackend], or %NULL
 *   with %AGENT_ERROR_INVALID_ARGUMENT if @api_key is empty or @base_url
 *   is not an http or https URL
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_search_backend_new_tavily (const char  *api_key,
                                 const char  *base_url,
                                 GError     **error)
{
  g_autofree char *checked = NULL;
  AgentTavilyBackend *self;
  gsize length;

  if (api_key == NULL || api_key[0] == '\0')
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("Tavily needs an API key"));
      return NULL;
    }

  checked = _agent_search_backend_check_base_url (base_url != NULL ? base_url : AGENT_TAVILY_URL,
                                                  "Tavily", error);
  if (checked == NULL)
    return NULL;

  length = strlen (checked);
  while (length > 0 && checked[length - 1] == '/')
    checked[--length] = '\0';

  self = g_object_new (AGENT_TYPE_TAVILY_BACKEND, "name", "Tavily", NULL);
  self->url = g_strconcat (checked, "/search", NULL);
  self->api_key = g_strdup (api_key);

  return AGENT_SEARCH_BACKEND (self);
}
