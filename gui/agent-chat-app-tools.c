/* agent-chat-app-tools.c
 *
 * In Preferences › Apps, how an app's own tools are approved
 * (docs/desktop-service.md, "Tool calls"): two rows of the app's expander
 * row, filled from the service's ListToolApprovals. "Ask Before Running Its
 * Tools", a switch (SetAskBeforeTools; on unless the user turned it off),
 * and "Tools Allowed Without Asking", the tools the user answered Always
 * Allow for, with a Forget button (ForgetTool for all of them). The rows
 * ask the service again after each change they make.
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
  GtkWidget    *ask_row;
  GtkWidget    *ask_switch;
  GtkWidget    *tools_row;
  GtkWidget    *forget_button;
  GCancellable *cancellable;   /* cancelled when the rows go */
  gulong        ask_handler;
};

G_DEFINE_FINAL_TYPE (AgentChatAppTools, agent_chat_app_tools, G_TYPE_OBJECT)

static void list_again (AgentChatAppTools *self);

static void
got_approvals (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentChatAppTools) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **tools = NULL;
  g_autofree char *joined = NULL;
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
  /* Translators: the separator of a list of tool names */
  joined = g_strjoinv (_(", "), (char **) tools);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->tools_row),
                               tools[0] != NULL ? joined : _("None"));
  gtk_widget_set_sensitive (self->forget_button, tools[0] != NULL);
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
  self->forget_button = g_object_ref_sink (gtk_button_new_with_mnemonic (_("_Forget")));
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
