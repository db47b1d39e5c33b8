/* test-desktop-util.c — agent-desktop-service on a private session bus,
 * for its tests
 *
 * A dbus-daemon of the test's own, with the service's .service file in its
 * service folder, so that the service starts by activation as it would on
 * a desktop, with a profile that points at a loopback OpenAI-shaped server
 * in the test's process. The test is the other side: the applications
 * (each test its own connection, and its own identity through the made-up
 * /proc of $AGENT_DESKTOP_SERVICE_PROC_ROOT) and the consent agent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

DesktopTest test;

/* Files */

void
remove_tree (const char *path)
{
  g_autoptr(GDir) listing = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }
  listing = g_dir_open (path, 0, NULL);
  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_assert_no_errno (g_rmdir (path));
}

/* The process of @proc_dir is, to the service, the Flatpak app @app_id */
void
sandbox (const char *proc_dir,
         const char *app_id)
{
  g_autofree char *root = g_build_filename (proc_dir, "root", NULL);
  g_autofree char *info = g_build_filename (root, ".flatpak-info", NULL);
  g_autofree char *contents = g_strdup_printf ("[Application]\nname=%s\nruntime=runtime/x/y/z\n",
                                               app_id);
  g_autoptr(GError) error = NULL;

  remove_tree (proc_dir);
  g_assert_no_errno (g_mkdir_with_parents (root, 0700));
  g_file_set_contents (info, contents, -1, &error);
  g_assert_no_error (error);
}

/* This process is, to the service, the Flatpak app @app_id */
void
be_sandboxed (const char *app_id)
{
  sandbox (test.proc_dir, app_id);
}

/* This process is itself: its entry is the real one */
void
be_unsandboxed (void)
{
  g_autofree char *real = g_strdup_printf ("/proc/%d", (int) getpid ());

  remove_tree (test.proc_dir);
  g_assert_no_errno (symlink (real, test.proc_dir));
}

/* Calls while the main loop runs (the model's server is in this process) */

typedef struct
{
  GVariant *reply;
  GError   *error;
  gboolean  done;
} Reply;

static void
got_reply (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Reply *reply = user_data;

  reply->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result,
                                                &reply->error);
  reply->done = TRUE;
}

GVariant *
call (GDBusConnection  *connection,
      const char       *path,
      const char       *interface,
      const char       *method,
      GVariant         *parameters,
      GError          **error)
{
  Reply reply = { NULL, NULL, FALSE };

  g_dbus_connection_call (connection, BUS_NAME, path, interface, method, parameters, NULL,
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, got_reply, &reply);
  agent_test_wait_for (&reply.done);
  if (reply.error != NULL)
    g_propagate_error (error, reply.error);
  return reply.reply;
}

GVariant *
call_ok (GDBusConnection *connection,
         const char      *path,
         const char      *interface,
         const char      *method,
         GVariant        *parameters)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = call (connection, path, interface, method, parameters, &error);

  g_assert_no_error (error);
  return reply;
}

void
assert_dbus_error (const GError *error,
                   const char   *name)
{
  g_autofree char *remote = NULL;

  g_assert_nonnull (error);
  remote = g_dbus_error_get_remote_error (error);
  g_assert_cmpstr (remote, ==, name);
}

/* @method fails with the D-Bus error @name */
void
call_fails (GDBusConnection *connection,
            const char      *path,
            const char      *interface,
            const char      *method,
            GVariant        *parameters,
            const char      *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = call (connection, path, interface, method, parameters, &error);

  g_assert_null (reply);
  assert_dbus_error (error, name);
}

/* The methods for Preferences, called as an unsandboxed program */
GVariant *
administer (const char *method,
            GVariant   *parameters)
{
  be_unsandboxed ();
  return call_ok (test.agent, ASSISTANT_PATH, ASSISTANT, method, parameters);
}

GDBusConnection *
connect_app (void)
{
  g_autoptr(GError) error = NULL;
  GDBusConnectionFlags flags = G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                               | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION;
  GDBusConnection *connection;

  connection = g_dbus_connection_new_for_address_sync (test.address, flags, NULL, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_set_exit_on_close (connection, FALSE);
  return connection;
}

/* The consent agent */

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
  const char *what;

  if (g_str_equal (method_name, "ApproveToolCall"))
    {
      const char *app_id, *app_name, *tool, *description, *arguments;

      g_variant_get (parameters, "(&s&s&s&s&s)", &app_id, &app_name, &tool, &description,
                     &arguments);
      test.n_tool_asked++;
      g_free (test.asked_tool);
      test.asked_tool = g_strdup_printf ("%s %s %s %s %s", app_id, app_name, tool, description,
                                         arguments);
      if (test.tool_answer == ANSWER_NONE)
        g_set_object (&test.held, invocation);
      else
        g_dbus_method_invocation_return_value (invocation,
                                               g_variant_new ("(bb)",
                                                              test.tool_answer != ANSWER_DENY,
                                                              test.tool_answer == ANSWER_ALWAYS));
      return;
    }
  test.n_asked++;
  g_clear_pointer (&test.asked_app_id, g_free);
  g_clear_pointer (&test.asked_app_name, g_free);
  g_variant_get (parameters, "(ss&s)", &test.asked_app_id, &test.asked_app_name, &what);
  g_assert_cmpstr (what, !=, "");
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(b)", test.answer == ANSWER_ALLOW));
}

static const GDBusInterfaceVTable consent_vtable = { consent_method_call, NULL, NULL, { 0 } };

void
register_consent_agent (void)
{
  g_autoptr(GVariant) reply = administer ("RegisterConsentAgent",
                                          g_variant_new ("(o)", AGENT_PATH));
}

/* @vtable implements the installed io.github.libagent.AssistantConsent1
 * at @path of @connection; returns its registration */
guint
export_consent_interface (GDBusConnection            *connection,
                          const char                 *path,
                          const GDBusInterfaceVTable *vtable)
{
  g_autoptr(GDBusNodeInfo) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;
  g_autofree char *file = g_test_build_filename (G_TEST_DIST, "..", "data",
                                                 "io.github.libagent.Assistant1.xml", NULL);
  guint id;

  /* The installed interface file is the one implemented */
  g_file_get_contents (file, &xml, NULL, &error);
  g_assert_no_error (error);
  node = g_dbus_node_info_new_for_xml (xml, &error);
  g_assert_no_error (error);
  id = g_dbus_connection_register_object (connection, path,
                                          g_dbus_node_info_lookup_interface (node, CONSENT),
                                          vtable, NULL, NULL, &error);
  g_assert_no_error (error);
  return id;
}

static void
export_consent_agent (void)
{
  test.agent = connect_app ();
  test.agent_id = export_consent_interface (test.agent, AGENT_PATH, &consent_vtable);
  register_consent_agent ();
}

/* The desktop's notification server (org.freedesktop.Notifications), for
 * the questions the service asks without a consent agent */

static const char notifications_xml[] =
  "<node><interface name='org.freedesktop.Notifications'>"
  "  <method name='Notify'>"
  "    <arg type='s' direction='in'/><arg type='u' direction='in'/>"
  "    <arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "    <arg type='s' direction='in'/><arg type='as' direction='in'/>"
  "    <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/>"
  "    <arg type='u' direction='out'/>"
  "  </method>"
  "  <method name='CloseNotification'><arg type='u' direction='in'/></method>"
  "  <signal name='ActionInvoked'><arg type='u'/><arg type='s'/></signal>"
  "</interface></node>";

#define NOTIFICATION_ID 7

static void
notifications_method_call (GDBusConnection       *connection,
                           const char            *sender,
                           const char            *object_path,
                           const char            *interface_name,
                           const char            *method_name,
                           GVariant              *parameters,
                           GDBusMethodInvocation *invocation,
                           gpointer               user_data)
{
  Notifications *notifications = user_data;

  if (g_str_equal (method_name, "CloseNotification"))
    {
      notifications->n_closed++;
      g_dbus_method_invocation_return_value (invocation, NULL);
      return;
    }
  g_clear_pointer (&notifications->summary, g_free);
  g_clear_pointer (&notifications->body, g_free);
  g_clear_pointer (&notifications->actions, g_strfreev);
  g_variant_get_child (parameters, 3, "s", &notifications->summary);
  g_variant_get_child (parameters, 4, "s", &notifications->body);
  g_variant_get_child (parameters, 5, "^as", &notifications->actions);
  notifications->n_notified++;
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(u)", NOTIFICATION_ID));
}

static const GDBusInterfaceVTable notifications_vtable = {
  notifications_method_call, NULL, NULL, { 0 }
};

static void
name_acquired (GDBusConnection *connection,
               const char      *name,
               gpointer         user_data)
{
  ((Notifications *) user_data)->owned = TRUE;
}

/* Serves the desktop's notifications until notifications_stop() */
Notifications *
notifications_start (void)
{
  Notifications *notifications = g_new0 (Notifications, 1);
  g_autoptr(GDBusNodeInfo) node = NULL;
  g_autoptr(GError) error = NULL;

  notifications->connection = connect_app ();
  node = g_dbus_node_info_new_for_xml (notifications_xml, &error);
  g_assert_no_error (error);
  notifications->object_id =
    g_dbus_connection_register_object (notifications->connection,
                                       "/org/freedesktop/Notifications", node->interfaces[0],
                                       &notifications_vtable, notifications, NULL, &error);
  g_assert_no_error (error);
  notifications->owner_id =
    g_bus_own_name_on_connection (notifications->connection, "org.freedesktop.Notifications",
                                  G_BUS_NAME_OWNER_FLAGS_NONE, name_acquired, NULL,
                                  notifications, NULL);
  agent_test_wait_for (&notifications->owned);
  return notifications;
}

void
notifications_stop (Notifications *notifications)
{
  g_bus_unown_name (notifications->owner_id);
  g_dbus_connection_unregister_object (notifications->connection, notifications->object_id);
  g_object_unref (notifications->connection);
  g_free (notifications->summary);
  g_free (notifications->body);
  g_strfreev (notifications->actions);
  g_free (notifications);
}

/* The action of the last notification's button @label, or NULL */
const char *
notifications_get_action (Notifications *notifications,
                          const char    *label)
{
  /* Pairs of key and label */
  for (guint i = 0; notifications->actions != NULL && notifications->actions[i] != NULL
                    && notifications->actions[i + 1] != NULL; i += 2)
    if (g_str_equal (notifications->actions[i + 1], label))
      return notifications->actions[i];
  return NULL;
}

gboolean
has_notification (gpointer data)
{
  return ((Notifications *) data)->n_notified > 0;
}

/* The buttons of the last notification (not its default action) */
guint
notifications_count_buttons (Notifications *notifications)
{
  guint n = 0;

  for (guint i = 0; notifications->actions != NULL && notifications->actions[i] != NULL
                    && notifications->actions[i + 1] != NULL; i += 2)
    n += notifications->actions[i + 1][0] != '\0';
  return n;
}

/* The user presses the last notification's button @label */
void
notifications_press (Notifications *notifications,
                     const char    *label)
{
  const char *action = notifications_get_action (notifications, label);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (action);
  g_dbus_connection_emit_signal (notifications->connection, NULL,
                                 "/org/freedesktop/Notifications",
                                 "org.freedesktop.Notifications", "ActionInvoked",
                                 g_variant_new ("(us)", NOTIFICATION_ID, action), &error);
  g_assert_no_error (error);
}

/* A conversation, seen from its app */

static void
on_signal (GDBusConnection *connection,
           const char      *sender_name,
           const char      *object_path,
           const char      *interface_name,
           const char      *signal_name,
           GVariant        *parameters,
           gpointer         user_data)
{
  Conversation *conversation = user_data;

  if (g_strcmp0 (object_path, conversation->path) != 0)
    return;
  if (g_str_equal (signal_name, "TextDelta"))
    {
      const char *delta;

      g_variant_get (parameters, "(&s)", &delta);
      g_string_append (conversation->text, delta);
      conversation->n_deltas++;
    }
  else if (g_str_equal (signal_name, "ToolCall"))
    {
      const char *id, *name, *arguments;

      g_variant_get (parameters, "(&s&s&s)", &id, &name, &arguments);
      g_ptr_array_add (conversation->tool_calls, g_strdup_printf ("%s %s %s", id, name,
                                                                  arguments));
    }
  else if (g_str_equal (signal_name, "Finished"))
    {
      g_variant_get (parameters, "(@a{sv})", &conversation->usage);
      conversation->ended = TRUE;
    }
  else if (g_str_equal (signal_name, "Failed"))
    {
      g_variant_get (parameters, "(ss)", &conversation->failed_name,
                     &conversation->failed_message);
      conversation->ended = TRUE;
    }
}

Conversation *
conversation_start (GDBusConnection *app,
                    GError         **error)
{
  Conversation *conversation = g_new0 (Conversation, 1);
  g_autoptr(GVariant) reply = NULL;
  GVariantBuilder options;

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "system-prompt", g_variant_new_string ("Be brief."));
  reply = call (app, ASSISTANT_PATH, ASSISTANT, "StartConversation",
                g_variant_new ("(sa{sv})", "", &options), error);
  if (reply == NULL)
    {
      g_free (conversation);
      return NULL;
    }
  conversation->app = g_object_ref (app);
  g_variant_get (reply, "(o)", &conversation->path);
  conversation->text = g_string_new (NULL);
  conversation->tool_calls = g_ptr_array_new_with_free_func (g_free);
  conversation->subscription =
    g_dbus_connection_signal_subscribe (app, NULL, CONVERSATION, NULL, conversation->path, NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_signal, conversation, NULL);
  return conversation;
}

void
conversation_free (Conversation *conversation)
{
  if (!g_dbus_connection_is_closed (conversation->app))
    g_dbus_connection_signal_unsubscribe (conversation->app, conversation->subscription);
  g_object_unref (conversation->app);
  g_free (conversation->path);
  g_string_free (conversation->text, TRUE);
  g_ptr_array_unref (conversation->tool_calls);
  g_clear_pointer (&conversation->usage, g_variant_unref);
  g_free (conversation->failed_name);
  g_free (conversation->failed_message);
  g_free (conversation);
}

void
conversation_send (Conversation *conversation,
                   const char   *text,
                   GVariant     *tools,
                   GError      **error)
{
  g_autoptr(GVariant) reply = NULL;

  conversation->ended = FALSE;
  g_clear_pointer (&conversation->failed_name, g_free);
  g_clear_pointer (&conversation->failed_message, g_free);
  g_clear_pointer (&conversation->usage, g_variant_unref);
  reply = call (conversation->app, conversation->path, CONVERSATION, "Send",
                g_variant_new ("(s@aa{sv})", text,
                               tools ? tools : g_variant_new_array (G_VARIANT_TYPE_VARDICT,
                                                                    NULL, 0)),
                error);
}

gboolean
has_ended (gpointer data)
{
  return ((Conversation *) data)->ended;
}

gboolean
has_deltas (gpointer data)
{
  return ((Conversation *) data)->n_deltas > 0;
}

gboolean
has_tool_call (gpointer data)
{
  return ((Conversation *) data)->tool_calls->len > 0;
}

gint64
usage_member (Conversation *conversation,
              const char   *name)
{
  gint64 value = -1;

  g_assert_nonnull (conversation->usage);
  g_assert_true (g_variant_lookup (conversation->usage, name, "x", &value));
  return value;
}

void
add_hello (void)
{
  const char *deltas[] = { "Hel", "lo", NULL };

  agent_test_openai_add_text_response (test.server, deltas, 3, 2);
}

/* A connection of an app allowed already (by a consent agent that allows) */
GDBusConnection *
connect_allowed_app (const char *app_id)
{
  GDBusConnection *app = connect_app ();
  g_autoptr(GVariant) reply = NULL;

  be_sandboxed (app_id);
  test.answer = ANSWER_ALLOW;
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  return app;
}

/* The service's process */

guint32
get_service_pid (void)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint32 pid = 0;

  reply = g_dbus_connection_call_sync (test.agent, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID",
                                       g_variant_new ("(s)", BUS_NAME), G_VARIANT_TYPE ("(u)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  if (reply == NULL)
    return 0;
  g_variant_get (reply, "(u)", &pid);
  return pid;
}

void
service_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

/* Ends the running service, and waits until it has left the bus */
void
stop_service (void)
{
  guint32 pid = get_service_pid ();
  gboolean vanished = FALSE;
  guint watch;

  g_assert_cmpuint (pid, >, 0);
  watch = g_bus_watch_name_on_connection (test.agent, BUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          NULL, service_vanished, &vanished, NULL);
  g_assert_no_errno (kill ((pid_t) pid, SIGTERM));
  agent_test_wait_for (&vanished);
  g_bus_unwatch_name (watch);
}

/* Set-up */

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
start_bus (void)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *services = g_build_filename (test.dir, "services", NULL);
  g_autofree char *service_file = g_build_filename (services, BUS_NAME ".service", NULL);
  g_autofree char *config = g_build_filename (test.dir, "bus.conf", NULL);
  g_autofree char *profiles = g_build_filename (test.dir, "profiles.ini", NULL);
  g_autofree char *proc = g_build_filename (test.dir, "proc", NULL);
  g_autofree char *contents = NULL;
  const char *program = g_getenv ("AGENT_DESKTOP_SERVICE");

  g_assert_nonnull (program);
  g_assert_no_errno (g_mkdir (services, 0700));
  g_assert_no_errno (g_mkdir (proc, 0700));
  contents = g_strdup_printf ("[D-BUS Service]\nName=%s\nExec=%s\n", BUS_NAME, program);
  write_file (service_file, contents);
  g_free (contents);
  contents = g_strdup_printf ("<busconfig>\n"
                              "  <type>session</type>\n"
                              "  <listen>unix:dir=%s</listen>\n"
                              "  <servicedir>%s</servicedir>\n"
                              "  <policy context=\"default\">\n"
                              "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                              "    <allow eavesdrop=\"true\"/>\n"
                              "    <allow own=\"*\"/>\n"
                              "  </policy>\n"
                              "</busconfig>\n", test.dir, services);
  write_file (config, contents);
  g_free (contents);
  contents = g_strdup_printf ("[Profiles]\ndefault=Loopback\n\n"
                              "[Profile Loopback]\nprovider=openai\nbase-url=%s\n"
                              "model=test-model\n\n"
                              /* Neither listed nor used: it would be the
                               * service asking itself */
                              "[Profile Itself]\nprovider=desktop\n",
                              agent_test_server_get_base_url (test.server));
  write_file (profiles, contents);

  /* (The launcher takes the environment as it is when made) */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  test.bus = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--nofork",
                                          "--print-address=1", "--config-file", config, NULL);
  g_assert_no_error (error);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (test.bus));
  test.address = g_data_input_stream_read_line_utf8 (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (test.address);
}

/* The service gets the bus's environment. (Before any thread is made.) */
static void
set_environment (void)
{
  g_autofree char *profiles = g_build_filename (test.dir, "profiles.ini", NULL);
  g_autofree char *proc = g_build_filename (test.dir, "proc", NULL);
  g_autofree char *data = g_build_filename (test.dir, "data", NULL);

  g_setenv ("AGENT_PROFILES", profiles, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("AGENT_DESKTOP_SERVICE_PROC_ROOT", proc, TRUE);
  g_setenv ("OPENAI_API_KEY", SECRET, TRUE);
  test.proc_dir = g_strdup_printf ("%s/%d", proc, (int) getpid ());
}

static void
stop_bus (void)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_unregister_object (test.agent, test.agent_id);
  g_dbus_connection_close_sync (test.agent, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&test.agent);
  g_subprocess_send_signal (test.bus, SIGTERM);
  g_subprocess_wait (test.bus, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&test.bus);
  g_free (test.address);
}

/* The bus, the service's environment and the consent agent, for a test
 * program named @name */
void
desktop_setup (const char *name)
{
  test.dir = agent_test_make_dir (name);
  set_environment ();
  test.server = agent_test_server_new ();
  start_bus ();
  export_consent_agent ();
}

void
desktop_teardown (void)
{
  stop_bus ();
  agent_test_server_free (test.server);
  remove_tree (test.dir);
  g_free (test.dir);
  g_free (test.proc_dir);
  g_free (test.asked_app_id);
  g_free (test.asked_app_name);
  g_free (test.asked_tool);
  g_clear_object (&test.held);
}
