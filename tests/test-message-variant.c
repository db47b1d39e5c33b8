/* test-message-variant.c — AgentMessage as a GVariant and back
 * (agent_message_to_variant, agent_message_new_from_variant): every kind
 * of message survives the trip, and bad variants fail naming what was wrong
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <agent.h>

/* @message through the codec, and through D-Bus's wire format */
static AgentMessage *
round_trip (AgentMessage *message)
{
  g_autoptr(GVariant) variant = g_variant_ref_sink (agent_message_to_variant (message));
  g_autoptr(GBytes) bytes = g_variant_get_data_as_bytes (variant);
  g_autoptr(GVariant) read = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT,
                                                                          bytes, FALSE));
  g_autoptr(GError) error = NULL;
  AgentMessage *copy;

  g_assert_true (g_variant_is_of_type (variant, G_VARIANT_TYPE_VARDICT));
  copy = agent_message_new_from_variant (read, &error);
  g_assert_no_error (error);
  g_assert_nonnull (copy);
  return copy;
}

static void
assert_json (JsonNode   *node,
             const char *expected)
{
  g_autoptr(JsonNode) wanted = json_from_string (expected, NULL);

  g_assert_nonnull (node);
  g_assert_true (json_node_equal (node, wanted));
}

static void
test_text (void)
{
  g_autoptr(AgentMessage) system = agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hé, “quotes” ✓");
  g_autoptr(AgentMessage) empty = agent_message_new (AGENT_MESSAGE_ROLE_USER, NULL);
  g_autoptr(AgentMessage) copy = NULL;

  copy = round_trip (system);
  g_assert_cmpint (agent_message_get_role (copy), ==, AGENT_MESSAGE_ROLE_SYSTEM);
  g_assert_cmpstr (agent_message_get_content (copy), ==, "Be brief.");
  g_clear_object (&copy);

  copy = round_trip (user);
  g_assert_cmpint (agent_message_get_role (copy), ==, AGENT_MESSAGE_ROLE_USER);
  g_assert_cmpstr (agent_message_get_content (copy), ==, "Hé, “quotes” ✓");
  g_assert_null (agent_message_get_reasoning (copy));
  g_assert_cmpuint (agent_message_get_n_tool_calls (copy), ==, 0);
  g_clear_object (&copy);

  copy = round_trip (empty);
  g_assert_cmpint (agent_message_get_role (copy), ==, AGENT_MESSAGE_ROLE_USER);
  g_assert_true (agent_message_get_content (copy) == NULL ||
                 agent_message_get_content (copy)[0] == '\0');
  g_assert_finalize_object (g_steal_pointer (&copy));
}

static void
test_parts (void)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', 0, 1, 2, 3 };
  g_autoptr(GBytes) image_data = g_bytes_new_static (png, sizeof png);
  g_autoptr(GBytes) pdf_data = g_bytes_new_static ("%PDF-1.4", 8);
  g_autoptr(AgentContentPart) first = agent_content_part_new_text ("Look at this:");
  g_autoptr(AgentContentPart) image = agent_content_part_new_image ("image/png", image_data);
  g_autoptr(AgentContentPart) second = agent_content_part_new_text ("and this");
  g_autoptr(AgentContentPart) pdf = agent_content_part_new_file ("application/pdf", pdf_data,
                                                                 "paper.pdf");
  g_autoptr(AgentContentPart) remote = agent_content_part_new_for_uri (AGENT_CONTENT_PART_KIND_IMAGE,
                                                                       "image/jpeg",
                                                                       "https://example.com/a.jpg");
  AgentContentPart *parts[] = { first, image, second, pdf, remote };
  g_autoptr(AgentMessage) message = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts,
                                                                  G_N_ELEMENTS (parts));
  g_autoptr(AgentMessage) copy = round_trip (message);
  g_autoptr(GListModel) copied = agent_message_list_parts (copy);
  g_autoptr(AgentContentPart) part = NULL;

  g_assert_cmpstr (agent_message_get_content (copy), ==, agent_message_get_content (message));
  g_assert_cmpuint (g_list_model_get_n_items (copied), ==, 5);

  part = g_list_model_get_item (copied, 0);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_TEXT);
  g_assert_cmpstr (agent_content_part_get_text (part), ==, "Look at this:");
  g_clear_object (&part);

  part = g_list_model_get_item (copied, 1);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_IMAGE);
  g_assert_cmpstr (agent_content_part_get_mime_type (part), ==, "image/png");
  g_assert_true (g_bytes_equal (agent_content_part_get_data (part), image_data));
  g_clear_object (&part);

  part = g_list_model_get_item (copied, 2);
  g_assert_cmpstr (agent_content_part_get_text (part), ==, "and this");
  g_clear_object (&part);

  part = g_list_model_get_item (copied, 3);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_FILE);
  g_assert_cmpstr (agent_content_part_get_name (part), ==, "paper.pdf");
  g_assert_cmpstr (agent_content_part_get_mime_type (part), ==, "application/pdf");
  g_assert_true (g_bytes_equal (agent_content_part_get_data (part), pdf_data));
  g_clear_object (&part);

  part = g_list_model_get_item (copied, 4);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_IMAGE);
  g_assert_cmpstr (agent_content_part_get_uri (part), ==, "https://example.com/a.jpg");
  g_assert_null (agent_content_part_get_data (part));
}

static void
test_assistant (void)
{
  g_autoptr(AgentMessage) message = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT,
                                                       "Let me check.");
  g_autoptr(AgentToolCall) weather = agent_tool_call_new ("call_1", "weather",
                                                          "{\"city\":\"Paris\"}");
  g_autoptr(AgentToolCall) time = agent_tool_call_new ("call_2", "time", "{}");
  g_autoptr(JsonNode) call_data = json_from_string ("{\"gemini\":{\"thoughtSignature\":\"c2ln\"}}",
                                                    NULL);
  g_autoptr(JsonNode) message_data = json_from_string ("{\"anthropic\":{\"thinking\":[{\"signature\":"
                                                       "\"abc\",\"n\":12345678901234}]}}", NULL);
  g_autoptr(AgentMessage) copy = NULL;
  AgentToolCall *call;
  AgentUsage *usage;

  agent_tool_call_set_provider_data (weather, call_data);
  agent_message_add_tool_call (message, weather);
  agent_message_add_tool_call (message, time);
  agent_message_set_provider_data (message, message_data);

  copy = round_trip (message);
  g_assert_cmpint (agent_message_get_role (copy), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpstr (agent_message_get_content (copy), ==, "Let me check.");
  g_assert_cmpuint (agent_message_get_n_tool_calls (copy), ==, 2);
  call = agent_message_get_tool_call (copy, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_name (call), ==, "weather");
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"city\":\"Paris\"}");
  g_assert_cmpuint (agent_tool_call_get_index (call), ==, 0);
  assert_json (agent_tool_call_get_provider_data (call),
               "{\"gemini\":{\"thoughtSignature\":\"c2ln\"}}");
  call = agent_message_get_tool_call (copy, 1);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_2");
  g_assert_cmpstr (agent_tool_call_get_name (call), ==, "time");
  g_assert_cmpuint (agent_tool_call_get_index (call), ==, 1);
  g_assert_null (agent_tool_call_get_provider_data (call));
  assert_json (agent_message_get_provider_data (copy),
               "{\"anthropic\":{\"thinking\":[{\"signature\":\"abc\",\"n\":12345678901234}]}}");
  usage = agent_message_get_usage (copy);
  g_assert_null (usage);
}

/* What a step's answer carries besides its text: read from the variant
 * the service sends back */
static void
test_answer_fields (void)
{
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(AgentMessage) copy = NULL;
  g_autoptr(AgentMessage) again = NULL;
  g_autoptr(GError) error = NULL;
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "role", "s", "assistant");
  g_variant_dict_insert (&dict, "reasoning", "s", "Thinking…");
  g_variant_dict_insert (&dict, "refusal", "s", "No.");
  g_variant_dict_insert (&dict, "finish-reason", "s", "stop");
  g_variant_dict_insert (&dict, "response-id", "s", "resp_1");
  g_variant_dict_insert (&dict, "model", "s", "gpt-test");
  g_variant_dict_insert (&dict, "prompt-tokens", "x", (gint64) 10);
  g_variant_dict_insert (&dict, "completion-tokens", "x", (gint64) 5);
  g_variant_dict_insert (&dict, "total-tokens", "x", (gint64) 15);
  g_variant_dict_insert (&dict, "a-key-of-a-later-version", "u", 7);
  variant = g_variant_ref_sink (g_variant_dict_end (&dict));

  copy = agent_message_new_from_variant (variant, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_message_get_reasoning (copy), ==, "Thinking…");
  g_assert_cmpstr (agent_message_get_refusal (copy), ==, "No.");
  g_assert_cmpstr (agent_message_get_finish_reason (copy), ==, "stop");
  g_assert_cmpstr (agent_message_get_response_id (copy), ==, "resp_1");
  g_assert_cmpstr (agent_message_get_model (copy), ==, "gpt-test");
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_message_get_usage (copy)), ==, 10);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_message_get_usage (copy)), ==, 5);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (copy)), ==, 15);

  again = round_trip (copy);
  g_assert_cmpstr (agent_message_get_reasoning (again), ==, "Thinking…");
  g_assert_cmpstr (agent_message_get_finish_reason (again), ==, "stop");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (again)), ==, 15);
}

static void
test_tool_result (void)
{
  g_autoptr(AgentMessage) result = agent_message_new_tool_result ("call_1", "weather",
                                                                  "{\"error\":\"no city\"}", TRUE);
  g_autoptr(AgentMessage) fine = agent_message_new_tool_result ("call_2", "time", "12:00", FALSE);
  g_autoptr(AgentMessage) summary = agent_message_new_summary ("Earlier: weather talk.", 2, 9);
  g_autoptr(AgentMessage) copy = NULL;

  copy = round_trip (result);
  g_assert_cmpint (agent_message_get_role (copy), ==, AGENT_MESSAGE_ROLE_TOOL);
  g_assert_cmpstr (agent_message_get_tool_call_id (copy), ==, "call_1");
  g_assert_cmpstr (agent_message_get_tool_name (copy), ==, "weather");
  g_assert_cmpstr (agent_message_get_content (copy), ==, "{\"error\":\"no city\"}");
  g_assert_true (agent_message_is_error (copy));
  g_clear_object (&copy);

  copy = round_trip (fine);
  g_assert_false (agent_message_is_error (copy));
  g_assert_cmpstr (agent_message_get_content (copy), ==, "12:00");
  g_clear_object (&copy);

  copy = round_trip (summary);
  g_assert_true (agent_message_is_summary (copy));
  g_assert_cmpuint (agent_message_get_summary_start (copy), ==, 2);
  g_assert_cmpuint (agent_message_get_summary_end (copy), ==, 9);
  g_assert_cmpstr (agent_message_get_content (copy), ==, "Earlier: weather talk.");
}

/* @text, a GVariant text, fails naming @expected */
static void
assert_refused (const char *text,
                const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) variant = g_variant_parse (NULL, text, NULL, NULL, &error);
  g_autoptr(AgentMessage) message = NULL;

  g_assert_no_error (error);
  message = agent_message_new_from_variant (variant, &error);
  g_assert_null (message);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  if (strstr (error->message, expected) == NULL)
    g_error ("“%s” does not name “%s”", error->message, expected);
}

static void
test_errors (void)
{
  assert_refused ("@a{sv} {}", "The message has no “role”");
  assert_refused ("{'role': <'robot'>}", "robot");
  assert_refused ("{'role': <5>}", "“role” is of type “i”, not “s”");
  assert_refused ("@a{sv} {'role': <'user'>, 'parts': <'text'>}", "“parts”");
  assert_refused ("{'role': <'user'>, 'parts': <[{'kind': <'video'>}]>}", "video");
  assert_refused ("{'role': <'user'>, 'parts': <[{'kind': <'image'>}]>}", "mime-type");
  assert_refused ("{'role': <'user'>, 'parts': <[{'kind': <'text'>, 'text': <true>}]>}",
                  "Part 1: The message's “text”");
  assert_refused ("{'role': <'assistant'>, 'provider-data': <'{oops'>}", "“provider-data” is not JSON");
  assert_refused ("{'role': <'assistant'>, 'tool-calls': <[('id', '', '{}')]>}", "no name");
  assert_refused ("{'role': <'assistant'>, 'tool-calls': <[('id', 'a', '{}')]>, "
                  "'tool-call-details': <@aa{sv} []>}", "tool-call-details");
  assert_refused ("{'role': <'assistant'>, 'tool-calls': <[('id', 'a', '{}')]>, "
                  "'tool-call-details': <[{'provider-data': <'[1,'>}]>}", "provider-data");
  assert_refused ("{'role': <'tool'>}", "tool-call-id");
  assert_refused ("{'role': <'assistant'>, 'total-tokens': <'many'>}", "total-tokens");
  assert_refused ("{'role': <'user'>, 'is-error': <1>}", "is-error");
}

static void
test_not_a_dictionary (void)
{
  g_autoptr(GVariant) variant = g_variant_ref_sink (g_variant_new ("(s)", "user"));
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_message_new_from_variant (variant, &error);

  g_assert_null (message);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "(s)"));
}

/* Counts beyond the bounds are refused before anything is built */
static void
test_bounds (void)
{
  GVariantBuilder parts;
  GVariantBuilder calls;
  GVariantDict dict;
  g_autoptr(GVariant) many_parts = NULL;
  g_autoptr(GVariant) many_calls = NULL;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  g_variant_builder_init (&parts, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < 5000; i++)
    {
      GVariantDict part;

      g_variant_dict_init (&part, NULL);
      g_variant_dict_insert (&part, "kind", "s", "text");
      g_variant_dict_insert (&part, "text", "s", "x");
      g_variant_builder_add_value (&parts, g_variant_dict_end (&part));
    }
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "role", "s", "user");
  g_variant_dict_insert_value (&dict, "parts", g_variant_builder_end (&parts));
  many_parts = g_variant_ref_sink (g_variant_dict_end (&dict));
  message = agent_message_new_from_variant (many_parts, &error);
  g_assert_null (message);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "5000 parts"));
  g_clear_error (&error);

  g_variant_builder_init (&calls, G_VARIANT_TYPE ("a(sss)"));
  for (guint i = 0; i < 300; i++)
    g_variant_builder_add (&calls, "(sss)", "id", "name", "{}");
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "role", "s", "assistant");
  g_variant_dict_insert_value (&dict, "tool-calls", g_variant_builder_end (&calls));
  many_calls = g_variant_ref_sink (g_variant_dict_end (&dict));
  message = agent_message_new_from_variant (many_calls, &error);
  g_assert_null (message);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "300 tool calls"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/message-variant/text", test_text);
  g_test_add_func ("/message-variant/parts", test_parts);
  g_test_add_func ("/message-variant/assistant", test_assistant);
  g_test_add_func ("/message-variant/answer-fields", test_answer_fields);
  g_test_add_func ("/message-variant/tool-result", test_tool_result);
  g_test_add_func ("/message-variant/errors", test_errors);
  g_test_add_func ("/message-variant/not-a-dictionary", test_not_a_dictionary);
  g_test_add_func ("/message-variant/bounds", test_bounds);

  return g_test_run ();
}
