/* test-mcp-http.c — AgentMcpClient over Streamable HTTP
 *
 * Against server-everything in its streamableHttp mode (answers as SSE
 * streams, a session id, DELETE at the end), and against an in-process
 * SoupServer endpoint scripted request by request for what the reference
 * server does not do: answers as plain JSON, a GET stream for what the
 * server says on its own, refused credentials, a session the server
 * forgot, redirects (never followed: the headers stay with the URL's
 * host).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define TOKEN "Bearer tok-very-secret-123"

static gboolean
has_progress (gpointer data)
{
  return ((AgentTestMcpResult *) data)->progress->len > 0;
}

static gboolean
session_deleted (gpointer data)
{
  AgentTestProcess *server = data;

  return strstr (server->out->str, "Received session termination request") != NULL;
}

static void
test_everything (void)
{
  g_autofree char *url = NULL;
  g_autoptr(AgentTestProcess) server = agent_test_mcp_everything_http (&url);
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_http ("everything", url);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "mcp-servers/everything");
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2025-11-25");
  g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));

  agent_test_mcp_call (client, "echo", "{\"message\":\"over HTTP\"}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "Echo: over HTTP");
  agent_test_mcp_result_clear (&result);

  /* Progress comes on the call's event stream */
  agent_test_mcp_call (client, "trigger-long-running-operation", "{\"duration\":1,\"steps\":3}",
                       &result);
  g_assert_false (result.is_error);
  g_assert_cmpuint (result.progress->len, >=, 2);
  g_assert_cmpfloat_with_epsilon (g_array_index (result.progress, double,
                                                 result.progress->len - 1), 1.0, 1e-9);
  agent_test_mcp_result_clear (&result);

  /* Cancelled: the call ends at once; the session goes on */
  invocation = agent_test_mcp_invoke (client, "trigger-long-running-operation",
                                      "{\"duration\":30,\"steps\":60}", cancellable, &result);
  agent_test_wait_until (has_progress, &result);
  g_cancellable_cancel (cancellable);
  agent_test_mcp_wait_invocation (invocation);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "cancelled");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "get-sum", "{\"a\":1,\"b\":2}", &result);
  g_assert_cmpstr (result.text, ==, "The sum of 1 and 2 is 3.");
  agent_test_mcp_result_clear (&result);

  /* Closing ends the session on the server */
  agent_test_mcp_close (client);
  agent_test_wait_until (session_deleted, server);
}

/* The in-process endpoint: it answers in JSON, by the method */

typedef struct
{
  AgentTestServer *server;
  guint            n_sessions;
  gboolean         forget_session;   /* answer 404: the session is gone */
  gboolean         refuse;           /* answer 401 */
  gboolean         list_changed;     /* the next GET stream says the tools changed */
  guint            n_tools;
  /* Requests of this method ("initialize", "tools/call", … or the HTTP
   * method of those without a body) are answered with a redirect */
  const char      *redirect_method;
  guint            redirect_status;
  char            *redirect_to;
} Endpoint;

static void
answer (AgentTestServer *server,
        guint            status,
        const char      *session,
        const char      *body)
{
  AgentTestResponse *response = agent_test_server_add_response (server, status);

  if (session != NULL)
    agent_test_response_add_header (response, "Mcp-Session-Id", session);
  agent_test_response_set_body (response, "application/json", body);
}

static void
responder (AgentTestServer *server,
           const char      *path,
           JsonNode        *body,
           gpointer         user_data)
{
  Endpoint *endpoint = user_data;
  g_autofree char *session = g_strdup_printf ("session-%u", endpoint->n_sessions);
  g_autofree char *text = NULL;
  JsonObject *message;
  const char *method;
  gint64 id;

  method = agent_test_server_get_request_method (server,
                                                 agent_test_server_get_n_requests (server) - 1);
  if (body != NULL)
    method = json_object_get_string_member_with_default (json_node_get_object (body), "method",
                                                         "");
  if (g_strcmp0 (method, endpoint->redirect_method) == 0)
    {
      AgentTestResponse *response = agent_test_server_add_response (server,
                                                                    endpoint->redirect_status);

      agent_test_response_add_header (response, "Location", endpoint->redirect_to);
      agent_test_response_set_body (response, "text/plain", "Moved");
      return;
    }

  if (body == NULL)
    {
      AgentTestResponse *response;

      /* GET: the stream for what the server says on its own */
      if (!endpoint->list_changed)
        {
          answer (server, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL, "");
          return;
        }
      endpoint->list_changed = FALSE;
      endpoint->n_tools++;
      response = agent_test_server_add_response (server, SOUP_STATUS_OK);
      agent_test_response_set_content_type (response, "text/event-stream");
      agent_test_response_add_sse (response, "{\"jsonrpc\":\"2.0\","
                                             "\"method\":\"notifications/tools/list_changed\"}");
      return;
    }

  if (endpoint->refuse)
    {
      answer (server, SOUP_STATUS_UNAUTHORIZED, NULL, "{\"error\":\"bad token " TOKEN "\"}");
      return;
    }

  message = json_node_get_object (body);
  id = json_object_get_int_member_with_default (message, "id", -1);

  if (g_str_equal (method, "initialize"))
    {
      endpoint->n_sessions++;
      g_free (session);
      session = g_strdup_printf ("session-%u", endpoint->n_sessions);
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                              "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":"
                              "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"scripted\","
                              "\"version\":\"1\"}}}", id);
      answer (server, SOUP_STATUS_OK, session, text);
    }
  else if (endpoint->forget_session)
    answer (server, SOUP_STATUS_NOT_FOUND, NULL, "");
  else if (id < 0)
    answer (server, SOUP_STATUS_ACCEPTED, NULL, "");
  else if (g_str_equal (method, "tools/list"))
    {
      g_autoptr(GString) tools = g_string_new (NULL);

      for (guint i = 0; i <= endpoint->n_tools; i++)
        g_string_append_printf (tools, "%s{\"name\":\"tool.%u\",\"description\":\"Tool %u\","
                                "\"inputSchema\":{\"type\":\"object\"}}", i ? "," : "", i, i);
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                              "{\"tools\":[%s]}}", id, tools->str);
      answer (server, SOUP_STATUS_OK, NULL, text);
    }
  else if (g_str_equal (method, "tools/call"))
    {
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                              "{\"content\":[{\"type\":\"text\",\"text\":\"called in %s\"}]}}",
                              id, session);
      answer (server, SOUP_STATUS_OK, NULL, text);
    }
  else
    {
      /* server/discover among others: a server of 2025-06-18 knows it not */
      text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":"
                              "{\"code\":-32601,\"message\":\"no\"}}", id);
      answer (server, SOUP_STATUS_OK, NULL, text);
    }
}

static AgentMcpClient *
endpoint_client (Endpoint *endpoint)
{
  g_autofree char *url = NULL;
  const char *headers[] = { "Authorization: " TOKEN, NULL };
  AgentMcpClient *client;

  endpoint->server = agent_test_server_new ();
  agent_test_server_set_responder (endpoint->server, responder, endpoint);
  url = g_strdup_printf ("%s/mcp", agent_test_server_get_base_url (endpoint->server));
  client = agent_mcp_client_new_http ("scripted", url);
  agent_mcp_client_set_headers (client, headers);
  return client;
}

static const char *
request_method (AgentTestServer *server,
                guint            index)
{
  JsonNode *body = agent_test_server_get_request_body (server, index);

  if (body == NULL)
    return agent_test_server_get_request_method (server, index);
  return json_object_get_string_member_with_default (json_node_get_object (body), "method", "?");
}

static guint
find_request (AgentTestServer *server,
              const char      *method)
{
  for (guint i = 0; i < agent_test_server_get_n_requests (server); i++)
    if (g_str_equal (request_method (server, i), method))
      return i;
  g_error ("No %s request", method);
}

static gboolean
has_get_request (gpointer data)
{
  AgentTestServer *server = data;

  for (guint i = 0; i < agent_test_server_get_n_requests (server); i++)
    if (g_str_equal (request_method (server, i), "GET"))
      return TRUE;
  return FALSE;
}

static void
test_json_answers (void)
{
  Endpoint endpoint = { 0, };
  g_autoptr(AgentMcpClient) client = endpoint_client (&endpoint);
  AgentTestMcpResult result;
  guint call;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2025-06-18");
  /* "tool.0": a name as model APIs want it */
  g_assert_nonnull (agent_test_mcp_find_tool (client, "tool_0"));
  g_assert_cmpstr (agent_mcp_tool_get_remote_name (agent_test_mcp_find_tool (client, "tool_0")),
                   ==, "tool.0");

  agent_test_mcp_call (client, "tool_0", "{}", &result);
  g_assert_cmpstr (result.text, ==, "called in session-1");
  agent_test_mcp_result_clear (&result);

  /* First the probe of 2026-07-28, which this older server does not know:
   * a stateless request, with its version and method in headers */
  g_assert_cmpstr (request_method (endpoint.server, 0), ==, "server/discover");
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, 0,
                                                         "MCP-Protocol-Version"), ==, "2026-07-28");
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, 0, "Mcp-Method"), ==,
                   "server/discover");
  /* The handshake has no session or version yet; every later request has
   * both, and the headers of the configuration */
  g_assert_cmpstr (request_method (endpoint.server, 1), ==, "initialize");
  g_assert_null (agent_test_server_get_request_header (endpoint.server, 1, "Mcp-Session-Id"));
  g_assert_null (agent_test_server_get_request_header (endpoint.server, 1,
                                                       "MCP-Protocol-Version"));
  g_assert_null (agent_test_server_get_request_header (endpoint.server, 1, "Mcp-Method"));
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, 1, "Authorization"), ==,
                   TOKEN);
  g_assert_nonnull (strstr (agent_test_server_get_request_header (endpoint.server, 1, "Accept"),
                            "text/event-stream"));
  call = find_request (endpoint.server, "tools/call");
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, call,
                                                         "Mcp-Session-Id"), ==, "session-1");
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, call,
                                                         "MCP-Protocol-Version"), ==, "2025-06-18");
  g_assert_cmpstr (agent_test_server_get_request_header (endpoint.server, call,
                                                         "Authorization"), ==, TOKEN);
  /* notifications/initialized, and the GET the server refused: the client
   * opens that stream beside the others, so it may come after the call */
  find_request (endpoint.server, "notifications/initialized");
  agent_test_wait_until (has_get_request, endpoint.server);

  agent_test_mcp_close (client);
  agent_test_server_free (endpoint.server);
}

static gboolean
has_two_tools (gpointer data)
{
  return g_list_model_get_n_items (agent_mcp_client_get_tools (data)) == 2;
}

/* What the server says on the GET stream: its tools changed */
static void
test_get_stream (void)
{
  Endpoint endpoint = { 0, };
  g_autoptr(AgentMcpClient) client = endpoint_client (&endpoint);

  endpoint.list_changed = TRUE;
  agent_test_mcp_connect (client);
  agent_test_wait_until (has_two_tools, client);
  g_assert_nonnull (agent_test_mcp_find_tool (client, "tool_1"));

  agent_test_mcp_close (client);
  agent_test_server_free (endpoint.server);
}

static void
test_refused (void)
{
  Endpoint endpoint = { 0, };
  g_autoptr(AgentMcpClient) client = endpoint_client (&endpoint);
  g_autoptr(GError) error = NULL;

  endpoint.refuse = TRUE;
  error = agent_test_mcp_connect_error (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_cmpuint (agent_error_get_http_status (error), ==, 401);
  agent_test_assert_contains (error->message, "HTTP 401");
  g_assert_null (strstr (error->message, "tok-very-secret"));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);

  agent_test_mcp_close (client);
  agent_test_server_free (endpoint.server);
}

/* The server forgot the session: the call fails, the next one shakes hands
 * anew */
static void
test_session_forgotten (void)
{
  Endpoint endpoint = { 0, };
  g_autoptr(AgentMcpClient) client = endpoint_client (&endpoint);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);
  endpoint.forget_session = TRUE;
  agent_test_mcp_call (client, "tool_0", "{}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==, "The MCP server “scripted” ended the session");
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  agent_test_mcp_result_clear (&result);

  endpoint.forget_session = FALSE;
  agent_test_mcp_call (client, "tool_0", "{}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "called in session-2");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
  agent_test_server_free (endpoint.server);
}

/* Redirects: the configured headers (a bearer token, say) go to the
 * configured URL's origin only, so no redirect is followed; a 3xx fails
 * with an error that names where the server pointed. A second endpoint,
 * which would answer as well as the first, records whatever reaches it. */

typedef struct
{
  Endpoint        endpoint;
  Endpoint        elsewhere;
  AgentMcpClient *client;
} Redirect;

static void
redirect_init (Redirect   *r,
               const char *method,
               guint       status)
{
  r->client = endpoint_client (&r->endpoint);
  g_object_unref (endpoint_client (&r->elsewhere));
  r->endpoint.redirect_method = method;
  r->endpoint.redirect_status = status;
  r->endpoint.redirect_to = g_strdup_printf ("%s/stolen",
                                             agent_test_server_get_base_url (r->elsewhere.server));
}

static void
redirect_clear (Redirect *r)
{
  /* Nothing reached the other host, with the token or without, up to the
   * DELETE that closing sends */
  g_assert_cmpuint (agent_test_server_get_n_requests (r->elsewhere.server), ==, 0);
  agent_test_mcp_close (r->client);
  g_assert_cmpuint (agent_test_server_get_n_requests (r->elsewhere.server), ==, 0);
  if (g_strcmp0 (r->endpoint.redirect_method, "DELETE") == 0)
    find_request (r->endpoint.server, "DELETE");
  g_assert_finalize_object (r->client);
  agent_test_server_free (r->endpoint.server);
  agent_test_server_free (r->elsewhere.server);
  g_free (r->endpoint.redirect_to);
}

static void
assert_redirect_error (const char *message,
                       Redirect   *r)
{
  g_autofree char *status = g_strdup_printf ("%u", r->endpoint.redirect_status);

  agent_test_assert_contains (message, "“scripted”");
  agent_test_assert_contains (message, status);
  agent_test_assert_contains (message, r->endpoint.redirect_to);
  agent_test_assert_contains (message, "not followed");
  g_assert_null (strstr (message, "tok-very-secret"));
}

static void
test_redirect_handshake (void)
{
  static const guint statuses[] = { 301, 302, 303, 307, 308 };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      Redirect r = { 0, };
      g_autoptr(GError) error = NULL;

      /* The probe first: a redirect is no sign of an older server */
      redirect_init (&r, i % 2 ? "initialize" : "server/discover", statuses[i]);
      error = agent_test_mcp_connect_error (r.client);
      g_test_message ("%u: %s", statuses[i], error ? error->message : "no error");
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
      assert_redirect_error (error->message, &r);
      g_assert_cmpint (agent_mcp_client_get_state (r.client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
      /* Nothing after the redirect (the probe went before initialize) */
      g_assert_cmpuint (agent_test_server_get_n_requests (r.endpoint.server), ==, i % 2 ? 2 : 1);
      redirect_clear (&r);
    }
}

/* A redirect of a call fails the call; the server stays connected. (A
 * 303 would make the POST a GET, a 307 keeps it a POST.) */
static void
test_redirect_call (void)
{
  static const guint statuses[] = { SOUP_STATUS_SEE_OTHER, SOUP_STATUS_TEMPORARY_REDIRECT };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      Redirect r = { 0, };
      AgentTestMcpResult result;

      redirect_init (&r, "tools/call", statuses[i]);
      agent_test_mcp_connect (r.client);
      agent_test_mcp_call (r.client, "tool_0", "{}", &result);
      g_test_message ("%u: %s", statuses[i], result.text);
      g_assert_true (result.is_error);
      assert_redirect_error (result.text, &r);
      agent_test_mcp_result_clear (&result);
      g_assert_cmpint (agent_mcp_client_get_state (r.client), ==, AGENT_MCP_CLIENT_STATE_READY);

      r.endpoint.redirect_method = NULL;
      agent_test_mcp_call (r.client, "tool_0", "{}", &result);
      g_assert_false (result.is_error);
      agent_test_mcp_result_clear (&result);
      redirect_clear (&r);
    }
}

static gboolean
elsewhere_reached (gpointer data)
{
  Redirect *r = data;

  return agent_test_server_get_n_requests (r->elsewhere.server) > 0;
}

/* The GET stream carries the headers and the session id too. Nothing
 * tells when the client gave up on it: a redirect it followed would reach
 * the other server at once, a little while is given for it. */
static void
test_redirect_get (void)
{
  static const guint statuses[] = { SOUP_STATUS_FOUND, SOUP_STATUS_PERMANENT_REDIRECT };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      Redirect r = { 0, };

      redirect_init (&r, "GET", statuses[i]);
      agent_test_mcp_connect (r.client);
      agent_test_wait_until (has_get_request, r.endpoint.server);
      g_assert_false (agent_test_wait_until_timeout (elsewhere_reached, &r, 2));
      redirect_clear (&r);
    }
}

/* So does the DELETE that ends the session; closing waits for its answer */
static void
test_redirect_delete (void)
{
  static const guint statuses[] = { SOUP_STATUS_SEE_OTHER, SOUP_STATUS_PERMANENT_REDIRECT };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      Redirect r = { 0, };

      redirect_init (&r, "DELETE", statuses[i]);
      agent_test_mcp_connect (r.client);
      redirect_clear (&r);
    }
}

static void
test_unreachable (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *url = agent_test_closed_port_url (&socket);
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_http ("nowhere", url);
  g_autoptr(AgentMcpClient) not_http = agent_mcp_client_new_http ("ftp", "ftp://example.com/");
  g_autoptr(GError) error = NULL;

  error = agent_test_mcp_connect_error (client);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  agent_test_assert_contains (error->message, "The MCP server “nowhere” could not be reached");
  agent_test_mcp_close (client);
  g_clear_error (&error);

  error = agent_test_mcp_connect_error (not_http);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/http/everything", test_everything);
  g_test_add_func ("/mcp/http/json-answers", test_json_answers);
  g_test_add_func ("/mcp/http/get-stream", test_get_stream);
  g_test_add_func ("/mcp/http/refused", test_refused);
  g_test_add_func ("/mcp/http/session-forgotten", test_session_forgotten);
  g_test_add_func ("/mcp/http/unreachable", test_unreachable);
  g_test_add_func ("/mcp/http/redirect/handshake", test_redirect_handshake);
  g_test_add_func ("/mcp/http/redirect/call", test_redirect_call);
  g_test_add_func ("/mcp/http/redirect/get", test_redirect_get);
  g_test_add_func ("/mcp/http/redirect/delete", test_redirect_delete);

  return g_test_run ();
}
