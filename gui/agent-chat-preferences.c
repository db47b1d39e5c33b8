/* agent-chat-preferences.c
 *
 * The preferences: the model server (provider, base URL, model — picked from
 * the server's list or typed — and API key), the system prompt, the tools
 * the model may call and the Show Tool-Call Chunks toggle; and, on a page
 * of their own, the MCP servers (AgentChatMcpPage).
 *
 * The API key goes to the secret store, never to GSettings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>
#include <glib/gi18n.h>

#include "agent-chat-mcp-page.h"
#include "agent-chat-preferences.h"

struct _AgentChatPreferences
{
  AdwPreferencesWindow  parent_instance;

  AdwComboRow          *provider_row;
  GtkStringList        *provider_list;
  AdwEntryRow          *base_url_row;
  AdwEntryRow          *model_row;
  GtkMenuButton        *models_button;
  GtkPopover           *models_popover;
  GtkListBox           *models_list;
  AdwEntryRow          *api_key_row;
  AdwEntryRow          *system_prompt_row;
  GtkSwitch            *chunks_switch;
  AdwPreferencesGroup  *tools_group;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  GCancellable         *models_cancellable;
  guint                 models_timeout_id;
  guint                 loading_key : 1;
};

G_DEFINE_FINAL_TYPE (AgentChatPreferences, agent_chat_preferences, ADW_TYPE_PREFERENCES_WINDOW)

static char *
dup_provider (AgentChatPreferences *self)
{
  return g_settings_get_string (self->settings, "provider");
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

static gboolean
refresh_models (gpointer user_data)
{
  AgentChatPreferences *self = user_data;
  g_autofree char *name = dup_provider (self);
  g_autofree char *base_url = g_settings_get_string (self->settings, "base-url");
  g_autofree char *key = agent_chat_secret_store_lookup (self->secrets, name);
  g_autoptr(AgentProvider) provider = agent_provider_new (name, NULL);

  self->models_timeout_id = 0;
  g_cancellable_cancel (self->models_cancellable);
  g_clear_object (&self->models_cancellable);
  clear_models (self);
  if (provider == NULL)
    return G_SOURCE_REMOVE;

  add_model_row (self, _("Loading…"), FALSE);
  self->models_cancellable = g_cancellable_new ();
  agent_provider_set_base_url (provider, base_url);
  agent_provider_set_api_key (provider, key);
  agent_provider_list_models_async (provider, self->models_cancellable, on_models_listed,
                                    g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
schedule_refresh_models (AgentChatPreferences *self)
{
  g_clear_handle_id (&self->models_timeout_id, g_source_remove);
  self->models_timeout_id = g_timeout_add (400, refresh_models, self);
}

static void
on_model_activated (AgentChatPreferences *self,
                    GtkListBoxRow        *row)
{
  GtkWidget *label = gtk_list_box_row_get_child (row);

  gtk_editable_set_text (GTK_EDITABLE (self->model_row), gtk_label_get_text (GTK_LABEL (label)));
  gtk_popover_popdown (self->models_popover);
}

/* Provider and key */

static void
load_key (AgentChatPreferences *self)
{
  g_autofree char *name = dup_provider (self);
  g_autofree char *key = agent_chat_secret_store_lookup (self->secrets, name);

  self->loading_key = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->api_key_row), key ? key : "");
  self->loading_key = FALSE;
}

static void
on_key_changed (AgentChatPreferences *self)
{
  g_autofree char *name = NULL;

  if (self->loading_key)
    return;
  name = dup_provider (self);
  agent_chat_secret_store_store (self->secrets, name,
                                 gtk_editable_get_text (GTK_EDITABLE (self->api_key_row)));
  schedule_refresh_models (self);
}

static void
on_provider_selected (AgentChatPreferences *self)
{
  guint selected = adw_combo_row_get_selected (self->provider_row);
  const char *name = gtk_string_list_get_string (self->provider_list, selected);
  g_autofree char *current = dup_provider (self);

  if (name == NULL || g_strcmp0 (name, current) == 0)
    return;
  g_settings_set_string (self->settings, "provider", name);
  load_key (self);
  schedule_refresh_models (self);
}

static void
fill_providers (AgentChatPreferences *self)
{
  const char * const *names = agent_provider_list_names ();
  g_autofree char *current = dup_provider (self);

  for (guint i = 0; names[i] != NULL; i++)
    {
      gtk_string_list_append (self->provider_list, names[i]);
      if (g_strcmp0 (names[i], current) == 0)
        adw_combo_row_set_selected (self->provider_row, i);
    }
  g_signal_connect_object (self->provider_row, "notify::selected",
                           G_CALLBACK (on_provider_selected), self, G_CONNECT_SWAPPED);
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
      g_autoptr(AgentTool) tool = agent_builtin_tool_new (names[i], NULL);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *toggle = gtk_switch_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), names[i]);
      if (tool != NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), agent_tool_get_description (tool));
      gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
      gtk_switch_set_active (GTK_SWITCH (toggle), g_strv_contains ((const char * const *) enabled,
                                                                   names[i]));
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      names[i], -1);
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

  g_clear_handle_id (&self->models_timeout_id, g_source_remove);
  g_cancellable_cancel (self->models_cancellable);
  g_clear_object (&self->models_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_PREFERENCES);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (agent_chat_preferences_parent_class)->dispose (object);
}

static void
agent_chat_preferences_class_init (AgentChatPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_preferences_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, provider_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, provider_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, base_url_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, model_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_popover);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, models_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, api_key_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, system_prompt_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, chunks_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferences, tools_group);
  gtk_widget_class_bind_template_callback (widget_class, on_model_activated);
}

static void
agent_chat_preferences_init (AgentChatPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * agent_chat_preferences_new:
 * @parent: (nullable): the main window
 * @settings: the app's settings
 * @secrets: where API keys are kept
 * @mcp_servers: (nullable): the MCP servers, for the Tool Servers page
 *
 * Returns: (transfer floating): the preferences window
 */
GtkWidget *
agent_chat_preferences_new (GtkWindow            *parent,
                            GSettings            *settings,
                            AgentChatSecretStore *secrets,
                            AgentChatMcpServers  *mcp_servers)
{
  AgentChatPreferences *self = g_object_new (AGENT_CHAT_TYPE_PREFERENCES,
                                             "transient-for", parent,
                                             "modal", parent != NULL,
                                             NULL);

  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);

  fill_providers (self);
  fill_tools (self);
  load_key (self);
  g_settings_bind (settings, "base-url", self->base_url_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "model", self->model_row, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "system-prompt", self->system_prompt_row, "text",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-tool-call-chunks", self->chunks_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->api_key_row, "changed", G_CALLBACK (on_key_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::base-url", G_CALLBACK (schedule_refresh_models),
                           self, G_CONNECT_SWAPPED);
  refresh_models (self);
  if (mcp_servers != NULL)
    adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self),
                                ADW_PREFERENCES_PAGE (agent_chat_mcp_page_new (mcp_servers)));

  /* Straight to the key when there is none. */
  if (*gtk_editable_get_text (GTK_EDITABLE (self->api_key_row)) == '\0')
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->api_key_row));

  return GTK_WIDGET (self);
}
