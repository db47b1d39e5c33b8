/* test-mcp-attachments.c — an MCP tool that returns an image, in a turn
 *
 * The real server-everything's get-tiny-image: the image content of its
 * tools/call result reaches the model as an image (OpenAI chat: in a user
 * message after the tool results, the tool message naming it), and stays
 * with the tool result in the memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

static void
test_tiny_image (void)
{
  static const char * const done[] = { "A tiny image.", NULL };
  const AgentTestToolChunk chunks[] = { { 0, "call_1", "get-tiny-image", "{}" } };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentMessage) result = NULL;
  AgentTestTurn turn = { 0, };
  AgentContentPart *image;
  JsonArray *messages;
  JsonObject *after;
  JsonArray *content;
  const char *url;
  gsize len = 0;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 10, 5);
  agent_test_openai_add_text_response (server, done, 20, 2);
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (agent_test_approve_all_cb), NULL);
  g_assert_true (agent_mcp_server_list_add (list, client));
  agent_test_mcp_connect (client);
  agent_mcp_server_list_attach (list, session);

  agent_test_turn_run (&turn, session, "Show me an image", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "A tiny image.");

  /* The tool result in the memory carries the decoded PNG */
  result = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (session)), 2);
  g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
  g_assert_cmpuint (agent_message_get_n_attachments (result), ==, 1);
  image = agent_message_get_attachment (result, 0);
  g_assert_cmpstr (agent_content_part_get_mime_type (image), ==, "image/png");
  g_assert_cmpmem (g_bytes_get_data (agent_content_part_get_data (image), &len), 8,
                   "\x89PNG\r\n\x1a\n", 8);
  g_assert_cmpuint (len, >, 8);

  /* The second request: the tool message names it, a user message after
   * the results carries it */
  messages = agent_test_openai_get_messages (server, 1);
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  agent_test_assert_contains (agent_test_openai_tool_message_content (server, 1, "call_1"),
                              "[Image: image/png, ");
  after = json_array_get_object_element (messages, 3);
  g_assert_cmpstr (json_object_get_string_member (after, "role"), ==, "user");
  content = json_object_get_array_member (after, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  url = json_object_get_string_member (
    json_object_get_object_member (json_array_get_object_element (content, 1), "image_url"), "url");
  g_assert_true (g_str_has_prefix (url, "data:image/png;base64,iVBORw0KGgo"));

  agent_test_turn_clear (&turn);
  agent_mcp_server_list_detach (list, session);
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/attachments/tiny-image", test_tiny_image);

  return g_test_run ();
}
