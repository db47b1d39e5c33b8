/* test-tool-numbers.c — numbers in tool arguments reach the tool as written
 *
 * A model's arguments may hold numbers a double cannot hold: an id of
 * 2^53 + 1, an integer beyond 64 bits, 1e400. Parsed and printed again
 * (cJSON keeps numbers as doubles) they would change on their way; they
 * must reach an MCP server, and go back to the provider in the history,
 * with the digits the model wrote. The MCP server is the hostile test
 * server (agent-test-mcp-server), whose raw tool answers with the line it
 * read; the providers are the in-process test server, whose requests are
 * read as the client wrote them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

/* What a model may write: beyond a double's precision, beyond 64 bits,
 * beyond a double's range, and a fraction no double holds exactly */
#define ARGUMENTS \
  "{\"id\":9007199254740993,\"below\":-9007199254740993,\"big\":12345678901234567890," \
  "\"huge\":1e400,\"tenth\":0.1,\"list\":[9007199254740993,1.50]}"

/* The model streams a call of the MCP server's raw tool, its arguments
 * cut in the middle of the numbers; the server sees them as written, and
 * so does the model in the next request. */
static void
test_mcp_openai (void)
{
  static const char * const done[] = { "Done.", NULL };
  const AgentTestToolChunk chunks[] = {
    { 0, "call_1", "raw", "{\"id\":90071992" },
    { 0, NULL, NULL, "54740993,\"below\":-9007199254740993,\"big\":1234567890123" },
    { 0, NULL, NULL, "4567890,\"huge\":1e4" },
    { 0, NULL, NULL, "00,\"tenth\":0.1,\"list\":[9007199254740993,1.50]}" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentSession) session = NULL;
  AgentTestTurn turn = { 0, };
  JsonObject *assistant;
  JsonObject *function;
  const char *seen;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 10, 5);
  agent_test_openai_add_text_response (server, done, 20, 2);
  session = agent_session_new (provider);
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (agent_test_approve_all_cb), NULL);
  g_assert_true (agent_mcp_server_list_add (list, client));
  agent_test_mcp_connect (client);
  agent_mcp_server_list_attach (list, session);

  agent_test_turn_run (&turn, session, "Look it up", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "Done.");

  /* The server read the arguments as the model wrote them */
  seen = agent_test_openai_tool_message_content (server, 1, "call_1");
  agent_test_assert_contains (seen, "\"arguments\":" ARGUMENTS);

  /* The history holds them as written */
  assistant = agent_test_openai_get_message (server, 1, 1);
  function = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (assistant, "tool_calls"), 0),
    "function");
  g_assert_cmpstr (json_object_get_string_member (function, "arguments"), ==, ARGUMENTS);

  agent_test_turn_clear (&turn);
  agent_mcp_server_list_detach (list, session);
  agent_test_mcp_close (client);
}

/* Gemini sends arguments as an object in its event; they are the call's
 * arguments as written, the MCP server sees them so, and they go back in
 * the history so. */
static void
test_mcp_gemini (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  AgentTestResponse *response;
  AgentTestSession s;
  AgentMessage *model;
  const char *seen;

  agent_test_session_init (&s, "gemini");
  agent_provider_set_model (s.provider, "test-model");
  g_signal_connect (s.session, "approve-tool-call", G_CALLBACK (agent_test_approve_all_cb), NULL);
  g_assert_true (agent_mcp_server_list_add (list, client));
  agent_test_mcp_connect (client);
  agent_mcp_server_list_attach (list, s.session);

  response = agent_test_server_add_response (s.server, 200);
  agent_test_response_add_sse (response,
                               "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                               "{\"text\":\"Looking.\"},"
                               "{\"functionCall\":{\"name\":\"raw\",\"args\":" ARGUMENTS "}}]},"
                               "\"finishReason\":\"STOP\",\"index\":0}]}");
  response = agent_test_server_add_response (s.server, 200);
  agent_test_response_add_sse (response,
                               "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                               "{\"text\":\"Done.\"}]},\"finishReason\":\"STOP\",\"index\":0}]}");

  agent_test_turn_run (&s.turn, s.session, "Look it up", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "Done.");

  model = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (s.session)), 1);
  g_assert_cmpuint (agent_message_get_n_tool_calls (model), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (model, 0)), ==,
                   ARGUMENTS);
  seen = agent_tool_call_get_result (agent_message_get_tool_call (model, 0));
  agent_test_assert_contains (seen, "\"arguments\":" ARGUMENTS);
  g_object_unref (model);

  /* The history: the arguments as an object, as written */
  agent_test_assert_contains (agent_test_server_get_request_text (s.server, 1),
                              "{\"functionCall\":{\"name\":\"raw\",\"args\":" ARGUMENTS "}}");

  agent_mcp_server_list_detach (list, s.session);
  agent_test_mcp_close (client);
  agent_test_session_clear (&s);
}

/* What a C tool reads in its JsonNode: integers of 64 bits exactly; one
 * beyond them the nearest double, never another integer (json-glib alone
 * wraps 12345678901234567890 around to a negative one). */
static void
test_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = agent_json_parse (ARGUMENTS, -1, &error);
  JsonObject *object;
  JsonNode *big;

  g_assert_no_error (error);
  object = json_node_get_object (node);
  g_assert_cmpint (json_object_get_int_member (object, "id"), ==,
                   G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpint (json_object_get_int_member (object, "below"), ==,
                   G_GINT64_CONSTANT (-9007199254740993));
  big = json_object_get_member (object, "big");
  g_assert_true (json_node_get_value_type (big) == G_TYPE_DOUBLE);
  g_assert_cmpfloat (json_node_get_double (big), ==, 12345678901234567890.0);
  g_assert_cmpfloat (json_object_get_double_member (object, "tenth"), ==, 0.1);
  g_clear_pointer (&node, json_node_unref);

  /* Below 64 bits too; digits in a string stay a string */
  node = agent_json_parse ("{\"below\":-12345678901234567890,\"max\":-9223372036854775808,"
                           "\"text\":\"12345678901234567890\"}", -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (node);
  g_assert_cmpfloat (json_object_get_double_member (object, "below"), ==, -12345678901234567890.0);
  g_assert_cmpint (json_object_get_int_member (object, "max"), ==, G_MININT64);
  g_assert_cmpstr (json_object_get_string_member (object, "text"), ==, "12345678901234567890");
}

/* agent_mcp_client_call_tool_async() with a JsonNode: its 64-bit
 * integers reach the server exactly */
static void
test_mcp_node (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_hostile_new (0);
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *text = NULL;

  arguments = agent_json_parse ("{\"id\":9007199254740993,\"below\":-9007199254740993,"
                                "\"max\":9223372036854775807}", -1, NULL);
  agent_test_mcp_connect (client);
  result = agent_test_mcp_call_raw (client, "raw", arguments);

  text = json_to_string (result, FALSE);
  agent_test_assert_contains (text, "9007199254740993,");
  agent_test_assert_contains (text, "-9007199254740993,");
  agent_test_assert_contains (text, "9223372036854775807}");
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tool-numbers/parse", test_parse);
  g_test_add_func ("/tool-numbers/mcp-node", test_mcp_node);
  g_test_add_func ("/tool-numbers/mcp-openai", test_mcp_openai);
  g_test_add_func ("/tool-numbers/mcp-gemini", test_mcp_gemini);

  return g_test_run ();
}
