/* test-desktop-tools.c — agent-desktop-service: the user approves each call
 * of an app's own tools before the app gets ToolCall
 * (test-desktop-util.c sets up the bus, the service and the consent agent;
 * the service's questions wait ASK_SECONDS here)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

#define ASK_SECONDS "2"
#define DENIED "The user denied this call"
#define LEAVING_PATH "/io/github/libagent/Test/LeavingAgent"

static GVariant *
lookup_tools (void)
{
  GVariantBuilder tools;
  GVariantBuilder tool;

  g_variant_builder_init (&tool, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&tool, "{sv}", "name", g_variant_new_string ("lookup"));
  g_variant_builder_add (&tool, "{sv}", "description",
                         g_variant_new_string ("Looks a word up"));
  g_variant_builder_add (&tool, "{sv}", "parameters",
                         g_variant_new_string ("{\"type\":\"object\",\"properties\":"
                                               "{\"word\":{\"type\":\"string\"}}}"));
  g_variant_builder_init (&tools, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&tools, g_variant_builder_end (&tool));
  return g_variant_builder_end (&tools);
}

/* The model calls lookup(tea) as @call_id, then answers */
static void
add_lookup_turn (const char *call_id)
{
  const AgentTestToolChunk chunks[] = {
    { 0, call_id, "lookup", "{\"word\":\"tea\"}" },
  };
  const char *deltas[] = { "Done.", NULL };

  agent_test_openai_add_tool_response (test.server, chunks, G_N_ELEMENTS (chunks), 4, 3);
  agent_test_openai_add_text_response (test.server, deltas, 6, 4);
}

static Conversation *
start (GDBusConnection *app)
{
  g_autoptr(GError) error = NULL;
  Conversation *conversation = conversation_start (app, &error);

  g_assert_no_error (error);
  return conversation;
}

static void
send_lookup (Conversation *conversation,
             const char   *call_id)
{
  g_autoptr(GError) error = NULL;

  conversation->n_deltas = 0;
  g_string_truncate (conversation->text, 0);
  g_ptr_array_set_size (conversation->tool_calls, 0);
  add_lookup_turn (call_id);
  conversation_send (conversation, "What is tea?", lookup_tools (), &error);
  g_assert_no_error (error);
}

/* The app runs its tool: the turn ends with the model's answer */
static void
answer_tool_call (Conversation *conversation,
                  const char   *call_id)
{
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *expected = g_strdup_printf ("%s lookup {\"word\":\"tea\"}", call_id);

  agent_test_wait_until (has_tool_call, conversation);
  g_assert_cmpuint (conversation->tool_calls->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (conversation->tool_calls, 0), ==, expected);
  reply = call_ok (conversation->app, conversation->path, CONVERSATION, "ToolResult",
                   g_variant_new ("(ssb)", call_id, "\"a drink\"", FALSE));
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_name);
  g_assert_cmpstr (conversation->text->str, ==, "Done.");
}

/* The turn ends normally, the app never got ToolCall, and the model read
 * the denial as the tool's result */
static void
assert_denied (Conversation *conversation,
               guint         first,
               const char   *call_id)
{
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_name);
  g_assert_cmpuint (conversation->tool_calls->len, ==, 0);
  g_assert_cmpstr (conversation->text->str, ==, "Done.");
  g_assert_cmpstr (agent_test_openai_tool_message_content (test.server, first + 1, call_id), ==,
                   DENIED);
}

static void
test_tools_allow_once (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Once");
  g_autoptr(Conversation) conversation = start (app);
  guint first = agent_test_server_get_n_requests (test.server);
  guint n_asked = test.n_tool_asked;

  test.tool_answer = ANSWER_ALLOW;
  send_lookup (conversation, "call_1");
  answer_tool_call (conversation, "call_1");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);
  g_assert_cmpstr (test.asked_tool, ==,
                   "org.example.Once org.example.Once lookup Looks a word up {\"word\":\"tea\"}");
  g_assert_cmpstr (agent_test_openai_tool_message_content (test.server, first + 1, "call_1"), ==,
                   "\"a drink\"");

  /* Once is once: the next call asks again */
  send_lookup (conversation, "call_2");
  answer_tool_call (conversation, "call_2");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 2);
}

static void
test_tools_deny (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Deny");
  g_autoptr(Conversation) conversation = start (app);
  guint first = agent_test_server_get_n_requests (test.server);
  guint n_asked = test.n_tool_asked;

  test.tool_answer = ANSWER_DENY;
  send_lookup (conversation, "call_3");
  assert_denied (conversation, first, "call_3");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);

  /* A result for the denied call is refused: it is not waiting */
  call_fails (app, conversation->path, CONVERSATION, "ToolResult",
              g_variant_new ("(ssb)", "call_3", "{}", FALSE), ERROR_PREFIX "InvalidArgs");
}

static GVariant *
list_tool_approvals (const char *app_id)
{
  return administer ("ListToolApprovals", g_variant_new ("(s)", app_id));
}

static void
assert_approvals (const char *app_id,
                  gboolean    ask,
                  const char *tools)
{
  g_autoptr(GVariant) reply = list_tool_approvals (app_id);
  g_autofree const char **names = NULL;
  g_autofree char *joined = NULL;
  gboolean asks;

  g_variant_get (reply, "(b^a&s)", &asks, &names);
  joined = g_strjoinv (";", (char **) names);
  g_assert_cmpint (asks, ==, ask);
  g_assert_cmpstr (joined, ==, tools);
}

static void
test_tools_always (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Always");
  g_autoptr(Conversation) conversation = start (app);
  g_autoptr(Conversation) again = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint n_asked = test.n_tool_asked;
  guint first;

  assert_approvals ("org.example.Always", TRUE, "");
  test.tool_answer = ANSWER_ALWAYS;
  send_lookup (conversation, "call_4");
  answer_tool_call (conversation, "call_4");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);
  assert_approvals ("org.example.Always", TRUE, "lookup");

  /* Not asked again, even if the user would deny now */
  test.tool_answer = ANSWER_DENY;
  send_lookup (conversation, "call_5");
  answer_tool_call (conversation, "call_5");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);

  /* Revoke forgets it: allowed again, the app's tool is asked for */
  reply = administer ("Revoke", g_variant_new ("(s)", "org.example.Always"));
  assert_approvals ("org.example.Always", TRUE, "");
  g_clear_object (&app);
  app = connect_allowed_app ("org.example.Always");
  again = start (app);
  first = agent_test_server_get_n_requests (test.server);
  send_lookup (again, "call_6");
  assert_denied (again, first, "call_6");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 2);
}

static void
test_tools_forget_and_ask_off (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.NoAsk");
  g_autoptr(Conversation) conversation = start (app);
  g_autoptr(GVariant) reply = NULL;
  guint n_asked = test.n_tool_asked;

  /* ForgetTool */
  test.tool_answer = ANSWER_ALWAYS;
  send_lookup (conversation, "call_7");
  answer_tool_call (conversation, "call_7");
  assert_approvals ("org.example.NoAsk", TRUE, "lookup");
  reply = administer ("ForgetTool", g_variant_new ("(ss)", "org.example.NoAsk", "lookup"));
  assert_approvals ("org.example.NoAsk", TRUE, "");
  g_clear_pointer (&reply, g_variant_unref);

  /* The user turns asking off: the calls run without a question */
  reply = administer ("SetAskBeforeTools", g_variant_new ("(sb)", "org.example.NoAsk", FALSE));
  assert_approvals ("org.example.NoAsk", FALSE, "");
  test.tool_answer = ANSWER_DENY;
  send_lookup (conversation, "call_8");
  answer_tool_call (conversation, "call_8");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);

  /* Only the user's side may: not a sandboxed app */
  be_sandboxed ("org.example.NoAsk");
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "SetAskBeforeTools",
              g_variant_new ("(sb)", "org.example.NoAsk", FALSE), ERROR_PREFIX "NotSupported");
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "ListToolApprovals",
              g_variant_new ("(s)", "org.example.NoAsk"), ERROR_PREFIX "NotSupported");
}

static gboolean
is_held (gpointer data)
{
  return test.held != NULL;
}

static void
test_tools_no_answer (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Silent");
  g_autoptr(Conversation) conversation = start (app);
  guint first = agent_test_server_get_n_requests (test.server);
  gint64 asked;

  test.tool_answer = ANSWER_NONE;
  send_lookup (conversation, "call_9");
  agent_test_wait_until (is_held, NULL);
  asked = g_get_monotonic_time ();
  assert_denied (conversation, first, "call_9");
  /* (Denied by the limit, not sooner) */
  g_assert_cmpint (g_get_monotonic_time () - asked, >=, G_USEC_PER_SEC);

  /* An answer too late changes nothing */
  g_dbus_method_invocation_return_value (test.held, g_variant_new ("(bb)", TRUE, TRUE));
  g_clear_object (&test.held);
  assert_approvals ("org.example.Silent", TRUE, "");
}

/* A consent agent that leaves while it is asked */

static GDBusMethodInvocation *leaving_held;

static void
leaving_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  /* (The call's reference: it is never answered, only dropped) */
  g_assert_null (leaving_held);
  leaving_held = invocation;
}

static const GDBusInterfaceVTable leaving_vtable = { leaving_method_call, NULL, NULL, { 0 } };

static gboolean
leaving_is_asked (gpointer data)
{
  return leaving_held != NULL;
}

static void
test_tools_agent_leaves (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Orphan");
  g_autoptr(Conversation) conversation = start (app);
  g_autoptr(GDBusConnection) leaving = connect_app ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint first = agent_test_server_get_n_requests (test.server);
  guint n_asked = test.n_tool_asked;
  guint id = export_consent_interface (leaving, LEAVING_PATH, &leaving_vtable);

  be_unsandboxed ();
  reply = call_ok (leaving, ASSISTANT_PATH, ASSISTANT, "RegisterConsentAgent",
                   g_variant_new ("(o)", LEAVING_PATH));

  send_lookup (conversation, "call_10");
  agent_test_wait_until (leaving_is_asked, NULL);
  g_dbus_connection_unregister_object (leaving, id);
  g_dbus_connection_close_sync (leaving, NULL, &error);
  g_assert_no_error (error);
  assert_denied (conversation, first, "call_10");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked);
  g_clear_object (&leaving_held);

  /* The test's agent is asked again */
  test.tool_answer = ANSWER_ALLOW;
  send_lookup (conversation, "call_11");
  answer_tool_call (conversation, "call_11");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked + 1);
}

/* Cancelling the turn while the user is asked ends the question */
static void
test_tools_cancel_while_asked (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Impatient");
  g_autoptr(Conversation) conversation = start (app);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  test.tool_answer = ANSWER_NONE;
  conversation->n_deltas = 0;
  agent_test_openai_add_tool_response (test.server,
                                       (const AgentTestToolChunk[]) {
                                         { 0, "call_12", "lookup", "{}" } }, 1, 4, 3);
  conversation_send (conversation, "What is tea?", lookup_tools (), &error);
  g_assert_no_error (error);
  agent_test_wait_until (is_held, NULL);
  reply = call_ok (app, conversation->path, CONVERSATION, "Cancel", NULL);
  agent_test_wait_until (has_ended, conversation);
  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Cancelled");
  g_assert_cmpuint (conversation->tool_calls->len, ==, 0);
  g_dbus_method_invocation_return_value (test.held, g_variant_new ("(bb)", TRUE, FALSE));
  g_clear_object (&test.held);
}

/* What the user is shown is bounded: a long description and long
 * arguments are cut */
static void
test_tools_long (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Verbose");
  g_autoptr(Conversation) conversation = start (app);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *description = g_strnfill (3000, 'd');
  g_autofree char *word = g_strnfill (100000, 'w');
  g_autofree char *arguments = g_strdup_printf ("{\"word\":\"%s\"}", word);
  g_autofree char *cut = g_strnfill (1000, 'd');
  g_autofree char *shown = g_strconcat (" ", cut, "… {\"word\":\"www", NULL);
  const AgentTestToolChunk chunks[] = { { 0, "call_14", "lookup", arguments } };
  const char *deltas[] = { "Done.", NULL };
  GVariantBuilder tools;
  GVariantBuilder tool;

  g_variant_builder_init (&tool, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&tool, "{sv}", "name", g_variant_new_string ("lookup"));
  g_variant_builder_add (&tool, "{sv}", "description", g_variant_new_string (description));
  g_variant_builder_init (&tools, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&tools, g_variant_builder_end (&tool));
  agent_test_openai_add_tool_response (test.server, chunks, G_N_ELEMENTS (chunks), 4, 3);
  agent_test_openai_add_text_response (test.server, deltas, 6, 4);
  test.tool_answer = ANSWER_ALLOW;
  conversation_send (conversation, "What is it?", g_variant_builder_end (&tools), &error);
  g_assert_no_error (error);

  agent_test_wait_until (has_tool_call, conversation);
  agent_test_assert_contains (test.asked_tool, shown);
  g_assert_cmpuint (strlen (test.asked_tool), <, 64 * 1024);
  g_assert_true (g_str_has_suffix (test.asked_tool, "…"));
  /* The app gets the whole call */
  g_assert_cmpuint (strlen (g_ptr_array_index (conversation->tool_calls, 0)), >, 100000);
  reply = call_ok (app, conversation->path, CONVERSATION, "ToolResult",
                   g_variant_new ("(ssb)", "call_14", "\"long\"", FALSE));
  agent_test_wait_until (has_ended, conversation);
  g_assert_null (conversation->failed_name);
}

/* Without a consent agent: a notification, whose Always Allow button the
 * test presses as the desktop's notification server */

static void
test_tools_notification (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Notified");
  g_autoptr(Conversation) conversation = start (app);
  Notifications *notifications = notifications_start ();
  g_autoptr(GVariant) reply = NULL;
  guint n_asked = test.n_tool_asked;

  reply = administer ("UnregisterConsentAgent", g_variant_new ("(o)", AGENT_PATH));

  /* The call waits while the notification is out */
  send_lookup (conversation, "call_13");
  agent_test_wait_until (has_notification, notifications);
  g_assert_cmpuint (conversation->tool_calls->len, ==, 0);
  agent_test_assert_contains (notifications->summary, "org.example.Notified");
  agent_test_assert_contains (notifications->summary, "lookup");
  agent_test_assert_contains (notifications->body, "Looks a word up");
  agent_test_assert_contains (notifications->body, "\"tea\"");
  g_assert_cmpuint (notifications_count_buttons (notifications), ==, 3);
  g_assert_nonnull (notifications_get_action (notifications, "Deny"));
  g_assert_nonnull (notifications_get_action (notifications, "Allow Once"));

  notifications_press (notifications, "Always Allow");
  answer_tool_call (conversation, "call_13");
  g_assert_cmpuint (test.n_tool_asked, ==, n_asked);
  assert_approvals ("org.example.Notified", TRUE, "lookup");

  register_consent_agent ();
  notifications_stop (notifications);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("AGENT_DESKTOP_SERVICE_ASK_SECONDS", ASK_SECONDS, TRUE);
  desktop_setup ("test-desktop-tools");

  g_test_add_func ("/desktop/tools/allow-once", test_tools_allow_once);
  g_test_add_func ("/desktop/tools/deny", test_tools_deny);
  g_test_add_func ("/desktop/tools/always", test_tools_always);
  g_test_add_func ("/desktop/tools/forget-and-ask-off", test_tools_forget_and_ask_off);
  g_test_add_func ("/desktop/tools/no-answer", test_tools_no_answer);
  g_test_add_func ("/desktop/tools/agent-leaves", test_tools_agent_leaves);
  g_test_add_func ("/desktop/tools/cancel-while-asked", test_tools_cancel_while_asked);
  g_test_add_func ("/desktop/tools/long", test_tools_long);
  g_test_add_func ("/desktop/tools/notification", test_tools_notification);
  status = g_test_run ();

  desktop_teardown ();
  return status;
}
