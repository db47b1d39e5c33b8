/* agent-chat-app-tools.c
 *
 * In Preferences › Apps, how an app's own tools are approved
 * (docs/desktop-service.md, "Tool calls"): two rows of the app's expander
 * row, filled from the service's ListToolApprovals. "Ask Before Running Its
 * Tools", a switch (SetAskBeforeTools; on unless the user turned it off),
 * and "Tools Allowed Without Asking", the tools the user answered Always
 * Allow for, with Forget All (ForgetTool of ""), then a row for each of
 * them with its own Forget (ForgetTool of its name). The rows ask the
 * service again after each change they make.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-app-tools.h"

#define SERVICE_NAME  "io.github.libagent.Assistant"
#define SERVICE_PATH  "/io/github/libagent/Assistant"
#define SERVICE_IFACE "io.github.libagent.Assistant1"

#define AGENT_CHAT_TYPE_APP_TOOLS (agent_chat_app_tools_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatAppTools, agent_chat_app_tools, AGENT_CHAT, APP_TOOLS, GObject)

struct _AgentChatAppTools
{
  GObject       parent_instance;

  char         *app_id;
  AdwExpanderRow *expander;    /* owns this object (its data) */
  GPtrArray    *tool_rows;     /* one for each tool allowed for good */
  GtkWidget    *ask_row;
  GtkWidget    *ask_switch;
  GtkWidget    *tools_row;
  GtkWidget    *forget_button;
  GCancellable *cancellable;   /* cancelled when the rows go */
  gulong        ask_handler;
};

G_DEFINE_FINAL_TYPE (AgentChatAppTools, agent_chat_app_tools, G_TYPE_OBJECT)

static void list_again (AgentChatAppTools *self);
static void ask_service (AgentChatAppTools *self,
                         const char        *method,
                         GVariant          *parameters);

static void
on_forget_one_clicked (GtkButton         *button,
                       AgentChatAppTools *self)
{
  const char *tool = g_object_get_data (G_OBJECT (button), "tool-name");

  ask_service (self, "ForgetTool", g_variant_new ("(ss)", self->app_id, tool));
}

/* The rows of the tools allowed for good, after the tools' row */
static void
set_tool_rows (AgentChatAppTools  *self,
               const char * const *tools)
{
  for (guint i = 0; i < self->tool_rows->len; i++)
    adw_expander_row_remove (self->expander, g_ptr_array_index (self->tool_rows, i));
  g_ptr_array_set_size (self->tool_rows, 0);

  for (guint i = 0; tools[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *forget = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *label = NULL;
      g_autofree char *tooltip = NULL;

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), tools[i]);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Runs without asking"));
      gtk_widget_set_valign (forget, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (forget, "flat");
      /* Translators: a button's name for screen readers; %s is a tool's name */
      label = g_strdup_printf (_("Forget “%s”"), tools[i]);
      gtk_accessible_update_property (GTK_ACCESSIBLE (forget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      label, -1);
      /* Translators: %s is a tool's name */
      tooltip = g_strdup_printf (_("Forget “%s”: ask again before each of its calls"), tools[i]);
      gtk_widget_set_tooltip_text (forget, tooltip);
      g_object_set_data_full (G_OBJECT (forget), "tool-name", g_strdup (tools[i]), g_free);
      g_signal_connect (forget, "clicked", G_CALLBACK (on_forget_one_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), forget);
      /* Under the tools' row, not after the rows added since (the log):
       * the expander's rows are its list box's (adw_expander_row_remove()
       * takes them from there) */
      gtk_list_box_insert (GTK_LIST_BOX (gtk_widget_get_parent (self->tools_row)), row,
                           gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (self->tools_row)) + 1 + i);
      g_ptr_array_add (self->tool_rows, row);
    }
}

static void
got_approvals (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentChatAppTools) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **tools = NULL;
  gboolean ask = TRUE;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      /* An older service, or none: the rows stay hidden */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("The tools of %s could not be listed: %s", self->app_id, error->message);
      return;
    }
  g_variant_get (reply, "(b^a&s)", &ask, &tools);
  g_signal_handler_block (self->ask_switch, self->ask_handler);
  gtk_switch_set_active (GTK_SWITCH (self->ask_switch), ask);
  g_signal_handler_unblock (self->ask_switch, self->ask_handler);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->tools_row),
                               tools[0] != NULL ? _("Forget one to be asked before its calls again")
                                                : _("None"));
  gtk_widget_set_sensitive (self->forget_button, tools[0] != NULL);
  if (!g_cancellable_is_cancelled (self->cancellable))
    set_tool_rows (self, (const char * const *) tools);
  gtk_widget_set_visible (self->ask_row, TRUE);
  gtk_widget_set_visible (self->tools_row, TRUE);
}

static void
list_again (AgentChatAppTools *self)
{
  g_autoptr(GDBusConnection) connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

  if (connection == NULL)
    return;
  g_dbus_connection_call (connection, SERVICE_NAME, SERVICE_PATH, SERVICE_IFACE,
                          "ListToolApprovals", g_variant_new ("(s)", self->app_id),
                          G_VARIANT_TYPE ("(bas)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, -1,
                          self->cancellable, got_approvals, g_object_ref (self));
}

static void
changed (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(AgentChatAppTools) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    g_warning ("The tools of %s could not be changed: %s", self->app_id, error->message);
  if (!g_cancellable_is_cancelled (self->cancellable))
    list_again (self);
}

static void
ask_service (AgentChatAppTools *self,
             const char        *method,
             GVariant          *parameters)
{
  g_autoptr(GDBusConnection) connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

  if (connection == NULL)
    {
      g_variant_unref (g_variant_ref_sink (parameters));
      return;
    }
  g_dbus_connection_call (connection, SERVICE_NAME, SERVICE_PATH, SERVICE_IFACE, method,
                          parameters, NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, changed,
                          g_object_ref (self));
}

static void
on_ask_active (GtkSwitch         *toggle,
               GParamSpec        *pspec,
               AgentChatAppTools *self)
{
  ask_service (self, "SetAskBeforeTools",
               g_variant_new ("(sb)", self->app_id, gtk_switch_get_active (toggle)));
}

static void
on_forget_clicked (GtkButton         *button,
                   AgentChatAppTools *self)
{
  ask_service (self, "ForgetTool", g_variant_new ("(ss)", self->app_id, ""));
}

static void
agent_chat_app_tools_dispose (GObject *object)
{
  AgentChatAppTools *self = AGENT_CHAT_APP_TOOLS (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->ask_row);
  g_clear_object (&self->ask_switch);
  g_clear_object (&self->tools_row);
  g_clear_object (&self->forget_button);
  G_OBJECT_CLASS (agent_chat_app_tools_parent_class)->dispose (object);
}

static void
agent_chat_app_tools_finalize (GObject *object)
{
  AgentChatAppTools *self = AGENT_CHAT_APP_TOOLS (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tool_rows, g_ptr_array_unref);
  g_free (self->app_id);
  G_OBJECT_CLASS (agent_chat_app_tools_parent_class)->finalize (object);
}

static void
agent_chat_app_tools_class_init (AgentChatAppToolsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_app_tools_dispose;
  object_class->finalize = agent_chat_app_tools_finalize;
}

static void
agent_chat_app_tools_init (AgentChatAppTools *self)
{
  self->cancellable = g_cancellable_new ();
}

/* The rows go with @expander: what they still wait for is cancelled */
static void
on_expander_destroy (GtkWidget         *expander,
                     AgentChatAppTools *self)
{
  g_cancellable_cancel (self->cancellable);
}

/**
 * agent_chat_app_tools_add_rows:
 * @expander: the app's row in Preferences › Apps
 * @app_id: the app's id
 *
 * Adds the rows of the app's tool approvals to @expander; they show once
 * the service answered.
 */
void
agent_chat_app_tools_add_rows (AdwExpanderRow *expander,
                               const char     *app_id)
{
  AgentChatAppTools *self = g_object_new (AGENT_CHAT_TYPE_APP_TOOLS, NULL);

  self->app_id = g_strdup (app_id);
  self->expander = expander;
  self->tool_rows = g_ptr_array_new ();

  self->ask_row = g_object_ref_sink (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->ask_row),
                                 _("Ask Before Running Its Tools"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->ask_row),
                               _("Each call of the app's own tools waits for your approval"));
  self->ask_switch = g_object_ref_sink (gtk_switch_new ());
  gtk_switch_set_active (GTK_SWITCH (self->ask_switch), TRUE);
  gtk_widget_set_valign (self->ask_switch, GTK_ALIGN_CENTER);
  self->ask_handler = g_signal_connect (self->ask_switch, "notify::active",
                                        G_CALLBACK (on_ask_active), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self->ask_row), self->ask_switch);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self->ask_row), self->ask_switch);

  self->tools_row = g_object_ref_sink (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->tools_row),
                                 _("Tools Allowed Without Asking"));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->tools_row), FALSE);
  self->forget_button = g_object_ref_sink (gtk_button_new_with_mnemonic (_("Forget _All")));
  gtk_widget_set_valign (self->forget_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->forget_button, _("Ask again before each of these tools"));
  g_signal_connect (self->forget_button, "clicked", G_CALLBACK (on_forget_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self->tools_row), self->forget_button);

  gtk_widget_set_visible (self->ask_row, FALSE);
  gtk_widget_set_visible (self->tools_row, FALSE);
  adw_expander_row_add_row (expander, self->ask_row);
  adw_expander_row_add_row (expander, self->tools_row);
  g_signal_connect_object (expander, "destroy", G_CALLBACK (on_expander_destroy), self, 0);
  /* (The expander keeps the rows' state as long as it lives) */
  g_object_set_data_full (G_OBJECT (expander), "agent-chat-app-tools", self, g_object_unref);
  list_again (self);
}

/**
 * agent_chat_app_tools_refresh:
 * @expander: an app's row given to agent_chat_app_tools_add_rows()
 *
 * Asks the service again (its AppsChanged said something changed: a tool
 * allowed for good from the dialog meanwhile).
 */
void
agent_chat_app_tools_refresh (AdwExpanderRow *expander)
{
  AgentChatAppTools *self = g_object_get_data (G_OBJECT (expander), "agent-chat-app-tools");

  if (self != NULL && !g_cancellable_is_cancelled (self->cancellable))
    list_again (self);
}
