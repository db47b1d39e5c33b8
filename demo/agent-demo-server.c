/* agent-demo-server.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The demo model server: a small, deterministic stand-in for an OpenAI-compatible
 * chat-completions server, so that libagent can be tried without a real model.
 * It listens on 127.0.0.1 only, streams its answers as Server-Sent Events with a
 * pause between chunks, and calls a `calculator` tool when asked arithmetic.
 *
 * The model's replies and the API's error messages are protocol data, as they are for
 * any model server: they stay in English whatever the locale, so that clients and tests
 * can rely on them. Only the program's own messages on the terminal are translatable.
 */

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#define MAX_REQUEST_BODY (8 * 1024 * 1024)
#define MAX_EXPRESSIONS  4
#define MAX_QUOTE_CHARS  60
#define DEMO_MODEL       "demo"

typedef struct
{
  GMainLoop *loop;
  guint      delay_ms;
  gboolean   quiet;
  guint      next_completion;
  guint      next_call;
  guint      stdin_watch;
} DemoServer;

/* Per-request bookkeeping, attached to each SoupServerMessage. */
typedef struct
{
  gint64  started;
  gsize   received;
  char   *summary;
} RequestInfo;

typedef struct
{
  guint  status;
  char  *message;
  char  *param;
  char  *code;
} ApiError;

typedef struct
{
  char *name;
  char *arguments;
  char *content;
} ToolResult;

typedef struct
{
  char      *model;
  gboolean   stream;
  gboolean   include_usage;
  gboolean   offers_calculator;
  char      *last_user_text;
  GPtrArray *tool_results;
  guint      prompt_tokens;
} DemoRequest;

typedef struct
{
  char *id;
  char *arguments;
} ToolCall;

typedef struct
{
  char      *id;
  char      *model;
  gint64     created;
  gboolean   include_usage;
  char      *text;
  GPtrArray *calls;
  guint      prompt_tokens;
  guint      completion_tokens;
} DemoReply;

/* A streamed response: preformatted SSE events written one per timer tick. */
typedef struct
{
  SoupServerMessage *msg;
  GPtrArray         *events;
  guint              position;
  guint              timeout_id;
} DemoStream;

static void
request_info_free (RequestInfo *info)
{
  g_free (info->summary);
  g_free (info);
}

static RequestInfo *
request_info_get (SoupServerMessage *msg)
{
  return g_object_get_data (G_OBJECT (msg), "demo-request-info");
}

static void
request_info_set_summary (SoupServerMessage *msg,
                          const char        *summary)
{
  RequestInfo *info = request_info_get (msg);

  if (info != NULL)
    {
      g_free (info->summary);
      info->summary = g_strdup (summary);
    }
}

static void
api_error_free (ApiError *error)
{
  g_free (error->message);
  g_free (error->param);
  g_free (error->code);
  g_free (error);
}

static void
tool_result_free (ToolResult *result)
{
  g_free (result->name);
  g_free (result->arguments);
  g_free (result->content);
  g_free (result);
}

static void
tool_call_free (ToolCall *call)
{
  g_free (call->id);
  g_free (call->arguments);
  g_free (call);
}

static void
demo_request_clear (DemoRequest *request)
{
  g_clear_pointer (&request->model, g_free);
  g_clear_pointer (&request->last_user_text, g_free);
  g_clear_pointer (&request->tool_results, g_ptr_array_unref);
}

static void
demo_reply_clear (DemoReply *reply)
{
  g_clear_pointer (&reply->id, g_free);
  g_clear_pointer (&reply->model, g_free);
  g_clear_pointer (&reply->text, g_free);
  g_clear_pointer (&reply->calls, g_ptr_array_unref);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ApiError, api_error_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DemoRequest, demo_request_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DemoReply, demo_reply_clear)

/* Errors, shaped like OpenAI's */

G_GNUC_PRINTF (3, 4)
static ApiError *
api_error_new (const char *param,
               const char *code,
               const char *format,
               ...)
{
  ApiError *error = g_new0 (ApiError, 1);
  va_list args;

  va_start (args, format);
  error->message = g_strdup_vprintf (format, args);
  va_end (args);

  error->status = SOUP_STATUS_BAD_REQUEST;
  error->param = g_strdup (param);
  error->code = g_strdup (code);

  return error;
}

/* The JSON_NODE_HOLDS_*() macros are loud about a missing member; these are quiet. */
static gboolean
node_holds (JsonNode     *node,
            JsonNodeType  type)
{
  return node != NULL && json_node_get_node_type (node) == type;
}

static gboolean
node_holds_value (JsonNode *node,
                  GType     type)
{
  return node_holds (node, JSON_NODE_VALUE) && json_node_get_value_type (node) == type;
}

/* Parses @data; returns its root, or %NULL if it is not JSON or is empty. */
static JsonNode *
parse_json (const char  *data,
            gssize       length,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, data, length, error))
    return NULL;

  return json_parser_steal_root (parser);
}

static const char *
describe_node (JsonNode *node)
{
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (node_holds (node, JSON_NODE_OBJECT))
    return "an object";
  if (node_holds (node, JSON_NODE_ARRAY))
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

static ApiError *
missing_parameter (const char *prefix,
                   const char *field)
{
  g_autofree char *param = prefix ? g_strdup_printf ("%s.%s", prefix, field) : g_strdup (field);

  return api_error_new (param, "missing_required_parameter",
                        "Missing required parameter: '%s'.", param);
}

static ApiError *
invalid_type (const char *prefix,
              const char *field,
              const char *expected,
              JsonNode   *node)
{
  g_autofree char *param = prefix ? g_strdup_printf ("%s.%s", prefix, field) : g_strdup (field);

  return api_error_new (param, "invalid_type",
                        "Invalid type for '%s': expected %s, but got %s instead.",
                        param, expected, describe_node (node));
}

static gboolean
node_is_string (JsonNode *node)
{
  return node_holds_value (node, G_TYPE_STRING);
}

static gboolean
node_is_null (JsonNode *node)
{
  return node == NULL || JSON_NODE_HOLDS_NULL (node);
}

/* Unlike json_object_get_string_member_with_default(), quiet on a member of another type. */
static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node_is_string (node) ? json_node_get_string (node) : NULL;
}

/* Replies */

static void
set_string_or_null (JsonObject *object,
                    const char *name,
                    const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            JsonObject        *object)
{
  char *body = object_to_string (object);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                    body, strlen (body));
}

static void
reply_error (SoupServerMessage *msg,
             guint              status,
             const char        *message,
             const char        *param,
             const char        *code)
{
  g_autoptr(JsonObject) root = json_object_new ();
  JsonObject *error = json_object_new ();

  json_object_set_string_member (error, "message", message);
  json_object_set_string_member (error, "type", "invalid_request_error");
  set_string_or_null (error, "param", param);
  set_string_or_null (error, "code", code);
  json_object_set_object_member (root, "error", error);

  reply_json (msg, status, root);
  request_info_set_summary (msg, message);
}

static void
reply_api_error (SoupServerMessage *msg,
                 const ApiError    *error)
{
  reply_error (msg, error->status, error->message, error->param, error->code);
}

/* Text helpers */

static guint
count_words (const char *text)
{
  gboolean in_word = FALSE;
  guint words = 0;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      gboolean space = g_ascii_isspace (*p);

      if (!space && !in_word)
        words++;
      in_word = !space;
    }

  return words;
}

/* A short, single-line excerpt of @text for quoting back to the user. */
static char *
make_quote (const char *text,
            guint       max_chars)
{
  g_autofree char *flat = g_utf8_make_valid (text, -1);

  g_strdelimit (flat, "\r\n\t", ' ');
  g_strstrip (flat);

  if (g_utf8_strlen (flat, -1) > max_chars)
    {
      *g_utf8_offset_to_pointer (flat, max_chars) = '\0';
      g_strchomp (flat);
      return g_strconcat (flat, "…", NULL);
    }

  return g_steal_pointer (&flat);
}

static gboolean
is_operator (char c)
{
  return c != '\0' && strchr ("+-*/^%", c) != NULL;
}

static gboolean
is_expression_char (char c)
{
  return g_ascii_isdigit (c) || (c != '\0' && strchr (" .()", c) != NULL) || is_operator (c);
}

/* An operator with an operand on either side: "2+2", "(1 + 2) * 3", "4 - -1". */
static gboolean
has_binary_operator (const char *expr)
{
  for (const char *p = expr + 1; *p != '\0'; p++)
    {
      const char *before = p - 1;
      const char *after = p + 1;

      if (!is_operator (*p))
        continue;

      while (before > expr && *before == ' ')
        before--;
      while (*after == ' ')
        after++;

      if ((g_ascii_isdigit (*before) || *before == ')' || *before == '.') &&
          (g_ascii_isdigit (*after) || *after == '(' || *after == '.' || *after == '-'))
        return TRUE;
    }

  return FALSE;
}

/* Trims a run of expression characters down to a plausible expression, or returns NULL. */
static char *
clean_expression (const char *start,
                  const char *end)
{
  gboolean changed = TRUE;
  g_autofree char *expr = NULL;

  while (changed)
    {
      int opens = 0;
      int closes = 0;

      changed = FALSE;

      while (start < end && (*start == ' ' || *start == ')' || *start == '.' ||
                             (is_operator (*start) && *start != '-')))
        {
          start++;
          changed = TRUE;
        }
      while (end > start && (end[-1] == ' ' || end[-1] == '(' || end[-1] == '.' ||
                             is_operator (end[-1])))
        {
          end--;
          changed = TRUE;
        }

      for (const char *p = start; p < end; p++)
        {
          opens += *p == '(';
          closes += *p == ')';
        }

      if (closes > opens && end > start && end[-1] == ')')
        {
          end--;
          changed = TRUE;
        }
      else if (opens > closes && start < end && *start == '(')
        {
          start++;
          changed = TRUE;
        }
    }

  expr = g_strndup (start, end - start);

  if (strpbrk (expr, "0123456789") == NULL || !has_binary_operator (expr))
    return NULL;

  return g_steal_pointer (&expr);
}

/* Each separate arithmetic expression in @text ("What is 2+2 and 3*7?" has two). */
static GPtrArray *
find_expressions (const char *text)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (*p != '\0' && found->len < MAX_EXPRESSIONS)
    {
      const char *start;
      char *expr;

      if (!is_expression_char (*p))
        {
          p++;
          continue;
        }

      for (start = p; is_expression_char (*p); p++)
        ;

      if ((expr = clean_expression (start, p)))
        g_ptr_array_add (found, expr);
    }

  return found;
}

/* Request parsing and validation */

/* Appends the text of a message's content: a string, or an array of content parts. */
static ApiError *
read_content (JsonNode   *node,
              const char *prefix,
              GString    *text)
{
  JsonArray *parts;

  if (node_is_string (node))
    {
      g_string_append (text, json_node_get_string (node));
      return NULL;
    }

  if (!node_holds (node, JSON_NODE_ARRAY))
    return invalid_type (prefix, "content", "a string or an array of content parts", node);

  parts = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (parts); i++)
    {
      JsonNode *part = json_array_get_element (parts, i);
      g_autofree char *part_prefix = g_strdup_printf ("%s.content[%u]", prefix, i);
      JsonObject *object;

      if (!node_holds (part, JSON_NODE_OBJECT))
        return invalid_type (part_prefix, "type", "an object", part);

      object = json_node_get_object (part);
      if (g_strcmp0 (get_string (object, "type"), "text") != 0)
        continue;

      if (!node_is_string (json_object_get_member (object, "text")))
        return missing_parameter (part_prefix, "text");

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, json_object_get_string_member (object, "text"));
    }

  return NULL;
}

static ApiError *
validate_tool_calls (JsonArray  *calls,
                     const char *prefix)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *node = json_array_get_element (calls, i);
      g_autofree char *call_prefix = g_strdup_printf ("%s.tool_calls[%u]", prefix, i);
      JsonObject *call;
      JsonObject *function;

      if (!node_holds (node, JSON_NODE_OBJECT))
        return invalid_type (prefix, "tool_calls", "an array of objects", node);

      call = json_node_get_object (node);
      if (!node_is_string (json_object_get_member (call, "id")))
        return missing_parameter (call_prefix, "id");
      if (!node_is_string (json_object_get_member (call, "type")))
        return missing_parameter (call_prefix, "type");
      if (!node_holds (json_object_get_member (call, "function"), JSON_NODE_OBJECT))
        return missing_parameter (call_prefix, "function");

      function = json_object_get_object_member (call, "function");
      if (!node_is_string (json_object_get_member (function, "name")))
        return missing_parameter (call_prefix, "function.name");
      if (!node_is_string (json_object_get_member (function, "arguments")))
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

static ApiError *
unanswered_tool_calls (GPtrArray *pending,
                       guint      index)
{
  g_autofree char *param = g_strdup_printf ("messages.[%u].role", index);
  g_autofree char *ids = NULL;

  g_ptr_array_add (pending, NULL);
  ids = g_strjoinv (", ", (char **) pending->pdata);
  g_ptr_array_remove_index (pending, pending->len - 1);

  return api_error_new (param, NULL,
                        "An assistant message with 'tool_calls' must be followed by tool "
                        "messages responding to each 'tool_call_id'. The following "
                        "tool_call_ids did not have response messages: %s", ids);
}

static ApiError *
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
      ApiError *error = NULL;
      JsonObject *message;
      JsonNode *content;
      const char *role;

      if (!node_holds (node, JSON_NODE_OBJECT))
        return api_error_new (prefix, "invalid_type",
                              "Invalid type for '%s': expected an object, but got %s instead.",
                              prefix, describe_node (node));

      message = json_node_get_object (node);
      content = json_object_get_member (message, "content");
      if (!node_is_string (json_object_get_member (message, "role")))
        return missing_parameter (prefix, "role");

      role = json_object_get_string_member (message, "role");
      if (!g_strv_contains (roles, role))
        {
          g_autofree char *param = g_strdup_printf ("%s.role", prefix);

          return api_error_new (param, "invalid_value",
                                "Invalid value: '%s'. Supported values are: 'system', "
                                "'assistant', 'user', 'tool', and 'developer'.", role);
        }

      if (pending->len > 0 && !g_str_equal (role, "tool"))
        return unanswered_tool_calls (pending, i);

      if (g_str_equal (role, "tool"))
        {
          g_autofree char *param = g_strdup_printf ("messages.[%u].tool_call_id", i);
          const char *id;

          if (!node_is_string (json_object_get_member (message, "tool_call_id")))
            return missing_parameter (prefix, "tool_call_id");
          if (node_is_null (content))
            return missing_parameter (prefix, "content");

          id = json_object_get_string_member (message, "tool_call_id");
          if (batch == NULL)
            {
              g_autofree char *role_param = g_strdup_printf ("messages.[%u].role", i);

              return api_error_new (role_param, NULL,
                                    "Invalid parameter: messages with role 'tool' must be a "
                                    "response to a preceding message with 'tool_calls'.");
            }
          if (find_tool_call (batch, id) == NULL)
            return api_error_new (param, NULL,
                                  "Invalid parameter: 'tool_call_id' of '%s' not found in "
                                  "'tool_calls' of previous message.", id);

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

          if (!node_is_null (calls))
            {
              if (!node_holds (calls, JSON_NODE_ARRAY))
                return invalid_type (prefix, "tool_calls", "an array of objects", calls);
              if ((error = validate_tool_calls (json_node_get_array (calls), prefix)))
                return error;

              batch = json_node_get_array (calls);
              for (guint j = 0; j < json_array_get_length (batch); j++)
                g_ptr_array_add (pending, (gpointer) json_object_get_string_member (
                                   json_array_get_object_element (batch, j), "id"));
            }

          if (node_is_null (content) && batch == NULL)
            return missing_parameter (prefix, "content");
        }
      else
        {
          batch = NULL;
          if (node_is_null (content))
            return missing_parameter (prefix, "content");
        }

      if (!node_is_null (content) && (error = read_content (content, prefix, text)))
        return error;

      request->prompt_tokens += count_words (text->str);
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
      g_autoptr(ApiError) ignored = NULL;
      ToolResult *result;
      JsonObject *function;

      if (!g_str_equal (json_object_get_string_member (message, "role"), "tool"))
        break;

      ignored = read_content (json_object_get_member (message, "content"), "", text);
      function = json_object_get_object_member (
        find_tool_call (batch, json_object_get_string_member (message, "tool_call_id")),
        "function");

      result = g_new0 (ToolResult, 1);
      result->name = g_strdup (json_object_get_string_member (function, "name"));
      result->arguments = g_strdup (json_object_get_string_member (function, "arguments"));
      result->content = g_string_free (g_steal_pointer (&text), FALSE);
      g_ptr_array_insert (request->tool_results, 0, result);
    }

  return NULL;
}

static ApiError *
parse_tools (JsonObject  *root,
             DemoRequest *request)
{
  JsonNode *tools = json_object_get_member (root, "tools");
  JsonNode *choice = json_object_get_member (root, "tool_choice");
  JsonArray *array;

  if (node_is_null (tools))
    return NULL;
  if (!node_holds (tools, JSON_NODE_ARRAY))
    return invalid_type (NULL, "tools", "an array of objects", tools);

  array = json_node_get_array (tools);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *prefix = g_strdup_printf ("tools[%u]", i);
      JsonObject *tool;
      JsonObject *function;

      if (!node_holds (node, JSON_NODE_OBJECT))
        return invalid_type (NULL, prefix, "an object", node);

      tool = json_node_get_object (node);
      if (!node_is_string (json_object_get_member (tool, "type")))
        return missing_parameter (prefix, "type");
      if (!g_str_equal (json_object_get_string_member (tool, "type"), "function"))
        {
          g_autofree char *param = g_strdup_printf ("%s.type", prefix);

          return api_error_new (param, "invalid_value",
                                "Invalid value: '%s'. Supported values are: 'function'.",
                                json_object_get_string_member (tool, "type"));
        }
      if (!node_holds (json_object_get_member (tool, "function"), JSON_NODE_OBJECT))
        return missing_parameter (prefix, "function");

      function = json_object_get_object_member (tool, "function");
      if (!node_is_string (json_object_get_member (function, "name")))
        return missing_parameter (prefix, "function.name");

      if (g_str_equal (json_object_get_string_member (function, "name"), "calculator"))
        request->offers_calculator = TRUE;
    }

  /* `"tool_choice": "none"` keeps the tools out of this turn. */
  if (node_is_string (choice) && g_str_equal (json_node_get_string (choice), "none"))
    request->offers_calculator = FALSE;

  return NULL;
}

static ApiError *
parse_request (GBytes      *body,
               DemoRequest *request)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *root;
  JsonNode *node;
  ApiError *api_error;
  gsize length = 0;
  const char *data = g_bytes_get_data (body, &length);

  if (length > 0)
    json = parse_json (data, length, &error);
  if (!node_holds (json, JSON_NODE_OBJECT))
    return api_error_new (NULL, NULL,
                          "We could not parse the JSON body of your request. (HINT: The API "
                          "expects a JSON object as the request body%s%s.)",
                          error ? "; the parser said: " : "", error ? error->message : "");

  root = json_node_get_object (json);
  request->tool_results = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_result_free);

  node = json_object_get_member (root, "model");
  if (!node_is_null (node) && !node_is_string (node))
    return invalid_type (NULL, "model", "a string", node);
  request->model = g_strdup (node_is_string (node) ? json_node_get_string (node) : DEMO_MODEL);

  node = json_object_get_member (root, "stream");
  if (!node_is_null (node) &&
      !node_holds_value (node, G_TYPE_BOOLEAN))
    return invalid_type (NULL, "stream", "a boolean", node);
  request->stream = !node_is_null (node) && json_node_get_boolean (node);

  node = json_object_get_member (root, "stream_options");
  if (!node_is_null (node))
    {
      if (!node_holds (node, JSON_NODE_OBJECT))
        return invalid_type (NULL, "stream_options", "an object", node);
      if (!request->stream)
        return api_error_new ("stream_options", NULL,
                              "The 'stream_options' parameter is only allowed when 'stream' "
                              "is enabled.");
          node = json_object_get_member (json_node_get_object (node), "include_usage");
      if (!node_is_null (node) &&
          !node_holds_value (node, G_TYPE_BOOLEAN))
        return invalid_type ("stream_options", "include_usage", "a boolean", node);
      request->include_usage = !node_is_null (node) && json_node_get_boolean (node);
    }

  node = json_object_get_member (root, "messages");
  if (node_is_null (node))
    return missing_parameter (NULL, "messages");
  if (!node_holds (node, JSON_NODE_ARRAY))
    return invalid_type (NULL, "messages", "an array of objects", node);

  if ((api_error = parse_tools (root, request)))
    return api_error;

  return parse_messages (json_node_get_array (node), request);
}

/* The model */

static char *
node_to_display (JsonNode *node)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  double value;

  if (node_is_string (node))
    return g_strdup (json_node_get_string (node));
  if (!node_holds_value (node, G_TYPE_DOUBLE))
    return json_to_string (node, FALSE);

  value = json_node_get_double (node);
  if (ABS (value) < 1e15 && value == (gint64) value)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.12g", value));
}

/* Reads a tool's output: either a value (returns TRUE) or an error message (returns FALSE). */
static gboolean
read_tool_output (const char  *content,
                  char       **value,
                  char       **error_message)
{
  static const char * const error_words[] = {
    "error", "invalid", "fail", "cannot", "can't", "unable", "division by zero", "undefined",
  };
  g_autofree char *text = g_strstrip (g_strdup (content));
  g_autoptr(JsonNode) root = parse_json (text, -1, NULL);
  g_autofree char *lower = NULL;

  if (root != NULL)
    {
      if (node_holds (root, JSON_NODE_OBJECT))
        {
          JsonObject *object = json_node_get_object (root);
          static const char * const keys[] = { "result", "value", "answer", "output" };

          if (!node_is_null (json_object_get_member (object, "error")))
            {
              *error_message = node_to_display (json_object_get_member (object, "error"));
              return FALSE;
            }

          for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
            {
              if (json_object_has_member (object, keys[i]))
                {
                  *value = node_to_display (json_object_get_member (object, keys[i]));
                  return TRUE;
                }
            }
        }
      else if (node_holds (root, JSON_NODE_VALUE))
        {
          g_free (text);
          text = node_to_display (root);
        }
    }

  if (text[0] == '\0')
    {
      *error_message = g_strdup ("it returned nothing");
      return FALSE;
    }

  lower = g_ascii_strdown (text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (error_words); i++)
    {
      if (strstr (lower, error_words[i]) != NULL)
        {
          gsize skip = g_str_has_prefix (lower, "error:") ? strlen ("error:") : 0;

          *error_message = g_strstrip (g_strdup (text + skip));
          return FALSE;
        }
    }

  *value = g_steal_pointer (&text);
  return TRUE;
}

static char *
answer_tool_results (GPtrArray *results)
{
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) computed = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < results->len; i++)
    {
      const ToolResult *result = g_ptr_array_index (results, i);
      g_autoptr(JsonNode) arguments = NULL;
      g_autofree char *expression = NULL;
      g_autofree char *value = NULL;
      g_autofree char *message = NULL;

      if (!g_str_equal (result->name, "calculator"))
        {
          g_autofree char *quote = make_quote (result->content, MAX_QUOTE_CHARS);

          if (quote[0] == '\0')
            g_ptr_array_add (sentences, g_strdup_printf ("The `%s` tool returned nothing.",
                                                         result->name));
          else
            g_ptr_array_add (sentences, g_strdup_printf ("The `%s` tool returned: “%s”.",
                                                         result->name, quote));
          continue;
        }

      arguments = parse_json (result->arguments, -1, NULL);
      if (node_holds (arguments, JSON_NODE_OBJECT))
        expression = g_strdup (get_string (json_node_get_object (arguments), "expression"));
      if (expression == NULL)
        expression = make_quote (result->arguments, MAX_QUOTE_CHARS);

      if (read_tool_output (result->content, &value, &message))
        g_ptr_array_add (computed, g_strdup_printf ("%s is %s", expression, value));
      else
        g_ptr_array_add (sentences,
                         g_strdup_printf ("I'm sorry, but the calculator could not evaluate "
                                          "`%s`: %s%s",
                                          expression[0] ? expression : "(no expression)",
                                          message[0] ? message : "it reported an error",
                                          g_str_has_suffix (message, ".") ? "" : "."));
    }

  /* "The result of 2+2 is 4, and the result of 3*7 is 21." */
  if (computed->len > 0)
    {
      GString *sentence = g_string_new ("The result of ");

      for (guint i = 0; i < computed->len; i++)
        {
          if (i > 0)
            g_string_append (sentence, i + 1 == computed->len ? ", and the result of "
                                                               : ", the result of ");
          g_string_append (sentence, g_ptr_array_index (computed, i));
        }
      g_string_append_c (sentence, '.');
      g_ptr_array_insert (sentences, 0, g_string_free (sentence, FALSE));
    }

  g_ptr_array_add (sentences, NULL);
  return g_strjoinv (" ", (char **) sentences->pdata);
}

static char *
make_arguments (const char *expression)
{
  g_autoptr(JsonObject) arguments = json_object_new ();

  json_object_set_string_member (arguments, "expression", expression);

  return object_to_string (arguments);
}

static void
answer_user (DemoServer        *self,
             const DemoRequest *request,
             DemoReply         *reply)
{
  g_autoptr(GPtrArray) expressions = NULL;

  expressions = find_expressions (request->last_user_text ? request->last_user_text : "");

  if (expressions->len > 0 && request->offers_calculator)
    {
      reply->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_call_free);
      for (guint i = 0; i < expressions->len; i++)
        {
          ToolCall *call = g_new0 (ToolCall, 1);

          call->id = g_strdup_printf ("call_demo_%u", ++self->next_call);
          call->arguments = make_arguments (g_ptr_array_index (expressions, i));
          g_ptr_array_add (reply->calls, call);
        }
    }
  else if (expressions->len > 0)
    {
      reply->text = g_strdup_printf ("I can see an arithmetic expression in your message "
                                     "(`%s`), but I am only the libagent demo server and "
                                     "cannot do math on my own. With the `calculator` tool "
                                     "enabled, I would compute it with a tool call.",
                                     (const char *) g_ptr_array_index (expressions, 0));
    }
  else
    {
      g_autofree char *quote = make_quote (request->last_user_text ? request->last_user_text
                                                                   : "", MAX_QUOTE_CHARS);
      g_autofree char *echo = quote[0] ? g_strdup_printf ("You said: “%s”. ", quote)
                                       : g_strdup ("");

      reply->text = g_strdup_printf ("Hello! I am the **libagent demo server**, a tiny "
                                     "stand-in for a real language model. %sI don't really "
                                     "understand text, but I can show you how libagent "
                                     "works:\n\n"
                                     "- **Streaming**: this answer arrives word by word.\n"
                                     "- **Tool calling**: enable the `calculator` tool and "
                                     "ask an arithmetic question, such as "
                                     "`What is 17 * 23 + 4?`\n"
                                     "- **Real answers**: configure an OpenAI-compatible "
                                     "model server instead of the demo.\n", echo);
    }
}

static void
demo_server_answer (DemoServer        *self,
                    const DemoRequest *request,
                    DemoReply         *reply)
{
  reply->id = g_strdup_printf ("chatcmpl-demo-%u", ++self->next_completion);
  reply->model = g_strdup (request->model);
  reply->created = g_get_real_time () / G_USEC_PER_SEC;
  reply->include_usage = request->include_usage;
  reply->prompt_tokens = request->prompt_tokens;

  if (request->tool_results->len > 0)
    reply->text = answer_tool_results (request->tool_results);
  else
    answer_user (self, request, reply);

  /* Rough token counts: words, and a few per tool call. */
  if (reply->text != NULL)
    reply->completion_tokens = count_words (reply->text);
  for (guint i = 0; reply->calls != NULL && i < reply->calls->len; i++)
    {
      ToolCall *call = g_ptr_array_index (reply->calls, i);

      reply->completion_tokens += count_words (call->arguments) + 3;
    }
}

/* Output: chunks and completions */

static JsonObject *
make_usage (const DemoReply *reply)
{
  JsonObject *usage = json_object_new ();

  json_object_set_int_member (usage, "prompt_tokens", reply->prompt_tokens);
  json_object_set_int_member (usage, "completion_tokens", reply->completion_tokens);
  json_object_set_int_member (usage, "total_tokens",
                              reply->prompt_tokens + reply->completion_tokens);

  return usage;
}

/* A response with its only choice, @choice (transfer full), or none if %NULL. */
static JsonObject *
make_response (const DemoReply *reply,
               const char      *kind,
               JsonObject      *choice)
{
  JsonObject *response = json_object_new ();
  JsonArray *choices = json_array_new ();

  json_object_set_string_member (response, "id", reply->id);
  json_object_set_string_member (response, "object", kind);
  json_object_set_int_member (response, "created", reply->created);
  json_object_set_string_member (response, "model", reply->model);
  if (choice != NULL)
    json_array_add_object_element (choices, choice);
  json_object_set_array_member (response, "choices", choices);

  return response;
}

static JsonObject *
make_choice (const char *member,
             JsonObject *value,
             const char *finish_reason)
{
  JsonObject *choice = json_object_new ();

  json_object_set_int_member (choice, "index", 0);
  json_object_set_object_member (choice, member, value);
  json_object_set_null_member (choice, "logprobs");
  set_string_or_null (choice, "finish_reason", finish_reason);

  return choice;
}

/* One SSE event. @delta is (transfer full); %NULL makes the usage chunk. */
static GBytes *
make_chunk (const DemoReply *reply,
            JsonObject      *delta,
            const char      *finish_reason)
{
  g_autoptr(JsonObject) chunk = NULL;
  g_autofree char *json = NULL;
  char *event;

  chunk = make_response (reply, "chat.completion.chunk",
                         delta ? make_choice ("delta", delta, finish_reason) : NULL);
  if (delta == NULL)
    json_object_set_object_member (chunk, "usage", make_usage (reply));
  else if (reply->include_usage)
    json_object_set_null_member (chunk, "usage");

  json = object_to_string (chunk);
  event = g_strdup_printf ("data: %s\n\n", json);

  return g_bytes_new_take (event, strlen (event));
}

static JsonObject *
make_text_delta (const char *role,
                 const char *content)
{
  JsonObject *delta = json_object_new ();

  if (role != NULL)
    json_object_set_string_member (delta, "role", role);
  if (content != NULL)
    json_object_set_string_member (delta, "content", content);

  return delta;
}

/* A calculator call: the whole call, or when streaming (@index >= 0) its header (with @id)
 * or a fragment of its arguments (without). */
static JsonObject *
make_tool_call (int         index,
                const char *id,
                const char *arguments)
{
  JsonObject *call = json_object_new ();
  JsonObject *function = json_object_new ();

  if (index >= 0)
    json_object_set_int_member (call, "index", index);
  if (id != NULL)
    {
      json_object_set_string_member (call, "id", id);
      json_object_set_string_member (call, "type", "function");
      json_object_set_string_member (function, "name", "calculator");
    }
  json_object_set_string_member (function, "arguments", arguments);
  json_object_set_object_member (call, "function", function);

  return call;
}

static JsonObject *
make_tool_delta (guint       index,
                 const char *id,
                 const char *arguments,
                 gboolean    first)
{
  JsonObject *delta = make_text_delta (first ? "assistant" : NULL, NULL);
  JsonArray *calls = json_array_new ();

  if (first)
    json_object_set_null_member (delta, "content");
  json_array_add_object_element (calls, make_tool_call (index, id, arguments));
  json_object_set_array_member (delta, "tool_calls", calls);

  return delta;
}

/* Splits @arguments into fragments of 3 to 8 bytes, in a fixed pattern. */
static GPtrArray *
split_arguments (const char *arguments)
{
  static const guint sizes[] = { 5, 3, 7, 4, 8, 6 };
  GPtrArray *fragments = g_ptr_array_new_with_free_func (g_free);
  gsize length = strlen (arguments);
  gsize position = 0;

  for (guint i = 0; position < length; i++)
    {
      gsize remaining = length - position;
      gsize size = sizes[i % G_N_ELEMENTS (sizes)];

      if (remaining <= 8)
        size = remaining;
      else if (remaining - size < 3)
        size = remaining - 3;

      g_ptr_array_add (fragments, g_strndup (arguments + position, size));
      position += size;
    }

  return fragments;
}

static GPtrArray *
build_stream_events (DemoReply *reply)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *finish_reason;

  if (reply->calls == NULL)
    {
      const char *p = reply->text;

      g_ptr_array_add (events, make_chunk (reply, make_text_delta ("assistant", ""), NULL));
      while (*p != '\0')
        {
          const char *start = p;
          g_autofree char *word = NULL;

          while (*p != '\0' && !g_ascii_isspace (*p))
            p++;
          while (g_ascii_isspace (*p))
            p++;

          word = g_strndup (start, p - start);
          g_ptr_array_add (events, make_chunk (reply, make_text_delta (NULL, word), NULL));
        }
      finish_reason = "stop";
    }
  else
    {
      g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (
        (GDestroyNotify) g_ptr_array_unref);
      ToolCall *first = g_ptr_array_index (reply->calls, 0);
      guint n_steps = 0;

      /* Call 0's header goes out with the role. Then the calls take turns, one chunk each,
       * every call sending its header (NULL below) and then its argument fragments, so that
       * parallel calls interleave: args 0, header 1, args 0, args 1, args 0, args 1, … */
      g_ptr_array_add (events, make_chunk (reply, make_tool_delta (0, first->id, "", TRUE), NULL));

      for (guint i = 0; i < reply->calls->len; i++)
        {
          ToolCall *call = g_ptr_array_index (reply->calls, i);
          GPtrArray *mine = split_arguments (call->arguments);

          if (i > 0)
            g_ptr_array_insert (mine, 0, NULL);
          n_steps = MAX (n_steps, mine->len);
          g_ptr_array_add (steps, mine);
        }

      for (guint step = 0; step < n_steps; step++)
        {
          for (guint i = 0; i < reply->calls->len; i++)
            {
              GPtrArray *mine = g_ptr_array_index (steps, i);
              ToolCall *call = g_ptr_array_index (reply->calls, i);
              const char *fragment;

              if (step >= mine->len)
                continue;

              fragment = g_ptr_array_index (mine, step);
              g_ptr_array_add (events,
                               make_chunk (reply,
                                           make_tool_delta (i, fragment ? NULL : call->id,
                                                            fragment ? fragment : "", FALSE),
                                           NULL));
            }
        }
      finish_reason = "tool_calls";
    }

  g_ptr_array_add (events, make_chunk (reply, make_text_delta (NULL, NULL), finish_reason));
  if (reply->include_usage)
    g_ptr_array_add (events, make_chunk (reply, NULL, NULL));
  g_ptr_array_add (events, g_bytes_new_static ("data: [DONE]\n\n", strlen ("data: [DONE]\n\n")));

  return events;
}

static JsonObject *
build_completion (DemoReply *reply)
{
  JsonObject *message = json_object_new ();
  JsonObject *completion;

  json_object_set_string_member (message, "role", "assistant");
  set_string_or_null (message, "content", reply->text);
  json_object_set_null_member (message, "refusal");

  if (reply->calls != NULL)
    {
      JsonArray *calls = json_array_new ();

      for (guint i = 0; i < reply->calls->len; i++)
        {
          ToolCall *call = g_ptr_array_index (reply->calls, i);

          json_array_add_object_element (calls, make_tool_call (-1, call->id, call->arguments));
        }
      json_object_set_array_member (message, "tool_calls", calls);
    }

  completion = make_response (reply, "chat.completion",
                              make_choice ("message", message,
                                           reply->calls ? "tool_calls" : "stop"));
  json_object_set_object_member (completion, "usage", make_usage (reply));

  return completion;
}

/* Streaming */

static void
demo_stream_stop (DemoStream *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
}

static void
demo_stream_free (DemoStream *self)
{
  demo_stream_stop (self);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self);
}

static void
demo_stream_write_next (DemoStream *self)
{
  SoupMessageBody *body = soup_server_message_get_response_body (self->msg);

  soup_message_body_append_bytes (body, g_ptr_array_index (self->events, self->position++));
  if (self->position == self->events->len)
    soup_message_body_complete (body);
  soup_server_message_unpause (self->msg);
}

static gboolean
demo_stream_tick (gpointer user_data)
{
  DemoStream *self = user_data;

  demo_stream_write_next (self);
  if (self->position < self->events->len)
    return G_SOURCE_CONTINUE;

  self->timeout_id = 0;
  return G_SOURCE_REMOVE;
}

static void
demo_stream_start (SoupServerMessage *msg,
                   GPtrArray         *events,
                   guint              delay_ms)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  DemoStream *self = g_new0 (DemoStream, 1);

  self->msg = msg;
  self->events = events;

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);

  /* The stream lives exactly as long as the message; a client that goes away only stops
   * the timer, and the message's finalization frees the rest. */
  g_object_set_data_full (G_OBJECT (msg), "demo-stream", self,
                          (GDestroyNotify) demo_stream_free);
  g_signal_connect_swapped (msg, "finished", G_CALLBACK (demo_stream_stop), self);
  g_signal_connect_swapped (msg, "disconnected", G_CALLBACK (demo_stream_stop), self);

  demo_stream_write_next (self);
  self->timeout_id = g_timeout_add (delay_ms, demo_stream_tick, self);
}

/* Endpoints */

static void
handle_chat_completions (DemoServer        *self,
                         SoupServerMessage *msg)
{
  g_auto(DemoRequest) request = { 0 };
  g_auto(DemoReply) reply = { 0 };
  g_autoptr(ApiError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *summary = NULL;

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if ((error = parse_request (body, &request)))
    {
      reply_api_error (msg, error);
      return;
    }

  demo_server_answer (self, &request, &reply);

  if (reply.calls != NULL)
    summary = g_strdup_printf ("%s, %u tool call%s", request.stream ? "stream" : "json",
                               reply.calls->len, reply.calls->len == 1 ? "" : "s");
  else
    summary = g_strdup_printf ("%s, %s", request.stream ? "stream" : "json",
                               request.tool_results->len > 0 ? "answer to tool results"
                                                             : "text");
  request_info_set_summary (msg, summary);

  if (request.stream)
    {
      demo_stream_start (msg, build_stream_events (&reply), self->delay_ms);
    }
  else
    {
      g_autoptr(JsonObject) completion = build_completion (&reply);

      reply_json (msg, SOUP_STATUS_OK, completion);
    }
}

static void
handle_models (SoupServerMessage *msg,
               gboolean           single)
{
#define MODEL_JSON "{\"id\":\"" DEMO_MODEL "\",\"object\":\"model\",\"owned_by\":\"libagent-demo\"}"
  static const char list[] = "{\"object\":\"list\",\"data\":[" MODEL_JSON "]}";
  static const char model[] = MODEL_JSON;
#undef MODEL_JSON

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                    single ? model : list,
                                    single ? strlen (model) : strlen (list));
}

static void
demo_server_handle (SoupServer        *server,
                    SoupServerMessage *msg,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  DemoServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const char *allowed = NULL;
  g_autofree char *message = NULL;

  /* Any Authorization header is accepted, and never looked at. */

  /* Connections accepted outside libsoup's own listeners serve one request each (see
   * demo_server_listen()); say so, and clients will not try to reuse them. */
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");

  if (g_str_equal (path, "/v1/chat/completions"))
    {
      if (method == SOUP_METHOD_POST)
        {
          handle_chat_completions (self, msg);
          return;
        }
      allowed = "POST";
    }
  else if (g_str_equal (path, "/v1/models") || g_str_equal (path, "/v1/models/" DEMO_MODEL))
    {
      if (method == SOUP_METHOD_GET || method == SOUP_METHOD_HEAD)
        {
          handle_models (msg, !g_str_equal (path, "/v1/models"));
          return;
        }
      allowed = "GET, HEAD";
    }

  if (allowed != NULL)
    {
      message = g_strdup_printf ("Invalid method for URL (%s %s)", method, path);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Allow", allowed);
      reply_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, message, NULL, NULL);
    }
  else
    {
      message = g_strdup_printf ("Invalid URL (%s %s)", method, path);
      reply_error (msg, SOUP_STATUS_NOT_FOUND, message, NULL, NULL);
    }
}

/* Request lifecycle: body size limit and logging */

static void
reject_too_large (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);

  if (soup_server_message_get_status (msg) != 0)
    return;

  /* Keep reading what the client sends, but stop storing it. */
  soup_message_body_set_accumulate (body, FALSE);
  soup_message_body_truncate (body);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");
  reply_error (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
               "Request body too large: the limit is 8 MiB.", NULL, "request_too_large");
}

static void
on_got_headers (SoupServerMessage *msg,
                gpointer           user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > MAX_REQUEST_BODY)
    reject_too_large (msg);
}

static void
on_got_chunk (SoupServerMessage *msg,
              GBytes            *chunk,
              gpointer           user_data)
{
  RequestInfo *info = request_info_get (msg);

  if (info == NULL)
    return;

  info->received += g_bytes_get_size (chunk);
  if (info->received > MAX_REQUEST_BODY)
    reject_too_large (msg);
}

static void
on_request_started (SoupServer        *server,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  RequestInfo *info = g_new0 (RequestInfo, 1);

  info->started = g_get_monotonic_time ();
  g_object_set_data_full (G_OBJECT (msg), "demo-request-info", info,
                          (GDestroyNotify) request_info_free);
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), NULL);
  g_signal_connect (msg, "got-chunk", G_CALLBACK (on_got_chunk), NULL);
}

static void
log_request (DemoServer        *self,
             SoupServerMessage *msg,
             gboolean           aborted)
{
  RequestInfo *info = request_info_get (msg);
  const char *method = soup_server_message_get_method (msg);
  g_autofree char *outcome = NULL;

  if (self->quiet || info == NULL || method == NULL)
    return;

  if (aborted)
    outcome = g_strdup ("client went away");
  else
    outcome = g_strdup_printf ("%u", soup_server_message_get_status (msg));

  /* Only the request line and the outcome: never headers, so never credentials. */
  g_printerr ("%s %s → %s%s%s (%" G_GINT64_FORMAT " ms)\n",
              method, g_uri_get_path (soup_server_message_get_uri (msg)), outcome,
              info->summary ? ", " : "", info->summary ? info->summary : "",
              (g_get_monotonic_time () - info->started) / 1000);
}

static void
on_request_finished (SoupServer        *server,
                     SoupServerMessage *msg,
                     gpointer           user_data)
{
  log_request (user_data, msg, FALSE);
}

static void
on_request_aborted (SoupServer        *server,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  log_request (user_data, msg, TRUE);
}

/* Program */

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             gpointer           user_data)
{
  SoupServer *server = user_data;
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr(GError) error = NULL;

  if (!soup_server_accept_iostream (server, G_IO_STREAM (connection), local, remote, &error))
    g_printerr ("%s: %s\n", g_get_prgname (), error->message);

  return TRUE;
}

/* Listens on 127.0.0.1 and hands each connection to @server. This does what
 * soup_server_listen_local() does, without the listener of libsoup 3.2, which leaks every
 * accepted socket (never closed once a client drops an idle keep-alive connection). */
static GSocketService *
demo_server_listen (SoupServer  *server,
                    guint16      port,
                    guint16     *bound_port,
                    GError     **error)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, port);
  g_autoptr(GSocketAddress) effective = NULL;

  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, &effective, error))
    return NULL;

  *bound_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_signal_connect_object (service, "incoming", G_CALLBACK (on_incoming), server, 0);
  g_socket_service_start (service);

  return g_steal_pointer (&service);
}

static gboolean
on_quit_signal (gpointer user_data)
{
  DemoServer *self = user_data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_stdin_ready (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  DemoServer *self = user_data;
  char buffer[4096];
  gssize n_read;

  do
    n_read = read (fd, buffer, sizeof buffer);
  while (n_read < 0 && errno == EINTR);

  if (n_read > 0 || (n_read < 0 && errno == EAGAIN))
    return G_SOURCE_CONTINUE;

  self->stdin_watch = 0;
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GSocketService) service = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  DemoServer self = { 0 };
  guint16 bound_port = 0;
  guint sigint_id;
  guint sigterm_id;
  int port = 0;
  int delay_ms = 40;
  gboolean print_url = FALSE;
  gboolean exit_on_stdin_eof = FALSE;
  const GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port,
      N_("Port to listen on, 0 to pick a free one"), N_("PORT") },
    { "delay-ms", 'd', 0, G_OPTION_ARG_INT, &delay_ms,
      N_("Pause between streamed chunks, in milliseconds (default 40)"), N_("MS") },
    { "print-url", 0, 0, G_OPTION_ARG_NONE, &print_url,
      N_("Print the base URL on the first line of standard output (always done)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &self.quiet,
      N_("Do not log requests on standard error"), NULL },
    { "exit-on-stdin-eof", 0, 0, G_OPTION_ARG_NONE, &exit_on_stdin_eof,
      N_("Exit when standard input reaches end of file"), NULL },
    G_OPTION_ENTRY_NULL
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("A demo model server speaking the OpenAI "
                                           "chat-completions protocol on 127.0.0.1."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return EXIT_FAILURE;
    }
  if (port < 0 || port > 65535 || delay_ms < 0 || delay_ms > 60000)
    {
      g_printerr (_("%s: the port must be in 0–65535 and the delay in 0–60000 ms\n"),
                  g_get_prgname ());
      return EXIT_FAILURE;
    }

  /* A client closing its end must not kill us while we log or stream. */
  signal (SIGPIPE, SIG_IGN);

  self.delay_ms = delay_ms;
  self.loop = loop = g_main_loop_new (NULL, FALSE);

  /* Before the URL goes out, so that a script may stop us as soon as it has read it. */
  sigint_id = g_unix_signal_add (SIGINT, on_quit_signal, &self);
  sigterm_id = g_unix_signal_add (SIGTERM, on_quit_signal, &self);
  if (exit_on_stdin_eof)
    self.stdin_watch = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                      on_stdin_ready, &self);

  server = soup_server_new ("server-header", "agent-demo-server", NULL);
  soup_server_add_handler (server, NULL, demo_server_handle, &self, NULL);
  g_signal_connect (server, "request-started", G_CALLBACK (on_request_started), &self);
  g_signal_connect (server, "request-finished", G_CALLBACK (on_request_finished), &self);
  g_signal_connect (server, "request-aborted", G_CALLBACK (on_request_aborted), &self);

  if (!(service = demo_server_listen (server, port, &bound_port, &error)))
    {
      g_printerr (_("%s: cannot listen on 127.0.0.1 port %d: %s\n"),
                  g_get_prgname (), port, error->message);
      g_source_remove (sigint_id);
      g_source_remove (sigterm_id);
      g_clear_handle_id (&self.stdin_watch, g_source_remove);
      return EXIT_FAILURE;
    }

  printf ("http://127.0.0.1:%u/v1\n", bound_port);
  fflush (stdout);

  if (!self.quiet)
    g_printerr (_("Demo model server listening on http://127.0.0.1:%u/v1 "
                  "(model “%s”); press Ctrl+C to stop.\n"), bound_port, DEMO_MODEL);

  g_main_loop_run (loop);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_handle_id (&self.stdin_watch, g_source_remove);

  /* Stop listening, drop the clients (which stops their streams), let the I/O settle. */
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_clear_object (&service);
  soup_server_disconnect (server);
  for (guint i = 0; i < 100 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  g_clear_object (&server);

  return EXIT_SUCCESS;
}
