/* agent-json-write.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"

/* The largest integer every smaller one of which a double holds exactly */
#define MAX_EXACT_INT G_GINT64_CONSTANT (9007199254740992)

/* cJSON holds numbers as doubles: beyond 2^53 an integer would print
 * as another one (2^53 + 1 as 2^53), so it goes as its digits. */
static cJSON *
int_to_cjson (gint64 value)
{
  char digits[G_ASCII_DTOSTR_BUF_SIZE];

  if (value >= -MAX_EXACT_INT && value <= MAX_EXACT_INT)
    return cJSON_CreateNumber ((double) value);

  g_snprintf (digits, sizeof digits, "%" G_GINT64_FORMAT, value);
  return cJSON_CreateRaw (digits);
}

cJSON *
agent_node_to_cjson (JsonNode *node)
{
  if (node == NULL)
    return cJSON_CreateNull ();

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        cJSON *object = cJSON_CreateObject ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          cJSON_AddItemToObject (object, name, agent_node_to_cjson (member));
        return object;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        cJSON *result = cJSON_CreateArray ();
        guint n = json_array_get_length (array);

        for (guint i = 0; i < n; i++)
          cJSON_AddItemToArray (result, agent_node_to_cjson (json_array_get_element (array, i)));
        return result;
      }

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_BOOLEAN)
          return cJSON_CreateBool (json_node_get_boolean (node));
        if (type == G_TYPE_STRING)
          return cJSON_CreateString (json_node_get_string (node));
        if (type == G_TYPE_INT64)
          return int_to_cjson (json_node_get_int (node));
        return cJSON_CreateNumber (json_node_get_double (node));
      }

    case JSON_NODE_NULL:
    default:
      return cJSON_CreateNull ();
    }
}

static void
write_string (GString    *out,
              const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

/* The shortest form that reads back as @value; "21.0" for a whole number,
 * as json-glib writes it (a double stays a double when read again); null
 * for what JSON has no number for. */
static void
write_double (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_string_append (out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
write_indent (GString *out,
              int      depth)
{
  g_string_append_c (out, '\n');
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
write_node (GString  *out,
            JsonNode *node,
            int       depth)   /* < 0: on one line */
{
  switch (node != NULL ? json_node_get_node_type (node) : JSON_NODE_NULL)
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            if (depth >= 0)
              write_indent (out, depth + 1);
            write_string (out, name);
            /* Indented as json-glib indents: "name" : value */
            g_string_append (out, depth >= 0 ? " : " : ":");
            write_node (out, member, depth >= 0 ? depth + 1 : -1);
          }
        if (depth >= 0 && !first)
          write_indent (out, depth);
        g_string_append_c (out, '}');
        break;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            if (depth >= 0)
              write_indent (out, depth + 1);
            write_node (out, json_array_get_element (array, i), depth >= 0 ? depth + 1 : -1);
          }
        if (depth >= 0 && n > 0)
          write_indent (out, depth);
        g_string_append_c (out, ']');
        break;
      }

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_BOOLEAN)
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
        else if (type == G_TYPE_STRING)
          write_string (out, json_node_get_string (node));
        else if (type == G_TYPE_INT64)
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
        else
          write_double (out, json_node_get_double (node));
        break;
      }

    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
    }
}

/* Documented in agent-json-private.h */
char *
agent_json_node_to_string (JsonNode *node,
                           gboolean  pretty)
{
  GString *out = g_string_new (NULL);

  write_node (out, node, pretty ? 0 : -1);
  return g_string_free (out, FALSE);
}

/* /@name at the end of the JSON pointer @pointer, ~ and / escaped (RFC 6901) */
void
_agent_json_pointer_append (GString    *pointer,
                            const char *name)
{
  g_string_append_c (pointer, '/');
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '~')
        g_string_append (pointer, "~0");
      else if (*p == '/')
        g_string_append (pointer, "~1");
      else
        g_string_append_c (pointer, *p);
    }
}

/* A deep copy: json_node_copy() shares objects and arrays. Made node by
 * node, not through text: json-glib 1.6 writes a double such as 1e19 as
 * "1e+19.0", which it cannot read back. As deep as @node, which a parse of
 * outside JSON bounds (agent_json_parse()). */
static JsonNode *
deep_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObject *copied = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, object);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          json_object_set_member (copied, name, deep_copy (member));
        copy = json_node_init_object (json_node_alloc (), copied);
        json_object_unref (copied);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);
        JsonArray *copied = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (copied, deep_copy (json_array_get_element (array, i)));
        copy = json_node_init_array (json_node_alloc (), copied);
        json_array_unref (copied);
        return copy;
      }

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      /* A value is copied, not shared */
      return json_node_copy (node);
    }
}

/* A deep copy, sealed */
JsonNode *
_agent_json_node_sealed_copy (JsonNode *node)
{
  JsonNode *copy = deep_copy (node);

  json_node_seal (copy);
  return copy;
}

/* provider_data.<provider>, or NULL */
JsonNode *
_agent_provider_data_get (JsonNode   *provider_data,
                          const char *provider)
{
  if (provider_data == NULL || !JSON_NODE_HOLDS_OBJECT (provider_data))
    return NULL;
  return json_object_get_member (json_node_get_object (provider_data), provider);
}

/* A new provider-data object: @provider_data with its @provider member set
 * to @value (taken). */
JsonNode *
_agent_provider_data_with (JsonNode   *provider_data,
                           const char *provider,
                           JsonNode   *value)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  if (provider_data != NULL && JSON_NODE_HOLDS_OBJECT (provider_data))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (provider_data));
      while (json_object_iter_next (&iter, &name, &member))
        if (g_strcmp0 (name, provider) != 0)
          json_object_set_member (object, name, json_node_copy (member));
    }

  json_object_set_member (object, provider, value);
  json_node_take_object (node, object);
  return node;
}

/* A request body: @root, printed without spaces */
GBytes *
_agent_json_print_body (cJSON   *root,
                        GError **error)
{
  char *text = cJSON_PrintUnformatted (root);

  if (text == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                           _("Could not write the request"));
      return NULL;
    }

  return g_bytes_new_with_free_func (text, strlen (text), cJSON_free, text);
}

/* Documented in agent-json-private.h */
cJSON *
_agent_json_raw_object (const char *text)
{
  g_autoptr(cJSON) parsed = NULL;

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return NULL;

  parsed = _agent_json_parse_cjson (text);
  if (!cJSON_IsObject (parsed))
    return NULL;

  return cJSON_CreateRaw (text);
}
