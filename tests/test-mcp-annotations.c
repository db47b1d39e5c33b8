/* test-mcp-annotations.c — what an MCP server says about its tools
 *
 * tests/mcp/features-server.mjs (the official SDK's low-level server) and
 * the reference server-everything: the tool annotations as properties of
 * AgentMcpTool, the approval they decide with the client's trusted,
 * allow-read-only and allow-destructive (and their configuration keys),
 * structured results checked against the tool's output schema, and a tool
 * whose description changes mid-conversation (::tool-changed, and the
 * session offering the new definition).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

static gboolean
needs_approval (AgentMcpClient *client,
                const char     *tool)
{
  return agent_tool_get_requires_approval (AGENT_TOOL (agent_test_mcp_find_tool (client, tool)));
}

static void
test_hints (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  AgentMcpTool *peek;
  AgentMcpTool *wipe;
  AgentMcpTool *plain;
  g_autofree char *title = NULL;
  gboolean read_only, destructive, idempotent, open_world;

  agent_test_mcp_connect (client);

  peek = agent_test_mcp_find_tool (client, "peek");
  g_object_get (peek, "title", &title, "read-only-hint", &read_only,
                "destructive-hint", &destructive, "idempotent-hint", &idempotent,
                "open-world-hint", &open_world, NULL);
  g_assert_cmpstr (title, ==, "Peek");
  g_assert_true (read_only);
  /* A read-only tool destroys nothing, and may be called again */
  g_assert_false (destructive);
  g_assert_true (idempotent);
  g_assert_false (open_world);

  wipe = agent_test_mcp_find_tool (client, "wipe");
  g_assert_false (agent_mcp_tool_get_read_only_hint (wipe));
  g_assert_true (agent_mcp_tool_get_destructive_hint (wipe));
  g_assert_true (agent_mcp_tool_get_idempotent_hint (wipe));
  g_assert_true (agent_mcp_tool_get_open_world_hint (wipe));
  g_assert_null (agent_mcp_tool_get_title (wipe));

  /* No annotations: the specification's defaults */
  plain = agent_test_mcp_find_tool (client, "plain");
  g_assert_false (agent_mcp_tool_get_read_only_hint (plain));
  g_assert_true (agent_mcp_tool_get_destructive_hint (plain));
  g_assert_false (agent_mcp_tool_get_idempotent_hint (plain));
  g_assert_true (agent_mcp_tool_get_open_world_hint (plain));
  g_assert_null (agent_mcp_tool_get_output_schema (plain));
  g_assert_nonnull (agent_mcp_tool_get_output_schema (agent_test_mcp_find_tool (client,
                                                                                "weather")));

  agent_test_mcp_close (client);
}

static void
test_approval (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();

  agent_test_mcp_connect (client);

  /* Not trusted: everything asks */
  g_assert_true (needs_approval (client, "peek"));
  g_assert_true (needs_approval (client, "wipe"));
  g_assert_true (needs_approval (client, "plain"));

  /* Read-only tools allowed: only they run without asking */
  agent_mcp_client_set_allow_read_only (client, TRUE);
  g_assert_false (needs_approval (client, "peek"));
  g_assert_true (needs_approval (client, "wipe"));
  g_assert_true (needs_approval (client, "plain"));
  agent_mcp_client_set_allow_read_only (client, FALSE);

  /* Trusted: a tool the server says is destructive still asks */
  agent_mcp_client_set_trusted (client, TRUE);
  g_assert_false (needs_approval (client, "peek"));
  g_assert_true (needs_approval (client, "wipe"));
  g_assert_false (needs_approval (client, "plain"));

  /* … unless the user allowed that too */
  g_object_set (client, "allow-destructive", TRUE, NULL);
  g_assert_false (needs_approval (client, "wipe"));

  /* allow-destructive alone trusts nothing */
  agent_mcp_client_set_trusted (client, FALSE);
  g_assert_true (needs_approval (client, "wipe"));
  g_assert_true (needs_approval (client, "plain"));

  agent_test_mcp_close (client);
}

static void
test_config (void)
{
  g_autoptr(JsonNode) config = agent_test_parse_json (
    "{\"command\":\"node\",\"trusted\":true,\"allowReadOnly\":true,\"allowDestructive\":true}");
  g_autoptr(JsonNode) wrong = agent_test_parse_json ("{\"command\":\"node\",\"allowReadOnly\":1}");
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(JsonNode) written = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  client = agent_mcp_client_new_from_json ("s", config, &error);
  g_assert_no_error (error);
  g_assert_true (agent_mcp_client_get_allow_read_only (client));
  g_assert_true (agent_mcp_client_get_allow_destructive (client));

  written = agent_mcp_client_to_json (client);
  object = json_node_get_object (written);
  g_assert_true (json_object_get_boolean_member (object, "allowReadOnly"));
  g_assert_true (json_object_get_boolean_member (object, "allowDestructive"));

  g_clear_object (&client);
  client = agent_mcp_client_new_from_json ("s", wrong, &error);
  g_assert_null (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "allowReadOnly"));
}

static void
test_structured (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "weather", "{}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "{\"temperature\":21,\"conditions\":\"Sunny\"}");
  agent_test_mcp_result_clear (&result);

  /* The result breaks the tool's own schema: the model reads where */
  agent_test_mcp_call (client, "bad-weather", "{}", &result);
  g_assert_true (result.is_error);
  g_assert_nonnull (strstr (result.text, "bad-weather"));
  g_assert_nonnull (strstr (result.text, "$.temperature"));
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "no-structure", "{}", &result);
  g_assert_true (result.is_error);
  g_assert_nonnull (strstr (result.text, "no structured content"));
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(JsonNode) node = NULL;

  node = agent_mcp_client_call_tool_finish (AGENT_MCP_CLIENT (object), result, error);
  g_assert_true ((node == NULL) == (*error != NULL));
  if (node == NULL)
    return;
  /* Passed on as the server sent it */
  g_assert_true (json_object_has_member (json_node_get_object (node), "structuredContent"));
  *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "no error");
}

static gboolean
error_is_set (gpointer data)
{
  return *(GError **) data != NULL;
}

static void
test_structured_raw (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  g_autoptr(GError) error = NULL;

  agent_test_mcp_connect (client);

  agent_mcp_client_call_tool_async (client, "weather", NULL, NULL, call_tool_cb, &error);
  agent_test_wait_until (error_is_set, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  agent_mcp_client_call_tool_async (client, "bad-weather", NULL, NULL, call_tool_cb, &error);
  agent_test_wait_until (error_is_set, &error);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "$.temperature"));

  agent_test_mcp_close (client);
}

/* The reference server: its structured tool's result follows its schema */
static void
test_everything (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  AgentTestMcpResult result;
  AgentMcpTool *tool;

  agent_test_mcp_connect (client);
  tool = agent_test_mcp_find_tool (client, "get-structured-content");
  g_assert_nonnull (agent_mcp_tool_get_output_schema (tool));
  g_assert_true (agent_mcp_tool_get_read_only_hint (tool));

  agent_mcp_client_set_allow_read_only (client, TRUE);
  g_assert_false (agent_tool_get_requires_approval (AGENT_TOOL (tool)));

  agent_test_mcp_call (client, "get-structured-content", "{\"location\":\"Chicago\"}", &result);
  g_assert_false (result.is_error);
  g_assert_nonnull (strstr (result.text, "\"temperature\":36"));
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

typedef struct
{
  guint                n;
  AgentMcpTool        *tool;
  AgentMcpTool        *previous;
  AgentMcpToolChanges  changes;
} Changed;

static void
tool_changed_cb (AgentMcpClient      *client,
                 AgentMcpTool        *tool,
                 AgentMcpTool        *previous,
                 AgentMcpToolChanges  changes,
                 Changed             *changed)
{
  changed->n++;
  g_set_object (&changed->tool, tool);
  g_set_object (&changed->previous, previous);
  changed->changes = changes;
}

static gboolean
has_changed (gpointer data)
{
  return ((Changed *) data)->n > 0;
}

static void
test_redefined (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  g_autoptr(AgentMcpServerList) servers = agent_mcp_server_list_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentMcpTool) peek = NULL;
  AgentTestMcpResult result;
  Changed changed = { 0 };
  AgentTool *offered;

  agent_mcp_server_list_add (servers, client);
  agent_mcp_server_list_attach (servers, session);
  agent_test_mcp_connect (client);
  g_signal_connect (client, "tool-changed", G_CALLBACK (tool_changed_cb), &changed);
  peek = g_object_ref (agent_test_mcp_find_tool (client, "peek"));
  offered = agent_session_lookup_tool (session, "plain");
  g_assert_cmpstr (agent_tool_get_description (offered), ==, "Says hello");

  agent_test_mcp_call (client, "turn-hostile", "{}", &result);
  agent_test_mcp_result_clear (&result);
  agent_test_wait_until (has_changed, &changed);

  g_assert_cmpuint (changed.n, ==, 1);
  g_assert_cmpstr (agent_mcp_tool_get_remote_name (changed.tool), ==, "plain");
  g_assert_cmpint (changed.changes, ==, AGENT_MCP_TOOL_CHANGE_DESCRIPTION);
  g_assert_cmpstr (agent_tool_get_description (AGENT_TOOL (changed.previous)), ==, "Says hello");
  g_assert_nonnull (strstr (agent_tool_get_description (AGENT_TOOL (changed.tool)), "id_rsa"));
  /* The list holds the new definition, and the session offers it */
  g_assert_true (agent_test_mcp_find_tool (client, "plain") == changed.tool);
  g_assert_true (agent_session_lookup_tool (session, "plain") == AGENT_TOOL (changed.tool));
  /* Tools that did not change stay the same objects */
  g_assert_true (agent_test_mcp_find_tool (client, "peek") == peek);

  g_clear_object (&changed.tool);
  g_clear_object (&changed.previous);
  g_signal_handlers_disconnect_by_data (client, &changed);
  agent_mcp_server_list_detach (servers, session);
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/annotations/hints", test_hints);
  g_test_add_func ("/mcp/annotations/approval", test_approval);
  g_test_add_func ("/mcp/annotations/config", test_config);
  g_test_add_func ("/mcp/annotations/structured", test_structured);
  g_test_add_func ("/mcp/annotations/structured-raw", test_structured_raw);
  g_test_add_func ("/mcp/annotations/everything", test_everything);
  g_test_add_func ("/mcp/annotations/redefined", test_redefined);

  return g_test_run ();
}
