/* test-cli-signals.c — agent-cli stopped by a signal leaves no MCP server
 * behind, nor what a server started: SIGTERM while the servers start,
 * Ctrl-C while the prompt is read, and kill -9, which no handler sees
 *
 * Real processes: agent-cli, and MCP servers that do not leave on their
 * own (one never answers the handshake, one ignores the end of its input).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-process.h"
#include "agent-test-util.h"

typedef struct
{
  char *dir;
  char *config;
  char *pid_file;
} Setup;

static void
setup_clear (Setup *setup)
{
  agent_test_remove_dir (setup->dir);
  g_free (setup->dir);
  g_free (setup->config);
  g_free (setup->pid_file);
}

/* A server that never answers initialize: the start waits (a minute, by
 * default) */
static void
setup_silent (Setup *setup)
{
  g_autofree char *json = NULL;

  setup->dir = agent_test_make_dir ("agent-cli-signals");
  setup->pid_file = g_build_filename (setup->dir, "server.pid", NULL);
  json = g_strdup_printf ("{\"mcpServers\":{\"silent\":{\"command\":\"sh\",\"args\":[\"-c\","
                          "\"echo $$ > '%s'; exec sleep 600\"]}}}",
                          setup->pid_file);
  setup->config = agent_test_write_file (setup->dir, "mcp.json", json, -1);
}

/* A server that answers, then stays after its input ended */
static void
setup_lingering (Setup *setup)
{
  const char *server = agent_test_find_program ("AGENT_TEST_MCP_SERVER", "tests",
                                                "agent-test-mcp-server");
  g_autofree char *json = NULL;

  setup->dir = agent_test_make_dir ("agent-cli-signals");
  setup->pid_file = g_build_filename (setup->dir, "server.pid", NULL);
  json = g_strdup_printf ("{\"mcpServers\":{\"lingering\":{\"command\":\"%s\",\"args\":"
                          "[\"--pid-file\",\"%s\",\"--linger\"]}}}",
                          server, setup->pid_file);
  setup->config = agent_test_write_file (setup->dir, "mcp.json", json, -1);
}

static GPid
server_pid (Setup *setup)
{
  return agent_test_read_pid_file (setup->pid_file);
}

static void
assert_gone (GPid pid)
{
  agent_test_assert_pid_gone (pid, "The MCP server, after agent-cli,");
}

static AgentTestProcess *
spawn_cli (Setup              *setup,
           const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = agent_test_find_program ("AGENT_CLI", "cli", "agent-cli");

  g_ptr_array_add (argv, (gpointer) "--no-store");
  g_ptr_array_add (argv, (gpointer) "--mcp-config");
  g_ptr_array_add (argv, setup->config);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  /* Standard input stays open: a prompt that never ends */
  return agent_test_process_spawn (cli, NULL, NULL, AGENT_TEST_PROCESS_KEEP_STDIN,
                                   (const char * const *) argv->pdata);
}

/* A server that starts a process of its own (in its process group, as a
 * shell's background job is), writing that one's id to child.pid */
static void
setup_with_child (Setup *setup)
{
  const char *server = agent_test_find_program ("AGENT_TEST_MCP_SERVER", "tests",
                                                "agent-test-mcp-server");
  g_autofree char *child_file = NULL;
  g_autofree char *json = NULL;

  setup->dir = agent_test_make_dir ("agent-cli-signals");
  setup->pid_file = g_build_filename (setup->dir, "server.pid", NULL);
  child_file = g_build_filename (setup->dir, "child.pid", NULL);
  json = g_strdup_printf ("{\"mcpServers\":{\"parent\":{\"command\":\"sh\",\"args\":[\"-c\","
                          "\"sleep 600 & echo $! > '%s'; exec '%s' --pid-file '%s' --linger\"]}}}",
                          child_file, server, setup->pid_file);
  setup->config = agent_test_write_file (setup->dir, "mcp.json", json, -1);
}

static GPid
child_pid (Setup *setup)
{
  g_autofree char *child_file = g_build_filename (setup->dir, "child.pid", NULL);

  return agent_test_read_pid_file (child_file);
}

/* SIGTERM while the servers start: agent-cli stops starting, the server
 * leaves, and agent-cli exits as interrupted */
static void
test_sigterm_while_starting (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  Setup setup = { 0 };
  GPid pid;

  setup_silent (&setup);
  cli = spawn_cli (&setup, AGENT_TEST_ARGS ("Hi"));
  pid = server_pid (&setup);

  g_subprocess_send_signal (cli->process, SIGTERM);
  agent_test_process_wait (cli);

  agent_test_process_assert_exit (cli, 130);
  assert_gone (pid);
  setup_clear (&setup);
}

/* Ctrl-C while the prompt is read from standard input: the servers are
 * closed, even one that ignores the end of its input */
static void
test_sigint_while_reading_prompt (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  Setup setup = { 0 };
  GPid pid;

  setup_lingering (&setup);
  cli = spawn_cli (&setup, AGENT_TEST_ARGS ("--json"));
  pid = server_pid (&setup);
  /* Connected: its line is out */
  while (strstr (cli->out->str, "\"mcp-server\"") == NULL && !cli->exited)
    g_main_context_iteration (NULL, TRUE);

  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);

  agent_test_process_assert_exit (cli, 130);
  assert_gone (pid);
  setup_clear (&setup);
}

/* kill -9: no handler runs, and the kernel ends the server with agent-cli */
static void
test_kill_9 (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  Setup setup = { 0 };
  GPid pid;

  setup_lingering (&setup);
  cli = spawn_cli (&setup, AGENT_TEST_ARGS ("--json"));
  pid = server_pid (&setup);

  g_subprocess_force_exit (cli->process);
  agent_test_process_wait (cli);

  assert_gone (pid);
  setup_clear (&setup);
}

/* agent-cli with a server that started a process of its own, connected:
 * *@pid the server, *@child that process */
static AgentTestProcess *
spawn_with_child (Setup *setup,
                  GPid  *pid,
                  GPid  *child)
{
  AgentTestProcess *cli;

  setup_with_child (setup);
  cli = spawn_cli (setup, AGENT_TEST_ARGS ("--json"));
  *pid = server_pid (setup);
  *child = child_pid (setup);
  while (strstr (cli->out->str, "\"mcp-server\"") == NULL && !cli->exited)
    g_main_context_iteration (NULL, TRUE);
  return cli;
}

/* kill -9 of agent-cli ends what its servers started too (their process
 * groups), not only the servers; so does Ctrl-C */
static void
test_children (gconstpointer data)
{
  gboolean kill_9 = GPOINTER_TO_INT (data);
  g_autoptr(AgentTestProcess) cli = NULL;
  Setup setup = { 0 };
  GPid pid, child;

  cli = spawn_with_child (&setup, &pid, &child);
  if (kill_9)
    g_subprocess_force_exit (cli->process);
  else
    g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);

  if (!kill_9)
    agent_test_process_assert_exit (cli, 130);
  assert_gone (pid);
  agent_test_assert_pid_gone (child, "What the MCP server started, after agent-cli,");
  setup_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-signals/sigterm-while-starting", test_sigterm_while_starting);
  g_test_add_func ("/cli-signals/sigint-while-reading-prompt", test_sigint_while_reading_prompt);
  g_test_add_func ("/cli-signals/kill-9", test_kill_9);
  g_test_add_data_func ("/cli-signals/kill-9-children", GINT_TO_POINTER (TRUE), test_children);
  g_test_add_data_func ("/cli-signals/sigint-children", GINT_TO_POINTER (FALSE), test_children);

  return g_test_run ();
}
