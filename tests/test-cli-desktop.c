/* test-cli-desktop.c — agent-cli --provider desktop: the turn runs in
 * agent-cli, its steps in the desktop service (test-desktop-util.c sets
 * up the bus, the service and the loopback model)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

/* agent-cli with @args on the test's bus. It starts as a shell that waits
 * until the service can tell who it is (its /proc entry, the real one),
 * then becomes agent-cli in the same process. */
static AgentTestProcess *
spawn_cli (const char * const *args)
{
  g_autofree char *fifo = g_build_filename (test.dir, "go", NULL);
  g_autofree char *bus = g_strdup_printf ("DBUS_SESSION_BUS_ADDRESS=%s", test.address);
  const char *env[] = { bus, NULL };
  const char *program = agent_test_find_program ("AGENT_CLI", "cli", "agent-cli");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *real = NULL;
  g_autofree char *entry = NULL;
  AgentTestProcess *cli;
  int fd;

  g_unlink (fifo);
  g_assert_no_errno (mkfifo (fifo, 0600));
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) "read go < \"$0\"; exec \"$@\"");
  g_ptr_array_add (argv, fifo);
  g_ptr_array_add (argv, (gpointer) program);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  cli = agent_test_process_spawn ("/bin/sh", env, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                  (const char * const *) argv->pdata);

  real = g_strdup_printf ("/proc/%s", g_subprocess_get_identifier (cli->process));
  entry = g_build_filename (test.dir, "proc", g_subprocess_get_identifier (cli->process), NULL);
  g_assert_no_errno (symlink (real, entry));
  test.answer = ANSWER_ALLOW;

  fd = open (fifo, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "go\n", 3), ==, 3);
  close (fd);
  return cli;
}

static AgentTestProcess *
run_cli_json (const char * const *args)
{
  AgentTestProcess *cli = spawn_cli (args);

  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);
  return cli;
}

static void
test_stream (void)
{
  const char *deltas[] = { "Hel", "lo", NULL };
  guint first = agent_test_server_get_n_requests (test.server);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;

  agent_test_openai_add_text_response (test.server, deltas, 3, 2);
  cli = run_cli_json (AGENT_TEST_ARGS ("--provider", "desktop", "--json", "Hi"));

  agent_test_process_assert_exit (cli, 0);
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, "Hello");
  g_assert_cmpuint (agent_test_process_count_events (cli, "text-delta"), ==, 2);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Hello");
  agent_test_cli_assert_usage (agent_test_process_last_event (cli), 3, 2, 5);
  /* No key asked for, none said to be missing */
  g_assert_null (strstr (cli->err->str, "API key"));
  g_assert_cmpstr (agent_test_server_get_request_header (test.server, first, "Authorization"),
                   ==, "Bearer " SECRET);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (test.server, first), ==, "Hi");
}

/* Without --json: the answer, and nothing about keys or URLs */
static void
test_plain (void)
{
  const char *deltas[] = { "Hel", "lo", NULL };
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (test.server, deltas, 3, 2);
  cli = spawn_cli (AGENT_TEST_ARGS ("--provider", "desktop", "Hi"));
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Hello\n");
  g_assert_cmpstr (cli->err->str, ==, "");
}

static const AgentTestToolChunk calculator_chunks[] = {
  { 0, "call_1", "calculator", "" },
  { 0, NULL, NULL, "{\"expr" },
  { 0, NULL, NULL, "ession\":" },
  { 0, NULL, NULL, " \"2*7\"}" },
};

/* The calculator runs in agent-cli, between two steps of the service */
static void
test_tool (void)
{
  const char *answer[] = { "2*7 is ", "14.", NULL };
  guint first = agent_test_server_get_n_requests (test.server);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *types = NULL;
  JsonObject *event;

  agent_test_openai_add_tool_response (test.server, calculator_chunks,
                                       G_N_ELEMENTS (calculator_chunks), 20, 5);
  agent_test_openai_add_text_response (test.server, answer, 30, 4);
  cli = run_cli_json (AGENT_TEST_ARGS ("--provider", "desktop", "--model", "Loopback",
                                       "--tool", "calculator", "--json", "What is 2*7?"));

  agent_test_process_assert_exit (cli, 0);
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-finished "
                   "text-delta text-delta step-finished done");
  event = agent_test_process_nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (agent_test_get_string (event, "arguments"), ==, "{\"expression\": \"2*7\"}");
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_1"), ==, "14");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "2*7 is 14.");
  agent_test_cli_assert_usage (agent_test_process_last_event (cli), 50, 9, 59);

  g_assert_cmpuint (agent_test_server_get_n_requests (test.server), ==, first + 2);
  g_assert_cmpstr (agent_test_openai_tool_message_content (test.server, first + 1, "call_1"), ==,
                   "14");
}

static void
test_list_models (void)
{
  g_autoptr(AgentTestProcess) cli = spawn_cli (AGENT_TEST_ARGS ("--provider", "desktop",
                                                                "--list-models"));

  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Loopback\n");
}

static void
test_no_such_profile (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *message;

  cli = run_cli_json (AGENT_TEST_ARGS ("--provider", "desktop", "--model", "Nowhere", "--json",
                                       "Hi"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "model-not-found");
  agent_test_assert_contains (message, "Nowhere");
}

/* No service on the bus (none there, none to start) */
static void
test_no_service (void)
{
  g_autofree char *bus = g_strdup_printf ("DBUS_SESSION_BUS_ADDRESS=unix:path=%s/no-bus",
                                          test.dir);
  const char *env[] = { bus, NULL };
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *message;

  cli = agent_test_cli_run_full (env, NULL, AGENT_TEST_ARGS ("--provider", "desktop", "--json",
                                                             "Hi"));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "network");
  agent_test_assert_contains (message, "The desktop assistant service "
                                       "(io.github.libagent.Assistant) is not available: ");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  desktop_setup ("test-cli-desktop");

  g_test_add_func ("/cli-desktop/stream", test_stream);
  g_test_add_func ("/cli-desktop/plain", test_plain);
  g_test_add_func ("/cli-desktop/tool", test_tool);
  g_test_add_func ("/cli-desktop/list-models", test_list_models);
  g_test_add_func ("/cli-desktop/no-such-profile", test_no_such_profile);
  g_test_add_func ("/cli-desktop/no-service", test_no_service);
  status = g_test_run ();

  desktop_teardown ();
  return status;
}
