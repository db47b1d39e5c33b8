/* test-cli-terminal.c — what agent-cli writes, as a black box: text from
 * the model or a server cannot drive the terminal (escape sequences,
 * other controls, bidirectional overrides are shown, not obeyed), and
 * standard output that cannot be written to ends the run with an error
 * (a full disk) and cancels the turn (a reader that went away).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* Control sequences a model could write: a window title (OSC … BEL), a
 * screen clear (CSI), C1's CSI, a carriage return that would overwrite
 * the line, a right-to-left override, and the text around them. */
#define HOSTILE_TEXT \
  "Hello \033]0;owned\007world \033[2J\r over \xc2\x9b" "31m red " \
  "\xe2\x80\xae" "txt.exe\xe2\x80\xac" "\nline two\twith a tab\n"

static const char * const controls[] = {
  "\033", "\007", "\xc2\x9b", "\xe2\x80\xae", "\xe2\x80\xac", "\r",
};

static void
assert_no_controls (const char *text,
                    const char *where)
{
  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    if (strstr (text, controls[i]) != NULL)
      g_error ("%s holds the control %02x: %s", where, (guchar) controls[i][0], text);
}

static void
add_reasoning (AgentTestResponse *r,
               const char        *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, 0);
  json_builder_set_member_name (builder, "delta");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "reasoning_content");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);
  agent_test_response_add_sse (r, json);
}

static void
add_hostile_answer (AgentTestServer *server)
{
  AgentTestResponse *r = agent_test_openai_begin (server, "");

  add_reasoning (r, "Thinking \033[8mhidden\033[0m");
  agent_test_openai_add_text (r, HOSTILE_TEXT);
  agent_test_openai_add_end (r, "stop", 1, 1);
}

/* Plain output shows the controls as text; newlines and tabs stay */
static void
test_escapes_plain (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  add_hostile_answer (server);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url",
                                             agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 0);

  assert_no_controls (cli->out->str, "Standard output");
  assert_no_controls (cli->err->str, "Standard error");
  /* What was there is still shown, escaped */
  agent_test_assert_contains (cli->out->str, "Hello \\u{1b}]0;owned\\u{7}world \\u{1b}[2J");
  agent_test_assert_contains (cli->out->str, "\\u{202e}txt.exe\\u{202c}");
  agent_test_assert_contains (cli->out->str, "\nline two\twith a tab\n");
  agent_test_assert_contains (cli->err->str, "Thinking \\u{1b}[8mhidden");
}

/* An error message from the server is shown the same way */
static void
test_escapes_error (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *r = agent_test_server_add_response (server, 400);

  agent_test_response_set_body (r, "application/json",
                                "{\"error\":{\"message\":\"Bad \\u001b]0;owned\\u0007 request\"}}");
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url",
                                             agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 1);

  assert_no_controls (cli->err->str, "Standard error");
  agent_test_assert_contains (cli->err->str, "Bad \\u{1b}]0;owned\\u{7} request");
}

/* --json is for programs: the text as the model wrote it */
static void
test_escapes_json_untouched (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;

  add_hostile_answer (server);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 0);

  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, HOSTILE_TEXT);
}

/* The message items of a Responses answer: apart on a terminal, as they
 * came with --json */
static void
test_item_breaks (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  static const char * const modes[] = { NULL, "--json" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      AgentTestResponse *r = agent_test_server_add_response (server, 200);

      for (guint item = 0; item < 2; item++)
        {
          agent_test_response_add_sse_printf (r, "{\"type\":\"response.output_item.added\","
                                              "\"output_index\":%u,\"item\":{\"id\":\"msg_%u\","
                                              "\"type\":\"message\",\"content\":[]}}", item, item);
          agent_test_response_add_sse_printf (r, "{\"type\":\"response.output_text.delta\","
                                              "\"output_index\":%u,\"content_index\":0,"
                                              "\"delta\":\"%s\"}", item,
                                              item == 0 ? "First." : "Second.");
        }
      agent_test_response_add_sse (r, "{\"type\":\"response.completed\",\"response\":"
                                      "{\"id\":\"resp_1\",\"status\":\"completed\"}}");

      cli = agent_test_cli_run (AGENT_TEST_ARGS ("--provider", "openai-responses", "--base-url",
                                                 agent_test_server_get_base_url (server), "Hi",
                                                 modes[i]));
      agent_test_process_assert_exit (cli, 0);
      if (modes[i] == NULL)
        g_assert_cmpstr (cli->out->str, ==, "First.\n\nSecond.\n");
      else
        {
          g_autofree char *text = NULL;

          agent_test_process_parse_json (cli);
          text = agent_test_cli_streamed_text (cli);
          g_assert_cmpstr (text, ==, "First.Second.");
        }
    }
}

/* Standard output to a file or pipe the test controls */

typedef struct
{
  GSubprocess *process;
  gboolean     exited;
  int          status;
  GString     *out;
  gboolean     closed;
} Child;

static void
child_wait_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Child *child = user_data;

  g_assert_true (g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL));
  child->status = g_subprocess_get_if_exited (child->process)
                ? g_subprocess_get_exit_status (child->process) : -1;
  child->exited = TRUE;
}

static gboolean
child_exited (gpointer data)
{
  return ((Child *) data)->exited;
}

/* agent-cli with its standard output going to @stdout_path (or a pipe if
 * NULL) and its standard error to @stderr_path */
static void
child_spawn (Child              *child,
             const char         *stdout_path,
             const char         *stderr_path,
             const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  launcher = g_subprocess_launcher_new (stdout_path == NULL ? G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                            : G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "NO_COLOR", "1", TRUE);
  if (stdout_path != NULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  g_subprocess_launcher_set_stderr_file_path (launcher, stderr_path);

  g_ptr_array_add (argv, (gpointer) agent_test_find_program ("AGENT_CLI", "cli", "agent-cli"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  child->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                 &error);
  g_assert_no_error (error);
  child->out = g_string_new (NULL);
  g_subprocess_wait_async (child->process, NULL, child_wait_cb, child);
}

static void
child_clear (Child *child)
{
  g_clear_object (&child->process);
  if (child->out != NULL)
    g_string_free (g_steal_pointer (&child->out), TRUE);
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* A full disk: the run fails, saying so */
static void
test_stdout_full (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *dir = agent_test_make_dir ("test-cli-terminal-XXXXXX");
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  const char * const deltas[] = { "An answer ", "that goes ", "nowhere.", NULL };
  static const char * const modes[] = { NULL, "--json" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *err = NULL;
      Child child = { 0 };

      agent_test_openai_add_text_response (server, deltas, 1, 1);
      child_spawn (&child, "/dev/full", err_path,
                   AGENT_TEST_ARGS ("--base-url",
                                    agent_test_server_get_base_url (server), "Hi",
                                    modes[i]));
      agent_test_wait_until (child_exited, &child);

      err = read_text (err_path);
      g_test_message ("%s", err);
      g_assert_cmpint (child.status, ==, 1);
      agent_test_assert_contains (err, "standard output");
      agent_test_assert_contains (err, g_strerror (ENOSPC));
      child_clear (&child);
    }

  agent_test_remove_dir (dir);
}

/* Also when nothing but the last lines is written */
static void
test_stdout_full_listing (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *dir = agent_test_make_dir ("test-cli-terminal-XXXXXX");
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  g_autofree char *err = NULL;
  AgentTestResponse *r = agent_test_server_add_response (server, 200);
  Child child = { 0 };

  agent_test_response_set_body (r, "application/json", "{\"data\":[{\"id\":\"model-a\"}]}");
  child_spawn (&child, "/dev/full", err_path,
               AGENT_TEST_ARGS ("--list-models", "--base-url",
                                agent_test_server_get_base_url (server)));
  agent_test_wait_until (child_exited, &child);

  err = read_text (err_path);
  g_assert_cmpint (child.status, ==, 1);
  agent_test_assert_contains (err, g_strerror (ENOSPC));
  child_clear (&child);
  agent_test_remove_dir (dir);
}

static void
first_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  g_assert_nonnull (bytes);
  g_string_append_len (child->out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  /* Enough: as `| head -c 10` does */
  g_assert_true (g_input_stream_close (G_INPUT_STREAM (object), NULL, NULL));
  child->closed = TRUE;
}

static gboolean
server_saw_client_go (gpointer data)
{
  return agent_test_server_get_n_aborted (data) > 0;
}

/* The reader goes away: the turn is cancelled (no more tokens spent) and
 * the run fails */
static void
test_stdout_closed (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *dir = agent_test_make_dir ("test-cli-terminal-XXXXXX");
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  g_autofree char *err = NULL;
  AgentTestResponse *r = agent_test_openai_begin (server, "");
  Child child = { 0 };

  agent_test_openai_add_text (r, "The start of a long answer\n");
  for (guint i = 0; i < 100; i++)
    {
      agent_test_response_add_delay (r, 30);
      agent_test_openai_add_text (r, "and more ");
    }
  agent_test_openai_add_end (r, "stop", 1, 1);

  child_spawn (&child, NULL, err_path,
               AGENT_TEST_ARGS ("--base-url",
                                agent_test_server_get_base_url (server), "Hi"));
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (child.process), 10,
                                   G_PRIORITY_DEFAULT, NULL, first_read_cb, &child);
  agent_test_wait_until (child_exited, &child);

  err = read_text (err_path);
  g_test_message ("%s", err);
  g_assert_true (child.closed);
  g_assert_cmpint (child.status, ==, 1);
  agent_test_assert_contains (err, "standard output");
  /* It hung up before the answer's end */
  agent_test_wait_until (server_saw_client_go, server);
  child_clear (&child);
  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-terminal/escapes/plain", test_escapes_plain);
  g_test_add_func ("/cli-terminal/escapes/error", test_escapes_error);
  g_test_add_func ("/cli-terminal/escapes/json-untouched", test_escapes_json_untouched);
  g_test_add_func ("/cli-terminal/item-breaks", test_item_breaks);
  g_test_add_func ("/cli-terminal/stdout/full", test_stdout_full);
  g_test_add_func ("/cli-terminal/stdout/full-listing", test_stdout_full_listing);
  g_test_add_func ("/cli-terminal/stdout/closed", test_stdout_closed);

  return g_test_run ();
}
