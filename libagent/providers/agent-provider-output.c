/* agent-provider-output.c — asking each API for an answer that follows a
 * JSON Schema
 *
 *   OpenAI Chat Completions  response_format: {type: json_schema,
 *                            json_schema: {name, schema, strict: true}}
 *   OpenAI Responses         text.format: {type: json_schema, name, schema,
 *                            strict: true}
 *   Gemini                   generationConfig.responseMimeType
 *                            "application/json" and responseSchema, the
 *                            schema translated to the OpenAPI subset Gemini
 *                            takes (or refused, saying what it cannot take)
 *   Ollama                   format: the schema
 *   Anthropic                a tool named output_name whose input schema is
 *                            the schema, and tool_choice making the model
 *                            call a tool (see below)
 *
 * Anthropic: with no tools of the session, tool_choice {type: tool, name}
 * forces the output tool. With tools, {type: any}: the model must call a
 * tool, and may call the session's first; it answers by calling the output
 * tool (see agent-turn-output.c). Extended thinking takes neither (only
 * auto), so with thinking on the tool is offered and the system prompt asks
 * for it; an answer in text is read as the object then.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "providers/agent-output-private.h"

void
_agent_output_add_openai_chat (cJSON              *root,
                               const AgentRequest *request)
{
  cJSON *format;
  cJSON *json_schema;

  if (request->output_schema == NULL)
    return;

  format = cJSON_AddObjectToObject (root, "response_format");
  cJSON_AddStringToObject (format, "type", "json_schema");
  json_schema = cJSON_AddObjectToObject (format, "json_schema");
  cJSON_AddStringToObject (json_schema, "name", request->output_name);
  cJSON_AddItemToObject (json_schema, "schema", agent_node_to_cjson (request->output_schema));
  cJSON_AddTrueToObject (json_schema, "strict");
}

void
_agent_output_add_openai_responses (cJSON              *root,
                                    const AgentRequest *request)
{
  cJSON *text;
  cJSON *format;

  if (request->output_schema == NULL)
    return;

  text = cJSON_GetObjectItemCaseSensitive (root, "text");
  if (text == NULL)
    text = cJSON_AddObjectToObject (root, "text");
  cJSON_DeleteItemFromObjectCaseSensitive (text, "format");
  format = cJSON_AddObjectToObject (text, "format");
  cJSON_AddStringToObject (format, "type", "json_schema");
  cJSON_AddStringToObject (format, "name", request->output_name);
  cJSON_AddItemToObject (format, "schema", agent_node_to_cjson (request->output_schema));
  cJSON_AddTrueToObject (format, "strict");
}

void
_agent_output_add_ollama (cJSON              *root,
                          const AgentRequest *request)
{
  if (request->output_schema == NULL)
    return;

  cJSON_DeleteItemFromObjectCaseSensitive (root, "format");
  cJSON_AddItemToObject (root, "format", agent_node_to_cjson (request->output_schema));
}

void
_agent_output_add_anthropic (cJSON              *root,
                             const AgentRequest *request,
                             gboolean            thinking)
{
  cJSON *tools;
  cJSON *tool;
  cJSON *choice;
  gboolean has_tools;

  if (request->output_schema == NULL)
    return;

  tools = cJSON_GetObjectItemCaseSensitive (root, "tools");
  has_tools = tools != NULL && cJSON_GetArraySize (tools) > 0;
  if (tools == NULL)
    tools = cJSON_AddArrayToObject (root, "tools");

  tool = cJSON_CreateObject ();
  cJSON_AddStringToObject (tool, "name", request->output_name);
  cJSON_AddStringToObject (tool, "description",
                           "Give the answer: call this tool once, with the answer as its input.");
  cJSON_AddItemToObject (tool, "input_schema", agent_node_to_cjson (request->output_schema));
  cJSON_AddItemToArray (tools, tool);

  if (thinking)
    {
      cJSON *system = cJSON_GetObjectItemCaseSensitive (root, "system");
      g_autofree char *text = NULL;

      text = g_strdup_printf ("%s%sGive your final answer by calling the tool %s.",
                              cJSON_IsString (system) ? system->valuestring : "",
                              cJSON_IsString (system) ? "\n\n" : "",
                              request->output_name);
      cJSON_DeleteItemFromObjectCaseSensitive (root, "system");
      cJSON_AddStringToObject (root, "system", text);
      return;
    }

  choice = cJSON_AddObjectToObject (root, "tool_choice");
  if (has_tools)
    {
      cJSON_AddStringToObject (choice, "type", "any");
    }
  else
    {
      cJSON_AddStringToObject (choice, "type", "tool");
      cJSON_AddStringToObject (choice, "name", request->output_name);
    }
}

/* Gemini: the OpenAPI subset of responseSchema */

typedef struct
{
  JsonNode *root;
  GString  *path;   /* in the schema, for errors: properties.dates.items */
  guint     depth;  /* of $refs inlined */
} Translation;

#define MAX_INLINE_DEPTH 16

G_GNUC_PRINTF (3, 4)
static cJSON *
refuse (Translation  *t,
        GError      **error,
        const char   *format,
        ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
               _("Gemini cannot take this output schema: %s (at %s)"),
               what, t->path->len > 0 ? t->path->str : "#");
  return NULL;
}

static const char *
string_of (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static const char *
gemini_type (const char *type)
{
  static const char * const names[][2] = {
    { "string", "STRING" }, { "number", "NUMBER" }, { "integer", "INTEGER" },
    { "boolean", "BOOLEAN" }, { "array", "ARRAY" }, { "object", "OBJECT" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (type, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}

static JsonNode *
resolve (Translation *t,
         const char  *ref)
{
  static const char * const prefixes[] = { "#/$defs/", "#/definitions/" };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (ref, prefixes[i]))
      {
        const char *folder = prefixes[i] + 2;
        g_autofree char *name = g_strndup (folder, strlen (folder) - 1);
        JsonNode *defs = json_object_get_member (json_node_get_object (t->root), name);

        if (defs == NULL || !JSON_NODE_HOLDS_OBJECT (defs))
          return NULL;
        return json_object_get_member (json_node_get_object (defs), ref + strlen (prefixes[i]));
      }

  return NULL;
}

static cJSON *translate (Translation  *t,
                         JsonNode     *schema,
                         GError      **error);

static gboolean
translate_into (Translation  *t,
                cJSON        *parent,
                const char   *name,
                JsonNode     *schema,
                const char   *segment,
                GError      **error)
{
  gsize len = t->path->len;
  cJSON *item;

  g_string_append_printf (t->path, "%s%s", len > 0 ? "." : "", segment);
  item = translate (t, schema, error);
  g_string_truncate (t->path, len);
  if (item == NULL)
    return FALSE;

  if (name != NULL)
    cJSON_AddItemToObject (parent, name, item);
  else
    cJSON_AddItemToArray (parent, item);
  return TRUE;
}

static gboolean
translate_type (Translation  *t,
                cJSON        *out,
                JsonNode     *type,
                GError      **error)
{
  const char *single = string_of (type);
  const char *found = NULL;
  gboolean nullable = FALSE;

  if (single != NULL)
    {
      if (g_str_equal (single, "null"))
        return refuse (t, error, _("a schema whose only type is null")) != NULL;
      if ((found = gemini_type (single)) == NULL)
        return refuse (t, error, _("the type “%s”"), single) != NULL;
      cJSON_AddStringToObject (out, "type", found);
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_ARRAY (type))
    return refuse (t, error, _("a “type” that is not a name")) != NULL;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (type)); i++)
    {
      const char *name = string_of (json_array_get_element (json_node_get_array (type), i));

      if (g_strcmp0 (name, "null") == 0)
        nullable = TRUE;
      else if (found != NULL)
        return refuse (t, error, _("more than one type besides null")) != NULL;
      else if ((found = gemini_type (name)) == NULL)
        return refuse (t, error, _("the type “%s”"), name ? name : "?") != NULL;
    }

  if (found == NULL)
    return refuse (t, error, _("a schema whose only type is null")) != NULL;

  cJSON_AddStringToObject (out, "type", found);
  if (nullable)
    cJSON_AddTrueToObject (out, "nullable");
  return TRUE;
}

static gboolean
all_strings (JsonArray *array)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (string_of (json_array_get_element (array, i)) == NULL)
      return FALSE;
  return TRUE;
}

static cJSON *
translate (Translation  *t,
           JsonNode     *node,
           GError      **error)
{
  /* Taken as they are */
  static const char * const copied[] = {
    "description", "title", "format", "pattern", "example", "default", "nullable", "required",
    "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "minProperties",
    "maxProperties", NULL
  };
  /* Annotations Gemini has no use for */
  static const char * const dropped[] = {
    "$schema", "$id", "$comment", "$defs", "definitions", "examples", NULL
  };
  g_autoptr(cJSON) out = NULL;
  JsonObject *schema;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  const char *ref;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return refuse (t, error, _("a schema that is not an object"));

  schema = json_node_get_object (node);

  if ((ref = string_of (json_object_get_member (schema, "$ref"))) != NULL)
    {
      JsonNode *target = resolve (t, ref);
      cJSON *inlined;

      if (target == NULL)
        return refuse (t, error, _("the reference “%s”"), ref);
      if (t->depth >= MAX_INLINE_DEPTH)
        return refuse (t, error, _("a recursive schema (“%s”)"), ref);

      t->depth++;
      inlined = translate (t, target, error);
      t->depth--;
      return inlined;
    }

  out = cJSON_CreateObject ();
  json_object_iter_init (&iter, schema);
  while (json_object_iter_next (&iter, &name, &value))
    {
      if (g_strv_contains (dropped, name))
        continue;

      if (g_strv_contains (copied, name))
        {
          if (g_str_equal (name, "nullable") && cJSON_GetObjectItemCaseSensitive (out, name))
            continue;
          cJSON_AddItemToObject (out, name, agent_node_to_cjson (value));
        }
      else if (g_str_equal (name, "type"))
        {
          if (!translate_type (t, out, value, error))
            return NULL;
        }
      else if (g_str_equal (name, "enum") || g_str_equal (name, "const"))
        {
          g_autoptr(JsonNode) list = NULL;

          if (g_str_equal (name, "const"))
            {
              JsonArray *array = json_array_new ();

              json_array_add_element (array, json_node_copy (value));
              list = json_node_init_array (json_node_alloc (), array);
              json_array_unref (array);
            }
          else
            {
              list = json_node_ref (value);
            }

          if (!JSON_NODE_HOLDS_ARRAY (list) || !all_strings (json_node_get_array (list)))
            return refuse (t, error, _("“%s” with values that are not strings"), name);
          cJSON_AddItemToObject (out, "enum", agent_node_to_cjson (list));
          if (!json_object_has_member (schema, "type"))
            cJSON_AddStringToObject (out, "type", "STRING");
        }
      else if (g_str_equal (name, "properties"))
        {
          cJSON *properties = cJSON_AddObjectToObject (out, "properties");
          cJSON *ordering = cJSON_AddArrayToObject (out, "propertyOrdering");
          JsonObjectIter members;
          const char *member;
          JsonNode *member_schema;

          if (!JSON_NODE_HOLDS_OBJECT (value))
            return refuse (t, error, _("“properties” that is not an object"));

          /* The order the schema gives is the order the answer streams in */
          json_object_iter_init (&members, json_node_get_object (value));
          while (json_object_iter_next (&members, &member, &member_schema))
            {
              g_autofree char *segment = g_strdup_printf ("properties.%s", member);

              if (!translate_into (t, properties, member, member_schema, segment, error))
                return NULL;
              cJSON_AddItemToArray (ordering, cJSON_CreateString (member));
            }
        }
      else if (g_str_equal (name, "items"))
        {
          if (!translate_into (t, out, "items", value, "items", error))
            return NULL;
        }
      else if (g_str_equal (name, "anyOf"))
        {
          cJSON *choices = cJSON_AddArrayToObject (out, "anyOf");

          if (!JSON_NODE_HOLDS_ARRAY (value))
            return refuse (t, error, _("“anyOf” that is not a list"));
          for (guint i = 0; i < json_array_get_length (json_node_get_array (value)); i++)
            {
              g_autofree char *segment = g_strdup_printf ("anyOf[%u]", i);

              if (!translate_into (t, choices, NULL,
                                   json_array_get_element (json_node_get_array (value), i),
                                   segment, error))
                return NULL;
            }
        }
      else if (g_str_equal (name, "additionalProperties"))
        {
          /* false is what a Gemini object is anyway; the answer is checked
           * against the schema when it arrived */
          if (!JSON_NODE_HOLDS_VALUE (value) ||
              json_node_get_value_type (value) != G_TYPE_BOOLEAN ||
              json_node_get_boolean (value))
            return refuse (t, error, _("“additionalProperties” other than false"));
        }
      else
        {
          return refuse (t, error, _("the keyword “%s”"), name);
        }
    }

  return g_steal_pointer (&out);
}

/* The schema as Gemini's responseSchema, or NULL with
 * AGENT_ERROR_UNSUPPORTED naming what it cannot take */
cJSON *
_agent_output_gemini_schema (JsonNode  *schema,
                             GError   **error)
{
  g_autoptr(GString) path = g_string_new (NULL);
  Translation t = { schema, path, 0 };

  return translate (&t, schema, error);
}

gboolean
_agent_output_add_gemini (cJSON               *config,
                          const AgentRequest  *request,
                          GError             **error)
{
  cJSON *schema;

  if (request->output_schema == NULL)
    return TRUE;

  if ((schema = _agent_output_gemini_schema (request->output_schema, error)) == NULL)
    return FALSE;

  cJSON_AddStringToObject (config, "responseMimeType", "application/json");
  cJSON_AddItemToObject (config, "responseSchema", schema);
  return TRUE;
}
