/* agent-desktop.c — the desktop assistant service as a provider
 *
 * `desktop`: the models the user set up once, through the desktop service
 * (agent-desktop-service, docs/desktop-service.md) on the session bus. No
 * base URL and no key: the service makes the provider of a profile with
 * its key from the keyring, and answers one model request (a step) at a
 * time with its RunStep (transport/agent-step-remote.c); the caller's
 * session runs its own loop, tools and approvals. The model is the name of
 * a profile, "" (or none) for the service's default; listing the models
 * lists the profiles.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "transport/agent-provider-private.h"
#include "transport/agent-step-remote-private.h"

static void
list_profiles_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) profiles = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GVariantIter iter;
  const char *name;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, _agent_desktop_error_from_dbus (g_steal_pointer (&error)));
      return;
    }
  profiles = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, profiles);
  while (g_variant_iter_next (&iter, "(&s&s@a{sv})", &name, NULL, NULL))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_add (names, NULL);
  g_task_return_pointer (task, g_ptr_array_free (g_steal_pointer (&names), FALSE),
                         (GDestroyNotify) g_strfreev);
}

static void
list_bus_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  if ((connection = g_bus_get_finish (result, &error)) == NULL)
    {
      g_task_return_error (task, _agent_desktop_error_from_dbus (g_steal_pointer (&error)));
      return;
    }
  g_dbus_connection_call (connection, AGENT_DESKTOP_BUS_NAME, AGENT_DESKTOP_OBJECT_PATH,
                          AGENT_DESKTOP_INTERFACE, "ListProfiles", NULL,
                          G_VARIANT_TYPE ("(a(ssa{sv}))"), G_DBUS_CALL_FLAGS_NONE,
                          /* The user may be asked first */
                          G_MAXINT, g_task_get_cancellable (task), list_profiles_cb,
                          g_object_ref (task));
}

/* agent_provider_list_models_async() of the desktop provider: the names
 * of the service's profiles; @task returns a strv */
void
_agent_desktop_list_profiles (GTask *task)
{
  g_bus_get (G_BUS_TYPE_SESSION, g_task_get_cancellable (task), list_bus_cb,
             g_object_ref (task));
}

const AgentProviderBackend agent_desktop_backend = {
  .name = "desktop",
  /* Nothing is sent over HTTP and no key is needed: the "base URL" only
   * says where the requests go, for those who show it */
  .default_base_url = "dbus:" AGENT_DESKTOP_BUS_NAME,
  .api_key_variable = NULL,
  .default_model = NULL,
  .stream = {
    /* Translators: the name of a provider: the desktop assistant service,
     * which answers with the models the user set up */
    .display_name = N_("Desktop assistant"),
  },
  .build_remote = _agent_step_remote_build,
  .run_remote = _agent_step_remote_send,
};
