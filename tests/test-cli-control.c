/* test-cli-control.c — agent-cli as a black box: loop control
 *
 * As in test-cli.c, each case runs $AGENT_CLI against an AgentTestServer
 * served from this process's main loop: here the options that keep a turn
 * in check (--max-tool-calls, --tool-timeout), the read_file tool (with
 * --yes) and the metrics of --json. Approval on the controlling terminal,
 * without --yes, is tested in test-cli-approval.c.
 *
 * A tool call is made to hang with a file lease: while this process holds
 * a write lease on a file, another process's open() of it blocks until the
 * lease is released (or the kernel's lease-break-time, 45 s by default,
 * runs out; read_file opens without blocking, and asks again until then). A
 * FIFO would not do: read_file opens it without blocking, and refuses it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define TEXT_FILE_CONTENT "Notes: \"quoted\", tab\there,\nünïcödé ✓\n"

/* --max-tool-calls */

static const AgentTestToolChunk three_calls[] = {
  { 0, "call_1", "calculator", "{\"expression\":\"1+1\"}" },
  { 1, "call_2", "calculator", "{\"expression\":\"2*3\"}" },
  { 2, "call_3", "calculator", "{\"expression\":\"10-4\"}" },
};

/* The calls run in order; the one beyond the limit is answered and the
 * turn ends with a "limit" error, without asking the model again. */
static void
test_max_tool_calls (void)
{
  static const char * const never[] = { "Never asked.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestServer) plain_server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  g_autofree char *types = NULL;
  const char *message;

  agent_test_openai_add_tool_response (server, three_calls, G_N_ELEMENTS (three_calls), 5, 5);
  agent_test_openai_add_text_response (server, never, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--max-tool-calls", "2", "--base-url",
                                                  agent_test_server_get_base_url (server), "Sums"));

  agent_test_process_assert_exit (cli, 1);
  types = agent_test_process_event_types (cli);
  g_assert_true (g_str_has_prefix (types, "tool-call tool-call tool-call step-finished "));
  g_assert_true (g_str_has_suffix (types, " tool-finished error"));
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-started"), ==, 3);
  g_assert_cmpuint (agent_test_process_count_events (cli, "tool-finished"), ==, 3);
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_1"), ==, "2");
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_2"), ==, "6");
  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_3"), ==,
                   "Not run: the turn reached its limit of 2 tool calls");
  message = agent_test_cli_assert_error (cli, "limit");
  agent_test_assert_contains (message, "max-tool-calls");

  /* The model is not asked again. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpuint (agent_test_server_get_n_pending (server), ==, 1);

  /* Plain output says it on stderr. */
  agent_test_openai_add_tool_response (plain_server, three_calls, G_N_ELEMENTS (three_calls),
                                       5, 5);
  plain = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "calculator", "--max-tool-calls", "2",
                                               "--base-url",
                                               agent_test_server_get_base_url (plain_server),
                                               "Sums"));
  agent_test_process_assert_exit (plain, 1);
  g_assert_cmpstr (plain->out->str, ==, "");
  agent_test_assert_contains (plain->err->str, "limit of 2 tool calls");
  agent_test_assert_contains (plain->err->str, "max-tool-calls");
  g_assert_cmpuint (agent_test_server_get_n_requests (plain_server), ==, 1);
}

/* The limit counts the runs of the whole turn, across its steps. */
static void
test_max_tool_calls_per_turn (void)
{
  static const AgentTestToolChunk first[] = {
    { 0, "call_a", "calculator", "{\"expression\":\"3*3\"}" },
  };
  static const AgentTestToolChunk second[] = {
    { 0, "call_b", "calculator", "{\"expression\":\"4*4\"}" },
    { 1, "call_c", "calculator", "{\"expression\":\"5*5\"}" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_tool_response (server, first, G_N_ELEMENTS (first), 1, 1);
  agent_test_openai_add_tool_response (server, second, G_N_ELEMENTS (second), 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                  "--max-tool-calls", "2", "--base-url",
                                                  agent_test_server_get_base_url (server), "Go"));

  agent_test_process_assert_exit (cli, 1);
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_a"), ==, "9");
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_b"), ==, "16");
  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_c"), ==,
                   "Not run: the turn reached its limit of 2 tool calls");
  agent_test_cli_assert_error (cli, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpuint (agent_test_process_count_events (cli, "step-finished"), ==, 2);
}

/* Exactly the limit is fine; 0 is no limit. */
static void
test_max_tool_calls_enough (void)
{
  static const char * const answer[] = { "2, 6 and 6.", NULL };
  static const char * const limits[] = { "3", "0" };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;

      g_test_message ("--max-tool-calls %s", limits[i]);
      agent_test_openai_add_tool_response (server, three_calls, G_N_ELEMENTS (three_calls), 5, 5);
      agent_test_openai_add_text_response (server, answer, 1, 1);

      cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator",
                                                      "--max-tool-calls", limits[i], "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "Sums"));

      agent_test_process_assert_exit (cli, 0);
      g_assert_cmpstr (agent_test_cli_call_result (cli, "call_3"), ==, "6");
      g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "2, 6 and 6.");
      g_assert_cmpstr (agent_test_openai_tool_message_content (server, 2 * i + 1, "call_3"), ==,
                       "6");
    }
}

/* --tool-timeout */

typedef struct
{
  char *dir;
  char *path;
  int   fd;       /* holds the lease, or -1 */
  void (*old_sigio) (int);
} Lease;

/* A file whose opening blocks while the lease is held; FALSE (and the test
 * skipped) where the file system has no leases. */
static gboolean
lease_take (Lease *lease)
{
  g_autofree char *break_time = NULL;

  /* The kernel breaks a lease after this many seconds: it must outlast the
   * waits of the test. */
  if (g_file_get_contents ("/proc/sys/fs/lease-break-time", &break_time, NULL, NULL) &&
      g_ascii_strtoull (break_time, NULL, 10) < AGENT_TEST_PROCESS_WAIT_SECONDS + 5)
    {
      g_test_skip ("/proc/sys/fs/lease-break-time is too short for this test");
      lease->fd = -1;
      return FALSE;
    }

  lease->dir = agent_test_make_dir ("agent-cli-control");
  lease->path = agent_test_write_file (lease->dir, "leased.txt", "Never read in time.\n", -1);
  /* Its breaking is announced with SIGIO, which would kill this process. */
  lease->old_sigio = signal (SIGIO, SIG_IGN);

  lease->fd = g_open (lease->path, O_RDONLY | O_CLOEXEC, 0);
  g_assert_cmpint (lease->fd, >=, 0);
  if (fcntl (lease->fd, F_SETLEASE, F_WRLCK) != 0)
    {
      g_autofree char *message = g_strdup_printf ("No file leases here: %s", g_strerror (errno));

      g_test_skip (message);
      g_assert_no_errno (close (lease->fd));
      lease->fd = -1;
      return FALSE;
    }
  return TRUE;
}

/* Lets the blocked open() go on. */
static void
lease_release (Lease *lease)
{
  if (lease->fd < 0)
    return;
  g_assert_no_errno (fcntl (lease->fd, F_SETLEASE, F_UNLCK));
  g_assert_no_errno (close (lease->fd));
  lease->fd = -1;
}

static void
lease_clear (Lease *lease)
{
  if (lease->dir == NULL)
    return;  /* skipped before anything was made */

  lease_release (lease);
  signal (SIGIO, lease->old_sigio);
  agent_test_remove_dir (lease->dir);
  g_clear_pointer (&lease->path, g_free);
  g_clear_pointer (&lease->dir, g_free);
}

/* A read_file call that hangs and a calculator call, side by side. */
static void
add_hanging_step (AgentTestServer *server,
                  const char      *path)
{
  g_autofree char *arguments = agent_test_path_arguments (path);
  AgentTestToolChunk chunks[] = {
    { 0, "call_r", "read_file", arguments },
    { 1, "call_c", "calculator", "{\"expression\":\"2*7\"}" },
  };

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
}

static void
check_timed_out (AgentTestProcess *cli,
                 AgentTestServer  *server)
{
  JsonObject *metrics;

  g_assert_cmpstr (agent_test_cli_call_error (cli, "call_r"), ==, "The tool timed out after 0.5 s");
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_c"), ==, "14");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Done.");

  /* The model is told, and the loop went on. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_r"), ==,
                   "The tool timed out after 0.5 s");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_c"), ==, "14");

  /* Both ran; the one cut off ran at least until its timeout. */
  metrics = json_object_get_object_member (agent_test_process_last_event (cli), "metrics");
  g_assert_nonnull (metrics);
  g_assert_cmpint (json_object_get_int_member (metrics, "tool-calls"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (metrics, "tool-time-us"), >=, 500000);
}

static void
test_tool_timeout (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *response;
  Lease lease = { 0 };

  if (!lease_take (&lease))
    {
      lease_clear (&lease);
      return;
    }

  add_hanging_step (server, lease.path);
  /* The answer waits, so that the lease goes before agent-cli does. */
  response = agent_test_openai_begin (server, "");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "Done.");
  agent_test_openai_add_end (response, "stop", 1, 1);

  cli = agent_test_cli_spawn (NULL, NULL,
                              AGENT_TEST_ARGS ("--json", "--yes", "--tool", "read_file",
                                               "--tool", "calculator", "--tool-timeout", "0.5",
                                               "--base-url",
                                               agent_test_server_get_base_url (server), "Read"));

  /* The next request came while the read still hangs. */
  agent_test_server_wait_until_waiting (server);
  g_assert_false (cli->exited);

  lease_release (&lease);
  agent_test_server_release (server);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");
  check_timed_out (cli, server);
  lease_clear (&lease);
}

/* agent-cli leaves although the tool's thread still hangs. */
static void
test_tool_timeout_stuck (void)
{
  static const char * const answer[] = { "Done.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  Lease lease = { 0 };

  if (!lease_take (&lease))
    {
      lease_clear (&lease);
      return;
    }

  add_hanging_step (server, lease.path);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  /* Waiting is bounded well below the kernel's lease-break-time (45 s). */
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "read_file",
                                                  "--tool", "calculator", "--tool-timeout", "0.5",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Read"));
  g_assert_true (lease.fd >= 0);

  agent_test_process_assert_exit (cli, 0);
  check_timed_out (cli, server);
  lease_clear (&lease);
}

/* Not a number is no timeout: refused like a negative one. */
static void
test_tool_timeout_nan (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool-timeout", "nan", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"),
                              "tool-timeout");
  g_assert_null (strstr (cli->err->str, "CRITICAL"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

/* read_file */

static void
test_read_file (void)
{
  static const char * const answer[] = { "Read it.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-cli-control");
  g_autofree char *path = agent_test_write_file (dir, "notes.txt", TEXT_FILE_CONTENT, -1);
  g_autofree char *arguments = agent_test_path_arguments (path);
  g_autofree char *types = NULL;
  AgentTestToolChunk chunk = { 0, "call_f", "read_file", arguments };
  JsonObject *parameters;
  JsonArray *tools;

  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "read_file",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server), "Read"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");
  types = agent_test_process_event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-finished text-delta "
                   "step-finished done");
  g_assert_cmpstr (agent_test_get_string (agent_test_process_nth_event (cli, "tool-started", 0),
                                          "arguments"), ==, arguments);
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_f"), ==, TEXT_FILE_CONTENT);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_f"), ==,
                   TEXT_FILE_CONTENT);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Read it.");

  /* The tool was offered with its one required parameter. */
  tools = json_object_get_array_member (agent_test_openai_get_request (server, 0), "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 1);
  g_assert_cmpstr (agent_test_openai_function_string (tools, 0, "name"), ==, "read_file");
  parameters = json_object_get_object_member (
    json_object_get_object_member (json_array_get_object_element (tools, 0), "function"),
    "parameters");
  g_assert_nonnull (parameters);
  g_assert_true (json_object_has_member (json_object_get_object_member (parameters, "properties"),
                                         "path"));

  agent_test_remove_dir (dir);
}

typedef struct
{
  const char *id;
  const char *name;      /* in the directory; NULL: the argument is given as is */
  const char *error;     /* a part of the expected error */
} FileCase;

static void
test_read_file_errors (void)
{
  static const FileCase cases[] = {
    { "call_missing", "missing.txt", "No such file or directory" },
    { "call_dir", "subdir", "is not a regular file" },
    { "call_fifo", "fifo", "is not a regular file" },
    { "call_nul", "nul.bin", "is not a text file" },
    { "call_latin1", "latin1.txt", "is not a UTF-8 text file" },
    /* checked against the tool's schema before it runs */
    { "call_number", NULL, "The arguments do not follow the schema of “read_file”: $.path: "
                           "expected string, got integer" },
  };
  static const char * const answer[] = { "None of them.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(GPtrArray) arguments = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = agent_test_make_dir ("agent-cli-control");
  g_autofree char *subdir = g_build_filename (dir, "subdir", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  AgentTestToolChunk chunks[G_N_ELEMENTS (cases)];

  g_assert_no_errno (g_mkdir (subdir, 0700));
  g_assert_no_errno (mkfifo (fifo, 0600));
  g_free (agent_test_write_file (dir, "nul.bin", "text\0more", 9));
  g_free (agent_test_write_file (dir, "latin1.txt", "caf\xe9 cr\xe8me\n", -1));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = cases[i].name ? g_build_filename (dir, cases[i].name, NULL) : NULL;

      g_ptr_array_add (arguments,
                       path ? agent_test_path_arguments (path) : g_strdup ("{\"path\":3}"));
      chunks[i] = (AgentTestToolChunk) { i, cases[i].id, "read_file",
                                         g_ptr_array_index (arguments, i) };
    }
  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "read_file",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server), "Read"));

  /* Each failure is that call's answer; the turn goes on. */
  agent_test_process_assert_exit (cli, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *error = agent_test_cli_call_error (cli, cases[i].id);

      g_test_message ("%s: %s", cases[i].id, error);
      agent_test_assert_contains (error, cases[i].error);
      if (cases[i].name != NULL)
        agent_test_assert_contains (error, cases[i].name);
      g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, cases[i].id), ==, error);
    }
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "None of them.");

  agent_test_remove_dir (dir);
}

/* A file over 64 KiB is cut, with a note, and never in the middle of a
 * character; one of exactly 64 KiB is whole. */
static void
test_read_file_big (void)
{
  static const struct {
    const char *id;
    gsize       ascii;    /* bytes of ASCII lines */
    const char *tail;     /* then this */
    gsize       shown;    /* what is shown, or 0 for all */
  } cases[] = {
    { "call_exact", 65536, "", 0 },
    { "call_over", 65537, "", 65536 },
    /* "é" takes bytes 65535 and 65536: the cut comes before it. */
    { "call_straddling", 65535, "é and more", 65535 },
  };
  static const char * const answer[] = { "Long.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GPtrArray) contents = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) arguments = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = agent_test_make_dir ("agent-cli-control");
  AgentTestToolChunk chunks[G_N_ELEMENTS (cases)];

  for (guint i = 0; lines->len < 70000; i++)
    g_string_append_printf (lines, "line %u\n", i);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("%.*s%s", (int)cases[i].ascii, lines->str,
                                               cases[i].tail);
      g_autofree char *path = agent_test_write_file (dir, cases[i].id, text, -1);

      g_ptr_array_add (arguments, agent_test_path_arguments (path));
      chunks[i] = (AgentTestToolChunk) { i, cases[i].id, "read_file",
                                         g_ptr_array_index (arguments, i) };
      if (cases[i].shown == 0)
        g_ptr_array_add (contents, g_steal_pointer (&text));
      else
        g_ptr_array_add (contents,
                         g_strdup_printf ("%.*s\n[The file has %" G_GSIZE_FORMAT " bytes; only the "
                                          "first %" G_GSIZE_FORMAT " are shown.]",
                                          (int)cases[i].shown, text, strlen (text),
                                          cases[i].shown));
    }
  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "read_file",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server), "Read"));

  agent_test_process_assert_exit (cli, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *content = g_ptr_array_index (contents, i);

      agent_test_assert_same_text (agent_test_cli_call_result (cli, cases[i].id), content);
      agent_test_assert_same_text (agent_test_openai_tool_message_content (server, 1, cases[i].id),
                                   content);
    }

  agent_test_remove_dir (dir);
}

/* Metrics */

/* An integer member of @metrics, which must be there. */
static gint64
metric (JsonObject *metrics,
        const char *name)
{
  JsonNode *node = json_object_get_member (metrics, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    g_error ("The metric “%s” is not an integer", name);
  return json_node_get_int (node);
}

static JsonObject *
check_metrics (JsonObject *event)
{
  JsonObject *metrics = json_object_get_object_member (event, "metrics");
  JsonNode *speed;

  g_assert_nonnull (metrics);
  g_assert_cmpuint (json_object_get_size (metrics), ==, 7);

  /* Something streamed: a first token */
  g_assert_cmpint (metric (metrics, "time-to-first-token-us"), >=, 0);
  g_assert_cmpint (metric (metrics, "duration-us"), >=,
                   metric (metrics, "time-to-first-token-us"));
  g_assert_cmpint (metric (metrics, "wait-us"), >=, 0);
  g_assert_cmpint (metric (metrics, "tool-time-us"), >=, 0);
  g_assert_cmpint (metric (metrics, "tool-calls"), >=, 0);
  g_assert_cmpint (metric (metrics, "steps"), >=, 1);

  speed = json_object_get_member (metrics, "tokens-per-second");
  g_assert_nonnull (speed);
  if (!JSON_NODE_HOLDS_NULL (speed))
    g_assert_cmpint (metric (metrics, "tokens-per-second"), >=, 0);

  return metrics;
}

static void
test_metrics (void)
{
  static const AgentTestToolChunk chunks[] = {
    { 0, "call_a", "calculator", "{\"expression\":\"2*7\"}" },
    { 1, "call_b", "calculator", "{\"expression\":\"10-4\"}" },
  };
  static const char * const answer[] = { "14 ", "and ", "6.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  gint64 step_durations = 0;
  gint64 step_waits = 0;
  JsonObject *metrics;
  guint n_steps;

  agent_test_openai_add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 20, 12);
  agent_test_openai_add_text_response (server, answer, 40, 4);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--tool", "calculator", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "2*7 and 10-4?"));

  agent_test_process_assert_exit (cli, 0);
  n_steps = agent_test_process_count_events (cli, "step-finished");
  g_assert_cmpuint (n_steps, ==, 2);

  /* A step: one request, the calls the model made in it, no tool time. */
  for (guint i = 0; i < n_steps; i++)
    {
      metrics = check_metrics (agent_test_process_nth_event (cli, "step-finished", i));
      g_assert_cmpint (metric (metrics, "steps"), ==, 1);
      g_assert_cmpint (metric (metrics, "tool-calls"), ==, i == 0 ? 2 : 0);
      g_assert_cmpint (metric (metrics, "tool-time-us"), ==, 0);
      step_durations += metric (metrics, "duration-us");
      step_waits += metric (metrics, "wait-us");
    }

  /* The turn: its steps, the calls that ran, the first step's first token. */
  metrics = check_metrics (agent_test_process_last_event (cli));
  g_assert_cmpint (metric (metrics, "steps"), ==, n_steps);
  g_assert_cmpint (metric (metrics, "tool-calls"), ==, 2);
  g_assert_cmpint (metric (metrics, "duration-us"), >=, step_durations);
  g_assert_cmpint (metric (metrics, "wait-us"), ==, step_waits);
  g_assert_cmpint (metric (metrics, "time-to-first-token-us"), ==,
                   metric (json_object_get_object_member (
                             agent_test_process_nth_event (cli, "step-finished", 0), "metrics"),
                           "time-to-first-token-us"));
  agent_test_cli_assert_usage_summed (cli);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/control/max-tool-calls", test_max_tool_calls);
  g_test_add_func ("/cli/control/max-tool-calls-per-turn", test_max_tool_calls_per_turn);
  g_test_add_func ("/cli/control/max-tool-calls-enough", test_max_tool_calls_enough);
  g_test_add_func ("/cli/control/tool-timeout", test_tool_timeout);
  g_test_add_func ("/cli/control/tool-timeout-stuck", test_tool_timeout_stuck);
  g_test_add_func ("/cli/control/tool-timeout-nan", test_tool_timeout_nan);
  g_test_add_func ("/cli/control/read-file", test_read_file);
  g_test_add_func ("/cli/control/read-file-errors", test_read_file_errors);
  g_test_add_func ("/cli/control/read-file-big", test_read_file_big);
  g_test_add_func ("/cli/control/metrics", test_metrics);

  return g_test_run ();
}
