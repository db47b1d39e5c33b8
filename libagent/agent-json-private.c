/* agent-json-private.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"


#include "agent-json-private.h"

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
