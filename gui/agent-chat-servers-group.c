/* agent-chat-servers-group.c
 *
 * Preferences › Servers: the app's profiles (agent-chat-profiles.c), a row
 * for each: its name, its provider and host, a radio button that makes it
 * the default server (the one new chats start with), and Remove. A click on
 * a row (or Enter) chooses it for the Model Server fields below, which edit
 * the server chosen ("editing"; the preferences follow it). Add Server adds
 * one, on the provider's own server, and chooses it. The last server cannot
 * be removed: a chat needs one.
 *
 * Every change is saved at once in the profiles' file, which agent-cli
 * reads too; the keys stay in the keyring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-names.h"
#include "agent-chat-profiles.h"
#include "agent-chat-servers-group.h"

struct _AgentChatServersGroup
{
  AdwPreferencesGroup  parent_instance;

  GtkListBox          *list_box;
  GtkWidget           *add_button;

  AgentProfileList    *profiles;
  char                *editing;   /* the profile the fields below edit */
  GPtrArray           *watched;   /* the profiles whose changes redraw the rows */
};

G_DEFINE_FINAL_TYPE (AgentChatServersGroup, agent_chat_servers_group, ADW_TYPE_PREFERENCES_GROUP)

enum {
  PROP_0,
  PROP_EDITING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
save (AgentChatServersGroup *self)
{
  g_autoptr(GError) error = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (agent_profile_list_save (self->profiles, &error))
    return;
  if (ADW_IS_PREFERENCES_WINDOW (root))
    {
      g_autofree char *text = g_strdup_printf (_("The servers could not be saved: %s"),
                                               error->message);

      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (root), adw_toast_new (text));
    }
  else
    g_warning ("The servers could not be saved: %s", error->message);
}

/* "OpenAI · api.openai.com" */
static char *
dup_subtitle (AgentProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = agent_profile_create_provider (profile, &error);
  g_autofree char *host = NULL;
  const char *title = agent_chat_provider_title (agent_profile_get_provider (profile));

  if (provider == NULL)
    return g_strdup (error->message);
  host = agent_chat_dup_host_port (agent_provider_get_base_url (provider));
  if (host == NULL)
    return g_strdup (title);
  /* Translators: a server's provider and host (with its port), as in
   * "OpenAI · api.openai.com" or "Ollama · 127.0.0.1:11434" */
  return g_strdup_printf (_("%s · %s"), title, host);
}

/* "OpenAI · api.openai.com · Default" */
static void
update_subtitle (AgentChatServersGroup *self,
                 AdwActionRow          *row,
                 AgentProfile          *profile)
{
  g_autofree char *subtitle = dup_subtitle (profile);

  if (g_strcmp0 (agent_profile_list_get_default_name (self->profiles),
                 agent_profile_get_name (profile)) == 0)
    {
      /* Translators: the subtitle of the default server's row: its
       * provider and host, then that it is the default */
      g_autofree char *with_default = g_strdup_printf (_("%s · Default"), subtitle);

      adw_action_row_set_subtitle (row, with_default);
    }
  else
    adw_action_row_set_subtitle (row, subtitle);
}

static void
update_subtitles (AgentChatServersGroup *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      AgentProfile *profile = agent_profile_list_lookup (
        self->profiles, g_object_get_data (G_OBJECT (row), "profile"));

      if (profile != NULL)
        update_subtitle (self, ADW_ACTION_ROW (row), profile);
    }
}

static void
on_default_toggled (GtkCheckButton        *button,
                    AgentChatServersGroup *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "profile");

  if (!gtk_check_button_get_active (button) ||
      g_strcmp0 (agent_profile_list_get_default_name (self->profiles), name) == 0)
    return;
  agent_profile_list_set_default_name (self->profiles, name);
  save (self);
  update_subtitles (self);
}

static void
on_remove_clicked (GtkButton             *button,
                   AgentChatServersGroup *self)
{
  g_autofree char *name = g_strdup (g_object_get_data (G_OBJECT (button), "profile"));
  gboolean was_default = g_strcmp0 (agent_profile_list_get_default_name (self->profiles),
                                    name) == 0;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->profiles)) <= 1 ||
      !agent_profile_list_remove (self->profiles, name))
    return;
  if (was_default)
    {
      g_autoptr(AgentProfile) first = g_list_model_get_item (G_LIST_MODEL (self->profiles), 0);

      agent_profile_list_set_default_name (self->profiles, agent_profile_get_name (first));
      update_subtitles (self);
    }
  save (self);
  if (g_strcmp0 (self->editing, name) == 0)
    agent_chat_servers_group_set_editing (self,
                                          agent_profile_list_get_default_name (self->profiles));
}

static void
on_row_activated (AdwActionRow          *row,
                  AgentChatServersGroup *self)
{
  agent_chat_servers_group_set_editing (self, g_object_get_data (G_OBJECT (row), "profile"));
}

static GtkWidget *
create_row (AgentChatServersGroup  *self,
            AgentProfile           *profile,
            GtkCheckButton        **group)
{
  const char *name = agent_profile_get_name (profile);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *radio = gtk_check_button_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  GtkWidget *editing = gtk_image_new_from_icon_name ("document-edit-symbolic");
  /* Translators: the accessible name of a server's radio button; %s is its name */
  g_autofree char *default_label = g_strdup_printf (_("Make %s the Default Server"), name);
  /* Translators: %s is a server's name */
  g_autofree char *remove_label = g_strdup_printf (_("Remove %s"), name);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  update_subtitle (self, ADW_ACTION_ROW (row), profile);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "profile", g_strdup (name), g_free);
  g_signal_connect_object (row, "activated", G_CALLBACK (on_row_activated), self, 0);

  /* The radio buttons: one group */
  gtk_widget_set_valign (radio, GTK_ALIGN_CENTER);
  if (*group != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (radio), *group);
  else
    *group = GTK_CHECK_BUTTON (radio);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (radio),
                               g_strcmp0 (agent_profile_list_get_default_name (self->profiles),
                                          name) == 0);
  gtk_widget_set_tooltip_text (radio, _("Default Server"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (radio), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  default_label, -1);
  g_object_set_data_full (G_OBJECT (radio), "profile", g_strdup (name), g_free);
  g_signal_connect_object (radio, "toggled", G_CALLBACK (on_default_toggled), self, 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), radio);

  /* Which one the fields below edit */
  gtk_accessible_update_property (GTK_ACCESSIBLE (editing), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Edited Below"), -1);
  gtk_widget_set_tooltip_text (editing, _("Edited Below"));
  gtk_widget_set_visible (editing, g_strcmp0 (self->editing, name) == 0);
  g_object_set_data (G_OBJECT (row), "editing-mark", editing);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), editing);

  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, remove_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  remove_label, -1);
  /* The last one stays: no button that does nothing */
  gtk_widget_set_visible (remove, g_list_model_get_n_items (G_LIST_MODEL (self->profiles)) > 1);
  g_object_set_data_full (G_OBJECT (remove), "profile", g_strdup (name), g_free);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
  return row;
}

static void redraw (AgentChatServersGroup *self);

static void
unwatch (AgentChatServersGroup *self)
{
  for (guint i = 0; i < self->watched->len; i++)
    g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->watched, i), redraw, self);
  g_ptr_array_set_size (self->watched, 0);
}

static void
redraw (AgentChatServersGroup *self)
{
  GListModel *profiles = G_LIST_MODEL (self->profiles);
  GtkCheckButton *group = NULL;
  GtkWidget *child;

  unwatch (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);
  for (guint i = 0; i < g_list_model_get_n_items (profiles); i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (profiles, i);

      gtk_list_box_append (self->list_box, create_row (self, profile, &group));
      g_signal_connect_object (profile, "notify", G_CALLBACK (redraw), self, G_CONNECT_SWAPPED);
      g_ptr_array_add (self->watched, g_object_ref (profile));
    }
}

/**
 * agent_chat_servers_group_add:
 * @self: a #AgentChatServersGroup
 *
 * Adds a server (on OpenAI's own, until its fields say otherwise), and
 * chooses it for the fields below.
 */
void
agent_chat_servers_group_add (AgentChatServersGroup *self)
{
  g_autoptr(GError) error = NULL;
  AgentProfile *profile = agent_chat_profiles_add (self->profiles, _("New Server"), "openai", NULL,
                                                   NULL, &error);

  if (profile == NULL)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      g_autofree char *text = g_strdup_printf (_("The server could not be added: %s"),
                                               error->message);

      if (ADW_IS_PREFERENCES_WINDOW (root))
        adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (root), adw_toast_new (text));
      return;
    }
  agent_chat_servers_group_set_editing (self, agent_profile_get_name (profile));
}

static void
on_add_clicked (AgentChatServersGroup *self)
{
  agent_chat_servers_group_add (self);
}

/**
 * agent_chat_servers_group_get_editing:
 * @self: a #AgentChatServersGroup
 *
 * Returns: (nullable): the name of the server the fields below edit
 */
const char *
agent_chat_servers_group_get_editing (AgentChatServersGroup *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SERVERS_GROUP (self), NULL);
  return self->editing;
}

/**
 * agent_chat_servers_group_set_editing:
 * @self: a #AgentChatServersGroup
 * @name: (nullable): the name of a server
 *
 * Marks @name's row as the one the fields below edit.
 */
void
agent_chat_servers_group_set_editing (AgentChatServersGroup *self,
                                      const char            *name)
{
  g_return_if_fail (AGENT_CHAT_IS_SERVERS_GROUP (self));

  if (g_strcmp0 (self->editing, name) == 0)
    return;
  g_free (self->editing);
  self->editing = g_strdup (name);
  /* The rows stay (and the keyboard with them): their marks change */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    gtk_widget_set_visible (g_object_get_data (G_OBJECT (row), "editing-mark"),
                            g_strcmp0 (g_object_get_data (G_OBJECT (row), "profile"), name) == 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING]);
}

static void
agent_chat_servers_group_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  AgentChatServersGroup *self = AGENT_CHAT_SERVERS_GROUP (object);

  switch (prop_id)
    {
    case PROP_EDITING:
      g_value_set_string (value, self->editing);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_servers_group_dispose (GObject *object)
{
  AgentChatServersGroup *self = AGENT_CHAT_SERVERS_GROUP (object);

  if (self->watched != NULL)
    unwatch (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_SERVERS_GROUP);
  g_clear_object (&self->profiles);

  G_OBJECT_CLASS (agent_chat_servers_group_parent_class)->dispose (object);
}

static void
agent_chat_servers_group_finalize (GObject *object)
{
  AgentChatServersGroup *self = AGENT_CHAT_SERVERS_GROUP (object);

  g_clear_pointer (&self->watched, g_ptr_array_unref);
  g_free (self->editing);

  G_OBJECT_CLASS (agent_chat_servers_group_parent_class)->finalize (object);
}

static void
agent_chat_servers_group_class_init (AgentChatServersGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = agent_chat_servers_group_get_property;
  object_class->dispose = agent_chat_servers_group_dispose;
  object_class->finalize = agent_chat_servers_group_finalize;

  /**
   * AgentChatServersGroup:editing:
   *
   * The name of the server the fields below edit.
   */
  properties[PROP_EDITING] =
    g_param_spec_string ("editing", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/libagent/Chat/agent-chat-servers-group.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatServersGroup, list_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatServersGroup, add_button);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked);
}

static void
agent_chat_servers_group_init (AgentChatServersGroup *self)
{
  self->watched = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * agent_chat_servers_group_set_profiles:
 * @self: a #AgentChatServersGroup
 * @profiles: the app's profiles
 *
 * Lists @profiles, and shows the group.
 */
void
agent_chat_servers_group_set_profiles (AgentChatServersGroup *self,
                                       AgentProfileList      *profiles)
{
  g_return_if_fail (AGENT_CHAT_IS_SERVERS_GROUP (self));
  g_return_if_fail (AGENT_IS_PROFILE_LIST (profiles));
  g_return_if_fail (self->profiles == NULL);

  self->profiles = g_object_ref (profiles);
  g_signal_connect_object (profiles, "items-changed", G_CALLBACK (redraw), self,
                           G_CONNECT_SWAPPED);
  redraw (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}
