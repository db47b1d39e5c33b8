/* agent-secret.c — API keys in the keyring (libsecret)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>

#include "agent-error.h"
#include "store/agent-secret.h"

/* One item per provider and base URL. */
static const SecretSchema api_key_schema = {
  AGENT_SECRET_SCHEMA_NAME, SECRET_SCHEMA_NONE,
  {
    { "provider", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "base-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* "https://api.openai.com/v1/" and "https://api.openai.com/v1" are one server */
static char *
normalize_base_url (const char *base_url)
{
  char *url = g_strdup (base_url);
  gsize len = strlen (url);

  while (len > 0 && url[len - 1] == '/')
    url[--len] = '\0';
  return url;
}

static GHashTable *
attributes_new (const char *provider,
                const char *base_url)
{
  GHashTable *attributes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_hash_table_insert (attributes, (gpointer) "provider", g_strdup (provider));
  g_hash_table_insert (attributes, (gpointer) "base-url", normalize_base_url (base_url));
  return attributes;
}

/* The keyring's error, said in words that name it (never the key). */
static GError *
keyring_error (GError     *error,
               const char *what)
{
  GError *wrapped;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  wrapped = g_error_new (AGENT_ERROR, AGENT_ERROR_STORAGE, "%s: %s", what, error->message);
  g_error_free (error);
  return wrapped;
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (secret_password_store_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, keyring_error (error, _("The API key could not be saved in the "
                                                      "keyring")));
}

/**
 * agent_secret_store_api_key_async:
 * @provider: the provider's name, as [ctor@Agent.Provider.new] takes it
 * @base_url: the server's base URL
 * @api_key: the key
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the key is saved
 * @user_data: data for @callback
 *
 * Saves an API key in the user's keyring (the Secret Service, for example
 * GNOME Keyring), under the schema %AGENT_SECRET_SCHEMA_NAME with the
 * attributes `provider` and `base-url`: one key per provider and server,
 * replacing the one saved before. Keys are never written anywhere else.
 *
 * Since: 0.1
 */
void
agent_secret_store_api_key_async (const char          *provider,
                                  const char          *base_url,
                                  const char          *api_key,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (base_url != NULL);
  g_return_if_fail (api_key != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_secret_store_api_key_async);

  attributes = attributes_new (provider, base_url);
  label = g_strdup_printf (_("API key for %s at %s"), provider,
                           (const char *) g_hash_table_lookup (attributes, "base-url"));
  secret_password_storev (&api_key_schema, attributes, SECRET_COLLECTION_DEFAULT, label, api_key,
                          cancellable, store_cb, g_steal_pointer (&task));
}

/**
 * agent_secret_store_api_key_finish:
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [func@Agent.secret_store_api_key_async].
 *
 * Returns: %TRUE if the key was saved, or %FALSE with @error set:
 *   %AGENT_ERROR_STORAGE when the keyring could not save it (no Secret
 *   Service running, a locked keyring the user did not unlock, …), or
 *   %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
gboolean
agent_secret_store_api_key_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_secret_store_api_key_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *secret;

  secret = secret_password_lookup_nonpageable_finish (result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, keyring_error (error, _("The API key could not be read from "
                                                        "the keyring")));
      return;
    }

  g_task_return_pointer (task, g_strdup (secret), g_free);
  secret_password_free (secret);
}

/**
 * agent_secret_lookup_api_key_async:
 * @provider: the provider's name
 * @base_url: the server's base URL
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the key
 * @user_data: data for @callback
 *
 * Looks up the API key saved with
 * [func@Agent.secret_store_api_key_async] for @provider and @base_url. The
 * keyring may ask the user to unlock it first.
 *
 * Since: 0.1
 */
void
agent_secret_lookup_api_key_async (const char          *provider,
                                   const char          *base_url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (base_url != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_secret_lookup_api_key_async);

  attributes = attributes_new (provider, base_url);
  secret_password_lookupv (&api_key_schema, attributes, cancellable, lookup_cb,
                           g_steal_pointer (&task));
}

/**
 * agent_secret_lookup_api_key_finish:
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [func@Agent.secret_lookup_api_key_async]. Give the key to
 * [method@Agent.Provider.set_api_key], and clear it from memory once done
 * with (it is a secret).
 *
 * Returns: (transfer full) (nullable): the key, to free with g_free(); %NULL
 *   without @error when none is saved for the provider and base URL, or
 *   %NULL with @error set: %AGENT_ERROR_STORAGE when the keyring could not be
 *   read, or %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
char *
agent_secret_lookup_api_key_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_secret_lookup_api_key_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gboolean removed;

  removed = secret_password_clear_finish (result, &error);
  if (error != NULL)
    g_task_return_error (task, keyring_error (error, _("The API key could not be removed from "
                                                      "the keyring")));
  else
    g_task_return_boolean (task, removed);
}

/**
 * agent_secret_clear_api_key_async:
 * @provider: the provider's name
 * @base_url: the server's base URL
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the key is removed
 * @user_data: data for @callback
 *
 * Removes the API key saved for @provider and @base_url.
 *
 * Since: 0.1
 */
void
agent_secret_clear_api_key_async (const char          *provider,
                                  const char          *base_url,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (base_url != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_secret_clear_api_key_async);

  attributes = attributes_new (provider, base_url);
  secret_password_clearv (&api_key_schema, attributes, cancellable, clear_cb,
                          g_steal_pointer (&task));
}

/**
 * agent_secret_clear_api_key_finish:
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [func@Agent.secret_clear_api_key_async].
 *
 * Returns: %TRUE if a key was removed; %FALSE without @error if none was
 *   saved, or %FALSE with @error set: %AGENT_ERROR_STORAGE when the keyring
 *   could not remove it, or %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
gboolean
agent_secret_clear_api_key_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_secret_clear_api_key_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
