/* agent-chat-preferences.c
 *
 * The preferences: the model server of the window they were opened from
 * (provider, base URL, model — picked from the server's list or typed — and
 * API key), the system prompt, the tools the model may call, the Show
 * Tool-Call Chunks toggle, the sampling of conversations that do not set
 * their own (Model Settings: temperature, top-p, seed, each "Default" for
 * the server's) and what is sent of long conversations (Long
 * Conversations: the strategy, the turns kept, compacting on its own, the
 * context window); and, on a page of their own, the MCP servers
 * (AgentChatMcpPage).
 *
 * The server's fields show what the window uses, its AgentChatConnection:
 * the options of the command line when it was opened with some, the
 * provider's own URL and model when none are set. Editing one saves it in
 * the settings and ends its command-line option for the window.
 *
 * The API key is the server's (per provider and base URL), in the keyring
 * through the secret store, never in GSettings; a line under the fields
 * says where it is kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <agent.h>
#include <glib/gi18n.h>

#include "agent-chat-application.h"
#include "agent-chat-default-spin.h"
#include "agent-chat-mcp-page.h"
#include "agent-chat-names.h"
#include "agent-chat-popover.h"
#include "agent-chat-preferences.h"
#include "agent-chat-preferences-search.h"
#include "agent-chat-preferences-voice.h"
#include "agent-chat-preferences-apps.h"
#include "agent-chat-profiles.h"
#include "agent-chat-servers-group.h"
#if AGENT_HAS_STORE
# include "agent-chat-preferences-documents.h"
#endif

struct _AgentChatPreferences
{
  AdwPreferencesWindow  parent_instance;

  AdwPreferencesPage   *general_page;
  AgentChatServersGroup *servers_group;
  AdwPreferencesGroup  *server_group;
  AdwEntryRow          *name_row;
  AdwComboRow          *provider_row;
  GtkStringList        *provider_list;
  AdwEntryRow          *base_url_row;
  AdwEntryRow          *model_row;
  GtkMenuButton        *models_button;
  GtkPopover           *models_popover;
  GtkListBox           *models_list;
  AdwEntryRow          *api_key_row;
  GtkLabel             *key_hint;
  GtkLabel             *base_url_error;
  GtkTextView          *system_prompt_view;
  GtkSwitch            *chunks_switch;
  GtkSwitch            *titles_switch;
  GtkSwitch            *scale_images_switch;
  AdwComboRow          *strategy_row;
  GtkWidget            *keep_turns_row;
  GtkSpinButton        *keep_turns_spin;
  GtkWidget            *auto_compact_row;
  GtkSwitch            *auto_compact_switch;
  GtkSpinButton        *window_spin;
  GtkSpinButton        *temperature_spin;
  GtkSpinButton        *top_p_spin;
  GtkSpinButton        *seed_spin;
  AdwPreferencesGroup  *tools_group;
  AgentChatPreferencesSearch *search_group;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentChatConnection  *connection;         /* the server the fields edit */
  AgentChatConnection  *window_connection;  /* the window's */
  GCancellable         *refresh_cancellable;
  guint                 refresh_timeout_id;
  AgentChatKeySource    key_source;
  guint                 syncing : 1;     /* the fields are set from the connection */
  guint                 loading_key : 1;
  guint                 key_loaded : 1;  /* once, at opening */
};

G_DEFINE_FINAL_TYPE (AgentChatPreferences, agent_chat_preferences, ADW_TYPE_PREFERENCES_WINDOW)

/* Where the key is kept */

static void
update_key_hint (AgentChatPreferences *self)
{
  g_autoptr(AgentProvider) probe = agent_provider_new (
    agent_chat_connection_get_provider (self->connection), NULL);
  const char *variable = probe != NULL ? agent_provider_get_api_key_variable (probe) : NULL;
  const char *where;
  g_autofree char *text = NULL;

  if (agent_chat_secret_store_get_keyring_error (self->secrets) != NULL ||
      self->key_source == AGENT_CHAT_KEY_SOURCE_SESSION)
    where = _("No keyring is available: a key typed here is kept only until Agent Chat "
              "quits.");
  else
    where = _("API keys are stored in your keyring, one for each provider and server.");

  if (self->key_source == AGENT_CHAT_KEY_SOURCE_ENVIRONMENT && variable != NULL)
    {
      /* Translators: %s is an environment variable, such as OPENAI_API_KEY */
      g_autofree char *environment = g_strdup_printf (_("The key in %s is used while this "
                                                        "field is empty."), variable);

      text = g_strconcat (where, " ", environment, NULL);
      where = text;
    }
  gtk_label_set_label (self->key_hint, where);
}

/* The command line */

static void
update_server_description (AgentChatPreferences *self)
{
  adw_preferences_group_set_description (
    self->server_group,
    agent_chat_connection_get_from_command_line (self->connection)
      ? _("This window uses the server given on the command line. A change here is saved in "
          "your preferences.")
      : NULL);
}

static void
sync_name (AgentChatPreferences *self)
{
  const char *name = agent_chat_connection_get_profile_name (self->connection);

  if (name != NULL && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->name_row)), name) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
}

/* The model picker */

static void
add_model_row (AgentChatPreferences *self,
               const char           *text,
               gboolean              model)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), !model);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  if (!model)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_box_append (self->models_list, label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (label)), model);
}

static void
clear_models (AgentChatPreferences *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->models_list))) != NULL)
    gtk_list_box_remove (self->models_list, child);
}

static void
on_models_listed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatPreferences) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = agent_provider_list_models_finish (AGENT_PROVIDER (object), result,
                                                           &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  clear_models (self);
  if (models == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The server's models could not be listed: %s"),
                                               error->message);

      add_model_row (self, text, FALSE);
      return;
    }
  for (guint i = 0; models[i] != NULL; i++)
    add_model_row (self, models[i], TRUE);
  if (models[0] == NULL)
    add_model_row (self, _("The server lists no models"), FALSE);
}

/* Asks the server in use for its models, with its key */
static void
list_models (AgentChatPreferences *self,
             const char           *key)
{
  g_autoptr(AgentProvider) provider = agent_chat_connection_create_provider (self->connection,
                                                                             NULL);

  clear_models (self);
  if (provider == NULL)
    return;
  add_model_row (self, _("Loading…"), FALSE);
  agent_provider_set_api_key (provider, key);
  agent_provider_list_models_async (provider, self->refresh_cancellable, on_models_listed,
                                    g_object_ref (self));
}

static void
on_model_activated (AgentChatPreferences *self,
                    GtkListBoxRow        *row)
{
  GtkWidget *label = gtk_list_box_row_get_child (row);

  gtk_editable_set_text (GTK_EDITABLE (self->model_row), gtk_label_get_text (GTK_LABEL (label)));
  gtk_popover_popdown (self->models_popover);
}

/* The key, then the models: each time the server changes */

static void
on_key_looked_up (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatPreferences) self = user_data;
  g_autoptr(GError) error = NULL;
  AgentChatKeySource source = AGENT_CHAT_KEY_SOURCE_NONE;
  g_autofree char *key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object),
                                                                result, &source, &error);
  gboolean own = source == AGENT_CHAT_KEY_SOURCE_KEYRING ||
                 source == AGENT_CHAT_KEY_SOURCE_SESSION;

  if (error != NULL)
    return;  /* cancelled: another server's key is on its way */

  self->key_source = source;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->api_key_row)), own ? key : "") != 0)
    {
      self->loading_key = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->api_key_row), own ? key : "");
      self->loading_key = FALSE;
    }
  update_key_hint (self);

  /* Straight to the key when there is none, once, at opening */
  if (!self->key_loaded && !own)
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->api_key_row));
  self->key_loaded = TRUE;

  list_models (self, key);
}

static gboolean
refresh (gpointer user_data)
{
  AgentChatPreferences *self = user_data;

  self->refresh_timeout_id = 0;
  g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);
  self->refresh_cancellable = g_cancellable_new ();
  agent_chat_secret_store_lookup_async (self->secrets,
                                        agent_chat_connection_get_provider (self->connection),
                                        agent_chat_connection_get_base_url (self->connection),
                                        self->refresh_cancellable, on_key_looked_up,
                                        g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* While a URL is being typed, the keyring and the server are asked once it
 * rests */
static void
schedule_refresh (AgentChatPreferences *self)
{
  g_clear_handle_id (&self->refresh_timeout_id, g_source_remove);
  self->refresh_timeout_id = g_timeout_add (400, refresh, self);
}

static void
on_key_changed (AgentChatPreferences *self)
{
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->api_key_row));

  if (self->loading_key)
    return;
  agent_chat_secret_store_set_key (self->secrets,
                                   agent_chat_connection_get_provider (self->connection),
                                   agent_chat_connection_get_base_url (self->connection),
                                   key);
  /* A key typed meanwhile beats the one being looked up */
  g_cancellable_cancel (self->refresh_cancellable);
  schedule_refresh (self);
}

static void
on_keyring_changed (AgentChatPreferences *self,
                    const char           *provider,
                    const char           *base_url)
{
  g_autofree char *key = NULL;

  /* A write to the keyring ended: the key stays, where it is kept may not */
  if (agent_chat_secret_store_peek (self->secrets,
                                    agent_chat_connection_get_provider (self->connection),
                                    agent_chat_connection_get_base_url (self->connection),
                                    &key, &self->key_source))
    update_key_hint (self);
}

/* The server's fields and the connection */

static void
sync_fields (AgentChatPreferences *self)
{
  const char *provider = agent_chat_connection_get_provider (self->connection);
  /* Without a password it may hold (from the command line) */
  g_autofree char *base_url = agent_chat_connection_dup_shown_base_url (self->connection);
  const char *model = agent_chat_connection_get_model (self->connection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->provider_list));

  if (self->syncing)
    return;
  self->syncing = TRUE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (agent_provider_list_names ()[i], provider) == 0)
      adw_combo_row_set_selected (self->provider_row, i);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->base_url_row)), base_url) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->base_url_row), base_url);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->model_row)), model) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->model_row), model);
  self->syncing = FALSE;
  update_server_description (self);
}

static void
on_server_changed (AgentChatPreferences *self)
{
  sync_fields (self);
  update_key_hint (self);
  schedule_refresh (self);
}

static void
on_provider_selected (AgentChatPreferences *self)
{
  guint selected = adw_combo_row_get_selected (self->provider_row);
  const char *name = selected < g_strv_length ((char **) agent_provider_list_names ())
                     ? agent_provider_list_names ()[selected] : NULL;

  if (self->syncing || name == NULL ||
      g_strcmp0 (name, agent_chat_connection_get_provider (self->connection)) == 0)
    return;
  self->syncing = TRUE;
  agent_chat_connection_set_provider (self->connection, name);
  self->syncing = FALSE;
  /* Its URL and model, when they are the provider's own */
  sync_fields (self);
}

/* A URL that cannot be saved stays in the field, marked, with the reason
 * under the fields */
static void
show_base_url_error (AgentChatPreferences *self,
                     const GError         *error)
{
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->base_url_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->base_url_row), "error");
  gtk_label_set_text (self->base_url_error, error ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->base_url_error), error != NULL);
}

static void
on_base_url_edited (AgentChatPreferences *self)
{
  g_autoptr(GError) error = NULL;

  if (self->syncing)
    return;
  self->syncing = TRUE;
  agent_chat_connection_set_base_url (self->connection,
                                      gtk_editable_get_text (GTK_EDITABLE (self->base_url_row)),
                                      &error);
  self->syncing = FALSE;
  show_base_url_error (self, error);
}

static gboolean
on_close_request (AgentChatPreferences *self)
{
  g_autofree char *shown = agent_chat_connection_dup_shown_base_url (self->connection);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->base_url_row)), shown) != 0)
    on_base_url_edited (self);
  return GDK_EVENT_PROPAGATE;
}

static void
on_model_edited (AgentChatPreferences *self)
{
  if (self->syncing)
    return;
  self->syncing = TRUE;
  agent_chat_connection_set_model (self->connection,
                                   gtk_editable_get_text (GTK_EDITABLE (self->model_row)));
  self->syncing = FALSE;
}

/* The fields edit @connection's server */
static void
set_connection (AgentChatPreferences *self,
                AgentChatConnection  *connection)
{
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_set_object (&self->connection, connection);
  g_signal_connect_object (connection, "notify::provider", G_CALLBACK (on_server_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (connection, "notify::base-url", G_CALLBACK (on_server_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (connection, "notify::model", G_CALLBACK (sync_fields), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (connection, "notify::from-command-line",
                           G_CALLBACK (update_server_description), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (connection, "notify::profile", G_CALLBACK (sync_name), self,
                           G_CONNECT_SWAPPED);
  show_base_url_error (self, NULL);
  sync_name (self);
  sync_fields (self);
  update_key_hint (self);
  g_clear_handle_id (&self->refresh_timeout_id, g_source_remove);
  refresh (self);
}

/* Another server chosen in Servers: the window's, as it talks to it, or
 * another, as saved */
static void
on_editing_changed (AgentChatPreferences *self)
{
  const char *name = agent_chat_servers_group_get_editing (self->servers_group);
  g_autoptr(AgentChatConnection) connection = NULL;

  if (name == NULL || g_strcmp0 (name, agent_chat_connection_get_profile_name (
                                   self->connection)) == 0)
    return;
  if (g_strcmp0 (name, agent_chat_connection_get_profile_name (self->window_connection)) == 0)
    connection = g_object_ref (self->window_connection);
  else
    connection = agent_chat_connection_new_for_profile (
      self->settings, agent_chat_connection_get_profiles (self->window_connection), name, NULL,
      NULL, NULL);
  set_connection (self, connection);
}

static void
on_name_applied (AgentChatPreferences *self)
{
  AgentProfileList *profiles = agent_chat_connection_get_profiles (self->connection);
  g_autofree char *name = g_strdup (agent_chat_connection_get_profile_name (self->connection));
  g_autofree char *new_name = g_strstrip (g_strdup (gtk_editable_get_text (
                                            GTK_EDITABLE (self->name_row))));
  g_autoptr(GError) error = NULL;

  if (name == NULL || g_strcmp0 (name, new_name) == 0)
    return;
  if (!agent_profile_list_rename (profiles, name, new_name, &error) ||
      !agent_profile_list_save (profiles, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The server could not be renamed: %s"),
                                               error->message);

      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (text));
      sync_name (self);
      return;
    }
#if AGENT_HAS_STORE
  {
    GApplication *app = g_application_get_default ();
    AgentStore *store = AGENT_CHAT_IS_APPLICATION (app)
                        ? agent_chat_application_get_store (AGENT_CHAT_APPLICATION (app)) : NULL;

    if (store != NULL)
      agent_chat_profiles_rename_in_store (store, name, new_name);
  }
#endif
  agent_chat_servers_group_set_editing (self->servers_group, new_name);
}

static void
fill_providers (AgentChatPreferences *self)
{
  const char * const *names = agent_provider_list_names ();

  /* In the order of agent_provider_list_names(): the position is the name.
   * Not the desktop assistant's, the last: agent-chat is where its models
   * are set up (agent_chat_connection_check_options()). */
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_equal (names[i], "desktop"))
        {
          g_assert (names[i + 1] == NULL);
          break;
        }
      gtk_string_list_append (self->provider_list, agent_chat_provider_title (names[i]));
    }
}

/* The system prompt: several lines, saved as typed */

static void
on_system_prompt_setting (AgentChatPreferences *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->system_prompt_view);
  g_autofree char *prompt = g_settings_get_string (self->settings, "system-prompt");
  g_autofree char *shown = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (shown, prompt) != 0)
    gtk_text_buffer_set_text (buffer, prompt, -1);
}

static void
on_system_prompt_edited (AgentChatPreferences *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->system_prompt_view);
  g_autofree char *prompt = g_settings_get_string (self->settings, "system-prompt");
  g_autofree char *shown = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  shown = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (shown, prompt) != 0)
    g_settings_set_string (self->settings, "system-prompt", shown);
}

/* Tools */

static void
on_tool_toggled (GtkSwitch            *toggle,
                 GParamSpec           *pspec,
                 AgentChatPreferences *self)
{
  const char *name = g_object_get_data (G_OBJECT (toggle), "tool");
  g_auto(GStrv) enabled = g_settings_get_strv (self->settings, "enabled-tools");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; enabled[i] != NULL; i++)
    if (g_strcmp0 (enabled[i], name) != 0)
      g_strv_builder_add (builder, enabled[i]);
  if (gtk_switch_get_active (toggle))
    g_strv_builder_add (builder, name);
  result = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "enabled-tools", (const char * const *) result);
}

static void
fill_tools (AgentChatPreferences *self)
{
  const char * const *names = agent_builtin_tool_list_names ();
  g_auto(GStrv) enabled = g_settings_get_strv (self->settings, "enabled-tools");

  for (guint i = 0; names[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *toggle = gtk_switch_new ();
      const char *summary = agent_chat_tool_summary (names[i]);

      /* For people: not the name and description the model is given */
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), agent_chat_tool_title (names[i]));
      if (summary != NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), summary);
      gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
      gtk_switch_set_active (GTK_SWITCH (toggle), g_strv_contains ((const char * const *) enabled,
                                                                   names[i]));
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      agent_chat_tool_title (names[i]), -1);
      g_object_set_data_full (G_OBJECT (toggle), "tool", g_strdup (names[i]), g_free);
      g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_tool_toggled), self, 0);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
      adw_preferences_group_add (self->tools_group, row);
    }
}

static void
agent_chat_preferences_dispose (GObject *object)
{
  AgentChatPreferences *self = AGENT_CHAT_PREFERENCES (object);

  g_clear_handle_id (&self->refresh_timeout_id, g_source_remove);
  g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_PREFERENCES);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);
  g_clear_object (&self->connection);
  g_clear_object (&self->window_connection);

  G_OBJECT_CLASS (agent_chat_preferences_parent_class)->dispose (object);
}

static void
agent_chat_preferences_class_init (AgentChatPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_preferences_dispose;

  g_type_ensure (AGENT_CHAT_TYPE_SERVERS_GROUP);
  g_type_ensure (AGENT_CHAT_TYPE_PREFERENCES_SEARCH);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, servers_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, server_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, name_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, provider_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, provider_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, base_url_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, model_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_popover);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, api_key_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, key_hint);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, base_url_error);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, system_prompt_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, chunks_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, titles_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, scale_images_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, strategy_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, keep_turns_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, keep_turns_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, auto_compact_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, auto_compact_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, window_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, temperature_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, top_p_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, tools_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, search_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, general_page);
  gtk_widget_class_bind_template_callback (widget_class, on_model_activated);
}

static void
agent_chat_preferences_init (AgentChatPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  agent_chat_popover_forward_shortcuts (self->models_popover);
}

/* Long Conversations: the strategy as the combo's position, the rows
 * that mean nothing without one made insensitive */
static const char * const strategies[] = { "off", "trim-tool-results", "keep-last", "summarize" };

static gboolean
strategy_to_position (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (strategies); i++)
    if (g_str_equal (name, strategies[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_strategy (const GValue       *value,
                      const GVariantType *expected_type,
                      gpointer            user_data)
{
  guint position = g_value_get_uint (value);

  return position < G_N_ELEMENTS (strategies) ? g_variant_new_string (strategies[position]) : NULL;
}

static void
update_context_rows (AgentChatPreferences *self)
{
  gboolean on = adw_combo_row_get_selected (self->strategy_row) != 0;

  gtk_widget_set_sensitive (self->keep_turns_row, on);
  gtk_widget_set_sensitive (self->auto_compact_row, on);
}

static void
bind_context_settings (AgentChatPreferences *self,
                       GSettings            *settings)
{
  g_settings_bind_with_mapping (settings, "context-strategy", self->strategy_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, strategy_to_position,
                                position_to_strategy, NULL, NULL);
  g_settings_bind (settings, "context-keep-turns",
                   gtk_spin_button_get_adjustment (self->keep_turns_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "context-auto-compact", self->auto_compact_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "context-window", gtk_spin_button_get_adjustment (self->window_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->strategy_row, "notify::selected",
                           G_CALLBACK (update_context_rows), self, G_CONNECT_SWAPPED);
  update_context_rows (self);
}

/* Model Settings: a negative setting (the server's default) is the spin's
 * lowest value, which says "Default" */
static gboolean
setting_to_spin (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  GtkAdjustment *adjustment = user_data;
  double number = g_variant_is_of_type (variant, G_VARIANT_TYPE_DOUBLE)
                  ? g_variant_get_double (variant) : (double) g_variant_get_int64 (variant);

  g_value_set_double (value, number < 0 ? gtk_adjustment_get_lower (adjustment) : number);
  return TRUE;
}

static GVariant *
spin_to_setting (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  GtkAdjustment *adjustment = user_data;
  double number = g_value_get_double (value);

  if (number <= gtk_adjustment_get_lower (adjustment))
    number = -1;
  if (g_variant_type_equal (expected_type, G_VARIANT_TYPE_INT64))
    return g_variant_new_int64 ((gint64) number);
  return g_variant_new_double (number);
}

static void
bind_sampling_settings (AgentChatPreferences *self,
                        GSettings            *settings)
{
  static const struct {
    const char *key;
    gsize       offset;
  } rows[] = {
    { "default-temperature", G_STRUCT_OFFSET (AgentChatPreferences, temperature_spin) },
    { "default-top-p", G_STRUCT_OFFSET (AgentChatPreferences, top_p_spin) },
    { "default-seed", G_STRUCT_OFFSET (AgentChatPreferences, seed_spin) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      GtkSpinButton *spin = G_STRUCT_MEMBER (GtkSpinButton *, self, rows[i].offset);
      GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);

      /* Translators: a setting left to the server's default */
      agent_chat_default_spin_init (spin, i == 2 ? C_("setting", "Random")
                                                 : C_("setting", "Default"));
      g_settings_bind_with_mapping (settings, rows[i].key, adjustment, "value",
                                    G_SETTINGS_BIND_DEFAULT, setting_to_spin, spin_to_setting,
                                    g_object_ref (adjustment), g_object_unref);
    }
}

/**
 * agent_chat_preferences_add_server:
 * @self: a #AgentChatPreferences
 *
 * Adds a server, for the fields to fill in: as Servers › Add Server does.
 */
void
agent_chat_preferences_add_server (AgentChatPreferences *self)
{
  g_return_if_fail (AGENT_CHAT_IS_PREFERENCES (self));

  if (agent_chat_connection_get_profiles (self->window_connection) == NULL)
    return;
  agent_chat_servers_group_add (self->servers_group);
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->name_row));
}

/**
 * agent_chat_preferences_new:
 * @parent: (nullable): the window whose server to show
 * @settings: the app's settings
 * @secrets: where API keys are kept
 * @connection: the server @parent talks to
 * @mcp_servers: (nullable): the MCP servers, for the Tool Servers page
 *
 * Returns: (transfer floating): the preferences window
 */
GtkWidget *
agent_chat_preferences_new (GtkWindow            *parent,
                            GSettings            *settings,
                            AgentChatSecretStore *secrets,
                            AgentChatConnection  *connection,
                            AgentChatMcpServers  *mcp_servers)
{
  AgentChatPreferences *self = g_object_new (AGENT_CHAT_TYPE_PREFERENCES,
                                             "transient-for", parent,
                                             "modal", parent != NULL,
                                             NULL);

  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);
  self->window_connection = g_object_ref (connection);

  fill_providers (self);
  fill_tools (self);
  set_connection (self, connection);
  if (agent_chat_connection_get_profiles (connection) != NULL)
    {
      agent_chat_servers_group_set_profiles (self->servers_group,
                                             agent_chat_connection_get_profiles (connection));
      agent_chat_servers_group_set_editing (self->servers_group,
                                            agent_chat_connection_get_profile_name (connection));
      g_signal_connect_object (self->servers_group, "notify::editing",
                               G_CALLBACK (on_editing_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->name_row, "apply", G_CALLBACK (on_name_applied), self,
                               G_CONNECT_SWAPPED);
      gtk_widget_set_visible (GTK_WIDGET (self->name_row), TRUE);
    }
  g_signal_connect_object (self->provider_row, "notify::selected",
                           G_CALLBACK (on_provider_selected), self, G_CONNECT_SWAPPED);
  /* Saved when applied (its button, Enter) or as the window closes, never
   * while typed: a user name and password would be on their way to the
   * settings before their "@" */
  g_signal_connect_object (self->base_url_row, "apply", G_CALLBACK (on_base_url_edited), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "close-request", G_CALLBACK (on_close_request), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_row, "changed", G_CALLBACK (on_model_edited), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->api_key_row, "changed", G_CALLBACK (on_key_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (secrets, "changed", G_CALLBACK (on_keyring_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (secrets, "notify::keyring-error", G_CALLBACK (update_key_hint), self,
                           G_CONNECT_SWAPPED);
  on_system_prompt_setting (self);
  g_signal_connect_object (settings, "changed::system-prompt",
                           G_CALLBACK (on_system_prompt_setting), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_text_view_get_buffer (self->system_prompt_view), "changed",
                           G_CALLBACK (on_system_prompt_edited), self, G_CONNECT_SWAPPED);
  g_settings_bind (settings, "show-tool-call-chunks", self->chunks_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "scale-images", self->scale_images_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "generate-titles", self->titles_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  bind_context_settings (self, settings);
  bind_sampling_settings (self, settings);
  agent_chat_preferences_search_setup (self->search_group, settings, secrets);
#if AGENT_HAS_STORE
  {
    GApplication *app = g_application_get_default ();
    AgentChatDocuments *documents = AGENT_CHAT_IS_APPLICATION (app)
      ? agent_chat_application_get_documents (AGENT_CHAT_APPLICATION (app)) : NULL;

    /* The app's: none for a window of its own (in the tests) */
    if (documents != NULL)
      {
        AgentChatPreferencesDocuments *group = g_object_new (
          AGENT_CHAT_TYPE_PREFERENCES_DOCUMENTS, NULL);

        adw_preferences_page_add (self->general_page, ADW_PREFERENCES_GROUP (group));
        agent_chat_preferences_documents_setup (group, settings, documents);
      }
  }
#endif
  if (mcp_servers != NULL)
    adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self),
                                ADW_PREFERENCES_PAGE (agent_chat_mcp_page_new (mcp_servers)));
#ifdef AGENT_CHAT_HAVE_GSTREAMER
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), agent_chat_preferences_voice_new (settings, secrets));
#endif
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self),
                              ADW_PREFERENCES_PAGE (agent_chat_preferences_apps_new ()));

  return GTK_WIDGET (self);
}
