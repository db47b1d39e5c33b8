/* agent-demo-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-demo-util.h"

/* The JSON_NODE_HOLDS_*() macros are loud about a missing member; these are quiet. */
gboolean
demo_json_holds (JsonNode     *node,
                 JsonNodeType  type)
{
  return node != NULL && json_node_get_node_type (node) == type;
}

gboolean
demo_json_holds_value (JsonNode *node,
                       GType     type)
{
  return demo_json_holds (node, JSON_NODE_VALUE) && json_node_get_value_type (node) == type;
}

gboolean
demo_json_is_string (JsonNode *node)
{
  return demo_json_holds_value (node, G_TYPE_STRING);
}

gboolean
demo_json_is_null (JsonNode *node)
{
  return node == NULL || JSON_NODE_HOLDS_NULL (node);
}

/* Parses @data; returns its root, or %NULL if it is not JSON or is empty. */
JsonNode *
demo_json_parse (const char  *data,
                 gssize       length,
                 GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, data, length, error))
    return NULL;

  return json_parser_steal_root (parser);
}

/* Unlike json_object_get_string_member_with_default(), quiet on a member of another type. */
const char *
demo_json_get_string (JsonObject *object,
                      const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return demo_json_is_string (node) ? json_node_get_string (node) : NULL;
}

void
demo_json_set_string_or_null (JsonObject *object,
                              const char *name,
                              const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

char *
demo_json_object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

/* The demo's rough token count: whitespace-separated words. */
guint
demo_count_words (const char *text)
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
