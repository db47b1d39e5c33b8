/* test-cli-signals.c — agent-cli stopped by a signal leaves no MCP server
 * behind: SIGTERM while the servers start, Ctrl-C while the prompt is
 * read, and kill -9, which no handler sees
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

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Waits for what no event announces (a file, a process gone): the main
 * loop wakes up every 20 ms to look */
static gboolean
poll_until (gboolean (*predicate) (gpointer),
            gpointer   data)
{
  guint tick = g_timeout_add (20, tick_cb, NULL);
  gboolean ok = agent_test_wait_until_timeout (predicate, data, AGENT_TEST_PROCESS_WAIT_SECONDS);

  g_source_remove (tick);
  return ok;
}

static gboolean
pid_file_written (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && contents[0] != '\0' &&
         g_str_has_suffix (contents, "\n");
}

static GPid
server_pid (Setup *setup)
{
  g_autofree char *contents = NULL;

  if (!poll_until (pid_file_written, setup->pid_file))
    g_error ("The MCP server did not start");
  g_assert_true (g_file_get_contents (setup->pid_file, &contents, NULL, NULL));
  return (GPid) g_ascii_strtoll (contents, NULL, 10);
}

/* Gone, or a zombie nobody reaped yet (an orphan's reaper may be slow, or
 * absent in a container): either way, not running */
static gboolean
process_is_gone (gpointer data)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", GPOINTER_TO_INT (data));
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  end = strrchr (stat, ')');
  return end != NULL && (end[2] == 'Z' || end[2] == 'X');
}

static void
assert_gone (GPid pid)
{
  if (!poll_until (process_is_gone, GINT_TO_POINTER (pid)))
    {
      kill (pid, SIGKILL);
      g_error ("The MCP server (process %d) outlived agent-cli", (int) pid);
    }
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-signals/sigterm-while-starting", test_sigterm_while_starting);
  g_test_add_func ("/cli-signals/sigint-while-reading-prompt", test_sigint_while_reading_prompt);
  g_test_add_func ("/cli-signals/kill-9", test_kill_9);

  return g_test_run ();
}
