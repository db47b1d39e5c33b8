/* test-mcp-session.c — MCP tools in AgentSession turns, and the list of
 * configured servers
 *
 * A scripted model (the in-process OpenAI test server) calls a tool of
 * the real server-everything: the second request carries its result; its
 * progress reaches the session; a server killed mid-call is an error
 * result and the turn goes on. AgentMcpServerList reads and writes the
 * mcpServers JSON, and keeps a session's tools in step with its servers;
 * server-filesystem reads a file of a temporary directory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>
#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  guint  n_approvals;
  guint  n_progress;
  double last_progress;
  GPid   kill_on_start;
} Watch;

static gboolean
approve_cb (AgentSession      *session,
            AgentToolCall     *call,
            AgentToolApproval *approval,
            Watch             *watch)
{
  watch->n_approvals++;
  agent_tool_approval_allow (approval);
  return TRUE;
}

static void
progress_cb (AgentSession  *session,
             AgentToolCall *call,
             double         fraction,
             const char    *text,
             Watch         *watch)
{
  watch->n_progress++;
  watch->last_progress = fraction;

  /* The server dies in the middle of the call */
  if (watch->kill_on_start != 0)
    {
      g_assert_no_errno (kill (watch->kill_on_start, SIGKILL));
      watch->kill_on_start = 0;
    }
}

static JsonArray *
request_tools (AgentTestServer *server,
               guint            index)
{
  return json_object_get_array_member (agent_test_openai_get_request (server, index), "tools");
}

static JsonObject *
find_function (JsonArray  *tools,
               const char *name)
{
  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonObject *function = json_object_get_object_member (json_array_get_object_element (tools,
                                                                                          i),
                                                            "function");

      if (g_str_equal (json_object_get_string_member (function, "name"), name))
        return function;
    }
  return NULL;
}

/* The model calls @tool with @arguments, then answers "Done." */
static AgentSession *
scripted_session (AgentTestServer *server,
                  const char      *tool,
                  const char      *arguments)
{
  static const char * const done[] = { "Done.", NULL };
  const AgentTestToolChunk chunks[] = { { 0, "call_1", tool, arguments } };
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 10, 5);
  agent_test_openai_add_text_response (server, done, 20, 2);
  return agent_session_new (provider);
}

static void
test_turn (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentSession) session = NULL;
  AgentTestTurn turn = { 0, };
  Watch watch = { 0, };
  JsonObject *echo;

  session = scripted_session (server, "echo", "{\"message\":\"from the model\"}");
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (approve_cb), &watch);

  g_assert_true (agent_mcp_server_list_add (list, client));
  agent_test_mcp_connect (client);
  agent_mcp_server_list_attach (list, session);
  g_assert_true (agent_session_lookup_tool (session, "echo") ==
                 AGENT_TOOL (agent_test_mcp_find_tool (client, "echo")));

  agent_test_turn_run (&turn, session, "Echo something", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "Done.");

  /* The model was offered the server's tools, with their schemas */
  echo = find_function (request_tools (server, 0), "echo");
  g_assert_nonnull (echo);
  g_assert_cmpstr (json_object_get_string_member (echo, "description"), ==,
                   "Echoes back the input string");
  g_assert_true (json_object_has_member (json_object_get_object_member (
    json_object_get_object_member (echo, "parameters"), "properties"), "message"));

  /* The call needed approval; its result went back to the model */
  g_assert_cmpuint (watch.n_approvals, ==, 1);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_1"), ==,
                   "Echo: from the model");

  agent_test_turn_clear (&turn);
  agent_mcp_server_list_detach (list, session);
  g_assert_null (agent_session_lookup_tool (session, "echo"));
  agent_test_mcp_close (client);
}

/* Progress of an MCP tool is the session's tool-progress; a trusted
 * server is not asked about. */
static void
test_turn_progress (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentSession) session = NULL;
  AgentTestTurn turn = { 0, };
  Watch watch = { 0, };

  session = scripted_session (server, "trigger-long-running-operation",
                              "{\"duration\":1,\"steps\":2}");
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (approve_cb), &watch);
  g_signal_connect (session, "tool-progress", G_CALLBACK (progress_cb), &watch);

  agent_mcp_client_set_trusted (client, TRUE);
  agent_mcp_server_list_add (list, client);
  /* Attached before connecting: the tools come when the server is ready */
  agent_mcp_server_list_attach (list, session);
  g_assert_null (agent_session_lookup_tool (session, "echo"));
  agent_test_mcp_connect (client);
  g_assert_nonnull (agent_session_lookup_tool (session, "echo"));

  agent_test_turn_run (&turn, session, "Take your time", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpuint (watch.n_approvals, ==, 0);
  g_assert_cmpuint (watch.n_progress, >=, 1);
  g_assert_cmpfloat (watch.last_progress, >, 0);
  agent_test_assert_contains (agent_test_openai_tool_message_content (server, 1, "call_1"),
                              "Long running operation completed");

  agent_test_turn_clear (&turn);
  agent_test_mcp_close (client);
}

/* The server dies during the call: an error result for the model, and the
 * turn goes on. */
static void
test_turn_server_killed (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentSession) session = NULL;
  AgentTestMcpKillable killable;
  AgentTestTurn turn = { 0, };
  Watch watch = { 0, };
  const char *result;

  agent_test_mcp_killable_init (&killable);
  session = scripted_session (server, "trigger-long-running-operation",
                              "{\"duration\":30,\"steps\":30}");
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (approve_cb), &watch);
  g_signal_connect (session, "tool-progress", G_CALLBACK (progress_cb), &watch);

  agent_mcp_server_list_add (list, killable.client);
  agent_test_mcp_connect (killable.client);
  agent_mcp_server_list_attach (list, session);
  watch.kill_on_start = agent_test_mcp_killable_pid (&killable);

  agent_test_turn_run (&turn, session, "Run it", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "Done.");
  result = agent_test_openai_tool_message_content (server, 1, "call_1");
  agent_test_assert_contains (result, "The MCP server “everything” was ended by signal 9");
  g_assert_cmpint (agent_mcp_client_get_state (killable.client), ==,
                   AGENT_MCP_CLIENT_STATE_FAILED);
  /* Still offered: calling them starts the server again */
  g_assert_nonnull (agent_session_lookup_tool (session, "echo"));

  agent_test_turn_clear (&turn);
  agent_test_mcp_close (killable.client);
  agent_mcp_server_list_detach (list, session);
  g_clear_object (&list);
  agent_test_mcp_killable_clear (&killable);
}

/* The configuration */

static const char config[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"everything\": { \"command\": \"node\", \"args\": [\"everything.js\", \"stdio\"],\n"
  "                    \"env\": { \"API_KEY\": \"k-123\" }, \"autoApprove\": [\"echo\"] },\n"
  "    \"remote\": { \"type\": \"http\", \"url\": \"https://example.com/mcp\",\n"
  "                \"headers\": { \"Authorization\": \"Bearer b-456\" }, \"trusted\": true },\n"
  "    \"off\": { \"command\": \"off-server\", \"disabled\": true, \"toolPrefix\": \"off_\" }\n"
  "  },\n"
  "  \"otherSetting\": 1\n"
  "}\n";

static void
test_config (void)
{
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentMcpServerList) again = agent_mcp_server_list_new ();
  g_autoptr(AgentMcpClient) everything = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *data_again = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-config");
  g_autofree char *path = g_build_filename (dir, "mcp.json", NULL);
  AgentMcpClient *remote;
  AgentMcpClient *off;
  GStatBuf info;

  g_assert_true (agent_mcp_server_list_load_data (list, config, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == AGENT_TYPE_MCP_CLIENT);

  everything = g_list_model_get_item (G_LIST_MODEL (list), 0);
  g_assert_cmpstr (agent_mcp_client_get_name (everything), ==, "everything");
  g_assert_cmpstr (agent_mcp_client_get_command (everything), ==, "node");
  g_assert_cmpstr (agent_mcp_client_get_args (everything)[1], ==, "stdio");
  g_assert_cmpstr (agent_mcp_client_get_env (everything)[0], ==, "API_KEY=k-123");
  g_assert_true (agent_mcp_client_get_enabled (everything));
  g_assert_false (agent_mcp_client_get_trusted (everything));

  remote = agent_mcp_server_list_lookup (list, "remote");
  g_assert_cmpstr (agent_mcp_client_get_url (remote), ==, "https://example.com/mcp");
  g_assert_cmpstr (agent_mcp_client_get_headers (remote)[0], ==, "Authorization: Bearer b-456");
  g_assert_true (agent_mcp_client_get_trusted (remote));

  off = agent_mcp_server_list_lookup (list, "off");
  g_assert_false (agent_mcp_client_get_enabled (off));
  g_assert_cmpstr (agent_mcp_client_get_tool_prefix (off), ==, "off_");
  g_assert_null (agent_mcp_server_list_lookup (list, "nothing"));

  /* Written back, it reads the same, with what other programs put there */
  data = agent_mcp_server_list_to_data (list);
  agent_test_assert_contains (data, "\"autoApprove\"");
  g_assert_true (agent_mcp_server_list_load_data (again, data, -1, &error));
  data_again = agent_mcp_server_list_to_data (again);
  g_assert_cmpstr (data, ==, data_again);

  /* A file only its owner reads: it holds keys */
  g_assert_true (agent_mcp_server_list_save_file (list, path, &error));
  g_assert_no_error (error);
  g_assert_no_errno (g_stat (path, &info));
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  g_clear_object (&again);
  again = agent_mcp_server_list_new ();
  g_assert_true (agent_mcp_server_list_load_file (again, path, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 3);

  /* The same name replaces; add refuses a name taken; remove */
  g_assert_true (agent_mcp_server_list_load_data (again,
                                                  "{\"mcpServers\":{\"off\":{\"url\":"
                                                  "\"http://127.0.0.1:1/mcp\"}}}", -1, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 3);
  g_assert_cmpstr (agent_mcp_client_get_url (agent_mcp_server_list_lookup (again, "off")), ==,
                   "http://127.0.0.1:1/mcp");
  g_assert_false (agent_mcp_server_list_add (again, everything));
  g_assert_true (agent_mcp_server_list_remove (again, "off"));
  g_assert_false (agent_mcp_server_list_remove (again, "off"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);

  g_assert_no_errno (g_unlink (path));
  agent_test_remove_dir (dir);
}

static void
test_config_errors (void)
{
  static const struct { const char *data; const char *message; } cases[] = {
    { "not json", "is not valid JSON" },
    { "{\"servers\": []}", "has no “mcpServers” object" },
    { "[]", "has no “mcpServers” object" },
    { "{\"mcpServers\":{\"a\":{\"command\":\"x\",\"args\":\"-v\"}}}",
      "MCP server “a”: “args” must be an array of strings" },
    { "{\"mcpServers\":{\"a\":{\"command\":\"x\",\"env\":{\"N\":1}}}}",
      "MCP server “a”: “env” must be an object of strings" },
    { "{\"mcpServers\":{\"a\":{}}}", "MCP server “a” needs either a “command” or a “url”" },
    { "{\"mcpServers\":{\"a\":{\"command\":\"x\",\"url\":\"http://h/\"}}}",
      "MCP server “a” needs either a “command” or a “url”" },
    { "{\"mcpServers\":{\"a\":{\"type\":\"sse\",\"url\":\"http://h/sse\"}}}",
      "the old HTTP+SSE transport is not supported" },
    { "{\"mcpServers\":{\"a\":{\"command\":\"x\",\"disabled\":\"yes\"}}}",
      "MCP server “a”: “disabled” must be true or false" },
    { "{\"mcpServers\":{\"a\":1}}", "its configuration must be an object" },
  };
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (agent_mcp_server_list_load_data (list, cases[i].data, -1, &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (error->message, cases[i].message);
      /* All or nothing */
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
    }
}

static void
connect_all_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_mcp_server_list_connect_finish (AGENT_MCP_SERVER_LIST (object), result,
                                                       &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static void
close_all_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_assert_true (agent_mcp_server_list_close_finish (AGENT_MCP_SERVER_LIST (object), result,
                                                     NULL));
  *(gboolean *) user_data = TRUE;
}

/* Several servers, one that fails; the session's tools follow them */
static void
test_list_attach (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentMcpClient) everything = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpClient) broken = agent_mcp_client_new_stdio ("broken", "false", NULL);
  g_autoptr(AgentMcpClient) files = NULL;
  g_autoptr(AgentTool) builtin = agent_builtin_tool_new ("read_file", NULL);
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-list");
  gboolean connected = FALSE;
  gboolean closed = FALSE;

  files = agent_test_mcp_filesystem_new (dir);
  agent_session_add_tool (session, builtin);
  agent_mcp_server_list_add (list, everything);
  agent_mcp_server_list_add (list, broken);
  agent_mcp_server_list_add (list, files);
  agent_mcp_server_list_attach (list, session);

  agent_mcp_server_list_connect_async (list, NULL, connect_all_cb, &connected);
  agent_test_wait_for (&connected);
  g_assert_cmpint (agent_mcp_client_get_state (everything), ==, AGENT_MCP_CLIENT_STATE_READY);
  g_assert_cmpint (agent_mcp_client_get_state (files), ==, AGENT_MCP_CLIENT_STATE_READY);
  g_assert_cmpint (agent_mcp_client_get_state (broken), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  agent_test_assert_contains (agent_mcp_client_get_error (broken)->message, "exited with status 1");

  g_assert_nonnull (agent_session_lookup_tool (session, "echo"));
  g_assert_nonnull (agent_session_lookup_tool (session, "read_text_file"));
  /* server-filesystem's read_file is left out: the session has its own */
  g_assert_true (agent_session_lookup_tool (session, "read_file") == builtin);

  /* Disabled: its tools leave; enabled and connected: they are back */
  agent_mcp_client_set_enabled (everything, FALSE);
  g_assert_null (agent_session_lookup_tool (session, "echo"));
  agent_mcp_client_set_enabled (everything, TRUE);
  agent_test_mcp_connect (everything);
  g_assert_nonnull (agent_session_lookup_tool (session, "echo"));

  /* Removed: its tools leave, and it is disconnected */
  g_assert_true (agent_mcp_server_list_remove (list, "files"));
  g_assert_null (agent_session_lookup_tool (session, "read_text_file"));
  g_assert_cmpint (agent_mcp_client_get_state (files), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  agent_test_mcp_close (files);

  agent_mcp_server_list_close_async (list, NULL, close_all_cb, &closed);
  agent_test_wait_for (&closed);
  g_assert_cmpint (agent_mcp_client_get_state (everything), ==,
                   AGENT_MCP_CLIENT_STATE_DISCONNECTED);

  /* The list gone, the session keeps only its own tools */
  g_clear_object (&list);
  g_assert_null (agent_session_lookup_tool (session, "echo"));
  g_assert_true (agent_session_lookup_tool (session, "read_file") == builtin);
  agent_test_remove_dir (dir);
}

static void
test_filesystem (void)
{
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-files");
  g_autofree char *file = agent_test_write_file (dir, "notes.txt", "Buy milk.\nCall Ada.\n", -1);
  g_autofree char *arguments = agent_test_path_arguments (file);
  g_autoptr(AgentMcpClient) client = agent_test_mcp_filesystem_new (dir);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "secure-filesystem-server");

  agent_test_mcp_call (client, "read_text_file", arguments, &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "Buy milk.\nCall Ada.\n");
  agent_test_mcp_result_clear (&result);

  /* Outside the directory it was given: refused */
  agent_test_mcp_call (client, "read_text_file", "{\"path\":\"/etc/passwd\"}", &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "Access denied");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
  g_assert_no_errno (g_unlink (file));
  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/session/turn", test_turn);
  g_test_add_func ("/mcp/session/turn-progress", test_turn_progress);
  g_test_add_func ("/mcp/session/turn-server-killed", test_turn_server_killed);
  g_test_add_func ("/mcp/list/config", test_config);
  g_test_add_func ("/mcp/list/config-errors", test_config_errors);
  g_test_add_func ("/mcp/list/attach", test_list_attach);
  g_test_add_func ("/mcp/filesystem/read", test_filesystem);

  return g_test_run ();
}
