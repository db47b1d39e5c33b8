/* agent-search-backend-private.h — what the search backends share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "tools/agent-search-backend.h"

G_BEGIN_DECLS

#define AGENT_BRAVE_URL  "https://api.search.brave.com/res/v1/web/search"
#define AGENT_TAVILY_URL "https://api.tavily.com"

char      *_agent_search_backend_check_base_url   (const char          *base_url,
                                                   const char          *what,
                                                   GError             **error);
JsonNode  *_agent_search_backend_send_json        (AgentSearchBackend  *self,
                                                   SoupMessage         *message,
                                                   const char          *url,
                                                   const char          *secret,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
JsonArray *_agent_search_backend_get_array        (JsonNode            *root,
                                                   const char          *outer,
                                                   const char          *member);
JsonNode  *_agent_search_backend_collect_results  (JsonArray           *results,
                                                   const char          *snippet_member,
                                                   guint                max_results);

G_END_DECLS
