/* agent-test-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>

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

static void
corpus_missing (gconstpointer data)
{
  g_test_skip ("AGENT_CORPUS_DIR is not set");
}

static void
corpus_empty (gconstpointer data)
{
  const char *suffix = data;

  g_test_fail_printf ("No %s file found under %s", suffix, g_getenv ("AGENT_CORPUS_DIR"));
}

static int
compare_strings_with_data (gconstpointer a,
                           gconstpointer b,
                           gpointer      user_data)
{
  return compare_strings (a, b);
}

/* The names in @path (NULL if it cannot be opened), sorted; only those
 * ending in @suffix, unless it is NULL. */
static GPtrArray *
list_directory (const char *path,
                const char *suffix)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names;
  const char *name;

  if (dir == NULL)
    return NULL;

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)))
    if (suffix == NULL || g_str_has_suffix (name, suffix))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort_with_data (names, compare_strings_with_data, NULL);

  return names;
}

/* Adds @func once per corpus file ending in @suffix, with the file's path
 * as its data, as PREFIX/SUBDIR/NAME (NAME without @suffix): the files of
 * @subdir, or of every subdirectory if it is NULL. Without
 * $AGENT_CORPUS_DIR, a skipped PREFIX/missing stands in; with no file, a
 * failing PREFIX/empty. @suffix must outlive the tests. */
void
agent_test_add_corpus_tests (const char    *prefix,
                             const char    *subdir,
                             const char    *suffix,
                             GTestDataFunc  func)
{
  const char *corpus_dir = g_getenv ("AGENT_CORPUS_DIR");
  g_autoptr(GPtrArray) subdirs = NULL;
  guint n_files = 0;

  if (corpus_dir == NULL)
    {
      g_autofree char *path = g_strconcat (prefix, "/missing", NULL);

      g_test_add_data_func (path, suffix, corpus_missing);
      return;
    }

  if (subdir != NULL)
    {
      subdirs = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (subdirs, g_strdup (subdir));
    }
  else if ((subdirs = list_directory (corpus_dir, NULL)) == NULL)
    subdirs = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *sub = g_ptr_array_index (subdirs, i);
      g_autofree char *subdir_path = g_build_filename (corpus_dir, sub, NULL);
      g_autoptr(GPtrArray) files = list_directory (subdir_path, suffix);

      for (guint j = 0; files != NULL && j < files->len; j++)
        {
          const char *file = g_ptr_array_index (files, j);
          g_autofree char *test_path = NULL;

          test_path = g_strdup_printf ("%s/%s/%.*s", prefix, sub,
                                       (int) (strlen (file) - strlen (suffix)), file);
          g_test_add_data_func_full (test_path, g_build_filename (subdir_path, file, NULL), func,
                                     g_free);
          n_files++;
        }
    }

  if (n_files == 0)
    {
      g_autofree char *path = g_strconcat (prefix, "/empty", NULL);

      g_test_add_data_func (path, suffix, corpus_empty);
    }
}

/* Reads the recorded stream at @path, which ends in @suffix, and returns
 * the "transport" object of the .expected.json beside it. */
JsonObject *
agent_test_load_corpus_file (const char  *path,
                             const char  *suffix,
                             char       **contents,
                             gsize       *len)
{
  g_autofree char *expected_path = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *transport;

  g_assert_true (g_str_has_suffix (path, suffix));
  expected_path = g_strdup_printf ("%.*s.expected.json", (int) (strlen (path) - strlen (suffix)),
                                   path);

  g_assert_true (g_file_get_contents (path, contents, len, &error));
  g_assert_no_error (error);

  root = agent_test_load_json (expected_path);
  transport = json_object_get_object_member (json_node_get_object (root), "transport");
  g_assert_nonnull (transport);

  return json_object_ref (transport);
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

/* A string member, or NULL for JSON null; the test fails if the member is
 * missing or anything else. */
const char *
agent_test_get_string (JsonObject *object,
                       const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    g_error ("No member “%s”", member);
  if (JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    g_error ("The member “%s” is not a string", member);
  return json_node_get_string (node);
}

/* Appends @len bytes of @bytes with backslash, LF, CR and NUL escaped, so
 * that a log of them keeps one item per line. */
void
agent_test_append_escaped (GString    *string,
                           const char *bytes,
                           gsize       len)
{
  static const char specials[] = { '\\', '\n', '\r', '\0' };
  static const char * const escaped[] = { "\\\\", "\\n", "\\r", "\\0" };

  for (gsize i = 0; i < len; i++)
    {
      const char *special = memchr (specials, bytes[i], sizeof specials);

      if (special != NULL)
        g_string_append (string, escaped[special - specials]);
      else
        g_string_append_c (string, bytes[i]);
    }
}

/* A base URL on 127.0.0.1 where a connection is certainly refused: the
 * port is bound to @socket, which never listens, for as long as the caller
 * keeps it. */
char *
agent_test_closed_port_url (GSocket **socket)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                          &error);
  g_assert_no_error (error);
  g_socket_bind (*socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (*socket, &error);
  g_assert_no_error (error);

  return g_strdup_printf ("http://127.0.0.1:%u/v1",
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
}

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

/* Runs the main loop until @predicate holds; FALSE if it did not within
 * @seconds. Only a bound where a hang would otherwise occur: never a
 * timing check. */
gboolean
agent_test_wait_until_timeout (gboolean (*predicate) (gpointer),
                               gpointer   data,
                               guint      seconds)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (seconds, timed_out_cb, &timed_out);

  while (!predicate (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);
  return !timed_out;
}

/* Runs the main loop until @predicate holds; a test that would hang fails
 * with a message instead. */
void
agent_test_wait_until (gboolean (*predicate) (gpointer),
                       gpointer   data)
{
  guint limit = AGENT_TEST_WAIT_LIMIT_SECONDS;
  const char *scale = g_getenv ("AGENT_TEST_WAIT_SCALE");

  /* Under valgrind or the sanitizers everything is many times slower, and
   * on a loaded machine more so: the test setups scale the guard with
   * their own timeout multiplier. */
  if (scale != NULL && g_ascii_strtoull (scale, NULL, 10) > 1)
    limit *= (guint) g_ascii_strtoull (scale, NULL, 10);

  if (!agent_test_wait_until_timeout (predicate, data, limit))
    g_error ("Waited more than %u seconds for the condition", limit);
}

void
agent_test_wait_for (gboolean *flag)
{
  agent_test_wait_until (flag_is_set, flag);
}

/* A GObject::notify handler that counts the notifications in @count. */
void
agent_test_count_notify (GObject    *object,
                         GParamSpec *pspec,
                         guint      *count)
{
  (*count)++;
}

/* Files */

/* A new temporary directory, @template_prefix-XXXXXX; see agent_test_remove_dir(). */
char *
agent_test_make_dir (const char *template_prefix)
{
  g_autofree char *template = g_strconcat (template_prefix, "-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

/* Removes @dir with its files and empty subdirectories. */
void
agent_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_assert_no_errno (g_rmdir (path));
      else
        g_assert_no_errno (g_unlink (path));
    }
  g_assert_no_errno (g_rmdir (dir));
}

/* Writes @len bytes of @contents (up to its NUL if -1) to @dir/@name; returns the path. */
char *
agent_test_write_file (const char *dir,
                       const char *name,
                       const char *contents,
                       gssize      len)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static gboolean
invocation_is_completed (gpointer data)
{
  return agent_tool_invocation_is_completed (data);
}

/* Runs @tool on @arguments (JSON text) outside a session, waiting on the
 * main context until it completes: its result, and whether it is an error. */
char *
agent_test_invoke_tool (AgentTool    *tool,
                        const char   *arguments,
                        GCancellable *cancellable,
                        gboolean     *is_error)
{
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_t", agent_tool_get_name (tool),
                                                       arguments);
  g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, cancellable);

  agent_tool_invoke (tool, invocation);
  agent_test_wait_until (invocation_is_completed, invocation);
  return agent_tool_invocation_dup_result (invocation, is_error);
}

/* The arguments {"path":…} of a read_file call, escaped as JSON wants. */
char *
agent_test_path_arguments (const char *path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

/* Assertions */

/* Like g_assert_cmpstr(), with a short message for long texts. */
void
agent_test_assert_same_text (const char *actual,
                             const char *expected)
{
  gsize i = 0;

  g_assert_nonnull (actual);
  while (actual[i] != '\0' && actual[i] == expected[i])
    i++;
  if (actual[i] != expected[i])
    g_error ("The texts (%" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT " bytes) differ at byte "
             "%" G_GSIZE_FORMAT ": “%.40s” instead of “%.40s”",
             strlen (actual), strlen (expected), i, actual + i, expected + i);
}

/* Fails the test unless @haystack is not NULL and contains @needle. */
void
agent_test_assert_contains (const char *haystack,
                            const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

/* Is @part (NULL: nothing yet) a view of @whole that can still grow into
 * it, as AgentPartialJson promises? Objects hold some of the members, each
 * a view of its final value; arrays the first elements, all but the last
 * whole; strings a prefix; other values are whole. */
gboolean
agent_test_json_is_view_of (JsonNode *part,
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
              !agent_test_json_is_view_of (member, json_object_get_member (w, name)))
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

            if (i + 1 < n ? !agent_test_json_equal (a, b) : !agent_test_json_is_view_of (a, b))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (part) != json_node_get_value_type (whole))
        return FALSE;
      if (json_node_get_value_type (part) == G_TYPE_STRING)
        return g_str_has_prefix (json_node_get_string (whole), json_node_get_string (part));
      return agent_test_json_equal (part, whole);

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

typedef struct
{
  char  *path;
  int    watch;
  guint  n_mib;
} Growth;

static gpointer
grow_thread (gpointer data)
{
  Growth *growth = data;
  g_autofree char *line = g_strnfill (1024 * 1024, 'x');
  struct inotify_event event;
  int fd;

  line[1024 * 1024 - 1] = '\n';
  if (read (growth->watch, &event, sizeof event) < 0)
    g_error ("inotify: %s", g_strerror (errno));
  close (growth->watch);

  fd = open (growth->path, O_WRONLY | O_APPEND | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  for (guint i = 0; i < growth->n_mib; i++)
    if (write (fd, line, 1024 * 1024) != 1024 * 1024)
      g_error ("%s: %s", growth->path, g_strerror (errno));
  close (fd);

  g_free (growth->path);
  g_free (growth);
  return NULL;
}

/* A file that grows while it is read: once a process opens @path, a
 * thread appends @n_mib MiB to it (lines of "x"), as fast as it goes.
 * Join the thread when done. */
GThread *
agent_test_grow_on_open (const char *path,
                         guint       n_mib)
{
  Growth *growth = g_new0 (Growth, 1);

  growth->path = g_strdup (path);
  growth->n_mib = n_mib;
  growth->watch = inotify_init1 (IN_CLOEXEC);
  if (growth->watch < 0 || inotify_add_watch (growth->watch, path, IN_OPEN) < 0)
    g_error ("inotify: %s", g_strerror (errno));
  return g_thread_new ("grow-on-open", grow_thread, growth);
}

/* How many messages @session's memory holds */
guint
agent_test_memory_length (AgentSession *session)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (session)));
}

/* The message at @index of @session's memory, which keeps it */
AgentMessage *
agent_test_memory_message (AgentSession *session,
                           guint         index)
{
  g_autoptr(AgentMessage) message =
    g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (session)), index);

  g_assert_nonnull (message);
  return message;
}

static gboolean
counting_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data,
                  GError             **error)
{
  (*(guint *) user_data)++;
  agent_tool_invocation_return_result (invocation, "ran");
  return TRUE;
}

/* A tool named "count" that adds its runs to *@runs and answers "ran" */
AgentTool *
agent_test_counting_tool_new (guint *runs)
{
  return agent_tool_new ("count", "Counts", NULL, counting_handler, runs, NULL);
}

/* @depth arrays inside each other, @inner (or nothing) in the innermost */
char *
agent_test_nested_arrays (guint       depth,
                          const char *inner)
{
  GString *text = g_string_sized_new (2 * depth + 16);

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  if (inner != NULL)
    g_string_append (text, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static void
stdin_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GMainLoop *loop = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      g_main_loop_quit (loop);
      return;
    }
  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 256, G_PRIORITY_DEFAULT, NULL,
                                   stdin_read_cb, loop);
}

void
agent_test_run_until_stdin_closes (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GInputStream) input = g_unix_input_stream_new (0, FALSE);

  g_input_stream_read_bytes_async (input, 256, G_PRIORITY_DEFAULT, NULL, stdin_read_cb, loop);
  g_main_loop_run (loop);
}
