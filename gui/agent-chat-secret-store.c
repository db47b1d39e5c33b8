/* agent-chat-secret-store.c
 *
 * Where API keys live. Until the keyring store exists, keys are kept in
 * memory for the run only: never in GSettings, never in a file. A key
 * missing from the store falls back to the provider's environment variable
 * (OPENAI_API_KEY, …), read once, as the command-line client does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-chat-secret-store.h"

G_DEFINE_INTERFACE (AgentChatSecretStore, agent_chat_secret_store, G_TYPE_OBJECT)

static void
agent_chat_secret_store_default_init (AgentChatSecretStoreInterface *iface)
{
}

/**
 * agent_chat_secret_store_lookup:
 * @self: a #AgentChatSecretStore
 * @provider: a provider name, such as "openai"
 *
 * Returns: (transfer full) (nullable): the API key for @provider
 */
char *
agent_chat_secret_store_lookup (AgentChatSecretStore *self,
                                const char           *provider)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (self), NULL);
  g_return_val_if_fail (provider != NULL, NULL);

  return AGENT_CHAT_SECRET_STORE_GET_IFACE (self)->lookup (self, provider);
}

/**
 * agent_chat_secret_store_store:
 * @self: a #AgentChatSecretStore
 * @provider: a provider name
 * @secret: (nullable): the API key, or %NULL to forget it
 */
void
agent_chat_secret_store_store (AgentChatSecretStore *self,
                               const char           *provider,
                               const char           *secret)
{
  g_return_if_fail (AGENT_CHAT_IS_SECRET_STORE (self));
  g_return_if_fail (provider != NULL);

  AGENT_CHAT_SECRET_STORE_GET_IFACE (self)->store (self, provider, secret);
}

struct _AgentChatMemorySecretStore
{
  GObject     parent_instance;
  GHashTable *secrets;  /* provider name → key; a "" key means "none" */
};

static void secret_store_iface_init (AgentChatSecretStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentChatMemorySecretStore, agent_chat_memory_secret_store,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AGENT_CHAT_TYPE_SECRET_STORE,
                                                      secret_store_iface_init))

/* Overwrites a key before freeing it, so it lingers less in memory. */
static void
secret_free (gpointer data)
{
  char *secret = data;

  if (secret != NULL)
    memset (secret, 0, strlen (secret));
  g_free (secret);
}

static const char *
environment_variable (const char *provider)
{
  g_autoptr(AgentProvider) probe = agent_provider_new (provider, NULL);

  if (probe == NULL)
    return NULL;
  /* The variable names are static strings of the backends. */
  return g_intern_string (agent_provider_get_api_key_variable (probe));
}

static char *
memory_lookup (AgentChatSecretStore *store,
               const char           *provider)
{
  AgentChatMemorySecretStore *self = AGENT_CHAT_MEMORY_SECRET_STORE (store);
  const char *secret = g_hash_table_lookup (self->secrets, provider);

  if (secret == NULL)
    {
      const char *variable = environment_variable (provider);

      secret = variable != NULL ? g_getenv (variable) : NULL;
    }
  if (secret == NULL || secret[0] == '\0')
    return NULL;
  return g_strdup (secret);
}

static void
memory_store (AgentChatSecretStore *store,
              const char           *provider,
              const char           *secret)
{
  AgentChatMemorySecretStore *self = AGENT_CHAT_MEMORY_SECRET_STORE (store);

  g_hash_table_replace (self->secrets, g_strdup (provider), g_strdup (secret ? secret : ""));
}

static void
secret_store_iface_init (AgentChatSecretStoreInterface *iface)
{
  iface->lookup = memory_lookup;
  iface->store = memory_store;
}

static void
agent_chat_memory_secret_store_finalize (GObject *object)
{
  AgentChatMemorySecretStore *self = AGENT_CHAT_MEMORY_SECRET_STORE (object);

  g_clear_pointer (&self->secrets, g_hash_table_unref);

  G_OBJECT_CLASS (agent_chat_memory_secret_store_parent_class)->finalize (object);
}

static void
agent_chat_memory_secret_store_class_init (AgentChatMemorySecretStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_chat_memory_secret_store_finalize;
}

static void
agent_chat_memory_secret_store_init (AgentChatMemorySecretStore *self)
{
  self->secrets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, secret_free);
}

/**
 * agent_chat_memory_secret_store_new:
 *
 * Returns: (transfer full): a store that keeps keys for this run only
 */
AgentChatSecretStore *
agent_chat_memory_secret_store_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_MEMORY_SECRET_STORE, NULL);
}
