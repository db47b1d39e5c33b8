/* agent-test-mcp.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

/* tests/mcp, where package.json and node_modules are */
const char *
agent_test_mcp_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      const char *variable = g_getenv ("AGENT_MCP_TEST_DIR");

      dir = variable != NULL && variable[0] != '\0' ?
        g_strdup (variable) : g_test_build_filename (G_TEST_DIST, "mcp", NULL);
    }
  return dir;
}

/*
 * g_test_init(), then: are the servers there? Without node_modules the
 * tests fail, unless AGENT_NO_NPM=1 says that this machine has no npm:
 * then the whole program is skipped (a TAP plan of none). Returns FALSE
 * when skipped.
 */
gboolean
agent_test_mcp_init (int    *argc,
                     char ***argv)
{
  g_autofree char *modules = NULL;

  g_test_init (argc, argv, NULL);

  modules = g_build_filename (agent_test_mcp_dir (), "node_modules", "@modelcontextprotocol",
                              NULL);
  if (g_file_test (modules, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *node = g_find_program_in_path ("node");

      if (node == NULL)
        g_error ("The MCP tests need node (scripts/install-deps installs nodejs)");
      return TRUE;
    }

  if (g_strcmp0 (g_getenv ("AGENT_NO_NPM"), "1") == 0)
    {
      printf ("1..0 # SKIP %s is missing and AGENT_NO_NPM=1: no MCP servers to test with\n",
              modules);
      return FALSE;
    }

  g_printerr ("%s is missing: run tests/mcp/install (or set AGENT_NO_NPM=1 on a machine "
              "without npm to skip these tests)\n", modules);
  exit (1);
}

char *
agent_test_mcp_server_path (const char *package)
{
  return g_build_filename (agent_test_mcp_dir (), "node_modules", "@modelcontextprotocol",
                           package, "dist", "index.js", NULL);
}

AgentMcpClient *
agent_test_mcp_everything_new (const char *name)
{
  g_autofree char *path = agent_test_mcp_server_path ("server-everything");
  const char *args[] = { path, "stdio", NULL };

  return agent_mcp_client_new_stdio (name ? name : "everything", "node", args);
}

AgentMcpClient *
agent_test_mcp_filesystem_new (const char *root)
{
  g_autofree char *path = agent_test_mcp_server_path ("server-filesystem");
  const char *args[] = { path, root, NULL };

  return agent_mcp_client_new_stdio ("files", "node", args);
}

AgentMcpClient *
agent_test_mcp_dynamic_new (void)
{
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "dynamic-server.mjs", NULL);
  const char *args[] = { path, NULL };

  return agent_mcp_client_new_stdio ("dynamic", "node", args);
}

AgentMcpClient *
agent_test_mcp_features_new (void)
{
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "features-server.mjs", NULL);
  const char *args[] = { path, NULL };

  return agent_mcp_client_new_stdio ("features", "node", args);
}

AgentMcpClient *
agent_test_mcp_elicitation_new (void)
{
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "elicitation-server.mjs",
                                            NULL);
  const char *args[] = { path, NULL };

  return agent_mcp_client_new_stdio ("asker", "node", args);
}

/* The hostile server of the tests (agent-test-mcp-server), offering
 * @n_tools filler tools besides its own */
AgentMcpClient *
agent_test_mcp_hostile_new (guint n_tools)
{
  const char *server = agent_test_find_program ("AGENT_TEST_MCP_SERVER", "tests",
                                                "agent-test-mcp-server");
  g_autofree char *count = g_strdup_printf ("%u", n_tools);
  const char *args[] = { "--tools", count, NULL };

  return agent_mcp_client_new_stdio ("hostile", server, args);
}

/* Writes @json as mcp.json in a new directory named after @dir_prefix */
void
agent_test_mcp_config_init (AgentTestMcpConfig *self,
                            const char         *dir_prefix,
                            const char         *json)
{
  self->dir = agent_test_make_dir (dir_prefix);
  self->path = agent_test_write_file (self->dir, "mcp.json", json, -1);
}

/* Removes the file and its directory */
void
agent_test_mcp_config_clear (AgentTestMcpConfig *self)
{
  g_assert_no_errno (g_unlink (self->path));
  agent_test_remove_dir (self->dir);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->dir, g_free);
}

guint16
agent_test_mcp_free_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *url = agent_test_closed_port_url (&socket);
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  /* Closed when @socket goes: free for the server to take. */
  return g_uri_get_port (uri);
}

static gboolean
is_listening (gpointer data)
{
  AgentTestProcess *process = data;

  return strstr (process->err->str, "listening on port") != NULL || process->exited;
}

/* server-everything in its Streamable HTTP mode, on a free port of
 * 127.0.0.1; *url is its endpoint. */
AgentTestProcess *
agent_test_mcp_everything_http (char **url)
{
  g_autofree char *path = agent_test_mcp_server_path ("server-everything");
  g_autofree char *port = g_strdup_printf ("PORT=%u", agent_test_mcp_free_port ());
  AgentTestProcess *process;

  process = agent_test_process_spawn ("node", AGENT_TEST_ARGS (port), NULL,
                                      AGENT_TEST_PROCESS_KEEP_STDIN,
                                      AGENT_TEST_ARGS (path, "streamableHttp"));
  if (!agent_test_wait_until_timeout (is_listening, process, AGENT_TEST_MCP_WAIT_SECONDS) ||
      process->exited)
    g_error ("server-everything did not start: %s", process->err->str);

  *url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port + strlen ("PORT="));
  return process;
}

/* Connecting */

typedef struct
{
  GError   *error;
  gboolean  done;
} Outcome;

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Outcome *outcome = user_data;

  agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, &outcome->error);
  outcome->done = TRUE;
}

static gboolean
outcome_is_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

/* Connects @client; the error, or NULL once connected. */
GError *
agent_test_mcp_connect_error (AgentMcpClient *client)
{
  Outcome outcome = { NULL, FALSE };

  agent_mcp_client_connect_async (client, NULL, connect_cb, &outcome);
  if (!agent_test_wait_until_timeout (outcome_is_done, &outcome, AGENT_TEST_MCP_WAIT_SECONDS))
    g_error ("The MCP server “%s” did not connect in time", agent_mcp_client_get_name (client));

  return outcome.error;
}

void
agent_test_mcp_connect (AgentMcpClient *client)
{
  g_autoptr(GError) error = agent_test_mcp_connect_error (client);

  g_assert_no_error (error);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_mcp_client_close_finish (AGENT_MCP_CLIENT (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

/* Closes @client and waits until its server is gone. */
void
agent_test_mcp_close (AgentMcpClient *client)
{
  gboolean closed = FALSE;

  agent_mcp_client_close_async (client, NULL, close_cb, &closed);
  agent_test_wait_for (&closed);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
}

/* Calling */

AgentMcpTool *
agent_test_mcp_find_tool (AgentMcpClient *client,
                          const char     *name)
{
  GListModel *tools = agent_mcp_client_get_tools (client);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(AgentMcpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (agent_tool_get_name (AGENT_TOOL (tool)), name))
        return tool;  /* the list keeps it */
    }

  return NULL;
}

static void
progress_cb (AgentToolInvocation *invocation,
             double               fraction,
             const char          *text,
             AgentTestMcpResult  *result)
{
  g_array_append_val (result->progress, fraction);
  g_ptr_array_add (result->progress_texts, g_strdup (text ? text : ""));
}

static void
completed_cb (AgentToolInvocation *invocation,
              GParamSpec          *pspec,
              AgentTestMcpResult  *result)
{
  g_free (result->text);
  result->text = agent_tool_invocation_dup_result (invocation, &result->is_error);
}

/* Starts a call of @tool (its name in the session) with @arguments (JSON);
 * @result gets its progress, and its result once completed. */
AgentToolInvocation *
agent_test_mcp_invoke (AgentMcpClient      *client,
                       const char          *tool,
                       const char          *arguments,
                       GCancellable        *cancellable,
                       AgentTestMcpResult  *result)
{
  AgentMcpTool *found = agent_test_mcp_find_tool (client, tool);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", tool, arguments);
  AgentToolInvocation *invocation;

  g_assert_nonnull (found);
  memset (result, 0, sizeof *result);
  result->progress = g_array_new (FALSE, FALSE, sizeof (double));
  result->progress_texts = g_ptr_array_new_with_free_func (g_free);

  invocation = agent_tool_invocation_new (AGENT_TOOL (found), call, cancellable);
  g_signal_connect (invocation, "progress", G_CALLBACK (progress_cb), result);
  g_signal_connect (invocation, "notify::completed", G_CALLBACK (completed_cb), result);
  agent_tool_invoke (AGENT_TOOL (found), invocation);
  return invocation;
}

static gboolean
is_completed (gpointer data)
{
  return agent_tool_invocation_is_completed (data);
}

void
agent_test_mcp_wait_invocation (AgentToolInvocation *invocation)
{
  if (!agent_test_wait_until_timeout (is_completed, invocation, AGENT_TEST_MCP_WAIT_SECONDS))
    g_error ("The MCP tool call did not end in time");
  /* Progress queued before the result is delivered first */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Calls @tool with @arguments and waits for its result. */
static void
call_raw_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  JsonNode **node = user_data;
  g_autoptr(GError) error = NULL;

  *node = agent_mcp_client_call_tool_finish (AGENT_MCP_CLIENT (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
node_is_set (gpointer data)
{
  return *(JsonNode **) data != NULL;
}

/* agent_mcp_client_call_tool_async() of @tool with @arguments, waited
 * for: the server's result object, which must not be an error */
JsonNode *
agent_test_mcp_call_raw (AgentMcpClient *client,
                         const char     *tool,
                         JsonNode       *arguments)
{
  JsonNode *result = NULL;

  agent_mcp_client_call_tool_async (client, tool, arguments, NULL, call_raw_cb, &result);
  agent_test_wait_until (node_is_set, &result);
  return result;
}

void
agent_test_mcp_call (AgentMcpClient     *client,
                     const char         *tool,
                     const char         *arguments,
                     AgentTestMcpResult *result)
{
  g_autoptr(AgentToolInvocation) invocation = NULL;

  invocation = agent_test_mcp_invoke (client, tool, arguments, NULL, result);
  agent_test_mcp_wait_invocation (invocation);
  g_signal_handlers_disconnect_by_data (invocation, result);
  g_assert_nonnull (result->text);
}

void
agent_test_mcp_result_clear (AgentTestMcpResult *result)
{
  g_clear_pointer (&result->text, g_free);
  g_clear_pointer (&result->progress, g_array_unref);
  g_clear_pointer (&result->progress_texts, g_ptr_array_unref);
}

/* Killing a server */

void
agent_test_mcp_killable_init (AgentTestMcpKillable *self)
{
  g_autofree char *server = agent_test_mcp_server_path ("server-everything");
  g_autofree char *script = NULL;
  const char *args[3] = { "-c", NULL, NULL };

  self->dir = agent_test_make_dir ("agent-mcp-kill");
  self->pid_file = g_build_filename (self->dir, "pid", NULL);
  script = g_strdup_printf ("echo $$ > '%s'; exec node '%s' stdio", self->pid_file, server);
  args[1] = script;
  self->client = agent_mcp_client_new_stdio ("everything", "sh", args);
}

/* The server's pid, once started */
GPid
agent_test_mcp_killable_pid (AgentTestMcpKillable *self)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (self->pid_file, &contents, NULL, NULL));
  return (GPid) g_ascii_strtoll (contents, NULL, 10);
}

void
agent_test_mcp_killable_clear (AgentTestMcpKillable *self)
{
  g_clear_object (&self->client);
  if (g_file_test (self->pid_file, G_FILE_TEST_EXISTS))
    g_assert_no_errno (g_unlink (self->pid_file));
  agent_test_remove_dir (self->dir);
  g_free (self->pid_file);
  g_free (self->dir);
}

/* For agent_test_wait_until(): @pid (GINT_TO_POINTER) exited and was reaped */
gboolean
agent_test_mcp_process_is_gone (gpointer pid)
{
  return kill (GPOINTER_TO_INT (pid), 0) != 0;
}
