/* agent-mcp-stdio.c — an MCP server as a child process
 *
 * The server reads messages from its standard input and writes them to its
 * standard output, one a line (no newline inside a message). Its standard
 * error is its log: kept in the debug log, and its last line goes into the
 * error when it dies.
 *
 * The server is gone when its output and its stderr ended and it exited
 * (or two seconds after the first of these). Closing follows the specification:
 * close its input, wait, then SIGTERM, then SIGKILL, each to the server's
 * process group: the server is the leader of a group of its own, which
 * the processes it starts join unless they ask otherwise (a language
 * server, a shell's jobs), and they go with it.
 *
 * The group ends with the application too, however it ends: the kernel
 * kills the server (PR_SET_PDEATHSIG), and a guard in the group, a shell
 * started before the server's exec that only waits on a pipe whose other
 * end the application holds, kills the whole group (SIGKILL) when that
 * pipe closes: when the application dies (kill -9 included), or closes it
 * once the server has exited. The guard also keeps the group's id from
 * being given to another process while the application may still signal
 * it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <glib-unix.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "wire/agent-ndjson-private.h"

#define READ_SIZE        (64 * 1024)
#define MAX_LINE         AGENT_MCP_MAX_MESSAGE
#define STDERR_TAIL      1024
#define GONE_GRACE_MS    2000
#define CLOSE_GRACE_MS   2000

/* What a server inherits of our environment: enough to run (as the MCP
 * SDKs do), never the keys of the app. The configuration adds the rest. */
static const char * const inherited_variables[] = {
  "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR",
};

struct _AgentMcpStdioTransport
{
  AgentMcpTransport    parent_instance;

  char                *command;
  char               **args;
  char               **env;
  char                *cwd;

  GSubprocess         *process;
  GPid                 group;          /* the server's pid, its process group's id */
  int                  guard_fd;       /* our end of the guard's pipe, or -1 */
  GOutputStream       *input;
  GCancellable        *cancellable;    /* the reads */
  AgentNdjsonSplitter *splitter;
  GQueue               writes;         /* of GBytes, the first being written */
  GString             *stderr_tail;
  GSource             *grace_source;
  GTask               *close_task;
  GError              *error;          /* why the output ended, if it broke */

  guint                output_ended : 1;
  guint                stderr_ended : 1;
  guint                exited : 1;
  guint                closing : 1;
  guint                term_sent : 1;
  guint                stopped : 1;     /* killed by us, for self->error */
};

#define AGENT_TYPE_MCP_STDIO_TRANSPORT (agent_mcp_stdio_transport_get_type ())
G_DECLARE_FINAL_TYPE (AgentMcpStdioTransport, agent_mcp_stdio_transport,
                      AGENT, MCP_STDIO_TRANSPORT, AgentMcpTransport)
G_DEFINE_FINAL_TYPE (AgentMcpStdioTransport, agent_mcp_stdio_transport, AGENT_TYPE_MCP_TRANSPORT)

static void
ignore_sigpipe (void)
{
  static gsize once;

  /* Writing to a server that died raises SIGPIPE, which would end the app.
   * GLib's sockets ignore it process-wide for the same reason; pipes need
   * the same, unless the app chose a handler of its own. */
  if (g_once_init_enter (&once))
    {
      struct sigaction action;

      if (sigaction (SIGPIPE, NULL, &action) == 0 && action.sa_handler == SIG_DFL)
        signal (SIGPIPE, SIG_IGN);
      g_once_init_leave (&once, 1);
    }
}

/* What the child needs to know, read between fork and exec */
typedef struct
{
  pid_t parent;
  int   guard_read;    /* the guard's end of its pipe */
} ChildSetup;

/* The guard (see the top of the file): a shell's background job in the
 * server's group, with nothing open but its end of the pipe (on fd 3),
 * deaf to the signals that end the group gently, that kills the group
 * (itself included) when the pipe ends. A shell, not a copy of this
 * process: a few hundred kilobytes, and no copy of a big application's
 * memory. */
#define GUARD_SCRIPT \
  "trap '' TERM INT HUP QUIT PIPE; ( read -r _ <&3; kill -s KILL 0 ) &"

static void
exec_guard (int fd)
{
  int null;

  /* dup2() leaves the copy open across exec; a descriptor already at 3
   * has to be told */
  if (fd == 3)
    fcntl (fd, F_SETFD, 0);
  else if (dup2 (fd, 3) < 0)
    _exit (127);
  if ((null = open ("/dev/null", O_RDWR)) >= 0)
    {
      dup2 (null, 0);
      dup2 (null, 1);
      dup2 (null, 2);
      if (null > 3)
        close (null);
    }
  execl ("/bin/sh", "sh", "-c", GUARD_SCRIPT, (char *) NULL);
  _exit (127);
}

static void
child_setup (gpointer user_data)
{
  ChildSetup *setup = user_data;
  pid_t intermediate;

  /* Its own process group: Ctrl-C in a terminal interrupts the app's
   * turn, not its servers; and the group is what is ended. */
  setpgid (0, 0);

#ifdef __linux__
  /* And it dies with us, however we die (kill -9 included): the kernel
   * sends it SIGKILL when the thread that started it ends. Had we died
   * already, it would belong to another parent now. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != setup->parent)
    _exit (127);
#endif

  if (setup->guard_read < 0)
    return;

  /* The guard, by a double fork: started by a shell that leaves at once,
   * it is nobody's to wait for but init's (or a subreaper's), and the
   * server never sees it (a shell script's `wait` would wait for it) */
  intermediate = fork ();
  if (intermediate == 0)
    exec_guard (setup->guard_read);
  if (intermediate > 0)
    while (waitpid (intermediate, NULL, 0) < 0 && errno == EINTR)
      ;
}

/* A signal to the server's whole process group, while the server is not
 * reaped (its id, the group's, is not anyone else's until then) */
static void
signal_group (AgentMcpStdioTransport *self,
              int                     signal_number)
{
  if (self->exited)
    return;
  if (self->group <= 0 || kill (-self->group, signal_number) != 0)
    g_subprocess_send_signal (self->process, signal_number);
}

/* What is left of the group is killed, by the guard */
static void
end_group (AgentMcpStdioTransport *self)
{
  if (self->guard_fd >= 0)
    {
      close (self->guard_fd);
      self->guard_fd = -1;
    }
}

/* Ending */

static void
complete_close (AgentMcpStdioTransport *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->close_task);

  if (self->grace_source != NULL)
    {
      g_source_destroy (self->grace_source);
      g_clear_pointer (&self->grace_source, g_source_unref);
    }
  g_cancellable_cancel (self->cancellable);

  if (task != NULL)
    g_task_return_boolean (task, TRUE);
}

static GError *
gone_error (AgentMcpStdioTransport *self)
{
  const char *name = _agent_mcp_transport_get_name (AGENT_MCP_TRANSPORT (self));
  g_autofree char *why = NULL;
  g_autofree char *last_line = NULL;
  g_autofree char *redacted = NULL;
  GError *error;

  /* Our own kill says nothing: what made us kill it does */
  if (self->stopped && self->error != NULL)
    why = g_strdup_printf (_("The MCP server “%s” was stopped: %s"),
                           name, self->error->message);
  else if (self->exited && g_subprocess_get_if_exited (self->process))
    why = g_strdup_printf (_("The MCP server “%s” exited with status %d"),
                           name, g_subprocess_get_exit_status (self->process));
  else if (self->exited && g_subprocess_get_if_signaled (self->process))
    why = g_strdup_printf (_("The MCP server “%s” was ended by signal %d"),
                           name, g_subprocess_get_term_sig (self->process));
  else if (self->error != NULL)
    why = g_strdup_printf (_("The MCP server “%s” could not be read: %s"),
                           name, self->error->message);
  else
    why = g_strdup_printf (_("The MCP server “%s” closed its output"), name);

  /* The last line it printed on stderr usually says why it died. */
  if (self->stderr_tail->len > 0 && !self->stopped)
    {
      g_auto(GStrv) lines = g_strsplit (g_strstrip (self->stderr_tail->str), "\n", -1);
      guint n = g_strv_length (lines);

      if (n > 0 && lines[n - 1][0] != '\0')
        last_line = g_utf8_make_valid (g_strstrip (lines[n - 1]), -1);
    }

  if (last_line != NULL)
    {
      g_autofree char *excerpt = _agent_mcp_transport_excerpt (AGENT_MCP_TRANSPORT (self),
                                                               last_line, strlen (last_line), 200);

      redacted = g_strdup_printf ("%s: %s", why, excerpt);
    }
  else
    redacted = g_steal_pointer (&why);

  if (self->stopped && self->error != NULL)
    error = g_error_new_literal (self->error->domain, self->error->code, redacted);
  else
    error = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_NETWORK, redacted);
  return error;
}

static void
report_gone (AgentMcpStdioTransport *self)
{
  g_autoptr(GError) error = NULL;

  if (self->grace_source != NULL)
    {
      g_source_destroy (self->grace_source);
      g_clear_pointer (&self->grace_source, g_source_unref);
    }

  if (_agent_mcp_transport_is_closed (AGENT_MCP_TRANSPORT (self)))
    return;

  error = gone_error (self);
  _agent_mcp_transport_emit_closed (AGENT_MCP_TRANSPORT (self), error);

  /* A server whose output ended but that lives on is of no use. */
  if (!self->exited)
    signal_group (self, SIGKILL);
}

static gboolean
gone_grace_cb (gpointer data)
{
  AgentMcpStdioTransport *self = data;

  g_clear_pointer (&self->grace_source, g_source_unref);
  report_gone (self);
  return G_SOURCE_REMOVE;
}

static void
start_grace (AgentMcpStdioTransport *self,
             guint                   msec,
             GSourceFunc             func)
{
  if (self->grace_source != NULL)
    {
      g_source_destroy (self->grace_source);
      g_source_unref (self->grace_source);
    }
  self->grace_source = g_timeout_source_new (msec);
  g_source_set_callback (self->grace_source, func, self, NULL);
  g_source_set_static_name (self->grace_source, "[agent-mcp-stdio-grace]");
  g_source_attach (self->grace_source, g_main_context_get_thread_default ());
}

/* One of the signs of the end: output ended, stderr ended (its last words
 * go into the error), or the process exited. */
static void
check_gone (AgentMcpStdioTransport *self)
{
  if (self->closing)
    return;

  if (self->output_ended && self->stderr_ended && self->exited)
    report_gone (self);
  else if (self->grace_source == NULL)
    start_grace (self, GONE_GRACE_MS, gone_grace_cb);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(AgentMcpStdioTransport) self = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  self->exited = TRUE;
  /* What it started goes with it */
  end_group (self);

  if (self->closing)
    complete_close (self);
  else
    check_gone (self);
}

/* Reading */

static gboolean
line_cb (const char  *line,
         gsize        len,
         gpointer     user_data,
         GError     **error)
{
  AgentMcpStdioTransport *self = user_data;

  _agent_mcp_transport_emit_message (AGENT_MCP_TRANSPORT (self), line, len);
  return TRUE;
}

static void read_output (AgentMcpStdioTransport *self);

static void
output_ended (AgentMcpStdioTransport *self,
              GError                 *error)
{
  self->output_ended = TRUE;
  if (error != NULL && self->error == NULL)
    self->error = error;
  else
    g_clear_error (&error);

  check_gone (self);
}

static void
read_output_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AgentMcpStdioTransport) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_error_free (error);
          return;
        }
      output_ended (self, error);
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      if (!agent_ndjson_splitter_finish (self->splitter, &error))
        {
          output_ended (self, error);
          return;
        }
      output_ended (self, NULL);
      return;
    }

  if (!agent_ndjson_splitter_feed (self->splitter, g_bytes_get_data (bytes, NULL),
                                   g_bytes_get_size (bytes), &error))
    {
      /* A line beyond any reason: the server is broken. */
      output_ended (self, error);
      if (!self->exited)
        {
          self->stopped = TRUE;
          signal_group (self, SIGKILL);
        }
      return;
    }

  read_output (self);
}

static void
read_output (AgentMcpStdioTransport *self)
{
  if (_agent_mcp_transport_is_closed (AGENT_MCP_TRANSPORT (self)) && !self->closing)
    return;

  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (self->process), READ_SIZE,
                                   G_PRIORITY_DEFAULT, self->cancellable,
                                   read_output_cb, g_object_ref (self));
}

static void
read_stderr_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AgentMcpStdioTransport) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize len;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      self->stderr_ended = TRUE;
      check_gone (self);
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  if (_agent_debug_enabled (AGENT_DEBUG_MCP))
    _agent_mcp_log (_agent_mcp_transport_get_name (AGENT_MCP_TRANSPORT (self)),
                    "stderr: %.*s", (int) len, data);

  g_string_append_len (self->stderr_tail, data, len);
  if (self->stderr_tail->len > STDERR_TAIL)
    g_string_erase (self->stderr_tail, 0, self->stderr_tail->len - STDERR_TAIL);

  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), READ_SIZE, G_PRIORITY_DEFAULT,
                                   self->cancellable, read_stderr_cb, g_object_ref (self));
}

/* Writing: one message after the other, each with its newline */

static void write_next (AgentMcpStdioTransport *self);

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(AgentMcpStdioTransport) self = user_data;
  g_autoptr(GError) error = NULL;

  g_bytes_unref (g_queue_pop_head (&self->writes));

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      /* The server is gone (EPIPE) or going: its end is reported by the
       * reads and the wait, with its exit status. */
      g_queue_clear_full (&self->writes, (GDestroyNotify) g_bytes_unref);
      if (!self->closing)
        output_ended (self, NULL);
      return;
    }

  write_next (self);
}

static void
write_next (AgentMcpStdioTransport *self)
{
  GBytes *line = g_queue_peek_head (&self->writes);
  gsize len;
  gconstpointer data;

  if (line == NULL)
    return;

  /* Not writev_all_async(): GLib 2.74 trips over it on pipes. */
  data = g_bytes_get_data (line, &len);
  g_output_stream_write_all_async (self->input, data, len, G_PRIORITY_DEFAULT, NULL,
                                   write_cb, g_object_ref (self));
}

static void
agent_mcp_stdio_transport_send (AgentMcpTransport *transport,
                                GBytes            *message,
                                gint64             id)
{
  AgentMcpStdioTransport *self = AGENT_MCP_STDIO_TRANSPORT (transport);
  gboolean idle = g_queue_is_empty (&self->writes);
  GByteArray *line;

  if (self->input == NULL || self->closing)
    return;

  /* The message and its newline, written in one go */
  line = g_byte_array_sized_new (g_bytes_get_size (message) + 1);
  g_byte_array_append (line, g_bytes_get_data (message, NULL), g_bytes_get_size (message));
  g_byte_array_append (line, (const guint8 *) "\n", 1);
  g_queue_push_tail (&self->writes, g_byte_array_free_to_bytes (line));
  if (idle)
    write_next (self);
}

/* Starting */

static char **
build_environment (AgentMcpStdioTransport *self)
{
  g_auto(GStrv) parent = g_get_environ ();
  char **result = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (inherited_variables); i++)
    {
      const char *value = g_environ_getenv (parent, inherited_variables[i]);

      if (value != NULL)
        result = g_environ_setenv (result, inherited_variables[i], value, TRUE);
    }

  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *equals = strchr (self->env[i], '=');
      g_autofree char *name = NULL;

      if (equals == NULL || equals == self->env[i])
        continue;
      name = g_strndup (self->env[i], equals - self->env[i]);
      result = g_environ_setenv (result, name, equals + 1, TRUE);
    }

  if (result == NULL)
    result = g_new0 (char *, 1);
  return result;
}

/* The program @command names, as the child's PATH finds it, or NULL.
 * Looked for here, not by a child that would fail to exec: the error is
 * clearer, and no process is forked in vain. */
static char *
find_program (const char         *command,
              const char         *cwd,
              const char * const *environment)
{
  const char *path = g_environ_getenv ((char **) environment, "PATH");
  g_auto(GStrv) directories = NULL;

  if (strchr (command, '/') != NULL)
    {
      g_autofree char *program = NULL;

      /* Relative to the directory it runs in */
      program = cwd && !g_path_is_absolute (command) ?
        g_build_filename (cwd, command, NULL) : g_strdup (command);
      if (g_file_test (program, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (program, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&program);
      return NULL;
    }

  directories = g_strsplit (path ? path : "/usr/local/bin:/usr/bin:/bin", ":", -1);
  for (guint i = 0; directories[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (directories[i][0] ? directories[i] : ".",
                                                     command, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&candidate);
    }

  return NULL;
}

static gboolean
agent_mcp_stdio_transport_start (AgentMcpTransport  *transport,
                                 GError            **error)
{
  AgentMcpStdioTransport *self = AGENT_MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) spawn_error = NULL;
  g_auto(GStrv) environment = build_environment (self);
  g_autofree char *program = NULL;
  ChildSetup setup;
  int guard_pipe[2];

  ignore_sigpipe ();

  if (self->command == NULL || !(program = find_program (self->command, self->cwd,
                                                         (const char * const *) environment)))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                   _("The MCP server “%s” could not be started: there is no program “%s”"),
                   _agent_mcp_transport_get_name (transport), self->command);
      return FALSE;
    }

  g_ptr_array_add (argv, program);
  for (guint i = 0; self->args != NULL && self->args[i] != NULL; i++)
    g_ptr_array_add (argv, self->args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_environ (launcher, environment);
  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);

  /* The guard's pipe: both ends close on exec, so that no other program
   * we start holds them; without one, the server runs unguarded */
  setup.parent = getpid ();
  setup.guard_read = -1;
  if (g_unix_open_pipe (guard_pipe, FD_CLOEXEC, NULL))
    {
      setup.guard_read = guard_pipe[0];
      self->guard_fd = guard_pipe[1];
    }
  g_subprocess_launcher_set_child_setup (launcher, child_setup, &setup, NULL);

  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                &spawn_error);
  if (setup.guard_read >= 0)
    close (setup.guard_read);
  if (self->process == NULL)
    {
      g_autofree char *message = _agent_mcp_transport_redact (transport, spawn_error->message);

      end_group (self);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                   _("The MCP server “%s” could not be started: %s"),
                   _agent_mcp_transport_get_name (transport), message);
      return FALSE;
    }

  /* (None when it already ended: then there is nothing to signal) */
  if (g_subprocess_get_identifier (self->process) != NULL)
    self->group = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (self->process), NULL, 10);
  self->input = g_object_ref (g_subprocess_get_stdin_pipe (self->process));
  self->splitter = agent_ndjson_splitter_new (line_cb, self);
  agent_ndjson_splitter_set_max_line (self->splitter, MAX_LINE);

  g_subprocess_wait_async (self->process, NULL, wait_cb, g_object_ref (self));
  read_output (self);
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (self->process), READ_SIZE,
                                   G_PRIORITY_DEFAULT, self->cancellable,
                                   read_stderr_cb, g_object_ref (self));
  return TRUE;
}

/* Closing */

static gboolean
close_grace_cb (gpointer data)
{
  AgentMcpStdioTransport *self = data;

  g_clear_pointer (&self->grace_source, g_source_unref);

  if (!self->term_sent)
    {
      self->term_sent = TRUE;
      signal_group (self, SIGTERM);
      start_grace (self, CLOSE_GRACE_MS, close_grace_cb);
    }
  else
    signal_group (self, SIGKILL);

  return G_SOURCE_REMOVE;
}

static void
agent_mcp_stdio_transport_close_async (AgentMcpTransport   *transport,
                                       gboolean             force,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  AgentMcpStdioTransport *self = AGENT_MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

  g_task_set_source_tag (task, agent_mcp_stdio_transport_close_async);

  if (self->closing || self->process == NULL || self->exited)
    {
      self->closing = TRUE;
      complete_close (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  self->closing = TRUE;
  self->close_task = g_steal_pointer (&task);

  /* End of input: a well-behaved server exits. One that misbehaved gets
   * SIGTERM at once. */
  g_queue_clear_full (&self->writes, (GDestroyNotify) g_bytes_unref);
  if (self->input != NULL)
    g_output_stream_close (self->input, NULL, NULL);

  if (force)
    {
      if (self->grace_source != NULL)
        {
          g_source_destroy (self->grace_source);
          g_clear_pointer (&self->grace_source, g_source_unref);
        }
      close_grace_cb (self);
    }
  else
    start_grace (self, CLOSE_GRACE_MS, close_grace_cb);
}

static void
agent_mcp_stdio_transport_dispose (GObject *object)
{
  AgentMcpStdioTransport *self = (AgentMcpStdioTransport *)object;

  if (self->grace_source != NULL)
    {
      g_source_destroy (self->grace_source);
      g_clear_pointer (&self->grace_source, g_source_unref);
    }
  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (agent_mcp_stdio_transport_parent_class)->dispose (object);
}

static void
agent_mcp_stdio_transport_finalize (GObject *object)
{
  AgentMcpStdioTransport *self = (AgentMcpStdioTransport *)object;

  /* Only once the wait finished, so the process is reaped. */
  end_group (self);
  g_clear_object (&self->process);
  g_clear_object (&self->input);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->splitter, agent_ndjson_splitter_free);
  g_queue_clear_full (&self->writes, (GDestroyNotify) g_bytes_unref);
  g_string_free (self->stderr_tail, TRUE);
  g_clear_error (&self->error);
  g_free (self->command);
  g_strfreev (self->args);
  g_strfreev (self->env);
  g_free (self->cwd);

  G_OBJECT_CLASS (agent_mcp_stdio_transport_parent_class)->finalize (object);
}

static void
agent_mcp_stdio_transport_class_init (AgentMcpStdioTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AgentMcpTransportClass *transport_class = AGENT_MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = agent_mcp_stdio_transport_dispose;
  object_class->finalize = agent_mcp_stdio_transport_finalize;

  transport_class->start = agent_mcp_stdio_transport_start;
  transport_class->send = agent_mcp_stdio_transport_send;
  transport_class->close_async = agent_mcp_stdio_transport_close_async;
}

static void
agent_mcp_stdio_transport_init (AgentMcpStdioTransport *self)
{
  self->cancellable = g_cancellable_new ();
  self->guard_fd = -1;
  self->stderr_tail = g_string_new (NULL);
  g_queue_init (&self->writes);
}

AgentMcpTransport *
_agent_mcp_stdio_transport_new (const char         *command,
                                const char * const *args,
                                const char * const *env,
                                const char         *cwd)
{
  AgentMcpStdioTransport *self = g_object_new (AGENT_TYPE_MCP_STDIO_TRANSPORT, NULL);
  g_autoptr(GPtrArray) secrets = g_ptr_array_new ();

  self->command = g_strdup (command);
  self->args = g_strdupv ((char **) args);
  self->env = g_strdupv ((char **) env);
  self->cwd = g_strdup (cwd);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');

      if (equals != NULL)
        g_ptr_array_add (secrets, (gpointer) (equals + 1));
    }
  g_ptr_array_add (secrets, NULL);
  _agent_mcp_transport_set_secrets (AGENT_MCP_TRANSPORT (self),
                                    (const char * const *) secrets->pdata);

  return AGENT_MCP_TRANSPORT (self);
}
