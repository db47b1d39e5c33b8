/* agent-json-private.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "agent-json-private.h"

static inline int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The UTF-16 code unit of the \uXXXX escape at @p, or -1. */
static int
escape_unit (const char *p,
             const char *end)
{
  int unit = 0;

  if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
    return -1;

  for (int i = 2; i < 6; i++)
    {
      int v = hex_value (p[i]);

      if (v < 0)
        return -1;
      unit = unit * 16 + v;
    }

  return unit;
}

/* Rewrites, in place, the escapes that JSON allows but C strings and UTF-8
 * cannot hold: \u0000 and unpaired surrogates become \uFFFD, the
 * replacement character (what a browser's JSON.parse() and TextDecoder
 * would show). Escapes are 6 bytes either way. */
static void
replace_unrepresentable_escapes (char  *text,
                                 gsize  len)
{
  char *end = text + len;

  for (char *p = text; p < end; p++)
    {
      int unit;

      if (*p != '\\')
        continue;

      unit = escape_unit (p, end);
      if (unit < 0)
        {
          p++;  /* another escape: skip the escaped character */
          continue;
        }

      if (unit >= 0xD800 && unit <= 0xDBFF)
        {
          int low = escape_unit (p + 6, end);

          if (low >= 0xDC00 && low <= 0xDFFF)
            {
              p += 11;  /* a proper pair */
              continue;
            }
        }
      else if (unit != 0 && (unit < 0xDC00 || unit > 0xDFFF))
        {
          p += 5;
          continue;
        }

      memcpy (p, "\\uFFFD", 6);
      p += 5;
    }
}

/*
 * Parses one JSON document. A document with an escaped NUL (which cJSON
 * would silently cut the string at) or an unpaired surrogate (which cJSON
 * refuses) is parsed with those escapes replaced by U+FFFD, so that nothing
 * after them is lost.
 */
cJSON *
agent_cjson_parse (const char *text,
                   gsize       len)
{
  g_autofree char *copy = NULL;
  cJSON *root;

  if G_LIKELY (memmem (text, len, "\\u0000", 6) == NULL)
    {
      if G_LIKELY ((root = cJSON_ParseWithLength (text, len)) != NULL)
        return root;

      /* Only a stray surrogate could make a retry succeed. */
      if (memmem (text, len, "\\ud", 3) == NULL && memmem (text, len, "\\uD", 3) == NULL)
        return NULL;
    }

  copy = g_memdup2 (text, len);
  replace_unrepresentable_escapes (copy, len);
  return cJSON_ParseWithLength (copy, len);
}

JsonNode *
agent_cjson_to_node (const cJSON *item)
{
  JsonNode *node;

  if (item == NULL || cJSON_IsNull (item))
    return json_node_new (JSON_NODE_NULL);

  if (cJSON_IsBool (item))
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, cJSON_IsTrue (item));
      return node;
    }

  if (cJSON_IsNumber (item))
    {
      double value = item->valuedouble;

      node = json_node_new (JSON_NODE_VALUE);
      /* Integers stay integers, as json-glib would parse them. */
      if (value == floor (value) && fabs (value) < 9007199254740992.0)
        json_node_set_int (node, (gint64) value);
      else
        json_node_set_double (node, value);
      return node;
    }

  if (cJSON_IsString (item))
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, item->valuestring);
      return node;
    }

  if (cJSON_IsArray (item))
    {
      JsonArray *array = json_array_new ();
      const cJSON *child;

      cJSON_ArrayForEach (child, item)
        json_array_add_element (array, agent_cjson_to_node (child));
      node = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (node, array);
      return node;
    }

  if (cJSON_IsObject (item))
    {
      JsonObject *object = json_object_new ();
      const cJSON *child;

      cJSON_ArrayForEach (child, item)
        json_object_set_member (object, child->string, agent_cjson_to_node (child));
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (node, object);
      return node;
    }

  /* cJSON_Raw and invalid items */
  return json_node_new (JSON_NODE_NULL);
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
          return cJSON_CreateNumber ((double) json_node_get_int (node));
        return cJSON_CreateNumber (json_node_get_double (node));
      }

    case JSON_NODE_NULL:
    default:
      return cJSON_CreateNull ();
    }
}

/* cJSON allocates with its own hooks (malloc); hand back GLib memory. */
char *
agent_cjson_print (const cJSON *item)
{
  char *text = cJSON_PrintUnformatted (item);
  char *copy = g_strdup (text);

  cJSON_free (text);
  return copy;
}
