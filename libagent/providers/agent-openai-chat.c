/* agent-openai-chat.c — the OpenAI chat-completions API
 *
 * `POST {base}/chat/completions` with `stream: true`, answered with
 * Server-Sent Events of `chat.completion.chunk` objects and `[DONE]`.
 * Spoken by OpenAI and by most servers that call themselves
 * OpenAI-compatible (llama.cpp, vLLM, Ollama's /v1, LM Studio, OpenRouter,
 * Groq, Mistral, DeepSeek, …), with their quirks handled here or in the
 * accumulator.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "messages/agent-message-private.h"
#include "providers/agent-openai-chat-private.h"
#include "providers/agent-openai-chat-scan-private.h"
#include "providers/agent-provider-parts-private.h"
#include "providers/agent-provider-settings-private.h"
#include "transport/agent-provider-private.h"
#include "tools/agent-tool.h"
#include "messages/agent-tool-call-private.h"
#include "wire/agent-wire-util-private.h"
#include "providers/agent-output-private.h"

/* Request */

/* Whether the key @name (@len bytes) is the literal @literal: the length
 * first, which tells most keys apart without reading them */
#define KEY_IS(name, len, literal) \
  ((len) == sizeof (literal) - 1 && memcmp ((name), (literal), sizeof (literal) - 1) == 0)

static cJSON *
tool_call_to_json (AgentToolCall *call)
{
  cJSON *item = cJSON_CreateObject ();
  cJSON *function = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "id", call->id ? call->id : "");
  cJSON_AddStringToObject (item, "type", _agent_tool_call_get_type_name (call));
  cJSON_AddStringToObject (function, "name", call->name ? call->name : "");
  /* Byte for byte what the model sent. */
  cJSON_AddStringToObject (function, "arguments", call->arguments->str);
  cJSON_AddItemToObject (item, "function", function);

  return item;
}

/* Images as image_url parts (a data: URL, or the http(s) URL the server
 * fetches), PDFs as file parts with file_data, text documents as text,
 * WAV and MP3 recordings as input_audio parts. */
static gboolean
openai_chat_accepts (AgentContentPart *part,
                     AgentMessageRole  role)
{
  const char *mime_type = agent_content_part_get_mime_type (part);

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_AUDIO)
    return _agent_audio_get_openai_format (part) != NULL;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    return _agent_mime_is_common_image (mime_type) &&
           (agent_content_part_get_data (part) != NULL || _agent_part_has_http_uri (part));

  if (_agent_content_part_is_text_file (part))
    return TRUE;

  return g_ascii_strcasecmp (mime_type, "application/pdf") == 0 &&
         agent_content_part_get_data (part) != NULL;
}

static cJSON *
text_part (const char *text)
{
  cJSON *item = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "type", "text");
  cJSON_AddStringToObject (item, "text", text);
  return item;
}

static cJSON *
part_to_json (AgentContentPart *part)
{
  cJSON *item;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
    return text_part (agent_content_part_get_text (part));

  if (_agent_content_part_is_text_file (part))
    {
      g_autofree char *text = _agent_content_part_dup_file_text (part);

      return text_part (text);
    }

  item = cJSON_CreateObject ();
  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_AUDIO)
    {
      cJSON *audio = cJSON_AddObjectToObject (item, "input_audio");

      cJSON_AddStringToObject (item, "type", "input_audio");
      /* Kept with the part, which the request's messages hold */
      cJSON_AddItemToObject (audio, "data",
                             cJSON_CreateStringReference (_agent_part_get_sent_base64 (part, NULL)));
      cJSON_AddStringToObject (audio, "format", _agent_audio_get_openai_format (part));
    }
  else if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    {
      g_autofree char *url = agent_content_part_get_data (part) != NULL ?
                             _agent_part_dup_sent_data_url (part) :
                             g_strdup (agent_content_part_get_uri (part));

      cJSON_AddStringToObject (item, "type", "image_url");
      cJSON_AddStringToObject (cJSON_AddObjectToObject (item, "image_url"), "url", url);
    }
  else
    {
      g_autofree char *url = _agent_part_dup_sent_data_url (part);
      cJSON *file = cJSON_AddObjectToObject (item, "file");
      const char *name = agent_content_part_get_name (part);

      cJSON_AddStringToObject (item, "type", "file");
      cJSON_AddStringToObject (file, "filename", name != NULL ? name : "document.pdf");
      cJSON_AddStringToObject (file, "file_data", url);
    }

  return item;
}

/* The content of a user message with attachments: an array of parts */
static cJSON *
parts_to_json (AgentMessage *message)
{
  g_autoptr(GListModel) parts = agent_message_list_parts (message);
  guint n = g_list_model_get_n_items (parts);
  cJSON *array = cJSON_CreateArray ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

      cJSON_AddItemToArray (array, part_to_json (part));
    }

  return array;
}

/* A tool result's text; its attachments go to the user message after the
 * tool results (see _agent_openai_add_messages()), and are named here. */
static char *
tool_result_text (AgentMessage *message)
{
  const char *content = agent_message_get_content (message);
  g_autofree char *described = NULL;

  if (agent_message_get_n_attachments (message) == 0)
    return g_strdup (content ? content : "");

  described = _agent_message_describe_attachments (message);
  return g_strconcat (content ? content : "", content && *content ? "\n" : "", described, NULL);
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
        cJSON_AddItemToObject (item, "content", parts_to_json (message));
      else
        cJSON_AddStringToObject (item, "content", content ? content : "");
      break;

    case AGENT_MESSAGE_ROLE_ASSISTANT:
      {
        guint n_calls = agent_message_get_n_tool_calls (message);

        cJSON_AddStringToObject (item, "role", "assistant");
        if (content != NULL)
          cJSON_AddStringToObject (item, "content", content);
        else
          cJSON_AddNullToObject (item, "content");

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
        g_autofree char *text = tool_result_text (message);

        cJSON_AddStringToObject (item, "role", "tool");
        cJSON_AddStringToObject (item, "tool_call_id", agent_message_get_tool_call_id (message));
        cJSON_AddStringToObject (item, "content", text);
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
  cJSON_AddItemToObject (function, "parameters", agent_node_to_cjson (agent_tool_get_parameters (tool)));
  cJSON_AddItemToObject (item, "function", function);

  return item;
}

/* Documented in agent-openai-chat-private.h */
void
_agent_openai_add_messages (cJSON              *root,
                            const AgentRequest *request,
                            cJSON            *(*write_message) (AgentMessage *),
                            cJSON            *(*write_tool) (AgentTool *),
                            AgentAcceptsPart    accepts)
{
  cJSON *messages = cJSON_AddArrayToObject (root, "messages");
  guint n_messages = g_list_model_get_n_items (request->messages);
  guint n_tools = request->tools ? g_list_model_get_n_items (request->tools) : 0;
  g_autoptr(GPtrArray) tool_results = g_ptr_array_new_with_free_func (g_object_unref);

  if (request->system_prompt != NULL && request->system_prompt[0] != '\0')
    {
      cJSON *system = cJSON_CreateObject ();

      cJSON_AddStringToObject (system, "role", "system");
      cJSON_AddStringToObject (system, "content", request->system_prompt);
      cJSON_AddItemToArray (messages, system);
    }

  /* Tool messages take text only: the images of a run of tool results
   * follow it in a user message (tool results must come right after the
   * assistant message that called the tools). */
  for (guint i = 0; i <= n_messages; i++)
    {
      g_autoptr(AgentMessage) message = i < n_messages ? g_list_model_get_item (request->messages, i)
                                                       : NULL;

      if (message == NULL || agent_message_get_role (message) != AGENT_MESSAGE_ROLE_TOOL)
        {
          g_autoptr(AgentMessage) images = tool_results->len > 0 ?
                                           _agent_tool_images_message (tool_results, accepts) : NULL;

          if (images != NULL)
            cJSON_AddItemToArray (messages, write_message (images));
          g_ptr_array_set_size (tool_results, 0);
        }
      else
        g_ptr_array_add (tool_results, g_object_ref (message));

      if (message != NULL)
        cJSON_AddItemToArray (messages, write_message (message));
    }

  if (n_tools > 0)
    {
      cJSON *tools = cJSON_AddArrayToObject (root, "tools");

      for (guint i = 0; i < n_tools; i++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (request->tools, i);

          cJSON_AddItemToArray (tools, write_tool (tool));
        }
    }
}

static GBytes *
openai_chat_build_body (const AgentRequest  *request,
                        GError             **error)
{
  g_autoptr(cJSON) root = NULL;

  if (!_agent_request_check_parts (request, "OpenAI", openai_chat_accepts, error))
    return NULL;

  root = cJSON_CreateObject ();
  if (request->model != NULL)
    cJSON_AddStringToObject (root, "model", request->model);
  _agent_openai_add_messages (root, request, message_to_json, tool_to_json, openai_chat_accepts);

  if (agent_provider_get_max_tokens (request->provider) > 0)
    cJSON_AddNumberToObject (root, "max_tokens", agent_provider_get_max_tokens (request->provider));

  switch (agent_provider_get_reasoning_effort (request->provider))
    {
    case AGENT_REASONING_EFFORT_NONE:
      cJSON_AddStringToObject (root, "reasoning_effort", "none");
      break;
    case AGENT_REASONING_EFFORT_LOW:
      cJSON_AddStringToObject (root, "reasoning_effort", "low");
      break;
    case AGENT_REASONING_EFFORT_MEDIUM:
      cJSON_AddStringToObject (root, "reasoning_effort", "medium");
      break;
    case AGENT_REASONING_EFFORT_HIGH:
      cJSON_AddStringToObject (root, "reasoning_effort", "high");
      break;
    case AGENT_REASONING_EFFORT_DEFAULT:
    default:
      break;
    }

  if (!_agent_settings_add_openai_chat (root, request, error))
    return NULL;
  _agent_output_add_openai_chat (root, request);
  cJSON_AddTrueToObject (root, "stream");
  cJSON_AddTrueToObject (cJSON_AddObjectToObject (root, "stream_options"), "include_usage");
  if (!_agent_settings_merge_options (root, request, "OpenAI", "messages", error))
    return NULL;

  return _agent_json_print_body (root, error);
}

static char *
openai_chat_build_path (const AgentRequest *request)
{
  return g_strdup ("/chat/completions");
}

static void
openai_chat_add_headers (AgentProvider      *provider,
                         SoupMessageHeaders *headers)
{
  _agent_provider_add_bearer_auth (provider, headers);
}

/* Stream */

struct _AgentOpenaiChatDecoder
{
  AgentAccumulator *accumulator;
  AgentJsonParser  *parser;
  AgentOpenaiChatScan *scan;     /* the usual chunk, read faster */
  const char * const *secrets;   /* redacted from what errors quote */
  /* Choices other than 0 (n > 1): accumulated silently. */
  GPtrArray        *other_choices;
  AgentUsage       *provider_usage;
  guint             saw_usage : 1;
  guint             saw_event : 1;  /* a chunk with choices */
  guint             no_scan : 1;    /* for tests: every event read with the DOM */
  guint             n_scanned;      /* for tests: the events the scan read */
};

static gpointer
openai_chat_decoder_new (AgentAccumulator   *accumulator,
                         const char * const *secrets)
{
  AgentOpenaiChatDecoder *self = g_new0 (AgentOpenaiChatDecoder, 1);

  self->accumulator = accumulator;
  self->secrets = secrets;
  self->parser = agent_json_parser_new ();
  self->scan = _agent_openai_chat_scan_new ();
  return self;
}

static void
openai_chat_decoder_free (gpointer data)
{
  AgentOpenaiChatDecoder *self = data;

  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_clear_pointer (&self->scan, _agent_openai_chat_scan_free);
  g_clear_pointer (&self->other_choices, g_ptr_array_unref);
  g_clear_pointer (&self->provider_usage, agent_usage_unref);
  g_free (self);
}

AgentAccumulator *
_agent_openai_chat_decoder_get_choice (AgentOpenaiChatDecoder *self,
                                       guint                   index)
{
  if (index == 0)
    return self->accumulator;
  if (self->other_choices == NULL || index >= self->other_choices->len)
    return NULL;
  return g_ptr_array_index (self->other_choices, index);
}

guint
_agent_openai_chat_decoder_get_n_choices (AgentOpenaiChatDecoder *self)
{
  return self->other_choices ? MAX (1, self->other_choices->len) : 1;
}

void
_agent_openai_chat_decoder_set_scan (AgentOpenaiChatDecoder *self,
                                     gboolean                scan)
{
  self->no_scan = !scan;
}

guint
_agent_openai_chat_decoder_get_n_scanned (AgentOpenaiChatDecoder *self,
                                          guint                  *n_templated)
{
  if (n_templated != NULL)
    *n_templated = _agent_openai_chat_scan_get_n_templated (self->scan);
  return self->n_scanned;
}

static AgentAccumulator *
choice_accumulator (AgentOpenaiChatDecoder *self,
                    gint64                  index)
{
  if G_LIKELY (index == 0)
    return self->accumulator;
  if (index < 0 || index > 127)
    return NULL;

  if (self->other_choices == NULL)
    {
      self->other_choices = g_ptr_array_new_with_free_func ((GDestroyNotify)agent_accumulator_free);
      g_ptr_array_add (self->other_choices, NULL);  /* 0 is the main accumulator */
    }
  while (self->other_choices->len <= (guint)index)
    g_ptr_array_add (self->other_choices, agent_accumulator_new (NULL, NULL));

  return g_ptr_array_index (self->other_choices, index);
}

static void
decode_tool_calls (AgentAccumulator *accumulator,
                   const AgentJson  *tool_calls)
{
  AgentJsonIter iter;
  AgentJson call;
  gint64 position = 0;

  agent_json_iter_init (&iter, tool_calls);
  while (agent_json_iter_next (&iter, NULL, NULL, &call))
    {
      AgentJson index = agent_json_member (&call, "index");
      AgentJson function = agent_json_member (&call, "function");
      AgentJson arguments = agent_json_member (&function, "arguments");
      g_autofree char *serialized = NULL;
      const char *fragment = NULL;
      gsize len = 0;
      gint64 key;

      /* Without an index (Mistral), the position in the array is the key;
       * an index no integer can hold joins no other call. */
      if (!agent_json_exists (&index))
        key = position;
      else if (!agent_json_int (&index, &key))
        key = G_MAXINT64;
      position++;

      switch (agent_json_kind (&arguments))
        {
        case AGENT_JSON_STRING:
          fragment = agent_json_string (&arguments, &len);
          break;

        case AGENT_JSON_OBJECT:
        case AGENT_JSON_ARRAY:
          /* Arguments sent as JSON rather than a string: serialized once */
          fragment = serialized = agent_json_serialize (&arguments);
          len = strlen (serialized);
          break;

        case AGENT_JSON_ABSENT:
        case AGENT_JSON_NULL:
        case AGENT_JSON_BOOLEAN:
        case AGENT_JSON_NUMBER:
        default:
          break;
        }

      agent_accumulator_tool_call_delta (accumulator, key,
                                         agent_json_member_string (&call, "id", NULL),
                                         agent_json_member_string (&function, "name", NULL),
                                         agent_json_member_string (&call, "type", NULL),
                                         fragment, len);
    }
}

/* Text as an array of parts, as some servers send content (Mistral's
 * reasoning models: {"type": "text", "text": …} and {"type": "thinking",
 * "thinking": [parts]}). Text parts go to the text @in_content, to the
 * reasoning inside a thinking part. A part of another kind is an error:
 * dropping it would leave the answer silently short. */
static gboolean
decode_parts (AgentAccumulator  *accumulator,
              const AgentJson   *parts,
              gboolean           in_content,
              GError           **error)
{
  AgentJsonIter iter;
  AgentJson part;

  agent_json_iter_init (&iter, parts);
  while (agent_json_iter_next (&iter, NULL, NULL, &part))
    {
      const char *type = agent_json_member_string (&part, "type", NULL);
      AgentJson thinking;
      const char *text;
      gsize len;

      if (g_strcmp0 (type, "text") == 0 &&
          (text = agent_json_member_string (&part, "text", &len)) != NULL)
        {
          if (in_content)
            agent_accumulator_append_text (accumulator, text, len);
          else
            agent_accumulator_append_reasoning (accumulator, text, len);
          continue;
        }

      if (g_strcmp0 (type, "thinking") == 0 && in_content)
        {
          thinking = agent_json_member (&part, "thinking");
          if ((text = agent_json_string (&thinking, &len)) != NULL)
            {
              agent_accumulator_append_reasoning (accumulator, text, len);
              continue;
            }
          if (agent_json_is (&thinking, AGENT_JSON_ARRAY))
            {
              if (!decode_parts (accumulator, &thinking, FALSE, error))
                return FALSE;
              continue;
            }
        }

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent a part of the answer of a kind libagent does not know "
                     "(“%s”)"),
                   type != NULL ? type : "?");
      return FALSE;
    }

  return TRUE;
}

static gboolean
decode_choice (AgentOpenaiChatDecoder  *self,
               const AgentJson         *choice,
               GError                 **error)
{
  AgentAccumulator *accumulator;
  AgentJsonIter iter;
  AgentJson index;
  AgentJson delta;
  AgentJson member;
  const char *name;
  const char *finish_reason;
  gsize finish_reason_len;
  gint64 n = 0;
  /* The reasoning, under either name; a server that sends both sends
   * the same text twice */
  const char *reasoning = NULL;
  gsize reasoning_len = 0;
  gboolean reasoning_content = FALSE;

  gsize name_len;
  gboolean has_index = FALSE;
  gboolean has_delta = FALSE;
  gboolean has_finish_reason = FALSE;

  /* One pass over the choice's members, and one over the delta's, rather
   * than a lookup per name (each a walk over the keys). The first of
   * twice the same key counts, as a lookup would find it. */
  index = delta = member = (AgentJson) { 0 };
  finish_reason = NULL;
  finish_reason_len = 0;
  agent_json_iter_init (&iter, choice);
  while (agent_json_iter_next (&iter, &name, &name_len, &member))
    {
      if (!has_index && KEY_IS (name, name_len, "index"))
        {
          index = member;
          has_index = TRUE;
        }
      else if (!has_delta && KEY_IS (name, name_len, "delta"))
        {
          delta = member;
          has_delta = TRUE;
        }
      else if (!has_finish_reason && KEY_IS (name, name_len, "finish_reason"))
        {
          finish_reason = agent_json_string (&member, &finish_reason_len);
          has_finish_reason = TRUE;
        }
    }

  if (has_index)
    agent_json_int (&index, &n);
  if (!(accumulator = choice_accumulator (self, n)))
    return TRUE;

  agent_json_iter_init (&iter, &delta);
  while (agent_json_iter_next (&iter, &name, &name_len, &member))
    {
      gsize len;
      const char *text = agent_json_string (&member, &len);

      if (text != NULL)
        {
          if (KEY_IS (name, name_len, "content"))
            agent_accumulator_append_text (accumulator, text, len);
          else if (KEY_IS (name, name_len, "reasoning_content") ||
                   (KEY_IS (name, name_len, "reasoning") && !reasoning_content))
            {
              reasoning_content = name[strlen ("reasoning")] == '_';
              reasoning = text;
              reasoning_len = len;
            }
          else if (KEY_IS (name, name_len, "refusal"))
            agent_accumulator_append_refusal (accumulator, text, len);
        }
      else if (KEY_IS (name, name_len, "tool_calls"))
        decode_tool_calls (accumulator, &member);
      else if (KEY_IS (name, name_len, "content") && agent_json_is (&member, AGENT_JSON_ARRAY) &&
               !decode_parts (accumulator, &member, TRUE, error))
        return FALSE;
    }

  if (reasoning != NULL)
    agent_accumulator_append_reasoning (accumulator, reasoning, reasoning_len);

  if (finish_reason != NULL && finish_reason_len > 0)
    agent_accumulator_set_finish_reason (accumulator, finish_reason);

  return TRUE;
}

/* What a scan of the event listed (agent-openai-chat-scan-private.h): the
 * changes decode_choice() and openai_chat_decode() would make, in order */
static void
apply_changes (AgentOpenaiChatDecoder  *self,
               const AgentOpenaiChange *changes,
               guint                    n_changes)
{
  AgentAccumulator *accumulator = self->accumulator;

  for (guint i = 0; i < n_changes; i++)
    {
      const AgentOpenaiChange *change = &changes[i];

      if (accumulator == NULL && change->kind > AGENT_OPENAI_CHANGE_CHOICE)
        continue;  /* a choice whose index is out of range */

      switch (change->kind)
        {
        case AGENT_OPENAI_CHANGE_RESPONSE_ID:
          agent_accumulator_set_response_id (self->accumulator, change->text);
          break;
        case AGENT_OPENAI_CHANGE_MODEL:
          agent_accumulator_set_model (self->accumulator, change->text);
          break;
        case AGENT_OPENAI_CHANGE_CHOICES:
          self->saw_event = TRUE;
          break;
        case AGENT_OPENAI_CHANGE_CHOICE:
          accumulator = choice_accumulator (self, change->number);
          break;
        case AGENT_OPENAI_CHANGE_TEXT:
          agent_accumulator_append_text (accumulator, change->text, change->len);
          break;
        case AGENT_OPENAI_CHANGE_REFUSAL:
          agent_accumulator_append_refusal (accumulator, change->text, change->len);
          break;
        case AGENT_OPENAI_CHANGE_REASONING:
          agent_accumulator_append_reasoning (accumulator, change->text, change->len);
          break;
        case AGENT_OPENAI_CHANGE_TOOL_CALL:
          agent_accumulator_tool_call_delta (accumulator, change->number, change->id, change->name,
                                             change->type, change->text, change->len);
          break;
        case AGENT_OPENAI_CHANGE_FINISH_REASON:
          agent_accumulator_set_finish_reason (accumulator, change->text);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static gboolean
openai_chat_decode (gpointer     data,
                    const char  *event_type,
                    const char  *text,
                    gsize        len,
                    gboolean    *done,
                    GError     **error)
{
  AgentOpenaiChatDecoder *self = data;
  g_autoptr(GError) json_error = NULL;
  AgentJsonIter iter;
  AgentJson root;
  AgentJson member;
  const char *name;
  gsize name_len;

  if (len == 6 && memcmp (text, "[DONE]", 6) == 0)
    {
      *done = TRUE;
      return TRUE;
    }

  /* Most events: one pass over the text, no tree */
  if G_LIKELY (!self->no_scan && (event_type == NULL || strcmp (event_type, "error") != 0))
    {
      const AgentOpenaiChange *changes;
      guint n_changes;

      changes = _agent_openai_chat_scan (self->scan, text, len, &n_changes);
      if (changes != NULL)
        {
          apply_changes (self, changes, n_changes);
          self->n_scanned++;
          return TRUE;
        }
    }

  if (!agent_json_parser_parse (self->parser, text, len, &root, &json_error) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *excerpt = NULL;

      if (agent_stream_event_too_deep (json_error, error))
        return FALSE;

      if (event_type != NULL && strcmp (event_type, "error") == 0)
        {
          /* An error event whose data is plain text */
          excerpt = agent_excerpt (text, len, 500, self->secrets);
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROVIDER,
                       _("The provider reported an error: %s"), excerpt);
          return FALSE;
        }

      excerpt = agent_excerpt (text, len, 80, self->secrets);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent an event that is not a JSON object: “%s”"), excerpt);
      return FALSE;
    }

  /* An "error" event, or {"error": …} in the middle of a 200 stream: the
   * provider gave up. */
  if (event_type != NULL && strcmp (event_type, "error") == 0)
    {
      g_propagate_error (error, _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                      _("The provider reported an error"),
                                                                      &root));
      return FALSE;
    }

  agent_json_iter_init (&iter, &root);
  while (agent_json_iter_next (&iter, &name, &name_len, &member))
    {
      if (KEY_IS (name, name_len, "choices"))
        {
          AgentJsonIter choices;
          AgentJson choice;

          self->saw_event |= agent_json_is (&member, AGENT_JSON_ARRAY);
          agent_json_iter_init (&choices, &member);
          while (agent_json_iter_next (&choices, NULL, NULL, &choice))
            if (!decode_choice (self, &choice, error))
              return FALSE;
        }
      else if (KEY_IS (name, name_len, "id"))
        agent_accumulator_set_response_id (self->accumulator, agent_json_string (&member, NULL));
      else if (KEY_IS (name, name_len, "model"))
        agent_accumulator_set_model (self->accumulator, agent_json_string (&member, NULL));
      else if (KEY_IS (name, name_len, "usage") && agent_json_is (&member, AGENT_JSON_OBJECT))
        {
          g_autoptr(JsonNode) node = agent_json_to_node (&member);
          g_autoptr(AgentUsage) usage = agent_usage_new_from_json (node);

          /* Not an answer by itself: Anthropic's message_delta has a
           * usage too, and no choices */
          agent_accumulator_set_usage (self->accumulator, usage);
          self->saw_usage = TRUE;
        }
      else if (KEY_IS (name, name_len, "x_groq") && !self->saw_usage)
        {
          /* Groq also reports usage inside x_groq; used only if the
           * standard field never comes. */
          AgentJson usage = agent_json_member (&member, "usage");

          if (agent_json_is (&usage, AGENT_JSON_OBJECT))
            {
              g_autoptr(JsonNode) node = agent_json_to_node (&usage);

              g_clear_pointer (&self->provider_usage, agent_usage_unref);
              self->provider_usage = agent_usage_new_from_json (node);
            }
        }
      else if (KEY_IS (name, name_len, "error") && agent_json_exists (&member))
        {
          g_propagate_error (error, _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                          _("The provider reported an error"),
                                                                          &root));
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
openai_chat_is_complete (gpointer data)
{
  AgentOpenaiChatDecoder *self = data;

  if (!self->saw_usage && self->provider_usage != NULL)
    agent_accumulator_set_usage (self->accumulator, self->provider_usage);

  for (guint i = 1; self->other_choices != NULL && i < self->other_choices->len; i++)
    agent_accumulator_finish (g_ptr_array_index (self->other_choices, i));

  /* Some servers omit [DONE]: once the finish reason came, the end of the
   * body ends the answer (even if a last, useless event was cut off). */
  return agent_accumulator_has_finish_reason (self->accumulator);
}

static gboolean
openai_chat_saw_event (gpointer data)
{
  return ((AgentOpenaiChatDecoder *) data)->saw_event;
}

/* {"object": "list", "data": [{"id": "gpt-4o", …}, …]} */
char **
_agent_openai_parse_models (const AgentJson *root)
{
  AgentJson data = agent_json_member (root, "data");
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  AgentJsonIter iter;
  AgentJson model;

  if (!agent_json_is (&data, AGENT_JSON_ARRAY))
    return NULL;

  agent_json_iter_init (&iter, &data);
  while (agent_json_iter_next (&iter, NULL, NULL, &model))
    {
      const char *id = agent_json_member_string (&model, "id", NULL);

      if (id != NULL)
        g_strv_builder_add (names, id);
    }

  return g_strv_builder_end (names);
}

const AgentProviderBackend agent_openai_chat_backend = {
  .name = "openai",
  .default_base_url = "https://api.openai.com/v1",
  .api_key_variable = "OPENAI_API_KEY",
  .default_model = "gpt-4o-mini",
  .build_body = openai_chat_build_body,
  .build_path = openai_chat_build_path,
  .add_headers = openai_chat_add_headers,
  .accepts_part = openai_chat_accepts,
  .parts_name = "OpenAI",
  .images = &_agent_openai_images,
  .stream = {
    .display_name = N_("OpenAI-compatible chat completions"),
    .framing = AGENT_FRAMING_SSE,
    .decoder_new = openai_chat_decoder_new,
    .decoder_free = openai_chat_decoder_free,
    .decode = openai_chat_decode,
    .is_complete = openai_chat_is_complete,
    .saw_event = openai_chat_saw_event,
  },
  .models_path = "/models",
  .parse_models = _agent_openai_parse_models,
};
