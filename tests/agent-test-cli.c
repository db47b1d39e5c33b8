/* agent-test-cli.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-cli.h"
#include "agent-test-util.h"

/* Starts agent-cli ($AGENT_CLI); see agent_test_process_spawn(). */
AgentTestProcess *
agent_test_cli_spawn (const char * const *env,
                      const char         *input,
                      const char * const *args)
{
  static const char *path;

  if (path == NULL)
    path = agent_test_find_program ("AGENT_CLI", "cli", "agent-cli");

  return agent_test_process_spawn (path, env, input, AGENT_TEST_PROCESS_DEFAULT, args);
}

/* Runs agent-cli to its end. */
AgentTestProcess *
agent_test_cli_run_full (const char * const *env,
                         const char         *input,
                         const char * const *args)
{
  AgentTestProcess *cli = agent_test_cli_spawn (env, input, args);

  agent_test_process_wait (cli);
  return cli;
}

AgentTestProcess *
agent_test_cli_run (const char * const *args)
{
  return agent_test_cli_run_full (NULL, NULL, args);
}

/* Runs with @args, which include --json, and parses the lines. */
AgentTestProcess *
agent_test_cli_run_json (const char * const *args)
{
  AgentTestProcess *cli = agent_test_cli_run (args);

  agent_test_process_parse_json (cli);
  return cli;
}

/* The text-delta lines among the complete lines of @out. */
static guint
count_text_deltas (const GString *out)
{
  g_autoptr(GPtrArray) events = agent_test_parse_json_lines (out);
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (agent_test_event_type (g_ptr_array_index (events, i)), "text-delta"))
      n++;
  return n;
}

typedef struct
{
  AgentTestProcess *cli;
  guint             n;
} TextDeltas;

static gboolean
has_text_deltas (gpointer data)
{
  TextDeltas *wanted = data;

  return count_text_deltas (wanted->cli->out) >= wanted->n ||
         agent_test_process_is_finished (wanted->cli);
}

/* While it runs with --json: runs the main loop until @n text-delta lines
 * are out; the test fails if they do not come. */
void
agent_test_cli_wait_for_text_deltas (AgentTestProcess *cli,
                                     guint             n)
{
  TextDeltas wanted = { cli, n };

  agent_test_wait_until_timeout (has_text_deltas, &wanted, AGENT_TEST_PROCESS_WAIT_SECONDS);
  if (count_text_deltas (cli->out) < n)
    g_error ("Fewer than %u text-delta lines came out; stdout so far:\n%s", n, cli->out->str);
}

/* The text of every text-delta line, concatenated. */
char *
agent_test_cli_streamed_text (AgentTestProcess *cli)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);

      if (g_str_equal (agent_test_event_type (event), "text-delta"))
        g_string_append (text, agent_test_get_string (event, "text"));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Checks the last line is done, with the assistant's message, and returns
 * its content. */
const char *
agent_test_cli_done_content (AgentTestProcess *cli)
{
  JsonObject *done = agent_test_process_last_event (cli);
  JsonObject *message;

  g_assert_cmpstr (agent_test_event_type (done), ==, "done");
  message = json_object_get_object_member (done, "message");
  g_assert_nonnull (message);
  g_assert_cmpstr (agent_test_get_string (message, "role"), ==, "assistant");
  return agent_test_get_string (message, "content");
}

void
agent_test_cli_assert_usage (JsonObject *event,
                             gint64      prompt,
                             gint64      completion,
                             gint64      total)
{
  JsonObject *usage = json_object_get_object_member (event, "usage");

  g_assert_nonnull (usage);
  g_assert_cmpint (json_object_get_int_member (usage, "prompt-tokens"), ==, prompt);
  g_assert_cmpint (json_object_get_int_member (usage, "completion-tokens"), ==, completion);
  g_assert_cmpint (json_object_get_int_member (usage, "total-tokens"), ==, total);
}

/* The done line's usage is the sum of the steps'. */
void
agent_test_cli_assert_usage_summed (AgentTestProcess *cli)
{
  gint64 prompt = 0, completion = 0, total = 0;
  guint n = agent_test_process_count_events (cli, "step-finished");

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *step = agent_test_process_nth_event (cli, "step-finished", i);
      JsonObject *usage = json_object_get_object_member (step, "usage");

      prompt += json_object_get_int_member (usage, "prompt-tokens");
      completion += json_object_get_int_member (usage, "completion-tokens");
      total += json_object_get_int_member (usage, "total-tokens");
    }
  agent_test_cli_assert_usage (agent_test_process_last_event (cli), prompt, completion, total);
}

/* Checks the last line is an error with @code, and the only one, with no
 * done line; returns its message. */
const char *
agent_test_cli_assert_error (AgentTestProcess *cli,
                             const char       *code)
{
  JsonObject *error = agent_test_process_last_event (cli);

  if (!g_str_equal (agent_test_event_type (error), "error"))
    g_error ("The last line is not an error:\n%s", cli->out->str);
  g_assert_cmpstr (agent_test_get_string (error, "code"), ==, code);
  g_assert_nonnull (agent_test_get_string (error, "message"));
  g_assert_cmpstr (agent_test_get_string (error, "message"), !=, "");
  g_assert_cmpuint (agent_test_process_count_events (cli, "error"), ==, 1);
  g_assert_cmpuint (agent_test_process_count_events (cli, "done"), ==, 0);
  return agent_test_get_string (error, "message");
}

/* The tool-finished line of call @id; the test fails if there is none. */
JsonObject *
agent_test_cli_finished_event (AgentTestProcess *cli,
                               const char       *id)
{
  guint n = agent_test_process_count_events (cli, "tool-finished");

  for (guint i = 0; i < n; i++)
    {
      JsonObject *event = agent_test_process_nth_event (cli, "tool-finished", i);

      if (g_strcmp0 (agent_test_get_string (event, "id"), id) == 0)
        return event;
    }

  g_error ("No tool-finished line for %s in:\n%s", id, cli->out->str);
  return NULL;
}

/* The result of call @id, which must have succeeded. */
const char *
agent_test_cli_call_result (AgentTestProcess *cli,
                            const char       *id)
{
  JsonObject *event = agent_test_cli_finished_event (cli, id);

  g_assert_false (json_object_has_member (event, "error"));
  return agent_test_get_string (event, "result");
}

/* The error of call @id, which must have failed. */
const char *
agent_test_cli_call_error (AgentTestProcess *cli,
                           const char       *id)
{
  JsonObject *event = agent_test_cli_finished_event (cli, id);

  g_assert_false (json_object_has_member (event, "result"));
  return agent_test_get_string (event, "error");
}
