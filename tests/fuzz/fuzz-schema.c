/* fuzz-schema.c
 *
 * A libFuzzer target for what a --schema FILE goes through: read with
 * agent_json_parse() (the depth scan, then json-glib's parser), checked
 * whole with agent_json_schema_check(), written into a request (as it is,
 * through cJSON; translated for Gemini), and a value checked against it
 * with agent_json_schema_validate() — whatever the check said, as an
 * application may validate without checking first.
 *
 * The input is the schema, then optionally a line "----" and the value.
 * Besides what the sanitizers catch (a stack overflow among them), it
 * fails when:
 * - a document agent_json_parse() took nests deeper than
 *   AGENT_JSON_MAX_DEPTH, or it failed with another domain or code than
 *   AGENT_ERROR_LIMIT (too deep) and AGENT_ERROR_INVALID_ARGUMENT;
 * - agent_json_schema_check() fails otherwise than with
 *   AGENT_ERROR_INVALID_ARGUMENT, or agent_json_schema_validate() than
 *   with AGENT_ERROR_SCHEMA or AGENT_ERROR_INVALID_ARGUMENT;
 * - an error message is not valid UTF-8.
 * libFuzzer's -timeout (scripts/fuzz sets 30 s) catches a check that does
 * not end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gprintf.h>

#include <agent.h>

#include "fuzz-util.h"

#include "json/agent-json-private.h"
#include "providers/agent-output-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* How many arrays and objects are inside each other in @root, without
 * recursion */
static guint
depth_of (JsonNode *root)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr(GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  guint deepest = 0;
  guint zero = 0;

  g_ptr_array_add (nodes, root);
  g_array_append_val (depths, zero);
  while (nodes->len > 0)
    {
      JsonNode *node = g_ptr_array_steal_index_fast (nodes, nodes->len - 1);
      guint depth = g_array_index (depths, guint, depths->len - 1);

      g_array_set_size (depths, depths->len - 1);
      if (!JSON_NODE_HOLDS_ARRAY (node) && !JSON_NODE_HOLDS_OBJECT (node))
        continue;

      depth++;
      deepest = MAX (deepest, depth);
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_ptr_array_add (nodes, json_array_get_element (array, i));
              g_array_append_val (depths, depth);
            }
        }
      else
        {
          JsonObjectIter iter;
          JsonNode *member;

          json_object_iter_init (&iter, json_node_get_object (node));
          while (json_object_iter_next (&iter, NULL, &member))
            {
              g_ptr_array_add (nodes, member);
              g_array_append_val (depths, depth);
            }
        }
    }

  return deepest;
}

static void
check_error (const GError *error,
             const char   *what,
             int           code,
             int           other_code)
{
  if (error == NULL)
    failure ("%s failed without an error", what);
  if (error->domain != AGENT_ERROR || (error->code != code && error->code != other_code))
    failure ("%s failed with %s %d: %s", what, g_quark_to_string (error->domain), error->code,
             error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    failure ("%s: its message is not UTF-8", what);
}

/* agent_json_parse(), held to its promises */
static JsonNode *
parse (const char *text,
       gsize       len)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = agent_json_parse (text, len, &error);

  if (node == NULL)
    {
      check_error (error, "agent_json_parse()", AGENT_ERROR_LIMIT, AGENT_ERROR_INVALID_ARGUMENT);
      return NULL;
    }
  if (depth_of (node) > AGENT_JSON_MAX_DEPTH)
    failure ("agent_json_parse() took a document %u deep", depth_of (node));
  return node;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *separator = g_strstr_len (text, size, "\n----\n");
  gsize schema_len = separator != NULL ? (gsize) (separator - text) : size;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(GError) error = NULL;
  gboolean usable;

  if (!(schema = parse (text, schema_len)))
    return 0;

  usable = agent_json_schema_check (schema, &error);
  if (!usable)
    check_error (error, "agent_json_schema_check()", AGENT_ERROR_INVALID_ARGUMENT,
                 AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Written into a request: as it is, and for Gemini */
  if (usable && JSON_NODE_HOLDS_OBJECT (schema))
    {
      g_autoptr(cJSON) written = agent_node_to_cjson (schema);
      g_autofree char *printed = cJSON_PrintUnformatted (written);
      g_autoptr(cJSON) gemini = _agent_output_gemini_schema (schema, &error);

      if (printed == NULL)
        failure ("the schema could not be written");
      if (gemini == NULL)
        check_error (error, "_agent_output_gemini_schema()", AGENT_ERROR_UNSUPPORTED,
                     AGENT_ERROR_UNSUPPORTED);
      g_clear_error (&error);
    }

  if (separator == NULL)
    return 0;
  separator += strlen ("\n----\n");
  if (!(value = parse (separator, size - (separator - text))))
    return 0;

  if (!agent_json_schema_validate (schema, value, &error))
    check_error (error, "agent_json_schema_validate()", AGENT_ERROR_SCHEMA,
                 AGENT_ERROR_INVALID_ARGUMENT);

  return 0;
}
