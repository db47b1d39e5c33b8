/* agent-chat-application.c
 *
 * The application: its settings, where its API keys live, its app-wide
 * actions and shortcuts, and the command-line options that override the
 * settings for one run (--provider, --base-url, --model).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-application.h"
#include "agent-chat-preferences.h"
#include "agent-chat-window.h"

struct _AgentChatApplication
{
  AdwApplication        parent_instance;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
#if AGENT_HAS_STORE
  AgentStore           *store;      /* the conversations; NULL if it could not be opened */
#endif
  AgentChatMcpServers  *mcp_servers;
  GHashTable           *overrides;  /* settings key → value for this run */
};

G_DEFINE_FINAL_TYPE (AgentChatApplication, agent_chat_application, ADW_TYPE_APPLICATION)

static const GOptionEntry options[] = {
  { "provider", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("The kind of model server for this run: openai, openai-responses, anthropic, ollama or gemini"),
    N_("NAME") },
  { "base-url", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("The model server's address for this run"), N_("URL") },
  { "model", 0, 0, G_OPTION_ARG_STRING, NULL, N_("The model for this run"), N_("MODEL") },
  { NULL }
};

/**
 * agent_chat_application_dup_setting:
 * @self: a #AgentChatApplication
 * @key: a string key of the settings
 *
 * Returns: (transfer full): the value given on the command line for this run,
 *   or else the setting's
 */
char *
agent_chat_application_dup_setting (AgentChatApplication *self,
                                    const char           *key)
{
  const char *value;

  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);

  value = g_hash_table_lookup (self->overrides, key);
  if (value != NULL)
    return g_strdup (value);
  return g_settings_get_string (self->settings, key);
}

GSettings *
agent_chat_application_get_settings (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->settings;
}

/**
 * agent_chat_application_get_secret_store:
 * @self: a #AgentChatApplication
 *
 * Returns: (transfer none): where the API keys are kept
 */
AgentChatSecretStore *
agent_chat_application_get_secret_store (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->secrets;
}

/**
 * agent_chat_application_get_mcp_servers:
 * @self: a #AgentChatApplication
 *
 * Returns: (transfer none) (nullable): the MCP servers, once started up
 */
AgentChatMcpServers *
agent_chat_application_get_mcp_servers (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->mcp_servers;
}

#if AGENT_HAS_STORE
/**
 * agent_chat_application_get_store:
 * @self: a #AgentChatApplication
 *
 * Returns: (transfer none) (nullable): the stored conversations (the
 *   database agent-cli uses too), or %NULL if it could not be opened
 */
AgentStore *
agent_chat_application_get_store (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->store;
}
#endif

/* Changing a setting in the preferences ends its command-line override. */
static void
on_setting_changed (GSettings            *settings,
                    const char           *key,
                    AgentChatApplication *self)
{
  g_hash_table_remove (self->overrides, key);
}

static int
agent_chat_application_handle_local_options (GApplication *app,
                                             GVariantDict *dict)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  static const char * const keys[] = { "provider", "base-url", "model" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *value = NULL;

      if (g_variant_dict_lookup (dict, keys[i], "&s", &value))
        g_hash_table_replace (self->overrides, g_strdup (keys[i]), g_strdup (value));
    }
  return -1;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closing the windows first stops their turns. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_destroy (windows->data);
      windows = next;
    }
  g_application_quit (G_APPLICATION (user_data));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  AgentChatApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *preferences = agent_chat_preferences_new (parent, self->settings, self->secrets,
                                                        self->mcp_servers);

  gtk_window_present (GTK_WINDOW (preferences));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  static const char *developers[] = { "The libagent authors", NULL };

  adw_show_about_window (parent,
                         "application-name", _("Agent Chat"),
                         "application-icon", AGENT_CHAT_APP_ID,
                         "version", PACKAGE_VERSION,
                         "developers", developers,
                         "license-type", GTK_LICENSE_LGPL_2_1,
                         "comments", _("Chat with a language model that can use tools"),
                         NULL);
}

static void
agent_chat_application_startup (GApplication *app)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  static const GActionEntry actions[] = {
    { "quit", quit_action },
    { "preferences", preferences_action },
    { "about", about_action },
  };
  static const struct { const char *action; const char *accels[2]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.new-chat", { "<Control>n", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (agent_chat_application_parent_class)->startup (app);

  self->settings = g_settings_new (AGENT_CHAT_SCHEMA_ID);
  self->secrets = agent_chat_memory_secret_store_new ();
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_setting_changed), self, 0);
#if AGENT_HAS_STORE
  {
    g_autoptr(GError) error = NULL;

    if (!(self->store = agent_store_new (NULL, &error)))
      g_warning ("The conversations could not be opened: %s", error->message);
  }
#endif
  {
    g_autofree char *mcp_path = agent_chat_mcp_servers_dup_default_path ();

    self->mcp_servers = agent_chat_mcp_servers_new (mcp_path);
    agent_chat_mcp_servers_start (self->mcp_servers);
  }

  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);
}

/* The MCP servers leave with the app. */
static void
agent_chat_application_shutdown (GApplication *app)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);

  if (self->mcp_servers != NULL)
    agent_chat_mcp_servers_shutdown (self->mcp_servers);
  G_APPLICATION_CLASS (agent_chat_application_parent_class)->shutdown (app);
}

static void
agent_chat_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (agent_chat_window_new (AGENT_CHAT_APPLICATION (app)));
  gtk_window_present (window);
}

static void
agent_chat_application_finalize (GObject *object)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);
#if AGENT_HAS_STORE
  g_clear_object (&self->store);
#endif
  g_clear_object (&self->mcp_servers);
  g_clear_pointer (&self->overrides, g_hash_table_unref);

  G_OBJECT_CLASS (agent_chat_application_parent_class)->finalize (object);
}

static void
agent_chat_application_class_init (AgentChatApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = agent_chat_application_finalize;
  app_class->handle_local_options = agent_chat_application_handle_local_options;
  app_class->startup = agent_chat_application_startup;
  app_class->activate = agent_chat_application_activate;
  app_class->shutdown = agent_chat_application_shutdown;
}

static void
agent_chat_application_init (AgentChatApplication *self)
{
  self->overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

AgentChatApplication *
agent_chat_application_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_APPLICATION,
                       "application-id", AGENT_CHAT_APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/libagent/Chat",
                       NULL);
}
