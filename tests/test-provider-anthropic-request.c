/* test-provider-anthropic-request.c — the Anthropic Messages backend: requests
 *
 * - /anthropic/request/…: request bodies written from a memory built by
 *   hand (merged tool results, system messages, provider data), and the
 *   max-tokens and reasoning-effort options.
 * - /anthropic/models: model listing.
 *
 * Streams and sessions are test-provider-anthropic's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-provider.h"
#include "agent-test-util.h"

#define API_KEY "sk-ant-test-0123456789"

/* Request bodies */

/* Tool results become one user message with the user's next words;
 * system messages join the system prompt; the blocks in the provider data
 * go back first, other providers' data is left alone; the arguments go
 * back byte for byte, as an object. */
static void
test_request_messages (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("anthropic", NULL);
  g_autoptr(GListStore) store = NULL;
  g_autoptr(JsonNode) provider_data = agent_test_parse_json (
    "{\"anthropic\":{\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"}]},"
    "\"openai-responses\":{\"id\":\"rs_1\"}}");
  g_autoptr(AgentMessage) assistant = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *body = NULL;
  JsonObject *object;

  /* Its breakpoints are test-prompt-cache's */
  agent_provider_set_prompt_cache (provider, FALSE);
  assistant = agent_test_assistant_new ("Checking.", NULL,
                                        "toolu_a", "get_weather",
                                        "{\"city\": \"Paris\",\n \"n\": 12345678901234567890}",
                                        "toolu_b", "get_time", "",
                                        "toolu_c", "broken", "{\"cut\": ",
                                        NULL);
  agent_message_set_provider_data (assistant, provider_data);
  store = agent_test_messages_new (
    agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief."),
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Weather and time?"),
    g_object_ref (assistant),
    agent_message_new_tool_result ("toolu_a", "get_weather", "Sunny", FALSE),
    agent_message_new_tool_result ("toolu_b", "get_time", "No clock", TRUE),
    agent_message_new_tool_result ("toolu_c", "broken", "", TRUE),
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Thanks"),
    agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "You're welcome."),
    agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL),  /* nothing: left out */
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Bye"),
    NULL);

  body = agent_test_build_body (provider, NULL, "You test.", G_LIST_MODEL (store), NULL);
  g_assert_nonnull (strstr (body,
                            "\"input\":{\"city\": \"Paris\",\n \"n\": 12345678901234567890}"));

  root = agent_test_parse_json (body);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "system"), ==, "You test.\n\nBe brief.");
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "claude-sonnet-4-5");
  g_assert_false (json_object_has_member (object, "tools"));
  g_assert_false (json_object_has_member (object, "thinking"));
  agent_test_assert_json (
    json_object_get_member (object, "messages"),
    "[{\"role\":\"user\",\"content\":\"Weather and time?\"},"
    " {\"role\":\"assistant\",\"content\":["
    "   {\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"},"
    "   {\"type\":\"text\",\"text\":\"Checking.\"},"
    "   {\"type\":\"tool_use\",\"id\":\"toolu_a\",\"name\":\"get_weather\","
    "    \"input\":{\"city\":\"Paris\",\"n\":12345678901234567890}},"
    "   {\"type\":\"tool_use\",\"id\":\"toolu_b\",\"name\":\"get_time\",\"input\":{}},"
    "   {\"type\":\"tool_use\",\"id\":\"toolu_c\",\"name\":\"broken\",\"input\":{}}]},"
    " {\"role\":\"user\",\"content\":["
    "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_a\",\"content\":\"Sunny\"},"
    "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_b\",\"content\":\"No clock\","
    "    \"is_error\":true},"
    "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_c\",\"content\":\"\","
    "    \"is_error\":true},"
    "   {\"type\":\"text\",\"text\":\"Thanks\"}]},"
    " {\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"You're welcome.\"}]},"
    " {\"role\":\"user\",\"content\":\"Bye\"}]");
}

/* max_tokens is required (4096 by default); the effort is a thinking
 * budget, which max_tokens must exceed. */
static void
test_request_options (void)
{
  static const struct {
    AgentReasoningEffort effort;
    guint                max_tokens;
    gint64               sent_max_tokens;
    gint64               budget;   /* 0: no thinking member */
  } cases[] = {
    { AGENT_REASONING_EFFORT_DEFAULT, 0, 4096, 0 },
    { AGENT_REASONING_EFFORT_DEFAULT, 123, 123, 0 },
    { AGENT_REASONING_EFFORT_NONE, 0, 4096, 0 },
    { AGENT_REASONING_EFFORT_LOW, 0, 4096, 1024 },
    { AGENT_REASONING_EFFORT_LOW, 1024, 1024 + 4096, 1024 },
    { AGENT_REASONING_EFFORT_MEDIUM, 1000, 4096 + 4096, 4096 },
    { AGENT_REASONING_EFFORT_MEDIUM, 0, 4096 + 4096, 4096 },
    { AGENT_REASONING_EFFORT_HIGH, 32000, 32000, 16384 },
  };
  g_autoptr(AgentProvider) provider = agent_provider_new ("claude", NULL);
  g_autoptr(GListStore) tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();

  g_assert_cmpstr (agent_provider_get_name (provider), ==, "anthropic");
  g_assert_cmpstr (agent_provider_get_default_base_url (provider), ==, "https://api.anthropic.com");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "ANTHROPIC_API_KEY");
  g_list_store_append (tools, tool);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonObject *object;
      gint64 max_tokens;

      agent_provider_set_reasoning_effort (provider, cases[i].effort);
      agent_provider_set_max_tokens (provider, cases[i].max_tokens);
      body = agent_test_build_body (provider, NULL, i % 2 ? "" : NULL, NULL, G_LIST_MODEL (tools));
      root = agent_test_parse_json (body);
      object = json_node_get_object (root);

      max_tokens = json_object_get_int_member (object, "max_tokens");
      g_assert_cmpint (max_tokens, ==, cases[i].sent_max_tokens);
      g_assert_cmpint (max_tokens, >, cases[i].budget);
      g_assert_true (json_object_get_boolean_member (object, "stream"));
      g_assert_false (json_object_has_member (object, "system"));
      g_assert_cmpuint (json_array_get_length (agent_test_member_array (object, "messages")), ==,
                        0);
      g_assert_cmpuint (json_array_get_length (agent_test_member_array (object, "tools")), ==, 1);
      if (cases[i].budget == 0)
        g_assert_false (json_object_has_member (object, "thinking"));
      else
        {
          JsonObject *thinking = json_object_get_object_member (object, "thinking");

          g_assert_cmpstr (json_object_get_string_member (thinking, "type"), ==, "enabled");
          g_assert_cmpint (json_object_get_int_member (thinking, "budget_tokens"), ==,
                           cases[i].budget);
        }
    }
}

/* Models */

static void
test_models (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = agent_test_provider_new (server, "anthropic");
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *r;

  agent_provider_set_api_key (provider, API_KEY);
  r = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (r, "application/json",
                                "{\"data\":[{\"type\":\"model\","
                                "\"id\":\"claude-opus-4-1-20250805\","
                                "\"display_name\":\"Claude Opus 4.1\","
                                "\"created_at\":\"2025-08-05T00:00:00Z\"},"
                                "{\"type\":\"model\",\"id\":\"claude-haiku-4-5\","
                                "\"display_name\":\"Claude Haiku 4.5\"}],"
                                "\"has_more\":false,\"first_id\":\"claude-opus-4-1-20250805\","
                                "\"last_id\":\"claude-haiku-4-5\"}");
  names = agent_test_list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "claude-opus-4-1-20250805");
  g_assert_cmpstr (names[1], ==, "claude-haiku-4-5");
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/models");
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "x-api-key"), ==, API_KEY);
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "anthropic-version"), ==,
                   "2023-06-01");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  g_clear_pointer (&names, g_strfreev);

  /* Without a key, no key header; the API's error body */
  agent_provider_set_api_key (provider, NULL);
  agent_test_assert_models_error (provider, server, 401,
                                  "{\"type\":\"error\","
                                  "\"error\":{\"type\":\"authentication_error\","
                                  "\"message\":\"x-api-key header is required\"}}",
                                  AGENT_ERROR_AUTHENTICATION, "x-api-key header is required");
  g_assert_null (agent_test_server_get_request_header (server, 1, "x-api-key"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 1, "anthropic-version"), ==,
                   "2023-06-01");

  g_assert_finalize_object (provider);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  g_test_add_func ("/anthropic/request/messages", test_request_messages);
  g_test_add_func ("/anthropic/request/options", test_request_options);
  g_test_add_func ("/anthropic/models", test_models);

  return g_test_run ();
}
