/* test-provider-ollama-request.c — Ollama's native chat API: requests
 *
 * - The request body, field by field (roles, tool calls written back with
 *   their arguments as objects, tool results, tools, options, think).
 * - Model listing (/api/tags).
 *
 * Streams and sessions are test-provider-ollama's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-provider.h"
#include "agent-test-util.h"

/* The request body */

/* The body for @messages, parsed; its text in @text unless NULL */
static JsonObject *
build_request (AgentProvider *provider,
               const char    *model,
               GListModel    *messages,
               GListModel    *tools,
               char         **text)
{
  g_autofree char *json = agent_test_build_body (provider, model, NULL, messages, tools);
  g_autoptr(JsonNode) root = agent_test_parse_json (json);

  if (text != NULL)
    *text = g_steal_pointer (&json);
  return json_object_ref (json_node_get_object (root));
}

static void
test_request_think (void)
{
  static const struct {
    const char           *model;
    AgentReasoningEffort  effort;
    const char           *think;   /* the JSON of "think", NULL for none */
  } cases[] = {
    { "qwen3:8b", AGENT_REASONING_EFFORT_DEFAULT, NULL },
    { "qwen3:8b", AGENT_REASONING_EFFORT_NONE, "false" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_LOW, "true" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_MEDIUM, "true" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_HIGH, "true" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_DEFAULT, NULL },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_NONE, "false" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_LOW, "\"low\"" },
    { "gpt-oss:120b-cloud", AGENT_REASONING_EFFORT_MEDIUM, "\"medium\"" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_HIGH, "\"high\"" },
  };
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(GListStore) messages = NULL;

  messages = agent_test_messages_new (agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi"), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) body = NULL;
      JsonNode *think;

      agent_provider_set_reasoning_effort (provider, cases[i].effort);
      body = build_request (provider, cases[i].model, G_LIST_MODEL (messages), NULL, NULL);
      think = json_object_get_member (body, "think");

      if (cases[i].think == NULL)
        g_assert_null (think);
      else
        {
          g_autofree char *json = json_to_string (think, FALSE);

          g_assert_cmpstr (json, ==, cases[i].think);
        }
    }
}

static void
test_request_body (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(GListStore) messages = NULL;
  g_autoptr(GListStore) tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;

  messages = agent_test_messages_new (
    agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief."),
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Count"),
    agent_test_assistant_new (NULL, NULL,
                              "call_empty", "count", "",
                              "call_big", "count", "{\"n\": 12345678901234567890, \"x\": 1.50}",
                              "call_cut", "count", "{\"n\": 1",
                              "call_list", "count", "[1, 2]",
                              NULL),
    agent_message_new_tool_result ("call_empty", "count", "3", FALSE),
    agent_message_new_tool_result ("call_cut", "count", "Error: not valid JSON", TRUE),
    NULL);

  /* No system prompt, tools, max tokens, effort or window: none of them is
   * sent. */
  agent_provider_set_max_context_window (provider, 0);
  body = build_request (provider, "llama3.2", G_LIST_MODEL (messages), G_LIST_MODEL (tools),
                        &text);
  g_assert_false (json_object_has_member (body, "tools"));
  g_assert_false (json_object_has_member (body, "options"));
  g_assert_false (json_object_has_member (body, "think"));
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "llama3.2");
  g_assert_true (json_object_get_boolean_member (body, "stream"));

  json = agent_test_json_text (
    "[{'role': 'system', 'content': 'Be brief.'},"
    " {'role': 'user', 'content': 'Count'},"
    " {'role': 'assistant', 'content': '', 'tool_calls': ["
    "   {'id': 'call_empty', 'function': {'name': 'count', 'arguments': {}}},"
    "   {'id': 'call_big', 'function': {'name': 'count',"
    "     'arguments': {'n': 12345678901234567890, 'x': 1.50}}},"
    "   {'id': 'call_cut', 'function': {'name': 'count', 'arguments': '{\\'n\\': 1'}},"
    "   {'id': 'call_list', 'function': {'name': 'count', 'arguments': '[1, 2]'}}]},"
    " {'role': 'tool', 'content': '3', 'tool_name': 'count',"
    "  'tool_call_id': 'call_empty'},"
    " {'role': 'tool', 'content': 'Error: not valid JSON', 'tool_name': 'count',"
    "  'tool_call_id': 'call_cut'}]");
  expected = agent_test_parse_json (json);
  if (!agent_test_json_equal (expected, json_object_get_member (body, "messages")))
    g_error ("messages: %s", text);

  /* Arguments that are a JSON object go back as the model wrote them: no
   * number is rewritten. */
  g_assert_nonnull (strstr (text, "\"arguments\":{\"n\": 12345678901234567890, \"x\": 1.50}"));
}

/* Models */

static void
test_models (void)
{
  AgentTestServer *server = agent_test_server_new ();
  AgentProvider *provider = agent_test_provider_new (server, "ollama");
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  body = agent_test_json_text ("{'models':[{'name':'llama3.2:latest','model':'llama3.2:latest',"
                               "'modified_at':'2025-05-04T17:37:44.706015396-07:00',"
                               "'size':2019393189,'details':{'family':'llama'}},"
                               "{'name':'qwen3:8b','model':'qwen3:8b'},{'model':'gpt-oss:20b'}]}");
  agent_test_response_set_body (response, "application/json", body);
  names = agent_test_list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[0], ==, "llama3.2:latest");
  g_assert_cmpstr (names[1], ==, "qwen3:8b");
  g_assert_cmpstr (names[2], ==, "gpt-oss:20b");
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/api/tags");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Accept"), ==,
                   "application/json");
  g_clear_pointer (&names, g_strfreev);

  /* With a key (ollama.com, a proxy): a bearer token */
  agent_provider_set_api_key (provider, "sk-ollama-secret");
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", "{\"models\":[]}");
  names = agent_test_list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 0);
  g_assert_cmpstr (agent_test_server_get_request_header (server, 1, "Authorization"), ==,
                   "Bearer sk-ollama-secret");
  g_clear_pointer (&names, g_strfreev);

  /* Errors: the server's, and an answer that is not a list */
  agent_test_assert_models_error (provider, server, 500, "{\"error\":\"out of memory\"}",
                                  AGENT_ERROR_HTTP, "out of memory");
  agent_test_assert_models_error (provider, server, 200, "{\"data\":[{\"id\":\"llama3.2\"}]}",
                                  AGENT_ERROR_PROTOCOL, NULL);

  g_assert_finalize_object (provider);
  agent_test_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  g_test_add_func ("/ollama/request/think", test_request_think);
  g_test_add_func ("/ollama/request/body", test_request_body);
  g_test_add_func ("/ollama/models", test_models);

  return g_test_run ();
}
