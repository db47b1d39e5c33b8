/* test-search-profiles.c — the web search of a profile: its key from a
 * real keyring (gnome-keyring-daemon on a private bus) when built with
 * one, for the library's agent_profile_create_search_backend_async() and
 * for agent-cli --profile NAME --tool web_search, against a loopback
 * Tavily-shaped server; agent-cli --save-profile keeping --search-provider
 * and --search-url
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-tavily.h"
#include "agent-test-util.h"
#if AGENT_HAS_KEYRING
# include "agent-test-keyring.h"
#endif

#define KEY "tvly-keyring-key-7d6c5b4a39"

#if AGENT_HAS_KEYRING
static AgentTestKeyring service;
#endif

typedef struct
{
  AgentTestServer *model;
  AgentTestTavily *tavily;
  char            *dir;
  char            *path;        /* the profiles file */
  char            *env_path;    /* AGENT_PROFILES=path */
} Fixture;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* The key where the profile finds it: in the keyring for the service and
 * its URL when built with one, else in its variable */
static void
give_key (Fixture *fixture)
{
#if AGENT_HAS_KEYRING
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  agent_secret_store_api_key_async ("tavily", fixture->tavily->base, KEY, NULL, done_cb,
                                    &result);
  wait_for (&result);
  g_assert_true (agent_secret_store_api_key_finish (result, &error));
  g_assert_no_error (error);
  g_unsetenv ("TAVILY_API_KEY");
#else
  g_setenv ("TAVILY_API_KEY", KEY, TRUE);
#endif
}

/* The profile Web: the loopback model, and Tavily at the loopback server */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = NULL;
  g_autoptr(AgentProfile) web = agent_profile_new ("Web", "openai");
  g_autoptr(GError) error = NULL;

  fixture->model = agent_test_server_new ();
  fixture->tavily = agent_test_tavily_new (KEY);
  fixture->dir = agent_test_make_dir ("test-search-profiles");
  fixture->path = g_build_filename (fixture->dir, "profiles.ini", NULL);
  fixture->env_path = g_strconcat ("AGENT_PROFILES=", fixture->path, NULL);

  list = agent_profile_list_new (fixture->path);
  agent_profile_set_base_url (web, agent_test_server_get_base_url (fixture->model));
  agent_profile_set_search_provider (web, "tavily");
  agent_profile_set_search_url (web, fixture->tavily->base);
  g_assert_true (agent_profile_list_add (list, web, &error));
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  give_key (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  agent_test_server_free (fixture->model);
  agent_test_tavily_free (fixture->tavily);
  agent_test_remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
  g_free (fixture->env_path);
}

static AgentTestProcess *
run (Fixture            *fixture,
     const char * const *args)
{
#if AGENT_HAS_KEYRING
  const char *key = "TAVILY_API_KEY";   /* unset: the keyring's */
#else
  const char *key = "TAVILY_API_KEY=" KEY;
#endif
  const char *env[] = { fixture->env_path, "AGENT_PROFILE", key, NULL };
  AgentTestProcess *cli = agent_test_cli_run_full (env, NULL, args);

  g_assert_null (strstr (cli->out->str, KEY));
  g_assert_null (strstr (cli->err->str, KEY));
  return cli;
}

/* The model calls web_search once, then answers "Done." */
static void
script_search (Fixture *fixture)
{
  static const char * const answer[] = { "Done.", NULL };
  AgentTestToolChunk chunk = { 0, "call_s", "web_search", "{\"query\": \"profiles\"}" };

  agent_test_openai_add_tool_response (fixture->model, &chunk, 1, 5, 5);
  agent_test_openai_add_text_response (fixture->model, answer, 1, 1);
}

/* The library: the profile's backend, its key from the keyring */
static void
test_library (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) results = NULL;
  g_autoptr(GError) error = NULL;
  AgentProfile *web;

  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  web = agent_profile_list_lookup (list, "Web");
  g_assert_cmpstr (agent_profile_get_search_provider (web), ==, "tavily");

  agent_profile_create_search_backend_async (web, NULL, done_cb, &result);
  wait_for (&result);
  backend = agent_profile_create_search_backend_finish (web, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (backend);

  results = agent_search_backend_search (backend, "from the keyring", 2, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (results)), ==, 2);
  g_assert_cmpstr (fixture->tavily->last_bearer, ==, "Bearer " KEY);
  g_assert_cmpstr (fixture->tavily->last_query, ==, "from the keyring");
  g_assert_cmpint (fixture->tavily->last_max_results, ==, 2);
  g_assert_finalize_object (g_steal_pointer (&backend));
}

/* agent-cli --profile Web --tool web_search: the profile's service and key */
static void
test_cli_profile (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) options = NULL;
  g_autoptr(AgentTestProcess) none = NULL;

  script_search (fixture);
  cli = run (fixture, AGENT_TEST_ARGS ("--json", "--yes", "--no-store", "--profile", "Web",
                                       "--tool", "web_search", "Search"));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (agent_test_cli_call_result (cli, "call_s"),
                              "\"url\":\"https://one.tavily.example/\"");
  g_assert_cmpuint (fixture->tavily->n_requests, ==, 1);
  g_assert_cmpstr (fixture->tavily->last_bearer, ==, "Bearer " KEY);
  g_assert_cmpstr (fixture->tavily->last_query, ==, "profiles");

  /* The options win over the profile's service; the key is found alike */
  script_search (fixture);
  options = run (fixture, AGENT_TEST_ARGS ("--json", "--yes", "--no-store", "--base-url",
                                           agent_test_server_get_base_url (fixture->model),
                                           "--tool", "web_search", "--search-provider", "tavily",
                                           "--search-url", fixture->tavily->base, "Search"));
  agent_test_process_parse_json (options);
  agent_test_process_assert_exit (options, 0);
  agent_test_assert_contains (agent_test_cli_call_result (options, "call_s"), "second");
  g_assert_cmpuint (fixture->tavily->n_requests, ==, 2);

  /* Without a profile or an option, no service: an error that says how */
  none = run (fixture, AGENT_TEST_ARGS ("--no-store", "--base-url",
                                        agent_test_server_get_base_url (fixture->model),
                                        "--tool", "web_search", "Search"));
  agent_test_process_assert_exit (none, 1);
  agent_test_assert_contains (none->err->str, "web_search needs a search service");
}

/* --save-profile keeps the search options; what the file cannot hold is
 * refused */
static void
test_cli_save (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(AgentTestProcess) save = NULL;
  g_autoptr(AgentTestProcess) searx = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;
  g_autoptr(AgentTestProcess) bad_url = NULL;
  g_autoptr(AgentTestProcess) listing = NULL;
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(GError) error = NULL;
  AgentProfile *saved;

  save = run (fixture, AGENT_TEST_ARGS ("--save-profile", "Tavily", "--provider", "ollama",
                                        "--search-provider", "tavily"));
  agent_test_process_assert_exit (save, 0);
  searx = run (fixture, AGENT_TEST_ARGS ("--save-profile", "Searx", "--search-url",
                                         "https://searx.example/"));
  agent_test_process_assert_exit (searx, 0);
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  saved = agent_profile_list_lookup (list, "Tavily");
  g_assert_cmpstr (agent_profile_get_search_provider (saved), ==, "tavily");
  g_assert_null (agent_profile_get_search_url (saved));
  saved = agent_profile_list_lookup (list, "Searx");
  g_assert_cmpstr (agent_profile_get_search_provider (saved), ==, "searxng");
  g_assert_cmpstr (agent_profile_get_search_url (saved), ==, "https://searx.example/");

  unknown = run (fixture, AGENT_TEST_ARGS ("--save-profile", "Odd", "--search-provider",
                                           "altavista"));
  agent_test_process_assert_exit (unknown, 1);
  agent_test_assert_contains (unknown->err->str, "“altavista”");
  bad_url = run (fixture, AGENT_TEST_ARGS ("--save-profile", "Odd", "--search-url", "ftp://x"));
  agent_test_process_assert_exit (bad_url, 1);
  agent_test_assert_contains (bad_url->err->str, "--search-url: “ftp://x”");
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_null (agent_profile_list_lookup (list, "Odd"));

  listing = run (fixture, AGENT_TEST_ARGS ("--json", "--profiles"));
  agent_test_process_assert_exit (listing, 0);
  agent_test_assert_contains (listing->out->str, "\"search-provider\":\"tavily\"");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
#if AGENT_HAS_KEYRING
  agent_test_keyring_start (&service);
#endif

#define ADD(name, func) \
  g_test_add ("/search-profiles/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("library", test_library);
  ADD ("cli-profile", test_cli_profile);
  ADD ("cli-save", test_cli_save);
#undef ADD

  status = g_test_run ();
#if AGENT_HAS_KEYRING
  agent_test_keyring_stop (&service);
#endif
  return status;
}
