/* test-structured-providers.c — structured output with each provider
 * other than OpenAI's Chat Completions (test-structured-output's): what
 * the request asks for, and the object read from each one's stream
 *
 * - openai-responses: text.format, output_text deltas;
 * - gemini: responseMimeType and responseSchema (the schema translated:
 *   $ref inlined, ["string", "null"] as nullable, const as enum, the
 *   order of the properties as propertyOrdering), and a schema it cannot
 *   take refused before anything is sent;
 * - ollama: format, NDJSON;
 * - anthropic: the forced output tool (tool_choice tool), its
 *   input_json_delta streamed as the object; with the session's tools
 *   (tool_choice any: a real tool first, then the output tool); with
 *   thinking (tool_choice left out, the answer in text read as the object).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-util.h"
#include "test-structured-util.h"

static JsonObject *
request_body (Fixture *f,
              guint    index)
{
  JsonNode *body = agent_test_server_get_request_body (f->s.server, index);

  g_assert_nonnull (body);
  return json_node_get_object (body);
}

/* OpenAI Responses */

static void
add_event (AgentTestResponse *response,
           const char        *json)
{
  agent_test_add_typed_event (response, json);
}

static void
test_responses (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) parts = pieces (dates_answer);
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);
  JsonObject *format;

  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\","
                "\"model\":\"test-model\",\"status\":\"in_progress\",\"output\":[]}}");
  add_event (r, "{\"type\":\"response.output_item.added\",\"output_index\":0,"
                "\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                "\"content\":[]}}");
  for (guint i = 0; i < parts->len; i++)
    {
      g_autofree char *text = json_string (g_ptr_array_index (parts, i));
      g_autofree char *event = g_strdup_printf ("{\"type\":\"response.output_text.delta\","
                                                "\"output_index\":0,\"content_index\":0,"
                                                "\"delta\":%s}", text);

      add_event (r, event);
    }
  add_event (r, "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\","
                "\"model\":\"test-model\",\"status\":\"completed\","
                "\"usage\":{\"input_tokens\":7,\"output_tokens\":5,\"total_tokens\":12}}}");

  run_for_object (f, "Which dates?", dates_schema);

  assert_object (f, dates_answer);
  format = json_object_get_object_member (json_object_get_object_member (request_body (f, 0),
                                                                          "text"), "format");
  g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
  g_assert_cmpstr (json_object_get_string_member (format, "name"), ==, "dates");
  g_assert_true (json_object_get_boolean_member (format, "strict"));
  g_assert_true (json_object_has_member (format, "schema"));
}

/* Gemini */

static void
add_gemini_chunk (AgentTestResponse *response,
                  const char        *text,
                  const char        *finish_reason)
{
  g_autofree char *quoted = json_string (text);
  g_autoptr(GString) chunk = g_string_new (NULL);

  g_string_append_printf (chunk, "data: {\"candidates\":[{\"content\":{\"role\":\"model\","
                                 "\"parts\":[{\"text\":%s}]}", quoted);
  if (finish_reason != NULL)
    g_string_append_printf (chunk, ",\"finishReason\":\"%s\"", finish_reason);
  g_string_append (chunk, ",\"index\":0}],\"modelVersion\":\"test-model\"}\r\n\r\n");
  agent_test_response_add_bytes (response, chunk->str, -1);
}

static void
test_gemini (Fixture       *f,
             gconstpointer  data)
{
  static const char schema[] =
    "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\","
    " \"type\": \"object\", \"additionalProperties\": false, \"required\": [\"dates\"],"
    " \"properties\": {\"dates\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/date\"}},"
    "                  \"kind\": {\"const\": \"dates\"}},"
    " \"$defs\": {\"date\": {\"type\": \"object\", \"required\": [\"day\", \"month\"],"
    "   \"properties\": {\"month\": {\"type\": \"string\", \"enum\": [\"March\", \"April\"]},"
    "                    \"day\": {\"type\": \"integer\", \"minimum\": 1},"
    "                    \"note\": {\"type\": [\"string\", \"null\"]}}}}}";
  static const char translated[] =
    "{\"type\": \"OBJECT\", \"required\": [\"dates\"],"
    " \"properties\": {\"dates\": {\"type\": \"ARRAY\", \"items\": {\"type\": \"OBJECT\","
    "     \"required\": [\"day\", \"month\"],"
    "     \"properties\": {\"month\": {\"type\": \"STRING\", \"enum\": [\"March\", \"April\"]},"
    "                      \"day\": {\"type\": \"INTEGER\", \"minimum\": 1},"
    "                      \"note\": {\"type\": \"STRING\", \"nullable\": true}},"
    "     \"propertyOrdering\": [\"month\", \"day\", \"note\"]}},"
    "   \"kind\": {\"enum\": [\"dates\"], \"type\": \"STRING\"}},"
    " \"propertyOrdering\": [\"dates\", \"kind\"]}";
  static const char answer[] =
    "{\"dates\": [{\"month\": \"March\", \"day\": 12, \"note\": null}], \"kind\": \"dates\"}";
  g_autoptr(GPtrArray) parts = pieces (answer);
  g_autoptr(JsonNode) want = agent_test_parse_json (translated);
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);
  JsonObject *config;

  agent_test_response_set_content_type (r, "text/event-stream");
  for (guint i = 0; i < parts->len; i++)
    add_gemini_chunk (r, g_ptr_array_index (parts, i),
                      i + 1 == parts->len ? "STOP" : NULL);

  run_for_object (f, "Which dates?", schema);

  assert_object (f, answer);
  config = json_object_get_object_member (request_body (f, 0), "generationConfig");
  g_assert_cmpstr (json_object_get_string_member (config, "responseMimeType"), ==,
                   "application/json");
  if (!agent_test_json_equal (json_object_get_member (config, "responseSchema"), want))
    g_error ("responseSchema: %s", json_to_string (json_object_get_member (config,
                                                                           "responseSchema"),
                                                   FALSE));
}

static void
test_gemini_unsupported (Fixture       *f,
                         gconstpointer  data)
{
  static const struct { const char *schema; const char *says; } cases[] = {
    { "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"object\","
      " \"patternProperties\": {\"^x\": {\"type\": \"string\"}}}}}",
      "the keyword “patternProperties” (at properties.a)" },
    { "{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}",
      "“additionalProperties” other than false" },
    { "{\"type\": \"object\", \"properties\": {\"n\": {\"enum\": [1, 2]}}}",
      "“enum” with values that are not strings (at properties.n)" },
    { "{\"$ref\": \"#/$defs/node\", \"$defs\": {\"node\": {\"type\": \"object\","
      " \"properties\": {\"next\": {\"$ref\": \"#/$defs/node\"}}}}}",
      "a recursive schema" },
    { "{\"type\": [\"string\", \"integer\"]}", "more than one type besides null" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_clear_error (&f->error);
      run_for_object (f, "Hi", cases[i].schema);
      g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
      agent_test_assert_contains (f->error->message, "Gemini cannot take this output schema");
      agent_test_assert_contains (f->error->message, cases[i].says);
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (f->s.server), ==, 0);
}

/* Ollama */

static void
test_ollama (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GPtrArray) parts = pieces (dates_answer);
  g_autoptr(JsonNode) schema = agent_test_parse_json (dates_schema);
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);

  agent_test_response_set_content_type (r, "application/x-ndjson");
  for (guint i = 0; i < parts->len; i++)
    {
      g_autofree char *text = json_string (g_ptr_array_index (parts, i));
      g_autofree char *line = g_strdup_printf ("{\"model\":\"test-model\","
                                               "\"message\":{\"role\":\"assistant\","
                                               "\"content\":%s},\"done\":false}\n", text);

      agent_test_response_add_bytes (r, line, -1);
    }
  agent_test_response_add_bytes (r, "{\"model\":\"test-model\",\"message\":{\"role\":\"assistant\","
                                    "\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\","
                                    "\"prompt_eval_count\":7,\"eval_count\":9}\n", -1);

  run_for_object (f, "Which dates?", dates_schema);

  assert_object (f, dates_answer);
  g_assert_true (agent_test_json_equal (json_object_get_member (request_body (f, 0), "format"),
                                        schema));
}

/* Anthropic */

static void
add_anthropic_start (AgentTestResponse *r)
{
  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                "\"role\":\"assistant\",\"model\":\"test-model\",\"content\":[],"
                "\"stop_reason\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}");
}

static void
add_anthropic_end (AgentTestResponse *r,
                   const char        *stop_reason)
{
  g_autofree char *delta = g_strdup_printf ("{\"type\":\"message_delta\",\"delta\":"
                                            "{\"stop_reason\":\"%s\"},"
                                            "\"usage\":{\"output_tokens\":20}}", stop_reason);

  add_event (r, delta);
  add_event (r, "{\"type\":\"message_stop\"}");
}

static void
add_tool_use (AgentTestResponse *r,
              guint              index,
              const char        *id,
              const char        *name,
              const char        *input)
{
  g_autoptr(GPtrArray) parts = pieces (input);
  g_autofree char *start = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":%u,"
                                            "\"content_block\":{\"type\":\"tool_use\","
                                            "\"id\":\"%s\",\"name\":\"%s\",\"input\":{}}}",
                                            index, id, name);
  g_autofree char *stop = g_strdup_printf ("{\"type\":\"content_block_stop\",\"index\":%u}",
                                           index);

  add_event (r, start);
  for (guint i = 0; i < parts->len; i++)
    {
      g_autofree char *text = json_string (g_ptr_array_index (parts, i));
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":%u,"
                                                "\"delta\":{\"type\":\"input_json_delta\","
                                                "\"partial_json\":%s}}", index, text);

      add_event (r, delta);
    }
  add_event (r, stop);
}

static JsonObject *
find_tool (JsonObject *body,
           const char *name)
{
  JsonArray *tools = json_object_get_array_member (body, "tools");

  for (guint i = 0; tools && i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = json_array_get_object_element (tools, i);

      if (g_strcmp0 (json_object_get_string_member (tool, "name"), name) == 0)
        return tool;
    }
  return NULL;
}

static void
test_anthropic (Fixture       *f,
                gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);
  g_autoptr(JsonNode) schema = agent_test_parse_json (dates_schema);
  AgentMessage *answer;
  JsonObject *body;
  JsonObject *choice;
  JsonObject *tool;

  add_anthropic_start (r);
  add_tool_use (r, 0, "toolu_1", "dates", dates_answer);
  add_anthropic_end (r, "tool_use");

  run_for_object (f, "Which dates?", dates_schema);

  assert_object (f, dates_answer);
  body = request_body (f, 0);
  tool = find_tool (body, "dates");
  g_assert_nonnull (tool);
  g_assert_true (agent_test_json_equal (json_object_get_member (tool, "input_schema"), schema));
  choice = json_object_get_object_member (body, "tool_choice");
  g_assert_cmpstr (json_object_get_string_member (choice, "type"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (choice, "name"), ==, "dates");

  /* The answer is the object's JSON; no call is left unanswered */
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 2);
  answer = memory_item (f, 1);
  g_assert_cmpstr (agent_message_get_content (answer), ==, dates_answer);
  g_assert_cmpuint (agent_message_get_n_tool_calls (answer), ==, 0);
}

static void
test_anthropic_tools (Fixture       *f,
                      gconstpointer  data)
{
  static const char schema[] =
    "{\"title\": \"result\", \"type\": \"object\", \"required\": [\"value\"],"
    " \"properties\": {\"value\": {\"type\": \"number\"}}}";
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentTestResponse *first = agent_test_server_add_response (f->s.server, 200);
  AgentTestResponse *second = agent_test_server_add_response (f->s.server, 200);
  JsonObject *choice;

  agent_session_add_tool (f->s.session, calculator);
  add_anthropic_start (first);
  add_tool_use (first, 0, "toolu_1", "calculator", "{\"expression\": \"6*7\"}");
  add_anthropic_end (first, "tool_use");
  add_anthropic_start (second);
  add_tool_use (second, 0, "toolu_2", "result", "{\"value\": 42}");
  add_anthropic_end (second, "tool_use");

  run_for_object (f, "What is 6*7?", schema);

  assert_object (f, "{\"value\": 42}");
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *body = request_body (f, i);

      choice = json_object_get_object_member (body, "tool_choice");
      g_assert_cmpstr (json_object_get_string_member (choice, "type"), ==, "any");
      g_assert_nonnull (find_tool (body, "calculator"));
      g_assert_nonnull (find_tool (body, "result"));
    }

  /* user, the call, its result, the object */
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 4);
  g_assert_cmpstr (agent_tool_call_get_result (agent_message_get_tool_call (memory_item (f, 1),
                                                                            0)), ==, "42");
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 3)), ==, "{\"value\": 42}");
}

static void
test_anthropic_thinking (Fixture       *f,
                         gconstpointer  data)
{
  static const char * const text[] = { "{\"dates\": [{\"day\": 12, ", "\"month\": \"March\", ",
                                       "\"note\": null}]}", NULL };
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);
  g_autoptr(JsonNode) want = agent_test_parse_json (
    "{\"dates\": [{\"day\": 12, \"month\": \"March\", \"note\": null}]}");
  JsonObject *body;

  agent_provider_set_reasoning_effort (f->s.provider, AGENT_REASONING_EFFORT_LOW);
  /* The system prompt as a string (its cache breakpoint is test-prompt-cache's) */
  agent_provider_set_prompt_cache (f->s.provider, FALSE);
  agent_session_set_system_prompt (f->s.session, "Be brief.");
  add_anthropic_start (r);
  add_event (r, "{\"type\":\"content_block_start\",\"index\":0,"
                "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
  for (guint i = 0; text[i] != NULL; i++)
    {
      g_autofree char *quoted = json_string (text[i]);
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":0,"
                                                "\"delta\":{\"type\":\"text_delta\","
                                                "\"text\":%s}}", quoted);

      add_event (r, delta);
    }
  add_event (r, "{\"type\":\"content_block_stop\",\"index\":0}");
  add_anthropic_end (r, "end_turn");
  /* The next answer: a word first, then the output tool */
  r = agent_test_server_add_response (f->s.server, 200);
  add_anthropic_start (r);
  add_event (r, "{\"type\":\"content_block_start\",\"index\":0,"
                "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":0,"
                "\"delta\":{\"type\":\"text_delta\",\"text\":\"Here it is.\"}}");
  add_event (r, "{\"type\":\"content_block_stop\",\"index\":0}");
  add_tool_use (r, 1, "toolu_9", "dates", dates_answer);
  add_anthropic_end (r, "tool_use");

  run_for_object (f, "Which dates?", dates_schema);

  /* Extended thinking takes no forced tool: the tool is offered, the
   * system prompt asks for it, and an answer in text is read too */
  g_assert_no_error (f->error);
  g_assert_true (agent_test_json_equal (f->object, want));
  body = request_body (f, 0);
  g_assert_false (json_object_has_member (body, "tool_choice"));
  g_assert_nonnull (find_tool (body, "dates"));
  g_assert_cmpstr (json_object_get_string_member (body, "system"), ==,
                   "Be brief.\n\nGive your final answer by calling the tool dates.");

  /* Text before the output call is not part of the object */
  g_clear_pointer (&f->object, json_node_unref);
  g_clear_pointer (&f->finished, json_node_unref);
  g_ptr_array_set_size (f->deltas, 0);
  run_for_object (f, "Again?", dates_schema);
  assert_object (f, dates_answer);
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 3)), ==, dates_answer);
  g_assert_cmpuint (agent_message_get_n_tool_calls (memory_item (f, 3)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, provider, func) \
  g_test_add ("/structured/" path, Fixture, provider, fixture_setup, func, fixture_teardown)

  ADD ("openai-responses/object", "openai-responses", test_responses);
  ADD ("gemini/object", "gemini", test_gemini);
  ADD ("gemini/unsupported", "gemini", test_gemini_unsupported);
  ADD ("ollama/object", "ollama", test_ollama);
  ADD ("anthropic/forced-tool", "anthropic", test_anthropic);
  ADD ("anthropic/with-tools", "anthropic", test_anthropic_tools);
  ADD ("anthropic/thinking", "anthropic", test_anthropic_thinking);

  return g_test_run ();
}
