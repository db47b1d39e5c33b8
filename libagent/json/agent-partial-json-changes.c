/* agent-partial-json-changes.c — what changed in an AgentPartialJson's
 * value since the last look, and a value that a reader of it sealed
 *
 * The value only grows at its end: the string being read gets longer,
 * and the containers still open get new elements and members. So what
 * changed between two looks is, for each of those, what it gained — at
 * most one change for each level of the document, whatever the text read
 * in between:
 *
 *   {"op": "add", "path": "", "value": V}      the value appeared (V as it is now)
 *   {"op": "append", "path": P, "value": V}    the string, array or object at the
 *                                              JSON pointer P gained V (text,
 *                                              elements, members; each as it is now)
 *
 * Values added since the last look are in the change of the container
 * that was there before them, as they are now. Applied in turn, the
 * changes of each look rebuild the value: this is what object-delta
 * carries, so that a program showing an object as it streams writes (or
 * copies, or converts) each piece of it once, instead of the whole object
 * again after every piece. The JSON pointers are the only cost beyond
 * the pieces themselves, and _agent_partial_json_take_changes() waits for
 * more of the text when they would outweigh what changed (a string deep
 * in the document, or under a long name, growing a byte at a time).
 *
 * A value given out may be sealed by whoever got it (json_node_seal(), or
 * a shallow copy put into an immutable JsonBuilder, which seals the
 * objects and arrays it shares): the reader then goes on with a copy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "json/agent-partial-json-private.h"

/* The changes wait for more text while their JSON pointers weigh more
 * than this many bytes and COST_PER_BYTE times the text read since the
 * last look */
#define FREE_PATH_BYTES 64
#define COST_PER_BYTE 16

typedef struct
{
  JsonNode  *node;    /* what changed (a reference): the root, a container, a string */
  char      *path;    /* a JSON pointer; "" for the root */
  guint      start;   /* an array: its first new element; a string: its bytes before */
  GPtrArray *names;   /* an object: its new members, in order */
  gboolean   whole;   /* the value appeared: "add" */
} Change;

static void
change_free (gpointer data)
{
  Change *change = data;

  json_node_unref (change->node);
  g_free (change->path);
  g_clear_pointer (&change->names, g_ptr_array_unref);
  g_free (change);
}

void
_agent_partial_json_track_changes (AgentPartialJson *self)
{
  self->tracking = TRUE;
  if (self->changes == NULL)
    self->changes = g_ptr_array_new_with_free_func (change_free);
}

void
_agent_partial_json_clear_changes (AgentPartialJson *self)
{
  self->tracking = FALSE;
  g_clear_pointer (&self->changes, g_ptr_array_unref);
  g_clear_pointer (&self->string_segment, g_free);
  self->path_bytes = 0;
  self->taken_at = 0;
}

/* The name of the value about to be added to the innermost open
 * container, as a JSON pointer's segment (escaped), or NULL */
char *
_agent_partial_json_segment (AgentPartialJson *self)
{
  Frame *frame;
  GString *segment;

  if (!self->tracking || self->frames->len == 0)
    return NULL;

  frame = &g_array_index (self->frames, Frame, self->frames->len - 1);
  if (JSON_NODE_HOLDS_ARRAY (frame->node))
    return g_strdup_printf ("/%u", json_array_get_length (json_node_get_array (frame->node)));

  segment = g_string_new (NULL);
  _agent_json_pointer_append (segment, frame->key);
  return g_string_free (segment, FALSE);
}

/* The JSON pointer of the open container @depth (0: the root) */
static GString *
frame_path (AgentPartialJson *self,
            guint             depth)
{
  GString *path = g_string_new (NULL);

  for (guint i = 1; i <= depth; i++)
    g_string_append (path, g_array_index (self->frames, Frame, i).segment);
  return path;
}

static Change *
add_change (AgentPartialJson *self,
            JsonNode         *node,
            GString          *path)
{
  Change *change = g_new0 (Change, 1);

  change->node = json_node_ref (node);
  self->path_bytes += path->len + 16;
  change->path = g_string_free (path, FALSE);
  g_ptr_array_add (self->changes, change);
  return change;
}

/* @node is about to be added to the innermost open container (or to
 * be the value, when none is open) */
void
_agent_partial_json_note_attach (AgentPartialJson *self,
                                 JsonNode         *node)
{
  Frame *parent;
  Change *change;

  if (!self->tracking)
    return;

  if (self->frames->len == 0)
    {
      change = add_change (self, node, g_string_new (NULL));
      change->whole = TRUE;
      return;
    }

  /* A container that came since the last look is in a change already */
  parent = &g_array_index (self->frames, Frame, self->frames->len - 1);
  if (parent->batch == self->batch)
    return;

  if (parent->change_batch != self->batch)
    {
      change = add_change (self, parent->node, frame_path (self, self->frames->len - 1));
      if (JSON_NODE_HOLDS_OBJECT (parent->node))
        change->names = g_ptr_array_new_with_free_func (g_free);
      else
        change->start = json_array_get_length (json_node_get_array (parent->node));
      parent->change_batch = self->batch;
      parent->change = self->changes->len - 1;
    }

  change = g_ptr_array_index (self->changes, parent->change);
  if (change->names != NULL)
    g_ptr_array_add (change->names, g_strdup (parent->key));
}

/* The string being read grows; it had @before bytes */
void
_agent_partial_json_note_string (AgentPartialJson *self,
                                 gsize             before)
{
  Change *change;
  GString *path;

  if (!self->tracking || self->string_batch == self->batch ||
      self->string_change_batch == self->batch)
    return;

  path = frame_path (self, self->frames->len == 0 ? 0 : self->frames->len - 1);
  if (self->string_segment != NULL)
    g_string_append (path, self->string_segment);
  change = add_change (self, self->string_node, path);
  change->start = before;
  self->string_change_batch = self->batch;
}

/* A copy that shares nothing with @node, and is not sealed (json_node_copy()
 * shares objects and arrays, and keeps a seal); each node and its copy go
 * into @map, if given */
static JsonNode *
copy_tree (JsonNode   *node,
           GHashTable *map)
{
  JsonNode *copy = json_node_alloc ();

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          json_object_set_member (object, name, copy_tree (member, map));
        json_node_init_object (copy, object);
        json_object_unref (object);
        break;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *source = json_node_get_array (node);
        JsonArray *array = json_array_sized_new (json_array_get_length (source));

        for (guint i = 0; i < json_array_get_length (source); i++)
          json_array_add_element (array, copy_tree (json_array_get_element (source, i), map));
        json_node_init_array (copy, array);
        json_array_unref (array);
        break;
      }

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          json_node_init_string (copy, json_node_get_string (node));
          break;
        case G_TYPE_INT64:
          json_node_init_int (copy, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          json_node_init_double (copy, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
        default:
          json_node_init_boolean (copy, json_node_get_boolean (node));
          break;
        }
      break;

    case JSON_NODE_NULL:
    default:
      json_node_init_null (copy);
      break;
    }

  if (map != NULL)
    g_hash_table_insert (map, node, copy);
  return copy;
}

/* The value, or a part of it that the reader is about to change, was
 * sealed by someone it was given to: the reader goes on with a copy (the
 * sealed one stays as it was for them) */
void
_agent_partial_json_unseal (AgentPartialJson *self)
{
  g_autoptr(GHashTable) map = g_hash_table_new (NULL, NULL);
  JsonNode *root = copy_tree (self->root, map);

  for (guint i = 0; i < self->frames->len; i++)
    {
      Frame *frame = &g_array_index (self->frames, Frame, i);

      frame->node = g_hash_table_lookup (map, frame->node);
    }
  /* (A string about to be attached is in no tree yet: it stays itself) */
  if (self->string_node != NULL && g_hash_table_contains (map, self->string_node))
    self->string_node = g_hash_table_lookup (map, self->string_node);

  for (guint i = 0; self->changes != NULL && i < self->changes->len; i++)
    {
      Change *change = g_ptr_array_index (self->changes, i);

      json_node_unref (change->node);
      change->node = json_node_ref (g_hash_table_lookup (map, change->node));
    }

  json_node_unref (self->root);
  self->root = root;
}

static JsonNode *
change_value (Change *change)
{
  JsonNode *node = change->node;

  if (change->whole)
    return copy_tree (node, NULL);

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *source = json_node_get_array (node);
      JsonArray *added = json_array_new ();
      JsonNode *value;

      for (guint i = change->start; i < json_array_get_length (source); i++)
        json_array_add_element (added, copy_tree (json_array_get_element (source, i), NULL));
      value = json_node_init_array (json_node_alloc (), added);
      json_array_unref (added);
      return value;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *source = json_node_get_object (node);
      JsonObject *added = json_object_new ();
      JsonNode *value;

      for (guint i = 0; i < change->names->len; i++)
        {
          const char *name = g_ptr_array_index (change->names, i);
          JsonNode *member = json_object_get_member (source, name);

          if (member != NULL)
            json_object_set_member (added, name, copy_tree (member, NULL));
        }
      value = json_node_init_object (json_node_alloc (), added);
      json_object_unref (added);
      return value;
    }

  return json_node_init_string (json_node_alloc (), json_node_get_string (node) + change->start);
}

/* The changes since the last take, as an array of operations, or NULL if
 * there are none — or, unless @force, if their JSON pointers would weigh
 * too much beside the text read since (they wait for more) */
JsonNode *
_agent_partial_json_take_changes (AgentPartialJson *self,
                                  gboolean          force)
{
  JsonArray *operations;
  JsonNode *result;

  if (!self->tracking || self->changes->len == 0)
    return NULL;

  if (!force && self->path_bytes > FREE_PATH_BYTES + COST_PER_BYTE * (self->offset - self->taken_at))
    return NULL;

  operations = json_array_sized_new (self->changes->len);
  for (guint i = 0; i < self->changes->len; i++)
    {
      Change *change = g_ptr_array_index (self->changes, i);
      JsonObject *operation = json_object_new ();

      json_object_set_string_member (operation, "op", change->whole ? "add" : "append");
      json_object_set_string_member (operation, "path", change->path);
      json_object_set_member (operation, "value", change_value (change));
      json_array_add_object_element (operations, operation);
    }
  result = json_node_init_array (json_node_alloc (), operations);
  json_array_unref (operations);

  g_ptr_array_set_size (self->changes, 0);
  self->batch++;
  self->path_bytes = 0;
  self->taken_at = self->offset;
  return result;
}
