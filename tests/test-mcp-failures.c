/* test-mcp-failures.c — MCP servers that die or misbehave
 *
 * A server killed in the middle of a call, one that cannot be started,
 * exits at once, prints garbage and never answers, speaks another protocol
 * version or refuses the handshake: each is an error the client reports,
 * and none takes the test program down. Real processes throughout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

/* The server dies in the middle of a call: the call ends with an error
 * that says so, the client is FAILED, and the next call starts the server
 * again. */
static void
test_server_killed (void)
{
  AgentTestMcpKillable server;
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  const GError *error;
  guint state_changes = 0;

  agent_test_mcp_killable_init (&server);
  agent_test_mcp_connect (server.client);
  g_signal_connect (server.client, "notify::state", G_CALLBACK (agent_test_count_notify),
                    &state_changes);

  invocation = agent_test_mcp_invoke (server.client, "trigger-long-running-operation",
                                      "{\"duration\":30,\"steps\":30}", NULL, &result);
  g_assert_no_errno (kill (agent_test_mcp_killable_pid (&server), SIGKILL));
  agent_test_mcp_wait_invocation (invocation);

  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "The MCP server “everything” was ended by signal 9");
  g_assert_cmpint (agent_mcp_client_get_state (server.client), ==,
                   AGENT_MCP_CLIENT_STATE_FAILED);
  error = agent_mcp_client_get_error (server.client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpstr (error->message, ==, result.text);
  g_assert_cmpuint (state_changes, ==, 1);
  agent_test_mcp_result_clear (&result);

  /* The tools stay; calling one starts the server anew */
  agent_test_mcp_call (server.client, "echo", "{\"message\":\"back again\"}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "Echo: back again");
  g_assert_cmpint (agent_mcp_client_get_state (server.client), ==, AGENT_MCP_CLIENT_STATE_READY);
  g_assert_null (agent_mcp_client_get_error (server.client));
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (server.client);
  agent_test_mcp_killable_clear (&server);
}

/* Dropping a connected client ends its server: stdin closes, it exits. */
static void
test_dispose_ends_server (void)
{
  AgentTestMcpKillable server;
  GPid pid;

  agent_test_mcp_killable_init (&server);
  agent_test_mcp_connect (server.client);
  pid = agent_test_mcp_killable_pid (&server);
  g_assert_false (agent_test_mcp_process_is_gone (GINT_TO_POINTER (pid)));

  g_clear_object (&server.client);
  agent_test_wait_until (agent_test_mcp_process_is_gone, GINT_TO_POINTER (pid));

  agent_test_mcp_killable_clear (&server);
}

static void
assert_fails (AgentMcpClient *client,
              GQuark          domain,
              int             code,
              const char     *message)
{
  g_autoptr(GError) error = agent_test_mcp_connect_error (client);

  g_assert_error (error, domain, code);
  agent_test_assert_contains (error->message, message);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  g_assert_cmpstr (agent_mcp_client_get_error (client)->message, ==, error->message);
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 0);

  /* Whatever it started is gone once closed */
  agent_test_mcp_close (client);
}

/* What a server of 2025-11-25 or older answers the probe of 2026-07-28
 * (server/discover, id 1) with: its initialize is then request 2 */
#define OLDER_SERVER_PROBE \
  "read probe; echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601," \
  "\"message\":\"Method not found\"}}'; "

static AgentMcpClient *
shell_server (const char *script)
{
  const char *args[] = { "-c", script, NULL };

  return agent_mcp_client_new_stdio ("broken", "sh", args);
}

static void
test_not_found (void)
{
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("broken",
                                                                 "/nonexistent/mcp-server",
                                                                 NULL);

  assert_fails (client, AGENT_ERROR, AGENT_ERROR_FAILED,
                "The MCP server “broken” could not be started: "
                "there is no program “/nonexistent/mcp-server”");
}

static void
test_exits_at_once (void)
{
  g_autoptr(AgentMcpClient) client = NULL;
  const char *env[] = { "MCP_TEST_TOKEN=tok-1234567890", NULL };

  /* Its last words are in the error, without the secrets it was given */
  client = shell_server ("echo starting >&2; "
                         "echo \"Error: bad token $MCP_TEST_TOKEN\" >&2; exit 3");
  agent_mcp_client_set_env (client, env);
  assert_fails (client, AGENT_ERROR, AGENT_ERROR_NETWORK,
                "The MCP server “broken” exited with status 3: Error: bad token [redacted]");
}

static void
test_garbage_then_silence (void)
{
  g_autoptr(AgentMcpClient) client = NULL;

  client = shell_server ("echo 'Listening on stdio!'; echo '{\"not\": \"rpc\"'; exec sleep 60");
  agent_mcp_client_set_timeout (client, 1);
  assert_fails (client, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                "The MCP server “broken” did not answer initialize within 1 s "
                "(it wrote 2 lines that are not JSON-RPC, the first: “Listening on stdio!”)");
}

/* A banner on stdout is skipped: the server works. */
static void
test_banner_tolerated (void)
{
  g_autofree char *server = agent_test_mcp_server_path ("server-everything");
  g_autofree char *script = g_strdup_printf ("echo 'Server starting'; exec node '%s' stdio",
                                             server);
  g_autoptr(AgentMcpClient) client = shell_server (script);

  agent_test_mcp_connect (client);
  g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));
  agent_test_mcp_close (client);
}

static void
test_unknown_protocol_version (void)
{
  g_autoptr(AgentMcpClient) client = NULL;

  client = shell_server (OLDER_SERVER_PROBE "read request; "
                         "echo '{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":"
                         "\"1999-01-01\",\"capabilities\":{},\"serverInfo\":{\"name\":\"old\"}}}'; "
                         "exec sleep 60");
  assert_fails (client, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                "The MCP server “broken” speaks protocol versions 1999-01-01; "
                "libagent speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05");
}

static void
test_handshake_refused (void)
{
  g_autoptr(AgentMcpClient) client = NULL;

  client = shell_server (OLDER_SERVER_PROBE "read request; "
                         "echo '{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,"
                         "\"message\":\"Unsupported protocol version\"}}'; exec sleep 60");
  assert_fails (client, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                "The MCP server “broken” refused the handshake: Unsupported protocol version");
}

/* An older server: it answers with its own version, which is ours too */
static void
test_older_protocol_version (void)
{
  g_autoptr(AgentMcpClient) client = NULL;

  client = shell_server (OLDER_SERVER_PROBE "read request; "
                         "echo '{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"protocolVersion\":"
                         "\"2024-11-05\",\"capabilities\":{},\"serverInfo\":{\"name\":\"old\","
                         "\"version\":\"0.1\"}}}'; "
                         "exec cat > /dev/null");
  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2024-11-05");
  g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "old");
  /* No tools capability: no tools, and no listing asked */
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 0);
  agent_test_mcp_close (client);
}

static void
test_disable (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpTool) echo = NULL;
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "echo", "{\"message\":\"x\"}");
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean is_error = FALSE;

  agent_test_mcp_connect (client);
  echo = g_object_ref (agent_test_mcp_find_tool (client, "echo"));

  agent_mcp_client_set_enabled (client, FALSE);
  g_assert_false (agent_mcp_client_get_enabled (client));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 0);

  error = agent_test_mcp_connect_error (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);

  /* A tool kept from before does not start it either */
  invocation = agent_tool_invocation_new (AGENT_TOOL (echo), call, NULL);
  agent_tool_invoke (AGENT_TOOL (echo), invocation);
  agent_test_mcp_wait_invocation (invocation);
  text = agent_tool_invocation_dup_result (invocation, &is_error);
  g_assert_true (is_error);
  g_assert_cmpstr (text, ==, "The MCP server “everything” is disabled");

  agent_mcp_client_set_enabled (client, TRUE);
  agent_test_mcp_connect (client);
  g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/failures/server-killed", test_server_killed);
  g_test_add_func ("/mcp/failures/dispose-ends-server", test_dispose_ends_server);
  g_test_add_func ("/mcp/failures/not-found", test_not_found);
  g_test_add_func ("/mcp/failures/exits-at-once", test_exits_at_once);
  g_test_add_func ("/mcp/failures/garbage-then-silence", test_garbage_then_silence);
  g_test_add_func ("/mcp/failures/banner-tolerated", test_banner_tolerated);
  g_test_add_func ("/mcp/failures/unknown-protocol-version", test_unknown_protocol_version);
  g_test_add_func ("/mcp/failures/handshake-refused", test_handshake_refused);
  g_test_add_func ("/mcp/failures/older-protocol-version", test_older_protocol_version);
  g_test_add_func ("/mcp/failures/disable", test_disable);

  return g_test_run ();
}
