/* test-json-schema.c — agent_json_schema_validate(): what passes, and the
 * JSON path and reason of what does not; agent_json_schema_check(): a
 * schema that cannot be used, found before any value is checked; the
 * bounds of a check (its steps, its nesting)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-util.h"

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

typedef struct
{
  const char *schema;
  const char *value;
  const char *error;   /* NULL: valid; else the whole message */
} Case;

static const char dates_schema[] =
  "{\"type\": \"object\", \"additionalProperties\": false, \"required\": [\"dates\"],"
  " \"properties\": {\"dates\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/date\"}}},"
  " \"$defs\": {\"date\": {\"type\": \"object\", \"required\": [\"day\", \"month\"],"
  "   \"properties\": {\"day\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 31},"
  "                    \"month\": {\"enum\": [\"January\", \"February\", \"March\"]},"
  "                    \"note\": {\"type\": [\"string\", \"null\"], \"maxLength\": 5}}}}}";

static void
run_cases (const Case *cases,
           guint       n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonNode) schema = parse (cases[i].schema);
      g_autoptr(JsonNode) value = parse (cases[i].value);
      g_autoptr(GError) error = NULL;
      gboolean ok = agent_json_schema_validate (schema, value, &error);

      if (cases[i].error == NULL)
        {
          if (!ok)
            g_error ("%s should follow %s: %s", cases[i].value, cases[i].schema, error->message);
          continue;
        }

      if (ok)
        g_error ("%s should not follow %s", cases[i].value, cases[i].schema);
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
      g_assert_cmpstr (error->message, ==, cases[i].error);
    }
}

static void
test_paths (void)
{
  const Case cases[] = {
    { dates_schema, "{\"dates\": []}", NULL },
    { dates_schema, "{\"dates\": [{\"day\": 1, \"month\": \"March\"}, {\"day\": 31.0, \"month\": \"January\", \"note\": null}]}", NULL },
    { dates_schema, "{\"dates\": [{\"day\": 1, \"month\": \"March\"}, {\"day\": 2, \"month\": \"March\"}, {\"day\": \"3\", \"month\": \"March\"}]}",
      "$.dates[2].day: expected integer, got string" },
    { dates_schema, "{\"dates\": [{\"day\": 2.5, \"month\": \"March\"}]}",
      "$.dates[0].day: expected integer, got number" },
    { dates_schema, "{\"dates\": [{\"day\": 32, \"month\": \"March\"}]}",
      "$.dates[0].day: 32 is more than the maximum, 31" },
    { dates_schema, "{\"dates\": [{\"day\": 0, \"month\": \"March\"}]}",
      "$.dates[0].day: 0 is less than the minimum, 1" },
    { dates_schema, "{\"dates\": [{\"day\": 3, \"month\": \"Brumaire\"}]}",
      "$.dates[0].month: \"Brumaire\" is not one of [\"January\",\"February\",\"March\"]" },
    { dates_schema, "{\"dates\": [{\"day\": 3}]}",
      "$.dates[0]: the member “month” is missing" },
    { dates_schema, "{\"dates\": [{\"day\": 3, \"month\": \"March\", \"note\": \"too long\"}]}",
      "$.dates[0].note: the text is 8 characters long, more than 5 (maxLength)" },
    { dates_schema, "{\"dates\": [{\"day\": 3, \"month\": \"March\", \"note\": 4}]}",
      "$.dates[0].note: expected string or null, got integer" },
    { dates_schema, "{\"dates\": [], \"extra\": 1}",
      "$: the member “extra” is not allowed" },
    { dates_schema, "{}", "$: the member “dates” is missing" },
    { dates_schema, "[]", "$: expected object, got array" },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
}

static void
test_keywords (void)
{
  const Case cases[] = {
    /* const, and numbers compared by value */
    { "{\"const\": 2}", "2.0", NULL },
    { "{\"const\": {\"a\": [1, \"x\"]}}", "{\"a\": [1, \"x\"]}", NULL },
    { "{\"const\": \"yes\"}", "\"no\"", "$: expected \"yes\", got \"no\"" },
    /* strings in characters, not bytes */
    { "{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 3}", "\"\xc3\xa9t\xc3\xa9\"", NULL },
    { "{\"type\": \"string\", \"minLength\": 2}", "\"\xc3\xa9\"",
      "$: the text is 1 characters long, fewer than 2 (minLength)" },
    { "{\"type\": \"string\", \"pattern\": \"^[0-9]{4}-[0-9]{2}$\"}", "\"2024-03\"", NULL },
    { "{\"type\": \"string\", \"pattern\": \"^[0-9]+$\"}", "\"12a\"",
      "$: the text does not match the pattern “^[0-9]+$”" },
    /* arrays */
    { "{\"type\": \"array\", \"minItems\": 1, \"items\": {\"type\": \"boolean\"}}", "[]",
      "$: 0 items, fewer than 1 (minItems)" },
    { "{\"type\": \"array\", \"maxItems\": 1}", "[1, 2]", "$: 2 items, more than 1 (maxItems)" },
    { "{\"type\": \"array\", \"items\": {\"type\": \"boolean\"}}", "[true, null]",
      "$[1]: expected boolean, got null" },
    /* nullable, OpenAPI style (Gemini) */
    { "{\"type\": \"integer\", \"nullable\": true}", "null", NULL },
    { "{\"type\": \"integer\", \"nullable\": true}", "\"x\"",
      "$: expected integer or null, got string" },
    /* exclusive limits */
    { "{\"exclusiveMinimum\": 0}", "0", "$: 0 is not more than 0 (exclusiveMinimum)" },
    { "{\"exclusiveMaximum\": 10}", "9.5", NULL },
    /* additionalProperties as a schema; names that are not identifiers */
    { "{\"additionalProperties\": {\"type\": \"number\"}}", "{\"a b\": 1, \"c\": \"d\"}",
      "$.c: expected number, got string" },
    { "{\"properties\": {\"a b\": {\"type\": \"number\"}}}", "{\"a b\": \"x\"}",
      "$[\"a b\"]: expected number, got string" },
    /* anyOf, oneOf, allOf */
    { "{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}", "3", NULL },
    { "{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}", "true",
      "$: matches none of the 2 choices of anyOf (the first says: $: expected string, got boolean)" },
    { "{\"oneOf\": [{\"type\": \"number\"}, {\"type\": \"integer\"}]}", "3",
      "$: matches 2 of the choices of oneOf, not one" },
    { "{\"allOf\": [{\"type\": \"number\"}, {\"minimum\": 5}]}", "3",
      "$: 3 is less than the minimum, 5" },
    /* boolean schemas */
    { "{\"properties\": {\"a\": false}}", "{\"a\": 1}", "$.a: no value is allowed here" },
    { "true", "{\"anything\": [1]}", NULL },
    /* type lists */
    { "{\"type\": [\"string\", \"integer\", \"null\"]}", "1.5",
      "$: expected string, integer or null, got number" },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
}

/* A schema that cannot be read is the caller's error, not the value's */
static void
test_bad_schemas (void)
{
  static const struct { const char *schema; const char *message; } cases[] = {
    { "{\"$ref\": \"#/$defs/missing\"}", "the reference “#/$defs/missing” leads nowhere" },
    { "{\"$ref\": \"#\"}", "goes round in a circle" },
    { "{\"type\": 3}", "“type” is neither a name nor a list of names" },
    { "{\"enum\": 3}", "“enum” is not a list" },
    { "[1]", "a schema is an object" },
    { "{\"type\": \"string\", \"pattern\": \"(\"}", "is not a regular expression" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) schema = parse (cases[i].schema);
      g_autoptr(JsonNode) value = parse ("\"x\"");
      g_autoptr(GError) error = NULL;

      g_assert_false (agent_json_schema_validate (schema, value, &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("%s: “%s” does not say “%s”", cases[i].schema, error->message, cases[i].message);
    }
}

/* A recursive schema through $defs checks a recursive value */
static void
test_recursive (void)
{
  const Case cases[] = {
    { "{\"$ref\": \"#/$defs/node\", \"$defs\": {\"node\": {\"type\": \"object\", \"required\": [\"name\"],"
      " \"properties\": {\"name\": {\"type\": \"string\"}, \"children\": {\"type\": \"array\","
      " \"items\": {\"$ref\": \"#/$defs/node\"}}}}}}",
      "{\"name\": \"a\", \"children\": [{\"name\": \"b\", \"children\": [{\"name\": 3}]}]}",
      "$.children[0].children[0].name: expected string, got integer" },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
}

/* The schema alone: what agent_json_schema_check() refuses, and where */
static void
test_check (void)
{
  static const struct { const char *schema; const char *message; } cases[] = {
    { dates_schema, NULL },
    { "true", NULL },
    /* Recursion through a value is fine */
    { "{\"type\": \"object\", \"properties\": {\"children\": {\"type\": \"array\","
      " \"items\": {\"$ref\": \"#\"}}}}", NULL },
    { "{\"$ref\": \"#/$defs/a\", \"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"},"
      " \"b\": {\"type\": \"string\"}}}", NULL },
    /* A $def that nothing refers to is not checked */
    { "{\"type\": \"string\", \"$defs\": {\"unused\": {\"type\": 3}}}", NULL },
    /* Loops without reaching into the value */
    { "{\"$ref\": \"#\"}",
      "The schema cannot be used (at #): the reference “#” goes round in a circle" },
    { "{\"properties\": {\"a\": {\"$ref\": \"#/$defs/b\"}},"
      " \"$defs\": {\"b\": {\"$ref\": \"#/$defs/c\"}, \"c\": {\"$ref\": \"#/$defs/b\"}}}",
      "The schema cannot be used (at #/$defs/c): the reference “#/$defs/b” goes round in a "
      "circle" },
    { "{\"items\": {\"oneOf\": [{\"type\": \"null\"}, {\"allOf\": [{\"$ref\": \"#/items\"}]}]}}",
      "The schema cannot be used (at #/items/oneOf/1/allOf/0): the reference “#/items” goes "
      "round in a circle" },
    /* What the check of a value would find */
    { "{\"properties\": {\"a\": {\"$ref\": \"#/$defs/none\"}}}",
      "The schema cannot be used (at #/properties/a): the reference “#/$defs/none” leads "
      "nowhere" },
    { "{\"items\": {\"type\": [\"string\", 2]}}",
      "The schema cannot be used (at #/items): “type” holds something other than names" },
    { "{\"additionalProperties\": {\"enum\": {}}}",
      "The schema cannot be used (at #/additionalProperties): “enum” is not a list" },
    { "{\"properties\": {\"a~b/c\": {\"pattern\": \"(\"}}}", "(at #/properties/a~0b~1c): the "
      "pattern “(” is not a regular expression" },
    { "{\"anyOf\": {\"type\": \"string\"}}",
      "The schema cannot be used (at #): “anyOf” is not a list" },
    { "{\"properties\": {\"a\": 3}}",
      "The schema cannot be used (at #/properties/a): a schema is an object" },
    { "[]", "The schema cannot be used (at #): a schema is an object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) schema = parse (cases[i].schema);
      g_autoptr(GError) error = NULL;
      gboolean ok = agent_json_schema_check (schema, &error);

      if (cases[i].message == NULL)
        {
          if (!ok)
            g_error ("%s should be usable: %s", cases[i].schema, error->message);
          continue;
        }
      if (ok)
        g_error ("%s should not be usable", cases[i].schema);
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("%s: “%s” does not say “%s”", cases[i].schema, error->message, cases[i].message);
    }
}

/* $defs that each refer twice to the next: a check of one value would
 * take 2^@n steps */
static char *
doubling_schema (guint n)
{
  GString *schema = g_string_new ("{\"$ref\": \"#/$defs/a0\", \"$defs\": {");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (schema, "\"a%u\": {\"anyOf\": [{\"$ref\": \"#/$defs/a%u\"},"
                            " {\"$ref\": \"#/$defs/a%u\"}]}, ", i, i + 1, i + 1);
  g_string_append_printf (schema, "\"a%u\": {\"type\": \"number\"}}}", n);
  return g_string_free (schema, FALSE);
}

/* A check's work is bounded: a schema whose combinations multiply is
 * refused by agent_json_schema_check(), and a check of a value that would
 * take too many steps, or nest too deeply, stops with an error */
static void
test_bounds (void)
{
  g_autofree char *small = doubling_schema (4);
  g_autofree char *doubling = doubling_schema (30);
  g_autoptr(JsonNode) value = parse ("\"x\"");
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(JsonNode) schema = parse (small);

    g_assert_true (agent_json_schema_check (schema, &error));
    g_assert_no_error (error);
    g_assert_false (agent_json_schema_validate (schema, value, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
    g_clear_error (&error);
  }

  {
    g_autoptr(JsonNode) schema = parse (doubling);

    g_assert_false (agent_json_schema_check (schema, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    agent_test_assert_contains (error->message, "anyOf, oneOf, allOf and $ref");
    g_clear_error (&error);

    /* Checked anyway: stopped */
    g_assert_false (agent_json_schema_validate (schema, value, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    agent_test_assert_contains (error->message, "steps");
    g_clear_error (&error);
  }

  /* Each level of the value doubles the work: nothing to see in the
   * schema alone */
  {
    g_autoptr(JsonNode) schema =
      parse ("{\"anyOf\": [{\"type\": \"array\", \"items\": {\"$ref\": \"#\"}},"
             " {\"type\": \"array\", \"items\": {\"$ref\": \"#\"}}]}");
    g_autoptr(GString) deep = g_string_new (NULL);
    g_autoptr(JsonNode) deep_value = NULL;

    for (guint i = 0; i < 40; i++)
      g_string_append_c (deep, '[');
    g_string_append (deep, "\"x\"");
    for (guint i = 0; i < 40; i++)
      g_string_append_c (deep, ']');
    deep_value = parse (deep->str);

    g_assert_true (agent_json_schema_check (schema, &error));
    g_assert_false (agent_json_schema_validate (schema, deep_value, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    agent_test_assert_contains (error->message, "steps");
    g_clear_error (&error);
  }

  /* 500 anyOf inside each other, at each of 500 levels of the value: a
   * quarter of a million checks inside each other */
  {
    g_autoptr(GString) nested = g_string_new (NULL);
    g_autoptr(GString) deep = g_string_new (NULL);
    g_autoptr(JsonNode) schema = NULL;
    g_autoptr(JsonNode) deep_value = NULL;

    for (guint i = 0; i < 500; i++)
      g_string_append (nested, "{\"anyOf\": [");
    g_string_append (nested, "{\"items\": {\"$ref\": \"#\"}}");
    for (guint i = 0; i < 500; i++)
      g_string_append (nested, "]}");
    schema = parse (nested->str);
    for (guint i = 0; i < 500; i++)
      g_string_append_c (deep, '[');
    for (guint i = 0; i < 500; i++)
      g_string_append_c (deep, ']');
    deep_value = parse (deep->str);

    g_assert_false (agent_json_schema_validate (schema, deep_value, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    agent_test_assert_contains (error->message, "deep");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-schema/paths", test_paths);
  g_test_add_func ("/json-schema/keywords", test_keywords);
  g_test_add_func ("/json-schema/bad-schemas", test_bad_schemas);
  g_test_add_func ("/json-schema/recursive", test_recursive);
  g_test_add_func ("/json-schema/check", test_check);
  g_test_add_func ("/json-schema/bounds", test_bounds);

  return g_test_run ();
}
