/* agent-test-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "agent-test-util.h"

char *
agent_test_corpus_path (const char *relative)
{
  const char *dir = g_getenv ("AGENT_CORPUS_DIR");

  if (dir == NULL)
    return g_test_build_filename (G_TEST_DIST, "corpus", relative, NULL);
  return g_build_filename (dir, relative, NULL);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **)a, *(const char **)b);
}

/* The corpus files under @subdir ending in @suffix, sorted, as paths. */
char **
agent_test_list_corpus (const char *subdir,
                        const char *suffix)
{
  g_autofree char *path = agent_test_corpus_path (subdir);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
  const char *name;

  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (names, g_build_filename (path, name, NULL));

  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);

  return (char **)g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

JsonNode *
agent_test_parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

JsonNode *
agent_test_load_json (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return agent_test_parse_json (contents);
}

static double
node_number (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* Structural equality; numbers compare numerically (the corpus stores
 * some re-serialized by another JSON library). */
gboolean
agent_test_json_equal (JsonNode *a,
                       JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  if (is_number (a) && is_number (b))
    {
      double x = node_number (a), y = node_number (b);

      return x == y || fabs (x - y) <= 1e-12 * MAX (fabs (x), fabs (y));
    }

  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a);
        JsonObject *ob = json_node_get_object (b);
        g_autoptr(GList) members = json_object_get_members (oa);

        if (json_object_get_size (oa) != json_object_get_size (ob))
          return FALSE;
        for (GList *l = members; l; l = l->next)
          if (!json_object_has_member (ob, l->data) ||
              !agent_test_json_equal (json_object_get_member (oa, l->data),
                                      json_object_get_member (ob, l->data)))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a);
        JsonArray *ab = json_node_get_array (b);
        guint n = json_array_get_length (aa);

        if (n != json_array_get_length (ab))
          return FALSE;
        for (guint i = 0; i < n; i++)
          if (!agent_test_json_equal (json_array_get_element (aa, i),
                                      json_array_get_element (ab, i)))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_VALUE:
      return json_node_equal (a, b);

    case JSON_NODE_NULL:
      return TRUE;

    default:
      return FALSE;
    }
}

#define WAIT_LIMIT_SECONDS 30

static gboolean
timed_out_cb (gpointer data)
{
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *)data;
}

/* Runs the main loop until @predicate holds; a test that would hang fails
 * with a message instead. */
void
agent_test_wait_until (gboolean (*predicate) (gpointer),
                       gpointer   data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (WAIT_LIMIT_SECONDS, timed_out_cb, &timed_out);

  while (!predicate (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (timed_out)
    g_error ("Waited more than %d seconds for the condition", WAIT_LIMIT_SECONDS);
  g_source_remove (id);
}

void
agent_test_wait_for (gboolean *flag)
{
  agent_test_wait_until (flag_is_set, flag);
}
