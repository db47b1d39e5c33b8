/* agent-chat-secret-store.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_SECRET_STORE (agent_chat_secret_store_get_type ())

G_DECLARE_INTERFACE (AgentChatSecretStore, agent_chat_secret_store, AGENT_CHAT, SECRET_STORE, GObject)

/**
 * AgentChatSecretStoreInterface:
 * @lookup: the API key stored for a provider, or %NULL
 * @store: stores (or, with %NULL or "", forgets) the API key of a provider
 *
 * Where the app keeps API keys. The memory store keeps them for the run
 * only; a keyring store can take its place without the rest of the app
 * knowing.
 */
struct _AgentChatSecretStoreInterface
{
  GTypeInterface parent_iface;

  char *(*lookup) (AgentChatSecretStore *self,
                   const char           *provider);
  void  (*store)  (AgentChatSecretStore *self,
                   const char           *provider,
                   const char           *secret);
};

char *agent_chat_secret_store_lookup (AgentChatSecretStore *self,
                                      const char           *provider);
void  agent_chat_secret_store_store  (AgentChatSecretStore *self,
                                      const char           *provider,
                                      const char           *secret);

#define AGENT_CHAT_TYPE_MEMORY_SECRET_STORE (agent_chat_memory_secret_store_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMemorySecretStore, agent_chat_memory_secret_store,
                      AGENT_CHAT, MEMORY_SECRET_STORE, GObject)

AgentChatSecretStore *agent_chat_memory_secret_store_new (void);

G_END_DECLS
