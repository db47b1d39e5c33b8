/* agent-chat-consent.c
 *
 * agent-chat as the consent agent of agent-desktop-service
 * (docs/desktop-service.md): while the app runs and the service is on the
 * session bus, the app's object /io/github/libagent/Chat/ConsentAgent
 * implements io.github.libagent.AssistantConsent1 and is registered with
 * RegisterConsentAgent. Its Ask shows a dialog over the active window (a
 * new window when there is none) naming the application, Deny its default
 * and Escape, and answers with the user's choice; its ApproveToolCall does
 * the same for one call of the application's own tool
 * (agent-chat-tool-approval.c).
 *
 * It uses a session-bus connection of its own, made in the background:
 * the app starts as usual when there is no session bus, and it never starts
 * the service. It watches the service's name and registers each time the
 * service appears (the service leaves when idle and is started again for
 * the next application). Only the service's own connection may ask.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-consent.h"
#include "agent-chat-tool-approval.h"

#define SERVICE_NAME   "io.github.libagent.Assistant"
#define SERVICE_PATH   "/io/github/libagent/Assistant"
#define SERVICE_IFACE  "io.github.libagent.Assistant1"
#define CONSENT_IFACE  "io.github.libagent.AssistantConsent1"
#define AGENT_PATH     "/io/github/libagent/Chat/ConsentAgent"

struct _AgentChatConsent
{
  GObject          parent_instance;

  GtkApplication  *application;   /* weak */
  GCancellable    *cancellable;
  GDBusConnection *connection;    /* its own, to the session bus */
  GDBusNodeInfo   *info;
  GPtrArray       *dialogs;       /* the questions shown (AdwMessageDialog) */
  char            *service_owner; /* the unique name of the service, while it runs */
  guint            object_id;
  guint            watch_id;
};

G_DEFINE_FINAL_TYPE (AgentChatConsent, agent_chat_consent, G_TYPE_OBJECT)

static const char consent_xml[] =
  "<node>"
  "  <interface name='" CONSENT_IFACE "'>"
  "    <method name='Ask'>"
  "      <arg name='app_id' type='s' direction='in'/>"
  "      <arg name='app_name' type='s' direction='in'/>"
  "      <arg name='what' type='s' direction='in'/>"
  "      <arg name='allow' type='b' direction='out'/>"
  "    </method>"
  "    <method name='ApproveToolCall'>"
  "      <arg name='app_id' type='s' direction='in'/>"
  "      <arg name='app_name' type='s' direction='in'/>"
  "      <arg name='tool_name' type='s' direction='in'/>"
  "      <arg name='description' type='s' direction='in'/>"
  "      <arg name='arguments_json' type='s' direction='in'/>"
  "      <arg name='allowed' type='b' direction='out'/>"
  "      <arg name='remember' type='b' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

/* The question */

static void
on_dialog_response (AdwMessageDialog *dialog,
                    const char       *response,
                    gpointer          user_data)
{
  GDBusMethodInvocation *invocation = user_data;
  AgentChatConsent *self = g_object_get_data (G_OBJECT (dialog), "agent-chat-consent");
  gboolean allow = g_strcmp0 (response, "allow") == 0;

  if (g_str_equal (g_dbus_method_invocation_get_method_name (invocation), "ApproveToolCall"))
    g_dbus_method_invocation_return_value (invocation,
                                           agent_chat_tool_approval_answer (response));
  else
    g_dbus_method_invocation_return_value (invocation, g_variant_new ("(b)", allow));
  if (self != NULL && g_ptr_array_remove (self->dialogs, dialog) && self->application != NULL)
    g_application_release (G_APPLICATION (self->application));
}

static GtkWindow *
some_window (AgentChatConsent *self)
{
  GtkWindow *window = gtk_application_get_active_window (self->application);

  /* Activating opens the first window */
  if (window == NULL)
    {
      g_application_activate (G_APPLICATION (self->application));
      window = gtk_application_get_active_window (self->application);
    }
  return window;
}

/* Shows @dialog until its response answers @invocation */
static void
show_question (AgentChatConsent      *self,
               GDBusMethodInvocation *invocation,
               GtkWidget             *dialog)
{
  g_object_set_data (G_OBJECT (dialog), "agent-chat-consent", self);
  /* The invocation is answered once, by the response; the app stays meanwhile */
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_dialog_response),
                         g_object_ref (invocation), (GClosureNotify) g_object_unref, 0);
  g_ptr_array_add (self->dialogs, dialog);
  g_application_hold (G_APPLICATION (self->application));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* (The service's wording of what the app asks, @what, is not shown: the
 * question is one sentence of this app's own, for its translators) */
static void
ask (AgentChatConsent      *self,
     GDBusMethodInvocation *invocation,
     const char            *app_id,
     const char            *app_name)
{
  GtkWindow *parent = some_window (self);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  /* Translators: %s is an application's name */
  heading = g_strdup_printf (_("Allow “%s” to use your language models?"), app_name);
  /* Translators: %s is the application's id, a Flatpak id or a program's path */
  body = g_strdup_printf (_("The application %s asks to use the models you set up in Agent "
                            "Chat. You can revoke this in Preferences › Apps Using Your "
                            "Models."), app_id);
  dialog = adw_message_dialog_new (parent, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "deny", _("_Deny"),
                                    "allow", _("_Allow"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "allow",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "deny");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "deny");
  show_question (self, invocation, dialog);
}

static void
consent_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  AgentChatConsent *self = user_data;
  const char *app_id;
  const char *app_name;
  const char *what;

  if (g_strcmp0 (method_name, "Ask") != 0 && g_strcmp0 (method_name, "ApproveToolCall") != 0)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR,
                                             G_DBUS_ERROR_UNKNOWN_METHOD,
                                             "No method %s", method_name);
      return;
    }
  /* Only the service asks the user */
  if (self->service_owner == NULL || g_strcmp0 (sender, self->service_owner) != 0)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                                             "Only %s may ask", SERVICE_NAME);
      return;
    }
  if (g_str_equal (method_name, "ApproveToolCall"))
    {
      const char *tool_name;
      const char *description;
      const char *arguments;

      g_variant_get (parameters, "(&s&s&s&s&s)", &app_id, &app_name, &tool_name, &description,
                     &arguments);
      show_question (self, invocation,
                     agent_chat_tool_approval_new (some_window (self), app_id, app_name,
                                                   tool_name, description, arguments));
      return;
    }
  g_variant_get (parameters, "(&s&s&s)", &app_id, &app_name, &what);
  ask (self, invocation, app_id, app_name);
}

static const GDBusInterfaceVTable consent_vtable = { consent_method_call, NULL, NULL, { 0 } };

/* The service */

static void
registered (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Agent Chat could not be the desktop service's consent agent: %s",
               error->message);
}

static void
on_service_appeared (GDBusConnection *connection,
                     const char      *name,
                     const char      *owner,
                     gpointer         user_data)
{
  AgentChatConsent *self = user_data;

  g_free (self->service_owner);
  self->service_owner = g_strdup (owner);
  g_dbus_connection_call (connection, owner, SERVICE_PATH, SERVICE_IFACE,
                          "RegisterConsentAgent", g_variant_new ("(o)", AGENT_PATH), NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, self->cancellable, registered,
                          NULL);
}

static void
on_service_vanished (GDBusConnection *connection,
                     const char      *name,
                     gpointer         user_data)
{
  AgentChatConsent *self = user_data;

  g_clear_pointer (&self->service_owner, g_free);
}

static void
connected (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AgentChatConsent) self = user_data;
  g_autoptr(GError) error = NULL;
  GDBusConnection *connection = g_dbus_connection_new_for_address_finish (result, &error);

  if (connection == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No session bus for the consent agent: %s", error->message);
      return;
    }
  self->connection = connection;
  g_dbus_connection_set_exit_on_close (connection, FALSE);
  self->object_id = g_dbus_connection_register_object (connection, AGENT_PATH,
                                                       self->info->interfaces[0],
                                                       &consent_vtable, self, NULL, &error);
  if (self->object_id == 0)
    {
      g_warning ("The consent agent could not be exported: %s", error->message);
      return;
    }
  self->watch_id = g_bus_watch_name_on_connection (connection, SERVICE_NAME,
                                                   G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   on_service_appeared, on_service_vanished,
                                                   self, NULL);
}

/**
 * agent_chat_consent_stop:
 * @self: a #AgentChatConsent
 *
 * Unregisters the consent agent and refuses the questions shown: the app is
 * leaving.
 */
void
agent_chat_consent_stop (AgentChatConsent *self)
{
  g_return_if_fail (AGENT_CHAT_IS_CONSENT (self));

  g_cancellable_cancel (self->cancellable);
  while (self->dialogs->len > 0)
    {
      g_autoptr(AdwMessageDialog) dialog = g_object_ref (g_ptr_array_index (self->dialogs, 0));

      adw_message_dialog_response (dialog, "deny");
      g_ptr_array_remove (self->dialogs, dialog);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  if (self->watch_id != 0)
    g_bus_unwatch_name (self->watch_id);
  self->watch_id = 0;
  if (self->connection != NULL)
    {
      if (self->service_owner != NULL)
        g_dbus_connection_call (self->connection, self->service_owner, SERVICE_PATH,
                                SERVICE_IFACE, "UnregisterConsentAgent",
                                g_variant_new ("(o)", AGENT_PATH), NULL,
                                G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, NULL, NULL);
      if (self->object_id != 0)
        g_dbus_connection_unregister_object (self->connection, self->object_id);
      self->object_id = 0;
      g_dbus_connection_flush_sync (self->connection, NULL, NULL);
      g_dbus_connection_close (self->connection, NULL, NULL, NULL);
    }
  g_clear_pointer (&self->service_owner, g_free);
}

static void
agent_chat_consent_dispose (GObject *object)
{
  AgentChatConsent *self = AGENT_CHAT_CONSENT (object);

  agent_chat_consent_stop (self);
  g_clear_object (&self->connection);
  g_clear_weak_pointer (&self->application);
  G_OBJECT_CLASS (agent_chat_consent_parent_class)->dispose (object);
}

static void
agent_chat_consent_finalize (GObject *object)
{
  AgentChatConsent *self = AGENT_CHAT_CONSENT (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->info, g_dbus_node_info_unref);
  g_clear_pointer (&self->dialogs, g_ptr_array_unref);
  G_OBJECT_CLASS (agent_chat_consent_parent_class)->finalize (object);
}

static void
agent_chat_consent_class_init (AgentChatConsentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_consent_dispose;
  object_class->finalize = agent_chat_consent_finalize;
}

static void
agent_chat_consent_init (AgentChatConsent *self)
{
  self->cancellable = g_cancellable_new ();
  self->dialogs = g_ptr_array_new ();
  self->info = g_dbus_node_info_new_for_xml (consent_xml, NULL);
}

/**
 * agent_chat_consent_new:
 * @application: the app, whose windows the questions are shown over
 *
 * Starts being the consent agent in the background, whenever the service
 * is on the session bus.
 *
 * Returns: (transfer full): the consent agent
 */
AgentChatConsent *
agent_chat_consent_new (GtkApplication *application)
{
  AgentChatConsent *self = g_object_new (AGENT_CHAT_TYPE_CONSENT, NULL);
  g_autofree char *address = NULL;

  g_set_weak_pointer (&self->application, application);
  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (address != NULL)
    g_dbus_connection_new_for_address (address,
                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                       | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                       NULL, self->cancellable, connected, g_object_ref (self));
  return self;
}
