/* test-desktop-service.c — agent-desktop-service on a private session bus
 *
 * A dbus-daemon of the test's own, with the service's .service file in its
 * service folder, so that the service starts by activation as it would on
 * a desktop, with a profile that points at a loopback OpenAI-shaped server
 * in this process. This process is the other side: the applications (each
 * test its own connection, and its own identity through the made-up /proc
 * of $AGENT_DESKTOP_SERVICE_PROC_ROOT) and the consent agent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define BUS_NAME         "io.github.libagent.Assistant"
#define ASSISTANT_PATH   "/io/github/libagent/Assistant"
#define ASSISTANT        "io.github.libagent.Assistant1"
#define CONVERSATION     "io.github.libagent.AssistantConversation1"
#define CONSENT          "io.github.libagent.AssistantConsent1"
#define AGENT_PATH       "/io/github/libagent/Test/ConsentAgent"
#define ERROR_PREFIX     "io.github.libagent.Assistant1.Error."
#define SECRET           "sk-test-desktop-secret-8c1f"

typedef enum
{
  ANSWER_ALLOW,
  ANSWER_DENY,
} Answer;

static struct
{
  char            *dir;
  char            *proc_dir;   /* this process's entry in the made-up /proc */
  GSubprocess     *bus;
  char            *address;
  AgentTestServer *server;
  GDBusConnection *agent;      /* the consent agent's connection */
  guint            agent_id;
  Answer           answer;
  guint            n_asked;
  char            *asked_app_id;
  char            *asked_app_name;
} test;

/* Files */

static void
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
static void
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
static void
be_sandboxed (const char *app_id)
{
  sandbox (test.proc_dir, app_id);
}

/* This process is itself: its entry is the real one */
static void
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

static GVariant *
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

static GVariant *
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

static void
assert_dbus_error (const GError *error,
                   const char   *name)
{
  g_autofree char *remote = NULL;

  g_assert_nonnull (error);
  remote = g_dbus_error_get_remote_error (error);
  g_assert_cmpstr (remote, ==, name);
}

/* @method fails with the D-Bus error @name */
static void
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
static GVariant *
administer (const char *method,
            GVariant   *parameters)
{
  be_unsandboxed ();
  return call_ok (test.agent, ASSISTANT_PATH, ASSISTANT, method, parameters);
}

static GDBusConnection *
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

  test.n_asked++;
  g_clear_pointer (&test.asked_app_id, g_free);
  g_clear_pointer (&test.asked_app_name, g_free);
  g_variant_get (parameters, "(ss&s)", &test.asked_app_id, &test.asked_app_name, &what);
  g_assert_cmpstr (what, !=, "");
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(b)", test.answer == ANSWER_ALLOW));
}

static const GDBusInterfaceVTable consent_vtable = { consent_method_call, NULL, NULL, { 0 } };

static void
register_consent_agent (void)
{
  g_autoptr(GVariant) reply = administer ("RegisterConsentAgent",
                                          g_variant_new ("(o)", AGENT_PATH));
}

static void
export_consent_agent (void)
{
  g_autoptr(GDBusNodeInfo) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data",
                                                 "io.github.libagent.Assistant1.xml", NULL);

  /* The installed interface file is the one implemented */
  g_file_get_contents (path, &xml, NULL, &error);
  g_assert_no_error (error);
  node = g_dbus_node_info_new_for_xml (xml, &error);
  g_assert_no_error (error);
  test.agent = connect_app ();
  test.agent_id = g_dbus_connection_register_object (test.agent, AGENT_PATH,
                                                     g_dbus_node_info_lookup_interface (node,
                                                                                        CONSENT),
                                                     &consent_vtable, NULL, NULL, &error);
  g_assert_no_error (error);
  register_consent_agent ();
}

/* A conversation, seen from its app */

typedef struct
{
  GDBusConnection *app;
  char            *path;
  guint            subscription;
  GString         *text;
  guint            n_deltas;
  GPtrArray       *tool_calls;   /* "id name arguments" */
  GVariant        *usage;
  char            *failed_name;
  char            *failed_message;
  gboolean         ended;
} Conversation;

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

static Conversation *
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

static void
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Conversation, conversation_free)

static void
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

static gboolean
has_ended (gpointer data)
{
  return ((Conversation *) data)->ended;
}

static gboolean
has_deltas (gpointer data)
{
  return ((Conversation *) data)->n_deltas > 0;
}

static gboolean
has_tool_call (gpointer data)
{
  return ((Conversation *) data)->tool_calls->len > 0;
}

static gint64
usage_member (Conversation *conversation,
              const char   *name)
{
  gint64 value = -1;

  g_assert_nonnull (conversation->usage);
  g_assert_true (g_variant_lookup (conversation->usage, name, "x", &value));
  return value;
}

static void
add_hello (void)
{
  const char *deltas[] = { "Hel", "lo", NULL };

  agent_test_openai_add_text_response (test.server, deltas, 3, 2);
}

/* A connection of an app allowed already (by a consent agent that allows) */
static GDBusConnection *
connect_allowed_app (const char *app_id)
{
  GDBusConnection *app = connect_app ();
  g_autoptr(GVariant) reply = NULL;

  be_sandboxed (app_id);
  test.answer = ANSWER_ALLOW;
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  return app;
}

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

/* Turns */

static void
test_turn_streams (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Stream");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) log = NULL;
  g_autoptr(GError) error = NULL;
  guint first = agent_test_server_get_n_requests (test.server);
  const char *text = NULL;
  gint64 time;
  const char *app_id, *profile;
  guint64 tokens;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  add_hello ();
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);

  g_assert_null (conversation->failed_name);
  g_assert_cmpstr (conversation->text->str, ==, "Hello");
  g_assert_cmpuint (conversation->n_deltas, ==, 2);
  g_assert_cmpint (usage_member (conversation, "total-tokens"), ==, 5);
  g_assert_true (g_variant_lookup (conversation->usage, "text", "&s", &text));
  g_assert_cmpstr (text, ==, "Hello");
  g_assert_cmpstr (agent_test_openai_get_last_user_content (test.server, first), ==, "Hi");
  g_assert_cmpstr (agent_test_openai_get_message_string (test.server, first, 0, "content"), ==,
                   "Be brief.");
  /* The key went to the server, and only there */
  g_assert_cmpstr (agent_test_server_get_request_header (test.server, first, "Authorization"),
                   ==, "Bearer " SECRET);

  log = administer ("ListLog", g_variant_new ("(s)", "org.example.Stream"));
  {
    g_autoptr(GVariant) entries = g_variant_get_child_value (log, 0);

    g_assert_cmpuint (g_variant_n_children (entries), ==, 1);
    g_variant_get_child (entries, 0, "(x&s&st)", &time, &app_id, &profile, &tokens);
    g_assert_cmpint (time, >, 0);
    g_assert_cmpstr (app_id, ==, "org.example.Stream");
    g_assert_cmpstr (profile, ==, "Loopback");
    g_assert_cmpuint (tokens, ==, 5);
  }
}

static void
test_turn_tool (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Tools");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  const AgentTestToolChunk chunks[] = {
    { 0, "call_7", "lookup", "{\"word\":" },
    { 0, NULL, NULL, "\"tea\"}" },
  };
  const char *deltas[] = { "Tea is ", "a drink.", NULL };
  guint first = agent_test_server_get_n_requests (test.server);
  GVariantBuilder tools;
  GVariantBuilder tool;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  agent_test_openai_add_tool_response (test.server, chunks, G_N_ELEMENTS (chunks), 4, 3);
  agent_test_openai_add_text_response (test.server, deltas, 6, 4);

  g_variant_builder_init (&tool, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&tool, "{sv}", "name", g_variant_new_string ("lookup"));
  g_variant_builder_add (&tool, "{sv}", "description",
                         g_variant_new_string ("Looks a word up in the app's dictionary"));
  g_variant_builder_add (&tool, "{sv}", "parameters",
                         g_variant_new_string ("{\"type\":\"object\",\"properties\":"
                                               "{\"word\":{\"type\":\"string\"}},"
                                               "\"required\":[\"word\"]}"));
  g_variant_builder_init (&tools, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&tools, g_variant_builder_end (&tool));
  conversation_send (conversation, "What is tea?", g_variant_builder_end (&tools), &error);
  g_assert_no_error (error);

  agent_test_wait_until (has_tool_call, conversation);
  g_assert_cmpstr (g_ptr_array_index (conversation->tool_calls, 0), ==,
                   "call_7 lookup {\"word\":\"tea\"}");
  g_assert_cmpstr (agent_test_openai_function_string (
                     json_object_get_array_member (agent_test_openai_get_request (test.server,
                                                                                  first),
                                                   "tools"), 0, "name"), ==, "lookup");

  /* A result for a call that is not waiting is refused */
  call_fails (app, conversation->path, CONVERSATION, "ToolResult",
              g_variant_new ("(ssb)", "call_8", "{}", FALSE), ERROR_PREFIX "InvalidArgs");

  reply = call_ok (app, conversation->path, CONVERSATION, "ToolResult",
                   g_variant_new ("(ssb)", "call_7", "{\"meaning\":\"a drink\"}", FALSE));
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_name);
  g_assert_cmpstr (conversation->text->str, ==, "Tea is a drink.");
  g_assert_cmpstr (agent_test_openai_tool_message_content (test.server, first + 1, "call_7"), ==,
                   "{\"meaning\":\"a drink\"}");
  g_assert_cmpint (usage_member (conversation, "total-tokens"), ==, 17);
}

static void
test_turn_bad_tools (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.BadTools");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder tools;
  GVariantBuilder tool;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  g_variant_builder_init (&tool, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&tool, "{sv}", "name", g_variant_new_string ("broken"));
  g_variant_builder_add (&tool, "{sv}", "parameters", g_variant_new_string ("{not json"));
  g_variant_builder_init (&tools, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&tools, g_variant_builder_end (&tool));
  conversation_send (conversation, "Hi", g_variant_builder_end (&tools), &error);
  assert_dbus_error (error, ERROR_PREFIX "InvalidArgs");
  g_assert_nonnull (strstr (error->message, "broken"));
  g_clear_error (&error);

  /* Another app cannot use this one's conversation */
  {
    g_autoptr(GDBusConnection) other = connect_allowed_app ("org.example.Other");
    call_fails (other, conversation->path, CONVERSATION, "Cancel", NULL,
                ERROR_PREFIX "AccessDenied");
  }
}

static gboolean
server_saw_abort (gpointer data)
{
  return agent_test_server_get_n_aborted (test.server) > GPOINTER_TO_UINT (data);
}

/* A turn whose answer stops after its first words, until released */
static void
add_held_answer (void)
{
  AgentTestResponse *response = agent_test_openai_begin (test.server, NULL);

  agent_test_openai_add_text (response, "Thinking");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, " done");
  agent_test_openai_add_end (response, "stop", 1, 1);
}

/* A conversation of @app whose turn has begun to answer and waits */
static Conversation *
start_held_turn (GDBusConnection *app)
{
  g_autoptr(GError) error = NULL;
  Conversation *conversation = conversation_start (app, &error);

  g_assert_no_error (error);
  add_held_answer ();
  conversation_send (conversation, "Think", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_deltas, conversation);
  return conversation;
}

static void
test_turn_cancel (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Cancel");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint n_aborted = agent_test_server_get_n_aborted (test.server);

  conversation = start_held_turn (app);

  /* Busy while it answers */
  conversation_send (conversation, "Again", NULL, &error);
  assert_dbus_error (error, ERROR_PREFIX "Busy");
  g_clear_error (&error);

  reply = call_ok (app, conversation->path, CONVERSATION, "Cancel", NULL);
  agent_test_wait_until (has_ended, conversation);
  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Cancelled");
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);

  /* The conversation goes on */
  conversation->n_deltas = 0;
  g_string_truncate (conversation->text, 0);
  add_hello ();
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_message);
  g_assert_cmpstr (conversation->text->str, ==, "Hello");
  g_clear_pointer (&reply, g_variant_unref);

  reply = call_ok (app, conversation->path, CONVERSATION, "Close", NULL);
}

static gboolean
conversation_is_gone (gpointer data)
{
  Conversation *conversation = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = call (test.agent, conversation->path, CONVERSATION, "Cancel", NULL,
                                    &error);

  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
}

static void
test_turn_app_vanishes (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Vanishes");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  guint n_aborted = agent_test_server_get_n_aborted (test.server);

  conversation = start_held_turn (app);

  /* The app leaves the bus mid-turn: the service stops asking the model */
  g_dbus_connection_close_sync (app, NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);
  be_unsandboxed ();
  agent_test_wait_until (conversation_is_gone, conversation);
}

/* An app in a process of its own, killed mid-turn */

typedef struct
{
  GDataInputStream *output;
  char             *line;
  gboolean          done;
} Line;

static void
got_line (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Line *line = user_data;
  g_autoptr(GError) error = NULL;

  line->line = g_data_input_stream_read_line_finish_utf8 (line->output, result, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line->line);
  line->done = TRUE;
}

/* The app's next line (the main loop runs meanwhile: the service and the
 * model's server need it) */
static char *
read_app_line (GDataInputStream *output)
{
  Line line = { output, NULL, FALSE };

  g_data_input_stream_read_line_async (output, G_PRIORITY_DEFAULT, NULL, got_line, &line);
  agent_test_wait_for (&line.done);
  return line.line;
}

static void
test_turn_app_killed (void)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) app = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "desktop-service-app.py", NULL);
  g_autofree char *proc_dir = NULL;
  g_autofree char *path_line = NULL;
  guint n_aborted = agent_test_server_get_n_aborted (test.server);
  Conversation conversation = { 0 };

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                        | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", test.address, TRUE);
  app = g_subprocess_launcher_spawn (launcher, &error, "/usr/bin/python3", script, NULL);
  g_assert_no_error (error);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (app));

  /* Its identity, then it may start */
  proc_dir = g_build_filename (test.dir, "proc", g_subprocess_get_identifier (app), NULL);
  sandbox (proc_dir, "org.example.Python");
  test.answer = ANSWER_ALLOW;
  add_held_answer ();
  g_output_stream_write_all (g_subprocess_get_stdin_pipe (app), "go\n", 3, NULL, NULL, &error);
  g_assert_no_error (error);

  path_line = read_app_line (output);
  g_assert_true (g_str_has_prefix (path_line, "path /io/github/libagent/Assistant/"));
  g_assert_cmpstr (test.asked_app_id, ==, "org.example.Python");
  for (;;)
    {
      g_autofree char *signal_name = read_app_line (output);

      if (g_str_equal (signal_name, "TextDelta"))
        break;
    }

  /* Killed mid-turn: the service stops asking the model, and forgets the
   * conversation */
  g_subprocess_force_exit (app);
  g_subprocess_wait (app, NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);
  conversation.path = path_line + strlen ("path ");
  be_unsandboxed ();
  agent_test_wait_until (conversation_is_gone, &conversation);
  remove_tree (proc_dir);
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

/* Restarts */

static guint32
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

static void
service_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
test_restart (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Restart");
  g_autoptr(GDBusConnection) again = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint32 pid = get_service_pid ();
  guint n_asked = test.n_asked;
  gboolean vanished = FALSE;
  guint watch;

  g_assert_cmpuint (pid, >, 0);
  watch = g_bus_watch_name_on_connection (test.agent, BUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          NULL, service_vanished, &vanished, NULL);
  g_assert_no_errno (kill ((pid_t) pid, SIGTERM));
  agent_test_wait_for (&vanished);
  g_bus_unwatch_name (watch);

  /* Started again by activation; the answer was remembered */
  again = connect_app ();
  be_sandboxed ("org.example.Restart");
  reply = call_ok (again, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_assert_cmpuint (get_service_pid (), !=, pid);
  g_assert_cmpuint (test.n_asked, ==, n_asked);
  register_consent_agent ();
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
  guint32 pid = get_service_pid ();
  guint watch;

  /* The next service leaves after a second of idleness */
  g_variant_builder_init (&environment, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&environment, "{ss}", "AGENT_DESKTOP_SERVICE_IDLE_SECONDS", "1");
  reply = g_dbus_connection_call_sync (test.agent, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "UpdateActivationEnvironment",
                                       g_variant_new ("(a{ss})", &environment), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  watch = g_bus_watch_name_on_connection (test.agent, BUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          NULL, service_vanished, &vanished, NULL);
  g_assert_no_errno (kill ((pid_t) pid, SIGTERM));
  agent_test_wait_for (&vanished);

  /* Started again with a conversation open: it stays past its second */
  app = connect_allowed_app ("org.example.Restart");
  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  vanished = FALSE;
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
                              "model=test-model\n",
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

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  test.dir = agent_test_make_dir ("test-desktop-service");
  set_environment ();
  test.server = agent_test_server_new ();
  start_bus ();
  export_consent_agent ();

  g_test_add_func ("/desktop/consent/granted", test_consent_granted);
  g_test_add_func ("/desktop/consent/denied", test_consent_denied);
  g_test_add_func ("/desktop/consent/revoked", test_consent_revoked);
  g_test_add_func ("/desktop/consent/sandboxed-admin", test_consent_sandboxed_admin);
  g_test_add_func ("/desktop/identify/executable", test_identify_executable);
  g_test_add_func ("/desktop/identify/bad-sandbox", test_identify_bad_sandbox);
  g_test_add_func ("/desktop/turn/streams", test_turn_streams);
  g_test_add_func ("/desktop/turn/tool", test_turn_tool);
  g_test_add_func ("/desktop/turn/bad-tools", test_turn_bad_tools);
  g_test_add_func ("/desktop/turn/cancel", test_turn_cancel);
  g_test_add_func ("/desktop/turn/app-vanishes", test_turn_app_vanishes);
  g_test_add_func ("/desktop/turn/app-killed", test_turn_app_killed);
  g_test_add_func ("/desktop/limit/daily", test_limit);
  g_test_add_func ("/desktop/service/restart", test_restart);
  g_test_add_func ("/desktop/service/idle", test_idle);
  status = g_test_run ();

  stop_bus ();
  agent_test_server_free (test.server);
  remove_tree (test.dir);
  g_free (test.dir);
  g_free (test.proc_dir);
  g_free (test.asked_app_id);
  g_free (test.asked_app_name);
  return status;
}
