/* agent-test-changes.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-changes.h"

/* A copy that may be changed and shares nothing (json_node_copy() shares
 * objects and arrays, and keeps a seal) */
static JsonNode *
mutable_copy (JsonNode *node)
{
  JsonNode *copy = json_node_alloc ();

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_object_new ();
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        json_object_set_member (object, name, mutable_copy (member));
      json_node_init_object (copy, object);
      json_object_unref (object);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *source = json_node_get_array (node);
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < json_array_get_length (source); i++)
        json_array_add_element (array, mutable_copy (json_array_get_element (source, i)));
      json_node_init_array (copy, array);
      json_array_unref (array);
    }
  else if (JSON_NODE_HOLDS_NULL (node))
    {
      json_node_init_null (copy);
    }
  else
    {
      GValue value = G_VALUE_INIT;

      json_node_get_value (node, &value);
      json_node_init (copy, JSON_NODE_VALUE);
      json_node_set_value (copy, &value);
      g_value_unset (&value);
    }

  return copy;
}

/* The value at the JSON pointer @path in @root, or NULL */
static JsonNode *
resolve_pointer (JsonNode   *root,
                 const char *path)
{
  JsonNode *node = root;
  const char *at = path;

  /* Each "/" starts a segment, which may be empty: "/" is the member
   * named "" (g_strsplit() would find no segment in it) */
  while (node != NULL && at[0] != '\0')
    {
      const char *end;
      g_autoptr(GString) name = NULL;
      guint64 index;

      if (at[0] != '/')
        return NULL;
      if ((end = strchr (at + 1, '/')) == NULL)
        end = at + strlen (at);
      name = g_string_new_len (at + 1, end - (at + 1));
      at = end;
      g_string_replace (name, "~1", "/", 0);
      g_string_replace (name, "~0", "~", 0);
      if (JSON_NODE_HOLDS_OBJECT (node))
        node = json_object_get_member (json_node_get_object (node), name->str);
      else if (JSON_NODE_HOLDS_ARRAY (node) &&
               g_ascii_string_to_unsigned (name->str, 10, 0, G_MAXUINT, &index, NULL) &&
               index < json_array_get_length (json_node_get_array (node)))
        node = json_array_get_element (json_node_get_array (node), index);
      else
        node = NULL;
    }
  return node;
}

G_GNUC_PRINTF (3, 4)
static JsonNode *
failed (JsonNode    *object,
        GError     **error,
        const char  *format,
        ...)
{
  va_list args;

  va_start (args, format);
  g_set_error_literal (error, g_quark_from_static_string ("agent-test-changes"), 0, "");
  g_free ((*error)->message);
  (*error)->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_clear_pointer (&object, json_node_unref);
  return NULL;
}

/* @object (taken; NULL before the first) after the changes of an
 * object-delta: "add" at "" is the object anew, "append" extends the
 * string, array or object at its path by its value. NULL with @error set
 * when the changes are not of that form or do not fit the object. */
JsonNode *
agent_test_try_apply_changes (JsonNode  *object,
                              JsonNode  *changes,
                              GError   **error)
{
  JsonArray *operations;

  if (!JSON_NODE_HOLDS_ARRAY (changes) ||
      json_array_get_length (operations = json_node_get_array (changes)) == 0)
    return failed (object, error, "The changes are not a list of operations");

  for (guint i = 0; i < json_array_get_length (operations); i++)
    {
      JsonObject *operation = json_array_get_object_element (operations, i);
      const char *op = json_object_get_string_member_with_default (operation, "op", "");
      const char *path = json_object_get_string_member_with_default (operation, "path", "");
      JsonNode *value = json_object_get_member (operation, "value");
      JsonNode *target;

      if (value == NULL)
        return failed (object, error, "An operation without a value");
      if (g_str_equal (op, "add"))
        {
          if (path[0] != '\0')
            return failed (object, error, "An add at “%s”, not at the top", path);
          g_clear_pointer (&object, json_node_unref);
          object = mutable_copy (value);
          continue;
        }
      if (!g_str_equal (op, "append"))
        return failed (object, error, "An operation “%s”", op);

      if (object == NULL || (target = resolve_pointer (object, path)) == NULL)
        return failed (object, error, "The path “%s” leads nowhere", path);
      if (JSON_NODE_TYPE (target) != JSON_NODE_TYPE (value))
        return failed (object, error, "An append at “%s” of another type", path);

      if (JSON_NODE_HOLDS_ARRAY (target))
        {
          JsonArray *added = json_node_get_array (value);

          for (guint k = 0; k < json_array_get_length (added); k++)
            json_array_add_element (json_node_get_array (target),
                                    mutable_copy (json_array_get_element (added, k)));
        }
      else if (JSON_NODE_HOLDS_OBJECT (target))
        {
          JsonObjectIter iter;
          const char *name;
          JsonNode *member;

          json_object_iter_init_ordered (&iter, json_node_get_object (value));
          while (json_object_iter_next_ordered (&iter, &name, &member))
            json_object_set_member (json_node_get_object (target), name, mutable_copy (member));
        }
      else if (JSON_NODE_HOLDS_VALUE (target) &&
               json_node_get_value_type (target) == G_TYPE_STRING &&
               json_node_get_value_type (value) == G_TYPE_STRING)
        {
          g_autofree char *text = g_strconcat (json_node_get_string (target),
                                               json_node_get_string (value), NULL);

          json_node_set_string (target, text);
        }
      else
        {
          return failed (object, error, "An append at “%s”, to a value that cannot grow", path);
        }
    }

  return object;
}

/* The same, failing the test when the changes do not apply */
JsonNode *
agent_test_apply_changes (JsonNode *object,
                          JsonNode *changes)
{
  g_autoptr(GError) error = NULL;
  JsonNode *result = agent_test_try_apply_changes (object, changes, &error);

  if (result == NULL)
    {
      g_autofree char *text = json_to_string (changes, FALSE);

      g_error ("The changes %s do not apply: %s", text, error->message);
    }
  return result;
}
