/* test-cli-models.c — agent-cli's model commands against a fake Ollama
 *
 * - /cli-models/details: --list-models --details prints a table; with
 *   --json one "model" object per model.
 * - /cli-models/show: --show-model; an unknown model fails naming the pull.
 * - /cli-models/pull/json: "pull-progress" events, then "pulled".
 * - /cli-models/pull/plain: without a terminal, plain lines and no \r.
 * - /cli-models/pull/interrupt: Ctrl-C cancels, exit status 130, a message
 *   that says the download resumes.
 * - /cli-models/delete: refused without a terminal and without --yes;
 *   deleted with --yes.
 * - /cli-models/unload, /cli-models/running.
 * - /cli-models/notice: a model without tools: the "notice" event.
 * - /cli-models/unsupported: a server without a manager.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "agent-test-cli.h"
#include "agent-test-ollama.h"
#include "agent-test-util.h"

static AgentTestOllama *
ollama_new (void)
{
  AgentTestOllama *ollama = agent_test_ollama_new ();

  agent_test_ollama_add_model (ollama, "qwen3:8b", "qwen3", "8.2B", "Q4_K_M", 5225376047, 40960,
                               "completion,tools,thinking");
  agent_test_ollama_add_model (ollama, "gemma:2b", "gemma", "3B", "Q4_0", 1678456656, 8192,
                               "completion");
  agent_test_ollama_add_to_registry (ollama, "llama3.2");
  return ollama;
}

#define OLLAMA(o) "--provider", "ollama", "--base-url", agent_test_ollama_get_base_url (o)

static void
test_details (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) json = NULL;
  JsonObject *model;
  JsonArray *capabilities;

  cli = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--list-models", "--details"));
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "NAME");
  agent_test_assert_contains (cli->out->str, "CAPABILITIES");
  agent_test_assert_contains (cli->out->str, "qwen3:8b");
  agent_test_assert_contains (cli->out->str, "8.2B");
  agent_test_assert_contains (cli->out->str, "Q4_K_M");
  agent_test_assert_contains (cli->out->str, "40K");
  agent_test_assert_contains (cli->out->str, "completion,tools,thinking");
  agent_test_assert_contains (cli->out->str, "5.2\u00a0GB");
  g_assert_cmpuint (agent_test_ollama_count (ollama, "/api/show"), ==, 2);

  json = agent_test_cli_run_json (AGENT_TEST_ARGS (OLLAMA (ollama), "--list-models", "--details",
                                                   "--json"));
  agent_test_process_assert_exit (json, 0);
  g_assert_cmpuint (json->events->len, ==, 2);
  model = agent_test_process_nth_event (json, "model", 1);
  g_assert_cmpstr (json_object_get_string_member (model, "name"), ==, "qwen3:8b");
  g_assert_cmpint (json_object_get_int_member (model, "size"), ==, 5225376047);
  g_assert_cmpint (json_object_get_int_member (model, "context_length"), ==, 40960);
  g_assert_cmpstr (json_object_get_string_member (model, "quantization"), ==, "Q4_K_M");
  capabilities = json_object_get_array_member (model, "capabilities");
  g_assert_cmpuint (json_array_get_length (capabilities), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (capabilities, 1), ==, "tools");
}

static void
test_show (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;

  cli = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--show-model", "gemma:2b"));
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "gemma:2b");
  agent_test_assert_contains (cli->out->str, "8K");
  agent_test_assert_contains (cli->out->str, "completion");

  unknown = agent_test_cli_run_json (AGENT_TEST_ARGS (OLLAMA (ollama), "--show-model", "mistral",
                                                      "--json"));
  agent_test_process_assert_exit (unknown, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (unknown, "model-not-found"),
                              "agent-cli --pull mistral");
}

static void
test_pull_json (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *first;
  JsonObject *last;
  guint n;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS (OLLAMA (ollama), "--pull", "llama3.2",
                                                  "--json"));
  agent_test_process_assert_exit (cli, 0);
  n = agent_test_process_count_events (cli, "pull-progress");
  g_assert_cmpuint (n, ==, 13);
  first = agent_test_process_nth_event (cli, "pull-progress", 0);
  g_assert_cmpstr (json_object_get_string_member (first, "status"), ==, "pulling manifest");
  last = agent_test_process_nth_event (cli, "pull-progress", n - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "status"), ==, "success");
  g_assert_cmpint (json_object_get_int_member (last, "overall_completed"), ==,
                   4000000 + 1024 + 96);
  g_assert_cmpstr (agent_test_event_type (agent_test_process_last_event (cli)), ==, "pulled");
  g_assert_true (agent_test_ollama_has_model (ollama, "llama3.2"));
}

static void
test_pull_plain (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  cli = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--pull", "llama3.2"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_null (strchr (cli->out->str, '\r'));
  agent_test_assert_contains (cli->out->str, "pulling manifest\n");
  agent_test_assert_contains (cli->out->str, "verifying sha256 digest");
  agent_test_assert_contains (cli->out->str, "(100%)");
  agent_test_assert_contains (cli->out->str, "Pulled llama3.2.\n");
}

static gboolean
has_progress (gpointer data)
{
  AgentTestProcess *cli = data;

  return strstr (cli->out->str, "\"completed\":2000000") != NULL;
}

static void
test_pull_interrupt (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_ollama_set_next_pull (ollama, AGENT_TEST_PULL_WAIT);
  cli = agent_test_cli_spawn (NULL, NULL, AGENT_TEST_ARGS (OLLAMA (ollama), "--pull", "llama3.2",
                                                           "--json"));
  agent_test_wait_until (has_progress, cli);
  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 130);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "cancelled"),
                              "pulling it again resumes");
  g_assert_false (agent_test_ollama_has_model (ollama, "llama3.2"));
}

static void
test_delete (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) refused = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;

  /* No terminal to ask on */
  refused = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--delete-model", "gemma:2b"));
  agent_test_process_assert_exit (refused, 1);
  agent_test_assert_contains (refused->err->str, "--yes");
  g_assert_true (agent_test_ollama_has_model (ollama, "gemma:2b"));
  g_assert_cmpuint (agent_test_ollama_count (ollama, "/api/delete"), ==, 0);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS (OLLAMA (ollama), "--delete-model", "gemma:2b",
                                                  "--yes", "--json"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_event_type (agent_test_process_last_event (cli)), ==, "deleted");
  g_assert_false (agent_test_ollama_has_model (ollama, "gemma:2b"));
}

static void
test_unload_running (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) running = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_ollama_set_running (ollama, "qwen3:8b", 5137025024, "2030-06-04T14:38:31Z");
  running = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--list-running"));
  agent_test_process_assert_exit (running, 0);
  agent_test_assert_contains (running->out->str, "qwen3:8b");
  agent_test_assert_contains (running->out->str, "5.1\u00a0GB");
  agent_test_assert_contains (running->out->str, "2030-06-0");

  cli = agent_test_cli_run (AGENT_TEST_ARGS (OLLAMA (ollama), "--unload-model", "qwen3:8b"));
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "Unloaded qwen3:8b.");
  g_assert_false (agent_test_ollama_is_running (ollama, "qwen3:8b"));
}

static void
test_notice (void)
{
  g_autoptr(AgentTestOllama) ollama = ollama_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *notice;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS (OLLAMA (ollama), "--model", "gemma:2b",
                                                  "--tool", "calculator", "--json", "Hi"));
  agent_test_process_assert_exit (cli, 0);
  notice = agent_test_process_nth_event (cli, "notice", 0);
  g_assert_cmpstr (json_object_get_string_member (notice, "code"), ==, "no-tools");
  agent_test_assert_contains (json_object_get_string_member (notice, "message"), "gemma:2b");
}

static void
test_unsupported (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--provider", "openai", "--base-url",
                                                  "http://127.0.0.1:9/v1", "--pull", "x",
                                                  "--json"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "unsupported"), "model manager");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-models/details", test_details);
  g_test_add_func ("/cli-models/show", test_show);
  g_test_add_func ("/cli-models/pull/json", test_pull_json);
  g_test_add_func ("/cli-models/pull/plain", test_pull_plain);
  g_test_add_func ("/cli-models/pull/interrupt", test_pull_interrupt);
  g_test_add_func ("/cli-models/delete", test_delete);
  g_test_add_func ("/cli-models/unload-running", test_unload_running);
  g_test_add_func ("/cli-models/notice", test_notice);
  g_test_add_func ("/cli-models/unsupported", test_unsupported);

  return g_test_run ();
}
