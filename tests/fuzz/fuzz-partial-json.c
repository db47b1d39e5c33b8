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
 * (An object that names a member twice is the exception: the second
 * replaces the first.)
 *
 * The reading in pieces also tracks the changes, as the session does for
 * object-delta, takes them now and then (when the reader will, or always)
 * and applies them to a copy of its own, which must then be the value;
 * and it seals the value now and then, as a careless reader of it may,
 * which the reader must survive.
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

#include "json/agent-partial-json-private.h"
#include "agent-test-changes.h"

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

/* The changes the reader has, if it gives them (all, with @force),
 * applied to @mirror, which must then be the value */
static JsonNode *
follow_changes (AgentPartialJson *reader,
                JsonNode         *mirror,
                gboolean          force)
{
  g_autoptr(JsonNode) changes = _agent_partial_json_take_changes (reader, force);
  JsonNode *value = agent_partial_json_get_value (reader);
  g_autoptr(GError) error = NULL;

  if (changes == NULL)
    return mirror;

  if (!(mirror = agent_test_try_apply_changes (mirror, changes, &error)))
    failure ("The changes do not apply: %s", error->message);
  if (!same (mirror, value))
    failure ("The changes do not build the value");
  return mirror;
}

/* Reads @data in pieces (@seed 0: whole, 1: bytes, else random sizes);
 * returns the final value, or NULL for an error. @views, when given,
 * collects a copy of the value after each piece, and *@replaced says
 * whether an object named a member twice (the second replacing the
 * first: the one case where a value is not a view of the next). */
static JsonNode *
read_in_pieces (const uint8_t *data,
                size_t         size,
                guint32        seed,
                GPtrArray     *views,
                gboolean      *replaced)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) mirror = NULL;
  gboolean tracking = seed >= 2;
  gsize at = 0;

  if (tracking)
    _agent_partial_json_track_changes (reader);

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
      if (tracking)
        {
          mirror = follow_changes (reader, mirror, g_rand_int_range (rand, 0, 4) == 0);
          /* A reader of the value that seals it */
          if (value != NULL && g_rand_int_range (rand, 0, 8) == 0)
            json_node_seal (value);
        }
    }

  if ((result = agent_partial_json_finish (reader, NULL)) == NULL)
    return NULL;
  if (replaced != NULL)
    *replaced = reader->n_replaced > 0;
  if (tracking)
    {
      mirror = follow_changes (reader, mirror, TRUE);
      if (!same (mirror, result))
        failure ("The changes do not build the whole value");
    }
  return deep_copy (result);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint32 seed = 2;
  gboolean replaced = FALSE;
  g_autoptr(JsonNode) whole = read_in_pieces (data, size, 0, NULL, NULL);
  g_autoptr(JsonNode) bytes = read_in_pieces (data, size, 1, views, &replaced);
  g_autoptr(JsonNode) random = NULL;

  for (gsize i = 0; i < MIN (size, 64); i++)
    seed = seed * 31 + data[i];
  random = read_in_pieces (data, size, MAX (seed, 2), NULL, NULL);

  if (!same (whole, bytes) || !same (whole, random))
    {
      g_autofree char *a = whole ? json_to_string (whole, FALSE) : g_strdup ("(error)");
      g_autofree char *b = bytes ? json_to_string (bytes, FALSE) : g_strdup ("(error)");
      g_autofree char *c = random ? json_to_string (random, FALSE) : g_strdup ("(error)");

      failure ("The readings differ: whole, one byte at a time and in pieces:\n%s\n%s\n%s",
               a, b, c);
    }

  if (whole != NULL && !replaced)
    for (guint i = 0; i < views->len; i++)
      if (!is_view_of (g_ptr_array_index (views, i), whole))
        failure ("After byte %u the value is not a view of the final one", i + 1);

  return 0;
}
