/* agent-test-answers.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-answers.h"
#include "agent-test-openai.h"

/* @text as a JSON string, quotes included */
static char *
quoted (const char *text)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), text);

  return json_to_string (node, FALSE);
}

/* An SSE event with an event: line of the data's type, as Anthropic and
 * the Responses API send them */
static void
add_typed (AgentTestResponse *response,
           const char        *type,
           const char        *json)
{
  g_autofree char *event = g_strdup_printf ("event: %s\ndata: %s\n\n", type, json);

  agent_test_response_add_bytes (response, event, -1);
}

static void
add_usage_member (GString    *json,
                  const char *name,
                  gint64      value)
{
  if (value >= 0)
    g_string_append_printf (json, ",\"%s\":%" G_GINT64_FORMAT, name, value);
}

static void
anthropic_begin (AgentTestResponse          *response,
                 const AgentTestAnswerUsage *usage)
{
  g_autoptr(GString) start = g_string_new ("{\"type\":\"message_start\",\"message\":{"
                                           "\"id\":\"msg_test\",\"type\":\"message\","
                                           "\"role\":\"assistant\",\"model\":\"test-model\","
                                           "\"content\":[],\"usage\":{\"output_tokens\":1");

  add_usage_member (start, "input_tokens", usage ? usage->input : 3);
  add_usage_member (start, "cache_read_input_tokens", usage ? usage->cache_read : -1);
  add_usage_member (start, "cache_creation_input_tokens", usage ? usage->cache_creation : -1);
  g_string_append (start, "}}}");
  agent_test_response_set_content_type (response, "text/event-stream");
  add_typed (response, "message_start", start->str);
}

static void
anthropic_end (AgentTestResponse          *response,
               const char                 *stop_reason,
               const AgentTestAnswerUsage *usage)
{
  g_autofree char *delta = g_strdup_printf ("{\"type\":\"message_delta\",\"delta\":{"
                                            "\"stop_reason\":\"%s\"},\"usage\":{"
                                            "\"output_tokens\":%" G_GINT64_FORMAT "}}",
                                            stop_reason,
                                            usage && usage->output >= 0 ? usage->output : 2);

  add_typed (response, "message_delta", delta);
  add_typed (response, "message_stop", "{\"type\":\"message_stop\"}");
}

static void
responses_begin (AgentTestResponse *response)
{
  agent_test_response_set_content_type (response, "text/event-stream");
  add_typed (response, "response.created",
             "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_test\","
             "\"model\":\"test-model\",\"status\":\"in_progress\",\"output\":[]}}");
}

static void
responses_end (AgentTestResponse          *response,
               const AgentTestAnswerUsage *usage)
{
  g_autofree char *completed = NULL;
  g_autoptr(GString) usage_json = g_string_new (NULL);

  g_string_append_printf (usage_json, "{\"input_tokens\":%" G_GINT64_FORMAT
                          ",\"output_tokens\":%" G_GINT64_FORMAT,
                          usage && usage->input >= 0 ? usage->input : 3,
                          usage && usage->output >= 0 ? usage->output : 2);
  if (usage != NULL && usage->cache_read >= 0)
    g_string_append_printf (usage_json, ",\"input_tokens_details\":{\"cached_tokens\":%"
                            G_GINT64_FORMAT "}", usage->cache_read);
  g_string_append (usage_json, "}");
  completed = g_strdup_printf ("{\"type\":\"response.completed\",\"response\":{"
                               "\"id\":\"resp_test\",\"model\":\"test-model\","
                               "\"status\":\"completed\",\"usage\":%s}}", usage_json->str);
  add_typed (response, "response.completed", completed);
}

AgentTestResponse *
agent_test_add_text_answer (AgentTestServer            *server,
                            const char                 *provider,
                            const char                 *text,
                            const AgentTestAnswerUsage *usage)
{
  g_autofree char *string = quoted (text);
  AgentTestResponse *response;

  if (g_str_equal (provider, "openai") && (usage == NULL || usage->cache_read < 0))
    {
      const char * const deltas[] = { text, NULL };

      return agent_test_openai_add_text_response (server, deltas,
                                                  usage && usage->input >= 0 ? usage->input : 3,
                                                  usage && usage->output >= 0 ? usage->output : 2);
    }
  if (g_str_equal (provider, "openai"))
    {
      /* The usage chunk with prompt_tokens_details */
      response = agent_test_openai_begin (server, "");
      agent_test_openai_add_text (response, text);
      agent_test_openai_add_finish (response, "stop");
      agent_test_response_add_sse_printf (response,
                                          "{\"id\":\"chatcmpl-test\",\"object\":"
                                          "\"chat.completion.chunk\",\"model\":\"test-model\","
                                          "\"choices\":[],\"usage\":{\"prompt_tokens\":%"
                                          G_GINT64_FORMAT ",\"completion_tokens\":%"
                                          G_GINT64_FORMAT ",\"total_tokens\":%" G_GINT64_FORMAT
                                          ",\"prompt_tokens_details\":{\"cached_tokens\":%"
                                          G_GINT64_FORMAT "}}}",
                                          usage->input, usage->output,
                                          usage->input + usage->output, usage->cache_read);
      agent_test_response_add_done (response);
      return response;
    }

  response = agent_test_server_add_response (server, 200);

  if (g_str_equal (provider, "anthropic"))
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":0,"
                                                "\"delta\":{\"type\":\"text_delta\","
                                                "\"text\":%s}}", string);

      anthropic_begin (response, usage);
      add_typed (response, "content_block_start",
                 "{\"type\":\"content_block_start\",\"index\":0,"
                 "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
      add_typed (response, "content_block_delta", delta);
      add_typed (response, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
      anthropic_end (response, "end_turn", usage);
    }
  else if (g_str_equal (provider, "openai-responses"))
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"response.output_text.delta\","
                                                "\"output_index\":0,\"content_index\":0,"
                                                "\"delta\":%s}", string);

      responses_begin (response);
      add_typed (response, "response.output_item.added",
                 "{\"type\":\"response.output_item.added\",\"output_index\":0,"
                 "\"item\":{\"id\":\"msg_test\",\"type\":\"message\",\"role\":\"assistant\","
                 "\"content\":[]}}");
      add_typed (response, "response.output_text.delta", delta);
      responses_end (response, usage);
    }
  else if (g_str_equal (provider, "gemini"))
    {
      g_autoptr(GString) chunk = g_string_new (NULL);

      g_string_append_printf (chunk, "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":%s}],"
                              "\"role\":\"model\"},\"finishReason\":\"STOP\"}],"
                              "\"usageMetadata\":{\"promptTokenCount\":%" G_GINT64_FORMAT
                              ",\"candidatesTokenCount\":%" G_GINT64_FORMAT,
                              string, usage && usage->input >= 0 ? usage->input : 3,
                              usage && usage->output >= 0 ? usage->output : 2);
      add_usage_member (chunk, "cachedContentTokenCount", usage ? usage->cache_read : -1);
      g_string_append (chunk, "},\"modelVersion\":\"test-model\"}");
      agent_test_response_set_content_type (response, "text/event-stream");
      agent_test_response_add_sse (response, chunk->str);
    }
  else if (g_str_equal (provider, "ollama"))
    {
      g_autofree char *line = g_strdup_printf ("{\"model\":\"test-model\",\"message\":{"
                                               "\"role\":\"assistant\",\"content\":%s},"
                                               "\"done\":false}\n", string);
      g_autofree char *last = g_strdup_printf ("{\"model\":\"test-model\",\"message\":{"
                                               "\"role\":\"assistant\",\"content\":\"\"},"
                                               "\"done\":true,\"done_reason\":\"stop\","
                                               "\"prompt_eval_count\":%" G_GINT64_FORMAT ","
                                               "\"eval_count\":%" G_GINT64_FORMAT "}\n",
                                               usage && usage->input >= 0 ? usage->input : 3,
                                               usage && usage->output >= 0 ? usage->output : 2);

      agent_test_response_set_content_type (response, "application/x-ndjson");
      agent_test_response_add_bytes (response, line, -1);
      agent_test_response_add_bytes (response, last, -1);
    }
  else
    g_assert_not_reached ();

  return response;
}

AgentTestResponse *
agent_test_add_call_answer (AgentTestServer *server,
                            const char      *provider,
                            const char      *id,
                            const char      *name,
                            const char      *arguments)
{
  g_autofree char *args = quoted (arguments);
  AgentTestResponse *response;

  if (g_str_equal (provider, "openai"))
    {
      const AgentTestToolChunk chunks[] = { { 0, id, name, arguments } };

      return agent_test_openai_add_tool_response (server, chunks, 1, 3, 2);
    }

  response = agent_test_server_add_response (server, 200);

  if (g_str_equal (provider, "anthropic"))
    {
      g_autofree char *start = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":0,"
                                                "\"content_block\":{\"type\":\"tool_use\","
                                                "\"id\":\"%s\",\"name\":\"%s\",\"input\":{}}}",
                                                id, name);
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":0,"
                                                "\"delta\":{\"type\":\"input_json_delta\","
                                                "\"partial_json\":%s}}", args);

      anthropic_begin (response, NULL);
      add_typed (response, "content_block_start", start);
      add_typed (response, "content_block_delta", delta);
      add_typed (response, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
      anthropic_end (response, "tool_use", NULL);
    }
  else if (g_str_equal (provider, "openai-responses"))
    {
      g_autofree char *added = g_strdup_printf ("{\"type\":\"response.output_item.added\","
                                                "\"output_index\":0,\"item\":{\"id\":\"fc_%s\","
                                                "\"type\":\"function_call\",\"call_id\":\"%s\","
                                                "\"name\":\"%s\",\"arguments\":\"\"}}",
                                                id, id, name);
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"response.function_call_arguments."
                                                "delta\",\"output_index\":0,\"delta\":%s}", args);
      g_autofree char *done = g_strdup_printf ("{\"type\":\"response.output_item.done\","
                                               "\"output_index\":0,\"item\":{\"id\":\"fc_%s\","
                                               "\"type\":\"function_call\",\"call_id\":\"%s\","
                                               "\"name\":\"%s\",\"arguments\":%s}}",
                                               id, id, name, args);

      responses_begin (response);
      add_typed (response, "response.output_item.added", added);
      add_typed (response, "response.function_call_arguments.delta", delta);
      add_typed (response, "response.output_item.done", done);
      responses_end (response, NULL);
    }
  else if (g_str_equal (provider, "gemini"))
    {
      g_autofree char *chunk = g_strdup_printf ("{\"candidates\":[{\"content\":{\"parts\":["
                                                "{\"functionCall\":{\"name\":\"%s\","
                                                "\"args\":%s}}],\"role\":\"model\"},"
                                                "\"finishReason\":\"STOP\"}],"
                                                "\"usageMetadata\":{\"promptTokenCount\":3,"
                                                "\"candidatesTokenCount\":2}}",
                                                name, arguments);

      agent_test_response_set_content_type (response, "text/event-stream");
      agent_test_response_add_sse (response, chunk);
    }
  else if (g_str_equal (provider, "ollama"))
    {
      g_autofree char *line = g_strdup_printf ("{\"model\":\"test-model\",\"message\":{"
                                               "\"role\":\"assistant\",\"content\":\"\","
                                               "\"tool_calls\":[{\"id\":\"%s\",\"function\":{"
                                               "\"name\":\"%s\",\"arguments\":%s}}]},"
                                               "\"done\":false}\n", id, name, arguments);

      agent_test_response_set_content_type (response, "application/x-ndjson");
      agent_test_response_add_bytes (response, line, -1);
      agent_test_response_add_bytes (response, "{\"model\":\"test-model\",\"message\":{"
                                     "\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
                                     "\"done_reason\":\"stop\",\"prompt_eval_count\":3,"
                                     "\"eval_count\":2}\n", -1);
    }
  else
    g_assert_not_reached ();

  return response;
}

/* The body of the request @server received at @index, an object */
JsonObject *
agent_test_request_object (AgentTestServer *server,
                           guint            index)
{
  JsonNode *body = agent_test_server_get_request_body (server, index);

  g_assert_nonnull (body);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (body));
  return json_node_get_object (body);
}

/* One turn of @session on @text, which must succeed */
void
agent_test_run_turn (AgentTestSession *session,
                     const char       *text)
{
  agent_test_turn_clear (&session->turn);
  agent_test_turn_run (&session->turn, session->session, text, NULL);
  g_assert_no_error (session->turn.error);
}
