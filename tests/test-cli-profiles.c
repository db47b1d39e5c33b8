/* test-cli-profiles.c — agent-cli's --profile, --profiles, --save-profile
 * and $AGENT_PROFILE, as a black box: the profiles file the library
 * writes, agent-cli talking to a loopback server that sees the profile's
 * base URL, model and settings, and its API key from a real keyring
 * (gnome-keyring-daemon on a private bus) when built with one; the store
 * remembering the profile of a conversation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"
#if AGENT_HAS_KEYRING
# include "agent-test-keyring.h"
#endif
#if AGENT_HAS_STORE
# include "test-store-util.h"
#endif

#define KEY "sk-profile-key-41c9"

#if AGENT_HAS_KEYRING
static AgentTestKeyring service;
#endif

typedef struct
{
  AgentTestServer *server;
  char            *dir;
  char            *path;        /* the profiles file */
  char            *env_path;    /* AGENT_PROFILES=path */
} Fixture;

static const char * const hello[] = { "Hello.", NULL };

#if AGENT_HAS_KEYRING
static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}
#endif

/* The key, where agent-cli finds it: in the keyring for the profile's
 * provider and base URL when built with one, else in the variable */
static void
give_key (Fixture *fixture G_GNUC_UNUSED)
{
#if AGENT_HAS_KEYRING
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  agent_secret_store_api_key_async ("openai", agent_test_server_get_base_url (fixture->server),
                                    KEY, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (agent_secret_store_api_key_finish (result, &error));
  g_assert_no_error (error);
#endif
}

static AgentTestProcess *
run (Fixture            *fixture,
     const char         *profile_variable,
     const char * const *args)
{
  g_autofree char *variable = profile_variable ? g_strconcat ("AGENT_PROFILE=", profile_variable,
                                                              NULL)
                                               : g_strdup ("AGENT_PROFILE");
#if AGENT_HAS_KEYRING
  const char *key = "OPENAI_API_KEY";   /* unset: the keyring's */
#else
  const char *key = "OPENAI_API_KEY=" KEY;
#endif
  const char *env[] = { fixture->env_path, variable, key, NULL };
  AgentTestProcess *cli = agent_test_cli_run_full (env, NULL, args);

  g_assert_null (strstr (cli->out->str, KEY));
  g_assert_null (strstr (cli->err->str, KEY));
  return cli;
}

/* Two profiles: Work at the loopback server, its default */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = NULL;
  g_autoptr(AgentProfile) work = agent_profile_new ("Work", "openai");
  g_autoptr(AgentProfile) other = agent_profile_new ("Elsewhere", "ollama");
  g_autoptr(GError) error = NULL;

  fixture->server = agent_test_server_new ();
  fixture->dir = agent_test_make_dir ("test-cli-profiles-XXXXXX");
  fixture->path = g_build_filename (fixture->dir, "profiles.ini", NULL);
  fixture->env_path = g_strconcat ("AGENT_PROFILES=", fixture->path, NULL);

  list = agent_profile_list_new (fixture->path);
  agent_profile_set_base_url (work, agent_test_server_get_base_url (fixture->server));
  agent_profile_set_model (work, "work-model");
  agent_request_settings_set_temperature (agent_profile_get_settings (work), 0.25);
  agent_profile_set_base_url (other, "http://127.0.0.1:9");
  g_assert_true (agent_profile_list_add (list, other, &error));
  g_assert_true (agent_profile_list_add (list, work, &error));
  agent_profile_list_set_default_name (list, "Work");
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  give_key (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  agent_test_server_free (fixture->server);
  agent_test_remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
  g_free (fixture->env_path);
}

static void
assert_request (Fixture    *fixture,
                guint       index,
                const char *model,
                double      temperature)
{
  JsonNode *body = agent_test_server_get_request_body (fixture->server, index);
  JsonObject *object = json_node_get_object (body);
  g_autofree char *bearer = g_strconcat ("Bearer ", KEY, NULL);

  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, model);
  g_assert_cmpfloat (json_object_get_double_member (object, "temperature"), ==, temperature);
  g_assert_cmpstr (agent_test_server_get_request_header (fixture->server, index,
                                                         "Authorization"), ==, bearer);
}

/* --profile: the server the profile names sees its model, settings and
 * key; options given win over the profile's */
static void
test_profile (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(AgentTestProcess) chat = NULL;
  g_autoptr(AgentTestProcess) over = NULL;
  g_autoptr(AgentTestProcess) alias = NULL;

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  chat = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--profile", "Work", "Hi"));
  agent_test_process_assert_exit (chat, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 1);
  assert_request (fixture, 0, "work-model", 0.25);

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  over = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--profile", "Work", "--model",
                                              "other-model", "--temperature", "0.5", "Hi"));
  agent_test_process_assert_exit (over, 0);
  assert_request (fixture, 1, "other-model", 0.5);

  /* --provider naming the profile's API by an alias keeps the profile */
  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  alias = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--profile", "Work", "--provider",
                                               "openai-compatible", "Hi"));
  agent_test_process_assert_exit (alias, 0);
  assert_request (fixture, 2, "work-model", 0.25);
}

/* $AGENT_PROFILE, and the file's default, for a new conversation */
static void
test_default (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(AgentTestProcess) by_default = NULL;
  g_autoptr(AgentTestProcess) by_variable = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  by_default = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "Hi"));
  agent_test_process_assert_exit (by_default, 0);
  assert_request (fixture, 0, "work-model", 0.25);

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  by_variable = run (fixture, "Work", AGENT_TEST_ARGS ("--no-store", "Hi"));
  agent_test_process_assert_exit (by_variable, 0);
  assert_request (fixture, 1, "work-model", 0.25);

  unknown = run (fixture, "Nowhere", AGENT_TEST_ARGS ("--no-store", "Hi"));
  agent_test_process_assert_exit (unknown, 1);
  agent_test_assert_contains (unknown->err->str, "“Nowhere”");
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 2);
}

/* An unknown name is an error naming it and the known ones; nothing is
 * sent */
static void
test_unknown (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(AgentTestProcess) text = NULL;
  g_autoptr(AgentTestProcess) json = NULL;
  const char *message;

  text = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--profile", "Home", "Hi"));
  agent_test_process_assert_exit (text, 1);
  agent_test_assert_contains (text->err->str, "There is no profile “Home”");
  agent_test_assert_contains (text->err->str, "“Elsewhere”, “Work”");
  agent_test_assert_contains (text->err->str, fixture->path);

  json = run (fixture, NULL, AGENT_TEST_ARGS ("--json", "--no-store", "--profile", "Home", "Hi"));
  agent_test_process_parse_json (json);
  message = agent_test_cli_assert_error (json, "invalid-argument");
  agent_test_assert_contains (message, "“Home”");
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 0);
}

/* A malformed file: an error naming the file, the profile and the key */
static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) without = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  g_file_set_contents (fixture->path, "[Profile Work]\nprovider=openai\ntop-p=2\n", -1, &error);
  g_assert_no_error (error);
  cli = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--profile", "Work", "Hi"));
  agent_test_process_assert_exit (cli, 1);
  expected = g_strdup_printf ("%s: profile “Work”: top-p is “2”", fixture->path);
  agent_test_assert_contains (cli->err->str, expected);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 0);

  /* A run that needs no profile goes on */
  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  without = run (fixture, NULL, AGENT_TEST_ARGS ("--no-store", "--base-url",
                                                 agent_test_server_get_base_url (fixture->server),
                                                 "--model", "plain", "Hi"));
  agent_test_process_assert_exit (without, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 1);
}

/* --profiles: the profiles, the default marked, where the file is */
static void
test_list (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(AgentTestProcess) text = NULL;
  g_autoptr(AgentTestProcess) json = NULL;
  g_autofree char *work = NULL;
  JsonObject *first;
  JsonObject *event;

  text = run (fixture, NULL, AGENT_TEST_ARGS ("--profiles"));
  agent_test_process_assert_exit (text, 0);
  work = g_strdup_printf ("* Work\topenai\t%s\twork-model\n",
                          agent_test_server_get_base_url (fixture->server));
  agent_test_assert_contains (text->out->str, "  Elsewhere\tollama\thttp://127.0.0.1:9\t-\n");
  agent_test_assert_contains (text->out->str, work);
  agent_test_assert_contains (text->err->str, fixture->path);

  json = run (fixture, NULL, AGENT_TEST_ARGS ("--profiles", "--json"));
  agent_test_process_assert_exit (json, 0);
  agent_test_process_parse_json (json);
  g_assert_cmpuint (json->events->len, ==, 3);
  first = g_ptr_array_index (json->events, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "profiles");
  g_assert_cmpstr (json_object_get_string_member (first, "path"), ==, fixture->path);
  g_assert_cmpstr (json_object_get_string_member (first, "default"), ==, "Work");
  event = g_ptr_array_index (json->events, 2);
  g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, "profile");
  g_assert_cmpstr (json_object_get_string_member (event, "name"), ==, "Work");
  g_assert_cmpstr (json_object_get_string_member (event, "model"), ==, "work-model");
  g_assert_true (json_object_get_boolean_member (event, "default"));
  event = g_ptr_array_index (json->events, 1);
  g_assert_false (json_object_get_boolean_member (event, "default"));
  g_assert_true (json_object_get_null_member (event, "model"));
}

/* --save-profile keeps the options as a profile the library reads */
static void
test_save (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(AgentTestProcess) save = NULL;
  g_autoptr(AgentTestProcess) again = NULL;
  g_autoptr(AgentTestProcess) bad_url = NULL;
  g_autoptr(AgentTestProcess) password = NULL;
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(GError) error = NULL;
  AgentProfile *saved;

  save = run (fixture, NULL, AGENT_TEST_ARGS ("--save-profile", "Laptop", "--provider", "ollama",
                                              "--base-url", "http://127.0.0.1:11434",
                                              "--model", "qwen3"));
  agent_test_process_assert_exit (save, 0);
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  saved = agent_profile_list_lookup (list, "Laptop");
  g_assert_nonnull (saved);
  g_assert_cmpstr (agent_profile_get_provider (saved), ==, "ollama");
  g_assert_cmpstr (agent_profile_get_base_url (saved), ==, "http://127.0.0.1:11434");
  g_assert_cmpstr (agent_profile_get_model (saved), ==, "qwen3");
  /* The others and the default stay */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);
  g_assert_cmpstr (agent_profile_list_get_default_name (list), ==, "Work");

  agent_test_assert_contains (save->err->str, "“Laptop”");

  again = run (fixture, NULL, AGENT_TEST_ARGS ("--save-profile", "Laptop"));
  agent_test_process_assert_exit (again, 1);
  agent_test_assert_contains (again->err->str, "“Laptop”");

  /* What the file could not hold is refused, the file unchanged */
  bad_url = run (fixture, NULL, AGENT_TEST_ARGS ("--save-profile", "Odd", "--base-url", "ftp://x"));
  agent_test_process_assert_exit (bad_url, 1);
  agent_test_assert_contains (bad_url->err->str, "--base-url: “ftp://x” is not an http or https URL");
  password = run (fixture, NULL, AGENT_TEST_ARGS ("--save-profile", "Odd", "--base-url",
                                                  "http://me:hunter2@127.0.0.1:1"));
  agent_test_process_assert_exit (password, 1);
  g_assert_null (strstr (password->err->str, "hunter2"));
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  g_assert_null (agent_profile_list_lookup (list, "Odd"));
}

#if AGENT_HAS_STORE
/* A new kept conversation remembers its profile; --continue goes on with
 * it (as the file says now), unless --profile says otherwise */
static void
test_remembered (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(AgentTestProcess) first = NULL;
  g_autoptr(AgentTestProcess) second = NULL;
  g_autoptr(AgentTestProcess) third = NULL;
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) second_profile = agent_profile_new ("Second", "openai");
  g_autoptr(AgentTestProcess) fourth = NULL;
  g_autoptr(AgentProvider) default_provider = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  TestStore db = { 0 };

  test_store_open (&db);
  g_clear_object (&db.store);

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  first = run (fixture, NULL, AGENT_TEST_ARGS ("--store", db.path, "--profile", "Work", "Hi"));
  agent_test_process_assert_exit (first, 0);
  store = agent_store_new (db.path, &error);
  g_assert_no_error (error);
  conversation = agent_store_lookup_conversation (store, 1);
  g_assert_cmpstr (agent_conversation_get_profile (conversation), ==, "Work");
  g_clear_object (&conversation);
  g_clear_object (&store);

  /* The profile changes: the conversation goes on with it as it is now,
   * though the default is another */
  g_assert_true (agent_profile_list_load (list, &error));
  agent_profile_set_model (agent_profile_list_lookup (list, "Work"), "work-model-2");
  agent_profile_list_set_default_name (list, "Elsewhere");
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);

  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  second = run (fixture, NULL, AGENT_TEST_ARGS ("--store", db.path, "--continue", "More"));
  agent_test_process_assert_exit (second, 0);
  assert_request (fixture, 1, "work-model-2", 0.25);

  /* --profile wins, and is remembered */
  agent_profile_set_model (second_profile, "second-model");
  agent_request_settings_set_temperature (agent_profile_get_settings (second_profile), 0.75);
  agent_profile_set_base_url (second_profile, agent_test_server_get_base_url (fixture->server));
  g_assert_true (agent_profile_list_add (list, second_profile, &error));
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  third = run (fixture, NULL, AGENT_TEST_ARGS ("--store", db.path, "--continue", "--profile",
                                               "Second", "Again"));
  agent_test_process_assert_exit (third, 0);
  assert_request (fixture, 2, "second-model", 0.75);
  store = agent_store_new (db.path, &error);
  g_assert_no_error (error);
  conversation = agent_store_lookup_conversation (store, 1);
  g_assert_cmpstr (agent_conversation_get_profile (conversation), ==, "Second");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 6);
  g_clear_object (&conversation);
  g_clear_object (&store);

  /* A profile without a model: the provider's, not the one the
   * conversation was held with */
  agent_profile_set_model (second_profile, NULL);
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  agent_test_openai_add_text_response (fixture->server, hello, 1, 1);
  fourth = run (fixture, NULL, AGENT_TEST_ARGS ("--store", db.path, "--continue", "Once more"));
  agent_test_process_assert_exit (fourth, 0);
  default_provider = agent_provider_new ("openai", &error);
  g_assert_no_error (error);
  assert_request (fixture, 3, agent_provider_get_model (default_provider), 0.75);

  test_store_close (&db);
}
#endif

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
  g_test_add ("/cli/profiles/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("profile", test_profile);
  ADD ("default", test_default);
  ADD ("unknown", test_unknown);
  ADD ("malformed", test_malformed);
  ADD ("list", test_list);
  ADD ("save", test_save);
#if AGENT_HAS_STORE
  ADD ("remembered", test_remembered);
#endif
#undef ADD

  status = g_test_run ();
#if AGENT_HAS_KEYRING
  agent_test_keyring_stop (&service);
#endif
  return status;
}
