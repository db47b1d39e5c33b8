/* agent-json-schema-check.c — can a JSON Schema be used at all?
 *
 * The check of a value (agent-json-schema.c) finds a schema it cannot use
 * only where the value leads it: a $ref that goes round in a circle under
 * a member the answer happens not to have is never seen, and one that is
 * seen is seen after the model answered. This looks at the whole schema
 * first, as the session does before a turn's first request:
 *
 * - every subschema the check of some value could reach (through
 *   properties, additionalProperties, items, anyOf, oneOf, allOf and
 *   $ref) is an object or a boolean, with keywords of the right shape;
 * - every $ref leads somewhere;
 * - no $ref goes round in a circle without reaching into the value (a
 *   schema may refer to itself from under "items" or "properties": a
 *   tree);
 * - the schemas one value is checked against, through anyOf, oneOf,
 *   allOf and $ref, are few: $defs that each refer twice to the next
 *   would make the check of a string take 2^n steps.
 *
 * The schemas reached without going into the value form a graph (a $ref
 * may point anywhere); a depth-first walk of it finds the circles (a $ref
 * to a schema still on the walk's path) and counts, for each schema, the
 * checks it leads to and the longest run of $refs below it, once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "json/agent-json-schema-private.h"

/* Subschemas inside each other on one walk, by anyOf, oneOf, allOf and
 * $ref (a walk recurses once per level) */
#define MAX_CHAIN (2 * AGENT_JSON_MAX_DEPTH)

static const char * const combinations[] = { "allOf", "anyOf", "oneOf" };

typedef enum
{
  WHITE,
  GRAY,    /* on the walk's path */
  BLACK,   /* done: its Reach is known */
} Color;

/* What a schema leads to without going into the value */
typedef struct
{
  Color   color;
  guint64 branches;   /* the schemas a value is checked against: itself and those it leads to */
  guint   refs;       /* the longest run of $refs below it */
} Reach;

typedef struct
{
  GHashTable *reach;      /* JsonNode → Reach */
  GQueue      descents;   /* Descent: subschemas for the values inside the value */
  JsonNode   *root_node;  /* for $ref */
} SchemaCheck;

typedef struct
{
  JsonNode *schema;
  char     *location;
} Descent;

#define unusable(error, location, ...) _agent_json_schema_unusable (error, location, __VA_ARGS__)

/* @location followed by @name, as a JSON pointer (~ and / escaped) */
static char *
pointer_append (const char *location,
                const char *name)
{
  GString *pointer = g_string_new (location);

  _agent_json_pointer_append (pointer, name);
  return g_string_free (pointer, FALSE);
}

static void
descend (SchemaCheck *check,
         JsonNode    *schema,
         const char  *location,
         const char  *name)
{
  Descent *descent = g_new (Descent, 1);

  descent->schema = schema;
  descent->location = pointer_append (location, name);
  g_queue_push_tail (&check->descents, descent);
}

static void
descent_free (gpointer data)
{
  Descent *descent = data;

  g_free (descent->location);
  g_free (descent);
}

/* The keywords of @object that are not subschemas, as the check of a
 * value reads them */
static gboolean
check_keywords (JsonObject  *object,
                const char  *location,
                GError     **error)
{
  JsonNode *type = json_object_get_member (object, "type");
  JsonNode *list = json_object_get_member (object, "enum");
  const char *pattern = _agent_json_schema_string_of (json_object_get_member (object, "pattern"));

  if (type != NULL && JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (types); i++)
        if (_agent_json_schema_string_of (json_array_get_element (types, i)) == NULL)
          return unusable (error, location, _("“type” holds something other than names"));
    }
  else if (type != NULL && _agent_json_schema_string_of (type) == NULL)
    {
      return unusable (error, location, _("“type” is neither a name nor a list of names"));
    }

  if (list != NULL && !JSON_NODE_HOLDS_ARRAY (list))
    return unusable (error, location, _("“enum” is not a list"));

  if (pattern != NULL)
    {
      g_autoptr(GError) regex_error = NULL;
      g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, &regex_error);

      if (regex == NULL)
        return unusable (error, location, _("the pattern “%s” is not a regular expression: %s"),
                         pattern, regex_error->message);
    }

  for (guint k = 0; k < G_N_ELEMENTS (combinations); k++)
    {
      JsonNode *choices = json_object_get_member (object, combinations[k]);

      if (choices != NULL && !JSON_NODE_HOLDS_ARRAY (choices))
        return unusable (error, location, _("“%s” is not a list"), combinations[k]);
    }

  return TRUE;
}

/* The subschemas for the values inside the value, checked later, each
 * on a walk of its own */
static void
add_descents (SchemaCheck *check,
              JsonObject  *object,
              const char  *location)
{
  JsonNode *properties = json_object_get_member (object, "properties");
  JsonNode *additional = json_object_get_member (object, "additionalProperties");
  JsonNode *items = json_object_get_member (object, "items");

  if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties))
    {
      g_autofree char *within = pointer_append (location, "properties");
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, json_node_get_object (properties));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        descend (check, member, within, name);
    }

  if (additional != NULL)
    descend (check, additional, location, "additionalProperties");
  if (items != NULL)
    descend (check, items, location, "items");
}

static gboolean visit (SchemaCheck  *check,
                       JsonNode     *schema,
                       const char   *location,
                       guint         refs,
                       guint         chain,
                       Reach        *out,
                       GError      **error);

/* @reach, and what @child leads to after @refs_on_edge more $refs */
static gboolean
add_reach (Reach       *reach,
           const Reach *child,
           guint        refs_on_edge,
           guint        refs,
           const char  *location,
           GError     **error)
{
  reach->branches = MIN (reach->branches + child->branches,
                         (guint64) AGENT_JSON_SCHEMA_MAX_BRANCHES + 1);
  reach->refs = MAX (reach->refs, child->refs + refs_on_edge);

  if (refs + reach->refs > AGENT_JSON_SCHEMA_MAX_REFS)
    return unusable (error, location,
                     _("more than %d references follow one another without reaching into "
                       "the value"), AGENT_JSON_SCHEMA_MAX_REFS);
  return TRUE;
}

/* @schema's $ref, anyOf, oneOf and allOf, into @reach */
static gboolean
visit_branches (SchemaCheck  *check,
                JsonObject   *object,
                const char   *location,
                guint         refs,
                guint         chain,
                Reach        *reach,
                GError      **error)
{
  const char *ref = _agent_json_schema_string_of (json_object_get_member (object, "$ref"));
  Reach child;

  if (ref != NULL)
    {
      JsonNode *target = _agent_json_schema_resolve_ref (check->root_node, ref);
      Reach *known;

      if (target == NULL)
        return unusable (error, location, _("the reference “%s” leads nowhere"), ref);
      known = g_hash_table_lookup (check->reach, target);
      if (known != NULL && known->color == GRAY)
        return unusable (error, location, _("the reference “%s” goes round in a circle"), ref);
      if (!visit (check, target, ref, refs + 1, chain + 1, &child, error) ||
          !add_reach (reach, &child, 1, refs, location, error))
        return FALSE;
    }

  for (guint k = 0; k < G_N_ELEMENTS (combinations); k++)
    {
      JsonNode *choices = json_object_get_member (object, combinations[k]);
      g_autofree char *within = NULL;
      JsonArray *array;

      if (choices == NULL)
        continue;

      within = pointer_append (location, combinations[k]);
      array = json_node_get_array (choices);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          char index[16];
          g_autofree char *at = NULL;

          g_snprintf (index, sizeof index, "%u", i);
          at = pointer_append (within, index);
          if (!visit (check, json_array_get_element (array, i), at, refs, chain + 1, &child,
                      error) ||
              !add_reach (reach, &child, 0, refs, at, error))
            return FALSE;
        }
    }

  return TRUE;
}

/* One subschema, on a walk: @refs $refs and @chain subschemas above it
 * without going into the value */
static gboolean
visit (SchemaCheck  *check,
       JsonNode     *schema,
       const char   *location,
       guint         refs,
       guint         chain,
       Reach        *out,
       GError      **error)
{
  Reach *reach = g_hash_table_lookup (check->reach, schema);
  JsonObject *object;

  if (reach != NULL)
    {
      /* BLACK: GRAY ones are caught at the $ref that leads back */
      *out = *reach;
      return TRUE;
    }

  if (chain > MAX_CHAIN)
    return unusable (error, location, _("anyOf, oneOf, allOf and $ref nest more than %d deep"),
                     MAX_CHAIN);

  if (JSON_NODE_HOLDS_VALUE (schema) && json_node_get_value_type (schema) == G_TYPE_BOOLEAN)
    {
      *out = (Reach) { BLACK, 1, 0 };
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (schema))
    return unusable (error, location, _("a schema is an object"));

  object = json_node_get_object (schema);
  if (!check_keywords (object, location, error))
    return FALSE;

  reach = g_new0 (Reach, 1);
  reach->color = GRAY;
  reach->branches = 1;
  g_hash_table_insert (check->reach, schema, reach);

  if (!visit_branches (check, object, location, refs, chain, reach, error))
    return FALSE;

  if (reach->branches > AGENT_JSON_SCHEMA_MAX_BRANCHES)
    return unusable (error, location,
                     _("its anyOf, oneOf, allOf and $ref lead to more than %d checks of one "
                       "value"), AGENT_JSON_SCHEMA_MAX_BRANCHES);

  add_descents (check, object, location);
  reach->color = BLACK;
  *out = *reach;
  return TRUE;
}

/**
 * agent_json_schema_check:
 * @schema: a JSON Schema
 * @error: return location for a [struct@GLib.Error]
 *
 * Checks that @schema can be used by [func@Agent.json_schema_validate],
 * before any value is: every subschema that the check of some value could
 * reach is an object or a boolean with keywords of the right shape (a
 * `type` of names, an `enum` list, a `pattern` that is a regular
 * expression, `anyOf`, `oneOf` and `allOf` lists), every `$ref` leads to
 * a part of the schema, and none goes round in a circle without reaching
 * into the value: `{"$ref": "#"}` does, a `$ref` to the schema from under
 * its `items` does not (that is a tree).
 *
 * It also refuses a schema whose `anyOf`, `oneOf`, `allOf` and `$ref`
 * would have one value checked against more than 10,000 schemas, or lead
 * through more than 32 `$ref` one after another, which
 * [func@Agent.json_schema_validate] would refuse as well.
 *
 * A session checks its [property@Agent.Session:output-schema] so before
 * a turn's first request.
 *
 * Returns: %TRUE if @schema can be used; %FALSE with @error set
 *   (%AGENT_ERROR_INVALID_ARGUMENT) naming where in the schema, as a JSON
 *   pointer, and why: `The schema cannot be used (at #/$defs/node): the
 *   reference “#/$defs/node” goes round in a circle`
 *
 * Since: 0.1
 */
gboolean
agent_json_schema_check (JsonNode  *schema,
                         GError   **error)
{
  SchemaCheck check = { NULL, G_QUEUE_INIT, schema };
  gboolean ok = TRUE;
  Descent *descent;

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  check.reach = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_queue_push_tail (&check.descents, g_memdup2 (&(Descent) { schema, g_strdup ("#") },
                                                  sizeof (Descent)));

  while (ok && (descent = g_queue_pop_head (&check.descents)) != NULL)
    {
      Reach reach;

      ok = visit (&check, descent->schema, descent->location, 0, 0, &reach, error);
      descent_free (descent);
    }

  g_queue_clear_full (&check.descents, descent_free);
  g_hash_table_unref (check.reach);
  return ok;
}
