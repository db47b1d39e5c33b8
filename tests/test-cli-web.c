/* test-cli-web.c — agent-cli's --tool fetch_url and --tool web_search,
 * run as a black box against a loopback model and loopback web servers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define KEY "brave-cli-key-0123456789"

typedef struct
{
  SoupServer *server;
  char       *base;
  guint       n_requests;
  char       *key;
} Web;

static void
handle (SoupServer        *server,
        SoupServerMessage *message,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  static const char searx[] =
    "{\"results\": [{\"title\": \"Result\", \"url\": \"https://result.example/\", "
    "\"content\": \"found it\"}]}";
  static const char brave[] =
    "{\"web\": {\"results\": [{\"title\": \"Brave\", \"url\": \"https://brave.example/\", "
    "\"description\": \"braved it\"}]}}";
  static const char page[] = "<html><body><main><h1>Local page</h1></main></body></html>";
  Web *web = user_data;
  const char *key;

  web->n_requests++;
  soup_server_message_set_status (message, 200, NULL);
  if (g_str_equal (path, "/page"))
    soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC, page,
                                      strlen (page));
  else if (g_str_equal (path, "/searx/search"))
    soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, searx,
                                      strlen (searx));
  else if (g_str_equal (path, "/brave"))
    {
      key = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                          "X-Subscription-Token");
      g_free (web->key);
      web->key = g_strdup (key);
      if (g_strcmp0 (key, KEY) == 0)
        soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC,
                                          brave, strlen (brave));
      else
        soup_server_message_set_status (message, 401, NULL);
    }
  else
    soup_server_message_set_status (message, 404, NULL);
}

static Web *
web_new (void)
{
  Web *web = g_new0 (Web, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  web->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (web->server, NULL, handle, web, NULL);
  soup_server_listen_local (web->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (web->server);
  web->base = g_strdup_printf ("http://127.0.0.1:%u", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return web;
}

static void
web_free (Web *web)
{
  soup_server_disconnect (web->server);
  g_object_unref (web->server);
  g_free (web->base);
  g_free (web->key);
  g_free (web);
}

/* The model calls @name with @arguments once, then answers "Done." */
static void
script_call (AgentTestServer *model,
             const char      *name,
             const char      *arguments)
{
  static const char * const answer[] = { "Done.", NULL };
  AgentTestToolChunk chunk = { 0, "call_w", name, arguments };

  agent_test_openai_add_tool_response (model, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (model, answer, 1, 1);
}

static void
test_fetch_url (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTestServer) model = agent_test_server_new ();
  g_autoptr(AgentTestProcess) allowed = NULL;
  g_autoptr(AgentTestProcess) refused = NULL;
  g_autofree char *arguments = g_strdup_printf ("{\"url\": \"%s/page\"}", web->base);

  script_call (model, "fetch_url", arguments);
  allowed = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "fetch_url",
                                                      "--fetch-allow", "10.0.0.0/8",
                                                      "--fetch-allow", "127.0.0.1",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (model),
                                                      "Read the page"));
  agent_test_process_assert_exit (allowed, 0);
  agent_test_assert_contains (agent_test_cli_call_result (allowed, "call_w"), "# Local page");
  g_assert_cmpuint (web->n_requests, ==, 1);

  /* Without --fetch-allow, 127.0.0.1 is refused and the turn goes on */
  script_call (model, "fetch_url", arguments);
  refused = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "fetch_url",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (model),
                                                      "Read the page"));
  agent_test_process_assert_exit (refused, 0);
  agent_test_assert_contains (agent_test_cli_call_error (refused, "call_w"), "Refused to fetch");
  g_assert_cmpstr (agent_test_cli_done_content (refused), ==, "Done.");
  g_assert_cmpuint (web->n_requests, ==, 1);

  web_free (web);
}

static void
test_web_search (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTestServer) model = agent_test_server_new ();
  g_autoptr(AgentTestProcess) searx = NULL;
  g_autoptr(AgentTestProcess) brave = NULL;
  g_autoptr(AgentTestProcess) wrong = NULL;
  g_autofree char *searx_url = g_strconcat (web->base, "/searx", NULL);
  g_autofree char *brave_url = g_strconcat (web->base, "/brave", NULL);
  const char *error;

  script_call (model, "web_search", "{\"query\": \"anything\"}");
  searx = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--yes", "--tool", "web_search",
                                                    "--search-url", searx_url, "--base-url",
                                                    agent_test_server_get_base_url (model),
                                                    "Search"));
  agent_test_process_assert_exit (searx, 0);
  agent_test_assert_contains (agent_test_cli_call_result (searx, "call_w"),
                              "\"url\":\"https://result.example/\"");

  script_call (model, "web_search", "{\"query\": \"anything\"}");
  brave = agent_test_cli_run_full (AGENT_TEST_ARGS ("BRAVE_API_KEY=" KEY), NULL,
                                   AGENT_TEST_ARGS ("--json", "--yes", "--tool", "web_search",
                                                    "--search-provider", "brave",
                                                    "--search-url", brave_url, "--base-url",
                                                    agent_test_server_get_base_url (model),
                                                    "Search"));
  agent_test_process_parse_json (brave);
  agent_test_process_assert_exit (brave, 0);
  g_assert_cmpstr (web->key, ==, KEY);
  agent_test_assert_contains (agent_test_cli_call_result (brave, "call_w"), "braved it");

  /* A refused key is said so, and shown nowhere */
  script_call (model, "web_search", "{\"query\": \"anything\"}");
  wrong = agent_test_cli_run_full (AGENT_TEST_ARGS ("BRAVE_API_KEY=wrong-key-abcdefghij"), NULL,
                                   AGENT_TEST_ARGS ("--json", "--yes", "--tool", "web_search",
                                                    "--search-provider", "brave",
                                                    "--search-url", brave_url, "--base-url",
                                                    agent_test_server_get_base_url (model),
                                                    "Search"));
  agent_test_process_parse_json (wrong);
  agent_test_process_assert_exit (wrong, 0);
  error = agent_test_cli_call_error (wrong, "call_w");
  agent_test_assert_contains (error, "refused the API key");
  g_assert_null (strstr (wrong->out->str, "wrong-key"));
  g_assert_null (strstr (wrong->err->str, "wrong-key"));

  web_free (web);
}

static void
test_misconfigured (void)
{
  g_autoptr(AgentTestProcess) no_service = NULL;
  g_autoptr(AgentTestProcess) no_key = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;
  g_autoptr(AgentTestProcess) bad_host = NULL;

  no_service = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "web_search", "Hi"));
  agent_test_process_assert_exit (no_service, 1);
  agent_test_assert_contains (no_service->err->str, "web_search needs a search service");

  no_key = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "web_search", "--search-provider",
                                                "brave", "Hi"));
  agent_test_process_assert_exit (no_key, 1);
  agent_test_assert_contains (no_key->err->str, "BRAVE_API_KEY");

  unknown = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "web_search", "--search-provider",
                                                 "altavista", "Hi"));
  agent_test_process_assert_exit (unknown, 1);
  agent_test_assert_contains (unknown->err->str, "“altavista”");

  bad_host = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "fetch_url", "--fetch-allow",
                                                  "10.0.0.0/40", "Hi"));
  agent_test_process_assert_exit (bad_host, 1);
  agent_test_assert_contains (bad_host->err->str, "“10.0.0.0/40”");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-web/fetch-url", test_fetch_url);
  g_test_add_func ("/cli-web/web-search", test_web_search);
  g_test_add_func ("/cli-web/misconfigured", test_misconfigured);

  return g_test_run ();
}
