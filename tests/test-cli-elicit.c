/* test-cli-elicit.c — agent-cli answers what an MCP server asks
 *
 * The in-process OpenAI test server scripts a model that calls
 * server-everything's trigger-elicitation-request; agent-cli runs it with
 * --mcp-config. On a terminal (standard input and error on a
 * pseudo-terminal the test plays the user on): accept, field by field,
 * with invalid answers asked again with what is wrong; Enter declines;
 * Ctrl-D cancels. Without one: declined, with an "mcp-elicitation" line
 * in --json.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>

#include "agent-test-cli.h"
#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* How long the user waits for a question before the test gives up: a
 * guard against a hang, not a measure */
#define QUESTION_WAIT_SECONDS 60

static void
config_init (AgentTestMcpConfig *self)
{
  g_autofree char *server = agent_test_mcp_server_path ("server-everything");
  g_autofree char *text = NULL;

  text = g_strdup_printf ("{\"mcpServers\":{\"everything\":{\"command\":\"node\","
                          "\"args\":[\"%s\",\"stdio\"]}}}",
                          server);
  agent_test_mcp_config_init (self, "agent-cli-elicit", text);
}

/* The model calls trigger-elicitation-request, then answers "Asked." */
static void
script_elicit (AgentTestServer *server)
{
  static const char * const answer[] = { "Asked.", NULL };
  AgentTestToolChunk chunk = { 0, "call_q", "trigger-elicitation-request", "{}" };

  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);
}

/* agent-cli with its standard input and error on a pseudo-terminal */
typedef struct
{
  GSubprocess *process;
  int          master;
  GString     *screen;   /* what it wrote on the terminal */
  gsize        seen;     /* up to where expect() looked */
  char        *out;
} Terminal;

static void
terminal_start (Terminal           *self,
                const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int slave;

  memset (self, 0, sizeof *self);
  self->master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (self->master, >=, 0);
  g_assert_no_errno (grantpt (self->master));
  g_assert_no_errno (unlockpt (self->master));
  slave = open (ptsname (self->master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);

  g_ptr_array_add (argv, (char *) agent_test_find_program ("AGENT_CLI", "cli", "agent-cli"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "LANG", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  g_subprocess_launcher_take_stdin_fd (launcher, slave);
  g_subprocess_launcher_take_stderr_fd (launcher, dup (slave));
  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                &error);
  g_assert_no_error (error);
  self->screen = g_string_new (NULL);
}

/* Reads the terminal until @text appears after what was seen before */
static void
expect (Terminal   *self,
        const char *text)
{
  gint64 end = g_get_monotonic_time () + QUESTION_WAIT_SECONDS * G_USEC_PER_SEC;

  for (;;)
    {
      GPollFD poll_fd = { self->master, G_IO_IN, 0 };
      const char *found = strstr (self->screen->str + self->seen, text);
      char buffer[4096];
      gssize n;

      if (found != NULL)
        {
          self->seen = found + strlen (text) - self->screen->str;
          return;
        }
      if (g_get_monotonic_time () > end)
        g_error ("agent-cli did not write “%s” on the terminal; it wrote:\n%s", text,
                 self->screen->str);
      /* The model's server runs here: it must answer meanwhile */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (g_poll (&poll_fd, 1, 20) <= 0)
        continue;
      n = read (self->master, buffer, sizeof buffer);
      if (n <= 0)
        g_error ("The terminal closed before “%s”; agent-cli wrote:\n%s", text,
                 self->screen->str);
      g_string_append_len (self->screen, buffer, n);
    }
}

/* Waits for @question, then types @answer and Enter */
static void
answer (Terminal   *self,
        const char *question,
        const char *line)
{
  expect (self, question);
  g_assert_cmpint (write (self->master, line, strlen (line)), ==, (gssize) strlen (line));
  g_assert_cmpint (write (self->master, "\n", 1), ==, 1);
}

typedef struct
{
  Terminal *terminal;
  gboolean  done;
} Finish;

static void
communicated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Finish *finish = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &finish->terminal->out,
                                        NULL, &error);
  g_assert_no_error (error);
  finish->done = TRUE;
}

static gboolean
finished (gpointer data)
{
  Finish *finish = data;
  char buffer[4096];
  gssize n;

  /* What it still writes on the terminal */
  while ((n = read (finish->terminal->master, buffer, sizeof buffer)) > 0)
    g_string_append_len (finish->terminal->screen, buffer, n);
  return finish->done;
}

static GPtrArray *
terminal_finish (Terminal *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = NULL;
  Finish finish = { self, FALSE };
  GPtrArray *events;

  g_unix_set_fd_nonblocking (self->master, TRUE, NULL);
  g_subprocess_communicate_utf8_async (self->process, NULL, NULL, communicated_cb, &finish);
  g_assert_true (agent_test_wait_until_timeout (finished, &finish, QUESTION_WAIT_SECONDS));
  g_subprocess_wait (self->process, NULL, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (self->process) != 0)
    g_error ("agent-cli failed; it wrote:\n%s\n%s", self->screen->str, self->out);

  out = g_string_new (self->out);
  events = agent_test_parse_json_lines (out);
  return events;
}

static void
terminal_clear (Terminal *self)
{
  g_clear_object (&self->process);
  close (self->master);
  g_string_free (self->screen, TRUE);
  g_free (self->out);
}

static JsonObject *
find_event (GPtrArray  *events,
            const char *type,
            const char *id)
{
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (events, i);

      if (g_strcmp0 (agent_test_event_type (event), type) == 0 &&
          (id == NULL || g_strcmp0 (agent_test_get_string (event, "id"), id) == 0))
        return event;
    }
  g_error ("No “%s” event", type);
  return NULL;
}

static const char *
call_result (GPtrArray *events)
{
  return agent_test_get_string (find_event (events, "tool-finished", "call_q"), "result");
}

static void
run_on_terminal (Terminal           *terminal,
                 AgentTestServer    *server,
                 AgentTestMcpConfig *config)
{
  script_elicit (server);
  terminal_start (terminal, AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config->path,
                                             "--base-url",
                                             agent_test_server_get_base_url (server),
                                             "Ask me"));
  expect (terminal, "The MCP server “everything” asks: Please provide inputs for the "
          "following fields:");
}

static void
test_accept (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(GPtrArray) events = NULL;
  JsonObject *event;
  const char *result;
  Terminal terminal;
  AgentTestMcpConfig config;

  config_init (&config);
  run_on_terminal (&terminal, server, &config);

  answer (&terminal, "Answer? [y/N/c] ", "y");
  answer (&terminal, "String (required): ", "Ada Lovelace");
  answer (&terminal, "Boolean (y/n): ", "y");
  /* Enter keeps the default */
  answer (&terminal, "String with default [default: \"It was a dark and stormy night.\"]: ", "");
  answer (&terminal, "String with email format (email): ", "ada@example.com");
  /* Enter leaves an optional field out */
  answer (&terminal, "String with uri format (uri): ", "");
  answer (&terminal, "String with date format (date): ", "1815-12-10");
  answer (&terminal, "Integer (an integer) [default: 42]: ", "7");
  answer (&terminal, "Number in range 1-1000 (a number) [default: 3.14]: ", "");
  /* choices by number */
  expect (&terminal, "2) Rachel");
  answer (&terminal, "Untitled Single Select Enum (a number) [default: \"Monica\"]: ", "2");
  answer (&terminal, "Untitled Multiple Select Enum (numbers, separated by commas)", "1, 3");
  expect (&terminal, "3) Wonder Woman");
  answer (&terminal, "Titled Single Select Enum (a number)", "3");
  answer (&terminal, "Titled Multiple Select Enum (numbers, separated by commas)", "");
  expect (&terminal, "2) Dogs");
  answer (&terminal, "Legacy Titled Single Select Enum (a number)", "2");

  events = terminal_finish (&terminal);
  result = call_result (events);
  agent_test_assert_contains (result, "User provided the requested information");
  agent_test_assert_contains (result, "- Name: Ada Lovelace");
  agent_test_assert_contains (result, "- Agreed to terms: true");
  agent_test_assert_contains (result, "- Email: ada@example.com");
  agent_test_assert_contains (result, "- Birthdate: 1815-12-10");
  agent_test_assert_contains (result, "- Favorite Integer: 7");
  agent_test_assert_contains (result, "- Favorite Number: 3.14");
  agent_test_assert_contains (result, "\"firstLine\": \"It was a dark and stormy night.\"");
  agent_test_assert_contains (result, "\"untitledSingleSelectEnum\": \"Rachel\"");
  agent_test_assert_contains (result, "\"Guitar\",\n      \"Violin\"");
  agent_test_assert_contains (result, "\"titledSingleSelectEnum\": \"hero-3\"");
  agent_test_assert_contains (result, "\"legacyTitledEnum\": \"pet-2\"");
  g_assert_null (strstr (result, "homepage"));

  event = find_event (events, "mcp-elicitation", NULL);
  g_assert_cmpstr (agent_test_get_string (event, "server"), ==, "everything");
  g_assert_cmpstr (agent_test_get_string (event, "mode"), ==, "form");
  g_assert_cmpstr (agent_test_get_string (event, "action"), ==, "accept");

  terminal_clear (&terminal);
  agent_test_mcp_config_clear (&config);
}

static void
test_invalid_then_valid (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(GPtrArray) events = NULL;
  const char *result;
  Terminal terminal;
  AgentTestMcpConfig config;

  config_init (&config);
  run_on_terminal (&terminal, server, &config);

  answer (&terminal, "Answer? [y/N/c] ", "yes");
  /* A required field left empty */
  answer (&terminal, "String (required): ", "");
  expect (&terminal, "This field is required.");
  answer (&terminal, "String (required): ", "Ada");
  answer (&terminal, "Boolean (y/n): ", "maybe");
  expect (&terminal, "answer y or n");
  answer (&terminal, "Boolean (y/n): ", "n");
  answer (&terminal, "[default: \"It was a dark and stormy night.\"]: ", "Call me Ishmael.");
  answer (&terminal, "String with email format (email): ", "ada@");
  expect (&terminal, "“email”: “ada@” is not an email address");
  answer (&terminal, "String with email format (email): ", "ada@example.com");
  answer (&terminal, "String with uri format (uri): ", "");
  answer (&terminal, "String with date format (date): ", "1815-02-30");
  expect (&terminal, "“birthdate”: “1815-02-30” is not a date (YYYY-MM-DD)");
  answer (&terminal, "String with date format (date): ", "");
  answer (&terminal, "Integer (an integer) [default: 42]: ", "five");
  expect (&terminal, "must be an integer");
  answer (&terminal, "Integer (an integer) [default: 42]: ", "500");
  expect (&terminal, "“integer”: must be at most 100");
  answer (&terminal, "Integer (an integer) [default: 42]: ", "5");
  answer (&terminal, "(a number) [default: 3.14]: ", "");
  answer (&terminal, "Untitled Single Select Enum (a number)", "9");
  expect (&terminal, "“untitledSingleSelectEnum”: “9” is not one of the choices");
  answer (&terminal, "Untitled Single Select Enum (a number)", "Joey");
  answer (&terminal, "Untitled Multiple Select Enum (numbers, separated by commas)",
          "1,2,3,4");
  expect (&terminal, "takes at most 3 choices");
  answer (&terminal, "Untitled Multiple Select Enum (numbers, separated by commas)", "");
  answer (&terminal, "Titled Single Select Enum (a number)", "");
  answer (&terminal, "Titled Multiple Select Enum (numbers, separated by commas)", "");
  answer (&terminal, "Legacy Titled Single Select Enum (a number)", "");

  events = terminal_finish (&terminal);
  result = call_result (events);
  agent_test_assert_contains (result, "- Name: Ada");
  agent_test_assert_contains (result, "- Agreed to terms: false");
  agent_test_assert_contains (result, "- Email: ada@example.com");
  agent_test_assert_contains (result, "- Favorite Integer: 5");
  agent_test_assert_contains (result, "\"firstLine\": \"Call me Ishmael.\"");
  agent_test_assert_contains (result, "\"untitledSingleSelectEnum\": \"Joey\"");
  g_assert_null (strstr (result, "birthdate"));

  terminal_clear (&terminal);
  agent_test_mcp_config_clear (&config);
}

static void
test_decline_and_cancel (void)
{
  const struct { const char *typed; const char *action; const char *result; } cases[] = {
    { "", "decline", "User declined to provide the requested information" },
    { "n", "decline", "User declined to provide the requested information" },
    { "c", "cancel", "User cancelled the elicitation dialog" },
    { "\004", "cancel", "User cancelled the elicitation dialog" },  /* Ctrl-D */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentTestServer) server = agent_test_server_new ();
      g_autoptr(GPtrArray) events = NULL;
      Terminal terminal;
      AgentTestMcpConfig config;

      config_init (&config);
      run_on_terminal (&terminal, server, &config);
      if (cases[i].typed[0] == '\004')
        {
          expect (&terminal, "Answer? [y/N/c] ");
          g_assert_cmpint (write (terminal.master, "\004", 1), ==, 1);
        }
      else
        answer (&terminal, "Answer? [y/N/c] ", cases[i].typed);

      events = terminal_finish (&terminal);
      agent_test_assert_contains (call_result (events), cases[i].result);
      g_assert_cmpstr (agent_test_get_string (find_event (events, "mcp-elicitation", NULL),
                                              "action"), ==, cases[i].action);

      terminal_clear (&terminal);
      agent_test_mcp_config_clear (&config);
    }
}

/* No terminal: no one to ask, the request is declined and said */
static void
test_not_interactive (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *event;
  AgentTestMcpConfig config;

  config_init (&config);
  script_elicit (server);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Ask me"));
  agent_test_process_assert_exit (cli, 0);

  event = agent_test_process_nth_event (cli, "mcp-elicitation", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "everything");
  g_assert_cmpstr (agent_test_get_string (event, "server"), ==, "everything");
  g_assert_cmpstr (agent_test_get_string (event, "mode"), ==, "form");
  g_assert_cmpstr (agent_test_get_string (event, "message"), ==,
                   "Please provide inputs for the following fields:");
  g_assert_cmpstr (agent_test_get_string (event, "action"), ==, "decline");
  agent_test_assert_contains (agent_test_cli_call_result (cli, "call_q"),
                              "User declined to provide the requested information");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Asked.");

  agent_test_mcp_config_clear (&config);
}

int
main (int    argc,
      char **argv)
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/cli-elicit/accept", test_accept);
  g_test_add_func ("/cli-elicit/invalid-then-valid", test_invalid_then_valid);
  g_test_add_func ("/cli-elicit/decline-and-cancel", test_decline_and_cancel);
  g_test_add_func ("/cli-elicit/not-interactive", test_not_interactive);

  return g_test_run ();
}
