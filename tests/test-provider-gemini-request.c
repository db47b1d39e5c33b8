/* test-provider-gemini-request.c — the Gemini backend: requests
 *
 * - The request for hand-made histories; the URL (its ?alt=sse is checked
 *   on the SoupMessage: the test server does not record query strings),
 *   headers, max tokens and reasoning effort.
 * - Model listing.
 *
 * Streams and sessions are test-provider-gemini's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-provider.h"
#include "agent-test-util.h"

#define API_KEY "AIzaSy-test-SECRET-0123456789"

/* Requests for hand-made histories */

static JsonNode *
build_body (AgentProvider *provider,
            GListModel    *messages,
            const char    *system_prompt)
{
  g_autofree char *text = agent_test_build_body (provider, NULL, system_prompt, messages, NULL);

  return agent_test_parse_json (text);
}

static void
test_request_url (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("google", NULL);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  AgentRequest request = { provider, NULL, NULL, G_LIST_MODEL (messages), NULL };
  SoupMessageHeaders *headers;

  g_assert_cmpstr (agent_provider_get_name (provider), ==, "gemini");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "GEMINI_API_KEY");
  agent_provider_set_api_key (provider, API_KEY);
  g_list_store_append (messages, user);

  /* The default service and model; streaming as SSE is asked in the URL */
  request.model = agent_provider_get_model (provider);
  message = _agent_provider_build_message (provider, &request, &error);
  g_assert_no_error (error);
  url = g_uri_to_string (soup_message_get_uri (message));
  g_assert_cmpstr (url, ==, "https://generativelanguage.googleapis.com/v1beta/models/"
                            "gemini-2.5-flash:streamGenerateContent?alt=sse");
  g_assert_cmpstr (soup_message_get_method (message), ==, "POST");
  headers = soup_message_get_request_headers (message);
  /* The key in its header, never in the URL nor as a bearer token */
  g_assert_cmpstr (soup_message_headers_get_one (headers, "x-goog-api-key"), ==, API_KEY);
  g_assert_null (soup_message_headers_get_one (headers, "Authorization"));
  g_assert_cmpstr (soup_message_headers_get_one (headers, "Accept"), ==, "text/event-stream");
  g_clear_object (&message);
  g_clear_pointer (&url, g_free);

  /* The model is one path segment; "models/" as Google writes it is fine */
  request.model = "models/gemini-2.5-pro";
  g_assert_cmpstr ((url = agent_gemini_backend.build_path (&request)), ==,
                   "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
  g_clear_pointer (&url, g_free);
  request.model = "tuned/../x?y#z";
  g_assert_cmpstr ((url = agent_gemini_backend.build_path (&request)), ==,
                   "/v1beta/models/tuned%2F..%2Fx%3Fy%23z:streamGenerateContent?alt=sse");

  /* No key, no header */
  agent_provider_set_api_key (provider, NULL);
  request.model = "gemini-2.5-flash";
  message = _agent_provider_build_message (provider, &request, &error);
  g_assert_no_error (error);
  g_assert_null (soup_message_headers_get_one (soup_message_get_request_headers (message),
                                               "x-goog-api-key"));
}

static AgentToolCall *
call_with_data (const char *id,
                const char *name,
                const char *arguments,
                const char *data)
{
  AgentToolCall *call = agent_tool_call_new (id, name, arguments);

  if (data != NULL)
    {
      g_autoptr(JsonNode) node = agent_test_parse_json (data);

      agent_tool_call_set_provider_data (call, node);
    }
  return call;
}

static void
test_request_history (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("gemini", NULL);
  g_autoptr(GListStore) messages = NULL;
  g_autoptr(AgentToolCall) a = NULL;
  g_autoptr(AgentToolCall) b = NULL;
  g_autoptr(AgentToolCall) c = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *text = NULL;
  AgentMessage *assistant;
  static const struct {
    AgentReasoningEffort  effort;
    guint                 max_tokens;
    const char           *config;
  } options[] = {
    { AGENT_REASONING_EFFORT_NONE, 0, "{\"thinkingConfig\":{\"thinkingBudget\":0}}" },
    { AGENT_REASONING_EFFORT_LOW, 0,
      "{\"thinkingConfig\":{\"thinkingBudget\":1024,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_MEDIUM, 0,
      "{\"thinkingConfig\":{\"thinkingBudget\":8192,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_HIGH, 64,
      "{\"maxOutputTokens\":64,"
      "\"thinkingConfig\":{\"thinkingBudget\":24576,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_DEFAULT, 100, "{\"maxOutputTokens\":100}" },
  };

  /* Calls of another provider (ids Gemini never gave, arguments that are
   * not an object) and one of Gemini's own, with its id and signature */
  a = call_with_data ("call_0_0", "lookup", "{\"q\": 1,  \"big\": 12345678901234567890}", NULL);
  b = call_with_data ("toolu_1", "lookup", "not json", "{\"anthropic\":{\"x\":1}}");
  c = call_with_data ("fc-9", "lookup", "",
                      "{\"gemini\":{\"id\":\"fc-9\",\"thoughtSignature\":\"U0lH\"}}");
  assistant = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
  agent_message_add_tool_call (assistant, a);
  agent_message_add_tool_call (assistant, b);
  agent_message_add_tool_call (assistant, c);

  messages = agent_test_messages_new (
    agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief."),
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Look it up"),
    agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL),  /* nothing to send: left out */
    assistant,
    agent_message_new_tool_result ("call_0_0", "lookup", "found", FALSE),
    agent_message_new_tool_result ("toolu_1", NULL, "boom", TRUE),
    agent_message_new_tool_result ("fc-9", "lookup", "ok", FALSE),
    agent_message_new (AGENT_MESSAGE_ROLE_USER, "Thanks"),
    agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "You're welcome"),
    agent_message_new_tool_result ("zzz", "other", "?", FALSE),
    NULL);

  body = build_body (provider, G_LIST_MODEL (messages), "Sys prompt");
  agent_test_assert_json (
    body,
    "{\"contents\":["
    " {\"role\":\"user\",\"parts\":[{\"text\":\"Look it up\"}]},"
    " {\"role\":\"model\",\"parts\":["
    "   {\"functionCall\":{\"name\":\"lookup\","
    "                     \"args\":{\"q\":1,\"big\":12345678901234567890}}},"
    "   {\"functionCall\":{\"name\":\"lookup\",\"args\":{}}},"
    "   {\"functionCall\":{\"name\":\"lookup\",\"args\":{},\"id\":\"fc-9\"},"
    "    \"thoughtSignature\":\"U0lH\"}]},"
    " {\"role\":\"user\",\"parts\":["
    "   {\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"result\":\"found\"}}},"
    "   {\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"error\":\"boom\"}}},"
    "   {\"functionResponse\":{\"id\":\"fc-9\",\"name\":\"lookup\","
    "    \"response\":{\"result\":\"ok\"}}}]},"
    " {\"role\":\"user\",\"parts\":[{\"text\":\"Thanks\"}]},"
    " {\"role\":\"model\",\"parts\":[{\"text\":\"You're welcome\"}]},"
    " {\"role\":\"user\",\"parts\":["
    "   {\"functionResponse\":{\"name\":\"other\",\"response\":{\"result\":\"?\"}}}]}],"
    "\"systemInstruction\":{\"parts\":[{\"text\":\"Sys prompt\"},{\"text\":\"Be brief.\"}]}}");

  /* Arguments that are an object go back byte for byte */
  text = agent_test_build_body (provider, "m", NULL, G_LIST_MODEL (messages), NULL);
  g_assert_nonnull (strstr (text, "\"args\":{\"q\": 1,  \"big\": 12345678901234567890}"));

  /* Max tokens and reasoning effort */
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autoptr(JsonNode) config = NULL;

      agent_provider_set_reasoning_effort (provider, options[i].effort);
      agent_provider_set_max_tokens (provider, options[i].max_tokens);
      config = build_body (provider, G_LIST_MODEL (messages), NULL);
      agent_test_assert_json (json_object_get_member (json_node_get_object (config),
                                                      "generationConfig"),
                              options[i].config);
      agent_test_assert_json (json_object_get_member (json_node_get_object (config),
                                                      "systemInstruction"),
                              "{\"parts\":[{\"text\":\"Be brief.\"}]}");
    }
}

/* Models */

static void
test_models (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = agent_test_provider_new (server, "gemini");
  g_autoptr(GError) error = NULL;
  AgentTestResponse *response;
  char **names;

  agent_provider_set_api_key (provider, API_KEY);

  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json",
                                "{\"models\":[{\"name\":\"models/gemini-2.5-flash\",\"version\":\"001\","
                                "\"displayName\":\"Gemini 2.5 Flash\",\"inputTokenLimit\":1048576,"
                                "\"supportedGenerationMethods\":[\"generateContent\",\"countTokens\"]},"
                                "{\"name\":\"models/text-embedding-004\","
                                "\"supportedGenerationMethods\":[\"embedContent\"]},"
                                "{\"name\":\"models/gemini-2.5-pro\"},{\"displayName\":\"no name\"}],"
                                "\"nextPageToken\":\"Ch5tb2RlbHM\"}");
  names = agent_test_list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "gemini-2.5-flash");
  g_assert_cmpstr (names[1], ==, "gemini-2.5-pro");
  g_strfreev (names);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1beta/models");
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "x-goog-api-key"), ==, API_KEY);
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Accept"), ==,
                   "application/json");

  agent_test_assert_models_error (provider, server, 400,
                                  "{\"error\":{\"code\":400,\"message\":\"API key not valid.\","
                                  "\"status\":\"INVALID_ARGUMENT\"}}",
                                  AGENT_ERROR_HTTP, "API key not valid.");
  agent_test_assert_models_error (provider, server, 200, "{\"data\":[]}", AGENT_ERROR_PROTOCOL,
                                  NULL);

  g_assert_finalize_object (provider);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gemini/request/url", test_request_url);
  g_test_add_func ("/gemini/request/history", test_request_history);
  g_test_add_func ("/gemini/models", test_models);

  return g_test_run ();
}
