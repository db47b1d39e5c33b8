/* agent-json-private.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "agent-json-private.h"

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
