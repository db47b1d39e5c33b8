/* test-desktop-turns.c — agent-desktop-service: turns streamed to an app,
 * its own tools, cancelling, and apps that leave mid-turn
 * (test-desktop-util.c sets up the bus and the service)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

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

/* The server's refusal reaches the app in words, never with the key */
static void
test_turn_fails (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Fails");
  g_autoptr(Conversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *response;

  conversation = conversation_start (app, &error);
  g_assert_no_error (error);
  response = agent_test_server_add_response (test.server, 401);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided: "
                                SECRET "\",\"type\":\"invalid_request_error\"}}");
  conversation_send (conversation, "Hi", NULL, &error);
  g_assert_no_error (error);
  agent_test_wait_until (has_ended, conversation);

  g_assert_cmpstr (conversation->failed_name, ==, ERROR_PREFIX "Failed");
  agent_test_assert_contains (conversation->failed_message, "Incorrect API key");
  g_assert_null (strstr (conversation->failed_message, SECRET));
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

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  desktop_setup ("test-desktop-turns");

  g_test_add_func ("/desktop/turn/streams", test_turn_streams);
  g_test_add_func ("/desktop/turn/tool", test_turn_tool);
  g_test_add_func ("/desktop/turn/bad-tools", test_turn_bad_tools);
  g_test_add_func ("/desktop/turn/fails", test_turn_fails);
  g_test_add_func ("/desktop/turn/cancel", test_turn_cancel);
  g_test_add_func ("/desktop/turn/app-vanishes", test_turn_app_vanishes);
  g_test_add_func ("/desktop/turn/app-killed", test_turn_app_killed);
  status = g_test_run ();

  desktop_teardown ();
  return status;
}
