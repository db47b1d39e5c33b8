/* test-mcp-lifetimes.c — MCP clients and server lists disposed while they work
 *
 * g_object_run_dispose() (a binding's explicit dispose, or an application
 * tearing down) on an AgentMcpClient or an AgentMcpServerList while it
 * connects, calls or closes: every pending callback is called once (a
 * connection that was waited for with G_IO_ERROR_CANCELLED, a call with
 * the error of a disconnected server), nothing aborts, and the servers'
 * processes go, lingering ones too. Dropping the last reference instead
 * lets the operation finish: it holds the object until then.
 *
 * Against agent-test-mcp-server (stdio: answering, mute, or ignoring the
 * end of its input) and an in-process Streamable HTTP endpoint.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-process.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* What one asynchronous call gave its callback, and how often it came */
typedef struct
{
  guint     n_calls;
  gboolean  ok;
  GError   *error;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_error (&outcome->error);
  outcome->n_calls = 0;
  outcome->ok = FALSE;
}

static gboolean
outcome_arrived (gpointer data)
{
  return ((Outcome *) data)->n_calls > 0;
}

static void
connected_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  outcome->ok = agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result,
                                                 &outcome->error);
}

static void
closed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  outcome->ok = agent_mcp_client_close_finish (AGENT_MCP_CLIENT (object), result,
                                               &outcome->error);
}

static void
called_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Outcome *outcome = user_data;
  g_autoptr(JsonNode) node = NULL;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  node = agent_mcp_client_call_tool_finish (AGENT_MCP_CLIENT (object), result, &outcome->error);
  outcome->ok = node != NULL;
}

static void
list_connected_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  outcome->ok = agent_mcp_server_list_connect_finish (AGENT_MCP_SERVER_LIST (object), result,
                                                      &outcome->error);
}

static void
list_closed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->n_calls++;
  g_clear_error (&outcome->error);
  outcome->ok = agent_mcp_server_list_close_finish (AGENT_MCP_SERVER_LIST (object), result,
                                                    &outcome->error);
}

/* Lets whatever was still on its way arrive: a second callback would */
static void
settle (void)
{
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* agent-test-mcp-server, writing its pid to a file of its own */

typedef struct
{
  char *dir;
  char *pid_file;
} Server;

static AgentMcpClient *
server_client_new (Server     *server,
                   const char *name,
                   const char *option)
{
  const char *program = agent_test_find_program ("AGENT_TEST_MCP_SERVER", "tests",
                                                 "agent-test-mcp-server");
  const char *args[] = { "--pid-file", NULL, option, NULL };

  server->dir = agent_test_make_dir ("agent-mcp-lifetimes");
  server->pid_file = g_build_filename (server->dir, "pid", NULL);
  args[1] = server->pid_file;
  return agent_mcp_client_new_stdio (name, program, args);
}

static gboolean
pid_written (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (((Server *) data)->pid_file, &contents, NULL, NULL) &&
         strchr (contents, '\n') != NULL;
}

static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* agent_test_wait_until() for what no event of the main loop announces */
static void
poll_until (gboolean (*predicate) (gpointer),
            gpointer   data)
{
  guint id = g_timeout_add (10, wake_cb, NULL);

  agent_test_wait_until (predicate, data);
  g_source_remove (id);
}

static GPid
server_pid (Server *server)
{
  g_autofree char *contents = NULL;

  poll_until (pid_written, server);
  g_assert_true (g_file_get_contents (server->pid_file, &contents, NULL, NULL));
  return (GPid) g_ascii_strtoll (contents, NULL, 10);
}

/* The process went, and was reaped */
static void
server_wait_gone (Server *server)
{
  GPid pid = server_pid (server);

  poll_until (agent_test_mcp_process_is_gone, GINT_TO_POINTER (pid));
}

static void
server_clear (Server *server)
{
  g_unlink (server->pid_file);
  agent_test_remove_dir (server->dir);
  g_free (server->pid_file);
  g_free (server->dir);
}

/* Connecting to a server that never answers the handshake: the caller
 * hears that it was cancelled */
static void
test_dispose_while_connecting (void)
{
  Server server;
  AgentMcpClient *client = server_client_new (&server, "mute", "--mute");
  Outcome outcome = { 0 };

  agent_mcp_client_connect_async (client, NULL, connected_cb, &outcome);
  server_pid (&server);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_CONNECTING);

  g_object_run_dispose (G_OBJECT (client));
  agent_test_wait_until (outcome_arrived, &outcome);
  server_wait_gone (&server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_false (outcome.ok);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  outcome_clear (&outcome);
  g_assert_finalize_object (client);
  server_clear (&server);
}

/* Two calls of a tool that never answers, one direct and one through a
 * tool invocation, on a server that ignores the end of its input (it gets
 * SIGTERM) */
static void
test_dispose_during_calls (void)
{
  Server server;
  AgentMcpClient *client = server_client_new (&server, "lingering", "--linger");
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);
  agent_mcp_client_call_tool_async (client, "silent", NULL, NULL, called_cb, &outcome);
  invocation = agent_test_mcp_invoke (client, "silent", "{}", NULL, &result);
  settle ();

  g_object_run_dispose (G_OBJECT (client));
  agent_test_wait_until (outcome_arrived, &outcome);
  agent_test_mcp_wait_invocation (invocation);
  server_wait_gone (&server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  agent_test_assert_contains (outcome.error->message, "“lingering”");
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "“lingering”");
  agent_test_mcp_result_clear (&result);
  outcome_clear (&outcome);
  g_clear_object (&invocation);
  g_assert_finalize_object (client);
  server_clear (&server);
}

/* Closing, then disposed before the server left: the close still answers */
static void
test_dispose_while_closing (void)
{
  Server server;
  AgentMcpClient *client = server_client_new (&server, "lingering", "--linger");
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);
  agent_mcp_client_close_async (client, NULL, closed_cb, &outcome);
  g_object_run_dispose (G_OBJECT (client));
  agent_test_wait_until (outcome_arrived, &outcome);
  server_wait_gone (&server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);
  outcome_clear (&outcome);
  g_assert_finalize_object (client);
  server_clear (&server);
}

/* The last reference dropped while connecting: the connection finishes,
 * then the client goes, and its server with it */
static void
test_unref_while_connecting (void)
{
  Server server;
  AgentMcpClient *client = server_client_new (&server, "answering", NULL);
  Outcome outcome = { 0 };

  agent_mcp_client_connect_async (client, NULL, connected_cb, &outcome);
  g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
  g_object_unref (client);
  g_assert_nonnull (client);

  agent_test_wait_until (outcome_arrived, &outcome);
  settle ();
  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_no_error (outcome.error);
  g_assert_null (client);
  server_wait_gone (&server);
  outcome_clear (&outcome);
  server_clear (&server);
}

/* Streamable HTTP: a call the endpoint holds, the client disposed */

typedef struct
{
  AgentTestServer *server;
  guint            n_deletes;
} Endpoint;

static void
answer (AgentTestServer *server,
        guint            status,
        const char      *body)
{
  AgentTestResponse *response = agent_test_server_add_response (server, status);

  agent_test_response_add_header (response, "Mcp-Session-Id", "session-1");
  agent_test_response_set_body (response, "application/json", body);
}

static void
responder (AgentTestServer *server,
           const char      *path,
           JsonNode        *body,
           gpointer         user_data)
{
  Endpoint *endpoint = user_data;
  const char *http_method = agent_test_server_get_request_method (
    server, agent_test_server_get_n_requests (server) - 1);
  g_autofree char *text = NULL;
  JsonObject *message;
  const char *method;
  gint64 id;

  if (body == NULL)
    {
      endpoint->n_deletes += g_str_equal (http_method, "DELETE");
      answer (server, g_str_equal (http_method, "DELETE") ? SOUP_STATUS_OK
                                                          : SOUP_STATUS_METHOD_NOT_ALLOWED, "");
      return;
    }

  message = json_node_get_object (body);
  method = json_object_get_string_member_with_default (message, "method", "");
  id = json_object_get_int_member_with_default (message, "id", -1);

  if (id < 0)
    answer (server, SOUP_STATUS_ACCEPTED, "");
  else if (g_str_equal (method, "initialize"))
    {
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                              "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                              "\"serverInfo\":{\"name\":\"held\",\"version\":\"1\"}}}", id);
      answer (server, SOUP_STATUS_OK, text);
    }
  else if (g_str_equal (method, "tools/list"))
    {
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                              "{\"tools\":[{\"name\":\"held\",\"inputSchema\":"
                              "{\"type\":\"object\"}}]}}", id);
      answer (server, SOUP_STATUS_OK, text);
    }
  else
    {
      /* A call: an event stream that says nothing until released */
      AgentTestResponse *response = agent_test_server_add_response (server, SOUP_STATUS_OK);

      agent_test_response_set_content_type (response, "text/event-stream");
      agent_test_response_add_bytes (response, ": held\n\n", -1);
      agent_test_response_add_wait (response);
    }
}

static gboolean
session_deleted (gpointer data)
{
  return ((Endpoint *) data)->n_deletes > 0;
}

static void
test_http_dispose_during_call (void)
{
  Endpoint endpoint = { 0, };
  g_autofree char *url = NULL;
  AgentMcpClient *client;
  Outcome outcome = { 0 };

  endpoint.server = agent_test_server_new ();
  agent_test_server_set_responder (endpoint.server, responder, &endpoint);
  url = g_strdup_printf ("%s/mcp", agent_test_server_get_base_url (endpoint.server));
  client = agent_mcp_client_new_http ("held", url);

  agent_test_mcp_connect (client);
  agent_mcp_client_call_tool_async (client, "held", NULL, NULL, called_cb, &outcome);
  agent_test_server_wait_until_waiting (endpoint.server);

  g_object_run_dispose (G_OBJECT (client));
  agent_test_wait_until (outcome_arrived, &outcome);
  agent_test_wait_until (session_deleted, &endpoint);
  agent_test_server_release (endpoint.server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpuint (endpoint.n_deletes, ==, 1);
  outcome_clear (&outcome);
  g_assert_finalize_object (client);
  agent_test_server_free (endpoint.server);
}

/* A server list */

static void
test_list_dispose_while_connecting (void)
{
  AgentMcpServerList *list = agent_mcp_server_list_new ();
  Server servers[2];
  Outcome outcome = { 0 };
  g_autofree char *data = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    {
      g_autofree char *name = g_strdup_printf ("mute-%u", i);
      g_autoptr(AgentMcpClient) client = server_client_new (&servers[i], name, "--mute");

      g_assert_true (agent_mcp_server_list_add (list, client));
    }

  agent_mcp_server_list_connect_async (list, NULL, list_connected_cb, &outcome);
  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    server_pid (&servers[i]);

  g_object_run_dispose (G_OBJECT (list));
  agent_test_wait_until (outcome_arrived, &outcome);
  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    server_wait_gone (&servers[i]);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_false (outcome.ok);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  outcome_clear (&outcome);

  /* What is left is an empty list, still usable */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
  g_assert_null (agent_mcp_server_list_lookup (list, "mute-0"));
  data = agent_mcp_server_list_to_data (list);
  agent_test_assert_contains (data, "\"mcpServers\"");
  agent_mcp_server_list_connect_async (list, NULL, list_connected_cb, &outcome);
  agent_test_wait_until (outcome_arrived, &outcome);
  g_assert_no_error (outcome.error);
  outcome_clear (&outcome);

  g_assert_finalize_object (list);
  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    server_clear (&servers[i]);
}

static void
test_list_dispose_while_closing (void)
{
  AgentMcpServerList *list = agent_mcp_server_list_new ();
  Server server;
  g_autoptr(AgentMcpClient) client = server_client_new (&server, "lingering", "--linger");
  Outcome outcome = { 0 };

  g_assert_true (agent_mcp_server_list_add (list, client));
  agent_test_mcp_connect (client);
  agent_mcp_server_list_close_async (list, NULL, list_closed_cb, &outcome);
  g_object_run_dispose (G_OBJECT (list));
  agent_test_wait_until (outcome_arrived, &outcome);
  server_wait_gone (&server);
  settle ();

  g_assert_cmpuint (outcome.n_calls, ==, 1);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);
  outcome_clear (&outcome);
  g_assert_finalize_object (list);
  g_assert_finalize_object (g_steal_pointer (&client));
  server_clear (&server);
}

/* What a stdio server starts (its process group: a shell's background
 * job) goes with it: when the client closes the server, and when the
 * server dies on its own while the client lives on */
static void
test_server_children (void)
{
  const char *program = agent_test_find_program ("AGENT_TEST_MCP_SERVER", "tests",
                                                 "agent-test-mcp-server");
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-lifetimes");
  g_autofree char *child_file = g_build_filename (dir, "child.pid", NULL);
  g_autofree char *server_file = g_build_filename (dir, "server.pid", NULL);
  g_autofree char *script = g_strdup_printf ("sleep 600 & echo $! > '%s'; exec '%s' --pid-file '%s'",
                                             child_file, program, server_file);
  const char *args[] = { "-c", script, NULL };

  for (guint dies = 0; dies < 2; dies++)
    {
      g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("parent", "sh", args);
      GPid child, pid;

      g_unlink (child_file);
      g_unlink (server_file);
      agent_test_mcp_connect (client);
      child = agent_test_read_pid_file (child_file);
      pid = agent_test_read_pid_file (server_file);
      g_assert_false (agent_test_pid_is_gone (child));

      if (dies)
        {
          /* Killed by someone else: the client sees it go */
          g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
          agent_test_assert_pid_gone (child, "What the dead MCP server started");
        }
      else
        {
          /* It leaves at the end of its input, as servers do */
          agent_test_mcp_close (client);
          agent_test_assert_pid_gone (pid, "The MCP server");
          agent_test_assert_pid_gone (child, "What the closed MCP server started");
        }
      agent_test_mcp_close (client);
    }

  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lifetimes/mcp/dispose-while-connecting", test_dispose_while_connecting);
  g_test_add_func ("/lifetimes/mcp/dispose-during-calls", test_dispose_during_calls);
  g_test_add_func ("/lifetimes/mcp/dispose-while-closing", test_dispose_while_closing);
  g_test_add_func ("/lifetimes/mcp/unref-while-connecting", test_unref_while_connecting);
  g_test_add_func ("/lifetimes/mcp/http-dispose-during-call", test_http_dispose_during_call);
  g_test_add_func ("/lifetimes/mcp/list-dispose-while-connecting",
                   test_list_dispose_while_connecting);
  g_test_add_func ("/lifetimes/mcp/list-dispose-while-closing", test_list_dispose_while_closing);
  g_test_add_func ("/lifetimes/mcp/server-children", test_server_children);

  return g_test_run ();
}
