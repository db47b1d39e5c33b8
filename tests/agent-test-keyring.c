/* agent-test-keyring.c — a real Secret Service for the keyring tests
 *
 * A private session bus (dbus-daemon) and gnome-keyring-daemon
 * on it, with a login keyring of its own in a temporary folder, unlocked
 * with a password given on its standard input — what
 * `dbus-run-session -- gnome-keyring-daemon --unlock` does, done from the
 * test itself so that valgrind and the sanitizers see the test's code.
 * DBUS_SESSION_BUS_ADDRESS points at the bus until the service stops, so
 * the library and any agent-cli started meanwhile use it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <sys/prctl.h>

#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "agent-test-util.h"
#include "agent-test-keyring.h"

#define READY_SECONDS 30

/* Whether the keyring's default collection (the login keyring) exists */
static gboolean
keyring_ready (GDBusConnection *bus)
{
  g_autoptr(GVariant) reply = NULL;
  const char *path = NULL;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets",
                                       "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "ReadAlias",
                                       g_variant_new ("(s)", "default"), G_VARIANT_TYPE ("(o)"),
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(&o)", &path);
  return path != NULL && g_strcmp0 (path, "/") != 0;
}

/* The bus and the daemon die with the test, even when it aborts: left
 * behind, they would hold its output open and the runner would wait. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static char *
make_subdir (const char *dir,
             const char *name)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_no_errno (g_mkdir (path, 0700));
  return path;
}

/* dbus-daemon --session, its address in DBUS_SESSION_BUS_ADDRESS. (Not
 * GTestDBus: it waits for every connection to the bus to go, and libsecret
 * keeps its own until the process ends.) */
static void
start_bus (AgentTestKeyring *self)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  self->bus = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--session",
                                           "--nofork", "--print-address=1", NULL);
  g_assert_no_error (error);

  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->bus));
  address = g_data_input_stream_read_line_utf8 (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (address);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", address, TRUE);
}

void
agent_test_keyring_start (AgentTestKeyring *self)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  g_autofree char *data = NULL;
  g_autofree char *config = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *program = g_find_program_in_path ("gnome-keyring-daemon");
  GOutputStream *input;
  gint64 ready_by;

  if (program == NULL)
    g_error ("gnome-keyring-daemon is not installed (scripts/install-deps installs it)");

  self->dir = agent_test_make_dir ("test-keyring");
  home = make_subdir (self->dir, "home");
  data = make_subdir (self->dir, "data");
  config = make_subdir (self->dir, "config");
  runtime = make_subdir (self->dir, "runtime");

  start_bus (self);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  self->daemon = g_subprocess_launcher_spawn (launcher, &error, program, "--foreground",
                                              "--unlock", "--components=secrets", NULL);
  g_assert_no_error (error);

  /* The login keyring's password, then the end of the input */
  input = g_subprocess_get_stdin_pipe (self->daemon);
  g_output_stream_write_all (input, "test-password", 13, NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (input, NULL, &error);
  g_assert_no_error (error);

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  /* Synchronous calls: no main loop needed */
  for (ready_by = g_get_monotonic_time () + READY_SECONDS * G_USEC_PER_SEC;
       !keyring_ready (bus) && g_get_monotonic_time () < ready_by;)
    g_usleep (50000);
  if (!keyring_ready (bus))
    g_error ("gnome-keyring-daemon did not offer an unlocked keyring within %d s",
             READY_SECONDS);
}

/* The daemon's files, folders and sockets */
static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        remove_tree (path);
      else
        g_assert_no_errno (g_unlink (path));
    }
  g_assert_no_errno (g_rmdir (dir));
}

void
agent_test_keyring_stop (AgentTestKeyring *self)
{
  g_autoptr(GError) error = NULL;

  secret_service_disconnect ();

  g_subprocess_send_signal (self->daemon, SIGTERM);
  g_subprocess_wait (self->daemon, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&self->daemon);

  g_subprocess_send_signal (self->bus, SIGTERM);
  g_subprocess_wait (self->bus, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&self->bus);
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");

  remove_tree (self->dir);
  g_clear_pointer (&self->dir, g_free);
}
