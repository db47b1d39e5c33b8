/* agent-test-openai.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-openai.h"
#include "agent-test-util.h"

static void
add_chunk (AgentTestResponse *response,
           JsonBuilder       *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *json = json_to_string (root, FALSE);

  agent_test_response_add_sse (response, json);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* Opens {"id":…,"object":…,"model":…,"choices":[ */
static JsonBuilder *
chunk_begin (void)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  add_string (builder, "id", "chatcmpl-test");
  add_string (builder, "object", "chat.completion.chunk");
  add_string (builder, "model", "test-model");
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  return builder;
}

/* Opens {"index":0,"delta":{ in the choices */
static JsonBuilder *
choice_begin (void)
{
  JsonBuilder *builder = chunk_begin ();

  json_builder_begin_object (builder);
  add_int (builder, "index", 0);
  json_builder_set_member_name (builder, "delta");
  json_builder_begin_object (builder);
  return builder;
}

/* Closes the delta with the finish reason (JSON null if NULL) and adds the chunk. */
static void
choice_end (AgentTestResponse *response,
            JsonBuilder       *builder,
            const char        *finish_reason)
{
  g_autoptr(JsonBuilder) owned = builder;

  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "finish_reason");
  if (finish_reason != NULL)
    json_builder_add_string_value (builder, finish_reason);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  add_chunk (response, builder);
}

/* The first delta: the role, with @content if not NULL (OpenAI sends ""). */
void
agent_test_openai_add_role (AgentTestResponse *response,
                            const char        *content)
{
  JsonBuilder *builder = choice_begin ();

  add_string (builder, "role", "assistant");
  if (content != NULL)
    add_string (builder, "content", content);
  choice_end (response, builder, NULL);
}

/* A delta with one string field */
static void
add_delta (AgentTestResponse *response,
           const char        *field,
           const char        *text)
{
  JsonBuilder *builder = choice_begin ();

  add_string (builder, field, text);
  choice_end (response, builder, NULL);
}

void
agent_test_openai_add_text (AgentTestResponse *response,
                            const char        *text)
{
  add_delta (response, "content", text);
}

/* Reasoning, as DeepSeek and vLLM send it */
void
agent_test_openai_add_reasoning (AgentTestResponse *response,
                                 const char        *text)
{
  add_delta (response, "reasoning_content", text);
}

void
agent_test_openai_add_tool_call (AgentTestResponse *response,
                                 guint              index,
                                 const char        *id,
                                 const char        *name,
                                 const char        *arguments)
{
  JsonBuilder *builder = choice_begin ();

  json_builder_set_member_name (builder, "tool_calls");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  add_int (builder, "index", index);
  if (id != NULL)
    {
      add_string (builder, "id", id);
      add_string (builder, "type", "function");
    }
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  if (name != NULL)
    add_string (builder, "name", name);
  add_string (builder, "arguments", arguments != NULL ? arguments : "");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  choice_end (response, builder, NULL);
}

void
agent_test_openai_add_tool_chunk (AgentTestResponse        *response,
                                  const AgentTestToolChunk *chunk)
{
  agent_test_openai_add_tool_call (response, chunk->index, chunk->id, chunk->name,
                                   chunk->arguments);
}

/* An empty delta with the finish reason. */
void
agent_test_openai_add_finish (AgentTestResponse *response,
                              const char        *finish_reason)
{
  choice_end (response, choice_begin (), finish_reason);
}

/* The usage chunk of stream_options.include_usage: no choices. */
void
agent_test_openai_add_usage (AgentTestResponse *response,
                             gint64             prompt_tokens,
                             gint64             completion_tokens)
{
  g_autoptr(JsonBuilder) builder = chunk_begin ();

  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "usage");
  json_builder_begin_object (builder);
  add_int (builder, "prompt_tokens", prompt_tokens);
  add_int (builder, "completion_tokens", completion_tokens);
  add_int (builder, "total_tokens", prompt_tokens + completion_tokens);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  add_chunk (response, builder);
}

/* The finish reason, the usage, then [DONE]. */
void
agent_test_openai_add_end (AgentTestResponse *response,
                           const char        *finish_reason,
                           gint64             prompt_tokens,
                           gint64             completion_tokens)
{
  agent_test_openai_add_finish (response, finish_reason);
  agent_test_openai_add_usage (response, prompt_tokens, completion_tokens);
  agent_test_response_add_done (response);
}

/* An "openai" provider talking to @server, with the model "test-model". */
AgentProvider *
agent_test_openai_provider_new (AgentTestServer *server)
{
  AgentProvider *provider = agent_provider_new ("openai", NULL);

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (server));
  agent_provider_set_model (provider, "test-model");
  return provider;
}

/* A 200 response that starts with the role (see agent_test_openai_add_role()). */
AgentTestResponse *
agent_test_openai_begin (AgentTestServer *server,
                         const char      *content)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  agent_test_openai_add_role (response, content);
  return response;
}

/* A whole answer: the role with "", one delta per string of @deltas, "stop",
 * the usage and [DONE]. */
AgentTestResponse *
agent_test_openai_add_text_response (AgentTestServer    *server,
                                     const char * const *deltas,
                                     gint64              prompt_tokens,
                                     gint64              completion_tokens)
{
  AgentTestResponse *response = agent_test_openai_begin (server, "");

  for (guint i = 0; deltas[i] != NULL; i++)
    agent_test_openai_add_text (response, deltas[i]);
  agent_test_openai_add_end (response, "stop", prompt_tokens, completion_tokens);
  return response;
}

/* A whole answer that calls tools: the role with "", the fragments in the
 * order given, "tool_calls", the usage and [DONE]. */
AgentTestResponse *
agent_test_openai_add_tool_response (AgentTestServer          *server,
                                     const AgentTestToolChunk *chunks,
                                     guint                     n_chunks,
                                     gint64                    prompt_tokens,
                                     gint64                    completion_tokens)
{
  AgentTestResponse *response = agent_test_openai_begin (server, "");

  for (guint i = 0; i < n_chunks; i++)
    agent_test_openai_add_tool_chunk (response, &chunks[i]);
  agent_test_openai_add_end (response, "tool_calls", prompt_tokens, completion_tokens);
  return response;
}

/* Looking at the requests the server received */

/* The body of request @index, which must be a JSON object. */
JsonObject *
agent_test_openai_get_request (AgentTestServer *server,
                               guint            index)
{
  JsonNode *body = agent_test_server_get_request_body (server, index);

  g_assert_nonnull (body);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (body));
  return json_node_get_object (body);
}

JsonArray *
agent_test_openai_get_messages (AgentTestServer *server,
                                guint            index)
{
  JsonArray *messages = json_object_get_array_member (agent_test_openai_get_request (server, index),
                                                      "messages");

  g_assert_nonnull (messages);
  return messages;
}

JsonObject *
agent_test_openai_get_message (AgentTestServer *server,
                               guint            index,
                               guint            nth)
{
  JsonArray *messages = agent_test_openai_get_messages (server, index);

  g_assert_cmpuint (nth, <, json_array_get_length (messages));
  return json_array_get_object_element (messages, nth);
}

/* A string member of message @nth of request @index (see agent_test_get_string()). */
const char *
agent_test_openai_get_message_string (AgentTestServer *server,
                                      guint            index,
                                      guint            nth,
                                      const char      *member)
{
  return agent_test_get_string (agent_test_openai_get_message (server, index, nth), member);
}

/* The content of the last message, which must be the user's. */
const char *
agent_test_openai_get_last_user_content (AgentTestServer *server,
                                         guint            index)
{
  JsonArray *messages = agent_test_openai_get_messages (server, index);
  guint n = json_array_get_length (messages);
  JsonObject *message;

  g_assert_cmpuint (n, >, 0);
  message = json_array_get_object_element (messages, n - 1);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "user");
  return agent_test_get_string (message, "content");
}

/* The tool message answering @call_id; the test fails if there is none. */
JsonObject *
agent_test_openai_find_tool_message (AgentTestServer *server,
                                     guint            index,
                                     const char      *call_id)
{
  JsonArray *messages = agent_test_openai_get_messages (server, index);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (agent_test_get_string (message, "role"), "tool") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (message, "tool_call_id", NULL),
                     call_id) == 0)
        return message;
    }

  g_error ("No tool message for %s in request %u", call_id, index);
  return NULL;
}

/* The content of the tool message answering @call_id in request @index. */
const char *
agent_test_openai_tool_message_content (AgentTestServer *server,
                                        guint            index,
                                        const char      *call_id)
{
  return agent_test_get_string (agent_test_openai_find_tool_message (server, index, call_id),
                                "content");
}

/* array[nth].function.member, in a message's tool_calls or a request's tools. */
const char *
agent_test_openai_function_string (JsonArray  *array,
                                   guint       nth,
                                   const char *member)
{
  JsonObject *function;

  g_assert_cmpuint (nth, <, json_array_get_length (array));
  function = json_object_get_object_member (json_array_get_object_element (array, nth),
                                            "function");
  g_assert_nonnull (function);
  return agent_test_get_string (function, member);
}
