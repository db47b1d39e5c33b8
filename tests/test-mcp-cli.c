/* test-mcp-cli.c — agent-cli --mcp-config, as a black box
 *
 * agent-cli reads an mcpServers file, starts server-everything, reports
 * each server, offers its tools to the model (the in-process OpenAI test
 * server) and runs the one the model calls, with approval as for any tool.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define NOT_APPROVED "Not run: this tool needs the user's approval"

/* A configuration of server-everything (with @extra members), and, if
 * @broken, a server that cannot start */
static void
config_init (AgentTestMcpConfig *self,
             const char         *extra,
             gboolean            broken)
{
  g_autofree char *server = agent_test_mcp_server_path ("server-everything");
  g_autofree char *text = NULL;

  text = g_strdup_printf ("{\"mcpServers\":{"
                          "%s"
                          "\"everything\":{\"command\":\"node\",\"args\":[\"%s\",\"stdio\"]%s},"
                          "\"off\":{\"command\":\"off\",\"disabled\":true}}}",
                          broken ? "\"broken\":{\"command\":\"false\"}," : "", server,
                          extra ? extra : "");
  agent_test_mcp_config_init (self, "agent-mcp-cli", text);
}

/* The model calls echo, then answers "Echoed." */
static void
script_echo (AgentTestServer *server)
{
  static const char * const answer[] = { "Echoed.", NULL };
  AgentTestToolChunk chunk = { 0, "call_e", "echo", "{\"message\":\"hi from the cli\"}" };

  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);
}

/* No controlling terminal, so no one to ask (setsid) */
static AgentTestProcess *
run_without_terminal (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  AgentTestProcess *cli;

  g_ptr_array_add (argv, (char *) agent_test_find_program ("AGENT_CLI", "cli", "agent-cli"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  cli = agent_test_process_spawn ("setsid", NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                  (const char * const *) argv->pdata);
  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);
  return cli;
}

static void
test_turn (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *event;
  JsonArray *tools;
  gboolean has_echo = FALSE;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  script_echo (server);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Echo it"));
  agent_test_process_assert_exit (cli, 0);

  /* Each server first: the disabled one says so */
  event = agent_test_process_nth_event (cli, "mcp-server", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "everything");
  g_assert_cmpstr (agent_test_get_string (event, "state"), ==, "ready");
  g_assert_cmpstr (agent_test_get_string (event, "protocol"), ==, "2025-11-25");
  tools = json_object_get_array_member (event, "tools");
  for (guint i = 0; i < json_array_get_length (tools); i++)
    has_echo |= g_str_equal (json_array_get_string_element (tools, i), "echo");
  g_assert_true (has_echo);
  event = agent_test_process_nth_event (cli, "mcp-server", 1);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "off");
  g_assert_cmpstr (agent_test_get_string (event, "state"), ==, "disabled");

  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_e"), ==, "Echo: hi from the cli");
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_e"), ==,
                   "Echo: hi from the cli");
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Echoed.");

  agent_test_mcp_config_clear (&config);
}

/* AGENT_DEBUG is one list of keys: "http,mcp" logs both the HTTP
 * exchanges with the model and the messages to and from the MCP server. */
static void
test_debug_keys (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  script_echo (server);

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("AGENT_DEBUG=http,mcp"), NULL,
                                 AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Echo it"));
  agent_test_process_assert_exit (cli, 0);

  /* HTTP: the request to the model */
  g_assert_nonnull (strstr (cli->err->str, "/v1/chat/completions"));
  /* MCP: what went to the server and what came back */
  g_assert_nonnull (strstr (cli->err->str, "[everything] \u2192 "));
  g_assert_nonnull (strstr (cli->err->str, "\"method\":\"initialize\""));
  g_assert_nonnull (strstr (cli->err->str, "[everything] \u2190 "));

  agent_test_mcp_config_clear (&config);
}

/* Without a terminal nor --yes, an MCP tool is not run; unless its server
 * is trusted. */
static void
test_approval (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) denied = NULL;
  g_autoptr(AgentTestProcess) trusted = NULL;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  script_echo (server);
  denied = run_without_terminal (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Echo it"));
  agent_test_process_assert_exit (denied, 0);
  g_assert_true (g_str_has_prefix (agent_test_cli_call_error (denied, "call_e"), NOT_APPROVED));
  agent_test_mcp_config_clear (&config);

  config_init (&config, ",\"trusted\":true", FALSE);
  script_echo (server);
  trusted = run_without_terminal (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                   "--base-url",
                                                   agent_test_server_get_base_url (server),
                                                   "Echo it"));
  agent_test_process_assert_exit (trusted, 0);
  g_assert_cmpstr (agent_test_cli_call_result (trusted, "call_e"), ==, "Echo: hi from the cli");
  agent_test_mcp_config_clear (&config);
}

/* A server changes a tool's description mid-conversation: agent-cli says
 * so, as a line of its own with --json */
static void
test_tool_changed (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *path = g_build_filename (agent_test_mcp_dir (), "features-server.mjs", NULL);
  g_autofree char *text = NULL;
  static const char * const answer[] = { "Done.", NULL };
  AgentTestToolChunk chunk = { 0, "call_h", "turn-hostile", "{}" };
  JsonObject *event;
  JsonArray *changes;
  guint n_changed = 0;
  AgentTestMcpConfig config;

  text = g_strdup_printf ("{\"mcpServers\":{\"features\":{\"command\":\"node\","
                          "\"args\":[\"%s\"]}}}", path);
  config.dir = agent_test_make_dir ("agent-mcp-cli");
  config.path = agent_test_write_file (config.dir, "mcp.json", text, -1);
  agent_test_openai_add_tool_response (server, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (server, answer, 1, 1);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Go"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_h"), ==, "changed");

  event = agent_test_process_nth_event (cli, "mcp-tool-changed", 0);
  g_assert_nonnull (event);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "features");
  g_assert_cmpstr (agent_test_get_string (event, "server"), ==, "features");
  g_assert_cmpstr (agent_test_get_string (event, "tool"), ==, "plain");
  g_assert_nonnull (strstr (agent_test_get_string (event, "description"), "id_rsa"));
  changes = json_object_get_array_member (event, "changes");
  g_assert_cmpuint (json_array_get_length (changes), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (changes, 0), ==, "description");
  /* Only the tool that changed */
  for (guint i = 0; i < cli->events->len; i++)
    n_changed += g_str_equal (agent_test_event_type (g_ptr_array_index (cli->events, i)),
                              "mcp-tool-changed");
  g_assert_cmpuint (n_changed, ==, 1);

  agent_test_mcp_config_clear (&config);
}

/* --mcp-resource: the resource's text goes with the first prompt; one
 * that cannot be read stops agent-cli before anything is sent */
static void
test_resource (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) missing = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;
  static const char * const answer[] = { "Read.", NULL };
  g_autofree char *request = NULL;
  JsonObject *event;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  agent_test_openai_add_text_response (server, answer, 1, 1);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                  "--mcp-resource",
                                                  "everything:demo://resource/dynamic/text/7",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "What does it say?"));
  agent_test_process_assert_exit (cli, 0);
  event = agent_test_process_nth_event (cli, "attachment", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==,
                   "demo://resource/dynamic/text/7");
  g_assert_cmpstr (agent_test_get_string (event, "mime_type"), ==, "text/plain");
  request = json_to_string (agent_test_server_get_request_body (server, 0), FALSE);
  g_assert_nonnull (strstr (request, "Resource 7: This is a plaintext resource"));
  g_assert_nonnull (strstr (request, "What does it say?"));
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Read.");

  /* A resource the server does not have: nothing is sent */
  missing = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                      "--mcp-resource",
                                                      "everything:demo://nothing",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "Hi"));
  agent_test_process_assert_exit (missing, 1);
  g_assert_nonnull (strstr (missing->out->str, "demo://nothing"));
  unknown = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                      "--mcp-resource", "nowhere:x://y",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "Hi"));
  agent_test_process_assert_exit (unknown, 1);
  g_assert_nonnull (strstr (unknown->out->str, "nowhere"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  agent_test_mcp_config_clear (&config);
}

/* --mcp-prompt: the prompt's messages start the conversation; without a
 * PROMPT, its last message is the first turn */
static void
test_prompt (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) alone = NULL;
  g_autoptr(AgentTestProcess) before = NULL;
  g_autoptr(AgentTestProcess) missing = NULL;
  static const char * const answer[] = { "Sunny.", NULL };
  g_autofree char *request = NULL;
  JsonArray *messages;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  agent_test_openai_add_text_response (server, answer, 1, 1);
  alone = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                    "--mcp-prompt", "everything:args-prompt",
                                                    "--mcp-arg", "city=Lyon",
                                                    "--base-url",
                                                    agent_test_server_get_base_url (server)));
  agent_test_process_assert_exit (alone, 0);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (server, 0), ==,
                   "What's weather in Lyon?");
  g_assert_cmpstr (agent_test_cli_done_content (alone), ==, "Sunny.");

  /* With a PROMPT: the prompt's two messages come first */
  agent_test_openai_add_text_response (server, answer, 1, 1);
  before = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                     "--mcp-prompt", "everything:resource-prompt",
                                                     "--mcp-arg", "resourceType=Text",
                                                     "--mcp-arg", "resourceId=2",
                                                     "--base-url",
                                                     agent_test_server_get_base_url (server),
                                                     "Summarize it"));
  agent_test_process_assert_exit (before, 0);
  messages = agent_test_openai_get_messages (server, 1);
  g_assert_cmpuint (json_array_get_length (messages), >=, 3);
  request = json_to_string (agent_test_server_get_request_body (server, 1), FALSE);
  g_assert_nonnull (strstr (request, "This prompt includes the Text resource with id: 2"));
  g_assert_nonnull (strstr (request, "Resource 2: This is a plaintext resource"));
  g_assert_cmpstr (agent_test_openai_get_last_user_content (server, 1), ==, "Summarize it");

  /* A required argument left out: the server's words, nothing sent */
  missing = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", config.path,
                                                      "--mcp-prompt", "everything:args-prompt",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (server)));
  agent_test_process_assert_exit (missing, 1);
  g_assert_nonnull (strstr (missing->out->str, "args-prompt"));
  g_assert_nonnull (strstr (missing->out->str, "city"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);

  agent_test_mcp_config_clear (&config);
}

/* A server that fails is reported and left out; the others work */
static void
test_failed_server (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  JsonObject *event;
  AgentTestMcpConfig config;

  config_init (&config, NULL, TRUE);
  script_echo (server);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--mcp-config", config.path,
                                                  "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "Echo it"));
  agent_test_process_assert_exit (cli, 0);
  event = agent_test_process_nth_event (cli, "mcp-server", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "broken");
  g_assert_cmpstr (agent_test_get_string (event, "state"), ==, "failed");
  g_assert_cmpstr (agent_test_get_string (event, "code"), ==, "network");
  g_assert_cmpstr (agent_test_get_string (event, "message"), ==,
                   "The MCP server “broken” exited with status 1");
  g_assert_cmpstr (agent_test_cli_call_result (cli, "call_e"), ==, "Echo: hi from the cli");

  /* Plain output says so on stderr */
  script_echo (server);
  plain = agent_test_cli_run (AGENT_TEST_ARGS ("--yes", "--mcp-config", config.path,
                                               "--base-url",
                                               agent_test_server_get_base_url (server),
                                               "Echo it"));
  agent_test_process_assert_exit (plain, 0);
  agent_test_assert_contains (plain->err->str, "MCP server “broken” is left out: The MCP server "
                                               "“broken” exited with status 1");
  agent_test_assert_contains (plain->err->str, "MCP server “everything”: ");
  g_assert_cmpstr (plain->out->str, ==, "Echoed.\n");

  agent_test_mcp_config_clear (&config);
}

static void
test_bad_config (void)
{
  g_autoptr(AgentTestProcess) missing = NULL;
  g_autoptr(AgentTestProcess) invalid = NULL;
  g_autofree char *dir = agent_test_make_dir ("agent-mcp-cli");
  g_autofree char *path = agent_test_write_file (dir, "mcp.json", "{\"mcpServers\":{\"a\":{}}}",
                                                 -1);

  missing = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config",
                                                      "/nonexistent/mcp.json", "Hi"));
  agent_test_process_assert_exit (missing, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (missing, "invalid-argument"),
                              "The MCP configuration could not be read");

  invalid = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--mcp-config", path, "Hi"));
  agent_test_process_assert_exit (invalid, 1);
  g_assert_cmpstr (agent_test_cli_assert_error (invalid, "invalid-argument"), ==,
                   "MCP server “a” needs either a “command” or a “url”");

  g_assert_no_errno (g_unlink (path));
  agent_test_remove_dir (dir);
}

static void
test_list_tools (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestMcpConfig config;

  config_init (&config, NULL, FALSE);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--list-tools", "--mcp-config", config.path));
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_str_has_prefix (cli->out->str, "calculator\nread_file\nfetch_url\necho\n"));
  agent_test_assert_contains (cli->out->str, "\ntrigger-long-running-operation\n");
  agent_test_mcp_config_clear (&config);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/cli/turn", test_turn);
  g_test_add_func ("/mcp/cli/debug-keys", test_debug_keys);
  g_test_add_func ("/mcp/cli/approval", test_approval);
  g_test_add_func ("/mcp/cli/failed-server", test_failed_server);
  g_test_add_func ("/mcp/cli/bad-config", test_bad_config);
  g_test_add_func ("/mcp/cli/list-tools", test_list_tools);
  g_test_add_func ("/mcp/cli/tool-changed", test_tool_changed);
  g_test_add_func ("/mcp/cli/resource", test_resource);
  g_test_add_func ("/mcp/cli/prompt", test_prompt);

  return g_test_run ();
}
