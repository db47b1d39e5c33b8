/* agent-desktop-peer.c — which application a caller on the bus is
 *
 * The bus says the caller's process id (GetConnectionUnixProcessID). A
 * Flatpak app has /proc/PID/root/.flatpak-info, whose [Application] name
 * is its app id, as xdg-desktop-portal reads it; any other program is its
 * executable, /proc/PID/exe, or, when that is an interpreter (Python, GJS,
 * Node.js, Perl, Ruby), the script it runs, from /proc/PID/cmdline: the
 * user tells a Python app from another, not "python3.11" from itself. The
 * folder read in place of /proc is
 * $AGENT_DESKTOP_SERVICE_PROC_ROOT when it is set: for the tests only, to
 * give a process a made-up sandbox (docs/desktop-service.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-desktop-error.h"
#include "agent-desktop-peer.h"

void
agent_desktop_peer_free (AgentDesktopPeer *peer)
{
  if (peer == NULL)
    return;
  g_free (peer->app_id);
  g_free (peer->app_name);
  g_free (peer);
}

static const char *
get_proc_root (void)
{
  const char *root = g_getenv ("AGENT_DESKTOP_SERVICE_PROC_ROOT");

  return root != NULL && root[0] != '\0' ? root : "/proc";
}

static gboolean
read_flatpak_info (AgentDesktopPeer  *peer,
                   const char        *pid_dir,
                   GError           **error)
{
  g_autofree char *path = g_build_filename (pid_dir, "root", ".flatpak-info", NULL);
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;

  if (!g_key_file_load_from_file (info, path, G_KEY_FILE_NONE, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;   /* not sandboxed (by Flatpak) */
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                   _("Could not read the sandbox metadata of process %u: %s"),
                   peer->pid, local_error->message);
      return FALSE;
    }

  name = g_key_file_get_string (info, "Application", "name", NULL);
  if (name == NULL || !g_application_id_is_valid (name))
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                   _("The sandbox metadata of process %u names no valid application"),
                   peer->pid);
      return FALSE;
    }
  peer->sandboxed = TRUE;
  peer->app_id = g_strdup (name);
  peer->app_name = g_steal_pointer (&name);
  return TRUE;
}

/* The interpreters whose programs are scripts */
static gboolean
is_interpreter (const char *name)
{
  static const char * const prefixes[] = { "python", "gjs", "node", "perl", "ruby", NULL };

  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* Whether the option @arg of an interpreter takes the next argument as
 * its value (Python's -W, -X; GJS's -I; Node's -r …) */
static gboolean
option_takes_value (const char *arg)
{
  static const char * const options[] = {
    "-W", "-X", "-Q", "-I", "--include-path", "-r", "--require", "--import",
    "--loader", "--coverage-prefix", "--coverage-output", "--profile", NULL
  };

  return g_strv_contains (options, arg);
}

/* The script that the interpreter of process @pid_dir runs, as an app id
 * (its absolute path, or "EXE -m MODULE" for a Python module) and a name,
 * or FALSE when its command line names none (-c, -e, a prompt) */
static gboolean
find_script (const char  *pid_dir,
             const char  *exe,
             const char  *interpreter,
             char       **app_id,
             char       **app_name)
{
  g_autofree char *cmdline_path = g_build_filename (pid_dir, "cmdline", NULL);
  g_autofree char *cwd_link = g_build_filename (pid_dir, "cwd", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *cwd = NULL;
  gsize length;
  const char *arg;
  const char *end;
  gboolean module = FALSE;

  if (!g_file_get_contents (cmdline_path, &contents, &length, NULL) || length == 0)
    return FALSE;
  end = contents + length;

  /* NUL-separated; the first is argv[0] */
  for (arg = contents + strnlen (contents, length) + 1; arg < end; arg += strlen (arg) + 1)
    {
      if (memchr (arg, '\0', end - arg) == NULL)
        return FALSE;   /* not NUL-terminated: cut */
      if (module)
        break;
      if (g_str_equal (arg, "--"))
        {
          arg += strlen (arg) + 1;
          break;
        }
      if (g_str_equal (arg, "-c") || g_str_equal (arg, "-e") || g_str_equal (arg, "-p") ||
          g_str_equal (arg, "--eval") || g_str_equal (arg, "--command"))
        return FALSE;   /* code on the command line: no script */
      if (g_str_equal (arg, "-m") && g_str_has_prefix (interpreter, "python"))
        {
          module = TRUE;
          continue;
        }
      if (option_takes_value (arg))
        {
          arg += strlen (arg) + 1;
          continue;
        }
      if (arg[0] != '-')
        break;
    }
  if (arg >= end || arg[0] == '\0' || !g_utf8_validate (arg, -1, NULL))
    return FALSE;

  if (module)
    {
      *app_id = g_strdup_printf ("%s -m %s", exe, arg);
      *app_name = g_strdup (arg);
      return TRUE;
    }
  if (!g_path_is_absolute (arg))
    {
      cwd = g_file_read_link (cwd_link, NULL);
      if (cwd == NULL || !g_utf8_validate (cwd, -1, NULL))
        return FALSE;
    }
  *app_id = g_canonicalize_filename (arg, cwd);
  *app_name = g_path_get_basename (*app_id);
  return TRUE;
}

AgentDesktopPeer *
agent_desktop_peer_identify_pid (guint32   pid,
                                 GError  **error)
{
  g_autoptr(AgentDesktopPeer) peer = g_new0 (AgentDesktopPeer, 1);
  g_autofree char *pid_name = g_strdup_printf ("%u", pid);
  g_autofree char *pid_dir = g_build_filename (get_proc_root (), pid_name, NULL);
  g_autofree char *exe_link = NULL;
  g_autofree char *exe = NULL;
  g_autoptr(GError) local_error = NULL;

  peer->pid = pid;
  if (!read_flatpak_info (peer, pid_dir, error))
    return NULL;
  if (peer->sandboxed)
    return g_steal_pointer (&peer);

  exe_link = g_build_filename (pid_dir, "exe", NULL);
  exe = g_file_read_link (exe_link, &local_error);
  if (exe == NULL || !g_utf8_validate (exe, -1, NULL))
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                   _("Could not tell which program process %u is: %s"), pid,
                   local_error ? local_error->message : _("its path is not UTF-8"));
      return NULL;
    }
  peer->app_name = g_path_get_basename (exe);
  if (is_interpreter (peer->app_name))
    {
      char *script_id = NULL;
      char *script_name = NULL;

      if (find_script (pid_dir, exe, peer->app_name, &script_id, &script_name))
        {
          g_free (peer->app_name);
          peer->app_name = script_name;
          peer->app_id = script_id;
          return g_steal_pointer (&peer);
        }
    }
  peer->app_id = g_steal_pointer (&exe);
  return g_steal_pointer (&peer);
}

static void
got_pid (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  AgentDesktopPeer *peer;
  guint32 pid;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_new_error (task, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                               _("Could not identify the caller: %s"), error->message);
      return;
    }
  g_variant_get (reply, "(u)", &pid);
  if ((peer = agent_desktop_peer_identify_pid (pid, &error)) == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, peer, (GDestroyNotify) agent_desktop_peer_free);
}

void
agent_desktop_peer_identify_async (GDBusConnection     *connection,
                                   const char          *sender,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task = g_task_new (connection, cancellable, callback, user_data);

  g_task_set_source_tag (task, agent_desktop_peer_identify_async);
  g_dbus_connection_call (connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                          g_variant_new ("(s)", sender), G_VARIANT_TYPE ("(u)"),
                          G_DBUS_CALL_FLAGS_NONE, -1, cancellable, got_pid, task);
}

AgentDesktopPeer *
agent_desktop_peer_identify_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == agent_desktop_peer_identify_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
