/* agent-json-write.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"

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
