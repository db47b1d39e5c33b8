/* agent-chat-secret-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * AgentChatKeySource:
 * @AGENT_CHAT_KEY_SOURCE_NONE: there is no key
 * @AGENT_CHAT_KEY_SOURCE_KEYRING: the key is in the keyring
 * @AGENT_CHAT_KEY_SOURCE_SESSION: the key is kept until the app quits: the
 *   keyring could not take it
 * @AGENT_CHAT_KEY_SOURCE_ENVIRONMENT: the key comes from the provider's
 *   environment variable (OPENAI_API_KEY, …)
 *
 * Where the API key of a server comes from.
 */
typedef enum
{
  AGENT_CHAT_KEY_SOURCE_NONE,
  AGENT_CHAT_KEY_SOURCE_KEYRING,
  AGENT_CHAT_KEY_SOURCE_SESSION,
  AGENT_CHAT_KEY_SOURCE_ENVIRONMENT,
} AgentChatKeySource;

#define AGENT_CHAT_TYPE_SECRET_STORE (agent_chat_secret_store_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatSecretStore, agent_chat_secret_store, AGENT_CHAT, SECRET_STORE,
                      GObject)

AgentChatSecretStore *agent_chat_secret_store_new               (gboolean              use_keyring);
gboolean              agent_chat_secret_store_get_busy          (AgentChatSecretStore  *self);
const char           *agent_chat_secret_store_get_keyring_error (AgentChatSecretStore  *self);
gboolean              agent_chat_secret_store_peek              (AgentChatSecretStore  *self,
                                                                 const char            *provider,
                                                                 const char            *base_url,
                                                                 char                 **key,
                                                                 AgentChatKeySource    *source);
void                  agent_chat_secret_store_lookup_async      (AgentChatSecretStore  *self,
                                                                 const char            *provider,
                                                                 const char            *base_url,
                                                                 GCancellable          *cancellable,
                                                                 GAsyncReadyCallback    callback,
                                                                 gpointer               user_data);
char                 *agent_chat_secret_store_lookup_finish     (AgentChatSecretStore  *self,
                                                                 GAsyncResult          *result,
                                                                 AgentChatKeySource    *source,
                                                                 GError               **error);
void                  agent_chat_secret_store_flush             (AgentChatSecretStore  *self);
void                  agent_chat_secret_store_set_key           (AgentChatSecretStore  *self,
                                                                 const char            *provider,
                                                                 const char            *base_url,
                                                                 const char            *key);

G_END_DECLS
