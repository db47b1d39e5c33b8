/* agent-desktop-service.c — the desktop assistant service
 *
 * agent-desktop-service owns io.github.libagent.Assistant on the session
 * bus, started by D-Bus activation (io.github.libagent.Assistant.service),
 * and leaves when it has had nothing to do for a while: no conversation
 * open, no call being answered. A GApplication without GTK, so that its
 * notifications have actions (the consent's Allow and Deny) and its
 * lifetime is GApplication's hold and release. docs/desktop-service.md
 * describes it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdlib.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include <agent.h>

#include "agent-desktop-assistant.h"

#define APPLICATION_ID "io.github.libagent.Assistant"
/* How long the service waits, idle, before it leaves */
#define IDLE_SECONDS 60

#define AGENT_DESKTOP_TYPE_SERVICE (agent_desktop_service_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopService, agent_desktop_service, AGENT_DESKTOP, SERVICE,
                      GApplication)

struct _AgentDesktopService
{
  GApplication           parent_instance;

  AgentDesktopAssistant *assistant;
};

G_DEFINE_FINAL_TYPE (AgentDesktopService, agent_desktop_service, G_TYPE_APPLICATION)

static void
answer (GSimpleAction *action,
        GVariant      *parameter,
        gpointer       user_data)
{
  AgentDesktopService *self = user_data;

  if (self->assistant != NULL)
    agent_desktop_assistant_answer (self->assistant, g_variant_get_string (parameter, NULL),
                                    g_str_equal (g_action_get_name (G_ACTION (action)),
                                                 "allow-app"));
}

static const GActionEntry actions[] = {
  { "allow-app", answer, "s", NULL, NULL, { 0 } },
  { "deny-app", answer, "s", NULL, NULL, { 0 } },
};

static gboolean
agent_desktop_service_dbus_register (GApplication     *application,
                                     GDBusConnection  *connection,
                                     const char       *object_path,
                                     GError          **error)
{
  AgentDesktopService *self = AGENT_DESKTOP_SERVICE (application);

  if (!G_APPLICATION_CLASS (agent_desktop_service_parent_class)->dbus_register (application,
                                                                                 connection,
                                                                                 object_path,
                                                                                 error))
    return FALSE;
  self->assistant = agent_desktop_assistant_new (application);
  return agent_desktop_assistant_export (self->assistant, connection, error);
}

static void
agent_desktop_service_dbus_unregister (GApplication    *application,
                                       GDBusConnection *connection,
                                       const char      *object_path)
{
  AgentDesktopService *self = AGENT_DESKTOP_SERVICE (application);

  if (self->assistant != NULL)
    agent_desktop_assistant_unexport (self->assistant);
  g_clear_object (&self->assistant);

  G_APPLICATION_CLASS (agent_desktop_service_parent_class)->dbus_unregister (application,
                                                                             connection,
                                                                             object_path);
}

static void
agent_desktop_service_dispose (GObject *object)
{
  AgentDesktopService *self = AGENT_DESKTOP_SERVICE (object);

  g_clear_object (&self->assistant);

  G_OBJECT_CLASS (agent_desktop_service_parent_class)->dispose (object);
}

static void
agent_desktop_service_class_init (AgentDesktopServiceClass *klass)
{
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = agent_desktop_service_dispose;
  application_class->dbus_register = agent_desktop_service_dbus_register;
  application_class->dbus_unregister = agent_desktop_service_dbus_unregister;
}

static void
agent_desktop_service_init (AgentDesktopService *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}

/* $AGENT_DESKTOP_SERVICE_IDLE_SECONDS, for the tests: a whole number of
 * seconds from 1 up */
static guint
get_idle_seconds (void)
{
  const char *text = g_getenv ("AGENT_DESKTOP_SERVICE_IDLE_SECONDS");
  guint64 seconds;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, 3600, &seconds, NULL))
    return IDLE_SECONDS;
  return (guint) seconds;
}

/* SIGTERM and SIGINT end the service as idleness does: its conversations
 * are cancelled and closed, its files are written already */
static gboolean
quit_on_signal (gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
  return G_SOURCE_CONTINUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GApplication) service = NULL;

  setlocale (LC_ALL, "");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("agent-desktop-service");

  service = g_object_new (AGENT_DESKTOP_TYPE_SERVICE,
                          "application-id", APPLICATION_ID,
                          "flags", G_APPLICATION_IS_SERVICE,
                          NULL);
  g_application_set_inactivity_timeout (service, get_idle_seconds () * 1000);
  g_unix_signal_add (SIGTERM, quit_on_signal, service);
  g_unix_signal_add (SIGINT, quit_on_signal, service);
  return g_application_run (service, argc, argv);
}
