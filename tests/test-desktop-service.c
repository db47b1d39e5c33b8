/* test-desktop-service.c — agent-desktop-service: consent, who is asking,
 * limits, restarts (test-desktop-util.c sets up the bus and the service)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

/* Consent */

static void
test_consent_granted (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) again = NULL;
  g_autoptr(GVariant) details = NULL;
  g_autofree char *printed = NULL;
  const char *name, *label;
  guint n_asked = test.n_asked;
  gboolean is_default = FALSE;

  be_sandboxed ("org.example.Granted");
  test.answer = ANSWER_ALLOW;
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
  g_assert_cmpstr (test.asked_app_id, ==, "org.example.Granted");
  g_assert_cmpstr (test.asked_app_name, ==, "org.example.Granted");

  g_assert_cmpuint (g_variant_n_children (reply), ==, 1);
  {
    g_autoptr(GVariant) profiles = g_variant_get_child_value (reply, 0);

    g_assert_cmpuint (g_variant_n_children (profiles), ==, 1);
    g_variant_get_child (profiles, 0, "(&s&s@a{sv})", &name, &label, &details);
    g_assert_cmpstr (name, ==, "Loopback");
    g_assert_cmpstr (label, ==, "openai/test-model");
    g_assert_true (g_variant_lookup (details, "default", "b", &is_default));
    g_assert_true (is_default);
  }
  printed = g_variant_print (reply, FALSE);
  g_assert_null (strstr (printed, SECRET));

  /* Remembered: not asked again */
  again = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
}

static void
test_consent_denied (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Conversation) conversation = NULL;
  guint n_asked = test.n_asked;

  be_sandboxed ("org.example.Denied");
  test.answer = ANSWER_DENY;
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL, ERROR_PREFIX "AccessDenied");
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
  g_clear_error (&error);

  /* Remembered: refused without asking */
  test.answer = ANSWER_ALLOW;
  conversation = conversation_start (app, &error);
  g_assert_null (conversation);
  assert_dbus_error (error, ERROR_PREFIX "AccessDenied");
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
}

static void
test_consent_revoked (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Revoked");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) apps = NULL;
  g_autoptr(GVariant) revoked = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) details = NULL;
  guint n_asked = test.n_asked;
  gboolean allowed = FALSE;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);

  apps = administer ("ListApps", NULL);
  {
    g_autoptr(GVariant) list = g_variant_get_child_value (apps, 0);

    g_assert_true (g_variant_lookup (list, "org.example.Revoked", "@a{sv}", &details));
    g_assert_true (g_variant_lookup (details, "allowed", "b", &allowed));
    g_assert_true (allowed);
  }

  revoked = administer ("Revoke", g_variant_new ("(s)", "org.example.Revoked"));

  /* Its conversation is closed, and its next request asks again */
  be_sandboxed ("org.example.Revoked");
  conversation_send (conversation, "Hello?", NULL, &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
  g_clear_error (&error);

  test.answer = ANSWER_DENY;
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL, ERROR_PREFIX "AccessDenied");
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
  g_clear_error (&error);

  /* An app that never asked cannot be revoked */
  be_unsandboxed ();
  call_fails (test.agent, ASSISTANT_PATH, ASSISTANT, "Revoke",
              g_variant_new ("(s)", "org.example.Nobody"), ERROR_PREFIX "InvalidArgs");
}

/* A sandboxed caller gets none of the methods for Preferences */
static void
test_consent_sandboxed_admin (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  be_sandboxed ("org.example.Sneaky");
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "SetDailyLimit",
              g_variant_new ("(st)", "org.example.Sneaky", (guint64) 0),
              ERROR_PREFIX "NotSupported");
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "RegisterConsentAgent",
              g_variant_new ("(o)", "/"), ERROR_PREFIX "NotSupported");
}

/* Without a consent agent: a notification. The test is the desktop's
 * notification server, and presses its Allow button. */

typedef struct
{
  GVariant *reply;
  GError   *error;
  gboolean  done;
} Pending;

static void
reply_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Pending *reply = user_data;

  reply->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result,
                                                &reply->error);
  reply->done = TRUE;
}

static void
test_consent_notification (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) unregistered = NULL;
  Notifications *notifications = notifications_start ();
  Pending reply = { NULL, NULL, FALSE };
  guint n_asked = test.n_asked;

  unregistered = administer ("UnregisterConsentAgent", g_variant_new ("(o)", AGENT_PATH));

  /* The request waits while the notification is out */
  be_sandboxed ("org.example.Notified");
  g_dbus_connection_call (app, BUS_NAME, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL, NULL,
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, reply_done, &reply);
  agent_test_wait_until (has_notification, notifications);
  g_assert_false (reply.done);
  agent_test_assert_contains (notifications->summary, "org.example.Notified");

  notifications_press (notifications, "Allow");
  agent_test_wait_for (&reply.done);
  g_assert_no_error (reply.error);
  g_variant_unref (reply.reply);
  g_assert_cmpuint (test.n_asked, ==, n_asked);

  /* Remembered as any answer */
  be_unsandboxed ();
  {
    g_autoptr(GVariant) apps = administer ("ListApps", NULL);
    g_autoptr(GVariant) list = g_variant_get_child_value (apps, 0);
    g_autoptr(GVariant) details = NULL;
    gboolean allowed = FALSE;

    g_assert_true (g_variant_lookup (list, "org.example.Notified", "@a{sv}", &details));
    g_assert_true (g_variant_lookup (details, "allowed", "b", &allowed));
    g_assert_true (allowed);
  }

  register_consent_agent ();
  notifications_stop (notifications);
}

/* An unsandboxed program is its executable: this test's own, or under
 * valgrind valgrind's (which /proc/PID/exe names to other processes) */
static void
test_identify_executable (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *base = NULL;

  be_unsandboxed ();
  test.answer = ANSWER_DENY;
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL, ERROR_PREFIX "AccessDenied");
  g_assert_true (g_path_is_absolute (test.asked_app_id));
  g_assert_true (g_file_test (test.asked_app_id, G_FILE_TEST_IS_EXECUTABLE));
  base = g_path_get_basename (test.asked_app_id);
  g_assert_cmpstr (test.asked_app_name, ==, base);

  /* Undo, for the methods for Preferences of the other tests */
  reply = administer ("Revoke", g_variant_new ("(s)", test.asked_app_id));
}

/* The process of @proc_dir is the interpreter @exe running @cmdline
 * (arguments separated by '|') in @cwd */
static void
be_interpreter (const char *exe,
                const char *cwd,
                const char *cmdline)
{
  g_autofree char *exe_link = g_build_filename (test.proc_dir, "exe", NULL);
  g_autofree char *cwd_link = g_build_filename (test.proc_dir, "cwd", NULL);
  g_autofree char *cmdline_path = g_build_filename (test.proc_dir, "cmdline", NULL);
  g_autofree char *contents = g_strconcat (cmdline, "|", NULL);
  g_autoptr(GError) error = NULL;

  remove_tree (test.proc_dir);
  g_assert_no_errno (g_mkdir (test.proc_dir, 0700));
  g_assert_no_errno (symlink (exe, exe_link));
  g_assert_no_errno (symlink (cwd, cwd_link));
  g_strdelimit (contents, "|", '\0');
  g_file_set_contents (cmdline_path, contents, strlen (cmdline) + 1, &error);
  g_assert_no_error (error);
}

/* An interpreter's program is its script, not the interpreter */
static void
test_identify_script (void)
{
  static const struct {
    const char *exe, *cmdline, *app_id, *app_name;
  } cases[] = {
    { "/usr/bin/python3.11", "python3|-u|-W|ignore|app.py|--flag",
      "/home/ana/project/app.py", "app.py" },
    { "/usr/bin/gjs-console", "gjs|-m|../tools/notes.js",
      "/home/ana/tools/notes.js", "notes.js" },
    { "/usr/bin/python3.11", "python3|--|/opt/editor/editor.py",
      "/opt/editor/editor.py", "editor.py" },
    { "/usr/bin/python3.11", "python3|-m|editor.main|--new",
      "/usr/bin/python3.11 -m editor.main", "editor.main" },
    /* No script: the interpreter */
    { "/usr/bin/python3.11", "python3|-c|print (1)", "/usr/bin/python3.11", "python3.11" },
    { "/usr/bin/python3.11", "python3|-u", "/usr/bin/python3.11", "python3.11" },
    /* Not an interpreter: its arguments are not a program */
    { "/usr/bin/editor", "editor|notes.py", "/usr/bin/editor", "editor" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GDBusConnection) app = connect_app ();
      g_autoptr(GVariant) reply = NULL;

      be_interpreter (cases[i].exe, "/home/ana/project", cases[i].cmdline);
      test.answer = ANSWER_DENY;
      call_fails (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL,
                  ERROR_PREFIX "AccessDenied");
      g_assert_cmpstr (test.asked_app_id, ==, cases[i].app_id);
      g_assert_cmpstr (test.asked_app_name, ==, cases[i].app_name);
      reply = administer ("Revoke", g_variant_new ("(s)", cases[i].app_id));
    }
}

/* A sandbox whose metadata names no app is refused */
static void
test_identify_bad_sandbox (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint n_asked = test.n_asked;

  be_sandboxed ("not an app id");
  reply = call (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL, &error);
  assert_dbus_error (error, ERROR_PREFIX "AccessDenied");
  g_assert_nonnull (strstr (error->message, "no valid application"));
  g_assert_cmpuint (test.n_asked, ==, n_asked);
}

static void
test_limit (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Limited");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(Conversation) refused = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) apps = NULL;
  g_autoptr(GVariant) details = NULL;
  g_autoptr(GError) error = NULL;
  guint64 used = 0, limit = 0;

  reply = administer ("SetDailyLimit", g_variant_new ("(st)", "org.example.Limited",
                                                      (guint64) 5));
  be_sandboxed ("org.example.Limited");
  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  add_hello ();   /* 5 tokens */
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_name);

  conversation_send (conversation, "More", NULL, &error);
  assert_dbus_error (error, ERROR_PREFIX "LimitReached");
  g_clear_error (&error);
  refused = conversation_start (app, &error);
  assert_dbus_error (error, ERROR_PREFIX "LimitReached");

  apps = administer ("ListApps", NULL);
  {
    g_autoptr(GVariant) list = g_variant_get_child_value (apps, 0);

    g_assert_true (g_variant_lookup (list, "org.example.Limited", "@a{sv}", &details));
    g_assert_true (g_variant_lookup (details, "tokens-today", "t", &used));
    g_assert_true (g_variant_lookup (details, "daily-limit", "t", &limit));
    g_assert_cmpuint (used, ==, 5);
    g_assert_cmpuint (limit, ==, 5);
  }
}

/* An app may have 32 conversations open at once */
static void
test_limit_conversations (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Many");
  g_autoptr(GPtrArray) conversations = NULL;
  g_autoptr(Conversation) refused = NULL;
  g_autoptr(Conversation) last = NULL;
  g_autoptr(GVariant) closed = NULL;
  g_autoptr(GError) error = NULL;

  conversations = g_ptr_array_new_with_free_func ((GDestroyNotify) conversation_free);
  for (guint i = 0; i < 32; i++)
    {
      g_ptr_array_add (conversations, conversation_start (app, &error));
      g_assert_no_error (error);
    }
  refused = conversation_start (app, &error);
  g_assert_null (refused);
  assert_dbus_error (error, ERROR_PREFIX "LimitReached");
  g_clear_error (&error);

  /* One closed, one more may open */
  closed = call_ok (app, ((Conversation *) g_ptr_array_index (conversations, 0))->path,
                    CONVERSATION, "Close", NULL);
  last = conversation_start (app, &error);
  g_assert_no_error (error);
}

/* Restarts */

static void
test_restart (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Restart");
  g_autoptr(GDBusConnection) again = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint32 pid = get_service_pid ();
  guint n_asked = test.n_asked;

  stop_service ();

  /* Started again by activation; the answer was remembered */
  again = connect_app ();
  be_sandboxed ("org.example.Restart");
  reply = call_ok (again, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_assert_cmpuint (get_service_pid (), !=, pid);
  g_assert_cmpuint (test.n_asked, ==, n_asked);
  register_consent_agent ();
}

/* A file of answers that cannot be read is kept aside, and the apps are
 * asked again */
static void
test_broken_file (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (test.dir, "data", "libagent", "desktop-service",
                                           NULL);
  g_autofree char *path = g_build_filename (dir, "apps.ini", NULL);
  g_autofree char *aside = g_build_filename (dir, "apps.ini.broken", NULL);
  g_autofree char *kept = NULL;
  guint n_asked = test.n_asked;

  stop_service ();
  g_file_set_contents (path, "[App org.example.Restart\nallowed=true\n", -1, &error);
  g_assert_no_error (error);

  register_consent_agent ();   /* starts the service */
  be_sandboxed ("org.example.Restart");
  test.answer = ANSWER_ALLOW;
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_assert_cmpuint (test.n_asked, ==, n_asked + 1);
  g_file_get_contents (aside, &kept, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kept, ==, "[App org.example.Restart\nallowed=true\n");
}

static gboolean
timed_out (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The service leaves when idle, and not while a conversation is open */
static void
test_idle (void)
{
  g_autoptr(GDBusConnection) app = NULL;
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) closed = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder environment;
  gboolean vanished = FALSE;
  gboolean waited = FALSE;
  guint watch;

  /* The next service leaves after a second of idleness */
  g_variant_builder_init (&environment, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&environment, "{ss}", "AGENT_DESKTOP_SERVICE_IDLE_SECONDS", "1");
  reply = g_dbus_connection_call_sync (test.agent, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "UpdateActivationEnvironment",
                                       g_variant_new ("(a{ss})", &environment), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  stop_service ();

  /* Started again with a conversation open: it stays past its second */
  app = connect_allowed_app ("org.example.Restart");
  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  watch = g_bus_watch_name_on_connection (test.agent, BUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          NULL, service_vanished, &vanished, NULL);
  g_timeout_add (1500, timed_out, &waited);
  agent_test_wait_for (&waited);
  g_assert_false (vanished);
  add_hello ();
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);
  g_assert_cmpstr (conversation->text->str, ==, "Hello");

  /* Closed, it leaves */
  closed = call_ok (app, conversation->path, CONVERSATION, "Close", NULL);
  agent_test_wait_for (&vanished);
  g_bus_unwatch_name (watch);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  desktop_setup ("test-desktop-service");

  g_test_add_func ("/desktop/consent/granted", test_consent_granted);
  g_test_add_func ("/desktop/consent/denied", test_consent_denied);
  g_test_add_func ("/desktop/consent/revoked", test_consent_revoked);
  g_test_add_func ("/desktop/consent/sandboxed-admin", test_consent_sandboxed_admin);
  g_test_add_func ("/desktop/consent/notification", test_consent_notification);
  g_test_add_func ("/desktop/identify/executable", test_identify_executable);
  g_test_add_func ("/desktop/identify/script", test_identify_script);
  g_test_add_func ("/desktop/identify/bad-sandbox", test_identify_bad_sandbox);
  g_test_add_func ("/desktop/limit/daily", test_limit);
  g_test_add_func ("/desktop/limit/conversations", test_limit_conversations);
  g_test_add_func ("/desktop/service/restart", test_restart);
  g_test_add_func ("/desktop/service/broken-file", test_broken_file);
  g_test_add_func ("/desktop/service/idle", test_idle);
  status = g_test_run ();

  desktop_teardown ();
  return status;
}
