/* agent-chat-secret-store.c
 *
 * Where the app's API keys live: in the keyring, through libagent's
 * AgentSecret code, so under the same schema and attributes as the keys
 * agent-cli saves (one per provider and base URL) — a key saved by either is
 * the other's too. Never in GSettings, a file or a log.
 *
 * Every keyring call is asynchronous. What the keyring answered is kept in
 * memory for the run, so a window finds a key at once after the first
 * look-up, and a key typed in Preferences is used at once. It is written
 * once typing rests (WRITE_DELAY_MS), never twice at the same time, the
 * last value last; the store is "busy" until it is, and the application
 * flushes the writes and waits for them before it quits.
 *
 * When there is no keyring (no Secret Service on the session bus, or a build
 * without -Dkeyring), keys typed in Preferences are kept in memory until the
 * app quits, and the store says why ("keyring-error"). A server without a
 * key of its own falls back on the provider's environment variable
 * (OPENAI_API_KEY, …), as the app did before the keyring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>
#include <glib/gi18n.h>

#include "agent-chat-secret-store.h"

#define WRITE_DELAY_MS 300

typedef struct
{
  char               *provider;
  char               *base_url;  /* without a trailing '/', as the keyring has it */
  char               *key;       /* NULL for none */
  AgentChatKeySource  source;    /* of key, when not NULL */
  GQueue              waiting;   /* look-ups (GTask) waiting for the keyring */
  guint               loaded : 1;
  guint               looking_up : 1;
  guint               dirty : 1;     /* to be written */
  guint               writing : 1;
} Entry;

struct _AgentChatSecretStore
{
  GObject       parent_instance;

  GHashTable   *entries;        /* "provider base-url" → Entry */
  char         *keyring_error;
  guint         write_timeout_id;
  guint         use_keyring : 1;
  guint         busy : 1;
};

G_DEFINE_FINAL_TYPE (AgentChatSecretStore, agent_chat_secret_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_KEYRING_ERROR,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Overwrites a key before freeing it, so it lingers less in memory. */
static void
secret_free (char *secret)
{
  if (secret != NULL)
    memset (secret, 0, strlen (secret));
  g_free (secret);
}

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_assert (g_queue_is_empty (&entry->waiting));
  g_free (entry->provider);
  g_free (entry->base_url);
  secret_free (entry->key);
  g_free (entry);
}

static char *
normalize_base_url (const char *base_url)
{
  gsize len = strlen (base_url);

  while (len > 0 && base_url[len - 1] == '/')
    len--;
  return g_strndup (base_url, len);
}

static Entry *
ensure_entry (AgentChatSecretStore *self,
              const char           *provider,
              const char           *base_url)
{
  g_autofree char *url = normalize_base_url (base_url);
  g_autofree char *id = g_strdup_printf ("%s %s", provider, url);
  Entry *entry = g_hash_table_lookup (self->entries, id);

  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      entry->provider = g_strdup (provider);
      entry->base_url = g_steal_pointer (&url);
      g_queue_init (&entry->waiting);
      g_hash_table_insert (self->entries, g_steal_pointer (&id), entry);
    }
  return entry;
}

/* The provider's key variable, when it is set to a key */
static const char *
environment_key (const char *provider)
{
  g_autoptr(AgentProvider) probe = agent_provider_new (provider, NULL);
  const char *variable = probe != NULL ? agent_provider_get_api_key_variable (probe) : NULL;
  const char *value = variable != NULL ? g_getenv (variable) : NULL;

  return value != NULL && *value != '\0' ? value : NULL;
}

/* The key to use for @entry, and where it comes from */
static char *
entry_dup_key (Entry              *entry,
               AgentChatKeySource *source)
{
  const char *fallback;

  if (entry->key != NULL)
    {
      *source = entry->source;
      return g_strdup (entry->key);
    }
  fallback = environment_key (entry->provider);
  *source = fallback != NULL ? AGENT_CHAT_KEY_SOURCE_ENVIRONMENT : AGENT_CHAT_KEY_SOURCE_NONE;
  return g_strdup (fallback);
}

static void
set_keyring_error (AgentChatSecretStore *self,
                   const char           *message)
{
  if (g_strcmp0 (message, self->keyring_error) == 0)
    return;
  g_free (self->keyring_error);
  self->keyring_error = g_strdup (message);
  if (message != NULL)
    g_debug ("No keyring: %s", message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEYRING_ERROR]);
}

static void
update_busy (AgentChatSecretStore *self)
{
  GHashTableIter iter;
  Entry *entry;
  gboolean busy = FALSE;

  g_hash_table_iter_init (&iter, self->entries);
  while (!busy && g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    busy = entry->dirty || entry->writing;
  if (busy != self->busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
changed (AgentChatSecretStore *self,
         Entry                *entry)
{
  g_signal_emit (self, signals[CHANGED], 0, entry->provider, entry->base_url);
}

/* Answers the look-ups waiting for @entry */
static void
answer_waiting (Entry *entry)
{
  GTask *task;

  while ((task = g_queue_pop_head (&entry->waiting)) != NULL)
    {
      AgentChatKeySource source;
      char *key;

      if (g_task_return_error_if_cancelled (task))
        {
          g_object_unref (task);
          continue;
        }
      key = entry_dup_key (entry, &source);
      g_task_set_task_data (task, GINT_TO_POINTER (source), NULL);
      g_task_return_pointer (task, key, (GDestroyNotify) secret_free);
      g_object_unref (task);
    }
}

#if AGENT_HAS_KEYRING

/* A keyring call under way: holds the store */
typedef struct
{
  AgentChatSecretStore *self;
  Entry                *entry;
} Call;

static Call *
call_new (AgentChatSecretStore *self,
          Entry                *entry)
{
  Call *call = g_new (Call, 1);

  call->self = g_object_ref (self);
  call->entry = entry;
  return call;
}

static void
call_free (Call *call)
{
  g_object_unref (call->self);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  AgentChatSecretStore *self = call->self;
  Entry *entry = call->entry;
  g_autoptr(GError) error = NULL;
  char *key = agent_secret_lookup_api_key_finish (result, &error);

  entry->looking_up = FALSE;
  /* A key typed meanwhile is newer than the keyring's answer */
  if (!entry->loaded)
    {
      entry->loaded = TRUE;
      entry->key = key;
      entry->source = AGENT_CHAT_KEY_SOURCE_KEYRING;
      set_keyring_error (self, error != NULL ? error->message : NULL);
      key = NULL;
    }
  secret_free (key);
  answer_waiting (entry);
  changed (self, entry);
}

static void start_write (AgentChatSecretStore *self,
                         Entry                *entry);

static void
write_done (Call         *call,
            gboolean      ok,
            const GError *error)
{
  AgentChatSecretStore *self = call->self;
  Entry *entry = call->entry;

  entry->writing = FALSE;
  if (entry->key != NULL)
    entry->source = ok ? AGENT_CHAT_KEY_SOURCE_KEYRING : AGENT_CHAT_KEY_SOURCE_SESSION;
  set_keyring_error (self, ok ? NULL : error->message);

  /* Typed again while it was written, and typing rests */
  if (entry->dirty && self->write_timeout_id == 0)
    start_write (self, entry);
  update_busy (self);
  changed (self, entry);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = agent_secret_store_api_key_finish (result, &error);

  write_done (call, ok, error);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  g_autoptr(GError) error = NULL;

  agent_secret_clear_api_key_finish (result, &error);
  write_done (call, error == NULL, error);
}

/* Writes the entry's key (or removes it) in the keyring; a write is never
 * cancelled: the key typed last must get there. */
static void
start_write (AgentChatSecretStore *self,
             Entry                *entry)
{
  entry->dirty = FALSE;
  entry->writing = TRUE;
  if (entry->key != NULL)
    agent_secret_store_api_key_async (entry->provider, entry->base_url, entry->key, NULL,
                                      store_cb, call_new (self, entry));
  else
    agent_secret_clear_api_key_async (entry->provider, entry->base_url, NULL,
                                      clear_cb, call_new (self, entry));
}

static gboolean
write_dirty (gpointer user_data)
{
  AgentChatSecretStore *self = user_data;
  GHashTableIter iter;
  Entry *entry;

  self->write_timeout_id = 0;
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->dirty && !entry->writing)
      start_write (self, entry);
  return G_SOURCE_REMOVE;
}

#endif

/**
 * agent_chat_secret_store_flush:
 * @self: a #AgentChatSecretStore
 *
 * Starts writing the keys typed, without waiting for typing to rest;
 * #AgentChatSecretStore:busy turns %FALSE once they are written.
 */
void
agent_chat_secret_store_flush (AgentChatSecretStore *self)
{
  g_return_if_fail (AGENT_CHAT_IS_SECRET_STORE (self));

#if AGENT_HAS_KEYRING
  if (self->write_timeout_id != 0)
    {
      g_clear_handle_id (&self->write_timeout_id, g_source_remove);
      write_dirty (self);
    }
#endif
}

/**
 * agent_chat_secret_store_peek:
 * @self: a #AgentChatSecretStore
 * @provider: a provider name, such as "openai"
 * @base_url: the server's base URL (never empty: the provider's own when
 *   no other is set)
 * @key: (out) (transfer full) (nullable): the key to use, if any
 * @source: (out): where it comes from
 *
 * The key of a server, when the keyring has already been asked.
 *
 * Returns: %TRUE if the key is known, %FALSE if it must be looked up
 */
gboolean
agent_chat_secret_store_peek (AgentChatSecretStore  *self,
                              const char            *provider,
                              const char            *base_url,
                              char                 **key,
                              AgentChatKeySource    *source)
{
  Entry *entry;

  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (self), FALSE);
  g_return_val_if_fail (provider != NULL && base_url != NULL, FALSE);
  g_return_val_if_fail (key != NULL && source != NULL, FALSE);

  entry = ensure_entry (self, provider, base_url);
  if (!self->use_keyring)
    entry->loaded = TRUE;
  if (!entry->loaded)
    return FALSE;
  *key = entry_dup_key (entry, source);
  return TRUE;
}

/**
 * agent_chat_secret_store_lookup_async:
 * @self: a #AgentChatSecretStore
 * @provider: a provider name
 * @base_url: the server's base URL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the key
 * @user_data: data for @callback
 *
 * Looks up the key of a server: in the keyring the first time (which may
 * ask the user to unlock it), from memory afterwards.
 */
void
agent_chat_secret_store_lookup_async (AgentChatSecretStore *self,
                                      const char           *provider,
                                      const char           *base_url,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  Entry *entry;

  g_return_if_fail (AGENT_CHAT_IS_SECRET_STORE (self));
  g_return_if_fail (provider != NULL && base_url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_chat_secret_store_lookup_async);

  entry = ensure_entry (self, provider, base_url);
  if (!self->use_keyring)
    entry->loaded = TRUE;
  g_queue_push_tail (&entry->waiting, g_steal_pointer (&task));
  if (entry->loaded)
    {
      answer_waiting (entry);
      return;
    }
#if AGENT_HAS_KEYRING
  if (!entry->looking_up)
    {
      entry->looking_up = TRUE;
      agent_secret_lookup_api_key_async (entry->provider, entry->base_url, NULL, lookup_cb,
                                         call_new (self, entry));
    }
#endif
}

/**
 * agent_chat_secret_store_lookup_finish:
 * @self: a #AgentChatSecretStore
 * @result: the #GAsyncResult given to the callback
 * @source: (out): where the key comes from
 * @error: return location for a #GError: cancellation only (a keyring that
 *   cannot be reached is no error: the key is not there, and
 *   #AgentChatSecretStore:keyring-error says why)
 *
 * Returns: (transfer full) (nullable): the key to use, or %NULL for none
 */
char *
agent_chat_secret_store_lookup_finish (AgentChatSecretStore  *self,
                                       GAsyncResult          *result,
                                       AgentChatKeySource    *source,
                                       GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_chat_secret_store_lookup_async, NULL);

  *source = GPOINTER_TO_INT (g_task_get_task_data (G_TASK (result)));
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_chat_secret_store_set_key:
 * @self: a #AgentChatSecretStore
 * @provider: a provider name
 * @base_url: the server's base URL
 * @key: (nullable): the API key, or %NULL or "" to forget it
 *
 * Sets the key of a server: used at once, and written to the keyring (or
 * removed from it) in the background, once typing rests.
 */
void
agent_chat_secret_store_set_key (AgentChatSecretStore *self,
                                 const char           *provider,
                                 const char           *base_url,
                                 const char           *key)
{
  Entry *entry;

  g_return_if_fail (AGENT_CHAT_IS_SECRET_STORE (self));
  g_return_if_fail (provider != NULL && base_url != NULL);

  entry = ensure_entry (self, provider, base_url);
  if (g_strcmp0 (entry->key, key != NULL && *key != '\0' ? key : NULL) == 0 && entry->loaded)
    return;
  secret_free (entry->key);
  entry->key = key != NULL && *key != '\0' ? g_strdup (key) : NULL;
  entry->loaded = TRUE;
  entry->source = self->use_keyring && self->keyring_error == NULL
                  ? AGENT_CHAT_KEY_SOURCE_KEYRING : AGENT_CHAT_KEY_SOURCE_SESSION;
  answer_waiting (entry);

#if AGENT_HAS_KEYRING
  if (self->use_keyring)
    {
      entry->dirty = TRUE;
      g_clear_handle_id (&self->write_timeout_id, g_source_remove);
      self->write_timeout_id = g_timeout_add (WRITE_DELAY_MS, write_dirty, self);
      update_busy (self);
    }
#endif
  changed (self, entry);
}

/**
 * agent_chat_secret_store_get_busy:
 * @self: a #AgentChatSecretStore
 *
 * Returns: whether keys are to be written, or being written, to the keyring
 */
gboolean
agent_chat_secret_store_get_busy (AgentChatSecretStore *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (self), FALSE);
  return self->busy;
}

/**
 * agent_chat_secret_store_get_keyring_error:
 * @self: a #AgentChatSecretStore
 *
 * Returns: (nullable): why the keyring could not be used the last time it
 *   was asked, or %NULL when it could
 */
const char *
agent_chat_secret_store_get_keyring_error (AgentChatSecretStore *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (self), NULL);
  return self->keyring_error;
}

static void
agent_chat_secret_store_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  AgentChatSecretStore *self = AGENT_CHAT_SECRET_STORE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, agent_chat_secret_store_get_busy (self));
      break;

    case PROP_KEYRING_ERROR:
      g_value_set_string (value, self->keyring_error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_secret_store_finalize (GObject *object)
{
  AgentChatSecretStore *self = AGENT_CHAT_SECRET_STORE (object);

  g_clear_handle_id (&self->write_timeout_id, g_source_remove);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->keyring_error, g_free);

  G_OBJECT_CLASS (agent_chat_secret_store_parent_class)->finalize (object);
}

static void
agent_chat_secret_store_class_init (AgentChatSecretStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = agent_chat_secret_store_get_property;
  object_class->finalize = agent_chat_secret_store_finalize;

  /**
   * AgentChatSecretStore:busy:
   *
   * Whether keys are to be written, or being written, to the keyring.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatSecretStore:keyring-error:
   *
   * Why the keyring could not be used, the last time it was asked; %NULL
   * when it could.
   */
  properties[PROP_KEYRING_ERROR] =
    g_param_spec_string ("keyring-error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentChatSecretStore::changed:
   * @self: a #AgentChatSecretStore
   * @provider: the provider's name
   * @base_url: the server's base URL
   *
   * The key of a server, or where it is kept, changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
agent_chat_secret_store_init (AgentChatSecretStore *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
}

/**
 * agent_chat_secret_store_new:
 * @use_keyring: whether to keep keys in the keyring; %FALSE keeps them for
 *   this run only (a window of its own, in the tests)
 *
 * Returns: (transfer full): a new #AgentChatSecretStore
 */
AgentChatSecretStore *
agent_chat_secret_store_new (gboolean use_keyring)
{
  AgentChatSecretStore *self = g_object_new (AGENT_CHAT_TYPE_SECRET_STORE, NULL);

#if AGENT_HAS_KEYRING
  self->use_keyring = !!use_keyring;
#else
  self->use_keyring = FALSE;
  if (use_keyring)
    self->keyring_error = g_strdup (_("This build of Agent Chat keeps no keys in a keyring"));
#endif
  return self;
}
