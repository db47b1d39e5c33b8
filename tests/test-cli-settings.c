/* test-cli-settings.c — agent-cli's options for what the requests ask
 *
 * - /cli-settings/openai: --temperature, --top-p, --seed, --stop (twice),
 *   --presence-penalty, --frequency-penalty, --tool-choice NAME,
 *   --no-parallel-tool-calls, --provider-option (dotted, twice) and
 *   --header (twice) in the body and headers the server receives.
 * - /cli-settings/ollama: --top-k, --keep-alive, --context-window (the
 *   num_ctx), --provider-option options.mirostat=2 beside them.
 * - /cli-settings/anthropic: cache_control by default, none with
 *   --no-prompt-cache; the usage lines carry cached-input-tokens and
 *   cache-creation-input-tokens.
 * - /cli-settings/refused: each bad value refused by the option's name,
 *   before any request; a setting the provider does not take fails the
 *   turn naming the provider and the setting.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-cli.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* The base URL of @server for @provider: the root for the APIs whose own
 * has no /v1 */
static char *
base_url (AgentTestServer *server,
          const char      *provider)
{
  const char *url = agent_test_server_get_base_url (server);

  if (g_str_equal (provider, "openai"))
    return g_strdup (url);
  return g_strndup (url, strlen (url) - strlen ("/v1"));
}

static void
test_openai (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *body;

  agent_test_add_text_answer (server, "openai", "Done.", NULL);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS (
    "--json", "--base-url", agent_test_server_get_base_url (server),
    "--tool", "calculator",
    "--temperature", "0.7", "--top-p", "0.5", "--seed", "-12345678901",
    "--stop", "END", "--stop", "User:", "--presence-penalty", "1", "--frequency-penalty", "-1.5",
    "--tool-choice", "calculator", "--no-parallel-tool-calls",
    "--provider-option", "metadata.user=\"me\"", "--provider-option", "metadata.tags=[1,2]",
    "--header", "X-Title=Agent CLI", "--header", "HTTP-Referer=https://example.org/a=b",
    "Go"));
  agent_test_process_assert_exit (cli, 0);

  body = agent_test_request_object (server, 0);
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.7);
  g_assert_cmpfloat (json_object_get_double_member (body, "top_p"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (body, "seed"), ==, G_GINT64_CONSTANT (-12345678901));
  agent_test_assert_json (json_object_get_member (body, "stop"), "[\"END\", \"User:\"]");
  g_assert_cmpfloat (json_object_get_double_member (body, "presence_penalty"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (body, "frequency_penalty"), ==, -1.5);
  agent_test_assert_json (json_object_get_member (body, "tool_choice"),
                          "{\"type\":\"function\",\"function\":{\"name\":\"calculator\"}}");
  g_assert_false (json_object_get_boolean_member (body, "parallel_tool_calls"));
  agent_test_assert_json (json_object_get_member (body, "metadata"),
                          "{\"user\":\"me\",\"tags\":[1,2]}");
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "X-Title"), ==, "Agent CLI");
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "HTTP-Referer"), ==,
                   "https://example.org/a=b");
}

static void
test_ollama (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *url = base_url (server, "ollama");
  JsonObject *body;

  agent_test_add_text_answer (server, "ollama", "Done.", NULL);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS (
    "--json", "--provider", "ollama", "--base-url", url, "--model", "llama3.2",
    "--top-k", "20", "--keep-alive", "30m", "--context-window", "12288",
    "--provider-option", "options.mirostat=2", "Go"));
  agent_test_process_assert_exit (cli, 0);

  body = agent_test_request_object (server, 0);
  agent_test_assert_json (json_object_get_member (body, "options"),
                          "{\"top_k\":20,\"num_ctx\":12288,\"mirostat\":2}");
  g_assert_cmpstr (json_object_get_string_member (body, "keep_alive"), ==, "30m");
}

static guint
count_marks (JsonObject *body)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), body);
  guint n = 0;

  text = json_to_string (node, FALSE);
  for (const char *p = text; (p = strstr (p, "\"cache_control\"")) != NULL; p++)
    n++;
  return n;
}

static void
test_anthropic (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) no_cache = NULL;
  g_autofree char *url = base_url (server, "anthropic");
  const AgentTestAnswerUsage usage = { 20, 5, 2048, 512 };
  JsonObject *line;
  JsonObject *counts;

  agent_test_add_text_answer (server, "anthropic", "Done.", &usage);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--provider", "anthropic",
                                                  "--base-url", url, "--system", "Be brief.",
                                                  "Go"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpuint (count_marks (agent_test_request_object (server, 0)), ==, 2);

  /* Both lines that carry usage */
  line = agent_test_process_nth_event (cli, "step-finished", 0);
  counts = json_object_get_object_member (line, "usage");
  g_assert_cmpint (json_object_get_int_member (counts, "prompt-tokens"), ==, 20 + 2048 + 512);
  g_assert_cmpint (json_object_get_int_member (counts, "cached-input-tokens"), ==, 2048);
  g_assert_cmpint (json_object_get_int_member (counts, "cache-creation-input-tokens"), ==, 512);
  counts = json_object_get_object_member (agent_test_process_last_event (cli), "usage");
  g_assert_cmpint (json_object_get_int_member (counts, "cached-input-tokens"), ==, 2048);
  g_assert_cmpint (json_object_get_int_member (counts, "cache-creation-input-tokens"), ==, 512);

  agent_test_add_text_answer (server, "anthropic", "Done.", NULL);
  no_cache = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--provider", "anthropic",
                                                       "--base-url", url, "--system", "Be brief.",
                                                       "--no-prompt-cache", "Go"));
  agent_test_process_assert_exit (no_cache, 0);
  g_assert_cmpuint (count_marks (agent_test_request_object (server, 1)), ==, 0);
  /* Not reported: not in the line */
  counts = json_object_get_object_member (agent_test_process_last_event (no_cache), "usage");
  g_assert_false (json_object_has_member (counts, "cached-input-tokens"));
}

static void
test_refused (void)
{
  static const struct {
    const char *option;
    const char *value;
  } bad[] = {
    { "--temperature", "-0.5" },
    { "--temperature", "hot" },
    { "--temperature", "nan" },
    { "--top-p", "1.5" },
    { "--top-k", "0" },
    { "--top-k", "ten" },
    { "--seed", "1.5" },
    { "--presence-penalty", "2.5" },
    { "--frequency-penalty", "inf" },
    { "--tool-choice", "" },
    { "--provider-option", "mirostat" },
    { "--provider-option", "options..mirostat=2" },
    { "--provider-option", "route=fallback" },
    { "--header", "X Title=a" },
    { "--header", "=a" },
    { "--keep-alive", "soon" },
    { "--stop", "" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      const char *message;

      cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      bad[i].option, bad[i].value, "Go"));
      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, "invalid-argument");
      g_test_message ("%s %s: %s", bad[i].option, bad[i].value, message);
      agent_test_assert_contains (message, bad[i].option);
    }
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  /* A setting the API does not take: the turn fails, naming both */
  {
    g_autoptr(AgentTestProcess) cli = NULL;
    g_autofree char *url = base_url (server, "anthropic");
    const char *message;

    cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--provider", "anthropic",
                                                    "--base-url", url, "--seed", "7", "Go"));
    agent_test_process_assert_exit (cli, 1);
    message = agent_test_cli_assert_error (cli, "invalid-argument");
    agent_test_assert_contains (message, "Anthropic");
    agent_test_assert_contains (message, "seed");
    g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-settings/openai", test_openai);
  g_test_add_func ("/cli-settings/ollama", test_ollama);
  g_test_add_func ("/cli-settings/anthropic", test_anthropic);
  g_test_add_func ("/cli-settings/refused", test_refused);

  return g_test_run ();
}
