/* agent-openai-responses.c — the OpenAI Responses API
 *
 * `POST {base}/responses` with `stream: true`, answered with Server-Sent
 * Events named after their `type`: response.created, then for each output
 * item (reasoning, message, function_call) output_item.added, its deltas
 * and output_item.done, and at the end response.completed (or
 * response.incomplete, or response.failed).
 *
 * The conversation is sent whole every time, with `store: false` and no
 * previous_response_id, so that any compatible server can follow it: what
 * the model wrote goes back as input items — its reasoning items as they
 * came (with their encrypted content), its text, a function_call per tool
 * call and a function_call_output per result. What libagent does not model
 * is kept in provider data under "openai-responses":
 *
 *  - on the message, {"output": [item, …]}: the response's output items in
 *    order, reasoning items whole, the others as their place among them,
 *    {"type": "message", "content-start": N} (N: where its text begins in
 *    the content, in bytes) or {"type": "function_call", "call_id": …};
 *  - on each tool call, {"id": "fc_…"}: its item id. The call's id in
 *    libagent is the call_id.
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
#include "transport/agent-provider-private.h"
#include "tools/agent-tool.h"
#include "wire/agent-wire-util-private.h"
#include "providers/agent-output-private.h"
#include "providers/agent-provider-settings-private.h"

#define PROVIDER_NAME "openai-responses"
/* Between two parts of the reasoning or the refusal. The text of several
 * message items is joined with nothing, as the SDKs' output_text is: the
 * message's content breaks say where each begins. */
#define SEPARATOR "\n\n"

/* Request */

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* provider_data["openai-responses"][@name] */
static JsonNode *
own_data (JsonNode   *provider_data,
          const char *name)
{
  JsonNode *node = _agent_provider_data_get (provider_data, PROVIDER_NAME);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_get_member (json_node_get_object (node), name);
}

/* With store: false the server keeps nothing: a reasoning item is only
 * worth sending back with its content (encrypted from OpenAI, in clear
 * from some other servers). */
static gboolean
reasoning_is_replayable (JsonObject *item)
{
  const char *encrypted = member_string (item, "encrypted_content");
  JsonNode *content = json_object_get_member (item, "content");

  return (encrypted != NULL && encrypted[0] != '\0') ||
         (content != NULL && JSON_NODE_HOLDS_ARRAY (content) &&
          json_array_get_length (json_node_get_array (content)) > 0);
}

static cJSON *
text_message (const char *role,
              const char *content)
{
  cJSON *item = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "role", role);
  cJSON_AddStringToObject (item, "content", content ? content : "");
  return item;
}

/* input_image (a data: URL or the http(s) URL the server fetches),
 * input_file with file_data for PDFs; text documents as input_text */
static gboolean
responses_accepts (AgentContentPart *part,
                   AgentMessageRole  role)
{
  const char *mime_type = agent_content_part_get_mime_type (part);

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    return _agent_mime_is_common_image (mime_type) &&
           (agent_content_part_get_data (part) != NULL || _agent_part_has_http_uri (part));

  if (_agent_content_part_is_text_file (part))
    return TRUE;

  return g_ascii_strcasecmp (mime_type, "application/pdf") == 0 &&
         (agent_content_part_get_data (part) != NULL || _agent_part_has_http_uri (part));
}

static cJSON *
input_text (const char *text)
{
  cJSON *item = cJSON_CreateObject ();

  cJSON_AddStringToObject (item, "type", "input_text");
  cJSON_AddStringToObject (item, "text", text);
  return item;
}

static cJSON *
input_part (AgentContentPart *part)
{
  gboolean has_data = agent_content_part_get_data (part) != NULL;
  g_autofree char *url = NULL;
  cJSON *item;

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
    return input_text (agent_content_part_get_text (part));

  if (_agent_content_part_is_text_file (part))
    {
      g_autofree char *text = _agent_content_part_dup_file_text (part);

      return input_text (text);
    }

  url = has_data ? _agent_part_dup_sent_data_url (part)
                 : g_strdup (agent_content_part_get_uri (part));
  item = cJSON_CreateObject ();
  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    {
      cJSON_AddStringToObject (item, "type", "input_image");
      cJSON_AddStringToObject (item, "image_url", url);
    }
  else
    {
      const char *name = agent_content_part_get_name (part);

      cJSON_AddStringToObject (item, "type", "input_file");
      if (has_data)
        {
          cJSON_AddStringToObject (item, "filename", name != NULL ? name : "document.pdf");
          cJSON_AddStringToObject (item, "file_data", url);
        }
      else
        cJSON_AddStringToObject (item, "file_url", url);
    }

  return item;
}

/* The parts of a message with attachments, as an array of input items */
static cJSON *
input_parts (AgentMessage *message)
{
  g_autoptr(GListModel) parts = agent_message_list_parts (message);
  guint n = g_list_model_get_n_items (parts);
  cJSON *array = cJSON_CreateArray ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

      /* What a tool returned that the API does not take: described */
      if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_TEXT &&
          !responses_accepts (part, AGENT_MESSAGE_ROLE_USER))
        {
          g_autofree char *description = _agent_content_part_dup_description (part);

          cJSON_AddItemToArray (array, input_text (description));
        }
      else
        cJSON_AddItemToArray (array, input_part (part));
    }

  return array;
}

static cJSON *
call_to_json (AgentToolCall *call,
              gboolean       with_id)
{
  cJSON *item = cJSON_CreateObject ();
  JsonNode *id = own_data (agent_tool_call_get_provider_data (call), "id");
  const char *call_id = agent_tool_call_get_id (call);
  const char *name = agent_tool_call_get_name (call);

  cJSON_AddStringToObject (item, "type", "function_call");
  if (with_id && id != NULL && JSON_NODE_HOLDS_VALUE (id) && json_node_get_string (id) != NULL)
    cJSON_AddStringToObject (item, "id", json_node_get_string (id));
  cJSON_AddStringToObject (item, "call_id", call_id ? call_id : "");
  cJSON_AddStringToObject (item, "name", name ? name : "");
  /* Byte for byte what the model sent */
  cJSON_AddStringToObject (item, "arguments", agent_tool_call_get_arguments (call));
  return item;
}

/* Where the text of each output item begins in @content ("content-start"
 * of its message items), or -1; NULL when no item says, or when what they
 * say does not fit @content (a message changed since, or data from before
 * libagent recorded it): the content then goes whole in one place. */
static gint64 *
content_starts (JsonArray  *output,
                guint       n_items,
                const char *content)
{
  g_autofree gint64 *starts = g_new (gint64, n_items + 1);
  gsize len = content != NULL ? strlen (content) : 0;
  gint64 last = -1;

  for (guint i = 0; i < n_items; i++)
    {
      JsonNode *element = json_array_get_element (output, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonNode *start = item ? json_object_get_member (item, "content-start") : NULL;

      starts[i] = -1;
      if (start == NULL || !JSON_NODE_HOLDS_VALUE (start) ||
          json_node_get_value_type (start) != G_TYPE_INT64)
        continue;

      starts[i] = json_node_get_int (start);
      if (starts[i] < last || starts[i] > (gint64) len ||
          !g_utf8_validate_len (content + (last < 0 ? 0 : last),
                                starts[i] - (last < 0 ? 0 : last), NULL))
        return NULL;
      /* The first one takes whatever came before it */
      if (last < 0)
        starts[i] = 0;
      last = starts[i];
    }

  if (last < 0)
    return NULL;
  starts[n_items] = len;
  return g_steal_pointer (&starts);
}

/* The text of output item @i, from @starts: up to where the next begins */
static char *
item_text (const gint64 *starts,
           guint         n_items,
           guint         i,
           const char   *content)
{
  guint next = i + 1;

  while (next < n_items && starts[next] < 0)
    next++;
  return g_strndup (content + starts[i], starts[next] - starts[i]);
}

/* The items of an assistant message, in the order the model wrote them
 * (its output items: reasoning whole, the places of its text and calls).
 * Reasoning that cannot be replayed is left out, and then so are the item
 * ids of the calls (the server would ask for the reasoning they came with).
 * Returns whether the message holds reasoning items. */
static gboolean
add_assistant (cJSON        *input,
               AgentMessage *message)
{
  JsonNode *node = own_data (agent_message_get_provider_data (message), "output");
  JsonArray *output = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  guint n_items = output ? json_array_get_length (output) : 0;
  guint n_calls = agent_message_get_n_tool_calls (message);
  const char *content = agent_message_get_content (message);
  g_autofree gboolean *sent = g_new0 (gboolean, n_calls + 1);
  g_autofree gint64 *starts = n_items > 0 ? content_starts (output, n_items, content) : NULL;
  gboolean content_pending = content != NULL && content[0] != '\0';
  gboolean has_reasoning = FALSE;
  gboolean with_ids = TRUE;
  cJSON *last;

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n_items; i++)
      {
        JsonNode *element = json_array_get_element (output, i);
        JsonObject *item = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
        const char *type = member_string (item, "type");
        const char *call_id = member_string (item, "call_id");

        if (g_strcmp0 (type, "reasoning") == 0)
          {
            has_reasoning = TRUE;
            if (pass == 0)
              with_ids = with_ids && reasoning_is_replayable (item);
            else if (reasoning_is_replayable (item))
              cJSON_AddItemToArray (input, agent_node_to_cjson (element));
          }
        else if (pass == 1 && starts != NULL && starts[i] >= 0)
          {
            /* Each message item with its own text, as it came */
            g_autofree char *text = item_text (starts, n_items, i, content);

            if (text[0] != '\0')
              cJSON_AddItemToArray (input, text_message ("assistant", text));
            content_pending = FALSE;
          }
        else if (pass == 1 && starts == NULL && content_pending &&
                 (g_strcmp0 (type, "message") == 0 || g_strcmp0 (type, "function_call") == 0))
          {
            cJSON_AddItemToArray (input, text_message ("assistant", content));
            content_pending = FALSE;
          }

        for (guint j = 0; pass == 1 && call_id != NULL && j < n_calls; j++)
          {
            AgentToolCall *call = agent_message_get_tool_call (message, j);

            if (!sent[j] && g_strcmp0 (agent_tool_call_get_id (call), call_id) == 0)
              {
                cJSON_AddItemToArray (input, call_to_json (call, with_ids));
                sent[j] = TRUE;
                break;
              }
          }
      }

  /* What the output items did not place (a message built by hand) */
  if (content_pending)
    cJSON_AddItemToArray (input, text_message ("assistant", content));
  for (guint j = 0; j < n_calls; j++)
    if (!sent[j])
      cJSON_AddItemToArray (input,
                            call_to_json (agent_message_get_tool_call (message, j), with_ids));

  /* A reasoning item must be followed by what it led to (an answer cut
   * off while reasoning has nothing to follow it). */
  while ((last = cJSON_GetArrayItem (input, cJSON_GetArraySize (input) - 1)) &&
         g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItem (last, "type")), "reasoning") == 0)
    cJSON_DeleteItemFromArray (input, cJSON_GetArraySize (input) - 1);

  return has_reasoning;
}

static GBytes *
openai_responses_build_body (const AgentRequest  *request,
                             GError             **error)
{
  /* NONE is "minimal", the lowest effort of the gpt-5 models (gpt-5.1 and
   * later call theirs "none"). */
  static const char * const efforts[] = { NULL, "minimal", "low", "medium", "high" };
  AgentReasoningEffort effort = agent_provider_get_reasoning_effort (request->provider);
  const char *effort_name = effort < G_N_ELEMENTS (efforts) ? efforts[effort] : NULL;
  g_autoptr(cJSON) root = NULL;
  gboolean reasoning = effort_name != NULL;
  guint n_tools = request->tools ? g_list_model_get_n_items (request->tools) : 0;
  cJSON *input;

  if (!_agent_request_check_parts (request, "OpenAI Responses", responses_accepts, error))
    return NULL;

  root = cJSON_CreateObject ();
  if (request->model != NULL)
    cJSON_AddStringToObject (root, "model", request->model);
  if (request->system_prompt != NULL && request->system_prompt[0] != '\0')
    cJSON_AddStringToObject (root, "instructions", request->system_prompt);

  input = cJSON_AddArrayToObject (root, "input");
  for (guint i = 0; i < g_list_model_get_n_items (request->messages); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (request->messages, i);
      const char *content = agent_message_get_content (message);
      const char *call_id;
      cJSON *item;

      switch (agent_message_get_role (message))
        {
        case AGENT_MESSAGE_ROLE_SYSTEM:
          cJSON_AddItemToArray (input, text_message ("system", content));
          break;

        case AGENT_MESSAGE_ROLE_USER:
          if (agent_message_get_n_attachments (message) > 0)
            {
              item = cJSON_CreateObject ();
              cJSON_AddStringToObject (item, "role", "user");
              cJSON_AddItemToObject (item, "content", input_parts (message));
              cJSON_AddItemToArray (input, item);
            }
          else
            cJSON_AddItemToArray (input, text_message ("user", content));
          break;

        case AGENT_MESSAGE_ROLE_ASSISTANT:
          reasoning = add_assistant (input, message) || reasoning;
          break;

        case AGENT_MESSAGE_ROLE_TOOL:
          call_id = agent_message_get_tool_call_id (message);
          item = cJSON_CreateObject ();
          cJSON_AddStringToObject (item, "type", "function_call_output");
          cJSON_AddStringToObject (item, "call_id", call_id ? call_id : "");
          /* A result with images: the output as a list of input items */
          if (agent_message_get_n_attachments (message) > 0)
            cJSON_AddItemToObject (item, "output", input_parts (message));
          else
            cJSON_AddStringToObject (item, "output", content ? content : "");
          cJSON_AddItemToArray (input, item);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  if (n_tools > 0)
    {
      cJSON *tools = cJSON_AddArrayToObject (root, "tools");

      for (guint i = 0; i < n_tools; i++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (request->tools, i);
          cJSON *item = cJSON_CreateObject ();

          cJSON_AddStringToObject (item, "type", "function");
          cJSON_AddStringToObject (item, "name", agent_tool_get_name (tool));
          cJSON_AddStringToObject (item, "description", agent_tool_get_description (tool));
          cJSON_AddItemToObject (item, "parameters",
                                 agent_node_to_cjson (agent_tool_get_parameters (tool)));
          cJSON_AddItemToArray (tools, item);
        }
    }

  if (agent_provider_get_max_tokens (request->provider) > 0)
    cJSON_AddNumberToObject (root, "max_output_tokens",
                             agent_provider_get_max_tokens (request->provider));

  /* Reasoning options only for a model known to reason (an effort was
   * set, or it reasoned earlier in the conversation): other models refuse
   * them ("Encrypted content is not supported with this model"). */
  if (reasoning)
    {
      cJSON *options = cJSON_AddObjectToObject (root, "reasoning");

      if (effort_name != NULL)
        cJSON_AddStringToObject (options, "effort", effort_name);
      cJSON_AddStringToObject (options, "summary", "auto");
      cJSON_AddItemToArray (cJSON_AddArrayToObject (root, "include"),
                            cJSON_CreateString ("reasoning.encrypted_content"));
    }

  if (!_agent_settings_add_openai_responses (root, request, error))
    return NULL;
  _agent_output_add_openai_responses (root, request);
  cJSON_AddFalseToObject (root, "store");
  cJSON_AddTrueToObject (root, "stream");
  if (!_agent_settings_merge_options (root, request, "OpenAI Responses", "input", error))
    return NULL;

  return _agent_json_print_body (root, error);
}

static char *
openai_responses_build_path (const AgentRequest *request)
{
  return g_strdup ("/responses");
}

static void
openai_responses_add_headers (AgentProvider      *provider,
                              SoupMessageHeaders *headers)
{
  _agent_provider_add_bearer_auth (provider, headers);
}

/* Stream */

typedef enum { TEXT, REFUSAL, REASONING, N_KINDS } Kind;

typedef void (*AppendFunc) (AgentAccumulator *accumulator,
                            const char       *text,
                            gsize             len);

static const AppendFunc append_funcs[N_KINDS] = {
  agent_accumulator_append_text,
  agent_accumulator_append_refusal,
  agent_accumulator_append_reasoning,
};

typedef struct
{
  AgentAccumulator *accumulator;
  AgentJsonParser  *parser;
  const char * const *secrets;   /* redacted from what errors quote */
  /* The message's provider data: the output items, which come one after
   * the other */
  GPtrArray        *output;
  GHashTable       *item_ids;    /* item id → its output_index */
  /* Where the last delta of each kind went (output_index, part): what
   * comes from another item or part is separated from it. */
  gint64            last_index[N_KINDS];
  gint64            last_part[N_KINDS];
  gsize             text_start;  /* where the text of the item last_index[TEXT] begins */
  gboolean          saw_event;   /* a response.* event but the end */
} AgentOpenaiResponsesDecoder;

static gpointer
openai_responses_decoder_new (AgentAccumulator   *accumulator,
                              const char * const *secrets)
{
  AgentOpenaiResponsesDecoder *self = g_new0 (AgentOpenaiResponsesDecoder, 1);

  self->accumulator = accumulator;
  self->secrets = secrets;
  self->parser = agent_json_parser_new ();
  self->output = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->item_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < N_KINDS; i++)
    self->last_index[i] = self->last_part[i] = -1;
  return self;
}

static void
openai_responses_decoder_free (gpointer data)
{
  AgentOpenaiResponsesDecoder *self = data;

  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_clear_pointer (&self->output, g_ptr_array_unref);
  g_clear_pointer (&self->item_ids, g_hash_table_unref);
  g_free (self);
}

static void
remember_item (AgentOpenaiResponsesDecoder *self,
               const char                  *item_id,
               gint64                       index)
{
  if (item_id != NULL)
    g_hash_table_replace (self->item_ids, g_strdup (item_id), g_memdup2 (&index, sizeof index));
}

/* The output_index an event is about: its own, or its item's; -1 if unknown. */
static gint64
event_index (AgentOpenaiResponsesDecoder *self,
             const AgentJson             *event)
{
  AgentJson member = agent_json_member (event, "output_index");
  const char *item_id;
  gint64 *known;
  gint64 index;

  if (agent_json_int (&member, &index))
    return index;
  if ((item_id = agent_json_member_string (event, "item_id", NULL)) &&
      (known = g_hash_table_lookup (self->item_ids, item_id)))
    return *known;
  return -1;
}

static void
append (AgentOpenaiResponsesDecoder *self,
        Kind                         kind,
        gint64                       index,
        gint64                       part,
        const char                  *text,
        gsize                        len)
{
  AgentMessage *message = agent_accumulator_get_message (self->accumulator);
  const char *before = kind == TEXT    ? agent_message_get_content (message)
                     : kind == REFUSAL ? agent_message_get_refusal (message)
                                       : agent_message_get_reasoning (message);

  if (kind == TEXT)
    {
      /* Another message item: its text follows as it came (parts of one
       * item are joined with nothing either) */
      if (index != self->last_index[kind])
        {
          agent_accumulator_break_text (self->accumulator);
          self->text_start = before != NULL ? strlen (before) : 0;
        }
    }
  else if ((index != self->last_index[kind] || part != self->last_part[kind]) &&
           before != NULL && before[0] != '\0')
    append_funcs[kind] (self->accumulator, SEPARATOR, strlen (SEPARATOR));
  self->last_index[kind] = index;
  self->last_part[kind] = part;
  append_funcs[kind] (self->accumulator, text, len);
}

/* The parts of a finished item whose kind did not stream (some servers
 * only send the final item). Summary and reasoning-text parts are
 * numbered apart. */
static void
append_parts (AgentOpenaiResponsesDecoder *self,
              gint64                       index,
              const AgentJson             *parts)
{
  static const struct {
    const char *type;
    const char *member;
    Kind        kind;
    gint64      odd;
  } known[] = {
    { "output_text", "text", TEXT, 0 },
    { "refusal", "refusal", REFUSAL, 0 },
    { "summary_text", "text", REASONING, 0 },
    { "reasoning_text", "text", REASONING, 1 },
  };
  gboolean streamed[N_KINDS];
  AgentJsonIter iter;
  AgentJson part;
  gint64 n = 0;

  for (guint k = 0; k < N_KINDS; k++)
    streamed[k] = self->last_index[k] == index;

  agent_json_iter_init (&iter, parts);
  while (agent_json_iter_next (&iter, NULL, NULL, &part))
    {
      const char *type = agent_json_member_string (&part, "type", NULL);

      for (guint k = 0; type != NULL && k < G_N_ELEMENTS (known); k++)
        {
          const char *text;
          gsize len;

          if (strcmp (type, known[k].type) != 0 || streamed[known[k].kind] ||
              !(text = agent_json_member_string (&part, known[k].member, &len)))
            continue;
          append (self, known[k].kind, index, n++ * 2 + known[k].odd, text, len);
        }
    }
}

/* {@name: @value, @name2: @value2}, without the second if @value2 is NULL */
static JsonNode *
string_object (const char *name,
               const char *value,
               const char *name2,
               const char *value2)
{
  JsonObject *object = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (object, name, value);
  if (value2 != NULL)
    json_object_set_string_member (object, name2, value2);
  node = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);
  return node;
}

/* A function_call item, as output_item.added or .done gives it, or the
 * arguments of function_call_arguments.done: what the deltas did not
 * already bring is added. A final text that does not continue the deltas
 * is left out: the arguments are what streamed, byte for byte. */
static void
function_call (AgentOpenaiResponsesDecoder *self,
               gint64                       index,
               const AgentJson             *item,
               const char                  *arguments)
{
  AgentToolCall *call = agent_accumulator_lookup_tool_call (self->accumulator, index);
  const char *streamed = call ? agent_tool_call_get_arguments (call) : "";
  const char *item_id = item ? agent_json_member_string (item, "id", NULL) : NULL;
  const char *call_id = item ? agent_json_member_string (item, "call_id", NULL) : NULL;
  const char *name = item ? agent_json_member_string (item, "name", NULL) : NULL;
  const char *fragment = NULL;
  gboolean is_new = call == NULL;

  if (is_new && item == NULL)
    return;

  if (arguments != NULL && g_str_has_prefix (arguments, streamed))
    fragment = arguments + strlen (streamed);

  call = agent_accumulator_tool_call_delta (self->accumulator, index, call_id, name, NULL,
                                            fragment, fragment ? strlen (fragment) : 0);

  if (item_id != NULL && agent_tool_call_get_provider_data (call) == NULL)
    {
      g_autoptr(JsonNode) provider_data =
        _agent_provider_data_with (NULL, PROVIDER_NAME, string_object ("id", item_id, NULL, NULL));

      agent_tool_call_set_provider_data (call, provider_data);
    }

  /* Its place among the output items */
  if (is_new)
    {
      remember_item (self, item_id, index);
      g_ptr_array_add (self->output, string_object ("type", "function_call",
                                                    "call_id", agent_tool_call_get_id (call)));
    }
}

static void
output_item (AgentOpenaiResponsesDecoder *self,
             gint64                       index,
             const AgentJson             *item,
             gboolean                     done)
{
  const char *type = agent_json_member_string (item, "type", NULL);
  AgentJson member;

  if (g_strcmp0 (type, "function_call") == 0)
    function_call (self, index, item, agent_json_member_string (item, "arguments", NULL));
  else if (!done)
    remember_item (self, agent_json_member_string (item, "id", NULL), index);
  else if (g_strcmp0 (type, "message") == 0 || g_strcmp0 (type, "reasoning") == 0)
    {
      member = agent_json_member (item, "summary");
      append_parts (self, index, &member);
      member = agent_json_member (item, "content");
      append_parts (self, index, &member);

      /* A reasoning item whole for the next request; a message's place,
       * and where its text begins */
      if (type[0] == 'r')
        g_ptr_array_add (self->output, agent_json_to_node (item));
      else
        {
          JsonNode *place = string_object ("type", "message", NULL, NULL);

          if (self->last_index[TEXT] == index)
            json_object_set_int_member (json_node_get_object (place), "content-start",
                                        self->text_start);
          g_ptr_array_add (self->output, place);
        }
    }
}

/* The response ended. The Responses API has no finish reason: it is
 * derived from how the response ended, "tool_calls" when the model called
 * functions, "stop" otherwise, and for an incomplete response its reason,
 * "max_output_tokens" becoming "length" (which the loop knows as cut off).
 * The output items go on the message. */
static void
finish (AgentOpenaiResponsesDecoder *self,
        const char                  *incomplete)
{
  AgentMessage *message = agent_accumulator_get_message (self->accumulator);
  g_autoptr(JsonNode) provider_data = NULL;
  const char *reason;
  JsonArray *items;
  JsonObject *data;

  if (incomplete != NULL)
    reason = g_str_equal (incomplete, "max_output_tokens") ? "length" : incomplete;
  else
    reason = agent_message_get_n_tool_calls (message) > 0 ? "tool_calls" : "stop";
  agent_accumulator_set_finish_reason (self->accumulator, reason);

  if (self->output->len == 0)
    return;

  items = json_array_sized_new (self->output->len);
  for (guint i = 0; i < self->output->len; i++)
    json_array_add_element (items, json_node_ref (g_ptr_array_index (self->output, i)));

  data = json_object_new ();
  json_object_set_array_member (data, "output", items);
  provider_data = _agent_provider_data_with (agent_message_get_provider_data (message),
                                             PROVIDER_NAME,
                                             json_node_init_object (json_node_alloc (), data));
  agent_message_set_provider_data (message, provider_data);
  json_object_unref (data);
}

static void
response_started (AgentOpenaiResponsesDecoder *self,
                  const AgentJson             *response)
{
  AgentAccumulator *accumulator = self->accumulator;

  agent_accumulator_set_response_id (accumulator, agent_json_member_string (response, "id", NULL));
  agent_accumulator_set_model (accumulator, agent_json_member_string (response, "model", NULL));
}

static void
response_ended (AgentOpenaiResponsesDecoder *self,
                const AgentJson             *response,
                gboolean                     incomplete)
{
  AgentJson usage = agent_json_member (response, "usage");
  AgentJson details = agent_json_member (response, "incomplete_details");
  const char *reason = agent_json_member_string (&details, "reason", NULL);

  response_started (self, response);

  if (agent_json_is (&usage, AGENT_JSON_OBJECT))
    {
      g_autoptr(JsonNode) node = agent_json_to_node (&usage);
      g_autoptr(AgentUsage) value = agent_usage_new_from_json (node);

      agent_accumulator_set_usage (self->accumulator, value);
    }

  if (g_strcmp0 (agent_json_member_string (response, "status", NULL), "incomplete") == 0)
    incomplete = TRUE;
  finish (self, incomplete ? (reason ? reason : "max_output_tokens") : NULL);
}

static gboolean
openai_responses_decode (gpointer     data,
                         const char  *event_type,
                         const char  *text,
                         gsize        len,
                         gboolean    *done,
                         GError     **error)
{
  AgentOpenaiResponsesDecoder *self = data;
  g_autoptr(GError) json_error = NULL;
  AgentJson root;
  AgentJson member;
  const char *type;
  const char *delta;
  gsize delta_len = 0;

  /* Not the API's, but some compatible servers end with it */
  if (len == 6 && memcmp (text, "[DONE]", 6) == 0)
    {
      finish (self, NULL);
      *done = TRUE;
      return TRUE;
    }

  if (!agent_json_parser_parse (self->parser, text, len, &root, &json_error) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *excerpt = agent_excerpt (text, len, 200, self->secrets);

      if (agent_stream_event_too_deep (json_error, error))
        return FALSE;
      if (g_strcmp0 (event_type, "error") == 0)
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROVIDER,
                     _("The provider reported an error: %s"), excerpt);
      else
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                     _("The server sent an event that is not a JSON object: “%s”"), excerpt);
      return FALSE;
    }

  if (!(type = agent_json_member_string (&root, "type", NULL)) && !(type = event_type))
    return TRUE;

  /* The end alone (response.completed or .incomplete) is no answer: a real
   * stream begins with response.created */
  if (g_str_has_prefix (type, "response.") && strcmp (type, "response.completed") != 0 &&
      strcmp (type, "response.incomplete") != 0)
    self->saw_event = TRUE;

  delta = agent_json_member_string (&root, "delta", &delta_len);

  if (strcmp (type, "response.output_text.delta") == 0 && delta != NULL)
    append (self, TEXT, event_index (self, &root), 0, delta, delta_len);
  else if (strcmp (type, "response.function_call_arguments.delta") == 0 && delta != NULL)
    {
      gint64 index = event_index (self, &root);

      /* Only for a call that was announced */
      if (agent_accumulator_lookup_tool_call (self->accumulator, index) != NULL)
        agent_accumulator_tool_call_delta (self->accumulator, index, NULL, NULL, NULL,
                                           delta, delta_len);
    }
  else if ((strcmp (type, "response.reasoning_summary_text.delta") == 0 ||
            strcmp (type, "response.reasoning_text.delta") == 0) && delta != NULL)
    {
      gboolean summary = type[strlen ("response.reasoning_")] == 's';
      AgentJson part = agent_json_member (&root, summary ? "summary_index" : "content_index");
      gint64 n = 0;

      /* Summary and reasoning-text parts are numbered apart */
      agent_json_int (&part, &n);
      append (self, REASONING, event_index (self, &root), n * 2 + !summary, delta, delta_len);
    }
  else if (strcmp (type, "response.refusal.delta") == 0 && delta != NULL)
    append (self, REFUSAL, event_index (self, &root), 0, delta, delta_len);
  else if (strcmp (type, "response.function_call_arguments.done") == 0)
    function_call (self, event_index (self, &root), NULL,
                   agent_json_member_string (&root, "arguments", NULL));
  else if (strcmp (type, "response.output_item.added") == 0 ||
           strcmp (type, "response.output_item.done") == 0)
    {
      AgentJson item = agent_json_member (&root, "item");

      if (agent_json_is (&item, AGENT_JSON_OBJECT))
        output_item (self, event_index (self, &root), &item, g_str_has_suffix (type, ".done"));
    }
  else if (strcmp (type, "response.created") == 0)
    {
      member = agent_json_member (&root, "response");
      response_started (self, &member);
    }
  else if (strcmp (type, "response.completed") == 0 || strcmp (type, "response.incomplete") == 0)
    {
      member = agent_json_member (&root, "response");
      response_ended (self, &member, strcmp (type, "response.incomplete") == 0);
      *done = TRUE;
    }
  else if (strcmp (type, "error") == 0 || strcmp (type, "response.failed") == 0)
    {
      /* {"type": "error", "code", "message"}, or the failed response with
       * its {"error": {"code", "message"}} */
      AgentJson failure = type[0] == 'e' ? root : agent_json_member (&root, "response");
      AgentJson inner = agent_json_member (&failure, "error");
      const char *prefix = _("The provider reported an error");

      if (type[0] == 'e' || agent_json_exists (&inner))
        g_propagate_error (error, _agent_provider_error_from_json_value (self->secrets, AGENT_ERROR_PROVIDER,
                                                                        prefix, &failure));
      else
        g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROVIDER, _("The response failed"));
      return FALSE;
    }

  return TRUE;
}

static gboolean
openai_responses_is_complete (gpointer data)
{
  AgentOpenaiResponsesDecoder *self = data;

  /* Whole once response.completed (or .incomplete) came */
  return agent_accumulator_has_finish_reason (self->accumulator);
}

static gboolean
openai_responses_saw_event (gpointer data)
{
  return ((AgentOpenaiResponsesDecoder *) data)->saw_event;
}

const AgentProviderBackend agent_openai_responses_backend = {
  .name = "openai-responses",
  .default_base_url = "https://api.openai.com/v1",
  .api_key_variable = "OPENAI_API_KEY",
  .default_model = "gpt-4o-mini",
  .build_body = openai_responses_build_body,
  .build_path = openai_responses_build_path,
  .add_headers = openai_responses_add_headers,
  .accepts_part = responses_accepts,
  .parts_name = "OpenAI Responses",
  .images = &_agent_openai_images,
  .stream = {
    .display_name = N_("OpenAI Responses"),
    .framing = AGENT_FRAMING_SSE,
    .decoder_new = openai_responses_decoder_new,
    .decoder_free = openai_responses_decoder_free,
    .decode = openai_responses_decode,
    .is_complete = openai_responses_is_complete,
    .saw_event = openai_responses_saw_event,
  },
  .models_path = "/models",
  .parse_models = _agent_openai_parse_models,
};
