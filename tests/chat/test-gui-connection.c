/* test-gui-connection.c
 *
 * The server a window talks to and its key: AgentChatConnection (the
 * settings with the command line's options in their place), the subtitle,
 * Preferences, and AgentChatSecretStore.
 *
 * Run twice (tests/chat/meson.build): on the GUI tests' session bus, where
 * nothing provides a keyring; and with AGENT_TEST_KEYRING=1, against a real
 * gnome-keyring-daemon on a bus of its own (tests/agent-test-keyring.c),
 * where the keys must land under libagent's schema, as agent-cli's do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>

#include "agent-chat-connection.h"
#include "agent-chat-preferences.h"
#include "agent-chat-profiles.h"
#include "agent-chat-secret-store.h"
#include "agent-chat-window.h"
#include "agent-test-chat.h"
#include "agent-test-server.h"
#include "agent-test-util.h"
#if AGENT_HAS_KEYRING
# include "agent-test-keyring.h"
#endif

#define MODELS "{\"object\":\"list\",\"data\":[{\"id\":\"listed-model\",\"object\":\"model\"}]}"

static GSettings *
reset_settings (void)
{
  GSettings *settings = g_settings_new ("io.github.libagent.Chat");

  g_settings_reset (settings, "provider");
  g_settings_reset (settings, "base-url");
  g_settings_reset (settings, "model");
  g_settings_set_int64 (settings, "last-conversation", 0);
  return settings;
}

/* The connection */

/* Empty settings: the provider's own URL and model */
static void
test_connection_defaults (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatConnection) connection = agent_chat_connection_new (settings, NULL, NULL,
                                                                        NULL);
  g_autofree char *subtitle = NULL;

  g_assert_cmpstr (agent_chat_connection_get_provider (connection), ==, "openai");
  g_assert_cmpstr (agent_chat_connection_get_base_url (connection), ==,
                   "https://api.openai.com/v1");
  g_assert_cmpstr (agent_chat_connection_get_model (connection), ==, "gpt-4o-mini");
  g_assert_false (agent_chat_connection_get_from_command_line (connection));
  subtitle = agent_chat_connection_dup_subtitle (connection);
  g_assert_cmpstr (subtitle, ==, "gpt-4o-mini · api.openai.com");

  /* Another provider: its own URL and model */
  g_settings_set_string (settings, "provider", "anthropic");
  g_assert_cmpstr (agent_chat_connection_get_base_url (connection), ==,
                   "https://api.anthropic.com");
  g_assert_cmpstr (agent_chat_connection_get_model (connection), ==, "claude-sonnet-4-5");
}

/* The command line's options stand in for the settings, for their window
 * only; a value set (from Preferences) is saved and ends the option */
static void
test_connection_overrides (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatConnection) given = NULL;
  g_autoptr(AgentChatConnection) other = NULL;
  g_autofree char *saved = NULL;
  guint base_url_notified = 0;
  guint model_notified = 0;

  g_settings_set_string (settings, "base-url", "http://127.0.0.1:9/v1");
  g_settings_set_string (settings, "model", "settings-model");
  given = agent_chat_connection_new (settings, "ollama", "http://127.0.0.1:11434", "given-model");
  other = agent_chat_connection_new (settings, NULL, "http://127.0.0.1:10/v1", NULL);
  g_signal_connect (given, "notify::base-url", G_CALLBACK (agent_test_count_notify), &base_url_notified);
  g_signal_connect (given, "notify::model", G_CALLBACK (agent_test_count_notify), &model_notified);

  g_assert_cmpstr (agent_chat_connection_get_provider (given), ==, "ollama");
  g_assert_cmpstr (agent_chat_connection_get_base_url (given), ==, "http://127.0.0.1:11434");
  g_assert_cmpstr (agent_chat_connection_get_model (given), ==, "given-model");
  g_assert_true (agent_chat_connection_get_from_command_line (given));
  g_assert_false (agent_chat_connection_equal (given, other));

  /* The settings change under an option: the option stays */
  g_settings_set_string (settings, "model", "new-settings-model");
  g_assert_cmpstr (agent_chat_connection_get_model (given), ==, "given-model");
  g_assert_cmpuint (model_notified, ==, 0);
  g_assert_cmpstr (agent_chat_connection_get_model (other), ==, "new-settings-model");

  /* Set from Preferences: saved, and the option ends for this window */
  g_assert_true (agent_chat_connection_set_base_url (given, "http://127.0.0.1:12/v1", NULL));
  saved = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (saved, ==, "http://127.0.0.1:12/v1");
  g_assert_cmpstr (agent_chat_connection_get_base_url (given), ==, "http://127.0.0.1:12/v1");
  g_assert_cmpuint (base_url_notified, ==, 1);
  g_assert_true (agent_chat_connection_get_from_command_line (given));  /* the others stay */
  /* The other window keeps its own option */
  g_assert_cmpstr (agent_chat_connection_get_base_url (other), ==, "http://127.0.0.1:10/v1");

  agent_chat_connection_set_provider (given, "openai");
  agent_chat_connection_set_model (given, NULL);
  g_assert_false (agent_chat_connection_get_from_command_line (given));
  /* The model setting is empty now: the provider's default */
  g_assert_cmpstr (agent_chat_connection_get_model (given), ==, "gpt-4o-mini");
  g_assert_cmpstr (agent_chat_connection_get_model (other), ==, "gpt-4o-mini");

  /* The provider's own URL is saved as "", which follows the provider */
  g_assert_true (agent_chat_connection_set_base_url (given, "https://api.openai.com/v1", NULL));
  g_clear_pointer (&saved, g_free);
  saved = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (saved, ==, "");
  agent_chat_connection_set_provider (given, "gemini");
  g_assert_cmpstr (agent_chat_connection_get_base_url (given), ==,
                   "https://generativelanguage.googleapis.com");
}

static void
test_connection_subtitle (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatConnection) demo = NULL;
  g_autoptr(AgentChatConnection) local = NULL;
  g_autoptr(AgentChatConnection) v6 = NULL;
  g_autofree char *demo_subtitle = NULL;
  g_autofree char *local_subtitle = NULL;
  g_autofree char *v6_host = NULL;

  /* agent-demo-server, as ./run starts the app with it */
  demo = agent_chat_connection_new (settings, "openai", "http://127.0.0.1:39443/v1", "demo");
  g_assert_true (agent_chat_connection_is_demo (demo));
  demo_subtitle = agent_chat_connection_dup_subtitle (demo);
  g_assert_cmpstr (demo_subtitle, ==, "Demo server · 127.0.0.1:39443");

  /* Another model on a local server is no demo */
  local = agent_chat_connection_new (settings, "ollama", "http://localhost:11434", "llama3.2");
  g_assert_false (agent_chat_connection_is_demo (local));
  local_subtitle = agent_chat_connection_dup_subtitle (local);
  g_assert_cmpstr (local_subtitle, ==, "llama3.2 · localhost:11434");

  v6 = agent_chat_connection_new (settings, "openai", "http://[::1]:8080/v1", "m");
  v6_host = agent_chat_connection_dup_host (v6);
  g_assert_cmpstr (v6_host, ==, "[::1]:8080");
}

/* A profile's name from its server: the host and port, which a profile
 * list takes (no brackets, even for an IPv6 host) */
static void
test_profile_names (void)
{
  g_autoptr(AgentProfileList) profiles = agent_profile_list_new ("/nonexistent/profiles.ini");
  g_autoptr(AgentProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ollama = agent_chat_profiles_name_for_server ("ollama", NULL);
  g_autofree char *local = agent_chat_profiles_name_for_server ("openai",
                                                                "http://127.0.0.1:11434/v1");
  g_autofree char *v6 = agent_chat_profiles_name_for_server ("openai", "http://[::1]:8080/v1");
  g_autofree char *plain = agent_chat_profiles_name_for_server ("openai", "https://example.com/v1");

  g_assert_cmpstr (ollama, ==, "Ollama");
  g_assert_cmpstr (local, ==, "127.0.0.1:11434");
  g_assert_cmpstr (plain, ==, "example.com");
  g_assert_cmpstr (v6, ==, "::1:8080");
  profile = agent_profile_new (v6, "openai");
  g_assert_true (agent_profile_list_add (profiles, profile, &error));
  g_assert_no_error (error);
}

/* A profile's request settings and context window are a window's defaults
 * (below a conversation's and Preferences', over the server's); a window
 * given another API on the command line leaves them out */
static void
test_window_profile_settings (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentProfileList) profiles = agent_profile_list_new ("/nonexistent/profiles.ini");
  g_autoptr(AgentProfile) lab = agent_profile_new ("Lab", "ollama");
  g_autoptr(AgentChatConnection) connection = NULL;
  g_autoptr(AgentChatConnection) other = NULL;
  AgentChatWindow *window = g_object_ref_sink (agent_chat_window_new (NULL));
  AgentRequestSettings *sent;
  AgentSession *session;
  g_autoptr(GError) error = NULL;

  agent_profile_set_base_url (lab, "http://127.0.0.1:7");
  agent_request_settings_set_temperature (agent_profile_get_settings (lab), 0.25);
  agent_request_settings_set_top_k (agent_profile_get_settings (lab), 20);
  agent_request_settings_set_seed (agent_profile_get_settings (lab), 7);
  agent_profile_set_context_window (lab, 4096);
  g_assert_true (agent_profile_list_add (profiles, lab, &error));
  g_assert_no_error (error);

  connection = agent_chat_connection_new_for_profile (settings, profiles, "Lab", NULL, NULL, NULL);
  agent_chat_window_set_connection (window, connection);
  session = agent_chat_window_get_session (window);
  g_assert_nonnull (session);
  sent = agent_provider_get_settings (agent_session_get_provider (session));
  g_assert_cmpstr (agent_provider_get_name (agent_session_get_provider (session)), ==, "ollama");
  g_assert_cmpfloat (agent_request_settings_get_temperature (sent), ==, 0.25);
  g_assert_cmpuint (agent_request_settings_get_top_k (sent), ==, 20);
  g_assert_cmpint (agent_request_settings_get_seed (sent), ==, 7);
  g_assert_false (agent_request_settings_is_set (sent, "top-p"));
  g_assert_cmpuint (agent_session_get_context_window (session), ==, 4096);

  /* The openai API has no top-k: a window given it leaves the profile's out */
  other = agent_chat_connection_new_for_profile (settings, profiles, "Lab", "openai", NULL, NULL);
  agent_chat_window_set_connection (window, other);
  session = agent_chat_window_get_session (window);
  sent = agent_provider_get_settings (agent_session_get_provider (session));
  g_assert_cmpstr (agent_provider_get_name (agent_session_get_provider (session)), ==, "openai");
  g_assert_false (agent_request_settings_is_set (sent, "temperature"));
  g_assert_false (agent_request_settings_is_set (sent, "top-k"));
  g_assert_false (agent_request_settings_is_set (sent, "seed"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

#if AGENT_HAS_STORE
/* A conversation follows its server's new name (else, opened again, it
 * would go to the default server); the others stay */
static void
test_profile_rename_in_store (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-rename");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  const char *profiles[] = { "Lab", "Cloud", NULL, "Lab" };
  gint64 ids[G_N_ELEMENTS (profiles)];
  g_autoptr(AgentStore) store = agent_store_new (path, NULL);
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (store);
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autoptr(AgentConversation) conversation = agent_store_create_conversation (store);
      g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hello");

      g_assert_true (agent_conversation_set_profile (conversation, profiles[i], &error));
      g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), question, &error));
      g_assert_no_error (error);
      flush_store (store);
      ids[i] = agent_conversation_get_id (conversation);
    }

  agent_chat_profiles_rename_in_store (store, "Lab", "Lab Box");
  flush_store (store);

  /* As written: another program reading the file sees it */
  again = agent_store_new (path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (again, ids[i]);
      const char *expected = g_strcmp0 (profiles[i], "Lab") == 0 ? "Lab Box" : profiles[i];

      g_assert_nonnull (conversation);
      g_assert_cmpstr (agent_conversation_get_profile (conversation), ==, expected);
    }
  g_clear_object (&again);
  g_clear_object (&store);
  agent_test_remove_dir (dir);
}
#endif

static void
test_connection_check_options (void)
{
  g_autoptr(GError) provider_error = NULL;
  g_autoptr(GError) desktop_error = NULL;
  g_autoptr(GError) url_error = NULL;
  g_autoptr(GError) relative_error = NULL;

  g_assert_true (agent_chat_connection_check_options ("anthropic", "https://example.com", NULL));
  g_assert_true (agent_chat_connection_check_options (NULL, NULL, NULL));

  g_assert_false (agent_chat_connection_check_options ("openia", NULL, &provider_error));
  agent_test_assert_contains (provider_error->message, "--provider");
  agent_test_assert_contains (provider_error->message, "“openia”");
  agent_test_assert_contains (provider_error->message, "openai");
  g_assert_null (strstr (provider_error->message, "desktop"));

  /* Not the desktop assistant's: agent-chat sets up the models it shares */
  g_assert_false (agent_chat_connection_check_options ("desktop", NULL, &desktop_error));
  agent_test_assert_contains (desktop_error->message, "desktop assistant");

  g_assert_false (agent_chat_connection_check_options (NULL, "ftp://example.com/v1",
                                                       &url_error));
  agent_test_assert_contains (url_error->message, "--base-url");
  agent_test_assert_contains (url_error->message, "“ftp://example.com/v1”");

  g_assert_false (agent_chat_connection_check_options (NULL, "localhost:8080",
                                                       &relative_error));
}

/* The window's subtitle follows its connection */
static void
test_window_subtitle (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatConnection) connection = NULL;
  AgentChatWindow *window = g_object_ref_sink (agent_chat_window_new (NULL));
  g_autoptr(GPtrArray) titles = NULL;
  AdwWindowTitle *title;

  connection = agent_chat_connection_new (settings, NULL, "http://127.0.0.1:7/v1", "given-model");
  agent_chat_window_set_connection (window, connection);
  g_assert_true (agent_chat_window_get_connection (window) == connection);
  titles = find_all (GTK_WIDGET (window), ADW_TYPE_WINDOW_TITLE);
  /* The content pane's title: the one with a subtitle */
  title = NULL;
  for (guint i = 0; i < titles->len; i++)
    if (*adw_window_title_get_subtitle (g_ptr_array_index (titles, i)) != '\0')
      title = g_ptr_array_index (titles, i);
  g_assert_nonnull (title);
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "given-model · 127.0.0.1:7");
  /* and the session uses it */
  g_assert_cmpstr (agent_provider_get_base_url (agent_session_get_provider (
                     agent_chat_window_get_session (window))), ==, "http://127.0.0.1:7/v1");

  agent_chat_connection_set_model (connection, "other-model");
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "other-model · 127.0.0.1:7");

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
}

/* Preferences */

static AdwEntryRow *
entry_row (GtkWidget  *preferences,
           const char *title)
{
  g_autoptr(GPtrArray) rows = find_all (preferences, ADW_TYPE_ENTRY_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), title) == 0)
      return g_ptr_array_index (rows, i);
  g_assert_not_reached ();
}

static const char *
row_text (GtkWidget  *preferences,
          const char *title)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry_row (preferences, title)));
}

/* The text of the labels of @widget, joined */
static char *
labels_text (GtkWidget *widget)
{
  g_autoptr(GPtrArray) labels = find_all (widget, GTK_TYPE_LABEL);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < labels->len; i++)
    g_string_append_printf (text, "%s\n", gtk_label_get_text (g_ptr_array_index (labels, i)));
  return g_string_free (text, FALSE);
}

static gboolean
labels_contain (gpointer data)
{
  GtkWidget *widget = ((gpointer *) data)[0];
  const char *needle = ((gpointer *) data)[1];
  g_autofree char *text = labels_text (widget);

  return strstr (text, needle) != NULL;
}

static void
wait_for_label (GtkWidget  *widget,
                const char *needle)
{
  gpointer data[] = { widget, (gpointer) needle };

  agent_test_wait_until (labels_contain, data);
}

static void
respond_models (AgentTestServer *server,
                const char      *path,
                JsonNode        *body,
                gpointer         user_data)
{
  if (g_str_has_suffix (path, "/models"))
    agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                  "application/json", MODELS);
}

static gboolean
models_asked (gpointer data)
{
  AgentTestServer *server = data;

  for (guint i = 0; i < agent_test_server_get_n_requests (server); i++)
    if (g_str_equal (agent_test_server_get_request_path (server, i), "/v1/models"))
      return TRUE;
  return FALSE;
}

static gboolean
store_idle (gpointer data)
{
  return !agent_chat_secret_store_get_busy (data);
}

/* Preferences show what the window uses, ask its server for the models, and
 * a change there is saved and ends the command line's option */
static void
test_preferences_connection (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentChatSecretStore) secrets = agent_chat_secret_store_new (FALSE);
  g_autoptr(AgentChatConnection) connection = NULL;
  GtkWidget *preferences;
  AdwPreferencesGroup *group;
  g_autofree char *saved = NULL;

  agent_test_server_set_responder (server, respond_models, NULL);
  g_settings_set_string (settings, "provider", "anthropic");
  g_settings_set_string (settings, "base-url", "http://127.0.0.1:9");
  connection = agent_chat_connection_new (settings, "openai",
                                          agent_test_server_get_base_url (server), "given-model");
  preferences = agent_chat_preferences_new (NULL, settings, secrets, connection, NULL);
  gtk_window_present (GTK_WINDOW (preferences));
  iterate ();

  g_assert_cmpstr (row_text (preferences, "Base URL"), ==, agent_test_server_get_base_url (server));
  g_assert_cmpstr (row_text (preferences, "Model"), ==, "given-model");
  {
    g_autoptr(GPtrArray) combos = find_all (preferences, ADW_TYPE_COMBO_ROW);
    AdwComboRow *provider = g_ptr_array_index (combos, 0);
    GtkStringObject *item = adw_combo_row_get_selected_item (provider);

    g_assert_cmpstr (gtk_string_object_get_string (item), ==, "OpenAI or Compatible");
  }
  group = ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (
    GTK_WIDGET (entry_row (preferences, "Base URL")), ADW_TYPE_PREFERENCES_GROUP));
  agent_test_assert_contains (adw_preferences_group_get_description (group), "command line");

  /* The model list is asked of the server in use */
  agent_test_wait_until (models_asked, server);
  wait_for_label (preferences, "listed-model");
  /* Opening wrote nothing */
  saved = g_settings_get_string (settings, "provider");
  g_assert_cmpstr (saved, ==, "anthropic");

  /* Edited: saved, the option ends, the note goes */
  gtk_editable_set_text (GTK_EDITABLE (entry_row (preferences, "Model")), "typed-model");
  g_clear_pointer (&saved, g_free);
  saved = g_settings_get_string (settings, "model");
  g_assert_cmpstr (saved, ==, "typed-model");
  g_assert_cmpstr (agent_chat_connection_get_model (connection), ==, "typed-model");
  gtk_editable_set_text (GTK_EDITABLE (entry_row (preferences, "Base URL")),
                         "http://127.0.0.1:11/v1");
  /* Saved once applied (Enter, its button), not while typed */
  g_assert_cmpstr (agent_chat_connection_get_base_url (connection), ==,
                   agent_test_server_get_base_url (server));
  g_signal_emit_by_name (entry_row (preferences, "Base URL"), "apply");
  g_assert_cmpstr (agent_chat_connection_get_base_url (connection), ==, "http://127.0.0.1:11/v1");
  {
    g_autoptr(GPtrArray) combos = find_all (preferences, ADW_TYPE_COMBO_ROW);

    adw_combo_row_set_selected (g_ptr_array_index (combos, 0), 2);  /* anthropic */
  }
  g_assert_cmpstr (agent_chat_connection_get_provider (connection), ==, "anthropic");
  g_assert_false (agent_chat_connection_get_from_command_line (connection));
  g_assert_true (adw_preferences_group_get_description (group) == NULL ||
                 *adw_preferences_group_get_description (group) == '\0');
  /* The URL stays what was typed */
  g_assert_cmpstr (row_text (preferences, "Base URL"), ==, "http://127.0.0.1:11/v1");

  gtk_window_destroy (GTK_WINDOW (preferences));
  iterate ();
  agent_test_wait_until (store_idle, secrets);
}

/* Keys without a keyring: kept for the run, and said so */

typedef struct
{
  char               *key;
  AgentChatKeySource  source;
  gboolean            done;
} Lookup;

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Lookup *lookup = user_data;
  g_autoptr(GError) error = NULL;

  lookup->key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object), result,
                                                       &lookup->source, &error);
  g_assert_no_error (error);
  lookup->done = TRUE;
}

static char *
lookup (AgentChatSecretStore *store,
        const char           *provider,
        const char           *base_url,
        AgentChatKeySource   *source)
{
  Lookup result = { 0 };

  agent_chat_secret_store_lookup_async (store, provider, base_url, NULL, lookup_cb, &result);
  agent_test_wait_for (&result.done);
  *source = result.source;
  return result.key;
}

static void
test_no_keyring (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatSecretStore) store = agent_chat_secret_store_new (TRUE);
  g_autoptr(AgentChatConnection) connection = NULL;
  g_autofree char *none = NULL;
  g_autofree char *peeked = NULL;
  g_autofree char *environment = NULL;
  AgentChatKeySource source;
  GtkWidget *preferences;

  none = lookup (store, "openai", "http://127.0.0.1:9/v1", &source);
  g_assert_null (none);
  g_assert_cmpint (source, ==, AGENT_CHAT_KEY_SOURCE_NONE);
  /* The bus has no Secret Service: the store says why */
  g_assert_nonnull (agent_chat_secret_store_get_keyring_error (store));

  connection = agent_chat_connection_new (settings, NULL, "http://127.0.0.1:9/v1", NULL);
  preferences = agent_chat_preferences_new (NULL, settings, store, connection, NULL);
  gtk_window_present (GTK_WINDOW (preferences));
  wait_for_label (preferences, "No keyring is available");

  /* Typed: used at once, kept for the run */
  gtk_editable_set_text (GTK_EDITABLE (entry_row (preferences, "API Key")), "sk-session");
  agent_test_wait_until (store_idle, store);
  g_assert_true (agent_chat_secret_store_peek (store, "openai", "http://127.0.0.1:9/v1/",
                                               &peeked, &source));
  g_assert_cmpstr (peeked, ==, "sk-session");
  g_assert_cmpint (source, ==, AGENT_CHAT_KEY_SOURCE_SESSION);
  wait_for_label (preferences, "kept only until Agent Chat quits");
  gtk_window_destroy (GTK_WINDOW (preferences));
  iterate ();

  /* A server without a key of its own: the provider's variable */
  g_setenv ("OPENAI_API_KEY", "sk-environment", TRUE);
  environment = lookup (store, "openai", "http://127.0.0.1:10/v1", &source);
  g_assert_cmpstr (environment, ==, "sk-environment");
  g_assert_cmpint (source, ==, AGENT_CHAT_KEY_SOURCE_ENVIRONMENT);
  g_setenv ("OPENAI_API_KEY", "", TRUE);
}

#if AGENT_HAS_KEYRING

/* Keys in a real keyring */

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return ((Wait *) data)->result != NULL;
}

/* What libagent (and so agent-cli) finds in the keyring */
static char *
keyring_key (const char *provider,
             const char *base_url)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;
  char *key;

  agent_secret_lookup_api_key_async (provider, base_url, NULL, wait_cb, &wait);
  agent_test_wait_until (has_result, &wait);
  key = agent_secret_lookup_api_key_finish (wait.result, &error);
  g_assert_no_error (error);
  g_object_unref (wait.result);
  return key;
}

static void
test_keyring_shared (void)
{
  g_autoptr(AgentChatSecretStore) store = agent_chat_secret_store_new (TRUE);
  g_autoptr(AgentChatSecretStore) restarted = NULL;
  g_autoptr(AgentChatSecretStore) again = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *found = NULL;
  g_autofree char *last = NULL;
  g_autofree char *gone = NULL;
  g_autofree char *after_clear = NULL;
  AgentChatKeySource source;

  /* Typed as one types: only the last value gets there */
  agent_chat_secret_store_set_key (store, "openai", "http://127.0.0.1:9/v1/", "sk-");
  agent_chat_secret_store_set_key (store, "openai", "http://127.0.0.1:9/v1/", "sk-ty");
  agent_chat_secret_store_set_key (store, "openai", "http://127.0.0.1:9/v1/", "sk-typed");
  g_assert_true (agent_chat_secret_store_get_busy (store));
  agent_test_wait_until (store_idle, store);
  g_assert_null (agent_chat_secret_store_get_keyring_error (store));

  /* Under libagent's schema and attributes, as agent-cli looks for it */
  saved = keyring_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_cmpstr (saved, ==, "sk-typed");

  /* A new run finds it */
  restarted = agent_chat_secret_store_new (TRUE);
  found = lookup (restarted, "openai", "http://127.0.0.1:9/v1", &source);
  g_assert_cmpstr (found, ==, "sk-typed");
  g_assert_cmpint (source, ==, AGENT_CHAT_KEY_SOURCE_KEYRING);

  /* Another value, then emptied: removed */
  agent_chat_secret_store_set_key (restarted, "openai", "http://127.0.0.1:9/v1", "sk-last");
  agent_chat_secret_store_flush (restarted);
  agent_test_wait_until (store_idle, restarted);
  last = keyring_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_cmpstr (last, ==, "sk-last");
  agent_chat_secret_store_set_key (restarted, "openai", "http://127.0.0.1:9/v1", "");
  agent_test_wait_until (store_idle, restarted);
  gone = keyring_key ("openai", "http://127.0.0.1:9/v1");
  g_assert_null (gone);
  again = agent_chat_secret_store_new (TRUE);
  after_clear = lookup (again, "openai", "http://127.0.0.1:9/v1", &source);
  g_assert_null (after_clear);
  g_assert_cmpint (source, ==, AGENT_CHAT_KEY_SOURCE_NONE);
}

static gboolean
focus_in (gpointer data)
{
  GtkWidget *widget = data;
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Preferences: the key typed goes to the keyring, and they say so */
static void
test_keyring_preferences (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatSecretStore) store = agent_chat_secret_store_new (TRUE);
  g_autoptr(AgentChatConnection) connection = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *setting_text = NULL;
  GtkWidget *preferences;
  GtkWidget *key_row;

  connection = agent_chat_connection_new (settings, "anthropic", "http://127.0.0.1:13", NULL);
  preferences = agent_chat_preferences_new (NULL, settings, store, connection, NULL);
  gtk_window_present (GTK_WINDOW (preferences));
  wait_for_label (preferences, "stored in your keyring");
  /* No key yet: straight to its field, once the keyring said so */
  key_row = GTK_WIDGET (entry_row (preferences, "API Key"));
  agent_test_wait_until (focus_in, key_row);

  gtk_editable_set_text (GTK_EDITABLE (key_row), "sk-ant-typed");
  gtk_window_destroy (GTK_WINDOW (preferences));
  agent_test_wait_until (store_idle, store);
  saved = keyring_key ("anthropic", "http://127.0.0.1:13");
  g_assert_cmpstr (saved, ==, "sk-ant-typed");

  /* and nowhere in the settings */
  setting_text = g_settings_get_string (settings, "base-url");
  g_assert_null (strstr (setting_text, "sk-ant-typed"));
}

#endif

/* User information in a base URL */

static GString *logged;

static void
keep_log (const char     *domain,
          GLogLevelFlags  level,
          const char     *message,
          gpointer        user_data)
{
  g_string_append_printf (logged, "%s\n", message);
}

static gboolean
has_css_class (gpointer data)
{
  return gtk_widget_has_css_class (GTK_WIDGET (((gpointer *) data)[0]), ((gpointer *) data)[1]);
}

/* A password in the base URL is a secret: never in the settings (an old
 * one is taken out), nor shown, nor logged; the command line's is used for
 * its window; Preferences refuse one and say why */
static void
test_userinfo (void)
{
  g_autoptr(GSettings) settings = reset_settings ();
  g_autoptr(AgentChatSecretStore) secrets = agent_chat_secret_store_new (FALSE);
  g_autoptr(AgentChatConnection) stored = NULL;
  g_autoptr(AgentChatConnection) given = NULL;
  g_autofree char *setting = NULL;
  AgentChatWindow *window;
  GtkWidget *preferences;
  GLogFunc old_handler;
  g_autoptr(GError) error = NULL;

  logged = g_string_new (NULL);
  old_handler = g_log_set_default_handler (keep_log, NULL);

  /* In the settings from before: taken out */
  g_settings_set_string (settings, "base-url", "http://me:s3cret@127.0.0.1:7/v1");
  stored = agent_chat_connection_new (settings, "openai", NULL, "m");
  setting = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (setting, ==, "http://127.0.0.1:7/v1");
  g_assert_cmpstr (agent_chat_connection_get_base_url (stored), ==, "http://127.0.0.1:7/v1");

  /* On the command line: used by the window, shown without it */
  given = agent_chat_connection_new (settings, "openai", "http://me:s3cret@127.0.0.1:8/v1", "m");
  g_assert_cmpstr (agent_chat_connection_get_base_url (given), ==,
                   "http://me:s3cret@127.0.0.1:8/v1");
  window = g_object_ref_sink (agent_chat_window_new (NULL));
  agent_chat_window_set_connection (window, given);
  g_assert_cmpstr (agent_provider_get_base_url (agent_session_get_provider (
                     agent_chat_window_get_session (window))), ==,
                   "http://me:s3cret@127.0.0.1:8/v1");
  {
    g_autoptr(GPtrArray) titles = find_all (GTK_WIDGET (window), ADW_TYPE_WINDOW_TITLE);

    for (guint i = 0; i < titles->len; i++)
      {
        GtkWidget *title = g_ptr_array_index (titles, i);

        const char *subtitle = adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title));

        g_assert_true (subtitle == NULL || strstr (subtitle, "s3cret") == NULL);
        for (GtkWidget *w = title; w != NULL; w = gtk_widget_get_parent (w))
          {
            const char *tooltip = gtk_widget_get_tooltip_text (w);

            g_assert_true (tooltip == NULL || strstr (tooltip, "s3cret") == NULL);
          }
      }
  }
  g_clear_pointer (&setting, g_free);
  setting = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (setting, ==, "http://127.0.0.1:7/v1");

  preferences = agent_chat_preferences_new (NULL, settings, secrets, given, NULL);
  gtk_window_present (GTK_WINDOW (preferences));
  iterate ();
  g_assert_cmpstr (row_text (preferences, "Base URL"), ==, "http://127.0.0.1:8/v1");

  /* Typed in Preferences: refused, saying why; nothing saved */
  gtk_editable_set_text (GTK_EDITABLE (entry_row (preferences, "Base URL")),
                         "http://you:t0ps3cret@127.0.0.1:9/v1");
  g_signal_emit_by_name (entry_row (preferences, "Base URL"), "apply");
  {
    gpointer data[] = { entry_row (preferences, "Base URL"), (gpointer) "error" };

    agent_test_wait_until (has_css_class, data);
  }
  wait_for_label (preferences, "user name or password");
  g_clear_pointer (&setting, g_free);
  setting = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (setting, ==, "http://127.0.0.1:7/v1");
  g_assert_false (agent_chat_connection_set_base_url (given, "http://you:t0ps3cret@h/v1", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_null (strstr (error->message, "t0ps3cret"));

  /* Without: saved, and the error goes */
  gtk_editable_set_text (GTK_EDITABLE (entry_row (preferences, "Base URL")),
                         "http://127.0.0.1:9/v1");
  g_signal_emit_by_name (entry_row (preferences, "Base URL"), "apply");
  iterate ();
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry_row (preferences, "Base URL")),
                                            "error"));
  g_clear_pointer (&setting, g_free);
  setting = g_settings_get_string (settings, "base-url");
  g_assert_cmpstr (setting, ==, "http://127.0.0.1:9/v1");

  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
  iterate ();

  g_log_set_default_handler (old_handler, NULL);
  g_assert_null (strstr (logged->str, "s3cret"));
  g_string_free (logged, TRUE);
}

int
main (int   argc,
      char *argv[])
{
#if AGENT_HAS_KEYRING
  AgentTestKeyring service = { 0 };
  gboolean keyring = g_strcmp0 (g_getenv ("AGENT_TEST_KEYRING"), "1") == 0;
#else
  gboolean keyring = FALSE;
#endif
  char *data_home;
  int status;

#if AGENT_HAS_KEYRING
  /* Before anything connects to the session bus */
  if (keyring)
    agent_test_keyring_start (&service);
#endif
  data_home = agent_test_gui_init (&argc, &argv);

#if AGENT_HAS_KEYRING
  if (keyring)
    {
      g_test_add_func ("/gui/keys/keyring/shared", test_keyring_shared);
      g_test_add_func ("/gui/keys/keyring/preferences", test_keyring_preferences);
    }
  else
#endif
    {
      g_test_add_func ("/gui/connection/defaults", test_connection_defaults);
      g_test_add_func ("/gui/connection/overrides", test_connection_overrides);
      g_test_add_func ("/gui/connection/subtitle", test_connection_subtitle);
      g_test_add_func ("/gui/connection/profile-names", test_profile_names);
      g_test_add_func ("/gui/connection/profile-settings", test_window_profile_settings);
#if AGENT_HAS_STORE
      g_test_add_func ("/gui/connection/profile-rename", test_profile_rename_in_store);
#endif
      g_test_add_func ("/gui/connection/check-options", test_connection_check_options);
      g_test_add_func ("/gui/connection/window-subtitle", test_window_subtitle);
      g_test_add_func ("/gui/connection/preferences", test_preferences_connection);
      g_test_add_func ("/gui/connection/userinfo", test_userinfo);
      g_test_add_func ("/gui/keys/no-keyring", test_no_keyring);
    }

  status = agent_test_gui_run (data_home);
#if AGENT_HAS_KEYRING
  if (keyring)
    agent_test_keyring_stop (&service);
#endif
  return status;
}
