/* agent-ollama.c — Ollama's native chat API
 *
 * `POST {base}/api/chat` with `stream: true`, answered with NDJSON: one
 * object per line, each carrying a piece of the assistant message
 * (`message.content`, `message.thinking`, whole `message.tool_calls`), the
 * last one `"done": true` with `done_reason` and the token counters.
 *
 * Unlike the OpenAI-compatible `/v1` endpoint, the native API streams the
 * model's thinking apart from its answer, takes `think` to turn it on or
 * off, and reports why generation stopped ("stop", "length", "load", …).
 *
 * No API key is needed for a local server; when one is set (Ollama behind
 * a proxy, or ollama.com), it is sent as a bearer token.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "providers/agent-openai-chat-private.h"
#include "providers/agent-provider-parts-private.h"
#include "providers/agent-provider-settings-private.h"
#include "transport/agent-provider-private.h"
#include "messages/agent-usage-private.h"
#include "tools/agent-tool.h"
#include "messages/agent-tool-call-private.h"
#include "wire/agent-wire-util-private.h"
#include "providers/agent-output-private.h"
#include "models/agent-model-info.h"

/* Request */

/* Ollama wants the arguments as a JSON object. Those the model sent are
 * written back verbatim (as raw JSON, so that no number is reformatted);
 * "" (a call without arguments) is {}; anything that is not a JSON object
 * goes back as the string it is, for the server to judge, rather than
 * failing the request. */
static cJSON *
arguments_to_json (AgentToolCall *call)
{
  const char *arguments = call->arguments->str;
  cJSON *written;

  if (arguments[0] == '\0')
    return cJSON_CreateObject ();

  if ((written = _agent_json_raw_object (arguments)) != NULL)
    return written;

  return cJSON_CreateString (arguments);
}

static cJSON *
tool_call_to_json (AgentToolCall *call)
{
  cJSON *item = cJSON_CreateObject ();
  cJSON *function = cJSON_CreateObject ();

  /* The id is the one the model gave, or the one the session gave a call
   * without one; servers that know ids match results with it, older ones
   * ignore it. */
  if (call->id != NULL)
    cJSON_AddStringToObject (item, "id", call->id);
  cJSON_AddStringToObject (function, "name", call->name ? call->name : "");
  cJSON_AddItemToObject (function, "arguments", arguments_to_json (call));
  cJSON_AddItemToObject (item, "function", function);

  return item;
}

/* /api/chat takes images only, as an "images" array of base64 beside the
 * text (no URLs); a text document goes into the text. */
static gboolean
ollama_accepts (AgentContentPart *part,
                AgentMessageRole  role)
{
  const char *mime_type = agent_content_part_get_mime_type (part);

  if (agent_content_part_get_data (part) == NULL)
    return FALSE;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    return g_ascii_strcasecmp (mime_type, "image/png") == 0 ||
           g_ascii_strcasecmp (mime_type, "image/jpeg") == 0 ||
           g_ascii_strcasecmp (mime_type, "image/webp") == 0;

  return _agent_content_part_is_text_file (part);
}

/* A user message with attachments: its text (with the text documents in
 * their place) and its images */
static void
add_user_parts (cJSON        *item,
                AgentMessage *message)
{
  g_autoptr(GListModel) parts = agent_message_list_parts (message);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = g_list_model_get_n_items (parts);
  cJSON *images = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

      if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
        g_string_append (text, agent_content_part_get_text (part));
      else if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
        {
          /* Kept with the part, which the request's messages hold */
          const char *base64 = _agent_part_get_sent_base64 (part, NULL);

          if (images == NULL)
            images = cJSON_CreateArray ();
          cJSON_AddItemToArray (images, cJSON_CreateStringReference (base64));
        }
      else
        {
          g_autofree char *file_text = _agent_content_part_dup_file_text (part);

          if (text->len > 0)
            g_string_append (text, "\n\n");
          g_string_append (text, file_text);
        }
    }

  cJSON_AddStringToObject (item, "content", text->str);
  if (images != NULL)
    cJSON_AddItemToObject (item, "images", images);
}

static cJSON *
message_to_json (AgentMessage *message)
{
  cJSON *item = cJSON_CreateObject ();
  const char *content = agent_message_get_content (message);

  switch (agent_message_get_role (message))
    {
    case AGENT_MESSAGE_ROLE_SYSTEM:
      cJSON_AddStringToObject (item, "role", "system");
      cJSON_AddStringToObject (item, "content", content ? content : "");
      break;

    case AGENT_MESSAGE_ROLE_USER:
      cJSON_AddStringToObject (item, "role", "user");
      if (agent_message_get_n_attachments (message) > 0)
        add_user_parts (item, message);
      else
        cJSON_AddStringToObject (item, "content", content ? content : "");
      break;

    case AGENT_MESSAGE_ROLE_ASSISTANT:
      {
        const char *reasoning = agent_message_get_reasoning (message);
        guint n_calls = agent_message_get_n_tool_calls (message);

        cJSON_AddStringToObject (item, "role", "assistant");
        cJSON_AddStringToObject (item, "content", content ? content : "");
        /* The thinking goes back as it came: templates that need it (to
         * continue after a tool call) use it, the others drop it. */
        if (reasoning != NULL && reasoning[0] != '\0')
          cJSON_AddStringToObject (item, "thinking", reasoning);

        if (n_calls > 0)
          {
            cJSON *calls = cJSON_AddArrayToObject (item, "tool_calls");

            for (guint i = 0; i < n_calls; i++)
              cJSON_AddItemToArray (calls,
                                    tool_call_to_json (agent_message_get_tool_call (message, i)));
          }
      }
      break;

    case AGENT_MESSAGE_ROLE_TOOL:
      {
        const char *tool_name = agent_message_get_tool_name (message);
        const char *tool_call_id = agent_message_get_tool_call_id (message);
        g_autofree char *described = NULL;

        /* Its images follow in a user message (_agent_openai_add_messages()) */
        if (agent_message_get_n_attachments (message) > 0)
          described = _agent_message_describe_attachments (message);

        cJSON_AddStringToObject (item, "role", "tool");
        if (described != NULL)
          {
            g_autofree char *text = g_strconcat (content ? content : "",
                                                 content && *content ? "\n" : "",
                                                 described, NULL);

            cJSON_AddStringToObject (item, "content", text);
          }
        else
          cJSON_AddStringToObject (item, "content", content ? content : "");
        if (tool_name != NULL)
          cJSON_AddStringToObject (item, "tool_name", tool_name);
        if (tool_call_id != NULL)
          cJSON_AddStringToObject (item, "tool_call_id", tool_call_id);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  return item;
}

static cJSON *
tool_to_json (AgentTool *tool)
{
  cJSON *item = cJSON_CreateObject ();
  cJSON *function = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "type", "function");
  cJSON_AddStringToObject (function, "name", agent_tool_get_name (tool));
  cJSON_AddStringToObject (function, "description", agent_tool_get_description (tool));
  cJSON_AddItemToObject (function, "parameters",
                         agent_node_to_cjson (agent_tool_get_parameters (tool)));
  cJSON_AddItemToObject (item, "function", function);

  return item;
}

/* gpt-oss (and models built on it) takes a thinking level rather than a
 * switch, and cannot turn thinking off. */
static gboolean
takes_thinking_levels (const char *model)
{
  return model != NULL && strstr (model, "gpt-oss") != NULL;
}

/* `think`: false for NONE; for LOW/MEDIUM/HIGH, the level's name for the
 * models that take levels (gpt-oss) and true for the others: some server
 * versions refuse a level for a model without levels, where others take it
 * as true; nothing for DEFAULT (the model's own default). */
static void
add_think (cJSON              *root,
           const AgentRequest *request)
{
  static const char * const levels[] = {
    [AGENT_REASONING_EFFORT_LOW] = "low",
    [AGENT_REASONING_EFFORT_MEDIUM] = "medium",
    [AGENT_REASONING_EFFORT_HIGH] = "high",
  };
  AgentReasoningEffort effort = agent_provider_get_reasoning_effort (request->provider);

  /* A model that cannot think refuses the switch, even off (Ollama:
   * "… does not support thinking") */
  if (request->capabilities != 0 && !(request->capabilities & AGENT_MODEL_CAPABILITY_THINKING))
    return;

  switch (effort)
    {
    case AGENT_REASONING_EFFORT_NONE:
      cJSON_AddFalseToObject (root, "think");
      break;

    case AGENT_REASONING_EFFORT_LOW:
    case AGENT_REASONING_EFFORT_MEDIUM:
    case AGENT_REASONING_EFFORT_HIGH:
      if (takes_thinking_levels (request->model))
        cJSON_AddStringToObject (root, "think", levels[effort]);
      else
        cJSON_AddTrueToObject (root, "think");
      break;

    case AGENT_REASONING_EFFORT_DEFAULT:
    default:
      break;
    }
}

static GBytes *
ollama_build_body (const AgentRequest  *request,
                   GError             **error)
{
  g_autoptr(cJSON) root = NULL;
  guint max_tokens;

  if (!_agent_request_check_parts (request, "Ollama", ollama_accepts, error))
    return NULL;

  root = cJSON_CreateObject ();
  if (request->model != NULL)
    cJSON_AddStringToObject (root, "model", request->model);
  _agent_openai_add_messages (root, request, message_to_json, tool_to_json, ollama_accepts);

  cJSON_AddTrueToObject (root, "stream");

  if ((max_tokens = agent_provider_get_max_tokens (request->provider)) > 0)
    cJSON_AddNumberToObject (_agent_json_object_member (root, "options"), "num_predict",
                             max_tokens);

  add_think (root, request);
  if (!_agent_settings_add_ollama (root, request, error))
    return NULL;
  _agent_output_add_ollama (root, request);
  if (!_agent_settings_merge_options (root, request, "Ollama", "messages", error))
    return NULL;

  return _agent_json_print_body (root, error);
}

static char *
ollama_build_path (const AgentRequest *request)
{
  return g_strdup ("/api/chat");
}

static void
ollama_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
  _agent_provider_add_bearer_auth (provider, headers);
}

/* Stream */

typedef struct
{
  AgentAccumulator *accumulator;
  AgentJsonParser  *parser;
  const char * const *secrets;   /* redacted from what errors quote */
  /* Tool calls seen so far, over every line */
  gint64            n_calls;
  gboolean          saw_event;   /* a line with a message */
} OllamaDecoder;

static gpointer
ollama_decoder_new (AgentAccumulator   *accumulator,
                    const char * const *secrets)
{
  OllamaDecoder *self = g_new0 (OllamaDecoder, 1);

  self->accumulator = accumulator;
  self->secrets = secrets;
  self->parser = agent_json_parser_new ();
  return self;
}

static void
ollama_decoder_free (gpointer data)
{
  OllamaDecoder *self = data;

  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_free (self);
}

/* Calls come whole, arguments as a JSON object, and usually without an id:
 * each element is a call of its own, keyed by its position over the whole
 * stream (several lines may carry calls). Newer servers also send an id
 * and function.index; the id is kept, and the index, numbered over the
 * stream too, would add nothing to the position. */
static void
decode_tool_calls (OllamaDecoder   *self,
                   const AgentJson *tool_calls)
{
  AgentJsonIter iter;
  AgentJson call;

  agent_json_iter_init (&iter, tool_calls);
  while (agent_json_iter_next (&iter, NULL, NULL, &call))
    {
      AgentJson function = agent_json_member (&call, "function");
      AgentJson arguments = agent_json_member (&function, "arguments");
      AgentJsonKind kind = agent_json_kind (&arguments);
      g_autofree char *serialized = NULL;
      const char *fragment = NULL;
      gsize len = 0;

      if (kind == AGENT_JSON_OBJECT || kind == AGENT_JSON_ARRAY)
        {
          fragment = serialized = agent_json_serialize (&arguments);
          len = strlen (serialized);
        }
      else if (kind == AGENT_JSON_STRING)
        fragment = agent_json_string (&arguments, &len);  /* as an OpenAI-style proxy would */

      agent_accumulator_tool_call_delta (self->accumulator, self->n_calls++,
                                         agent_json_member_string (&call, "id", NULL),
                                         agent_json_member_string (&function, "name", NULL),
                                         NULL, fragment, len);
    }
}

static void
decode_message (OllamaDecoder   *self,
                const AgentJson *message)
{
  AgentJsonIter iter;
  AgentJson member;
  const char *name;

  agent_json_iter_init (&iter, message);
  while (agent_json_iter_next (&iter, &name, NULL, &member))
    {
      gsize len;
      const char *text = agent_json_string (&member, &len);

      if (text != NULL)
        {
          if (strcmp (name, "content") == 0)
            agent_accumulator_append_text (self->accumulator, text, len);
          else if (strcmp (name, "thinking") == 0)
            agent_accumulator_append_reasoning (self->accumulator, text, len);
        }
      else if (strcmp (name, "tool_calls") == 0)
        decode_tool_calls (self, &member);
    }
}

/* The counters of the last line, under Ollama's names and, for
 * AgentUsage, the usual ones: {"prompt_eval_count": 16, "eval_count": 22,
 * "total_duration": …, "prompt_tokens": 16, "completion_tokens": 22,
 * "total_tokens": 38}. */
static void
decode_usage (OllamaDecoder   *self,
              const AgentJson *root)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(AgentUsage) usage = NULL;
  JsonObject *object = json_object_new ();
  gint64 prompt_tokens = 0;
  gint64 completion_tokens = 0;
  gboolean counted = FALSE;
  AgentJsonIter iter;
  AgentJson member;
  const char *name;

  json_node_take_object (node, object);

  agent_json_iter_init (&iter, root);
  while (agent_json_iter_next (&iter, &name, NULL, &member))
    {
      if (!agent_json_is (&member, AGENT_JSON_NUMBER))
        continue;

      json_object_set_member (object, name, agent_json_to_node (&member));
      if (strcmp (name, "prompt_eval_count") == 0)
        counted |= agent_json_int (&member, &prompt_tokens);
      else if (strcmp (name, "eval_count") == 0)
        counted |= agent_json_int (&member, &completion_tokens);
    }

  if (!counted)
    return;

  usage = _agent_usage_new_full (prompt_tokens, completion_tokens, -1, 0, -1, -1, node);
  agent_accumulator_set_usage (self->accumulator, usage);
}

static gboolean
ollama_decode (gpointer     data,
               const char  *event_type,
               const char  *text,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  OllamaDecoder *self = data;
  g_autoptr(GError) json_error = NULL;
  AgentJson root;
  AgentJson member;

  if (!agent_json_parser_parse (self->parser, text, len, &root, &json_error) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *cut = NULL;

      if (agent_stream_event_too_deep (json_error, error))
        return FALSE;
      cut = agent_excerpt (text, len, 80, self->secrets);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent a line that is not a JSON object: “%s”"), cut);
      return FALSE;
    }

  /* {"error": "…"}: the server gave up, before or after some output. */
  member = agent_json_member (&root, "error");
  if (agent_json_exists (&member))
    {
      g_propagate_error (error,
                         _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                _("The provider reported an error"),
                                                                &root));
      return FALSE;
    }

  agent_accumulator_set_model (self->accumulator, agent_json_member_string (&root, "model", NULL));

  member = agent_json_member (&root, "message");
  if (agent_json_is (&member, AGENT_JSON_OBJECT))
    {
      self->saw_event = TRUE;
      decode_message (self, &member);
    }

  /* The last line: why the model stopped, and what it cost. A "stop" with
   * tool calls stays "stop"; the calls run all the same. */
  member = agent_json_member (&root, "done");
  if (agent_json_boolean (&member))
    {
      const char *done_reason = agent_json_member_string (&root, "done_reason", NULL);

      if (done_reason != NULL && done_reason[0] != '\0')
        agent_accumulator_set_finish_reason (self->accumulator, done_reason);
      decode_usage (self, &root);
      *done = TRUE;
    }

  return TRUE;
}

static gboolean
ollama_saw_event (gpointer data)
{
  return ((OllamaDecoder *) data)->saw_event;
}

/* {"models": [{"name": "llama3.2:latest", "model": "llama3.2:latest", …}, …]} */
static char **
ollama_parse_models (const AgentJson *root)
{
  AgentJson models = agent_json_member (root, "models");
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  AgentJsonIter iter;
  AgentJson model;

  if (!agent_json_is (&models, AGENT_JSON_ARRAY))
    return NULL;

  agent_json_iter_init (&iter, &models);
  while (agent_json_iter_next (&iter, NULL, NULL, &model))
    {
      const char *name = agent_json_member_string (&model, "name", NULL);

      if (name == NULL)
        name = agent_json_member_string (&model, "model", NULL);
      if (name != NULL)
        g_strv_builder_add (names, name);
    }

  return g_strv_builder_end (names);
}

const AgentProviderBackend agent_ollama_backend = {
  .name = "ollama",
  .default_base_url = "http://localhost:11434",
  .api_key_variable = "OLLAMA_API_KEY",
  .default_model = "llama3.2",
  .build_body = ollama_build_body,
  .build_path = ollama_build_path,
  .add_headers = ollama_add_headers,
  .accepts_part = ollama_accepts,
  .parts_name = "Ollama",
  .images = &_agent_ollama_images,
  .stream = {
    .display_name = N_("Ollama"),
    .framing = AGENT_FRAMING_NDJSON,
    .decoder_new = ollama_decoder_new,
    .decoder_free = ollama_decoder_free,
    .decode = ollama_decode,
    .saw_event = ollama_saw_event,
  },
  .models_path = "/api/tags",
  .parse_models = ollama_parse_models,
};
