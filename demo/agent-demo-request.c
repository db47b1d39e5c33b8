/* agent-demo-request.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Parses and validates a chat-completions request body. Whatever OpenAI would refuse with a
 * 400 is refused here too, with its message, `param` and `code`, so that clients meet the
 * errors they will meet in production. The messages are protocol data: not translated.
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "agent-demo-request.h"
#include "agent-demo-util.h"

void
demo_api_error_free (DemoApiError *error)
{
  g_free (error->message);
  g_free (error->param);
  g_free (error->code);
  g_free (error);
}

static void
demo_tool_result_free (DemoToolResult *result)
{
  g_free (result->name);
  g_free (result->arguments);
  g_free (result->content);
  g_free (result);
}

void
demo_request_clear (DemoRequest *request)
{
  g_clear_pointer (&request->model, g_free);
  g_clear_pointer (&request->last_user_text, g_free);
  g_clear_pointer (&request->tool_results, g_ptr_array_unref);
}

/* Errors, shaped like OpenAI's */

G_GNUC_PRINTF (3, 4)
static DemoApiError *
api_error_new (const char *param,
               const char *code,
               const char *format,
               ...)
{
  DemoApiError *error = g_new0 (DemoApiError, 1);
  va_list args;

  va_start (args, format);
  error->message = g_strdup_vprintf (format, args);
  va_end (args);

  error->status = SOUP_STATUS_BAD_REQUEST;
  error->param = g_strdup (param);
  error->code = g_strdup (code);

  return error;
}

static const char *
describe_node (JsonNode *node)
{
  GType type;

  if (demo_json_is_null (node))
    return "null";
  if (demo_json_holds (node, JSON_NODE_OBJECT))
    return "an object";
  if (demo_json_holds (node, JSON_NODE_ARRAY))
    return "an array";

  type = json_node_get_value_type (node);
  if (type == G_TYPE_BOOLEAN)
    return "a boolean";
  if (type == G_TYPE_INT64)
    return "an integer";
  if (type == G_TYPE_DOUBLE)
    return "a decimal";
  return "a string";
}

/* "messages[0].role" from "messages[0]" and "role"; just @field without a @prefix. */
static char *
make_param (const char *prefix,
            const char *field)
{
  return prefix ? g_strdup_printf ("%s.%s", prefix, field) : g_strdup (field);
}

/* OpenAI names some params "messages.[N].role", with a dot before the index. */
static char *
make_message_param (guint       index,
                    const char *field)
{
  return g_strdup_printf ("messages.[%u].%s", index, field);
}

static DemoApiError *
missing_parameter (const char *prefix,
                   const char *field)
{
  g_autofree char *param = make_param (prefix, field);

  return api_error_new (param, "missing_required_parameter",
                        "Missing required parameter: '%s'.", param);
}

static DemoApiError *
invalid_type (const char *prefix,
              const char *field,
              const char *expected,
              JsonNode   *node)
{
  g_autofree char *param = make_param (prefix, field);

  return api_error_new (param, "invalid_type",
                        "Invalid type for '%s': expected %s, but got %s instead.",
                        param, expected, describe_node (node));
}

/* Appends the text of a message's content: a string, or an array of content parts. */
static DemoApiError *
read_content (JsonNode   *node,
              const char *prefix,
              GString    *text)
{
  JsonArray *parts;

  if (demo_json_is_string (node))
    {
      g_string_append (text, json_node_get_string (node));
      return NULL;
    }

  if (!demo_json_holds (node, JSON_NODE_ARRAY))
    return invalid_type (prefix, "content", "a string or an array of content parts", node);

  parts = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = json_array_get_element (parts, i);
      g_autofree char *part_prefix = g_strdup_printf ("%s.content[%u]", prefix, i);
      JsonObject *object;

      if (!demo_json_holds (part, JSON_NODE_OBJECT))
        return invalid_type (part_prefix, "type", "an object", part);

      object = json_node_get_object (part);
      if (g_strcmp0 (demo_json_get_string (object, "type"), "text") != 0)
        continue;

      if (!demo_json_is_string (json_object_get_member (object, "text")))
        return missing_parameter (part_prefix, "text");

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, json_object_get_string_member (object, "text"));
    }

  return NULL;
}

static DemoApiError *
validate_tool_calls (JsonArray  *calls,
                     const char *prefix)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *node = json_array_get_element (calls, i);
      g_autofree char *call_prefix = g_strdup_printf ("%s.tool_calls[%u]", prefix, i);
      JsonObject *call;
      JsonObject *function;

      if (!demo_json_holds (node, JSON_NODE_OBJECT))
        return invalid_type (prefix, "tool_calls", "an array of objects", node);

      call = json_node_get_object (node);
      if (!demo_json_is_string (json_object_get_member (call, "id")))
        return missing_parameter (call_prefix, "id");
      if (!demo_json_is_string (json_object_get_member (call, "type")))
        return missing_parameter (call_prefix, "type");
      if (!demo_json_holds (json_object_get_member (call, "function"), JSON_NODE_OBJECT))
        return missing_parameter (call_prefix, "function");

      function = json_object_get_object_member (call, "function");
      if (!demo_json_is_string (json_object_get_member (function, "name")))
        return missing_parameter (call_prefix, "function.name");
      if (!demo_json_is_string (json_object_get_member (function, "arguments")))
        return missing_parameter (call_prefix, "function.arguments");
    }

  return NULL;
}

static JsonObject *
find_tool_call (JsonArray  *calls,
                const char *id)
{
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);

      if (g_strcmp0 (json_object_get_string_member (call, "id"), id) == 0)
        return call;
    }

  return NULL;
}

static DemoApiError *
unanswered_tool_calls (GPtrArray *pending,
                       guint      index)
{
  g_autofree char *param = make_message_param (index, "role");
  g_autofree char *ids = NULL;

  g_ptr_array_add (pending, NULL);
  ids = g_strjoinv (", ", (char **) pending->pdata);
  g_ptr_array_remove_index (pending, pending->len - 1);

  return api_error_new (param, NULL,
                        "An assistant message with 'tool_calls' must be followed by tool "
                        "messages responding to each 'tool_call_id'. The following "
                        "tool_call_ids did not have response messages: %s", ids);
}

static DemoApiError *
parse_messages (JsonArray   *messages,
                DemoRequest *request)
{
  static const char * const roles[] = { "system", "developer", "user", "assistant", "tool", NULL };
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  JsonArray *batch = NULL;
  guint n_messages = json_array_get_length (messages);

  if (n_messages == 0)
    return api_error_new ("messages", "empty_array",
                          "Invalid 'messages': empty array. Expected an array with minimum "
                          "length 1, but got an empty array instead.");

  for (guint i = 0; i < n_messages; i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      g_autofree char *prefix = g_strdup_printf ("messages[%u]", i);
      g_autoptr(GString) text = g_string_new (NULL);
      DemoApiError *error = NULL;
      JsonObject *message;
      JsonNode *content;
      const char *role;

      if (!demo_json_holds (node, JSON_NODE_OBJECT))
        return invalid_type (NULL, prefix, "an object", node);

      message = json_node_get_object (node);
      content = json_object_get_member (message, "content");
      if (!demo_json_is_string (json_object_get_member (message, "role")))
        return missing_parameter (prefix, "role");

      role = json_object_get_string_member (message, "role");
      if (!g_strv_contains (roles, role))
        {
          g_autofree char *param = make_param (prefix, "role");

          return api_error_new (param, "invalid_value",
                                "Invalid value: '%s'. Supported values are: 'system', "
                                "'assistant', 'user', 'tool', and 'developer'.", role);
        }

      if (pending->len > 0 && !g_str_equal (role, "tool"))
        return unanswered_tool_calls (pending, i);

      if (g_str_equal (role, "tool"))
        {
          const char *id;

          if (!demo_json_is_string (json_object_get_member (message, "tool_call_id")))
            return missing_parameter (prefix, "tool_call_id");
          if (demo_json_is_null (content))
            return missing_parameter (prefix, "content");

          id = json_object_get_string_member (message, "tool_call_id");
          if (batch == NULL)
            {
              g_autofree char *param = make_message_param (i, "role");

              return api_error_new (param, NULL,
                                    "Invalid parameter: messages with role 'tool' must be a "
                                    "response to a preceding message with 'tool_calls'.");
            }
          if (find_tool_call (batch, id) == NULL)
            {
              g_autofree char *param = make_message_param (i, "tool_call_id");

              return api_error_new (param, NULL,
                                    "Invalid parameter: 'tool_call_id' of '%s' not found in "
                                    "'tool_calls' of previous message.", id);
            }

          for (guint j = 0; j < pending->len; j++)
            {
              if (g_str_equal (g_ptr_array_index (pending, j), id))
                g_ptr_array_remove_index (pending, j--);
            }
        }
      else if (g_str_equal (role, "assistant"))
        {
          JsonNode *calls = json_object_get_member (message, "tool_calls");

          batch = NULL;

          if (!demo_json_is_null (calls))
            {
              if (!demo_json_holds (calls, JSON_NODE_ARRAY))
                return invalid_type (prefix, "tool_calls", "an array of objects", calls);
              if ((error = validate_tool_calls (json_node_get_array (calls), prefix)))
                return error;

              batch = json_node_get_array (calls);
              for (guint j = 0; j < json_array_get_length (batch); j++)
                g_ptr_array_add (pending, (gpointer) json_object_get_string_member (
                                   json_array_get_object_element (batch, j), "id"));
            }

          if (demo_json_is_null (content) && batch == NULL)
            return missing_parameter (prefix, "content");
        }
      else
        {
          batch = NULL;
          if (demo_json_is_null (content))
            return missing_parameter (prefix, "content");
        }

      if (!demo_json_is_null (content) && (error = read_content (content, prefix, text)))
        return error;

      request->prompt_tokens += demo_count_words (text->str);
      if (g_str_equal (role, "user"))
        {
          g_free (request->last_user_text);
          request->last_user_text = g_string_free (g_steal_pointer (&text), FALSE);
        }
    }

  if (pending->len > 0)
    return unanswered_tool_calls (pending, n_messages - 1);

  /* The trailing tool messages, if any, are the results to answer; they answer @batch. */
  for (guint i = n_messages; i > 0; i--)
    {
      JsonObject *message = json_array_get_object_element (messages, i - 1);
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(DemoApiError) ignored = NULL;
      DemoToolResult *result;
      JsonObject *function;

      if (!g_str_equal (json_object_get_string_member (message, "role"), "tool"))
        break;

      ignored = read_content (json_object_get_member (message, "content"), "", text);
      function = json_object_get_object_member (
        find_tool_call (batch, json_object_get_string_member (message, "tool_call_id")),
        "function");

      result = g_new0 (DemoToolResult, 1);
      result->name = g_strdup (json_object_get_string_member (function, "name"));
      result->arguments = g_strdup (json_object_get_string_member (function, "arguments"));
      result->content = g_string_free (g_steal_pointer (&text), FALSE);
      g_ptr_array_insert (request->tool_results, 0, result);
    }

  return NULL;
}

static DemoApiError *
parse_tools (JsonObject  *root,
             DemoRequest *request)
{
  JsonNode *tools = json_object_get_member (root, "tools");
  JsonNode *choice = json_object_get_member (root, "tool_choice");
  JsonArray *array;

  if (demo_json_is_null (tools))
    return NULL;
  if (!demo_json_holds (tools, JSON_NODE_ARRAY))
    return invalid_type (NULL, "tools", "an array of objects", tools);

  array = json_node_get_array (tools);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *prefix = g_strdup_printf ("tools[%u]", i);
      JsonObject *tool;
      JsonObject *function;

      if (!demo_json_holds (node, JSON_NODE_OBJECT))
        return invalid_type (NULL, prefix, "an object", node);

      tool = json_node_get_object (node);
      if (!demo_json_is_string (json_object_get_member (tool, "type")))
        return missing_parameter (prefix, "type");
      if (!g_str_equal (json_object_get_string_member (tool, "type"), "function"))
        {
          g_autofree char *param = g_strdup_printf ("%s.type", prefix);

          return api_error_new (param, "invalid_value",
                                "Invalid value: '%s'. Supported values are: 'function'.",
                                json_object_get_string_member (tool, "type"));
        }
      if (!demo_json_holds (json_object_get_member (tool, "function"), JSON_NODE_OBJECT))
        return missing_parameter (prefix, "function");

      function = json_object_get_object_member (tool, "function");
      if (!demo_json_is_string (json_object_get_member (function, "name")))
        return missing_parameter (prefix, "function.name");

      if (g_str_equal (json_object_get_string_member (function, "name"), "calculator"))
        request->offers_calculator = TRUE;
      else if (g_str_equal (json_object_get_string_member (function, "name"), "read_file"))
        request->offers_read_file = TRUE;
    }

  /* `"tool_choice": "none"` keeps the tools out of this turn. */
  if (demo_json_is_string (choice) && g_str_equal (json_node_get_string (choice), "none"))
    request->offers_calculator = request->offers_read_file = FALSE;

  return NULL;
}

/* Fills @request from @body; returns %NULL, or the error to send back. */
DemoApiError *
demo_request_parse (GBytes      *body,
                    DemoRequest *request)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *root;
  JsonNode *node;
  DemoApiError *api_error;
  gsize length = 0;
  const char *data = g_bytes_get_data (body, &length);

  if (length > 0)
    json = demo_json_parse (data, length, &error);
  if (!demo_json_holds (json, JSON_NODE_OBJECT))
    return api_error_new (NULL, NULL,
                          "We could not parse the JSON body of your request. (HINT: The API "
                          "expects a JSON object as the request body%s%s.)",
                          error ? "; the parser said: " : "", error ? error->message : "");

  root = json_node_get_object (json);
  request->tool_results = g_ptr_array_new_with_free_func ((GDestroyNotify) demo_tool_result_free);

  node = json_object_get_member (root, "model");
  if (!demo_json_is_null (node) && !demo_json_is_string (node))
    return invalid_type (NULL, "model", "a string", node);
  request->model = g_strdup (demo_json_is_string (node) ? json_node_get_string (node)
                                                        : DEMO_MODEL);

  node = json_object_get_member (root, "stream");
  if (!demo_json_is_null (node) && !demo_json_holds_value (node, G_TYPE_BOOLEAN))
    return invalid_type (NULL, "stream", "a boolean", node);
  request->stream = !demo_json_is_null (node) && json_node_get_boolean (node);

  node = json_object_get_member (root, "stream_options");
  if (!demo_json_is_null (node))
    {
      if (!demo_json_holds (node, JSON_NODE_OBJECT))
        return invalid_type (NULL, "stream_options", "an object", node);
      if (!request->stream)
        return api_error_new ("stream_options", NULL,
                              "The 'stream_options' parameter is only allowed when 'stream' "
                              "is enabled.");

      node = json_object_get_member (json_node_get_object (node), "include_usage");
      if (!demo_json_is_null (node) && !demo_json_holds_value (node, G_TYPE_BOOLEAN))
        return invalid_type ("stream_options", "include_usage", "a boolean", node);
      request->include_usage = !demo_json_is_null (node) && json_node_get_boolean (node);
    }

  node = json_object_get_member (root, "messages");
  if (demo_json_is_null (node))
    return missing_parameter (NULL, "messages");
  if (!demo_json_holds (node, JSON_NODE_ARRAY))
    return invalid_type (NULL, "messages", "an array of objects", node);

  if ((api_error = parse_tools (root, request)))
    return api_error;

  return parse_messages (json_node_get_array (node), request);
}
