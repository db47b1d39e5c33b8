/* test-mcp-revision.c — protocol revisions 2026-07-28 and 2025-11-25
 *
 * The same operations (tools and a call, resources, prompts, changes of
 * the tools and of a resource) against tests/mcp/modern-server.mjs
 * speaking only 2026-07-28, the same server speaking both (the client must
 * choose 2026-07-28), and the reference server-everything (2025-11-25),
 * over stdio and over Streamable HTTP. The modern server is strict: it
 * refuses a request without the version, capabilities and identity in
 * _meta, an HTTP request whose headers do not match its body or that
 * carries a session, and counts what it saw (its "stats" tool). Servers
 * that speak none of our versions, stateless or not, fail with both lists;
 * an older server is probed once per process. Tool parameters annotated
 * with x-mcp-header go as Mcp-Param-{Name} headers over HTTP under
 * 2026-07-28 only; invalid annotations leave their tool out, and a
 * HeaderMismatch lists the tools again and retries once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

typedef struct
{
  GListModel *model;
  GError     *error;
  gboolean    done;
  gboolean    ok;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->model);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
  outcome->ok = FALSE;
}

static gboolean
outcome_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

static void
list_resources_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_list_resources_finish (AGENT_MCP_CLIENT (object), result,
                                                           &outcome->error);
  outcome->done = TRUE;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_read_resource_finish (AGENT_MCP_CLIENT (object), result,
                                                          &outcome->error);
  outcome->done = TRUE;
}

static void
list_prompts_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_list_prompts_finish (AGENT_MCP_CLIENT (object), result,
                                                         &outcome->error);
  outcome->done = TRUE;
}

static void
get_prompt_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_get_prompt_finish (AGENT_MCP_CLIENT (object), result,
                                                       &outcome->error);
  outcome->done = TRUE;
}

static void
subscribed_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = agent_mcp_client_subscribe_resource_finish (AGENT_MCP_CLIENT (object), result,
                                                            &outcome->error);
  outcome->done = TRUE;
}

static void
ping_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = agent_mcp_client_ping_finish (AGENT_MCP_CLIENT (object), result,
                                              &outcome->error);
  outcome->done = TRUE;
}

/* The servers */

typedef struct
{
  const char       *mode;        /* of modern-server.mjs, or NULL: server-everything */
  gboolean          http;
  AgentTestProcess *process;     /* the HTTP server */
  gboolean          param_headers; /* --param-headers: tools with x-mcp-header */
  gboolean          bad_headers;   /* --bad-headers: tools with invalid ones */
} Server;

static gboolean
is_listening (gpointer data)
{
  AgentTestProcess *process = data;

  return strstr (process->err->str, "listening on port") != NULL || process->exited;
}

static AgentMcpClient *
server_start (Server *server)
{
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "modern-server.mjs", NULL);
  g_autofree char *mode = g_strdup_printf ("--mode=%s", server->mode);
  g_autofree char *port = NULL;
  g_autofree char *url = NULL;
  const char *argv[6] = { path, mode, NULL };
  guint argc = 2;

  if (server->http)
    argv[argc++] = "--http";
  if (server->param_headers)
    argv[argc++] = "--param-headers";
  if (server->bad_headers)
    argv[argc++] = "--bad-headers";

  if (server->mode == NULL)
    {
      if (!server->http)
        return agent_test_mcp_everything_new (NULL);
      server->process = agent_test_mcp_everything_http (&url);
      return agent_mcp_client_new_http ("everything", url);
    }

  if (!server->http)
    return agent_mcp_client_new_stdio ("modern", "node", argv);

  port = g_strdup_printf ("PORT=%u", agent_test_mcp_free_port ());
  server->process = agent_test_process_spawn ("node", AGENT_TEST_ARGS (port), NULL,
                                              AGENT_TEST_PROCESS_KEEP_STDIN, argv);
  if (!agent_test_wait_until_timeout (is_listening, server->process,
                                      AGENT_TEST_MCP_WAIT_SECONDS) ||
      server->process->exited)
    g_error ("modern-server.mjs did not start: %s", server->process->err->str);

  url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port + strlen ("PORT="));
  return agent_mcp_client_new_http ("modern", url);
}

static void
server_stop (Server *server)
{
  g_clear_pointer (&server->process, agent_test_process_free);
}

/* What the modern server saw, from its "stats" tool */
static JsonObject *
server_stats (AgentMcpClient *client)
{
  g_autoptr(JsonNode) node = NULL;
  AgentTestMcpResult result;

  agent_test_mcp_call (client, "stats", "{}", &result);
  g_assert_false (result.is_error);
  node = json_from_string (result.text, NULL);
  g_assert_nonnull (node);
  agent_test_mcp_result_clear (&result);

  return json_object_ref (json_node_get_object (node));
}

static gboolean
has_extra_tool (gpointer data)
{
  return agent_test_mcp_find_tool (data, "extra_0") != NULL;
}

static void
resource_updated_cb (AgentMcpClient *client,
                     const char     *uri,
                     GPtrArray      *updated)
{
  g_ptr_array_add (updated, g_strdup (uri));
}

static gboolean
has_items (gpointer data)
{
  return ((GPtrArray *) data)->len > 0;
}

static char *
part_text (AgentContentPart *part)
{
  GBytes *data = agent_content_part_get_data (part);
  gsize len;
  const char *bytes = g_bytes_get_data (data, &len);

  return g_strndup (bytes, len);
}

/* Tools, a call, resources, prompts, a ping: the same under any revision */
static void
check_operations (AgentMcpClient *client,
                  gboolean        modern_server)
{
  g_autoptr(GHashTable) arguments = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(AgentMcpResource) resource = NULL;
  g_autoptr(AgentContentPart) part = NULL;
  g_autofree char *text = NULL;
  g_autofree char *uri = NULL;
  AgentTestMcpResult result;
  Outcome outcome = { 0 };

  agent_test_mcp_call (client, "echo",
                       modern_server ? "{\"text\":\"hi\"}" : "{\"message\":\"hi\"}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, modern_server ? "echo: hi" : "Echo: hi");
  agent_test_mcp_result_clear (&result);

  agent_mcp_client_list_resources_async (client, NULL, list_resources_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), >=, 2);
  resource = g_list_model_get_item (outcome.model, 0);
  uri = g_strdup (agent_mcp_resource_get_uri (resource));
  if (modern_server)
    g_assert_cmpstr (uri, ==, "test://notes/one");

  outcome_clear (&outcome);
  agent_mcp_client_read_resource_async (client, uri, NULL, read_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), ==, 1);
  part = g_list_model_get_item (outcome.model, 0);
  text = part_text (part);
  if (modern_server)
    g_assert_cmpstr (text, ==, "Note one text");
  else
    g_assert_cmpuint (strlen (text), >, 0);

  outcome_clear (&outcome);
  agent_mcp_client_list_prompts_async (client, NULL, list_prompts_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), >=, 1);

  outcome_clear (&outcome);
  if (modern_server)
    g_hash_table_insert (arguments, (char *) "who", (char *) "Ada");
  else
    g_hash_table_insert (arguments, (char *) "city", (char *) "Ada");
  agent_mcp_client_get_prompt_async (client, modern_server ? "greet" : "args-prompt", arguments,
                                     NULL, get_prompt_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  message = g_list_model_get_item (outcome.model, 0);
  g_assert_nonnull (strstr (agent_message_get_content (message), "Ada"));

  outcome_clear (&outcome);
  agent_mcp_client_ping_async (client, NULL, ping_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);
  outcome_clear (&outcome);
}

/* Changes through subscriptions/listen: of the tools, of a resource */
static void
check_changes (AgentMcpClient *client)
{
  g_autoptr(GPtrArray) updated = g_ptr_array_new_with_free_func (g_free);
  AgentTestMcpResult result;
  Outcome outcome = { 0 };

  agent_test_mcp_call (client, "add_tool", "{}", &result);
  g_assert_false (result.is_error);
  agent_test_mcp_result_clear (&result);
  agent_test_wait_until (has_extra_tool, client);

  g_signal_connect (client, "resource-updated", G_CALLBACK (resource_updated_cb), updated);
  agent_mcp_client_subscribe_resource_async (client, "test://notes/two", NULL, subscribed_cb,
                                             &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);
  outcome_clear (&outcome);

  /* The stream that asks for the resource replaces the first one: the
   * touch may come before the server heard of it, so again until heard */
  while (updated->len == 0)
    {
      agent_test_mcp_call (client, "touch", "{\"uri\":\"test://notes/two\"}", &result);
      agent_test_mcp_result_clear (&result);
      agent_test_wait_until_timeout (has_items, updated, 1);
    }
  g_assert_cmpstr (g_ptr_array_index (updated, 0), ==, "test://notes/two");
  g_signal_handlers_disconnect_by_data (client, updated);
}

static void
check_stateless (AgentMcpClient *client)
{
  g_autoptr(JsonObject) stats = server_stats (client);

  /* No handshake, no request without _meta, no session; the probe and
   * the ping (2026-07-28 has no ping: server/discover does it), one
   * stream for the changes at least */
  g_assert_cmpint (json_object_get_int_member (stats, "initialize"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (stats, "withoutMeta"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (stats, "sessionHeaders"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (stats, "discover"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (stats, "listening"), >=, 1);
}

static void
test_server (gconstpointer data)
{
  g_autofree char *spec = g_strdup (data);
  char *slash = strchr (spec, '/');
  Server server = { 0 };
  g_autoptr(AgentMcpClient) client = NULL;
  gboolean everything;

  *slash = '\0';
  everything = g_str_equal (spec, "everything");
  server.mode = everything ? NULL : spec;
  server.http = g_str_equal (slash + 1, "http");
  client = server_start (&server);

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==,
                   everything ? "2025-11-25" : "2026-07-28");
  if (!everything)
    {
      g_assert_cmpstr (agent_mcp_client_get_server_name (client), ==, "modern-test");
      g_assert_cmpstr (agent_mcp_client_get_instructions (client), ==, "A server for tests");
      g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));
    }

  check_operations (client, !everything);
  if (!everything)
    {
      check_changes (client);
      check_stateless (client);
    }

  agent_test_mcp_close (client);
  server_stop (&server);
}

/* Both sides' versions in the error */
static void
test_no_common_version (gconstpointer data)
{
  g_autofree char *spec = g_strdup (data);
  char *slash = strchr (spec, '/');
  Server server = { 0 };
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  *slash = '\0';
  server.mode = spec;
  server.http = g_str_equal (slash + 1, "http");
  client = server_start (&server);

  error = agent_test_mcp_connect_error (client);
  g_test_message ("%s", error ? error->message : "connected");
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  agent_test_assert_contains (error->message, "“modern”");
  agent_test_assert_contains (error->message,
                              g_str_equal (spec, "neither") ? "2030-01-01" : "2024-01-01");
  agent_test_assert_contains (error->message, "2026-07-28, 2025-11-25, 2025-06-18");
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);

  agent_test_mcp_close (client);
  server_stop (&server);
}

/* An older server is probed once: connecting again goes straight to
 * initialize */
static void
test_legacy_remembered (void)
{
  Server server = { "legacy", TRUE, NULL };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  g_autoptr(JsonObject) stats = NULL;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2025-11-25");
  agent_test_mcp_close (client);

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2025-11-25");
  stats = server_stats (client);
  g_assert_cmpint (json_object_get_int_member (stats, "discover"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "initialize"), ==, 2);

  agent_test_mcp_close (client);
  server_stop (&server);
}

/* A request for input (input_required) with nobody to give it: the call
 * fails saying so, and the server stays usable */
static void
test_input_required (void)
{
  Server server = { "modern", FALSE, NULL };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);
  /* Not declared: the server does not ask */
  agent_test_mcp_call (client, "ask", "{}", &result);
  g_assert_true (result.is_error);
  g_assert_cmpstr (result.text, ==, "this client cannot be asked");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "ask_anyway", "{}", &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "asks for input (elicitation/create)");
  agent_test_assert_contains (result.text, "“modern”");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "echo", "{\"text\":\"still\"}", &result);
  g_assert_cmpstr (result.text, ==, "echo: still");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
}

/* Elicitation under either revision: the same ::elicitation, answered by
 * accept, decline and cancel */
typedef struct
{
  const char *action;
  guint       n_asked;
  char       *message;
} Answering;

static void
elicitation_cb (AgentMcpClient      *client,
                AgentMcpElicitation *request,
                Answering           *answering)
{
  answering->n_asked++;
  g_free (answering->message);
  answering->message = g_strdup (agent_mcp_elicitation_get_message (request));

  if (g_str_equal (answering->action, "accept"))
    {
      g_autoptr(JsonNode) content = json_from_string ("{\"name\":\"Ada\"}", NULL);
      g_autoptr(GError) error = NULL;

      g_assert_true (agent_mcp_elicitation_accept (request, json_node_get_object (content),
                                                   &error));
      g_assert_no_error (error);
    }
  else if (g_str_equal (answering->action, "decline"))
    agent_mcp_elicitation_decline (request);
  else
    agent_mcp_elicitation_cancel (request);
}

static void
test_elicitation (gconstpointer data)
{
  Server server = { "modern", g_str_equal (data, "http"), NULL };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  static const struct { const char *action; const char *text; } cases[] = {
    { "accept", "hello Ada" }, { "decline", "decline" }, { "cancel", "cancel" },
  };
  Answering answering = { 0 };
  g_autoptr(JsonObject) stats = NULL;
  JsonArray *methods;
  guint n_calls = 0;

  agent_mcp_client_set_handles_elicitation (client, TRUE);
  g_signal_connect (client, "elicitation", G_CALLBACK (elicitation_cb), &answering);
  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2026-07-28");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AgentTestMcpResult result;

      answering.action = cases[i].action;
      answering.n_asked = 0;
      agent_test_mcp_call (client, "ask", "{}", &result);
      g_assert_false (result.is_error);
      g_assert_cmpstr (result.text, ==, cases[i].text);
      g_assert_cmpuint (answering.n_asked, ==, 1);
      g_assert_cmpstr (answering.message, ==, "What is your name?");
      agent_test_mcp_result_clear (&result);
    }

  /* Each call: the request, then its retry with the answer (and the call
   * of "stats" itself) */
  stats = server_stats (client);
  g_assert_cmpint (json_object_get_int_member (stats, "withoutMeta"), ==, 0);
  methods = json_object_get_array_member (stats, "methods");
  for (guint i = 0; i < json_array_get_length (methods); i++)
    n_calls += g_str_equal (json_array_get_string_element (methods, i), "tools/call");
  g_assert_cmpuint (n_calls, ==, 2 * G_N_ELEMENTS (cases) + 1);

  g_signal_handlers_disconnect_by_data (client, &answering);
  g_free (answering.message);
  agent_test_mcp_close (client);
  server_stop (&server);
}

/* The modern server itself: a client of 2025-11-25 is told what it speaks */
static void
test_refuses_initialize (void)
{
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "modern-server.mjs", NULL);
  g_autoptr(AgentTestProcess) process = NULL;

  process = agent_test_process_spawn ("node", NULL,
                                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                      "\"params\":{\"protocolVersion\":\"2025-11-25\","
                                      "\"capabilities\":{},\"clientInfo\":{\"name\":\"old\","
                                      "\"version\":\"1\"}}}\n", 0,
                                      AGENT_TEST_ARGS (path, "--mode=modern"));
  agent_test_process_wait (process);
  agent_test_assert_contains (process->out->str, "\"error\"");
  agent_test_assert_contains (process->out->str, "2026-07-28");
}

/* The Mcp-Param-* headers "route" got, as a JSON object */
static JsonObject *
route (AgentMcpClient *client,
       const char     *arguments)
{
  g_autoptr(JsonNode) node = NULL;
  AgentTestMcpResult result;

  agent_test_mcp_call (client, "route", arguments, &result);
  g_test_message ("route %s: %s", arguments, result.text);
  g_assert_false (result.is_error);
  node = json_from_string (result.text, NULL);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  agent_test_mcp_result_clear (&result);

  return json_object_ref (json_node_get_object (node));
}

/* How many requests of @method the modern server saw */
static guint
count_requests (AgentMcpClient *client,
                const char     *method)
{
  g_autoptr(JsonObject) stats = server_stats (client);
  JsonArray *methods = json_object_get_array_member (stats, "methods");
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (methods); i++)
    n += g_str_equal (json_array_get_string_element (methods, i), method);
  return n;
}

static const char * const bad_tools[] = { "bad_token", "bad_duplicate", "bad_number",
                                          "bad_items" };

/* Over HTTP under 2026-07-28: each annotated value present goes in its
 * header, encoded as streamable-http.mdx's examples; invalid annotations
 * leave their tool out with a warning */
static void
test_param_headers_http (void)
{
  Server server = { "modern", TRUE, NULL, TRUE, TRUE };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  g_autoptr(JsonObject) headers = NULL;
  AgentTestMcpResult result;

  for (guint i = 0; i < G_N_ELEMENTS (bad_tools); i++)
    {
      g_autofree char *pattern = g_strdup_printf ("*“modern”*“%s”*", bad_tools[i]);

      g_test_expect_message ("Agent", G_LOG_LEVEL_WARNING, pattern);
    }
  agent_test_mcp_connect (client);
  g_test_assert_expected_messages ();
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==, "2026-07-28");

  for (guint i = 0; i < G_N_ELEMENTS (bad_tools); i++)
    g_assert_null (agent_test_mcp_find_tool (client, bad_tools[i]));
  g_assert_nonnull (agent_test_mcp_find_tool (client, "echo"));

  headers = route (client, "{\"region\":\"us-west1\",\"greeting\":\"Hello, 世界\","
                   "\"text\":\" padded \",\"val\":\"=?base64?literal?=\",\"count\":-7,"
                   "\"flag\":false,\"place\":{\"zone\":\"eu\"},\"query\":\"SELECT 1\"}");
  g_assert_cmpuint (json_object_get_size (headers), ==, 7);
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-region"), ==, "us-west1");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-greeting"), ==,
                   "=?base64?SGVsbG8sIOS4lueVjA==?=");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-text"), ==,
                   "=?base64?IHBhZGRlZCA=?=");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-val"), ==,
                   "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-count"), ==, "-7");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-flag"), ==, "false");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-zone"), ==, "eu");
  g_clear_pointer (&headers, json_object_unref);

  /* null or absent: no header */
  headers = route (client, "{\"region\":null,\"count\":42,\"flag\":true}");
  g_assert_cmpuint (json_object_get_size (headers), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-count"), ==, "42");
  g_assert_cmpstr (json_object_get_string_member (headers, "mcp-param-flag"), ==, "true");
  g_clear_pointer (&headers, json_object_unref);

  /* What no header can carry: the call fails, naming it */
  agent_test_mcp_call (client, "route", "{\"count\":1e16}", &result);
  g_test_message ("route beyond: %s", result.text);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "“modern”");
  agent_test_assert_contains (result.text, "“count”");
  agent_test_mcp_result_clear (&result);
  agent_test_mcp_call (client, "route", "{\"region\":{\"a\":1}}", &result);
  g_test_message ("route object: %s", result.text);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "“region”");
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_close (client);
  server_stop (&server);
}

/* HeaderMismatch: the tools are listed again and the call retried, once */
static void
test_param_headers_mismatch (void)
{
  Server server = { "modern", TRUE, NULL, TRUE, FALSE };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  AgentTestMcpResult result;

  agent_test_mcp_connect (client);
  g_assert_cmpuint (count_requests (client, "tools/list"), ==, 1);

  /* Annotated since it was listed: refused once, then right */
  agent_test_mcp_call (client, "evolving", "{\"shard\":\"s1\"}", &result);
  g_test_message ("evolving: %s", result.text);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, "shard s1");
  agent_test_mcp_result_clear (&result);
  g_assert_cmpuint (count_requests (client, "tools/list"), ==, 2);

  /* Refused again after the new listing: a clear error */
  agent_test_mcp_call (client, "mismatching", "{\"id\":\"x\"}", &result);
  g_test_message ("mismatching: %s", result.text);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "“modern”");
  agent_test_assert_contains (result.text, "“mismatching”");
  agent_test_assert_contains (result.text, "never likes its headers");
  agent_test_mcp_result_clear (&result);
  g_assert_cmpuint (count_requests (client, "tools/list"), ==, 3);
  /* stats' own four calls (this one too), evolving's two, mismatching's two */
  g_assert_cmpuint (count_requests (client, "tools/call"), ==, 4 + 2 + 2);

  agent_test_mcp_close (client);
  server_stop (&server);
}

/* Over stdio, and under 2025-11-25 over HTTP, annotations mean nothing:
 * every tool is offered, no header is sent */
static void
test_param_headers_ignored (gconstpointer data)
{
  gboolean http = g_str_equal (data, "legacy");
  Server server = { http ? "legacy" : "modern", http, NULL, TRUE, TRUE };
  g_autoptr(AgentMcpClient) client = server_start (&server);
  g_autoptr(JsonObject) headers = NULL;

  agent_test_mcp_connect (client);
  g_assert_cmpstr (agent_mcp_client_get_protocol_version (client), ==,
                   http ? "2025-11-25" : "2026-07-28");
  for (guint i = 0; i < G_N_ELEMENTS (bad_tools); i++)
    g_assert_nonnull (agent_test_mcp_find_tool (client, bad_tools[i]));

  headers = route (client, "{\"region\":\"us-west1\",\"count\":1}");
  g_assert_cmpuint (json_object_get_size (headers), ==, 0);

  agent_test_mcp_close (client);
  server_stop (&server);
}

int
main (int   argc,
      char *argv[])
{
  static const char *servers[] = {
    "modern/stdio", "modern/http", "both/stdio", "both/http", "everything/stdio",
    "everything/http",
  };
  static const char *neither[] = {
    "neither/stdio", "neither/http", "old-neither/stdio", "old-neither/http",
  };

  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/mcp-revision/%s", servers[i]);

      g_test_add_data_func (path, servers[i], test_server);
    }
  for (guint i = 0; i < G_N_ELEMENTS (neither); i++)
    {
      g_autofree char *path = g_strdup_printf ("/mcp-revision/%s", neither[i]);

      g_test_add_data_func (path, neither[i], test_no_common_version);
    }
  g_test_add_func ("/mcp-revision/legacy/remembered", test_legacy_remembered);
  g_test_add_func ("/mcp-revision/modern/refuses-initialize", test_refuses_initialize);
  g_test_add_func ("/mcp-revision/modern/input-required", test_input_required);
  g_test_add_data_func ("/mcp-revision/modern/elicitation/stdio", "stdio", test_elicitation);
  g_test_add_data_func ("/mcp-revision/modern/elicitation/http", "http", test_elicitation);
  g_test_add_func ("/mcp-revision/param-headers/http", test_param_headers_http);
  g_test_add_func ("/mcp-revision/param-headers/mismatch", test_param_headers_mismatch);
  g_test_add_data_func ("/mcp-revision/param-headers/stdio", "stdio", test_param_headers_ignored);
  g_test_add_data_func ("/mcp-revision/param-headers/legacy", "legacy",
                        test_param_headers_ignored);

  return g_test_run ();
}
