/* test-json-write.c — JSON text that any parser reads back
 *
 * agent_json_node_to_string() writes what libagent sends, stores and
 * exports from a JsonNode. json-glib 1.6 writes a double such as 1e20 as
 * "1e+20.0", which is not JSON, and inf and NaN as they are.
 *
 * - /json-write/numbers: doubles in their shortest form that reads back
 *   the same (1e+20, 0.1, 5e-324), a whole double keeps ".0", integers as
 *   they are up to G_MININT64, inf and NaN as null.
 * - /json-write/strings: quotes, backslashes and control characters
 *   escaped, UTF-8 as it is.
 * - /json-write/round-trip: nested objects and arrays, on one line and
 *   indented, parsed again by json-glib into an equal tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "json/agent-json-private.h"

static char *
write_double (double value)
{
  g_autoptr(JsonNode) node = json_node_init_double (json_node_alloc (), value);

  return agent_json_node_to_string (node, FALSE);
}

static void
test_numbers (void)
{
  static const struct {
    double      value;
    const char *text;
  } doubles[] = {
    { 1e20, "1e+20" },
    { 1e17, "1e+17" },
    { 0.1, "0.1" },
    { 21.0, "21.0" },
    { -2.5, "-2.5" },
    { 5e-324, "4.94065645841247e-324" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },
    { 12345678901234567890.0, "1.2345678901234567e+19" },
  };
  g_autoptr(JsonNode) integer = json_node_init_int (json_node_alloc (), G_MININT64);
  g_autofree char *integer_text = agent_json_node_to_string (integer, FALSE);
  g_autofree char *inf = write_double (INFINITY);
  g_autofree char *nan = write_double (NAN);

  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      g_autofree char *text = write_double (doubles[i].value);
      g_autoptr(JsonNode) back = json_from_string (text, NULL);

      g_assert_cmpstr (text, ==, doubles[i].text);
      g_assert_nonnull (back);
      g_assert_cmpfloat (json_node_get_double (back), ==, doubles[i].value);
    }
  g_assert_cmpstr (integer_text, ==, "-9223372036854775808");
  g_assert_cmpstr (inf, ==, "null");
  g_assert_cmpstr (nan, ==, "null");
}

static void
test_strings (void)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (),
                                                    "say \"hi\"\\ \n\t\r\b\f\x01\x1f é 😀");
  g_autofree char *text = agent_json_node_to_string (node, FALSE);
  g_autoptr(JsonNode) back = json_from_string (text, NULL);

  g_assert_cmpstr (text, ==, "\"say \\\"hi\\\"\\\\ \\n\\t\\r\\b\\f\\u0001\\u001f é 😀\"");
  g_assert_nonnull (back);
  g_assert_cmpstr (json_node_get_string (back), ==, json_node_get_string (node));
}

static void
test_round_trip (void)
{
  static const char json[] =
    "{\"a\": [1, 2.5, 1e20, true, false, null, \"x\"], \"b\": {}, \"c\": [], "
    "\"d\": {\"e\": {\"f\": [[-1]]}}}";
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autofree char *line = agent_json_node_to_string (node, FALSE);
  g_autofree char *pretty = agent_json_node_to_string (node, TRUE);
  g_autoptr(JsonNode) from_line = json_from_string (line, NULL);
  g_autoptr(JsonNode) from_pretty = json_from_string (pretty, NULL);

  g_assert_cmpstr (line, ==,
                   "{\"a\":[1,2.5,1e+20,true,false,null,\"x\"],\"b\":{},\"c\":[],"
                   "\"d\":{\"e\":{\"f\":[[-1]]}}}");
  g_assert_cmpstr (pretty, ==,
                   "{\n"
                   "  \"a\" : [\n"
                   "    1,\n    2.5,\n    1e+20,\n    true,\n    false,\n    null,\n    \"x\"\n"
                   "  ],\n"
                   "  \"b\" : {},\n"
                   "  \"c\" : [],\n"
                   "  \"d\" : {\n"
                   "    \"e\" : {\n"
                   "      \"f\" : [\n"
                   "        [\n"
                   "          -1\n"
                   "        ]\n"
                   "      ]\n"
                   "    }\n"
                   "  }\n"
                   "}");
  g_assert_true (json_node_equal (node, from_line));
  g_assert_true (json_node_equal (node, from_pretty));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-write/numbers", test_numbers);
  g_test_add_func ("/json-write/strings", test_strings);
  g_test_add_func ("/json-write/round-trip", test_round_trip);

  return g_test_run ();
}
