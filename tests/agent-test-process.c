/* agent-test-process.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "agent-test-process.h"
#include "agent-test-util.h"

/* The program $@variable names, or, run by hand from the build directory
 * without meson's environment, @name in @subdir of the build tree. */
const char *
agent_test_find_program (const char *variable,
                         const char *subdir,
                         const char *name)
{
  static GPtrArray *paths;
  const char *path = g_getenv (variable);

  if (path != NULL && path[0] != '\0')
    return path;

  if (paths == NULL)
    paths = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (paths, g_test_build_filename (G_TEST_BUILT, "..", subdir, name, NULL));
  return g_ptr_array_index (paths, paths->len - 1);
}

static void read_more (AgentTestProcess *self,
                       GInputStream     *stream);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AgentTestProcess *self = user_data;
  GInputStream *stream = G_INPUT_STREAM (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gboolean is_out = stream == g_subprocess_get_stdout_pipe (self->process);

  bytes = g_input_stream_read_bytes_finish (stream, result, &error);
  g_assert_no_error (error);

  if (g_bytes_get_size (bytes) == 0)
    {
      if (is_out)
        self->out_eof = TRUE;
      else
        self->err_eof = TRUE;
      return;
    }

  g_string_append_len (is_out ? self->out : self->err,
                       g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  read_more (self, stream);
}

static void
read_more (AgentTestProcess *self,
           GInputStream     *stream)
{
  g_input_stream_read_bytes_async (stream, 4096, G_PRIORITY_DEFAULT, NULL, read_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AgentTestProcess *self = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error);
  g_assert_no_error (error);

  if (g_subprocess_get_if_exited (self->process))
    self->status = g_subprocess_get_exit_status (self->process);
  else
    self->status = -1;
  self->exited = TRUE;
}

/* Starts @program with @args. @env holds "NAME=VALUE" to set or "NAME" to
 * unset; the locale is C.UTF-8 and NO_COLOR is set, whatever the test's
 * own environment. @input, if any, is written to its standard input, which
 * is then closed unless @flags says otherwise. */
AgentTestProcess *
agent_test_process_spawn (const char            *program,
                          const char * const    *env,
                          const char            *input,
                          AgentTestProcessFlags  flags,
                          const char * const    *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GOutputStream *stdin_pipe;
  AgentTestProcess *self;

  /* Writing input to a child that already left must fail, not kill the test. */
  signal (SIGPIPE, SIG_IGN);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  /* The contracts are in English; colours only on terminals, but be sure. */
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  g_subprocess_launcher_setenv (launcher, "NO_COLOR", "1", TRUE);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');

      if (equals != NULL)
        {
          g_autofree char *name = g_strndup (env[i], equals - env[i]);

          g_subprocess_launcher_setenv (launcher, name, equals + 1, TRUE);
        }
      else
        g_subprocess_launcher_unsetenv (launcher, env[i]);
    }

  g_ptr_array_add (argv, (char *)program);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, NULL);

  self = g_new0 (AgentTestProcess, 1);
  self->name = g_path_get_basename (program);
  self->out = g_string_new (NULL);
  self->err = g_string_new (NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata,
                                                &error);
  g_assert_no_error (error);

  stdin_pipe = g_subprocess_get_stdin_pipe (self->process);
  if (input != NULL)
    {
      /* Small enough for the pipe's buffer: this does not block. */
      g_output_stream_write_all (stdin_pipe, input, strlen (input), NULL, NULL, &error);
      g_assert_no_error (error);
    }
  if (!(flags & AGENT_TEST_PROCESS_KEEP_STDIN))
    {
      g_output_stream_close (stdin_pipe, NULL, &error);
      g_assert_no_error (error);
    }

  read_more (self, g_subprocess_get_stdout_pipe (self->process));
  read_more (self, g_subprocess_get_stderr_pipe (self->process));
  g_subprocess_wait_async (self->process, NULL, wait_cb, self);

  return self;
}

/* A process still running is killed first: the reads and the wait hold
 * on to @self until they are over. */
void
agent_test_process_free (AgentTestProcess *self)
{
  if (!agent_test_process_is_finished (self))
    {
      g_subprocess_force_exit (self->process);
      agent_test_process_wait (self);
    }

  g_clear_object (&self->process);
  g_free (self->name);
  g_string_free (self->out, TRUE);
  g_string_free (self->err, TRUE);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self);
}

/* It exited, and both its stdout and its stderr were read to the end. */
gboolean
agent_test_process_is_finished (AgentTestProcess *self)
{
  return self->exited && self->out_eof && self->err_eof;
}

static gboolean
is_finished (gpointer data)
{
  return agent_test_process_is_finished (data);
}

/* Iterates the main loop until the process finished; one that does not
 * within AGENT_TEST_PROCESS_WAIT_SECONDS is killed and the test fails. */
void
agent_test_process_wait (AgentTestProcess *self)
{
  if (!agent_test_wait_until_timeout (is_finished, self, AGENT_TEST_PROCESS_WAIT_SECONDS))
    {
      g_subprocess_force_exit (self->process);
      g_error ("%s did not finish within %d seconds; stdout:\n%s\nstderr:\n%s", self->name,
               AGENT_TEST_PROCESS_WAIT_SECONDS, self->out->str, self->err->str);
    }
}

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Waits for what no event announces (a file, a process gone): the main
 * loop wakes up every 20 ms to look, for AGENT_TEST_PROCESS_WAIT_SECONDS
 * at most. FALSE when @predicate never held. */
gboolean
agent_test_poll_until (gboolean (*predicate) (gpointer),
                       gpointer   data)
{
  guint tick = g_timeout_add (20, tick_cb, NULL);
  gboolean ok = agent_test_wait_until_timeout (predicate, data, AGENT_TEST_PROCESS_WAIT_SECONDS);

  g_source_remove (tick);
  return ok;
}

static gboolean
pid_file_written (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && contents[0] != '\0' &&
         g_str_has_suffix (contents, "\n");
}

/* The process id a program wrote to @path (a line), once it did */
GPid
agent_test_read_pid_file (const char *path)
{
  g_autofree char *contents = NULL;

  if (!agent_test_poll_until (pid_file_written, (gpointer) path))
    g_error ("No process wrote its id to %s", path);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return (GPid) g_ascii_strtoll (contents, NULL, 10);
}

/* Gone, or a zombie nobody reaped yet (an orphan's reaper may be slow, or
 * absent in a container): either way, not running */
gboolean
agent_test_pid_is_gone (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  end = strrchr (stat, ')');
  return end != NULL && (end[2] == 'Z' || end[2] == 'X');
}

static gboolean
pid_is_gone (gpointer data)
{
  return agent_test_pid_is_gone (GPOINTER_TO_INT (data));
}

/* Fails the test (after killing it) when process @pid, which @what names,
 * is still running after AGENT_TEST_PROCESS_WAIT_SECONDS */
void
agent_test_assert_pid_gone (GPid        pid,
                            const char *what)
{
  if (!agent_test_poll_until (pid_is_gone, GINT_TO_POINTER (pid)))
    {
      kill (pid, SIGKILL);
      g_error ("%s (process %d) is still running", what, (int) pid);
    }
}

void
agent_test_process_assert_exit (AgentTestProcess *self,
                                int               status)
{
  if (self->status != status)
    g_error ("%s exited with %d, not %d; stdout:\n%s\nstderr:\n%s",
             self->name, self->status, status, self->out->str, self->err->str);
}

/* --json output */

/* Parses one line of --json output: it must be a JSON object with a type. */
static JsonObject *
parse_line (const char *line,
            gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, line, len, &error))
    g_error ("Not a JSON line (%s): %.*s", error->message, (int)len, line);

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    g_error ("Not a JSON object: %.*s", (int)len, line);

  object = json_node_get_object (root);
  if (!json_object_has_member (object, "type") ||
      json_object_get_string_member_with_default (object, "type", NULL) == NULL)
    g_error ("A JSON line without a type: %.*s", (int)len, line);

  return json_object_ref (object);
}

/* The complete lines of @text, parsed: nothing after the last newline. */
GPtrArray *
agent_test_parse_json_lines (const GString *text)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  const char *start = text->str;
  const char *newline;

  while ((newline = memchr (start, '\n', text->str + text->len - start)))
    {
      g_assert_cmpint (newline - start, >, 0);
      g_ptr_array_add (events, parse_line (start, newline - start));
      start = newline + 1;
    }

  return events;
}

/* Every line of stdout must be one JSON object; nothing after the last newline. */
void
agent_test_process_parse_json (AgentTestProcess *self)
{
  if (self->out->len > 0)
    g_assert_cmpint (self->out->str[self->out->len - 1], ==, '\n');

  g_clear_pointer (&self->events, g_ptr_array_unref);
  self->events = agent_test_parse_json_lines (self->out);
}

const char *
agent_test_event_type (JsonObject *event)
{
  return agent_test_get_string (event, "type");
}

guint
agent_test_process_count_events (AgentTestProcess *self,
                                 const char       *type)
{
  guint n = 0;

  for (guint i = 0; i < self->events->len; i++)
    if (g_str_equal (agent_test_event_type (g_ptr_array_index (self->events, i)), type))
      n++;
  return n;
}

/* The @nth event of @type (from 0); the test fails if there is none. */
JsonObject *
agent_test_process_nth_event (AgentTestProcess *self,
                              const char       *type,
                              guint             nth)
{
  guint seen = 0;

  for (guint i = 0; i < self->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (self->events, i);

      if (g_str_equal (agent_test_event_type (event), type) && seen++ == nth)
        return event;
    }

  g_error ("No %s event #%u in:\n%s", type, nth, self->out->str);
  return NULL;
}

JsonObject *
agent_test_process_last_event (AgentTestProcess *self)
{
  g_assert_cmpuint (self->events->len, >, 0);
  return g_ptr_array_index (self->events, self->events->len - 1);
}

/* "tool-call step-finished …": the types in order, for checking sequences. */
char *
agent_test_process_event_types (AgentTestProcess *self)
{
  g_autoptr(GString) types = g_string_new (NULL);

  for (guint i = 0; i < self->events->len; i++)
    {
      if (i > 0)
        g_string_append_c (types, ' ');
      g_string_append (types, agent_test_event_type (g_ptr_array_index (self->events, i)));
    }
  return g_string_free (g_steal_pointer (&types), FALSE);
}
