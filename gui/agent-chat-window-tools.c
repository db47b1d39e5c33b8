/* agent-chat-window-tools.c
 *
 * The tools a window's session gets from Preferences besides the built-in
 * ones of the Tools group: web_search, when a web search service is set
 * (Preferences › Web Search), and search_documents, while Preferences ›
 * Documents have folders (the app's AgentChatDocuments holds their index).
 * Without them, the tools are not offered.
 *
 * A service with a key waits for it before the turn, as the model
 * server's: the first time, the keyring is asked (it may want to be
 * unlocked), and the turn goes on once it answered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-application.h"
#include "agent-chat-web-search.h"
#include "agent-chat-window-private.h"

static void
on_search_key_looked_up (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  AgentChatKeySource source;
  g_autofree char *key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object),
                                                                result, &source, NULL);

  if (self->connection == NULL)  /* closed meanwhile */
    return;
  agent_gtk_chat_view_resume_turn (self->chat_view);
}

/* The service's key, when it takes one and the keyring was not asked yet:
 * TRUE holds the turn until it answered */
gboolean
_agent_chat_window_wait_for_search_key (AgentChatWindow *self)
{
  const AgentChatSearchService *service = agent_chat_search_service_from_settings (self->settings);
  g_autofree char *url = NULL;
  g_autofree char *key_url = NULL;
  g_autofree char *key = NULL;
  AgentChatKeySource source;

  if (service == NULL || !service->needs_key)
    return FALSE;
  url = g_settings_get_string (self->settings, "search-url");
  key_url = agent_chat_search_service_dup_key_url (service, url);
  if (agent_chat_secret_store_peek (self->secrets, service->id, key_url, &key, &source))
    return FALSE;
  agent_chat_secret_store_lookup_async (self->secrets, service->id, key_url, NULL,
                                        on_search_key_looked_up, g_object_ref (self));
  return TRUE;
}

static void
add_web_search (AgentChatWindow *self)
{
  const AgentChatSearchService *service = agent_chat_search_service_from_settings (self->settings);
  g_autofree char *url = NULL;
  g_autofree char *key = NULL;
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(AgentTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  AgentChatKeySource source;

  if (service == NULL)
    return;
  url = g_settings_get_string (self->settings, "search-url");
  if (service->needs_key)
    {
      g_autofree char *key_url = agent_chat_search_service_dup_key_url (service, url);

      agent_chat_secret_store_peek (self->secrets, service->id, key_url, &key, &source);
    }
  backend = agent_chat_search_service_new_backend (service, url, key, &error);
  /* Not usable as set (no key yet, no address): Preferences say why */
  if (backend == NULL)
    {
      g_debug ("No web_search: %s", error->message);
      return;
    }
  tool = agent_web_search_tool_new (backend);
  agent_session_add_tool (self->session, tool);
}

static void
add_search_documents (AgentChatWindow *self)
{
#if AGENT_HAS_STORE
  AgentChatApplication *app = _agent_chat_window_get_application (self);
  AgentChatDocuments *documents = app != NULL ? agent_chat_application_get_documents (app) : NULL;
  AgentDocumentIndex *index = documents != NULL ? agent_chat_documents_get_index (documents)
                                                : NULL;
  g_autoptr(AgentTool) tool = NULL;

  if (index == NULL)
    return;
  tool = agent_search_documents_tool_new (index);
  agent_session_add_tool (self->session, tool);
#endif
}

/**
 * _agent_chat_window_add_search_tools:
 * @self: a #AgentChatWindow
 *
 * Gives the session web_search, when a service is set, and
 * search_documents, while there are folders to search.
 */
void
_agent_chat_window_add_search_tools (AgentChatWindow *self)
{
  add_web_search (self);
  add_search_documents (self);
}
