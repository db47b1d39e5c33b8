/* test-mcp.c — AgentMcpClient against real MCP servers over stdio
 *
 * The reference server-everything from npm, run with node: the handshake,
 * listing tools, calling them (text, images, structured content, errors),
 * progress, cancellation as the server sees it, ping, the environment a
 * server gets; and tests/mcp/dynamic-server.mjs (the official SDK) for
 * tools/list_changed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

static void
test_connect (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  guint state_changes = 0;
  AgentMcpTool *echo;
  JsonObject *schema;

  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  g_signal_connect (client, "notify::state", G_CALLBACK (agent_test_count_notify),
                    &state_changes);

  agent_test_mcp_connect (client);

  /* DISCONNECTED → CONNECTING → READY */
  g_assert_cmpuint (state_changes, ==, 2);
  g_assert_null (agent_mcp_client_get_error (client));
  g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "mcp-servers/everything");
  g_assert_nonnull (agent_mcp_client_get_server_version (client));
  /* The newest version both speak */
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2025-11-25");
  g_assert_nonnull (agent_mcp_client_get_instructions (client));

  echo = agent_test_mcp_find_tool (client, "echo");
  g_assert_nonnull (echo);
  g_assert_cmpstr (agent_tool_get_description (AGENT_TOOL (echo)), ==,
                   "Echoes back the input string");
  g_assert_cmpstr (agent_mcp_tool_get_remote_name (echo), ==, "echo");
  g_assert_cmpstr (agent_mcp_tool_get_title (echo), ==, "Echo Tool");
  g_assert_true (json_object_get_boolean_member (
    json_node_get_object (agent_mcp_tool_get_annotations (echo)), "readOnlyHint"));
  schema = json_node_get_object (agent_tool_get_parameters (AGENT_TOOL (echo)));
  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
  g_assert_true (json_object_has_member (json_object_get_object_member (schema, "properties"),
                                         "message"));

  /* Names made fit for model APIs; the server's kept for calls */
  g_assert_nonnull (agent_test_mcp_find_tool (client, "get-sum"));
  g_assert_nonnull (agent_test_mcp_find_tool (client, "trigger-long-running-operation"));
  /* A tool that must run as a task cannot be offered */
  g_assert_null (agent_test_mcp_find_tool (client, "simulate-research-query"));

  /* MCP tools ask first, unless the server is trusted */
  g_assert_true (agent_tool_get_requires_approval (AGENT_TOOL (echo)));
  agent_mcp_client_set_trusted (client, TRUE);
  g_assert_false (agent_tool_get_requires_approval (AGENT_TOOL (echo)));
  agent_mcp_client_set_trusted (client, FALSE);
  g_assert_true (agent_tool_get_requires_approval (AGENT_TOOL (echo)));

  agent_test_mcp_close (client);
  g_assert_cmpuint (state_changes, ==, 3);
  /* The tools stay listed: calling one connects again */
  g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));
}

static void
test_calls (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "echo", "{\"message\":\"héllo, “world”\\nbye\"}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "Echo: héllo, “world”\nbye");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "get-sum", "{\"a\":2,\"b\":40}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "The sum of 2 and 40 is 42.");
  agent_test_mcp_result_clear (&result);

  /* The server refuses the arguments: an error result, in its words */
  agent_test_mcp_call (client, "get-sum", "{\"a\":\"two\"}", &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "Invalid arguments");
  agent_test_mcp_result_clear (&result);

  /* An image is described for the model */
  agent_test_mcp_call (client, "get-tiny-image", "{}", &result);
  g_assert_false (result.is_error);
  agent_test_assert_contains (result.text, "[Image: image/png, ");
  agent_test_mcp_result_clear (&result);

  /* Structured content (given as text too, as servers should) */
  agent_test_mcp_call (client, "get-structured-content", "{\"location\":\"Chicago\"}", &result);
  g_assert_false (result.is_error);
  agent_test_assert_contains (result.text, "\"conditions\":\"Light rain / drizzle\"");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

/* The raw result, for what text leaves out */
static void
test_call_tool_raw (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) structured = NULL;
  g_autoptr(GBytes) png = NULL;
  JsonArray *content;
  JsonObject *image = NULL;
  gsize len;

  /* Not connected: it connects first */
  result = agent_test_mcp_call_raw (client, "get-tiny-image", NULL);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);

  content = json_object_get_array_member (json_node_get_object (result), "content");
  for (guint i = 0; i < json_array_get_length (content); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (content, i),
                                                    "type"), "image"))
      image = json_array_get_object_element (content, i);
  g_assert_nonnull (image);
  g_assert_cmpstr (json_object_get_string_member (image, "mimeType"), ==, "image/png");
  png = g_bytes_new_take (g_base64_decode (json_object_get_string_member (image, "data"), &len),
                          len);
  g_assert_cmpmem (g_bytes_get_data (png, NULL), 4, "\x89PNG", 4);

  g_clear_pointer (&result, json_node_unref);
  structured = agent_test_parse_json ("{\"location\":\"Los Angeles\"}");
  result = agent_test_mcp_call_raw (client, "get-structured-content", structured);
  g_assert_cmpint (json_object_get_int_member (
    json_object_get_object_member (json_node_get_object (result), "structuredContent"),
    "temperature"), ==, 73);

  agent_test_mcp_close (client);
}

static void
test_progress (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  AgentTestMcpResult result;
  double last = 0;

  agent_test_mcp_connect (client);

  agent_test_mcp_call (client, "trigger-long-running-operation", "{\"duration\":1,\"steps\":4}",
                       &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==,
                   "Long running operation completed. Duration: 1 seconds, Steps: 4.");

  /* notifications/progress: 1/4 … 4/4, a quarter of a second apart */
  g_assert_cmpuint (result.progress->len, >=, 3);
  for (guint i = 0; i < result.progress->len; i++)
    {
      double fraction = g_array_index (result.progress, double, i);

      g_assert_cmpfloat (fraction, >, last);
      g_assert_cmpfloat (fraction, <=, 1.0);
      last = fraction;
    }
  g_assert_cmpfloat_with_epsilon (last, 1.0, 1e-9);
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

static gboolean
has_progress (gpointer data)
{
  return ((AgentTestMcpResult *) data)->progress->len > 0;
}

static gboolean
log_has_cancel (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) &&
         strstr (contents, "notifications/cancelled") != NULL;
}

/* Cancelling a call ends it at once, and the server hears of it. What the
 * client writes to the server goes through tee, into a file. */
static void
test_cancel (void)
{
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-cancel");
  g_autofree char *log = g_build_filename (dir, "stdin.log", NULL);
  g_autofree char *server = agent_test_mcp_server_path ("server-everything");
  g_autofree char *script = g_strdup_printf ("tee '%s' | exec node '%s' stdio", log, server);
  const char *args[] = { "-c", script, NULL };
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("everything", "sh", args);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 call_id = 0;
  gint64 cancelled_id = -1;
  AgentTestMcpResult result;
  gint64 started;

  agent_test_mcp_connect (client);

  invocation = agent_test_mcp_invoke (client, "trigger-long-running-operation",
                                      "{\"duration\":30,\"steps\":60}", cancellable, &result);
  agent_test_wait_until (has_progress, &result);

  started = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  agent_test_mcp_wait_invocation (invocation);

  /* At once, not when the 30 s operation would have ended */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 2 * G_USEC_PER_SEC);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "cancelled");

  /* The server was told which request to stop */
  agent_test_wait_until (log_has_cancel, log);
  g_assert_true (g_file_get_contents (log, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *message;
      const char *method;

      if (lines[i][0] == '\0')
        continue;
      node = agent_test_parse_json (lines[i]);
      message = json_node_get_object (node);
      method = json_object_get_string_member_with_default (message, "method", "");
      if (g_str_equal (method, "tools/call"))
        call_id = json_object_get_int_member (message, "id");
      else if (g_str_equal (method, "notifications/cancelled"))
        cancelled_id = json_object_get_int_member (json_object_get_object_member (message,
                                                                                  "params"),
                                                   "requestId");
    }
  g_assert_cmpint (call_id, >, 0);
  g_assert_cmpint (cancelled_id, ==, call_id);
  agent_test_mcp_result_clear (&result);

  /* The server goes on */
  agent_test_mcp_call (client, "echo", "{\"message\":\"still here\"}", &result);
  g_assert_cmpstr (result.text, ==, "Echo: still here");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
  g_assert_no_errno (g_unlink (log));
  agent_test_remove_dir (dir);
}

typedef struct
{
  GError   *error;
  gboolean  done;
  gboolean  ok;
} Ping;

static void
ping_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Ping *ping = user_data;

  ping->ok = agent_mcp_client_ping_finish (AGENT_MCP_CLIENT (object), result, &ping->error);
  ping->done = TRUE;
}

static void
ping (AgentMcpClient *client,
      Ping           *outcome)
{
  memset (outcome, 0, sizeof *outcome);
  agent_mcp_client_ping_async (client, NULL, ping_cb, outcome);
  agent_test_wait_for (&outcome->done);
}

static void
test_ping (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  Ping outcome;

  /* Not connected: an error, and no connection */
  ping (client, &outcome);
  g_assert_false (outcome.ok);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_clear_error (&outcome.error);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);

  agent_test_mcp_connect (client);
  ping (client, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);

  agent_test_mcp_close (client);
}

/* A server gets the variables its configuration names, and the few it
 * needs to run; never the keys of the application. */
static void
test_environment (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  const char *env[] = { "MCP_TEST_GIVEN=given-value", NULL };
  AgentTestMcpResult result;

  /* MCP_TEST_APP_SECRET is set in main(), before any thread */
  agent_mcp_client_set_env (client, env);
  g_assert_cmpstr (agent_mcp_client_get_env (client)[0], ==, "MCP_TEST_GIVEN=given-value");

  agent_test_mcp_connect (client);
  agent_test_mcp_call (client, "get-env", "{}", &result);
  g_assert_false (result.is_error);
  agent_test_assert_contains (result.text, "\"MCP_TEST_GIVEN\": \"given-value\"");
  agent_test_assert_contains (result.text, "\"PATH\"");
  g_assert_null (strstr (result.text, "MCP_TEST_APP_SECRET"));
  g_assert_null (strstr (result.text, "sk-secret-of-the-app"));
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               guint      *count)
{
  (*count)++;
}

static gboolean
has_n_tools (gpointer data)
{
  AgentMcpClient *client = data;
  guint wanted = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (client), "wanted"));

  return g_list_model_get_n_items (agent_mcp_client_get_tools (client)) == wanted;
}

static void
wait_for_n_tools (AgentMcpClient *client,
                  guint           n)
{
  g_object_set_data (G_OBJECT (client), "wanted", GUINT_TO_POINTER (n));
  agent_test_wait_until (has_n_tools, client);
}

/* tools/list_changed: the tools are listed again; those that did not
 * change stay the same objects. */
static void
test_list_changed (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_dynamic_new ();
  g_autoptr(AgentMcpTool) add = NULL;
  AgentTestMcpResult result;
  guint changes = 0;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "libagent-dynamic");
  g_assert_cmpuint (g_list_model_get_n_items (agent_mcp_client_get_tools (client)), ==, 2);
  add = g_object_ref (agent_test_mcp_find_tool (client, "add-tool"));
  g_signal_connect (agent_mcp_client_get_tools (client), "items-changed",
                    G_CALLBACK (count_changes), &changes);

  agent_test_mcp_call (client, "add-tool", "{}", &result);
  g_assert_cmpstr (result.text, ==, "added added-1");
  agent_test_mcp_result_clear (&result);
  wait_for_n_tools (client, 3);
  g_assert_true (agent_test_mcp_find_tool (client, "add-tool") == add);

  agent_test_mcp_call (client, "added-1", "{}", &result);
  g_assert_cmpstr (result.text, ==, "added-1 ran");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "remove-tool", "{}", &result);
  agent_test_mcp_result_clear (&result);
  wait_for_n_tools (client, 2);
  g_assert_null (agent_test_mcp_find_tool (client, "added-1"));
  g_assert_cmpuint (changes, ==, 2);

  agent_test_mcp_close (client);
  g_signal_handlers_disconnect_by_data (agent_mcp_client_get_tools (client), &changes);
}

int
main (int   argc,
      char *argv[])
{
  /* A key of the application, which no server may see */
  g_setenv ("MCP_TEST_APP_SECRET", "sk-secret-of-the-app", TRUE);

  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/stdio/connect", test_connect);
  g_test_add_func ("/mcp/stdio/calls", test_calls);
  g_test_add_func ("/mcp/stdio/call-tool-raw", test_call_tool_raw);
  g_test_add_func ("/mcp/stdio/progress", test_progress);
  g_test_add_func ("/mcp/stdio/cancel", test_cancel);
  g_test_add_func ("/mcp/stdio/ping", test_ping);
  g_test_add_func ("/mcp/stdio/environment", test_environment);
  g_test_add_func ("/mcp/stdio/list-changed", test_list_changed);

  return g_test_run ();
}
