/* agent-chat-web-search.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

/* A web search service, as Preferences › Web Search offer it */
typedef struct
{
  const char *id;           /* the search-service setting's value */
  const char *title;        /* untranslated: _() it */
  const char *default_url;  /* the service's own address; NULL: it has none */
  gboolean    needs_key;
} AgentChatSearchService;

const AgentChatSearchService *agent_chat_search_services            (guint       *n_services);
const AgentChatSearchService *agent_chat_search_service_lookup      (const char  *id);
const AgentChatSearchService *agent_chat_search_service_from_settings (GSettings *settings);
char                         *agent_chat_search_service_dup_key_url  (const AgentChatSearchService *service,
                                                                      const char  *url);
AgentSearchBackend           *agent_chat_search_service_new_backend  (const AgentChatSearchService *service,
                                                                      const char  *url,
                                                                      const char  *key,
                                                                      GError     **error);

G_END_DECLS
