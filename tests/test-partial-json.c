/* test-partial-json.c — AgentPartialJson: JSON read while it streams
 *
 * The property that matters: every prefix of a document, cut anywhere
 * (inside a character, an escape, a number), gives a value that is a
 * prefix-consistent view of the final one, and the whole document gives
 * what json-glib's parser gives.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

static const char * const documents[] = {
  "{}",
  "[]",
  "\"\"",
  "{\"dates\": [{\"day\": 12, \"month\": \"March\"}, {\"day\": 3, \"month\": \"April\"}]}",
  "{\"a\":true,\"b\":false,\"c\":null,\"d\":-0.5e+3,\"e\":1234567890123,\"f\":0}",
  "[1, 22, 333, -4444, 5.5, 6e2, 7E-1, [], {}, [[]], [{}]]",
  "{\"text\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 end\"}",
  "{\"esc\": \"quote \\\" back \\\\ slash \\/ \\b\\f\\n\\r\\t \\u00e9 \\u20ac \\ud83d\\ude00\"}",
  "  \n{ \"spaced\" :\t[ 1 , 2 ] , \"k\" : { } }\n  ",
  "{\"nested\": {\"deeper\": {\"deepest\": [\"a\", [\"b\", {\"c\": \"d\"}]]}}}",
  "{\"files\": [{\"name\": \"a.txt\", \"kind\": \"text\", \"size\": 10}, {\"name\": \"b.png\", \"kind\": \"image\", \"size\": 2048}]}",
  "[true, false, null, \"true\", \"null\"]",
  "{\"\xe6\x97\xa5\xe4\xbb\x98\": \"\xe4\xb8\x89\xe6\x9c\x88\", \"key with spaces\": 1}",
};

static JsonNode *
parse_reference (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

static char *
to_string (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

/* Is @part a view of @whole that can still grow into it? */
static gboolean
consistent (JsonNode *part,
            JsonNode *whole)
{
  if (part == NULL)
    return TRUE;
  if (JSON_NODE_TYPE (part) != JSON_NODE_TYPE (whole))
    return FALSE;

  switch (JSON_NODE_TYPE (part))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *p = json_node_get_object (part), *w = json_node_get_object (whole);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, p);
        while (json_object_iter_next (&iter, &name, &member))
          if (!json_object_has_member (w, name) ||
              !consistent (member, json_object_get_member (w, name)))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *p = json_node_get_array (part), *w = json_node_get_array (whole);
        guint n = json_array_get_length (p);

        if (n > json_array_get_length (w))
          return FALSE;
        for (guint i = 0; i < n; i++)
          {
            JsonNode *a = json_array_get_element (p, i), *b = json_array_get_element (w, i);

            if (i + 1 < n)
              {
                g_autofree char *x = to_string (a), *y = to_string (b);

                if (!g_str_equal (x, y))
                  return FALSE;
              }
            else if (!consistent (a, b))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (part) != json_node_get_value_type (whole))
        return FALSE;
      if (json_node_get_value_type (part) == G_TYPE_STRING)
        return g_str_has_prefix (json_node_get_string (whole), json_node_get_string (part)) &&
               g_utf8_validate (json_node_get_string (part), -1, NULL);
      {
        g_autofree char *x = to_string (part), *y = to_string (whole);

        return g_str_equal (x, y);
      }

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static void
assert_consistent (JsonNode   *part,
                   JsonNode   *whole,
                   const char *document,
                   gsize       prefix)
{
  if (!consistent (part, whole))
    {
      g_autofree char *p = part ? to_string (part) : g_strdup ("(none)");
      g_autofree char *w = to_string (whole);

      g_error ("After %" G_GSIZE_FORMAT " bytes of %s the value %s is not a view of %s",
               prefix, document, p, w);
    }
}

/* Every byte prefix, fed at once to a new reader */
static void
test_every_prefix (void)
{
  for (guint d = 0; d < G_N_ELEMENTS (documents); d++)
    {
      const char *document = documents[d];
      g_autoptr(JsonNode) whole = parse_reference (document);
      gsize len = strlen (document);

      for (gsize prefix = 0; prefix <= len; prefix++)
        {
          g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
          g_autoptr(GError) error = NULL;

          g_assert_true (agent_partial_json_feed (reader, document, prefix, &error));
          g_assert_no_error (error);
          assert_consistent (agent_partial_json_get_value (reader), whole, document, prefix);
        }
    }
}

/* One byte at a time: the value only grows, the revision changes exactly
 * when the value does, and the end is json-glib's document */
static void
test_byte_by_byte (void)
{
  for (guint d = 0; d < G_N_ELEMENTS (documents); d++)
    {
      const char *document = documents[d];
      g_autoptr(JsonNode) whole = parse_reference (document);
      g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
      g_autoptr(JsonNode) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *before = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *got = NULL;
      gsize len = strlen (document);

      for (gsize i = 0; i < len; i++)
        {
          guint revision = agent_partial_json_get_revision (reader);
          JsonNode *value;
          g_autofree char *now = NULL;

          g_assert_true (agent_partial_json_feed (reader, document + i, 1, &error));
          value = agent_partial_json_get_value (reader);
          assert_consistent (value, whole, document, i + 1);

          now = value ? to_string (value) : NULL;
          if (g_strcmp0 (now, before) != 0)
            g_assert_cmpuint (agent_partial_json_get_revision (reader), !=, revision);
          g_free (before);
          before = g_steal_pointer (&now);
        }

      result = agent_partial_json_finish (reader, &error);
      g_assert_no_error (error);
      expected = to_string (whole);
      got = to_string (result);
      g_assert_cmpstr (got, ==, expected);
      g_assert_true (agent_partial_json_is_complete (reader));
    }
}

/* Pieces of random sizes, as a stream brings them */
static void
test_random_pieces (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (24);

  for (guint round = 0; round < 50; round++)
    for (guint d = 0; d < G_N_ELEMENTS (documents); d++)
      {
        const char *document = documents[d];
        g_autoptr(JsonNode) whole = parse_reference (document);
        g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
        g_autoptr(JsonNode) result = NULL;
        g_autoptr(GError) error = NULL;
        g_autofree char *expected = to_string (whole);
        g_autofree char *got = NULL;
        gsize len = strlen (document);
        gsize at = 0;

        while (at < len)
          {
            gsize piece = g_rand_int_range (rand, 1, 8);

            piece = MIN (piece, len - at);

            if (!agent_partial_json_feed (reader, document + at, piece, &error))
              g_error ("%s in pieces: %s", document, error->message);
            at += piece;
            assert_consistent (agent_partial_json_get_value (reader), whole, document, at);
          }

        result = agent_partial_json_finish (reader, &error);
        g_assert_no_error (error);
        got = to_string (result);
        g_assert_cmpstr (got, ==, expected);
      }
}

static char *
value_string (AgentPartialJson *reader)
{
  JsonNode *value = agent_partial_json_get_value (reader);

  return value ? to_string (value) : g_strdup ("(none)");
}

typedef struct
{
  const char *text;
  const char *value;
} Case;

/* What the issue asks for, spelled out */
static void
test_held_back (void)
{
  static const Case cases[] = {
    { "{\"a\": tru", "{}" },
    { "{\"a\": true", "{\"a\":true}" },
    { "{\"a\": 12", "{}" },
    { "{\"a\": 12,", "{\"a\":12}" },
    { "[1, 2", "[1]" },
    { "[1, 2]", "[1,2]" },
    { "{\"na", "{}" },
    { "{\"name\"", "{}" },
    { "{\"name\":", "{}" },
    { "{\"name\": \"Ad", "{\"name\":\"Ad\"}" },
    { "{\"name\": \"A\\", "{\"name\":\"A\"}" },
    { "{\"name\": \"A\\u00", "{\"name\":\"A\"}" },
    { "{\"name\": \"A\\u00e9", "{\"name\":\"Aé\"}" },
    { "{\"name\": \"A\\ud83d", "{\"name\":\"A\"}" },
    { "{\"name\": \"A\xc3", "{\"name\":\"A\"}" },
    { "{\"items\": [", "{\"items\":[]}" },
    { "{\"items\": [{\"x\": [\"a", "{\"items\":[{\"x\":[\"a\"]}]}" },
    { "```json\n{\"a\": 1}", "{\"a\":1}" },
    /* What json-glib's parser leaves as invalid UTF-8 becomes U+FFFD */
    { "{\"lone\": \"\\ud83d x \\ude00 y \\u0000\"}", "{\"lone\":\"\xef\xbf\xbd x \xef\xbf\xbd y \xef\xbf\xbd\"}" },
    { "[\"\xff\"]", "[\"\xef\xbf\xbd\"]" },
    { "-", "(none)" },
    { "12", "(none)" },
    { "", "(none)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *value = NULL;
      g_autoptr(JsonNode) parsed = NULL;
      g_autofree char *parsed_text = NULL;

      g_assert_true (agent_partial_json_feed (reader, cases[i].text, -1, &error));
      g_assert_no_error (error);
      value = value_string (reader);
      g_assert_cmpstr (value, ==, cases[i].value);

      /* The one-call form gives the same */
      parsed = agent_json_parse_partial (cases[i].text, -1);
      parsed_text = parsed ? to_string (parsed) : g_strdup ("(none)");
      g_assert_cmpstr (parsed_text, ==, cases[i].value);
    }
}

/* A lone number is whole only when the text ends */
static void
test_number_at_end (void)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_partial_json_feed (reader, "4", -1, NULL));
  g_assert_true (agent_partial_json_feed (reader, "2", -1, NULL));
  g_assert_null (agent_partial_json_get_value (reader));
  g_assert_false (agent_partial_json_is_complete (reader));
  value = agent_partial_json_finish (reader, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_node_get_int (value), ==, 42);
}

typedef struct
{
  const char *text;
  const char *value;     /* what stays */
  const char *message;   /* in the error */
} BadCase;

static void
test_invalid (void)
{
  static const BadCase cases[] = {
    { "{\"a\": 1 \"b\": 2}", "{\"a\":1}", "byte 8: unexpected “\"”" },
    { "{\"a\": tx}", "{}", "“tx” is not a value" },
    { "[1, 2,, 3]", "[1,2]", "byte 6: unexpected “,”" },
    { "{\"a\": 01}", "{}", "“01” is not a number" },
    { "{\"a\": \"\\q\"}", "{\"a\":\"\"}", "invalid escape" },
    { "{\"a\": \"\\u12G4\"}", "{\"a\":\"\"}", "invalid \\u escape" },
    { "{\"a\": 1}}", "{\"a\":1}", "text after the end" },
    { "{\"a\": 1] ", "{\"a\":1}", "unexpected “]”" },
    { "Sure! Here is the JSON", "(none)", "byte 0: unexpected “S”" },
    { "{1: 2}", "{}", "unexpected “1”" },
    { "[1, 1e999]", "[1]", "the number 1e999 is too large" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) again = NULL;
      g_autoptr(GError) finish_error = NULL;
      g_autoptr(JsonNode) result = NULL;
      g_autofree char *value = NULL;

      g_assert_false (agent_partial_json_feed (reader, cases[i].text, -1, &error));
      g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("“%s” failed with “%s”, which does not say “%s”",
                 cases[i].text, error->message, cases[i].message);
      value = value_string (reader);
      g_assert_cmpstr (value, ==, cases[i].value);

      /* The error sticks */
      g_assert_false (agent_partial_json_feed (reader, "}", -1, &again));
      g_assert_error (again, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
      result = agent_partial_json_finish (reader, &finish_error);
      g_assert_null (result);
      g_assert_error (finish_error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
    }
}

static void
test_cut_off (void)
{
  static const struct { const char *text; const char *message; } cases[] = {
    { "{\"a\": [1, 2", "before its last object or array is closed" },
    { "{\"a\": \"abc", "ends inside a string" },
    { "   ", "no JSON value" },
    { "{\"a\": tr", "before its last object or array is closed" },
    { "\"a string at the top", "ends inside a string" },
    { "\"escaped \\", "ends inside a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) result = NULL;

      g_assert_true (agent_partial_json_feed (reader, cases[i].text, -1, NULL));
      result = agent_partial_json_finish (reader, &error);
      g_assert_null (result);
      g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, cases[i].message));
    }
}

static void
test_fence_and_reset (void)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint revision;

  g_assert_true (agent_partial_json_feed (reader, "```json\n{\"a\": [1]}\n```\n", -1, &error));
  g_assert_no_error (error);
  value = agent_partial_json_finish (reader, &error);
  g_assert_no_error (error);
  text = to_string (value);
  g_assert_cmpstr (text, ==, "{\"a\":[1]}");

  /* The value returned stays as it was after a reset */
  revision = agent_partial_json_get_revision (reader);
  agent_partial_json_reset (reader);
  g_assert_cmpuint (agent_partial_json_get_revision (reader), !=, revision);
  g_assert_null (agent_partial_json_get_value (reader));
  g_assert_true (agent_partial_json_feed (reader, "[true]", -1, &error));
  second = agent_partial_json_finish (reader, &error);
  g_assert_no_error (error);
  g_free (text);
  text = to_string (value);
  g_assert_cmpstr (text, ==, "{\"a\":[1]}");
}

/* Never crashes, whatever it is fed: documents with bytes changed,
 * dropped or repeated, in random pieces */
static void
test_mutations (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2024);
  static const char noise[] = "{}[]\",:\\u0e-+.1tfn `\n\xc3\xff";

  for (guint round = 0; round < 3000; round++)
    {
      const char *document = documents[g_rand_int_range (rand, 0, G_N_ELEMENTS (documents))];
      g_autoptr(GString) text = g_string_new (document);
      g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
      g_autoptr(JsonNode) result = NULL;
      g_autoptr(GError) error = NULL;
      guint n_changes = g_rand_int_range (rand, 1, 4);
      gsize at = 0;

      for (guint c = 0; c < n_changes && text->len > 0; c++)
        {
          gsize pos = g_rand_int_range (rand, 0, text->len);

          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0:
              text->str[pos] = noise[g_rand_int_range (rand, 0, sizeof noise - 1)];
              break;
            case 1:
              g_string_erase (text, pos, 1);
              break;
            default:
              g_string_insert_c (text, pos, noise[g_rand_int_range (rand, 0, sizeof noise - 1)]);
              break;
            }
        }

      while (at < text->len)
        {
          gsize piece = g_rand_int_range (rand, 1, 6);
          JsonNode *value;

          piece = MIN (piece, text->len - at);
          if (!agent_partial_json_feed (reader, text->str + at, piece, &error))
            {
              g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
              g_assert_true (g_utf8_validate (error->message, -1, NULL));
              g_clear_error (&error);
              break;
            }
          at += piece;
          value = agent_partial_json_get_value (reader);
          if (value != NULL)
            g_free (to_string (value));
        }

      result = agent_partial_json_finish (reader, &error);
      g_assert_true ((result == NULL) == (error != NULL));
    }
}

/* A long string is shown in steps, each a view of the final text, and
 * whole at its end */
static void
test_long_string (void)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(GString) text = g_string_new ("{\"body\": \"");
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(JsonNode) result = NULL;
  guint n_changes = 0;
  guint n_pieces = 0;

  while (body->len < 100000)
    g_string_append (body, "Dear friend, the days are long. ");
  g_string_append (text, body->str);
  g_string_append (text, "\"}");

  for (gsize at = 0; at < text->len; at += 4)
    {
      guint revision = agent_partial_json_get_revision (reader);
      JsonNode *value;

      g_assert_true (agent_partial_json_feed (reader, text->str + at, MIN (4, text->len - at),
                                              NULL));
      n_pieces++;
      if (agent_partial_json_get_revision (reader) != revision)
        n_changes++;
      value = agent_partial_json_get_value (reader);
      if (value != NULL && json_object_has_member (json_node_get_object (value), "body"))
        g_assert_true (g_str_has_prefix (body->str, json_object_get_string_member (
          json_node_get_object (value), "body")));
    }

  /* Every piece while short, then fewer: about 256 steps per doubling */
  g_assert_cmpuint (n_changes, >, 1024 / 4);
  g_assert_cmpuint (n_changes, <, n_pieces / 4);
  result = agent_partial_json_finish (reader, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (result), "body"), ==,
                   body->str);
}

static void
test_deep_nesting (void)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *deep = g_strnfill (100000, '[');

  g_assert_false (agent_partial_json_feed (reader, deep, -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "nested more than 512"));
}

/* A reader of the value that seals it (json_node_seal(), or a shallow copy
 * put into an immutable JsonBuilder): the reader goes on with a copy, the
 * string it was reading and one that begins in a sealed object included */
static void
test_sealed_value (void)
{
  static const char * const pieces[] = {
    "{\"note\": \"Hel", "lo\", ", "\"tag\": \"a", "bc\", \"list\": [", "1, {\"x\": \"y", "z\"}]}",
  };
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(JsonNode) whole = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      g_assert_true (agent_partial_json_feed (reader, pieces[i], -1, &error));
      json_node_seal (agent_partial_json_get_value (reader));
    }
  whole = agent_partial_json_finish (reader, &error);
  g_assert_no_error (error);
  text = json_to_string (whole, FALSE);
  g_assert_cmpstr (text, ==, "{\"note\":\"Hello\",\"tag\":\"abc\",\"list\":[1,{\"x\":\"yz\"}]}");
}

/* A member named twice: the second replaces the first (as JSON.parse()
 * reads it), the one case where a value is not a view of the next */
static void
test_member_named_twice (void)
{
  g_autoptr(JsonNode) value = agent_json_parse_partial ("{\"a\": \"first\", \"a\": [1", -1);
  g_autofree char *text = json_to_string (value, FALSE);

  g_assert_cmpstr (text, ==, "{\"a\":[]}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/partial-json/every-prefix", test_every_prefix);
  g_test_add_func ("/partial-json/byte-by-byte", test_byte_by_byte);
  g_test_add_func ("/partial-json/random-pieces", test_random_pieces);
  g_test_add_func ("/partial-json/held-back", test_held_back);
  g_test_add_func ("/partial-json/number-at-end", test_number_at_end);
  g_test_add_func ("/partial-json/invalid", test_invalid);
  g_test_add_func ("/partial-json/cut-off", test_cut_off);
  g_test_add_func ("/partial-json/fence-and-reset", test_fence_and_reset);
  g_test_add_func ("/partial-json/mutations", test_mutations);
  g_test_add_func ("/partial-json/long-string", test_long_string);
  g_test_add_func ("/partial-json/deep-nesting", test_deep_nesting);
  g_test_add_func ("/partial-json/sealed-value", test_sealed_value);
  g_test_add_func ("/partial-json/member-named-twice", test_member_named_twice);

  return g_test_run ();
}
