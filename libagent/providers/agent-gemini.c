/* agent-gemini.c — Google's Gemini API (generateContent, streaming)
 *
 * `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse` with
 * the key in `x-goog-api-key`, answered with Server-Sent Events, one
 * GenerateContentResponse each and no end marker: the answer is whole once
 * a candidate gave its finishReason.
 *
 * A response is made of parts: text, thought text (`"thought": true`, the
 * reasoning) and function calls, whose arguments come whole as an object,
 * or, from Vertex AI with streamed function-call arguments, as
 * `partialArgs` (a JSON path and a value each) over several parts, until a
 * part without `willContinue`. Calls are keyed by their order of
 * appearance.
 *
 * What libagent does not model is kept in the provider data, under
 * "gemini": a call's `thoughtSignature` and the `id` Gemini gave it (both
 * sent back exactly), and the signature of the other parts, on the
 * message. Thought text is not sent back: Gemini reads nothing from it,
 * only from the signatures.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "transport/agent-provider-private.h"
#include "providers/agent-provider-parts-private.h"
#include "messages/agent-usage-private.h"
#include "wire/agent-wire-util-private.h"
#include "tools/agent-tool.h"
#include "messages/agent-tool-call-private.h"
#include "providers/agent-output-private.h"
#include "providers/agent-provider-settings-private.h"
#include "providers/agent-gemini-private.h"

#define PROVIDER "gemini"

/* Provider data: {"gemini": {"thoughtSignature": …, "id": …}} */

static const char *
provider_data_string (JsonNode   *provider_data,
                      const char *member)
{
  JsonNode *data = _agent_provider_data_get (provider_data, PROVIDER);
  JsonNode *node;

  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data) ||
      !(node = json_object_get_member (json_node_get_object (data), member)) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* @provider_data with {"gemini": {"id": @id, "thoughtSignature": @signature}}
 * (those given): a new node */
static JsonNode *
provider_data_with (JsonNode   *provider_data,
                    const char *id,
                    const char *signature)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  if (id != NULL)
    json_object_set_string_member (object, "id", id);
  if (signature != NULL)
    json_object_set_string_member (object, "thoughtSignature", signature);
  json_node_take_object (node, object);

  return _agent_provider_data_with (provider_data, PROVIDER, node);
}

/* Request */

/* Gemini's schema is an OpenAPI subset that refuses some JSON Schema
 * keywords with a 400 ("Unknown name"): "$schema", "$id", "$comment",
 * "additionalProperties", "propertyNames", "const", "exclusiveMinimum" and
 * "exclusiveMaximum" are dropped, in the schema and in the schemas of its
 * properties, items and anyOf (property names are left alone). */
static void
clean_schema (cJSON *schema)
{
  static const char * const rejected[] = {
    "$schema", "$id", "$comment", "additionalProperties", "propertyNames", "const",
    "exclusiveMinimum", "exclusiveMaximum",
  };
  cJSON *properties = cJSON_GetObjectItemCaseSensitive (schema, "properties");
  cJSON *any_of = cJSON_GetObjectItemCaseSensitive (schema, "anyOf");
  cJSON *child;

  if (!cJSON_IsObject (schema))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    cJSON_DeleteItemFromObjectCaseSensitive (schema, rejected[i]);
  cJSON_ArrayForEach (child, properties)
    clean_schema (child);
  cJSON_ArrayForEach (child, any_of)
    clean_schema (child);
  clean_schema (cJSON_GetObjectItemCaseSensitive (schema, "items"));
}

static cJSON *
tool_to_json (AgentTool *tool)
{
  cJSON *item = cJSON_CreateObject ();
  cJSON *parameters = agent_node_to_cjson (agent_tool_get_parameters (tool));

  cJSON_AddStringToObject (item, "name", agent_tool_get_name (tool));
  if (agent_tool_get_description (tool) != NULL)
    cJSON_AddStringToObject (item, "description", agent_tool_get_description (tool));

  /* Gemini refuses an object schema without properties: a tool without
   * parameters is declared without "parameters". */
  if (cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (parameters, "properties")) > 0)
    {
      clean_schema (parameters);
      cJSON_AddItemToObject (item, "parameters", parameters);
    }
  else
    cJSON_Delete (parameters);

  return item;
}

static cJSON *
text_part (const char *text)
{
  cJSON *part = cJSON_CreateObject ();

  cJSON_AddStringToObject (part, "text", text ? text : "");
  return part;
}

/* inline_data with the bytes in base64, or file_data with a URI; for
 * images, PDFs, text, audio and video */
static gboolean
gemini_accepts (AgentContentPart *part,
                AgentMessageRole  role)
{
  static const char * const prefixes[] = { "image/", "audio/", "video/", "text/" };
  const char *mime_type = agent_content_part_get_mime_type (part);

  if (g_ascii_strcasecmp (mime_type, "application/pdf") == 0 || _agent_mime_is_audio (mime_type))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_ascii_strncasecmp (mime_type, prefixes[i], strlen (prefixes[i])) == 0)
      return TRUE;

  return FALSE;
}

static cJSON *
data_part (AgentContentPart *part)
{
  cJSON *item;
  cJSON *data;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
    return text_part (agent_content_part_get_text (part));

  item = cJSON_CreateObject ();
  if (agent_content_part_get_data (part) != NULL)
    {
      const char *mime_type = NULL;
      const char *base64 = _agent_part_get_sent_base64 (part, &mime_type);

      data = cJSON_AddObjectToObject (item, "inline_data");
      /* A recording under the name Gemini documents (audio/wav, not
       * audio/x-wav) */
      if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_AUDIO)
        mime_type = _agent_audio_get_canonical_type (mime_type);
      cJSON_AddStringToObject (data, "mime_type", mime_type);
      /* Kept with the part, which the request's messages hold */
      cJSON_AddItemToObject (data, "data", cJSON_CreateStringReference (base64));
    }
  else
    {
      data = cJSON_AddObjectToObject (item, "file_data");
      cJSON_AddStringToObject (data, "mime_type", agent_content_part_get_mime_type (part));
      cJSON_AddStringToObject (data, "file_uri", agent_content_part_get_uri (part));
    }

  return item;
}

/* The parts of @message added to @parts; with @attachments_only, its
 * images and documents alone (a tool result's text went before them) */
static void
add_data_parts (cJSON        *parts,
                AgentMessage *message,
                gboolean      attachments_only)
{
  g_autoptr(GListModel) list = agent_message_list_parts (message);
  guint n = g_list_model_get_n_items (list);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (list, i);

      if (attachments_only && agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
        continue;

      /* What a tool returned that the API does not take: described */
      if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_TEXT &&
          !gemini_accepts (part, AGENT_MESSAGE_ROLE_USER))
        {
          g_autofree char *description = _agent_content_part_dup_description (part);

          cJSON_AddItemToArray (parts, text_part (description));
        }
      else
        cJSON_AddItemToArray (parts, data_part (part));
    }
}

/* {"role": @role, "parts": [*parts]} */
static cJSON *
content_new (const char  *role,
             cJSON      **parts)
{
  cJSON *item = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "role", role);
  *parts = cJSON_AddArrayToObject (item, "parts");
  return item;
}

/* Only an id Gemini gave goes back: one libagent made up means nothing to it. */
static const char *
gemini_id (AgentToolCall *call)
{
  const char *id = provider_data_string (call->provider_data, "id");

  return g_strcmp0 (id, call->id) == 0 ? id : NULL;
}

/* An assistant message as a "model" content, or NULL if it has nothing
 * to send. Remembers its calls in @calls (id → call) for the results. */
static cJSON *
model_content (AgentMessage *message,
               GHashTable   *calls)
{
  const char *content = agent_message_get_content (message);
  const char *signature = provider_data_string (agent_message_get_provider_data (message),
                                                "thoughtSignature");
  guint n_calls = agent_message_get_n_tool_calls (message);
  gboolean has_text = (content != NULL && content[0] != '\0') || signature != NULL;
  cJSON *parts;
  cJSON *item;

  if (!has_text && n_calls == 0)
    return NULL;

  item = content_new ("model", &parts);

  /* The text, whole: its signature was on the last of its parts. */
  if (has_text)
    {
      cJSON *part = text_part (content);

      if (signature != NULL)
        cJSON_AddStringToObject (part, "thoughtSignature", signature);
      cJSON_AddItemToArray (parts, part);
    }

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      cJSON *part = cJSON_CreateObject ();
      cJSON *function = cJSON_AddObjectToObject (part, "functionCall");
      cJSON *written = _agent_json_raw_object (call->arguments->str);

      cJSON_AddStringToObject (function, "name", call->name ? call->name : "");
      /* Gemini wants an object: the arguments go back byte for byte when
       * they are one, as {} otherwise. */
      if (written != NULL)
        cJSON_AddItemToObject (function, "args", written);
      else
        cJSON_AddObjectToObject (function, "args");
      if (gemini_id (call) != NULL)
        cJSON_AddStringToObject (function, "id", call->id);
      if ((signature = provider_data_string (call->provider_data, "thoughtSignature")))
        cJSON_AddStringToObject (part, "thoughtSignature", signature);
      cJSON_AddItemToArray (parts, part);

      if (call->id != NULL)
        g_hash_table_replace (calls, call->id, call);
    }

  return item;
}

/* A tool result as a functionResponse part. */
static cJSON *
function_response (AgentMessage *message,
                   GHashTable   *calls)
{
  AgentToolCall *call = g_hash_table_lookup (calls, agent_message_get_tool_call_id (message));
  const char *name = agent_message_get_tool_name (message);
  const char *content = agent_message_get_content (message);
  cJSON *part = cJSON_CreateObject ();
  cJSON *function = cJSON_AddObjectToObject (part, "functionResponse");
  cJSON *response;

  if (call != NULL && gemini_id (call) != NULL)
    cJSON_AddStringToObject (function, "id", call->id);
  if (name == NULL && call != NULL)
    name = call->name;
  cJSON_AddStringToObject (function, "name", name ? name : "");
  response = cJSON_AddObjectToObject (function, "response");
  cJSON_AddItemToObject (response, agent_message_is_error (message) ? "error" : "result",
                         cJSON_CreateString (content ? content : ""));

  return part;
}

static GBytes *
gemini_write_body (const AgentRequest  *request,
                   GError             **error)
{
  /* Thinking budgets in tokens, by AgentReasoningEffort (-1: say nothing) */
  static const int budgets[] = {
    [AGENT_REASONING_EFFORT_DEFAULT] = -1,
    [AGENT_REASONING_EFFORT_NONE] = 0,
    [AGENT_REASONING_EFFORT_LOW] = 1024,
    [AGENT_REASONING_EFFORT_MEDIUM] = 8192,
    [AGENT_REASONING_EFFORT_HIGH] = 24576,
  };
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(cJSON) root = cJSON_CreateObject ();
  cJSON *system = cJSON_CreateArray ();
  cJSON *config = cJSON_CreateObject ();
  cJSON *contents = cJSON_AddArrayToObject (root, "contents");
  cJSON *results = NULL;   /* the parts of the tool results being merged */
  guint n_messages = g_list_model_get_n_items (request->messages);
  guint n_tools = request->tools ? g_list_model_get_n_items (request->tools) : 0;
  guint effort = agent_provider_get_reasoning_effort (request->provider);
  guint max_tokens = agent_provider_get_max_tokens (request->provider);

  if (request->system_prompt != NULL && request->system_prompt[0] != '\0')
    cJSON_AddItemToArray (system, text_part (request->system_prompt));

  for (guint i = 0; i < n_messages; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (request->messages, i);
      AgentMessageRole role = agent_message_get_role (message);
      cJSON *item = NULL;
      cJSON *parts;

      if (role == AGENT_MESSAGE_ROLE_SYSTEM)
        /* Gemini has no system turns: they join the instruction. */
        cJSON_AddItemToArray (system, text_part (agent_message_get_content (message)));
      else if (role == AGENT_MESSAGE_ROLE_USER)
        {
          item = content_new ("user", &parts);
          if (agent_message_get_n_attachments (message) > 0)
            add_data_parts (parts, message, FALSE);
          else
            cJSON_AddItemToArray (parts, text_part (agent_message_get_content (message)));
        }
      else if (role == AGENT_MESSAGE_ROLE_ASSISTANT)
        item = model_content (message, calls);
      else if (results == NULL)
        /* Consecutive tool results go in one "user" content. */
        item = content_new ("user", &results);

      /* A result's images follow its functionResponse, in the same content */
      if (role == AGENT_MESSAGE_ROLE_TOOL)
        {
          cJSON_AddItemToArray (results, function_response (message, calls));
          add_data_parts (results, message, TRUE);
        }
      else
        results = NULL;
      if (item != NULL)
        cJSON_AddItemToArray (contents, item);
    }

  if (cJSON_GetArraySize (system) > 0)
    cJSON_AddItemToObject (cJSON_AddObjectToObject (root, "systemInstruction"), "parts", system);
  else
    cJSON_Delete (system);

  if (n_tools > 0)
    {
      cJSON *group = cJSON_CreateObject ();
      cJSON *declarations = cJSON_AddArrayToObject (group, "functionDeclarations");

      for (guint i = 0; i < n_tools; i++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (request->tools, i);

          cJSON_AddItemToArray (declarations, tool_to_json (tool));
        }
      cJSON_AddItemToArray (cJSON_AddArrayToObject (root, "tools"), group);
    }

  if (max_tokens > 0)
    cJSON_AddNumberToObject (config, "maxOutputTokens", max_tokens);
  if (effort < G_N_ELEMENTS (budgets) && budgets[effort] >= 0)
    {
      cJSON *thinking = cJSON_AddObjectToObject (config, "thinkingConfig");

      cJSON_AddNumberToObject (thinking, "thinkingBudget", budgets[effort]);
      /* With a budget, the thoughts are asked for too, as reasoning. */
      if (budgets[effort] > 0)
        cJSON_AddTrueToObject (thinking, "includeThoughts");
    }
  if (!_agent_output_add_gemini (config, request, error) ||
      !_agent_settings_add_gemini (root, config, request, error))
    {
      cJSON_Delete (config);
      return NULL;
    }
  if (cJSON_GetArraySize (config) > 0)
    cJSON_AddItemToObject (root, "generationConfig", config);
  else
    cJSON_Delete (config);
  if (!_agent_settings_merge_options (root, request, "Gemini", "contents", error))
    return NULL;

  return _agent_json_print_body (root, error);
}


static GBytes *
gemini_build_body (const AgentRequest  *request,
                   GError             **error)
{
  if (!_agent_request_check_parts (request, "Gemini", gemini_accepts, error))
    return NULL;

  return gemini_write_body (request, error);
}

static char *
gemini_build_path (const AgentRequest *request)
{
  const char *model = request->model ? request->model : "";
  g_autofree char *escaped = NULL;

  /* "models/gemini-2.5-flash", as Google's documents write it, works too. */
  if (g_str_has_prefix (model, "models/"))
    model += strlen ("models/");
  escaped = g_uri_escape_string (model, NULL, FALSE);

  return g_strdup_printf ("/v1beta/models/%s:streamGenerateContent?alt=sse", escaped);
}

static void
gemini_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
  /* The key goes in x-goog-api-key, never in the URL */
  _agent_provider_add_api_key_header (provider, headers, "x-goog-api-key");
}

/* Stream */

typedef struct
{
  AgentAccumulator *accumulator;
  AgentJsonParser  *parser;
  const char * const *secrets;   /* redacted from what errors quote */
  gint64            n_calls;      /* the key of the next call */
  gint64            open_key;     /* the call whose partialArgs are arriving */
  cJSON            *open_args;    /* its arguments so far, or NULL */
  const char       *event;        /* the event being decoded, … */
  gsize             event_len;
  guint             part;         /* … the part of it, … */
  GArray           *args;         /* … and where its parts' args are (agent-gemini-args.c) */
  guint             args_scanned : 1;
  guint             finished : 1;
  guint             saw_event : 1; /* a candidate with content */
} GeminiDecoder;

static gpointer
gemini_decoder_new (AgentAccumulator   *accumulator,
                    const char * const *secrets)
{
  GeminiDecoder *self = g_new0 (GeminiDecoder, 1);

  self->accumulator = accumulator;
  self->secrets = secrets;
  self->parser = agent_json_parser_new ();
  return self;
}

static void
gemini_decoder_free (gpointer data)
{
  GeminiDecoder *self = data;

  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_clear_pointer (&self->open_args, cJSON_Delete);
  g_clear_pointer (&self->args, g_array_unref);
  g_free (self);
}

#define MAX_PATH_INDEX 10000

/* The step of a JSON path ("$.a.b[0]['c d']") at *@p, a member (*@name)
 * or an element (*@name NULL, *@index); FALSE if none is there. */
static gboolean
path_next (const char **p,
           char       **name,
           int         *index)
{
  const char *s = *p;
  char *end = NULL;
  long n;

  g_clear_pointer (name, g_free);
  if (s[0] == '.' && strcspn (s + 1, ".[") > 0)
    {
      *name = g_strndup (s + 1, strcspn (s + 1, ".["));
      *p = s + 1 + strlen (*name);
    }
  else if (s[0] == '[' && (s[1] == '\'' || s[1] == '"') &&
           (end = strchr (s + 2, s[1])) && end[1] == ']')
    {
      *name = g_strndup (s + 2, end - (s + 2));
      *p = end + 2;
    }
  else if (s[0] == '[' && g_ascii_isdigit (s[1]) &&
           (n = strtol (s + 1, &end, 10)) <= MAX_PATH_INDEX && *end == ']')
    {
      *index = n;
      *p = end + 1;
    }
  else
    return FALSE;

  return TRUE;
}

/* @parent's member @name or element @index, replaced with @value if given */
static cJSON *
path_child (cJSON      *parent,
            const char *name,
            int         index,
            cJSON      *value)
{
  cJSON *child;

  if (name != NULL)
    {
      if ((child = cJSON_GetObjectItemCaseSensitive (parent, name)) && value)
        cJSON_ReplaceItemInObjectCaseSensitive (parent, name, value);
      else if (value != NULL)
        cJSON_AddItemToObject (parent, name, value);
    }
  else
    {
      for (int size = cJSON_GetArraySize (parent); size <= index; size++)
        cJSON_AddItemToArray (parent, cJSON_CreateNull ());
      if ((child = cJSON_GetArrayItem (parent, index)) && value)
        cJSON_ReplaceItemInArray (parent, index, value);
    }

  return value ? value : child;
}

/* Puts @value (taken) at @path in @node, making the objects and arrays on
 * the way (what is in the way and is not one is replaced: the last word
 * wins). A string where there is one is appended to it: long strings come
 * in pieces. A path that goes wrong stops there. */
static void
set_at_path (cJSON      *node,
             const char *path,
             cJSON      *value)
{
  g_autofree char *name = NULL;
  int index = 0;

  /* The arguments are an object. */
  if (*path++ != '$' || (path[0] == '[' && g_ascii_isdigit (path[1])))
    goto out;

  while (path_next (&path, &name, &index))
    {
      cJSON *child = path_child (node, name, index, NULL);
      gboolean array;

      if (*path == '\0')
        {
          if (cJSON_IsString (child) && cJSON_IsString (value))
            {
              g_autofree char *joined = g_strconcat (child->valuestring, value->valuestring, NULL);

              cJSON_SetValuestring (child, joined);
              break;
            }
          path_child (node, name, index, g_steal_pointer (&value));
          break;
        }

      array = path[0] == '[' && g_ascii_isdigit (path[1]);
      if (array ? !cJSON_IsArray (child) : !cJSON_IsObject (child))
        child = path_child (node, name, index,
                            array ? cJSON_CreateArray () : cJSON_CreateObject ());
      node = child;
    }

out:
  cJSON_Delete (value);
}

/* One of Vertex's partialArgs: {"jsonPath", "stringValue" | "numberValue" |
 * "boolValue" | "nullValue"} */
static void
apply_partial_arg (GeminiDecoder   *self,
                   const AgentJson *arg)
{
  const char *path = agent_json_member_string (arg, "jsonPath", NULL);
  const char *string = agent_json_member_string (arg, "stringValue", NULL);
  AgentJson number = agent_json_member (arg, "numberValue");
  AgentJson boolean = agent_json_member (arg, "boolValue");
  AgentJson null = agent_json_member (arg, "nullValue");
  double value;

  if (path == NULL)
    return;
  if (string != NULL)
    set_at_path (self->open_args, path, cJSON_CreateString (string));
  else if (agent_json_double (&number, &value))
    set_at_path (self->open_args, path, cJSON_CreateNumber (value));
  else if (agent_json_is (&boolean, AGENT_JSON_BOOLEAN))
    set_at_path (self->open_args, path, cJSON_CreateBool (agent_json_boolean (&boolean)));
  else if (agent_json_kind (&null) != AGENT_JSON_ABSENT)
    set_at_path (self->open_args, path, cJSON_CreateNull ());
}

/* The streamed call is whole: its arguments, serialized once. */
static void
finish_open_call (GeminiDecoder *self)
{
  g_autofree char *arguments = NULL;

  if (self->open_args == NULL)
    return;

  arguments = cJSON_PrintUnformatted (self->open_args);
  g_clear_pointer (&self->open_args, cJSON_Delete);
  if (arguments != NULL)
    agent_accumulator_tool_call_delta (self->accumulator, self->open_key, NULL, NULL, NULL,
                                       arguments, strlen (arguments));
}

/* A call's id, if Gemini gave it, and its signature (which may come on a
 * later part of a streamed call) */
static void
set_call_data (AgentToolCall *call,
               const char    *id,
               const char    *signature)
{
  g_autoptr(JsonNode) data = NULL;

  if (signature == NULL || signature[0] == '\0')
    signature = provider_data_string (call->provider_data, "thoughtSignature");
  if (id == NULL)
    id = provider_data_string (call->provider_data, "id");
  if (id == NULL && signature == NULL)
    return;
  data = provider_data_with (call->provider_data, id, signature);
  agent_tool_call_set_provider_data (call, data);
}

/* The arguments of the part being decoded as the event has them, numbers
 * as written (printed from the tree, they would change: 1e400 to null,
 * 1.50 to 1.5), white space left out; printed from the tree when the
 * event cannot be scanned */
static char *
args_as_written (GeminiDecoder   *self,
                 const AgentJson *args)
{
  char *written;

  if (!self->args_scanned)
    {
      self->args = _agent_gemini_scan_args (self->event, self->event_len);
      self->args_scanned = TRUE;
    }

  if ((written = _agent_gemini_args_text (self->event, self->args, self->part)) != NULL)
    return written;

  return agent_json_serialize (args);
}

/* {"functionCall": {"name", "args", "id"?, "willContinue"?, "partialArgs"?}} */
static void
decode_function_call (GeminiDecoder   *self,
                      const AgentJson *function,
                      const char      *signature)
{
  const char *name = agent_json_member_string (function, "name", NULL);
  const char *id = agent_json_member_string (function, "id", NULL);
  AgentJson will_continue = agent_json_member (function, "willContinue");
  AgentJson partial = agent_json_member (function, "partialArgs");
  AgentJsonIter iter;
  AgentToolCall *call;
  AgentJson arg;

  if (name != NULL && name[0] != '\0')
    {
      AgentJson args = agent_json_member (function, "args");
      g_autofree char *serialized = NULL;

      /* A new call ends the one that was streaming. */
      finish_open_call (self);

      if (agent_json_is (&args, AGENT_JSON_OBJECT))
        serialized = args_as_written (self, &args);
      else if (!agent_json_boolean (&will_continue) && !agent_json_is (&partial, AGENT_JSON_ARRAY))
        serialized = g_strdup ("{}");
      else
        self->open_args = cJSON_CreateObject ();

      self->open_key = self->n_calls++;
      call = agent_accumulator_tool_call_delta (self->accumulator, self->open_key, id, name, NULL,
                                                serialized, serialized ? strlen (serialized) : 0);
    }
  else if (self->open_args != NULL)
    call = agent_accumulator_lookup_tool_call (self->accumulator, self->open_key);
  else
    return;  /* the continuation of nothing */

  if (id != NULL || signature != NULL)
    set_call_data (call, id, signature);

  if (self->open_args == NULL)
    return;

  agent_json_iter_init (&iter, &partial);
  while (agent_json_iter_next (&iter, NULL, NULL, &arg))
    apply_partial_arg (self, &arg);
  if (!agent_json_boolean (&will_continue))
    finish_open_call (self);
}

static void
decode_part (GeminiDecoder   *self,
             const AgentJson *part)
{
  AgentJson function = agent_json_member (part, "functionCall");
  AgentJson thought = agent_json_member (part, "thought");
  const char *signature = agent_json_member_string (part, "thoughtSignature", NULL);
  const char *text;
  gsize len;

  if (agent_json_is (&function, AGENT_JSON_OBJECT))
    {
      decode_function_call (self, &function, signature);
      return;
    }

  if ((text = agent_json_member_string (part, "text", &len)) && len > 0)
    {
      if (agent_json_boolean (&thought))
        agent_accumulator_append_reasoning (self->accumulator, text, len);
      else
        agent_accumulator_append_text (self->accumulator, text, len);
    }

  /* The signature of the text (or thoughts), on the last of its parts */
  if (signature != NULL && signature[0] != '\0')
    {
      AgentMessage *message = agent_accumulator_get_message (self->accumulator);
      g_autoptr(JsonNode) data = provider_data_with (agent_message_get_provider_data (message),
                                                     NULL, signature);

      agent_message_set_provider_data (message, data);
    }
}

/* usageMetadata, kept as the raw usage. The thoughts count in the answer,
 * as OpenAI counts reasoning. */
static void
decode_usage (GeminiDecoder   *self,
              const AgentJson *metadata)
{
  g_autoptr(JsonNode) node = agent_json_to_node (metadata);
  g_autoptr(AgentUsage) usage = NULL;
  JsonObject *object = json_node_get_object (node);
#define COUNT(name) json_object_get_int_member_with_default (object, name, 0)
  gint64 prompt = COUNT ("promptTokenCount");
  gint64 completion = COUNT ("candidatesTokenCount") + COUNT ("thoughtsTokenCount");

  usage = _agent_usage_new_full (prompt, completion,
                                 json_object_has_member (object, "totalTokenCount")
                                   ? COUNT ("totalTokenCount") : -1,
                                 COUNT ("thoughtsTokenCount"),
                                 json_object_has_member (object, "cachedContentTokenCount")
                                   ? COUNT ("cachedContentTokenCount") : -1,
                                 -1, node);
#undef COUNT
  agent_accumulator_set_usage (self->accumulator, usage);
}

static gboolean
gemini_decode (gpointer     data,
               const char  *event_type,
               const char  *text,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  GeminiDecoder *self = data;
  g_autoptr(GError) json_error = NULL;
  AgentJson root;
  AgentJson member;
  AgentJson candidate;
  AgentJsonIter iter;
  AgentJson part;
  const char *reason;

  if (!agent_json_parser_parse (self->parser, text, len, &root, &json_error) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *excerpt = NULL;

      if (agent_stream_event_too_deep (json_error, error))
        return FALSE;
      excerpt = agent_excerpt (text, len, 80, self->secrets);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent an event that is not a JSON object: “%s”"), excerpt);
      return FALSE;
    }

  /* {"error": {"code", "message", "status"}} in the middle of the stream */
  member = agent_json_member (&root, "error");
  if (agent_json_exists (&member))
    {
      g_propagate_error (error,
                         _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                _("The provider reported an error"),
                                                                &root));
      return FALSE;
    }

  /* A prompt Gemini refused to answer: a blockReason, no candidates */
  member = agent_json_member (&root, "promptFeedback");
  if ((reason = agent_json_member_string (&member, "blockReason", NULL)))
    {
      const char *detail = agent_json_member_string (&member, "blockReasonMessage", NULL);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROVIDER,
                   _("The provider blocked the prompt (%s)%s%s"),
                   reason, detail ? ": " : "", detail ? detail : "");
      return FALSE;
    }

  agent_accumulator_set_response_id (self->accumulator,
                                     agent_json_member_string (&root, "responseId", NULL));
  agent_accumulator_set_model (self->accumulator,
                               agent_json_member_string (&root, "modelVersion", NULL));

  /* The first candidate: libagent never asks for more. A finishReason
   * alone (with usage or not) is the end marker, no answer; an empty
   * answer still has its content ({"role": "model"}) */
  member = agent_json_member (&root, "candidates");
  agent_json_iter_init (&iter, &member);
  if (agent_json_iter_next (&iter, NULL, NULL, &candidate))
    {
      member = agent_json_member (&candidate, "content");
      self->saw_event |= agent_json_is (&member, AGENT_JSON_OBJECT);
      member = agent_json_member (&member, "parts");
      agent_json_iter_init (&iter, &member);
      self->event = text;
      self->event_len = len;
      self->part = 0;
      self->args_scanned = FALSE;
      g_clear_pointer (&self->args, g_array_unref);
      while (agent_json_iter_next (&iter, NULL, NULL, &part))
        {
          decode_part (self, &part);
          self->part++;
        }
      self->event = NULL;

      if ((reason = agent_json_member_string (&candidate, "finishReason", NULL)) && reason[0])
        {
          finish_open_call (self);
          agent_accumulator_set_finish_reason (self->accumulator, reason);
          self->finished = TRUE;
        }
    }

  /* Every chunk has the usage so far: it is read once the answer is whole. */
  member = agent_json_member (&root, "usageMetadata");
  if (self->finished && agent_json_is (&member, AGENT_JSON_OBJECT))
    decode_usage (self, &member);

  return TRUE;
}

static gboolean
gemini_is_complete (gpointer data)
{
  GeminiDecoder *self = data;

  /* A call still streaming when the body ended: what arrived of it */
  finish_open_call (self);

  return self->finished;
}

static gboolean
gemini_saw_event (gpointer data)
{
  return ((GeminiDecoder *) data)->saw_event;
}

/* {"models": [{"name": "models/gemini-2.5-flash", "supportedGenerationMethods": […]}, …]}
 *
 * One page of up to 1000 models (the most Gemini gives in one; it has far
 * fewer): nextPageToken is not followed. Models that cannot
 * generateContent (embeddings, …) are left out. */
static char **
gemini_parse_models (const AgentJson *root)
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
      AgentJson methods = agent_json_member (&model, "supportedGenerationMethods");
      gboolean generates = !agent_json_is (&methods, AGENT_JSON_ARRAY);
      AgentJsonIter method_iter;
      AgentJson method;

      agent_json_iter_init (&method_iter, &methods);
      while (!generates && agent_json_iter_next (&method_iter, NULL, NULL, &method))
        generates = g_strcmp0 (agent_json_string (&method, NULL), "generateContent") == 0;

      if (name == NULL || !generates)
        continue;
      if (g_str_has_prefix (name, "models/"))
        name += strlen ("models/");
      g_strv_builder_add (names, name);
    }

  return g_strv_builder_end (names);
}

const AgentProviderBackend agent_gemini_backend = {
  .name = "gemini",
  .default_base_url = "https://generativelanguage.googleapis.com",
  .api_key_variable = "GEMINI_API_KEY",
  .default_model = "gemini-2.5-flash",
  .build_body = gemini_build_body,
  .build_path = gemini_build_path,
  .add_headers = gemini_add_headers,
  .accepts_part = gemini_accepts,
  .parts_name = "Gemini",
  .images = &_agent_gemini_images,
  .stream = {
    .display_name = N_("Google Gemini"),
    .framing = AGENT_FRAMING_SSE,
    .decoder_new = gemini_decoder_new,
    .decoder_free = gemini_decoder_free,
    .decode = gemini_decode,
    .is_complete = gemini_is_complete,
    .saw_event = gemini_saw_event,
  },
  .models_path = "/v1beta/models?pageSize=1000",
  .parse_models = gemini_parse_models,
};
