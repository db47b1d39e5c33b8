/* agent-chat-application.c
 *
 * The application: its settings, where its API keys live, its app-wide
 * actions and shortcuts, and the command line.
 *
 * The options --provider, --base-url and --model stand in for the settings
 * in the window they open (its AgentChatConnection). The first agent-chat
 * opens its window with them; another one started while the app runs hands
 * them over and exits: a window already talking to that server with that
 * model comes forward, or a new window opens with them, as GNOME apps open
 * what they are asked to in a window of its own. Options that cannot be
 * used (an unknown provider, a URL that is not http or https) are said on
 * that agent-chat's standard error, and it exits with status 1.
 *
 * `agent-chat --new [TEXT…]` starts a new chat, with TEXT in its composer
 * ("Send to Agent Chat" of selected text). The app is D-Bus activatable;
 * its actions app.new-chat and app.open-conversation (a conversation's
 * id) are what the desktop file's action and GNOME Shell's search provider
 * (agent-chat-search-provider.c) ask for; app.present-window (a window's
 * id) is the default action of its notifications.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-application.h"
#include "agent-chat-consent.h"
#include "agent-chat-demo.h"
#include "agent-chat-mcp-servers.h"
#include "agent-chat-preferences.h"
#include "agent-chat-renderer.h"
#if AGENT_HAS_STORE
# include "agent-chat-search-provider.h"
#endif
#include "agent-chat-profiles.h"
#include "agent-chat-window.h"
#include "agent-trace-private.h"

struct _AgentChatApplication
{
  AdwApplication        parent_instance;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
#if AGENT_HAS_STORE
  AgentStore           *store;      /* the conversations; NULL if it could not be opened */
  AgentChatDocuments   *documents;  /* the folders of search_documents and their index */
#endif
  AgentChatMcpServers  *mcp_servers;
  AgentProfileList     *profiles;   /* the servers, shared with agent-cli */
  AgentChatConsent     *consent;    /* the desktop service's consent agent */
  GPtrArray            *processes;  /* started for the app (the demo server), leave with it */
  guint                 search_provider_id;  /* its D-Bus registration */
  guint                 holding : 1;     /* while keys are being written to the keyring */
  guint                 quit_when_saved : 1;
  guint                 first_run : 1;   /* no servers yet, nor any to carry over */
};

G_DEFINE_FINAL_TYPE (AgentChatApplication, agent_chat_application, ADW_TYPE_APPLICATION)

static const GOptionEntry options[] = {
  { "provider", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("The kind of model server for the window: openai, openai-responses, anthropic, ollama or gemini"),
    N_("NAME") },
  { "base-url", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("The model server's address for the window"), N_("URL") },
  { "model", 0, 0, G_OPTION_ARG_STRING, NULL, N_("The model for the window"), N_("MODEL") },
  { "new", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start a new chat, with the TEXT given in its message field"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, NULL, N_("[TEXT…]") },
  { NULL }
};

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

/**
 * agent_chat_application_get_mcp_server_list:
 * @self: a #AgentChatApplication
 *
 * What a window needs of the MCP servers: their list, whose tools its
 * sessions are offered (agent_mcp_server_list_attach()).
 *
 * Returns: (transfer none) (nullable): the list of the MCP servers, once
 *   started up
 */
AgentMcpServerList *
agent_chat_application_get_mcp_server_list (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->mcp_servers != NULL ? agent_chat_mcp_servers_get_list (self->mcp_servers) : NULL;
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

/**
 * agent_chat_application_get_profiles:
 * @self: a #AgentChatApplication
 *
 * Returns: (transfer none): the servers, shared with agent-cli
 */
AgentProfileList *
agent_chat_application_get_profiles (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->profiles;
}

/**
 * agent_chat_application_keep_process:
 * @self: a #AgentChatApplication
 * @process: a process started for the app, reading its standard input
 *
 * Keeps @process's standard input open while the app runs: a server that
 * leaves at its end (agent-demo-server --exit-on-stdin-eof) leaves with it.
 */
void
agent_chat_application_keep_process (AgentChatApplication *self,
                                     GSubprocess          *process)
{
  g_return_if_fail (AGENT_CHAT_IS_APPLICATION (self));
  g_return_if_fail (G_IS_SUBPROCESS (process));

  g_ptr_array_add (self->processes, g_object_ref (process));
}

/**
 * agent_chat_application_get_first_run:
 * @self: a #AgentChatApplication
 *
 * Returns: whether the app started with no servers, nor any to carry over
 *   from its settings
 */
gboolean
agent_chat_application_get_first_run (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), FALSE);
  return self->first_run;
}

#if AGENT_HAS_STORE
/**
 * agent_chat_application_get_documents:
 * @self: a #AgentChatApplication
 *
 * Returns: (transfer none) (nullable): the folders of Preferences ›
 *   Documents and their index; %NULL before start-up
 */
AgentChatDocuments *
agent_chat_application_get_documents (AgentChatApplication *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return self->documents;
}
#endif

/**
 * agent_chat_application_new_connection:
 * @self: a #AgentChatApplication
 * @provider: (nullable): the --provider option, if given
 * @base_url: (nullable): the --base-url option, if given
 * @model: (nullable): the --model option, if given
 *
 * Returns: (transfer full): a connection to the default server, with the
 *   options of a command line in place of its values
 */
AgentChatConnection *
agent_chat_application_new_connection (AgentChatApplication *self,
                                       const char           *provider,
                                       const char           *base_url,
                                       const char           *model)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  return agent_chat_connection_new_for_profile (self->settings, self->profiles, NULL, provider,
                                                base_url, model);
}

/**
 * agent_chat_application_open_window:
 * @self: a #AgentChatApplication
 * @connection: the server the window talks to
 *
 * Opens a window on @connection: the app's first with its last
 * conversation, any other with a new chat.
 *
 * Returns: (transfer none): the window
 */
GtkWindow *
agent_chat_application_open_window (AgentChatApplication *self,
                                    AgentChatConnection  *connection)
{
  gboolean first;
  AgentChatWindow *window;

  g_return_val_if_fail (AGENT_CHAT_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (AGENT_CHAT_IS_CONNECTION (connection), NULL);

  first = gtk_application_get_windows (GTK_APPLICATION (self)) == NULL;
  window = agent_chat_window_new (self);
  agent_chat_window_set_connection (window, connection);
  /* Two windows on one conversation would write it both */
  if (!first)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat", NULL);
  gtk_window_present (GTK_WINDOW (window));
#if AGENT_HAS_STORE
  /* The first window drawn, the folders are walked again: start-up never
   * waits for the index */
  if (first && self->documents != NULL)
    agent_chat_documents_update_when_idle (self->documents);
#endif
  return GTK_WINDOW (window);
}

/* The active window, or a new one: presented */
static GtkWindow *
present_some_window (AgentChatApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    g_application_activate (G_APPLICATION (self));
  window = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (window != NULL)
    gtk_window_present (window);
  return window;
}

/* A new chat in @window, with @words (if any) in its composer */
static void
start_chat (GtkWindow   *window,
            const char **words)
{
  if (!AGENT_CHAT_IS_WINDOW (window))
    return;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat", NULL);
  if (words != NULL && words[0] != NULL)
    {
      g_autofree char *text = g_strjoinv (" ", (char **) words);

      agent_gtk_composer_set_text (agent_chat_window_get_composer (AGENT_CHAT_WINDOW (window)),
                                   text);
    }
  gtk_widget_grab_focus (GTK_WIDGET (agent_chat_window_get_composer (AGENT_CHAT_WINDOW (window))));
}

static void
new_chat_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  start_chat (present_some_window (user_data), NULL);
}

static void
open_conversation_action (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  GtkWindow *window = present_some_window (user_data);

#if AGENT_HAS_STORE
  if (AGENT_CHAT_IS_WINDOW (window))
    agent_chat_window_open_conversation (AGENT_CHAT_WINDOW (window),
                                         g_variant_get_int64 (parameter));
#endif
}

static void
present_window_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  GtkWindow *window = GTK_WINDOW (gtk_application_get_window_by_id (
    GTK_APPLICATION (user_data), g_variant_get_uint32 (parameter)));

  if (window != NULL)
    gtk_window_present (window);
  else
    present_some_window (user_data);
}

/**
 * agent_chat_application_search:
 * @self: a #AgentChatApplication
 * @text: what to look for
 *
 * Shows the conversations that hold @text, in the sidebar of a window.
 */
void
agent_chat_application_search (AgentChatApplication *self,
                               const char           *text)
{
  GtkWindow *window = present_some_window (self);

#if AGENT_HAS_STORE
  if (AGENT_CHAT_IS_WINDOW (window))
    agent_chat_window_search (AGENT_CHAT_WINDOW (window), text);
#endif
}

static gboolean
agent_chat_application_dbus_register (GApplication     *app,
                                      GDBusConnection  *connection,
                                      const char       *object_path,
                                      GError          **error)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  g_autofree char *path = g_strconcat (object_path, "/SearchProvider", NULL);

  if (!G_APPLICATION_CLASS (agent_chat_application_parent_class)->dbus_register (app, connection,
                                                                                 object_path,
                                                                                 error))
    return FALSE;
#if AGENT_HAS_STORE
  /* GNOME Shell's search of the conversations */
  self->search_provider_id = agent_chat_search_provider_register (self, connection, path, error);
  return self->search_provider_id != 0;
#else
  return TRUE;
#endif
}

static void
agent_chat_application_dbus_unregister (GApplication    *app,
                                        GDBusConnection *connection,
                                        const char      *object_path)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);

  if (self->search_provider_id != 0)
    g_dbus_connection_unregister_object (connection, self->search_provider_id);
  self->search_provider_id = 0;
  G_APPLICATION_CLASS (agent_chat_application_parent_class)->dbus_unregister (app, connection,
                                                                              object_path);
}

static int
agent_chat_application_command_line (GApplication            *app,
                                     GApplicationCommandLine *command_line)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  GVariantDict *given = g_application_command_line_get_options_dict (command_line);
  g_autoptr(AgentChatConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  const char *provider = NULL;
  const char *base_url = NULL;
  const char *model = NULL;

  gboolean new_chat = FALSE;
  g_autofree const char **words = NULL;
  GtkWindow *window;

  g_variant_dict_lookup (given, "provider", "&s", &provider);
  g_variant_dict_lookup (given, "base-url", "&s", &base_url);
  g_variant_dict_lookup (given, "model", "&s", &model);
  g_variant_dict_lookup (given, "new", "b", &new_chat);
  g_variant_dict_lookup (given, G_OPTION_REMAINING, "^a&s", &words);
  if (words != NULL && !new_chat)
    {
      g_application_command_line_printerr (command_line, "%s: %s\n", g_get_prgname (),
                                           _("Text to start a chat with is given after --new"));
      return EXIT_FAILURE;
    }
  if (provider == NULL && base_url == NULL && model == NULL)
    {
      if (!new_chat)
        {
          g_application_activate (app);
          return EXIT_SUCCESS;
        }
      window = present_some_window (self);
      start_chat (window, words);
      return EXIT_SUCCESS;
    }

  if (!agent_chat_connection_check_options (provider, base_url, &error))
    {
      g_application_command_line_printerr (command_line, "%s: %s\n", g_get_prgname (),
                                           error->message);
      return EXIT_FAILURE;
    }

  connection = agent_chat_application_new_connection (self, provider, base_url, model);
  window = NULL;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (AGENT_CHAT_IS_WINDOW (l->data) &&
        agent_chat_connection_equal (agent_chat_window_get_connection (l->data), connection))
      {
        window = l->data;
        gtk_window_present (window);
        break;
      }
  if (window == NULL)
    window = agent_chat_application_open_window (self, connection);
  if (new_chat)
    start_chat (window, words);
  return EXIT_SUCCESS;
}

/* Keys being written keep the app running, and Quit waits for them */
static void
on_secrets_busy (AgentChatApplication *self)
{
  gboolean busy = agent_chat_secret_store_get_busy (self->secrets);

  if (busy == self->holding)
    return;
  self->holding = busy;
  if (busy)
    {
      g_application_hold (G_APPLICATION (self));
      return;
    }
  g_application_release (G_APPLICATION (self));
  if (self->quit_when_saved)
    g_application_quit (G_APPLICATION (self));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  AgentChatApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Closing the windows first stops their turns. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_destroy (windows->data);
      windows = next;
    }
  agent_chat_secret_store_flush (self->secrets);
  if (self->holding)
    self->quit_when_saved = TRUE;
  else
    g_application_quit (G_APPLICATION (self));
}

static GtkWindow *
open_preferences (AgentChatApplication *self)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(AgentChatConnection) connection = NULL;
  GtkWidget *preferences;

  /* The server of the window they are opened from */
  if (AGENT_CHAT_IS_WINDOW (parent))
    connection = g_object_ref (agent_chat_window_get_connection (AGENT_CHAT_WINDOW (parent)));
  else
    connection = agent_chat_application_new_connection (self, NULL, NULL, NULL);
  preferences = agent_chat_preferences_new (parent, self->settings, self->secrets, connection,
                                            self->mcp_servers);
  gtk_window_present (GTK_WINDOW (preferences));
  return GTK_WINDOW (preferences);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  open_preferences (user_data);
}

/* Preferences, with a new server to fill in */
static void
add_server_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  AgentChatApplication *self = user_data;
  GtkWindow *preferences = open_preferences (self);

  agent_chat_preferences_add_server (AGENT_CHAT_PREFERENCES (preferences));
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
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "comments", _("Chat with a language model that can use tools"),
                         NULL);
}

static void
agent_chat_application_startup (GApplication *app)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  GdkDisplay *display;
  static const GActionEntry actions[] = {
    { "quit", quit_action },
    { "preferences", preferences_action },
    { "add-server", add_server_action },
    { "about", about_action },
    { "new-chat", new_chat_action },
    { "open-conversation", open_conversation_action, "x" },
    { "present-window", present_window_action, "u" },
  };
  static const struct { const char *action; const char *accels[2]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.new-chat", { "<Control>n", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  gint64 trace = _agent_trace_begin ();

  G_APPLICATION_CLASS (agent_chat_application_parent_class)->startup (app);

  /* Before any window is realized: cairo where OpenGL is software */
  if ((display = gdk_display_get_default ()) != NULL)
    agent_chat_choose_renderer (display);
  _agent_trace_end (trace, "agent-chat", "startup", "%s", "GTK and libadwaita");
  trace = _agent_trace_begin ();

  self->settings = g_settings_new (AGENT_CHAT_SCHEMA_ID);
  self->secrets = agent_chat_secret_store_new (TRUE);
  {
    gboolean first_run;

    self->profiles = agent_chat_profiles_open (self->settings, &first_run);
    self->first_run = first_run;
    /* The demo server of an earlier run left with it: this run's */
    agent_chat_demo_revive (self->profiles);
  }
  _agent_trace_end (trace, "agent-chat", "startup", "%s", "settings, keyring and servers");
  trace = _agent_trace_begin ();
  g_signal_connect_object (self->secrets, "notify::busy", G_CALLBACK (on_secrets_busy), self,
                           G_CONNECT_SWAPPED);
#if AGENT_HAS_STORE
  {
    g_autoptr(GError) error = NULL;

    if (!(self->store = agent_store_new (NULL, &error)))
      g_warning ("The conversations could not be opened: %s", error->message);
  }
#endif
  _agent_trace_end (trace, "agent-chat", "startup", "%s", "conversation store");
  trace = _agent_trace_begin ();
  {
    g_autofree char *mcp_path = agent_chat_mcp_servers_dup_default_path ();

    self->mcp_servers = agent_chat_mcp_servers_new (mcp_path);
    agent_chat_mcp_servers_start (self->mcp_servers);
  }
  _agent_trace_end (trace, "agent-chat", "startup", "%s", "MCP servers started");
  self->consent = agent_chat_consent_new (GTK_APPLICATION (app));

#if AGENT_HAS_STORE
  {
    g_autofree char *path = g_build_filename (g_get_user_data_dir (), "agent-chat",
                                              "documents.db", NULL);

    self->documents = agent_chat_documents_new (self->settings, self->secrets, self->profiles,
                                                path);
  }
#endif
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
#if AGENT_HAS_STORE
  if (self->documents != NULL)
    agent_chat_documents_shutdown (self->documents);
#endif
  if (self->consent != NULL)
    agent_chat_consent_stop (self->consent);
  G_APPLICATION_CLASS (agent_chat_application_parent_class)->shutdown (app);
}

static void
agent_chat_application_activate (GApplication *app)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window != NULL)
    gtk_window_present (window);
  else
    {
      g_autoptr(AgentChatConnection) connection = agent_chat_application_new_connection (
        self, NULL, NULL, NULL);
      G_GNUC_UNUSED gint64 trace = _agent_trace_begin ();

      agent_chat_application_open_window (self, connection);
      _agent_trace_end (trace, "agent-chat", "open window", "%s", "the first");
    }
}

static void
agent_chat_application_finalize (GObject *object)
{
  AgentChatApplication *self = AGENT_CHAT_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);
#if AGENT_HAS_STORE
  g_clear_object (&self->store);
  g_clear_object (&self->documents);
#endif
  g_clear_object (&self->mcp_servers);
  g_clear_object (&self->consent);
  g_clear_object (&self->profiles);
  g_clear_pointer (&self->processes, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_chat_application_parent_class)->finalize (object);
}

static void
agent_chat_application_class_init (AgentChatApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = agent_chat_application_finalize;
  app_class->command_line = agent_chat_application_command_line;
  app_class->startup = agent_chat_application_startup;
  app_class->activate = agent_chat_application_activate;
  app_class->shutdown = agent_chat_application_shutdown;
  app_class->dbus_register = agent_chat_application_dbus_register;
  app_class->dbus_unregister = agent_chat_application_dbus_unregister;
}

static void
agent_chat_application_init (AgentChatApplication *self)
{
  self->processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[TEXT…]"));
  /* Started for the Shell's search alone, it leaves once idle */
  g_application_set_inactivity_timeout (G_APPLICATION (self), 10000);
}

AgentChatApplication *
agent_chat_application_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_APPLICATION,
                       "application-id", AGENT_CHAT_APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/libagent/Chat",
                       NULL);
}
