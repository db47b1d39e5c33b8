/* agent-anthropic.c — the Anthropic Messages API
 *
 * `POST {base}/v1/messages` with `stream: true`, answered with Server-Sent
 * Events: `message_start` (id, model, usage), then for each block of the
 * answer (text, thinking, tool_use, …) `content_block_start`, its
 * `content_block_delta`s and `content_block_stop`, then `message_delta`
 * (the stop reason and the final usage) and `message_stop`.
 *
 * What libagent does not model is kept in the message's provider data,
 * under "anthropic": {"content": [blocks]}, in the order the blocks came:
 * finished thinking blocks with their signatures, redacted_thinking, the
 * blocks of tools the server ran (server_tool_use and their results). They
 * go back unchanged, before the text and the tool_use blocks, as the API
 * requires when thinking is on.
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
#include "wire/agent-wire-util-private.h"
#include "providers/agent-output-private.h"

#define PROVIDER_NAME      "anthropic"
#define API_VERSION        "2023-06-01"
/* The API requires max_tokens; this is sent when none is set. */
#define DEFAULT_MAX_TOKENS 4096

/* Request */

static inline const char *
nonnull (const char *s)
{
  return s != NULL ? s : "";
}

static cJSON *
add_message (cJSON      *messages,
             const char *role,
             cJSON      *content)
{
  cJSON *item = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "role", role);
  cJSON_AddItemToObject (item, "content", content);
  cJSON_AddItemToArray (messages, item);
  return item;
}

static cJSON *
text_block (const char *text)
{
  cJSON *block = cJSON_CreateObject ();

  cJSON_AddStringToObject (block, "type", "text");
  cJSON_AddStringToObject (block, "text", text);
  return block;
}

/* Image blocks (JPEG, PNG, GIF, WebP) and document blocks (PDF, plain
 * text), each with a base64 source, a text source or a URL source; in
 * user messages and inside tool_result blocks alike. */
static gboolean
anthropic_accepts (AgentContentPart *part,
                   AgentMessageRole  role)
{
  const char *mime_type = agent_content_part_get_mime_type (part);
  gboolean has_data = agent_content_part_get_data (part) != NULL;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    return _agent_mime_is_common_image (mime_type) && (has_data || _agent_part_has_http_uri (part));

  if (_agent_content_part_is_text_file (part))
    return TRUE;

  return g_ascii_strcasecmp (mime_type, "application/pdf") == 0 &&
         (has_data || _agent_part_has_http_uri (part));
}

static cJSON *
part_block (AgentContentPart *part)
{
  cJSON *block;
  cJSON *source;
  const char *name;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
    return text_block (agent_content_part_get_text (part));

  block = cJSON_CreateObject ();
  cJSON_AddStringToObject (block, "type",
                           agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE ?
                           "image" : "document");
  source = cJSON_AddObjectToObject (block, "source");

  if (_agent_content_part_is_text_file (part))
    {
      gsize len;
      const char *bytes = g_bytes_get_data (agent_content_part_get_data (part), &len);
      g_autofree char *text = g_strndup (bytes, len);

      cJSON_AddStringToObject (source, "type", "text");
      cJSON_AddStringToObject (source, "media_type", "text/plain");
      cJSON_AddStringToObject (source, "data", text);
    }
  else if (agent_content_part_get_data (part) != NULL)
    {
      const char *mime_type = NULL;
      const char *base64 = _agent_part_get_sent_base64 (part, &mime_type);

      cJSON_AddStringToObject (source, "type", "base64");
      cJSON_AddStringToObject (source, "media_type", mime_type);
      /* Kept with the part, which the request's messages hold */
      cJSON_AddItemToObject (source, "data", cJSON_CreateStringReference (base64));
    }
  else
    {
      cJSON_AddStringToObject (source, "type", "url");
      cJSON_AddStringToObject (source, "url", agent_content_part_get_uri (part));
    }

  name = agent_content_part_get_name (part);
  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_FILE && name != NULL)
    cJSON_AddStringToObject (block, "title", name);

  return block;
}

/* The parts of @message, added to @blocks */
static void
add_part_blocks (cJSON        *blocks,
                 AgentMessage *message)
{
  g_autoptr(GListModel) parts = agent_message_list_parts (message);
  guint n = g_list_model_get_n_items (parts);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

      /* What a tool returned that the API does not take: described */
      if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_TEXT &&
          !anthropic_accepts (part, AGENT_MESSAGE_ROLE_USER))
        {
          g_autofree char *description = _agent_content_part_dup_description (part);

          cJSON_AddItemToArray (blocks, text_block (description));
        }
      else
        cJSON_AddItemToArray (blocks, part_block (part));
    }
}

/* The arguments as the model wrote them, byte for byte, when they are a
 * JSON object; {} otherwise (the API wants an object). */
static cJSON *
tool_input (AgentToolCall *call)
{
  cJSON *written = _agent_json_raw_object (agent_tool_call_get_arguments (call));

  return written != NULL ? written : cJSON_CreateObject ();
}

/* The blocks the decoder kept (see the top of the file), or NULL. */
static JsonArray *
kept_blocks (AgentMessage *message)
{
  JsonNode *data = _agent_provider_data_get (agent_message_get_provider_data (message),
                                             PROVIDER_NAME);
  JsonNode *content;

  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    return NULL;
  content = json_object_get_member (json_node_get_object (data), "content");
  return content && JSON_NODE_HOLDS_ARRAY (content) ? json_node_get_array (content) : NULL;
}

/* The kept blocks, the text, the calls; NULL (nothing added) if there is
 * nothing to send, as the API refuses empty content. */
static cJSON *
add_assistant (cJSON        *messages,
               AgentMessage *message)
{
  const char *text = agent_message_get_content (message);
  JsonArray *kept = kept_blocks (message);
  cJSON *content = cJSON_CreateArray ();

  for (guint i = 0; kept != NULL && i < json_array_get_length (kept); i++)
    cJSON_AddItemToArray (content, agent_node_to_cjson (json_array_get_element (kept, i)));
  if (text != NULL && text[0] != '\0')
    cJSON_AddItemToArray (content, text_block (text));

  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      cJSON *block = cJSON_CreateObject ();

      cJSON_AddStringToObject (block, "type", "tool_use");
      cJSON_AddStringToObject (block, "id", nonnull (agent_tool_call_get_id (call)));
      cJSON_AddStringToObject (block, "name", nonnull (agent_tool_call_get_name (call)));
      cJSON_AddItemToObject (block, "input", tool_input (call));
      cJSON_AddItemToArray (content, block);
    }

  if (cJSON_GetArraySize (content) == 0)
    {
      cJSON_Delete (content);
      return NULL;
    }
  return add_message (messages, "assistant", content);
}

/* The blocks of @last if it is a user message (its content turned into an
 * array of blocks if it was a string), else NULL. */
static cJSON *
user_blocks (cJSON *last)
{
  cJSON *content = cJSON_GetObjectItem (last, "content");
  cJSON *blocks;

  if (g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItem (last, "role")), "user") != 0)
    return NULL;
  if (!cJSON_IsString (content))
    return content;

  blocks = cJSON_CreateArray ();
  if (content->valuestring[0] != '\0')
    cJSON_AddItemToArray (blocks, text_block (content->valuestring));
  cJSON_ReplaceItemInObject (last, "content", blocks);
  return blocks;
}

/* Tool results go back as tool_result blocks of a user message; the API
 * wants user and assistant turns to alternate, so the results of one step
 * and a user message after them become one user message. */
static void
add_messages (cJSON      *messages,
              GListModel *model,
              GString    *system)
{
  guint n_messages = g_list_model_get_n_items (model);
  cJSON *last = NULL;

  for (guint i = 0; i < n_messages; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (model, i);
      const char *content = agent_message_get_content (message);
      cJSON *blocks;
      cJSON *item;

      switch (agent_message_get_role (message))
        {
        case AGENT_MESSAGE_ROLE_SYSTEM:
          /* No system role in messages: it joins the system prompt. */
          if (content != NULL && content[0] != '\0')
            g_string_append_printf (system, "%s%s", system->len > 0 ? "\n\n" : "", content);
          break;

        case AGENT_MESSAGE_ROLE_USER:
          if (agent_message_get_n_attachments (message) > 0)
            {
              if ((blocks = user_blocks (last)) == NULL)
                last = add_message (messages, "user", blocks = cJSON_CreateArray ());
              add_part_blocks (blocks, message);
            }
          else if ((blocks = user_blocks (last)) == NULL)
            last = add_message (messages, "user", cJSON_CreateString (nonnull (content)));
          else if (content != NULL && content[0] != '\0')
            cJSON_AddItemToArray (blocks, text_block (content));
          break;

        case AGENT_MESSAGE_ROLE_TOOL:
          if ((blocks = user_blocks (last)) == NULL)
            last = add_message (messages, "user", blocks = cJSON_CreateArray ());
          item = cJSON_CreateObject ();
          cJSON_AddStringToObject (item, "type", "tool_result");
          cJSON_AddStringToObject (item, "tool_use_id",
                                   nonnull (agent_message_get_tool_call_id (message)));
          /* A result with images: its content as blocks */
          if (agent_message_get_n_attachments (message) > 0)
            add_part_blocks (cJSON_AddArrayToObject (item, "content"), message);
          else
            cJSON_AddStringToObject (item, "content", nonnull (content));
          if (agent_message_is_error (message))
            cJSON_AddTrueToObject (item, "is_error");
          cJSON_AddItemToArray (blocks, item);
          break;

        case AGENT_MESSAGE_ROLE_ASSISTANT:
          if ((item = add_assistant (messages, message)) != NULL)
            last = item;
          break;

        default:
          g_assert_not_reached ();
        }
    }
}

static void
add_tools (cJSON      *root,
           GListModel *model)
{
  guint n_tools = model ? g_list_model_get_n_items (model) : 0;
  cJSON *tools;

  if (n_tools == 0)
    return;

  tools = cJSON_AddArrayToObject (root, "tools");
  for (guint i = 0; i < n_tools; i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (model, i);
      cJSON *item = cJSON_CreateObject ();

      cJSON_AddStringToObject (item, "name", agent_tool_get_name (tool));
      cJSON_AddStringToObject (item, "description", nonnull (agent_tool_get_description (tool)));
      cJSON_AddItemToObject (item, "input_schema",
                             agent_node_to_cjson (agent_tool_get_parameters (tool)));
      cJSON_AddItemToArray (tools, item);
    }
}

static GBytes *
anthropic_build_body (const AgentRequest  *request,
                      GError             **error)
{
  /* Thinking is off unless asked for: NONE and DEFAULT send nothing. */
  static const guint budgets[] = {
    [AGENT_REASONING_EFFORT_LOW] = 1024,
    [AGENT_REASONING_EFFORT_MEDIUM] = 4096,
    [AGENT_REASONING_EFFORT_HIGH] = 16384,
  };
  AgentReasoningEffort effort = agent_provider_get_reasoning_effort (request->provider);
  guint max_tokens = agent_provider_get_max_tokens (request->provider);
  guint budget = effort < G_N_ELEMENTS (budgets) ? budgets[effort] : 0;
  g_autoptr(GString) system = NULL;
  g_autoptr(cJSON) root = NULL;

  if (!_agent_request_check_parts (request, "Anthropic", anthropic_accepts, error))
    return NULL;

  system = g_string_new (request->system_prompt);
  root = cJSON_CreateObject ();
  if (max_tokens == 0)
    max_tokens = DEFAULT_MAX_TOKENS;
  /* The budget counts in max_tokens, which must exceed it. */
  if (budget > 0 && max_tokens <= budget)
    max_tokens = budget + DEFAULT_MAX_TOKENS;

  if (request->model != NULL)
    cJSON_AddStringToObject (root, "model", request->model);
  cJSON_AddNumberToObject (root, "max_tokens", max_tokens);
  add_messages (cJSON_AddArrayToObject (root, "messages"), request->messages, system);
  if (system->len > 0)
    cJSON_AddStringToObject (root, "system", system->str);
  add_tools (root, request->tools);

  if (budget > 0)
    {
      cJSON *thinking = cJSON_AddObjectToObject (root, "thinking");

      cJSON_AddStringToObject (thinking, "type", "enabled");
      cJSON_AddNumberToObject (thinking, "budget_tokens", budget);
    }

  _agent_output_add_anthropic (root, request, budget > 0);
  if (!_agent_settings_add_anthropic (root, request, budget > 0, error))
    return NULL;
  cJSON_AddTrueToObject (root, "stream");
  if (!_agent_settings_merge_options (root, request, "Anthropic", "messages", error))
    return NULL;
  if (agent_provider_get_prompt_cache (request->provider))
    _agent_anthropic_add_cache_control (root);

  return _agent_json_print_body (root, error);
}

static char *
anthropic_build_path (const AgentRequest *request)
{
  return g_strdup ("/v1/messages");
}

static void
anthropic_add_headers (AgentProvider      *provider,
                       SoupMessageHeaders *headers)
{
  _agent_provider_add_api_key_header (provider, headers, "x-api-key");
  soup_message_headers_replace (headers, "anthropic-version", API_VERSION);
}

/* Stream */

typedef enum
{
  BLOCK_TEXT,
  BLOCK_THINKING,
  BLOCK_TOOL_USE,
  BLOCK_SERVER_TOOL_USE,
  BLOCK_OTHER,           /* kept as it started: redacted_thinking, server tool results, …
                          * (is_kept_block()); any other type is an error */
} BlockKind;

typedef struct
{
  gint64     index;
  BlockKind  kind;
  GString   *text;       /* thinking, or a server tool's input as it streams */
  GString   *signature;
  JsonNode  *start;      /* content_block_start's content_block; NULL for text */
  gboolean   open;
  gboolean   has_input;
} Block;

typedef struct
{
  AgentAccumulator *accumulator;
  AgentJsonParser  *parser;
  const char * const *secrets;   /* redacted from what errors quote */
  JsonArray        *kept;     /* what goes in the provider data */
  JsonObject       *usage;    /* message_start's, merged with message_delta's */
  Block             block;    /* the API streams one block after the other */
  gboolean          started;  /* message_start came */
} AnthropicDecoder;

static void
block_clear (Block *block)
{
  if (block->text != NULL)
    g_string_free (block->text, TRUE);
  if (block->signature != NULL)
    g_string_free (block->signature, TRUE);
  g_clear_pointer (&block->start, json_node_unref);
  memset (block, 0, sizeof *block);
}

static gpointer
anthropic_decoder_new (AgentAccumulator   *accumulator,
                       const char * const *secrets)
{
  AnthropicDecoder *self = g_new0 (AnthropicDecoder, 1);

  self->accumulator = accumulator;
  self->secrets = secrets;
  self->parser = agent_json_parser_new ();
  self->kept = json_array_new ();
  return self;
}

static void
anthropic_decoder_free (gpointer data)
{
  AnthropicDecoder *self = data;

  block_clear (&self->block);
  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_clear_pointer (&self->kept, json_array_unref);
  g_clear_pointer (&self->usage, json_object_unref);
  g_free (self);
}

/* The open block, if the event's index names it. */
static Block *
find_block (AnthropicDecoder *self,
            const AgentJson  *event)
{
  AgentJson index = agent_json_member (event, "index");
  gint64 value;

  if (!self->block.open || !agent_json_int (&index, &value) || value != self->block.index)
    return NULL;
  return &self->block;
}

/* A finished block goes in the message's provider data, to be sent back. */
static void
keep_block (AnthropicDecoder *self,
            JsonNode         *block)
{
  AgentMessage *message = agent_accumulator_get_message (self->accumulator);
  g_autoptr(JsonNode) data = NULL;
  JsonObject *object = json_object_new ();
  JsonNode *value = json_node_new (JSON_NODE_OBJECT);

  json_array_add_element (self->kept, block);
  json_object_set_array_member (object, "content", json_array_ref (self->kept));
  json_node_take_object (value, object);

  /* The setter keeps a sealed copy. */
  data = _agent_provider_data_with (agent_message_get_provider_data (message), PROVIDER_NAME,
                                    value);
  agent_message_set_provider_data (message, data);
}

static void
close_block (AnthropicDecoder *self)
{
  Block *block = &self->block;
  JsonObject *object = block->start ? json_node_get_object (block->start) : NULL;
  g_autofree char *arguments = NULL;
  JsonNode *input;

  if (!block->open)
    return;

  switch (block->kind)
    {
    case BLOCK_TOOL_USE:
      /* No input streamed (a tool without arguments): the input it
       * started with, normally {}. */
      if (!block->has_input)
        {
          input = json_object_get_member (object, "input");
          arguments = input && JSON_NODE_HOLDS_OBJECT (input) ? agent_json_node_to_string (input, FALSE)
                                                              : g_strdup ("{}");
          agent_accumulator_tool_call_delta (self->accumulator, block->index, NULL, NULL, NULL,
                                             arguments, strlen (arguments));
        }
      break;

    case BLOCK_THINKING:
      json_object_set_string_member (object, "thinking", block->text->str);
      json_object_set_string_member (object, "signature", block->signature->str);
      break;

    case BLOCK_SERVER_TOOL_USE:
      /* Run by the server: sent back with the whole input it streamed. */
      if ((input = agent_json_parse (block->text->str, block->text->len, NULL)) != NULL)
        {
          if (JSON_NODE_HOLDS_OBJECT (input))
            json_object_set_member (object, "input", g_steal_pointer (&input));
          g_clear_pointer (&input, json_node_unref);
        }
      break;

    case BLOCK_TEXT:
    case BLOCK_OTHER:
    default:
      break;
    }

  if (block->kind != BLOCK_TEXT && block->kind != BLOCK_TOOL_USE)
    keep_block (self, g_steal_pointer (&block->start));
  block_clear (block);
}

/* A tool call whose input streamed gets its arguments whole only with
 * its content_block_stop: a stream that goes on to another block, or to
 * the message's end, without it may have cut them (a proxy that joined
 * two streams), and such a call must never run. */
static gboolean
check_call_finished (AnthropicDecoder  *self,
                     GError           **error)
{
  AgentToolCall *call;

  if (!self->block.open || self->block.kind != BLOCK_TOOL_USE || !self->block.has_input)
    return TRUE;

  call = agent_accumulator_lookup_tool_call (self->accumulator, self->block.index);
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
               _("The stream went on before the arguments of the call to “%s” were complete "
                 "(no content_block_stop)"),
               call != NULL && agent_tool_call_get_name (call) != NULL
                 ? agent_tool_call_get_name (call) : "?");
  return FALSE;
}

/* Blocks kept as they came and sent back: the server's own tools, their
 * results, and what it keeps to itself */
static gboolean
is_kept_block (const char *type)
{
  static const char * const kept[] = {
    "redacted_thinking", "mcp_tool_use", "mcp_tool_result", "container_upload",
  };

  if (type == NULL)
    return FALSE;
  /* web_search_tool_result, code_execution_tool_result, … */
  if (g_str_has_suffix (type, "_tool_result"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    if (strcmp (type, kept[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
block_start (AnthropicDecoder  *self,
             const AgentJson   *root,
             GError           **error)
{
  AgentJson index = agent_json_member (root, "index");
  AgentJson content_block = agent_json_member (root, "content_block");
  const char *type = agent_json_member_string (&content_block, "type", NULL);
  Block *block = &self->block;
  const char *text;
  gsize len;

  /* A part of the answer libagent cannot tell the meaning of: reported,
   * not dropped nor sent back blindly */
  if (g_strcmp0 (type, "text") != 0 && g_strcmp0 (type, "thinking") != 0 &&
      g_strcmp0 (type, "tool_use") != 0 && g_strcmp0 (type, "server_tool_use") != 0 &&
      !is_kept_block (type))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent a part of the answer of a kind libagent does not know "
                     "(“%s”)"),
                   type != NULL ? type : "?");
      return FALSE;
    }

  close_block (self);
  block->open = TRUE;
  if (!agent_json_int (&index, &block->index))
    block->index = G_MAXINT64;

  if (g_strcmp0 (type, "text") == 0)
    {
      /* Another piece of text (the model called a server tool, cited a
       * source…): it follows as it came, with a break */
      agent_accumulator_break_text (self->accumulator);
      block->kind = BLOCK_TEXT;
      if ((text = agent_json_member_string (&content_block, "text", &len)) != NULL && len > 0)
        agent_accumulator_append_text (self->accumulator, text, len);
      return TRUE;
    }

  block->start = agent_json_to_node (&content_block);

  if (g_strcmp0 (type, "thinking") == 0)
    {
      block->kind = BLOCK_THINKING;
      block->text = g_string_new (agent_json_member_string (&content_block, "thinking", NULL));
      block->signature = g_string_new (agent_json_member_string (&content_block, "signature",
                                                                 NULL));
      if (block->text->len > 0)
        agent_accumulator_append_reasoning (self->accumulator, block->text->str, block->text->len);
    }
  else if (g_strcmp0 (type, "tool_use") == 0)
    {
      block->kind = BLOCK_TOOL_USE;
      agent_accumulator_tool_call_delta (self->accumulator, block->index,
                                         agent_json_member_string (&content_block, "id", NULL),
                                         agent_json_member_string (&content_block, "name", NULL),
                                         NULL, NULL, 0);
    }
  else if (g_strcmp0 (type, "server_tool_use") == 0)
    {
      block->kind = BLOCK_SERVER_TOOL_USE;
      block->text = g_string_new (NULL);
    }
  else
    block->kind = BLOCK_OTHER;

  return TRUE;
}

static void
block_delta (AnthropicDecoder *self,
             const AgentJson  *root)
{
  AgentJson delta = agent_json_member (root, "delta");
  const char *type = agent_json_member_string (&delta, "type", NULL);
  Block *block = find_block (self, root);
  const char *text;
  gsize len;

  if (type == NULL)
    return;

  if (strcmp (type, "text_delta") == 0)
    {
      if ((text = agent_json_member_string (&delta, "text", &len)) != NULL)
        agent_accumulator_append_text (self->accumulator, text, len);
    }
  else if (strcmp (type, "thinking_delta") == 0)
    {
      if ((text = agent_json_member_string (&delta, "thinking", &len)) != NULL)
        {
          agent_accumulator_append_reasoning (self->accumulator, text, len);
          if (block != NULL && block->kind == BLOCK_THINKING)
            g_string_append_len (block->text, text, len);
        }
    }
  else if (strcmp (type, "signature_delta") == 0)
    {
      if ((text = agent_json_member_string (&delta, "signature", &len)) != NULL &&
          block != NULL && block->kind == BLOCK_THINKING)
        g_string_append_len (block->signature, text, len);
    }
  else if (strcmp (type, "input_json_delta") == 0 && block != NULL &&
           (text = agent_json_member_string (&delta, "partial_json", &len)) != NULL && len > 0)
    {
      if (block->kind == BLOCK_TOOL_USE)
        {
          agent_accumulator_tool_call_delta (self->accumulator, block->index, NULL, NULL, NULL,
                                             text, len);
          block->has_input = TRUE;
        }
      else if (block->kind == BLOCK_SERVER_TOOL_USE)
        g_string_append_len (block->text, text, len);
    }
}

/* Usage comes in message_start and again, updated, in message_delta: the
 * later non-null fields win. The merged object is the raw usage. The
 * prompt counts the tokens read from and written to the cache too. */
static void
merge_usage (AnthropicDecoder *self,
             const AgentJson  *usage,
             gboolean          skip_null)
{
  g_autoptr(AgentUsage) result = NULL;
  g_autoptr(JsonNode) node = NULL;
  AgentJsonIter iter;
  AgentJson member;
  const char *name;

  if (self->usage == NULL)
    self->usage = json_object_new ();

  agent_json_iter_init (&iter, usage);
  while (agent_json_iter_next (&iter, &name, NULL, &member))
    if (!skip_null || agent_json_exists (&member))
      json_object_set_member (self->usage, name, agent_json_to_node (&member));

#define COUNT(name) json_object_get_int_member_with_default (self->usage, name, 0)
#define REPORTED(name) (json_object_has_member (self->usage, name) ? COUNT (name) : -1)
  node = json_node_init_object (json_node_alloc (), self->usage);
  result = _agent_usage_new_full (COUNT ("input_tokens") + COUNT ("cache_creation_input_tokens")
                                    + COUNT ("cache_read_input_tokens"),
                                  COUNT ("output_tokens"), -1, 0,
                                  REPORTED ("cache_read_input_tokens"),
                                  REPORTED ("cache_creation_input_tokens"), node);
#undef REPORTED
#undef COUNT
  agent_accumulator_set_usage (self->accumulator, result);
}

static gboolean
anthropic_decode (gpointer     data,
                  const char  *event_type,
                  const char  *text,
                  gsize        len,
                  gboolean    *done,
                  GError     **error)
{
  AnthropicDecoder *self = data;
  g_autoptr(GError) json_error = NULL;
  AgentJson root;
  AgentJson member;
  AgentJson part;
  const char *type;

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

  /* The data's type names the event; the event: line says the same. */
  if ((type = agent_json_member_string (&root, "type", NULL)) == NULL)
    type = event_type ? event_type : "";

  if (strcmp (type, "content_block_delta") == 0)
    block_delta (self, &root);
  else if (strcmp (type, "content_block_start") == 0)
    {
      if (!check_call_finished (self, error) || !block_start (self, &root, error))
        return FALSE;
    }
  else if (strcmp (type, "content_block_stop") == 0)
    {
      if (find_block (self, &root) != NULL)
        close_block (self);
    }
  else if (strcmp (type, "message_start") == 0)
    {
      /* One message per stream: a second one is another stream joined to
       * this one (a proxy splicing in a retry), whose blocks would merge
       * with the first's */
      if (self->started)
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The stream started a second message (message_start) before "
                                 "the first one ended"));
          return FALSE;
        }
      self->started = TRUE;

      part = agent_json_member (&root, "message");
      agent_accumulator_set_response_id (self->accumulator,
                                         agent_json_member_string (&part, "id", NULL));
      agent_accumulator_set_model (self->accumulator,
                                   agent_json_member_string (&part, "model", NULL));
      member = agent_json_member (&part, "usage");
      if (agent_json_is (&member, AGENT_JSON_OBJECT))
        merge_usage (self, &member, FALSE);
    }
  else if (strcmp (type, "message_delta") == 0)
    {
      const char *stop_reason;

      part = agent_json_member (&root, "delta");
      stop_reason = agent_json_member_string (&part, "stop_reason", NULL);

      /* A tool_use block left open without streamed input has the input
       * it started with. With some, its arguments may be cut: only an
       * answer cut off (max_tokens) or refused ends so, and the turn never
       * runs the calls of those. */
      if (g_strcmp0 (stop_reason, "max_tokens") != 0 && g_strcmp0 (stop_reason, "refusal") != 0 &&
          !check_call_finished (self, error))
        return FALSE;
      if (self->block.kind == BLOCK_TOOL_USE)
        close_block (self);

      if (stop_reason != NULL && stop_reason[0] != '\0')
        agent_accumulator_set_finish_reason (self->accumulator, stop_reason);

      member = agent_json_member (&root, "usage");
      if (agent_json_is (&member, AGENT_JSON_OBJECT))
        merge_usage (self, &member, TRUE);
    }
  else if (strcmp (type, "message_stop") == 0)
    {
      if (!check_call_finished (self, error))
        return FALSE;
      *done = TRUE;
    }
  else if (strcmp (type, "error") == 0 || g_strcmp0 (event_type, "error") == 0)
    {
      /* {"type": "error", "error": {"type": "overloaded_error", "message": …}} */
      g_propagate_error (error,
                         _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                _("The provider reported an error"),
                                                                &root));
      return FALSE;
    }
  /* ping, and events this file does not know, are ignored. */

  return TRUE;
}

static gboolean
anthropic_saw_event (gpointer data)
{
  return ((AnthropicDecoder *) data)->started;
}

static gboolean
anthropic_is_complete (gpointer data)
{
  AnthropicDecoder *self = data;

  /* The stop reason came in message_delta: only message_stop is missing
   * (some recordings end without a newline after it). */
  return agent_accumulator_has_finish_reason (self->accumulator);
}

const AgentProviderBackend agent_anthropic_backend = {
  .name = "anthropic",
  .default_base_url = "https://api.anthropic.com",
  .api_key_variable = "ANTHROPIC_API_KEY",
  .default_model = "claude-sonnet-4-5",
  .build_body = anthropic_build_body,
  .output_by_tool = TRUE,
  .build_path = anthropic_build_path,
  .add_headers = anthropic_add_headers,
  .accepts_part = anthropic_accepts,
  .parts_name = "Anthropic",
  .images = &_agent_anthropic_images,
  .stream = {
    .display_name = N_("Anthropic Messages"),
    .framing = AGENT_FRAMING_SSE,
    .decoder_new = anthropic_decoder_new,
    .decoder_free = anthropic_decoder_free,
    .decode = anthropic_decode,
    .is_complete = anthropic_is_complete,
    .saw_event = anthropic_saw_event,
  },
  /* {"data": [{"id": "claude-…", "display_name": …}, …], "has_more": …};
   * 1000 is the largest page, 20 the default. */
  .models_path = "/v1/models?limit=1000",
  .parse_models = _agent_openai_parse_models,
};
