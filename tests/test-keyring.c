/* test-keyring.c — API keys in a real keyring (gnome-keyring-daemon on a
 * private session bus), through the library and through agent-cli
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "agent-test-keyring.h"
#if AGENT_HAS_STORE
# include "test-store-util.h"
#endif

#define KEY "sk-from-the-keyring-7f3a"

static AgentTestKeyring service;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static void
store_key (const char *provider,
           const char *base_url,
           const char *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  agent_secret_store_api_key_async (provider, base_url, key, NULL, done_cb, &result);
  g_assert_true (agent_secret_store_api_key_finish (wait_result (&result), &error));
  g_assert_no_error (error);
}

static char *
lookup_key (const char *provider,
            const char *base_url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *key;

  agent_secret_lookup_api_key_async (provider, base_url, NULL, done_cb, &result);
  key = agent_secret_lookup_api_key_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  return key;
}

static gboolean
clear_key (const char *provider,
           const char *base_url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean removed;

  agent_secret_clear_api_key_async (provider, base_url, NULL, done_cb, &result);
  removed = agent_secret_clear_api_key_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  return removed;
}

/* The labels of the keyring's items under the schema, asked over D-Bus
 * (the Secret Service API itself, not libsecret) */
static GPtrArray *
labels_of_schema (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariantIter) unlocked = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder attributes;
  const char *path;

  g_variant_builder_init (&attributes, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&attributes, "{ss}", "xdg:schema", AGENT_SECRET_SCHEMA_NAME);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "SearchItems",
                                       g_variant_new ("(a{ss})", &attributes),
                                       G_VARIANT_TYPE ("(aoao)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(aoao)", &unlocked, NULL);
  while (g_variant_iter_next (unlocked, "&o", &path))
    {
      g_autoptr(GVariant) label = NULL;
      g_autoptr(GVariant) value = NULL;

      label = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", path,
                                           "org.freedesktop.DBus.Properties", "Get",
                                           g_variant_new ("(ss)", "org.freedesktop.Secret.Item",
                                                          "Label"),
                                           G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                           NULL, &error);
      g_assert_no_error (error);
      g_variant_get (label, "(v)", &value);
      g_ptr_array_add (labels, g_variant_dup_string (value, NULL));
    }
  return g_steal_pointer (&labels);
}

/* One key per provider and base URL, replaced, removed */
static void
test_store_lookup_clear (void)
{
  g_autofree char *none = NULL;
  g_autofree char *found = NULL;
  g_autofree char *other_provider = NULL;
  g_autofree char *other_url = NULL;
  g_autofree char *replaced = NULL;
  g_autofree char *gone = NULL;
  g_autoptr(GPtrArray) labels = NULL;

  none = lookup_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_null (none);

  store_key ("openai", "http://127.0.0.1:9/v1/", "sk-first");
  found = lookup_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_cmpstr (found, ==, "sk-first");
  other_provider = lookup_key ("anthropic", "http://127.0.0.1:9/v1");
  g_assert_null (other_provider);
  other_url = lookup_key ("openai", "http://127.0.0.1:10/v1");
  g_assert_null (other_url);

  store_key ("openai", "http://127.0.0.1:9/v1", "sk-second");
  replaced = lookup_key ("openai", "http://127.0.0.1:9/v1/");
  g_assert_cmpstr (replaced, ==, "sk-second");

  /* In the keyring, under the schema, with its attributes */
  labels = labels_of_schema ();
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "API key for openai at http://127.0.0.1:9/v1");

  g_assert_true (clear_key ("openai", "http://127.0.0.1:9/v1"));
  gone = lookup_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_null (gone);
  g_assert_false (clear_key ("openai", "http://127.0.0.1:9/v1"));
}

static void
assert_no_key_in_output (AgentTestProcess *cli)
{
  g_assert_null (strstr (cli->out->str, KEY));
  g_assert_null (strstr (cli->err->str, KEY));
}

/* agent-cli saves a key, uses it when the variable is not set (and only
 * then), and forgets it */
static void
test_cli (void)
{
  static const char * const hello[] = { "Hello.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  const char *url = agent_test_server_get_base_url (server);
  g_autoptr(AgentTestProcess) set = NULL;
  g_autoptr(AgentTestProcess) chat = NULL;
  g_autoptr(AgentTestProcess) empty = NULL;
  g_autoptr(AgentTestProcess) forget = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *bearer = g_strconcat ("Bearer ", KEY, NULL);
  g_autofree char *gone = NULL;
#if AGENT_HAS_STORE
  TestStore db = { 0 };

  test_store_open (&db);
  g_clear_object (&db.store);
#endif

  set = agent_test_cli_run_full (NULL, KEY "\n",
                                 AGENT_TEST_ARGS ("--base-url", url, "--set-api-key"));
  agent_test_process_assert_exit (set, 0);
  assert_no_key_in_output (set);
  saved = lookup_key ("openai", url);
  g_assert_cmpstr (saved, ==, KEY);

  agent_test_openai_add_text_response (server, hello, 1, 1);
  agent_test_openai_add_text_response (server, hello, 1, 1);
  chat = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY"), NULL,
#if AGENT_HAS_STORE
                                  AGENT_TEST_ARGS ("--json", "--store", db.path, "--base-url",
                                                   url, "Hi")
#else
                                  AGENT_TEST_ARGS ("--json", "--base-url", url, "Hi")
#endif
                                  );
  agent_test_process_assert_exit (chat, 0);
  assert_no_key_in_output (chat);
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Authorization"), ==, bearer);
#if AGENT_HAS_STORE
  g_assert_false (test_store_file_contains (db.path, KEY));
  test_store_close (&db);
#endif

  /* A variable set, even empty, is the user's choice: no keyring */
  empty = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY="), NULL,
                                   AGENT_TEST_ARGS ("--no-store", "--base-url", url, "Hi"));
  agent_test_process_assert_exit (empty, 0);
  g_assert_null (agent_test_server_get_request_header (server, 1, "Authorization"));

  forget = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", url, "--forget-api-key"));
  agent_test_process_assert_exit (forget, 0);
  gone = lookup_key ("openai", url);
  g_assert_null (gone);
}

static AgentProvider *
provider_of (AgentProfile  *profile,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_profile_create_provider_async (profile, cancellable, done_cb, &result);
  return agent_profile_create_provider_finish (profile, wait_result (&result), error);
}

/* The Authorization the server saw of a turn of @provider's */
static char *
authorization_of (AgentTestServer *server,
                  AgentProvider   *provider)
{
  static const char * const hello[] = { "Hello.", NULL };
  g_autoptr(AgentSession) session = agent_session_new (provider);
  AgentTestTurn turn = { 0 };
  guint index = agent_test_server_get_n_requests (server);

  agent_test_openai_add_text_response (server, hello, 1, 1);
  agent_test_turn_run (&turn, session, "Hi", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);
  g_assert_cmpstr (agent_test_server_get_request_path (server, index), ==,
                   "/v1/chat/completions");
  g_assert_cmpstr (json_object_get_string_member (
                     json_node_get_object (agent_test_server_get_request_body (server, index)),
                     "model"), ==, "keyring-model");
  return g_strdup (agent_test_server_get_request_header (server, index, "Authorization"));
}

/* A profile's provider takes its key from the keyring, by the profile's
 * provider and base URL, before the variable's; create_provider() from
 * the variable only */
static void
test_profile (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  const char *url = agent_test_server_get_base_url (server);
  g_autoptr(AgentProfile) profile = agent_profile_new ("Keyring", "openai");
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *bearer = g_strconcat ("Bearer ", KEY, NULL);
  g_autofree char *seen = NULL;

  agent_profile_set_base_url (profile, url);
  agent_profile_set_model (profile, "keyring-model");

  /* No key anywhere: none */
  g_unsetenv ("OPENAI_API_KEY");
  provider = provider_of (profile, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (agent_provider_get_has_api_key (provider));
  g_clear_object (&provider);

  /* The variable's, while the keyring has none */
  g_setenv ("OPENAI_API_KEY", "sk-variable", TRUE);
  provider = provider_of (profile, NULL, &error);
  g_assert_no_error (error);
  seen = authorization_of (server, provider);
  g_assert_cmpstr (seen, ==, "Bearer sk-variable");
  g_clear_pointer (&seen, g_free);
  g_clear_object (&provider);

  /* The keyring's first */
  store_key ("openai", url, KEY);
  provider = provider_of (profile, NULL, &error);
  g_assert_no_error (error);
  seen = authorization_of (server, provider);
  g_assert_cmpstr (seen, ==, bearer);
  g_clear_pointer (&seen, g_free);
  g_clear_object (&provider);

  /* create_provider(): the variable's only */
  provider = agent_profile_create_provider (profile, &error);
  g_assert_no_error (error);
  seen = authorization_of (server, provider);
  g_assert_cmpstr (seen, ==, "Bearer sk-variable");
  g_clear_object (&provider);

  /* Cancelled: no provider */
  g_cancellable_cancel (cancelled);
  g_assert_null (provider_of (profile, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_unsetenv ("OPENAI_API_KEY");
  g_assert_true (clear_key ("openai", url));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  agent_test_keyring_start (&service);

  g_test_add_func ("/secret/store-lookup-clear", test_store_lookup_clear);
  g_test_add_func ("/secret/cli", test_cli);
  g_test_add_func ("/secret/profile", test_profile);

  status = g_test_run ();
  agent_test_keyring_stop (&service);
  return status;
}
