/* test-desktop-apps.c — agent-desktop-service: what Preferences sees of the
 * apps: AppsChanged, the tokens of failed and cancelled turns, the log's
 * pruning (test-desktop-util.c sets up the bus and the service)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

#define DAY_SECONDS (24 * 60 * 60)

/* AppsChanged, as the consent agent's connection (Preferences) gets it */

static guint n_changed;

static void
on_apps_changed (GDBusConnection *connection,
                 const char      *sender_name,
                 const char      *object_path,
                 const char      *interface_name,
                 const char      *signal_name,
                 GVariant        *parameters,
                 gpointer         user_data)
{
  guint *count = user_data;

  g_assert_true (g_variant_is_of_type (parameters, G_VARIANT_TYPE_UNIT));
  (*count)++;
}

/* Listens on @connection, counting into @count */
static guint
subscribe_apps_changed (GDBusConnection *connection,
                        guint           *count)
{
  return g_dbus_connection_signal_subscribe (connection, NULL, ASSISTANT, "AppsChanged",
                                             ASSISTANT_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                             on_apps_changed, count, NULL);
}

static gboolean
changed_since (gpointer data)
{
  return n_changed > GPOINTER_TO_UINT (data);
}

static void
wait_changed (guint before)
{
  agent_test_wait_until (changed_since, GUINT_TO_POINTER (before));
}

static guint64
get_tokens_today (const char *app_id)
{
  g_autoptr(GVariant) reply = administer ("ListApps", NULL);
  g_autoptr(GVariant) apps = g_variant_get_child_value (reply, 0);
  g_autoptr(GVariant) details = NULL;
  guint64 tokens = G_MAXUINT64;

  g_assert_true (g_variant_lookup (apps, app_id, "@a{sv}", &details));
  g_assert_true (g_variant_lookup (details, "tokens-today", "t", &tokens));
  return tokens;
}

/* The tokens of the last line of @app_id's log, which has @n_lines */
static guint64
get_logged_tokens (const char *app_id,
                   guint       n_lines)
{
  g_autoptr(GVariant) reply = administer ("ListLog", g_variant_new ("(s)", app_id));
  g_autoptr(GVariant) entries = g_variant_get_child_value (reply, 0);
  gint64 time;
  const char *app, *profile;
  guint64 tokens;

  g_assert_cmpuint (g_variant_n_children (entries), ==, n_lines);
  g_variant_get_child (entries, n_lines - 1, "(x&s&st)", &time, &app, &profile, &tokens);
  g_assert_cmpstr (app, ==, app_id);
  g_assert_cmpstr (profile, ==, "Loopback");
  return tokens;
}

static void
test_apps_changed (void)
{
  g_autoptr(GDBusConnection) app = NULL;
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint subscription = subscribe_apps_changed (test.agent, &n_changed);
  guint app_subscription;
  guint n_app_changed = 0;
  guint before;

  /* Listing makes the caller a watcher */
  reply = administer ("ListApps", NULL);
  g_clear_pointer (&reply, g_variant_unref);

  /* An app asks for the first time and is answered */
  before = n_changed;
  app = connect_allowed_app ("org.example.Watched");
  wait_changed (before);
  app_subscription = subscribe_apps_changed (app, &n_app_changed);

  /* A limit */
  before = n_changed;
  reply = administer ("SetDailyLimit", g_variant_new ("(st)", "org.example.Watched",
                                                      (guint64) 1000));
  g_clear_pointer (&reply, g_variant_unref);
  wait_changed (before);

  /* A turn: its tokens are counted and its line is logged, in one signal */
  before = n_changed;
  be_sandboxed ("org.example.Watched");
  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  add_hello ();
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);
  wait_changed (before);
  /* (A second signal would have come before this answer) */
  g_assert_cmpuint (get_tokens_today ("org.example.Watched"), ==, 5);
  g_assert_cmpuint (n_changed, ==, before + 1);

  /* The app, sandboxed and no watcher, was told nothing */
  be_sandboxed ("org.example.Watched");
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (n_app_changed, ==, 0);

  /* The answer revoked */
  before = n_changed;
  reply = administer ("Revoke", g_variant_new ("(s)", "org.example.Watched"));
  wait_changed (before);

  g_dbus_connection_signal_unsubscribe (app, app_subscription);
  g_dbus_connection_signal_unsubscribe (test.agent, subscription);
}

/* Sends a message whose answer is a call of the app's tool "lookup" with
 * @call_id, of @prompt + @completion tokens; waits for the call */
static void
send_tool_step (Conversation *conversation,
                const char   *call_id,
                gint64        prompt,
                gint64        completion)
{
  g_autoptr(GError) error = NULL;
  const AgentTestToolChunk chunks[] = { { 0, call_id, "lookup", "{}" } };
  GVariantBuilder tools;
  GVariantBuilder tool;

  agent_test_openai_add_tool_response (test.server, chunks, G_N_ELEMENTS (chunks), prompt,
                                       completion);
  g_variant_builder_init (&tool, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&tool, "{sv}", "name", g_variant_new_string ("lookup"));
  g_variant_builder_init (&tools, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&tools, g_variant_builder_end (&tool));
  conversation_send (conversation, "Look it up", g_variant_builder_end (&tools), &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_tool_call, conversation);
}

/* A turn whose first step (a tool call) reported its tokens and whose
 * second step fails: the first step's tokens count, and are logged */
static void
test_failed_turn_tokens (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Failing");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *response;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  send_tool_step (conversation, "call_1", 4, 3);
  response = agent_test_server_add_response (test.server, 400);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"The context is too long\","
                                "\"type\":\"invalid_request_error\"}}");
  reply = call_ok (app, conversation->path, CONVERSATION, "ToolResult",
                   g_variant_new ("(ssb)", "call_1", "{}", FALSE));
  agent_test_wait_until (has_ended, conversation);

  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Failed");
  agent_test_assert_contains (conversation->failed_message, "The context is too long");
  g_assert_cmpuint (get_tokens_today ("org.example.Failing"), ==, 7);
  g_assert_cmpuint (get_logged_tokens ("org.example.Failing", 1), ==, 7);
}

static gboolean
server_saw_abort (gpointer data)
{
  return agent_test_server_get_n_aborted (test.server) > GPOINTER_TO_UINT (data);
}

/* Cancelled turns: what the steps that ended reported counts; a step
 * cancelled before its server reported anything counts nothing */
static void
test_cancelled_turn_tokens (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Cancelled");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint n_aborted = agent_test_server_get_n_aborted (test.server);
  AgentTestResponse *response;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);

  /* Cancelled while the app's tool runs, after a step of 6 tokens */
  send_tool_step (conversation, "call_2", 4, 2);
  reply = call_ok (app, conversation->path, CONVERSATION, "Cancel", NULL);
  g_clear_pointer (&reply, g_variant_unref);
  agent_test_wait_until (has_ended, conversation);
  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Cancelled");
  g_assert_cmpuint (get_tokens_today ("org.example.Cancelled"), ==, 6);
  g_assert_cmpuint (get_logged_tokens ("org.example.Cancelled", 1), ==, 6);

  /* Cancelled mid-answer: the server had not said its usage yet */
  response = agent_test_openai_begin (test.server, NULL);
  agent_test_openai_add_text (response, "Thinking");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 50, 50);
  be_sandboxed ("org.example.Cancelled");
  conversation_send (conversation, "Think", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_deltas, conversation);
  reply = call_ok (app, conversation->path, CONVERSATION, "Cancel", NULL);
  agent_test_wait_until (has_ended, conversation);
  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Cancelled");
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);
  g_assert_cmpuint (get_tokens_today ("org.example.Cancelled"), ==, 6);
  g_assert_cmpuint (get_logged_tokens ("org.example.Cancelled", 2), ==, 0);
}

/* The log keeps its last 90 days: the service prunes it when it starts */
static void
test_log_pruned (void)
{
  g_autofree char *dir = g_build_filename (test.dir, "data", "libagent", "desktop-service",
                                           NULL);
  g_autofree char *path = g_build_filename (dir, "log.jsonl", NULL);
  g_autofree char *old = NULL;
  g_autofree char *recent = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) entries = NULL;
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gint64 time;
  const char *app, *profile;
  guint64 tokens;

  stop_service ();
  old = g_strdup_printf ("{\"time\":%" G_GINT64_FORMAT ",\"app\":\"org.example.Old\","
                         "\"profile\":\"Loopback\",\"tokens\":3}",
                         now - 91 * (gint64) DAY_SECONDS);
  kept = g_strdup_printf ("{\"time\":%" G_GINT64_FORMAT ",\"app\":\"org.example.Kept\","
                          "\"profile\":\"Loopback\",\"tokens\":4}",
                          now - 89 * (gint64) DAY_SECONDS);
  recent = g_strdup_printf ("{\"time\":%" G_GINT64_FORMAT ",\"app\":\"org.example.Recent\","
                            "\"profile\":\"Loopback\",\"tokens\":5}", now - DAY_SECONDS);
  contents = g_strjoin ("\n", old, kept, "not a line of the log", recent, "", NULL);
  g_assert_no_errno (g_mkdir_with_parents (dir, 0700));
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);

  register_consent_agent ();   /* starts the service */
  reply = administer ("ListLog", g_variant_new ("(s)", ""));
  entries = g_variant_get_child_value (reply, 0);
  g_assert_cmpuint (g_variant_n_children (entries), ==, 2);
  g_variant_get_child (entries, 0, "(x&s&st)", &time, &app, &profile, &tokens);
  g_assert_cmpstr (app, ==, "org.example.Kept");
  g_assert_cmpuint (tokens, ==, 4);
  g_variant_get_child (entries, 1, "(x&s&st)", &time, &app, &profile, &tokens);
  g_assert_cmpstr (app, ==, "org.example.Recent");
  g_assert_cmpint (time, ==, now - DAY_SECONDS);

  /* The file holds the kept lines, as they were */
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  expected = g_strconcat (kept, "\n", recent, "\n", NULL);
  g_assert_cmpstr (contents, ==, expected);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  desktop_setup ("test-desktop-apps");

  g_test_add_func ("/desktop/apps/changed", test_apps_changed);
  g_test_add_func ("/desktop/apps/failed-turn-tokens", test_failed_turn_tokens);
  g_test_add_func ("/desktop/apps/cancelled-turn-tokens", test_cancelled_turn_tokens);
  g_test_add_func ("/desktop/apps/log-pruned", test_log_pruned);
  status = g_test_run ();

  desktop_teardown ();
  return status;
}
