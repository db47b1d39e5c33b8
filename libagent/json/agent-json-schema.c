/* agent-json-schema.c — does a value follow a JSON Schema?
 *
 * The part of JSON Schema that the providers' structured output takes
 * (OpenAI's strict mode, Gemini's responseSchema, Anthropic's tool input
 * schemas, Ollama's format), checked after the answer arrived.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "json/agent-json-schema-private.h"

/* Checks inside each other: each is a few frames of the stack */
#define MAX_NESTING (4 * AGENT_JSON_MAX_DEPTH)

/* The steps of one check: a few for each value, more with anyOf, oneOf,
 * allOf and $ref (where agent_json_schema_check() found no more than
 * AGENT_JSON_SCHEMA_MAX_BRANCHES for one value; they may still multiply
 * from one level of the value to the next) */
#define STEPS_PER_VALUE 64
#define MIN_STEPS 100000

typedef struct
{
  JsonNode *root;      /* the schema, for $ref */
  GString  *path;      /* of the value being checked: $.dates[2].day */
  guint     ref_depth; /* $refs followed without going into the value */
  guint     nesting;   /* checks inside each other */
  guint64   steps;     /* checks left */
} Check;

static gboolean check_value (Check     *check,
                             JsonNode  *schema,
                             JsonNode  *value,
                             GError   **error);

G_GNUC_PRINTF (3, 4)
static gboolean
mismatch (Check       *check,
          GError     **error,
          const char  *format,
          ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA, "%s: %s", check->path->str, reason);
  return FALSE;
}

/* The error of a schema that cannot be used, at @location (of the value,
 * here; of the schema, in agent-json-schema-check.c) */
gboolean
_agent_json_schema_unusable (GError     **error,
                             const char  *location,
                             const char  *format,
                             ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("The schema cannot be used (at %s): %s"), location, reason);
  return FALSE;
}

#define bad_schema(check, error, ...) \
  _agent_json_schema_unusable (error, (check)->path->str, __VA_ARGS__)

const char *
_agent_json_schema_string_of (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  return _agent_json_schema_string_of (json_object_get_member (object, name));
}

static gboolean
is_identifier (const char *name)
{
  if (!g_ascii_isalpha (*name) && *name != '_')
    return FALSE;
  for (; *name; name++)
    if (!g_ascii_isalnum (*name) && *name != '_')
      return FALSE;
  return TRUE;
}

static gsize
push_member (Check      *check,
             const char *name)
{
  gsize len = check->path->len;

  if (is_identifier (name))
    {
      g_string_append_printf (check->path, ".%s", name);
    }
  else
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
      g_autofree char *quoted = NULL;

      json_node_set_string (node, name);
      quoted = json_to_string (node, FALSE);
      g_string_append_printf (check->path, "[%s]", quoted);
    }

  return len;
}

static gsize
push_index (Check *check,
            guint  index)
{
  gsize len = check->path->len;

  g_string_append_printf (check->path, "[%u]", index);
  return len;
}

/* The JSON Schema type of @value */
static const char *
type_of (JsonNode *value)
{
  switch (JSON_NODE_TYPE (value))
    {
    case JSON_NODE_OBJECT:
      return "object";
    case JSON_NODE_ARRAY:
      return "array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (value))
        {
        case G_TYPE_BOOLEAN:
          return "boolean";
        case G_TYPE_INT64:
          return "integer";
        case G_TYPE_DOUBLE:
          {
            double d = json_node_get_double (value);

            return (isfinite (d) && d == floor (d) && fabs (d) < 9007199254740992.0)
                   ? "integer" : "number";
          }
        case G_TYPE_STRING:
          return "string";
        default:
          return "null";
        }
    }
}

static gboolean
type_matches (const char *wanted,
              const char *actual)
{
  return g_str_equal (wanted, actual) ||
         (g_str_equal (wanted, "number") && g_str_equal (actual, "integer"));
}

static gboolean
is_number_node (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static double
number_of (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

/* Equal as JSON values: numbers by their value, objects whatever the
 * order of their members */
static gboolean
json_equal (JsonNode *a,
            JsonNode *b)
{
  if (is_number_node (a) && is_number_node (b))
    return number_of (a) == number_of (b);

  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_ARRAY:
      {
        JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);
        guint n = json_array_get_length (x);

        if (n != json_array_get_length (y))
          return FALSE;
        for (guint i = 0; i < n; i++)
          if (!json_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObject *x = json_node_get_object (a), *y = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (json_object_get_size (x) != json_object_get_size (y))
          return FALSE;
        json_object_iter_init (&iter, x);
        while (json_object_iter_next (&iter, &name, &member))
          {
            JsonNode *other = json_object_get_member (y, name);

            if (other == NULL || !json_equal (member, other))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
    default:
      if (json_node_get_value_type (a) != json_node_get_value_type (b))
        return FALSE;
      if (json_node_get_value_type (a) == G_TYPE_BOOLEAN)
        return json_node_get_boolean (a) == json_node_get_boolean (b);
      return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
    }
}

static char *
short_json (JsonNode *node)
{
  g_autofree char *text = agent_json_node_to_string (node, FALSE);

  if (g_utf8_strlen (text, -1) > 40)
    {
      g_autofree char *start = g_utf8_substring (text, 0, 40);

      return g_strconcat (start, "…", NULL);
    }
  return g_steal_pointer (&text);
}

/* Follows "#/$defs/name" (any JSON pointer into the schema) */
JsonNode *
_agent_json_schema_resolve_ref (JsonNode   *root,
                                const char *ref)
{
  g_auto(GStrv) parts = NULL;
  JsonNode *node = root;

  if (ref[0] != '#')
    return NULL;
  if (ref[1] == '\0')
    return node;
  if (ref[1] != '/')
    return NULL;

  parts = g_strsplit (ref + 2, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autoptr(GString) part = g_string_new (parts[i]);

      g_string_replace (part, "~1", "/", 0);
      g_string_replace (part, "~0", "~", 0);

      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          node = json_object_get_member (json_node_get_object (node), part->str);
        }
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          char *end;
          guint64 index = g_ascii_strtoull (part->str, &end, 10);
          JsonArray *array = json_node_get_array (node);

          if (*end != '\0' || index >= json_array_get_length (array))
            return NULL;
          node = json_array_get_element (array, index);
        }
      else
        {
          return NULL;
        }

      if (node == NULL)
        return NULL;
    }

  return node;
}

static gboolean
check_type (Check       *check,
            JsonObject  *schema,
            JsonNode    *value,
            gboolean    *done,
            GError     **error)
{
  JsonNode *type = json_object_get_member (schema, "type");
  const char *actual = type_of (value);
  JsonNode *nullable_node = json_object_get_member (schema, "nullable");
  gboolean nullable = nullable_node != NULL && JSON_NODE_HOLDS_VALUE (nullable_node) &&
                      json_node_get_value_type (nullable_node) == G_TYPE_BOOLEAN &&
                      json_node_get_boolean (nullable_node);
  g_autoptr(GString) wanted = NULL;

  *done = FALSE;

  if (JSON_NODE_HOLDS_NULL (value) && nullable)
    {
      *done = TRUE;
      return TRUE;
    }

  if (type == NULL)
    return TRUE;

  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    {
      if (type_matches (json_node_get_string (type), actual))
        return TRUE;
      wanted = g_string_new (json_node_get_string (type));
    }
  else if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      wanted = g_string_new (NULL);
      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          const char *name = _agent_json_schema_string_of (json_array_get_element (types, i));

          if (name == NULL)
            return bad_schema (check, error, _("“type” holds something other than names"));
          if (type_matches (name, actual))
            return TRUE;
          if (i > 0)
            g_string_append (wanted, i + 1 == json_array_get_length (types) ? _(" or ") : ", ");
          g_string_append (wanted, name);
        }
    }
  else
    {
      return bad_schema (check, error, _("“type” is neither a name nor a list of names"));
    }

  if (nullable)
    g_string_append (wanted, _(" or null"));

  return mismatch (check, error, _("expected %s, got %s"), wanted->str, actual);
}

static gboolean
get_number (JsonObject *schema,
            const char *name,
            double     *out)
{
  JsonNode *node = json_object_get_member (schema, name);

  if (node == NULL || !is_number_node (node))
    return FALSE;
  *out = number_of (node);
  return TRUE;
}

static gboolean
check_number (Check       *check,
              JsonObject  *schema,
              JsonNode    *value,
              GError     **error)
{
  double x = number_of (value);
  double limit;

  if (get_number (schema, "minimum", &limit) && x < limit)
    return mismatch (check, error, _("%g is less than the minimum, %g"), x, limit);
  if (get_number (schema, "maximum", &limit) && x > limit)
    return mismatch (check, error, _("%g is more than the maximum, %g"), x, limit);
  if (get_number (schema, "exclusiveMinimum", &limit) && x <= limit)
    return mismatch (check, error, _("%g is not more than %g (exclusiveMinimum)"), x, limit);
  if (get_number (schema, "exclusiveMaximum", &limit) && x >= limit)
    return mismatch (check, error, _("%g is not less than %g (exclusiveMaximum)"), x, limit);

  return TRUE;
}

static gboolean
check_string (Check       *check,
              JsonObject  *schema,
              JsonNode    *value,
              GError     **error)
{
  const char *text = json_node_get_string (value);
  glong length = g_utf8_strlen (text, -1);
  double limit;
  const char *pattern;

  if (get_number (schema, "minLength", &limit) && length < limit)
    return mismatch (check, error, _("the text is %ld characters long, fewer than %g (minLength)"),
                     length, limit);
  if (get_number (schema, "maxLength", &limit) && length > limit)
    return mismatch (check, error, _("the text is %ld characters long, more than %g (maxLength)"),
                     length, limit);

  if ((pattern = string_member (schema, "pattern")) != NULL)
    {
      g_autoptr(GError) regex_error = NULL;
      g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, &regex_error);

      if (regex == NULL)
        return bad_schema (check, error, _("the pattern “%s” is not a regular expression: %s"),
                           pattern, regex_error->message);
      if (!g_regex_match (regex, text, 0, NULL))
        return mismatch (check, error, _("the text does not match the pattern “%s”"), pattern);
    }

  return TRUE;
}

static gboolean
check_array (Check       *check,
             JsonObject  *schema,
             JsonNode    *value,
             GError     **error)
{
  JsonArray *array = json_node_get_array (value);
  guint n = json_array_get_length (array);
  JsonNode *items = json_object_get_member (schema, "items");
  double limit;

  if (get_number (schema, "minItems", &limit) && n < limit)
    return mismatch (check, error, _("%u items, fewer than %g (minItems)"), n, limit);
  if (get_number (schema, "maxItems", &limit) && n > limit)
    return mismatch (check, error, _("%u items, more than %g (maxItems)"), n, limit);

  if (items == NULL)
    return TRUE;

  for (guint i = 0; i < n; i++)
    {
      gsize len = push_index (check, i);
      guint ref_depth = check->ref_depth;
      gboolean ok;

      check->ref_depth = 0;
      ok = check_value (check, items, json_array_get_element (array, i), error);
      check->ref_depth = ref_depth;
      g_string_truncate (check->path, len);
      if (!ok)
        return FALSE;
    }

  return TRUE;
}

static gboolean
check_object (Check       *check,
              JsonObject  *schema,
              JsonNode    *value,
              GError     **error)
{
  JsonObject *object = json_node_get_object (value);
  JsonNode *required = json_object_get_member (schema, "required");
  JsonNode *properties = json_object_get_member (schema, "properties");
  JsonNode *additional = json_object_get_member (schema, "additionalProperties");
  JsonObject *props = properties && JSON_NODE_HOLDS_OBJECT (properties)
                    ? json_node_get_object (properties) : NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (required != NULL && JSON_NODE_HOLDS_ARRAY (required))
    {
      JsonArray *names = json_node_get_array (required);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          const char *wanted = _agent_json_schema_string_of (json_array_get_element (names, i));

          if (wanted != NULL && !json_object_has_member (object, wanted))
            return mismatch (check, error, _("the member “%s” is missing"), wanted);
        }
    }

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    {
      JsonNode *member_schema = props ? json_object_get_member (props, name) : NULL;
      guint ref_depth = check->ref_depth;
      gsize len;
      gboolean ok;

      if (member_schema == NULL)
        {
          if (additional == NULL)
            continue;
          if (JSON_NODE_HOLDS_VALUE (additional) &&
              json_node_get_value_type (additional) == G_TYPE_BOOLEAN &&
              !json_node_get_boolean (additional))
            return mismatch (check, error, _("the member “%s” is not allowed"), name);
          member_schema = additional;
        }

      len = push_member (check, name);
      check->ref_depth = 0;
      ok = check_value (check, member_schema, member, error);
      check->ref_depth = ref_depth;
      g_string_truncate (check->path, len);
      if (!ok)
        return FALSE;
    }

  return TRUE;
}

/* anyOf, oneOf, allOf */
static gboolean
check_combination (Check       *check,
                   JsonObject  *schema,
                   JsonNode    *value,
                   GError     **error)
{
  static const char * const keywords[] = { "allOf", "anyOf", "oneOf" };

  for (guint k = 0; k < G_N_ELEMENTS (keywords); k++)
    {
      JsonNode *list = json_object_get_member (schema, keywords[k]);
      g_autoptr(GError) first_error = NULL;
      JsonArray *choices;
      guint n_matched = 0;
      guint n;

      if (list == NULL)
        continue;
      if (!JSON_NODE_HOLDS_ARRAY (list))
        return bad_schema (check, error, _("“%s” is not a list"), keywords[k]);

      choices = json_node_get_array (list);
      n = json_array_get_length (choices);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GError) choice_error = NULL;

          if (check_value (check, json_array_get_element (choices, i), value, &choice_error))
            {
              n_matched++;
              continue;
            }
          if (g_error_matches (choice_error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT) || k == 0)
            {
              g_propagate_error (error, g_steal_pointer (&choice_error));
              return FALSE;
            }
          if (first_error == NULL)
            first_error = g_steal_pointer (&choice_error);
        }

      if (k == 1 && n_matched == 0)
        return mismatch (check, error,
                         _("matches none of the %u choices of anyOf (the first says: %s)"),
                         n, first_error ? first_error->message : "");
      if (k == 2 && n_matched != 1)
        return mismatch (check, error, _("matches %u of the choices of oneOf, not one"),
                         n_matched);
    }

  return TRUE;
}

static gboolean
check_one (Check     *check,
           JsonNode  *schema_node,
           JsonNode  *value,
           GError   **error)
{
  JsonObject *schema;
  JsonNode *list;
  JsonNode *constant;
  const char *ref;
  gboolean done;

  if (JSON_NODE_HOLDS_VALUE (schema_node) &&
      json_node_get_value_type (schema_node) == G_TYPE_BOOLEAN)
    {
      if (json_node_get_boolean (schema_node))
        return TRUE;
      return mismatch (check, error, _("no value is allowed here"));
    }

  if (!JSON_NODE_HOLDS_OBJECT (schema_node))
    return bad_schema (check, error, _("a schema is an object"));

  schema = json_node_get_object (schema_node);

  if ((ref = string_member (schema, "$ref")) != NULL)
    {
      JsonNode *target = _agent_json_schema_resolve_ref (check->root, ref);
      gboolean ok;

      if (target == NULL)
        return bad_schema (check, error, _("the reference “%s” leads nowhere"), ref);
      if (++check->ref_depth > AGENT_JSON_SCHEMA_MAX_REFS)
        return bad_schema (check, error, _("the reference “%s” goes round in a circle"), ref);
      ok = check_value (check, target, value, error);
      check->ref_depth--;
      if (!ok)
        return FALSE;
    }

  if (!check_type (check, schema, value, &done, error))
    return FALSE;
  if (done)
    return TRUE;

  if ((list = json_object_get_member (schema, "enum")) != NULL)
    {
      JsonArray *choices;
      gboolean found = FALSE;

      if (!JSON_NODE_HOLDS_ARRAY (list))
        return bad_schema (check, error, _("“enum” is not a list"));

      choices = json_node_get_array (list);
      for (guint i = 0; i < json_array_get_length (choices) && !found; i++)
        found = json_equal (json_array_get_element (choices, i), value);

      if (!found)
        {
          g_autofree char *got = short_json (value);
          g_autofree char *allowed = short_json (list);

          return mismatch (check, error, _("%s is not one of %s"), got, allowed);
        }
    }

  if ((constant = json_object_get_member (schema, "const")) != NULL &&
      !json_equal (constant, value))
    {
      g_autofree char *got = short_json (value);
      g_autofree char *wanted = short_json (constant);

      return mismatch (check, error, _("expected %s, got %s"), wanted, got);
    }

  if (is_number_node (value) && !check_number (check, schema, value, error))
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
      !check_string (check, schema, value, error))
    return FALSE;
  if (JSON_NODE_HOLDS_ARRAY (value) && !check_array (check, schema, value, error))
    return FALSE;
  if (JSON_NODE_HOLDS_OBJECT (value) && !check_object (check, schema, value, error))
    return FALSE;

  return check_combination (check, schema, value, error);
}

/* @value against @schema_node, within the check's bounds */
static gboolean
check_value (Check     *check,
             JsonNode  *schema_node,
             JsonNode  *value,
             GError   **error)
{
  gboolean ok;

  if (check->steps == 0)
    return bad_schema (check, error,
                       _("checking the value takes too many steps (its anyOf, oneOf, allOf "
                         "and $ref multiply them)"));
  if (check->nesting >= MAX_NESTING)
    return bad_schema (check, error, _("the checks nest more than %d deep"), MAX_NESTING);

  check->steps--;
  check->nesting++;
  ok = check_one (check, schema_node, value, error);
  check->nesting--;
  return ok;
}

/* How many values @value holds, itself included */
static guint64
count_values (JsonNode *value)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  guint64 n = 0;

  g_ptr_array_add (stack, value);
  while (stack->len > 0)
    {
      JsonNode *node = g_ptr_array_steal_index_fast (stack, stack->len - 1);

      n++;
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            g_ptr_array_add (stack, json_array_get_element (array, i));
        }
      else if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObjectIter iter;
          JsonNode *member;

          json_object_iter_init (&iter, json_node_get_object (node));
          while (json_object_iter_next (&iter, NULL, &member))
            g_ptr_array_add (stack, member);
        }
    }

  return n;
}

/**
 * agent_json_schema_validate:
 * @schema: a JSON Schema
 * @instance: the value to check
 * @error: return location for a #GError
 *
 * Checks that @instance follows @schema, for the keywords the providers'
 * structured output takes: `type` (a name or a list of names; `integer`
 * accepts a number without a fraction), `nullable` (OpenAPI's, as Gemini
 * writes it), `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`,
 * `pattern`, `minItems`, `maxItems`, `anyOf`, `oneOf`, `allOf` and `$ref`
 * to a part of the same schema (`#/$defs/date`). Other keywords (`format`,
 * `description`, `title`, …) are not checked.
 *
 * The error names where the value fails, as a JSON path, and why:
 * `$.dates[2].day: expected integer, got string`.
 *
 * The check's work is bounded: a schema whose `anyOf`, `oneOf`, `allOf` and
 * `$ref` would multiply it past 64 steps for each value of @instance (and
 * 100,000 in all), or nest it deeper than 2,048 checks, cannot be used.
 * [func@Agent.json_schema_check] finds most such schemas before any value.
 *
 * Returns: %TRUE if it does; %FALSE with @error set: %AGENT_ERROR_SCHEMA
 *   when @instance does not follow @schema, %AGENT_ERROR_INVALID_ARGUMENT
 *   when @schema cannot be read (a `$ref` that leads nowhere, a `type`
 *   that is not a name, …) or checking takes too long
 *
 * Since: 0.1
 */
gboolean
agent_json_schema_validate (JsonNode  *schema,
                            JsonNode  *instance,
                            GError   **error)
{
  g_autoptr(GString) path = g_string_new ("$");
  Check check = { schema, path, 0, 0, 0 };

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  check.steps = MIN_STEPS + STEPS_PER_VALUE * count_values (instance);
  return check_value (&check, schema, instance, error);
}
