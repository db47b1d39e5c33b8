/* test-cli-approval.c — agent-cli as a black box: approving tool calls
 *
 * As in test-cli.c, each case runs $AGENT_CLI against an AgentTestServer
 * served from this process's main loop: here read_file, a tool that needs
 * the user's approval, run without --yes. agent-cli asks on its controlling
 * terminal, never on stdout or stderr, with the model's arguments escaped;
 * without a terminal no one can approve, and the call is refused.
 *
 * Approval needs a controlling terminal. The children of this process may
 * have one (the developer's), so each case starts agent-cli in a new
 * session with setsid(1): without a terminal, or with a pseudo-terminal
 * this process plays the user on. It holds the master side, reads what
 * agent-cli writes there and types the answers; the slave side becomes the
 * controlling terminal of the new session when its leader opens it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define READ_FILE_DENIED "Not run: this tool needs the user's approval"
#define TEXT_FILE_CONTENT "Notes: \"quoted\", tab\there,\nünïcödé ✓\n"

/* Runs agent-cli in a new session: without a controlling terminal, or
 * with @tty as its controlling terminal. */
static AgentTestProcess *
spawn_in_session (const char         *tty,
                  const char * const *args)
{
  g_autofree char *setsid = g_find_program_in_path ("setsid");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_assert_nonnull (setsid);
  /* setsid forks only in a process group leader, which this child is not;
   * -w keeps the exit status should it fork anyway. */
  g_ptr_array_add (argv, (char *)"-w");
  if (tty != NULL)
    {
      /* A session leader's first terminal opened becomes its controlling one. */
      g_ptr_array_add (argv, (char *)"/bin/sh");
      g_ptr_array_add (argv, (char *)"-c");
      g_ptr_array_add (argv, (char *)"exec 3<>\"$0\" && exec \"$@\"");
      g_ptr_array_add (argv, (char *)tty);
    }
  g_ptr_array_add (argv, (char *)agent_test_find_program ("AGENT_CLI", "cli", "agent-cli"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, NULL);

  return agent_test_process_spawn (setsid, NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                   (const char * const *)argv->pdata);
}

/* Without --yes and without a terminal, no one can approve: the call is
 * answered so and the turn goes on. */
static void
test_approval_no_terminal (void)
{
  static const char * const answer[] = { "I may not.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-cli-approval");
  g_autofree char *path = agent_test_write_file (dir, "secret.txt", "The secret.\n", -1);
  g_autofree char *arguments = agent_test_path_arguments (path);
  AgentTestToolChunk chunk = { 0, "call_s", "read_file", arguments };
  JsonObject *metrics;
  const char *error;

  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = spawn_in_session (NULL, AGENT_TEST_ARGS ("--json", "--tool", "read_file", "--base-url",
                                                 agent_test_server_get_base_url (server), "Read"));
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  error = agent_test_cli_call_error (cli, "call_s");
  g_assert_true (g_str_has_prefix (error, READ_FILE_DENIED));
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_s"), ==, error);
  g_assert_null (strstr (cli->out->str, "The secret."));
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "I may not.");
  /* The model asked for one call; none ran. */
  metrics = json_object_get_object_member (agent_test_process_nth_event (cli, "step-finished", 0),
                                           "metrics");
  g_assert_cmpint (json_object_get_int_member (metrics, "tool-calls"), ==, 1);
  metrics = json_object_get_object_member (agent_test_process_last_event (cli), "metrics");
  g_assert_cmpint (json_object_get_int_member (metrics, "tool-calls"), ==, 0);

  /* Plain output says so on stderr. */
  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);
  plain = spawn_in_session (NULL, AGENT_TEST_ARGS ("--tool", "read_file", "--base-url",
                                                   agent_test_server_get_base_url (server),
                                                   "Read"));
  agent_test_process_wait (plain);
  agent_test_process_assert_exit (plain, 0);
  g_assert_cmpstr (plain->out->str, ==, "I may not.\n");
  agent_test_assert_contains (plain->err->str, READ_FILE_DENIED);
  g_assert_null (strstr (plain->err->str, "The secret."));

  agent_test_remove_dir (dir);
}

/* This process as the user at a terminal: the master side of a pty. */
typedef struct
{
  int           master;
  GString      *shown;    /* what agent-cli wrote on the terminal */
  GCancellable *cancellable;
  gboolean      closed;
} Terminal;

static void terminal_read (Terminal *terminal);

static void
terminal_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Terminal *terminal = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  /* EIO when the last one who had the terminal open is gone */
  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      terminal->closed = TRUE;
      return;
    }

  g_string_append_len (terminal->shown, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  terminal_read (terminal);
}

static void
terminal_read (Terminal *terminal)
{
  g_autoptr(GInputStream) stream = g_unix_input_stream_new (terminal->master, FALSE);

  g_input_stream_read_bytes_async (stream, 4096, G_PRIORITY_DEFAULT, terminal->cancellable,
                                   terminal_read_cb, terminal);
}

/* NULL (and the test skipped) without pseudo-terminals. */
static char *
terminal_open (Terminal *terminal)
{
  terminal->master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (terminal->master < 0 || grantpt (terminal->master) != 0 ||
      unlockpt (terminal->master) != 0)
    {
      g_test_skip ("No pseudo-terminals here");
      if (terminal->master >= 0)
        close (terminal->master);
      return NULL;
    }

  terminal->shown = g_string_new (NULL);
  terminal->cancellable = g_cancellable_new ();
  terminal_read (terminal);
  return g_strdup (ptsname (terminal->master));
}

static void
terminal_close (Terminal *terminal)
{
  g_cancellable_cancel (terminal->cancellable);
  agent_test_wait_for (&terminal->closed);
  g_assert_no_errno (close (terminal->master));
  g_string_free (terminal->shown, TRUE);
  g_clear_object (&terminal->cancellable);
}

typedef struct
{
  Terminal   *terminal;
  const char *text;
} Shown;

static gboolean
is_shown (gpointer data)
{
  Shown *shown = data;

  return strstr (shown->terminal->shown->str, shown->text) != NULL || shown->terminal->closed;
}

static void
terminal_wait_for (Terminal   *terminal,
                   const char *text)
{
  Shown shown = { terminal, text };

  agent_test_wait_until (is_shown, &shown);
  if (strstr (terminal->shown->str, text) == NULL)
    g_error ("“%s” did not show on the terminal, only:\n%s", text, terminal->shown->str);
}

static void
terminal_type (Terminal   *terminal,
               const char *line)
{
  g_assert_cmpint (write (terminal->master, line, strlen (line)), ==, strlen (line));
}

static guint
count_occurrences (const char *haystack,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = haystack; (p = strstr (p, needle)) != NULL; p += strlen (needle))
    n++;
  return n;
}

/* The questions come on the terminal, one at a time; "y" runs the tool,
 * anything else denies it. */
static void
test_approval_terminal (void)
{
  static const char * const answer[] = { "One of two.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-cli-approval");
  g_autofree char *yes_path = agent_test_write_file (dir, "yes.txt", TEXT_FILE_CONTENT, -1);
  g_autofree char *no_path = agent_test_write_file (dir, "no.txt", "Not for you.\n", -1);
  g_autofree char *yes_arguments = agent_test_path_arguments (yes_path);
  g_autofree char *no_arguments = agent_test_path_arguments (no_path);
  g_autofree char *yes_question = g_strdup_printf ("Run read_file %s? [y/N] ", yes_arguments);
  g_autofree char *no_question = g_strdup_printf ("Run read_file %s? [y/N] ", no_arguments);
  g_autofree char *tty = NULL;
  Terminal terminal = { 0 };
  AgentTestToolChunk chunks[] = {
    { 0, "call_yes", "read_file", yes_arguments },
    { 1, "call_no", "read_file", no_arguments },
  };

  if (!(tty = terminal_open (&terminal)))
    {
      agent_test_remove_dir (dir);
      return;
    }

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = spawn_in_session (tty, AGENT_TEST_ARGS ("--json", "--tool", "read_file", "--base-url",
                                                agent_test_server_get_base_url (server), "Read"));

  terminal_wait_for (&terminal, yes_question);
  g_assert_cmpuint (count_occurrences (terminal.shown->str, "[y/N]"), ==, 1);
  g_assert_false (cli->exited);
  terminal_type (&terminal, "y\n");

  terminal_wait_for (&terminal, no_question);
  terminal_type (&terminal, "n\n");

  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  /* Nothing of the questions went to stdout or stderr. */
  g_assert_null (strstr (cli->out->str, "[y/N]"));
  g_assert_cmpstr (cli->err->str, ==, "");
  g_assert_cmpuint (count_occurrences (terminal.shown->str, "[y/N]"), ==, 2);
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_yes"), ==, TEXT_FILE_CONTENT);
  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_no"), ==,
                   "Denied by the user: the user said no");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_yes"), ==,
                   TEXT_FILE_CONTENT);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_no"), ==,
                   "Denied by the user: the user said no");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "One of two.");

  terminal_close (&terminal);
  agent_test_remove_dir (dir);
}

/* Ctrl-C while a question waits: the call is cancelled, and so is the turn. */
static void
test_approval_interrupted (void)
{
  static const char * const never[] = { "Never asked.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-cli-approval");
  g_autofree char *path = agent_test_write_file (dir, "notes.txt", TEXT_FILE_CONTENT, -1);
  g_autofree char *arguments = agent_test_path_arguments (path);
  g_autofree char *tty = NULL;
  g_autofree char *types = NULL;
  AgentTestToolChunk chunk = { 0, "call_i", "read_file", arguments };
  Terminal terminal = { 0 };

  if (!(tty = terminal_open (&terminal)))
    {
      agent_test_remove_dir (dir);
      return;
    }

  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, never, 1, 1);

  cli = spawn_in_session (tty, AGENT_TEST_ARGS ("--json", "--tool", "read_file", "--base-url",
                                                agent_test_server_get_base_url (server), "Read"));
  terminal_wait_for (&terminal, "? [y/N] ");
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 130);
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==, "tool-call step-finished tool-started tool-finished error");
  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_i"), ==,
                   "The tool was cancelled before it finished");
  agent_test_cli_assert_error (cli, "cancelled");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  terminal_close (&terminal);
  agent_test_remove_dir (dir);
}

/* The arguments come from the model: written raw, their control characters
 * could redraw the question the user answers. Valid JSON (what is not never
 * reaches the question) holds them as whitespace, and a right-to-left
 * override in a string. */
static void
test_approval_question_escaped (void)
{
  static const char * const answer[] = { "Denied.", NULL };
  static const AgentTestToolChunk chunks[] = {
    { 0, "call_x", "read_file",
      "{\"path\":\"/etc/shadow\"\r\t\t\t\t\t\t,\n\"note\":\"\xe2\x80\xaetxt.notes\"}" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *tty = NULL;
  g_autofree char *question = NULL;
  Terminal terminal = { 0 };

  if (!(tty = terminal_open (&terminal)))
    return;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = spawn_in_session (tty, AGENT_TEST_ARGS ("--json", "--tool", "read_file", "--base-url",
                                                agent_test_server_get_base_url (server), "Read"));
  terminal_wait_for (&terminal, "? [y/N] ");
  question = g_strndup (terminal.shown->str, strstr (terminal.shown->str, "? [y/N] ") -
                                             terminal.shown->str);
  terminal_type (&terminal, "n\n");
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_x"), ==,
                   "Denied by the user: the user said no");
  agent_test_assert_contains (question, "/etc/shadow");
  terminal_close (&terminal);

  /* Each shown as an escape, the right-to-left override too */
  agent_test_assert_contains (question, "\\r\\t\\t\\t\\t\\t\\t,\\n");
  agent_test_assert_contains (question, "\\u{202e}txt.notes");
  for (const char *p = question; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      g_error ("The question shows the control character 0x%02x raw: “%s”", *p, question);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/approval/no-terminal", test_approval_no_terminal);
  g_test_add_func ("/cli/approval/terminal", test_approval_terminal);
  g_test_add_func ("/cli/approval/interrupted", test_approval_interrupted);
  g_test_add_func ("/cli/approval/question-escaped", test_approval_question_escaped);

  return g_test_run ();
}
