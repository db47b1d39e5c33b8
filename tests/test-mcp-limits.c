/* test-mcp-limits.c — what an MCP server may send: how many tools, how
 * large a result, how many content blocks, how long a call may stay
 * unanswered, how long a line may be
 *
 * Against agent-test-mcp-server, a real process that misbehaves on
 * request (no npm needed).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-process.h"
#include "agent-test-util.h"

static void
test_defaults (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);

  g_assert_cmpuint (agent_mcp_client_get_max_tools (client), ==, 1000);
  g_assert_cmpuint (agent_mcp_client_get_max_result_size (client), ==, 1024 * 1024);
  g_assert_cmpfloat (agent_mcp_client_get_call_timeout (client), ==, 300);
}

/* 2,000 tools: over max-tools, the server is left out with an error that
 * says why; without the limit, they all come. */
static void
test_too_many_tools (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (2000);
  g_autoptr(GError) error = NULL;

  error = agent_test_mcp_connect_error (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  agent_test_assert_contains (error->message,
                              "The MCP server “hostile” offers more than 1000 tools (max-tools)");
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 0);
  agent_test_mcp_close (client);

  agent_mcp_client_set_max_tools (client, 0);
  agent_test_mcp_connect (client);
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 2007);
  agent_test_mcp_close (client);
}

static gboolean
unused_handler (AgentTool           *tool,
                AgentToolInvocation *invocation,
                gpointer             user_data,
                GError             **error)
{
  agent_tool_invocation_return_result (invocation, "unused");

  return TRUE;
}

/* Thousands of tools reach the session, each found by its name; one whose
 * name the session already has is left out. */
static void
test_many_tools_attached (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (5000);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentTool) own = agent_tool_new ("tool_00042", "The session's own", NULL,
                                             unused_handler, NULL, NULL);
  GListModel *tools = agent_session_get_tools (session);

  agent_session_add_tool (session, own);
  agent_mcp_client_set_max_tools (client, 0);
  agent_mcp_server_list_add (list, client);
  agent_mcp_server_list_attach (list, session);
  agent_test_mcp_connect (client);

  g_assert_cmpuint (g_list_model_get_n_items (tools), ==, 5007);
  g_assert_true (agent_session_lookup_tool (session, "tool_00042") == own);
  g_assert_true (AGENT_IS_MCP_TOOL (agent_session_lookup_tool (session, "tool_04999")));
  g_assert_true (AGENT_IS_MCP_TOOL (agent_session_lookup_tool (session, "huge_text")));
  g_assert_null (agent_session_lookup_tool (session, "tool_05000"));

  /* Gone with the server's tools, and found no more */
  agent_mcp_server_list_detach (list, session);
  g_assert_cmpuint (g_list_model_get_n_items (tools), ==, 1);
  g_assert_null (agent_session_lookup_tool (session, "tool_04999"));
  g_assert_true (agent_session_lookup_tool (session, "tool_00042") == own);
  agent_test_mcp_close (client);
}

static void
assert_still_works (AgentMcpClient *client)
{
  AgentTestMcpResult result;

  agent_test_mcp_call (client, "echo", "{\"text\":\"still here\"}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "still here");
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);
  agent_test_mcp_result_clear (&result);
}

/* A result over max-result-size is not given to the model: the model
 * reads why, and the server works on. */
static void
test_result_size (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "huge_text", "{\"bytes\":2000000}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==,
                   "The MCP server “hostile” answered with 1.9\u00A0MiB of text, more than "
                   "1.0\u00A0MiB (max-result-size); the result was not used");
  agent_test_mcp_result_clear (&result);
  assert_still_works (client);

  agent_mcp_client_set_max_result_size (client, 0);
  agent_test_mcp_call (client, "huge_text", "{\"bytes\":2000000}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpuint (strlen (result.text), ==, 2000000);
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

/* Twenty thousand content blocks: refused before they take memory */
static void
test_many_blocks (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "many_blocks", "{\"count\":20000}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==,
                   "The MCP server “hostile” answered with more than 10000 content blocks; "
                   "the result was not used");
  agent_test_mcp_result_clear (&result);
  assert_still_works (client);

  /* As many as allowed is a result */
  agent_test_mcp_call (client, "many_blocks", "{\"count\":10000}", &result);
  g_assert_false (result.is_error);
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

/* A line over 16 MiB: the server is stopped, and the error says why (not
 * the signal we stopped it with); the next call starts it again. */
static void
test_over_long_line (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;
  const GError *error;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "huge_text", "{\"bytes\":17000000}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==,
                   "The MCP server “hostile” was stopped: A line of the JSON stream is longer "
                   "than 16 MiB");
  g_assert_null (strstr (result.text, "signal"));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  error = agent_mcp_client_get_error (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  agent_test_mcp_result_clear (&result);

  assert_still_works (client);
  agent_test_mcp_close (client);
}

/* An answer nested 100,000 arrays deep cannot be read (no JSON of
 * libagent nests more than 512): the call fails at once saying so, not
 * after call-timeout with "did not answer"; the server works on */
static void
test_too_deep (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;

  agent_mcp_client_set_call_timeout (client, 3);
  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "deep", "{\"depth\":100000}", &result);
  g_assert_true (result.is_error);
  g_test_message ("%s", result.text);
  agent_test_assert_contains (result.text, "The MCP server “hostile” answered tools/call");
  agent_test_assert_contains (result.text, "nested more than 512");
  g_assert_null (strstr (result.text, "did not answer"));
  agent_test_mcp_result_clear (&result);

  /* Within the bound it is a result */
  agent_test_mcp_call (client, "deep", "{\"depth\":400}", &result);
  g_assert_false (result.is_error);
  agent_test_mcp_result_clear (&result);

  assert_still_works (client);
  agent_test_mcp_close (client);
}

/* A server that never answers a call: call-timeout ends the call, the
 * server is told, and works on */
static void
test_call_timeout (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;

  agent_mcp_client_set_call_timeout (client, 0.5);
  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "silent", "{}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==,
                   "The MCP server “hostile” did not answer tools/call within 0.5 s");
  agent_test_mcp_result_clear (&result);

  assert_still_works (client);
  agent_test_mcp_close (client);
}

/* Progress reports start the time limit again: a call that reports
 * progress every 0.15 s for 1.8 s is not stopped by a 0.6 s limit */
static void
test_call_timeout_progress (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  AgentTestMcpResult result;

  agent_mcp_client_set_call_timeout (client, 0.6);
  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "progress", "{\"steps\":12,\"ms\":150}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "done");
  g_assert_cmpuint (result.progress->len, ==, 12);
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/limits/defaults", test_defaults);
  g_test_add_func ("/mcp/limits/too-many-tools", test_too_many_tools);
  g_test_add_func ("/mcp/limits/many-tools-attached", test_many_tools_attached);
  g_test_add_func ("/mcp/limits/result-size", test_result_size);
  g_test_add_func ("/mcp/limits/many-blocks", test_many_blocks);
  g_test_add_func ("/mcp/limits/over-long-line", test_over_long_line);
  g_test_add_func ("/mcp/limits/too-deep", test_too_deep);
  g_test_add_func ("/mcp/limits/call-timeout", test_call_timeout);
  g_test_add_func ("/mcp/limits/call-timeout-progress", test_call_timeout_progress);

  return g_test_run ();
}
