/* agent-search-backend.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agent-tool.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_SEARCH_BACKEND (agent_search_backend_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (AgentSearchBackend, agent_search_backend, AGENT, SEARCH_BACKEND, GObject)

/**
 * AgentSearchBackendClass:
 * @parent_class: the parent class
 * @search: searches the web for @query and returns a JSON array of at most
 *   @max_results objects with the members `title`, `url` and `snippet`.
 *   It is called in a worker thread and may block.
 *
 * The class of web search backends: the `web_search` tool asks one for
 * results. libagent has three, [ctor@Agent.SearchBackend.new_searxng],
 * [ctor@Agent.SearchBackend.new_brave] and
 * [ctor@Agent.SearchBackend.new_tavily]; a C program may subclass it for
 * another.
 *
 * Since: 0.1
 */
struct _AgentSearchBackendClass
{
  GObjectClass parent_class;

  JsonNode *(*search) (AgentSearchBackend  *self,
                       const char          *query,
                       guint                max_results,
                       GCancellable        *cancellable,
                       GError             **error);

  /*< private >*/
  gpointer _reserved[8];
};

AGENT_AVAILABLE_IN_ALL
AgentSearchBackend *agent_search_backend_new_searxng (const char          *base_url,
                                                      GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentSearchBackend *agent_search_backend_new_brave   (const char          *api_key,
                                                      const char          *base_url,
                                                      GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentSearchBackend *agent_search_backend_new_tavily  (const char          *api_key,
                                                      const char          *base_url,
                                                      GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentSearchBackend *agent_search_backend_new_for_name (const char         *name,
                                                       const char         *url,
                                                       const char         *api_key,
                                                       GError            **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char * const *agent_search_backend_list_names  (void);
AGENT_AVAILABLE_IN_ALL
const char         *agent_search_backend_get_default_url      (const char *name);
AGENT_AVAILABLE_IN_ALL
const char         *agent_search_backend_get_api_key_variable (const char *name);
AGENT_AVAILABLE_IN_ALL
const char         *agent_search_backend_get_name    (AgentSearchBackend  *self);
AGENT_AVAILABLE_IN_ALL
JsonNode           *agent_search_backend_search      (AgentSearchBackend  *self,
                                                      const char          *query,
                                                      guint                max_results,
                                                      GCancellable        *cancellable,
                                                      GError             **error) G_GNUC_WARN_UNUSED_RESULT;

AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_web_search_tool_new        (AgentSearchBackend  *backend) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
