/* fuzz-partial-json.c
 *
 * A libFuzzer target for AgentPartialJson.
 *
 * The input is the document. It is read whole, one byte at a time and in
 * pieces whose sizes a hash of it picks; every reading must end the same
 * way (the same value, or an error), and when the document is valid each
 * value shown on the way must be a view of the final one (strings growing
 * into theirs, arrays adding elements, objects members), in valid UTF-8.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <glib/gprintf.h>

#include <agent.h>

#include "fuzz-util.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static gboolean
is_view_of (JsonNode *part,
            JsonNode *whole)
{
  if (part == NULL)
    return TRUE;
  if (JSON_NODE_TYPE (part) != JSON_NODE_TYPE (whole))
    return FALSE;

  if (JSON_NODE_HOLDS_OBJECT (part))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (part));
      while (json_object_iter_next (&iter, &name, &member))
        {
          JsonNode *other = json_object_get_member (json_node_get_object (whole), name);

          if (other == NULL || !is_view_of (member, other))
            return FALSE;
        }
      return TRUE;
    }

  if (JSON_NODE_HOLDS_ARRAY (part))
    {
      JsonArray *p = json_node_get_array (part), *w = json_node_get_array (whole);
      guint n = json_array_get_length (p);

      if (n > json_array_get_length (w))
        return FALSE;
      for (guint i = 0; i < n; i++)
        if (!is_view_of (json_array_get_element (p, i), json_array_get_element (w, i)))
          return FALSE;
      return TRUE;
    }

  if (JSON_NODE_HOLDS_VALUE (part) && json_node_get_value_type (part) == G_TYPE_STRING)
    return json_node_get_value_type (whole) == G_TYPE_STRING &&
           g_str_has_prefix (json_node_get_string (whole), json_node_get_string (part)) &&
           g_utf8_validate (json_node_get_string (part), -1, NULL);

  if (JSON_NODE_HOLDS_VALUE (part))
    {
      GType type = json_node_get_value_type (part);

      if (type != json_node_get_value_type (whole))
        return FALSE;
      if (type == G_TYPE_INT64)
        return json_node_get_int (part) == json_node_get_int (whole);
      if (type == G_TYPE_DOUBLE)
        return json_node_get_double (part) == json_node_get_double (whole);
      return json_node_get_boolean (part) == json_node_get_boolean (whole);
    }

  return TRUE;
}

/* A copy that shares nothing with @node (json_node_copy() shares the
 * objects and arrays, and json-glib cannot write every double back as
 * JSON, 2e+21 for one) */
static JsonNode *
deep_copy (JsonNode *node)
{
  JsonNode *copy;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_object_new ();
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        json_object_set_member (object, name, deep_copy (member));
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, object);
      return copy;
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
        json_array_add_element (array, deep_copy (json_array_get_element (json_node_get_array (node),
                                                                          i)));
      copy = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (copy, array);
      return copy;
    }

  return json_node_copy (node);
}

static gboolean
same (JsonNode *a,
      JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return is_view_of (a, b) && is_view_of (b, a);
}

/* Reads @data in pieces (@seed 0: whole, 1: bytes, else random sizes);
 * returns the final value, or NULL for an error. @views, when given,
 * collects a copy of the value after each piece. */
static JsonNode *
read_in_pieces (const uint8_t *data,
                size_t         size,
                guint32        seed,
                GPtrArray     *views)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(JsonNode) result = NULL;
  gsize at = 0;

  while (at < size)
    {
      gsize piece = seed == 0 ? size : seed == 1 ? 1 : (gsize) g_rand_int_range (rand, 1, 17);
      JsonNode *value;

      piece = MIN (piece, size - at);
      if (!agent_partial_json_feed (reader, (const char *) data + at, piece, NULL))
        return NULL;
      at += piece;
      value = agent_partial_json_get_value (reader);
      if (views != NULL && value != NULL)
        g_ptr_array_add (views, deep_copy (value));
    }

  if ((result = agent_partial_json_finish (reader, NULL)) == NULL)
    return NULL;
  return deep_copy (result);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint32 seed = 2;
  g_autoptr(JsonNode) whole = read_in_pieces (data, size, 0, NULL);
  g_autoptr(JsonNode) bytes = read_in_pieces (data, size, 1, views);
  g_autoptr(JsonNode) random = NULL;

  for (gsize i = 0; i < MIN (size, 64); i++)
    seed = seed * 31 + data[i];
  random = read_in_pieces (data, size, MAX (seed, 2), NULL);

  if (!same (whole, bytes) || !same (whole, random))
    failure ("The readings differ: whole, one byte at a time and in pieces");

  if (whole != NULL)
    for (guint i = 0; i < views->len; i++)
      if (!is_view_of (g_ptr_array_index (views, i), whole))
        failure ("After byte %u the value is not a view of the final one", i + 1);

  return 0;
}
