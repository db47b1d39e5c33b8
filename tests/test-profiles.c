/* test-profiles.c — AgentProfile and AgentProfileList: the shared file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include <agent.h>

#include "agent-test-tavily.h"
#include "agent-test-util.h"

#define TAVILY_KEY "tvly-profile-key-8a7b6c5d4e"

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = agent_test_make_dir ("test-profiles-XXXXXX");
  fixture->path = g_build_filename (fixture->dir, "sub", "profiles.ini", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *folder = g_path_get_dirname (fixture->path);

  /* The list makes the folder the file is in */
  if (g_file_test (folder, G_FILE_TEST_IS_DIR))
    agent_test_remove_dir (folder);
  agent_test_remove_dir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
}

static void
write_profiles (Fixture    *fixture,
                const char *contents)
{
  g_autofree char *folder = g_path_get_dirname (fixture->path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (fixture->path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
test_missing_file (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (agent_profile_list_get_path (list), ==, fixture->path);
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == AGENT_TYPE_PROFILE);
  g_assert_null (agent_profile_list_get_default_name (list));
  g_assert_finalize_object (g_steal_pointer (&list));
}

static void
test_default_path (void)
{
  g_autofree char *expected = g_build_filename (g_get_user_config_dir (), "libagent",
                                                "profiles.ini", NULL);
  g_autofree char *path = NULL;
  g_autoptr(AgentProfileList) list = NULL;

  g_unsetenv ("AGENT_PROFILES");
  path = agent_profile_list_get_default_path ();
  g_assert_cmpstr (path, ==, expected);
  list = agent_profile_list_new (NULL);
  g_assert_cmpstr (agent_profile_list_get_path (list), ==, expected);

  g_setenv ("AGENT_PROFILES", "/somewhere/else.ini", TRUE);
  g_clear_pointer (&path, g_free);
  path = agent_profile_list_get_default_path ();
  g_assert_cmpstr (path, ==, "/somewhere/else.ini");
  g_unsetenv ("AGENT_PROFILES");
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfileList) again = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) local = agent_profile_new ("Local", "ollama");
  g_autoptr(AgentProfile) cloud = agent_profile_new ("Cloud key", "openai");
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProfile) first = NULL;
  AgentProfile *profile;
  AgentRequestSettings *settings;

  agent_profile_set_base_url (local, "http://127.0.0.1:11434");
  agent_profile_set_model (local, "llama3.2");
  agent_profile_set_context_window (local, 8192);
  agent_request_settings_set_temperature (agent_profile_get_settings (local), 0.25);
  agent_request_settings_set_top_p (agent_profile_get_settings (local), 0.5);
  agent_request_settings_set_seed (agent_profile_get_settings (local), -7);
  agent_profile_set_model (cloud, "gpt-4o-mini");

  g_assert_true (agent_profile_list_add (list, local, &error));
  g_assert_no_error (error);
  g_assert_true (agent_profile_list_add (list, cloud, &error));
  g_assert_no_error (error);
  agent_profile_list_set_default_name (list, "Cloud key");
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);

  g_assert_true (agent_profile_list_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
  g_assert_cmpstr (agent_profile_list_get_default_name (again), ==, "Cloud key");

  /* The file's order */
  first = g_list_model_get_item (G_LIST_MODEL (again), 0);
  g_assert_cmpstr (agent_profile_get_name (first), ==, "Local");

  profile = agent_profile_list_lookup (again, "Local");
  g_assert_nonnull (profile);
  g_assert_cmpstr (agent_profile_get_provider (profile), ==, "ollama");
  g_assert_cmpstr (agent_profile_get_base_url (profile), ==, "http://127.0.0.1:11434");
  g_assert_cmpstr (agent_profile_get_model (profile), ==, "llama3.2");
  g_assert_cmpuint (agent_profile_get_context_window (profile), ==, 8192);
  settings = agent_profile_get_settings (profile);
  g_assert_cmpfloat (agent_request_settings_get_temperature (settings), ==, 0.25);
  g_assert_cmpfloat (agent_request_settings_get_top_p (settings), ==, 0.5);
  g_assert_cmpint (agent_request_settings_get_seed (settings), ==, -7);
  g_assert_false (agent_request_settings_is_set (settings, "top-k"));

  profile = agent_profile_list_lookup (again, "Cloud key");
  g_assert_cmpstr (agent_profile_get_provider (profile), ==, "openai");
  g_assert_null (agent_profile_get_base_url (profile));
  g_assert_cmpstr (agent_profile_get_model (profile), ==, "gpt-4o-mini");
  g_assert_false (agent_request_settings_is_set (agent_profile_get_settings (profile),
                                                 "temperature"));
  g_assert_null (agent_profile_list_lookup (again, "Nobody"));

  g_clear_object (&first);
  g_assert_finalize_object (g_steal_pointer (&again));
  g_assert_finalize_object (g_steal_pointer (&list));
}

/* Comments and keys a later version may add stay when the file is saved */
static void
test_keeps_comments (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) away = agent_profile_new ("Away", "openai");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  write_profiles (fixture,
                  "# My servers\n"
                  "[Profiles]\n"
                  "default=Home\n"
                  "\n"
                  "# The box under the desk\n"
                  "[Profile Home]\n"
                  "provider=ollama\n"
                  "color=green\n");
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  agent_profile_set_model (agent_profile_list_lookup (list, "Home"), "qwen3");
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);

  g_file_get_contents (fixture->path, &contents, NULL, &error);
  g_assert_no_error (error);
  agent_test_assert_contains (contents, "# My servers");
  agent_test_assert_contains (contents, "# The box under the desk");
  agent_test_assert_contains (contents, "[Profile Home]");
  agent_test_assert_contains (contents, "color=green");
  agent_test_assert_contains (contents, "model=qwen3");
  agent_test_assert_contains (contents, "default=Home");
  g_clear_pointer (&contents, g_free);

  /* Renamed, a profile keeps its place and the keys not known */
  g_assert_true (agent_profile_list_add (list, away, NULL));
  g_assert_true (agent_profile_list_rename (list, "Home", "House", &error));
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  g_clear_object (&list);
  list = agent_profile_list_new (fixture->path);
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  {
    g_autoptr(AgentProfile) first = g_list_model_get_item (G_LIST_MODEL (list), 0);

    g_assert_cmpstr (agent_profile_get_name (first), ==, "House");
    g_assert_cmpstr (agent_profile_get_model (first), ==, "qwen3");
  }
  g_assert_cmpstr (agent_profile_list_get_default_name (list), ==, "House");
  g_file_get_contents (fixture->path, &contents, NULL, &error);
  agent_test_assert_contains (contents, "# My servers");
  g_assert_null (strstr (contents, "[Profile Home]"));
}

typedef struct
{
  const char *contents;
  const char *message;   /* what the error says after the file's path */
} Malformed;

static const Malformed malformed[] = {
  { "[Profile A]\nprovider=ollama\ntemperature=hot\n",
    ": profile “A”: temperature is “hot”, not a number from 0 up" },
  { "[Profile A]\nprovider=ollama\ntop-p=1.5\n",
    ": profile “A”: top-p is “1.5”, not a number from 0 to 1" },
  { "[Profile A]\nprovider=ollama\nseed=1.5\n",
    ": profile “A”: seed is “1.5”, not a whole number" },
  { "[Profile A]\nprovider=ollama\ntop-k=0\n",
    ": profile “A”: top-k is “0”, not a whole number from 1 up" },
  { "[Profile A]\nprovider=ollama\ncontext-window=-1\n",
    ": profile “A”: context-window is “-1”, not a whole number of tokens" },
  { "[Profile A]\nmodel=x\n", ": profile “A”: provider is missing" },
  { "[Profile A]\nprovider=telepathy\n",
    ": profile “A”: provider is “telepathy”, not one of openai, openai-responses, "
    "anthropic, ollama, gemini" },
  { "[Profile A]\nprovider=ollama\nbase-url=ftp://user:hunter2@example.com\n",
    ": profile “A”: base-url is not an http or https URL" },
  { "[Profile A]\nprovider=ollama\nsearch-provider=altavista\n",
    ": profile “A”: search-provider is “altavista”, not one of searxng, brave, tavily" },
  { "[Profile A]\nprovider=ollama\nsearch-provider=searxng\n"
    "search-url=gopher://user:hunter2@searx.example\n",
    ": profile “A”: search-url is not an http or https URL" },
  { "[Profiles]\ndefault=B\n[Profile A]\nprovider=ollama\n",
    ": [Profiles] default is “B”, which is no profile of the file" },
  { "[Profile  A]\nprovider=ollama\n",
    ": “ A” is no profile name: it is empty or begins or ends with a space" },
  { "[Profile A\nprovider=ollama\n", ": " },
};

static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = g_strconcat (fixture->path, malformed[i].message, NULL);

      write_profiles (fixture, malformed[i].contents);
      g_assert_false (agent_profile_list_load (list, &error));
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, expected));
      g_assert_null (strstr (error->message, "hunter2"));
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
    }
}

/* A malformed file leaves the list as it was */
static void
test_malformed_keeps_list (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(GError) error = NULL;

  write_profiles (fixture, "[Profile A]\nprovider=ollama\n[Profile B]\nprovider=openai\n");
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);

  write_profiles (fixture, "[Profile A]\nprovider=ollama\ntemperature=x\n");
  g_assert_false (agent_profile_list_load (list, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2);
}

static void
test_add_rename_remove (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) a = agent_profile_new ("A", "ollama");
  g_autoptr(AgentProfile) b = agent_profile_new ("B", "openai");
  g_autoptr(AgentProfile) again = agent_profile_new ("A", "gemini");
  g_autoptr(AgentProfile) bad = agent_profile_new ("[bad]", "gemini");
  g_autoptr(GError) error = NULL;
  guint names = 0;

  g_assert_true (agent_profile_list_add (list, a, NULL));
  g_assert_true (agent_profile_list_add (list, b, NULL));
  g_assert_false (agent_profile_list_add (list, again, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“A”");
  g_clear_error (&error);
  g_assert_false (agent_profile_list_add (list, bad, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“[bad]”");
  g_clear_error (&error);

  agent_profile_list_set_default_name (list, "A");
  g_signal_connect (a, "notify::name", G_CALLBACK (agent_test_count_notify), &names);
  g_assert_true (agent_profile_list_rename (list, "A", "Alpha", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (names, ==, 1);
  g_assert_cmpstr (agent_profile_get_name (a), ==, "Alpha");
  g_assert_cmpstr (agent_profile_list_get_default_name (list), ==, "Alpha");
  g_assert_true (agent_profile_list_lookup (list, "Alpha") == a);
  g_assert_null (agent_profile_list_lookup (list, "A"));

  g_assert_false (agent_profile_list_rename (list, "Alpha", "B", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (agent_profile_list_rename (list, "Nobody", "C", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“Nobody”");
  g_clear_error (&error);

  g_assert_true (agent_profile_list_remove (list, "Alpha"));
  g_assert_false (agent_profile_list_remove (list, "Alpha"));
  g_assert_null (agent_profile_list_get_default_name (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1);

  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);
  g_clear_object (&list);
  list = agent_profile_list_new (fixture->path);
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1);
  g_assert_nonnull (agent_profile_list_lookup (list, "B"));
}

/* No secret is written: a base URL with a password is refused */
static void
test_no_password (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) profile = agent_profile_new ("A", "openai");
  g_autoptr(GError) error = NULL;

  agent_profile_set_base_url (profile, "http://me:hunter2@127.0.0.1:8080/v1");
  g_assert_true (agent_profile_list_add (list, profile, NULL));
  g_assert_false (agent_profile_list_save (list, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_null (strstr (error->message, "hunter2"));
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));

  /* Nor in the search URL */
  agent_profile_set_base_url (profile, NULL);
  agent_profile_set_search_provider (profile, "searxng");
  agent_profile_set_search_url (profile, "https://me:hunter2@searx.example");
  g_clear_error (&error);
  g_assert_false (agent_profile_list_save (list, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "search URL");
  g_assert_null (strstr (error->message, "hunter2"));
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));
}

/* A profile's web search: an older file without it loads, and it goes to
 * the file and back, without its key */
static void
test_search_round_trip (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfileList) again = agent_profile_list_new (fixture->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  AgentProfile *old, *read;
  guint notified = 0;

  write_profiles (fixture, "[Profile Old]\nprovider=ollama\nmodel=qwen3\n");
  g_assert_true (agent_profile_list_load (list, &error));
  g_assert_no_error (error);
  old = agent_profile_list_lookup (list, "Old");
  g_assert_null (agent_profile_get_search_provider (old));
  g_assert_null (agent_profile_get_search_url (old));
  g_assert_null (agent_profile_create_search_backend (old, &error));
  g_assert_no_error (error);

  g_signal_connect (old, "notify::search-provider", G_CALLBACK (agent_test_count_notify),
                    &notified);
  agent_profile_set_search_provider (old, "tavily");
  agent_profile_set_search_provider (old, "tavily");
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (old, "search-url", "https://tavily.example/api", NULL);
  g_assert_true (agent_profile_list_save (list, &error));
  g_assert_no_error (error);

  g_file_get_contents (fixture->path, &contents, NULL, &error);
  g_assert_no_error (error);
  agent_test_assert_contains (contents, "search-provider=tavily\n");
  agent_test_assert_contains (contents, "search-url=https://tavily.example/api\n");
  g_assert_null (strstr (contents, "tvly-"));

  g_assert_true (agent_profile_list_load (again, &error));
  g_assert_no_error (error);
  read = agent_profile_list_lookup (again, "Old");
  g_assert_cmpstr (agent_profile_get_search_provider (read), ==, "tavily");
  g_assert_cmpstr (agent_profile_get_search_url (read), ==, "https://tavily.example/api");
  g_assert_cmpstr (agent_profile_get_model (read), ==, "qwen3");

  /* Taken away, it leaves the file */
  agent_profile_set_search_provider (read, NULL);
  agent_profile_set_search_url (read, "");
  g_assert_null (agent_profile_get_search_url (read));
  g_assert_true (agent_profile_list_save (again, &error));
  g_clear_pointer (&contents, g_free);
  g_file_get_contents (fixture->path, &contents, NULL, &error);
  g_assert_null (strstr (contents, "search-"));
}

typedef struct
{
  GMainLoop *loop;
  guint      changes;
  guint      items_changed;
} Watch;

static void
changed_cb (AgentProfileList *list,
            Watch            *watch)
{
  watch->changes++;
  g_main_loop_quit (watch->loop);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Watch      *watch)
{
  watch->items_changed++;
}

/* What another program writes is seen, through ::changed */
static void
test_changed (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(AgentProfileList) app = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfileList) cli = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) added = agent_profile_new ("Added", "anthropic");
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProfile) held = NULL;
  Watch watch = { loop, 0, 0 };

  write_profiles (fixture, "[Profile Home]\nprovider=ollama\nmodel=old\n");
  g_assert_true (agent_profile_list_load (app, &error));
  g_assert_no_error (error);
  held = g_object_ref (agent_profile_list_lookup (app, "Home"));
  g_signal_connect (app, "changed", G_CALLBACK (changed_cb), &watch);
  g_signal_connect (app, "items-changed", G_CALLBACK (items_changed_cb), &watch);

  g_assert_true (agent_profile_list_load (cli, &error));
  agent_profile_set_model (agent_profile_list_lookup (cli, "Home"), "new");
  g_assert_true (agent_profile_list_add (cli, added, NULL));
  agent_profile_list_set_default_name (cli, "Added");
  g_assert_true (agent_profile_list_save (cli, &error));
  g_assert_no_error (error);

  g_main_loop_run (loop);
  g_assert_cmpuint (watch.changes, ==, 1);
  g_assert_cmpuint (watch.items_changed, >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (app)), ==, 2);
  g_assert_cmpstr (agent_profile_list_get_default_name (app), ==, "Added");
  /* The profile held is the same object, changed */
  g_assert_true (agent_profile_list_lookup (app, "Home") == held);
  g_assert_cmpstr (agent_profile_get_model (held), ==, "new");

  /* And back: the app's save reaches the other list */
  g_signal_connect (cli, "changed", G_CALLBACK (changed_cb), &watch);
  g_assert_true (agent_profile_list_remove (app, "Home"));
  g_assert_true (agent_profile_list_save (app, &error));
  g_assert_no_error (error);
  g_main_loop_run (loop);
  g_assert_cmpuint (watch.changes, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (cli)), ==, 1);
  g_assert_null (agent_profile_list_lookup (cli, "Home"));
}

/* The first run: no folder yet when the list is loaded; the file another
 * program makes, its folder with it, is seen */
static void
test_changed_new_folder (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(AgentProfileList) app = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfileList) cli = agent_profile_list_new (fixture->path);
  g_autoptr(AgentProfile) added = agent_profile_new ("First", "ollama");
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *folder = g_path_get_dirname (fixture->path);
  g_autoptr(GError) error = NULL;
  Watch watch = { loop, 0, 0 };

  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  g_assert_true (agent_profile_list_load (app, &error));
  g_assert_no_error (error);
  g_signal_connect (app, "changed", G_CALLBACK (changed_cb), &watch);

  g_assert_true (agent_profile_list_add (cli, added, NULL));
  g_assert_true (agent_profile_list_save (cli, &error));
  g_assert_no_error (error);

  g_main_loop_run (loop);
  g_assert_cmpuint (watch.changes, ==, 1);
  g_assert_nonnull (agent_profile_list_lookup (app, "First"));
}

static void
test_profile_properties (void)
{
  g_autoptr(AgentProfile) profile = agent_profile_new ("A", "ollama");
  g_autoptr(AgentRequestSettings) settings = NULL;
  g_autofree char *name = NULL;
  g_autofree char *provider = NULL;
  guint notified = 0;

  g_signal_connect (profile, "notify", G_CALLBACK (agent_test_count_notify), &notified);
  agent_profile_set_model (profile, "m");
  agent_profile_set_model (profile, "m");
  agent_profile_set_base_url (profile, "http://127.0.0.1:1");
  agent_profile_set_base_url (profile, "http://127.0.0.1:1");
  agent_profile_set_context_window (profile, 4096);
  agent_profile_set_context_window (profile, 4096);
  g_assert_cmpuint (notified, ==, 3);
  agent_profile_set_model (profile, "");
  g_assert_null (agent_profile_get_model (profile));

  g_object_get (profile, "name", &name, "provider", &provider, "settings", &settings, NULL);
  g_assert_cmpstr (name, ==, "A");
  g_assert_cmpstr (provider, ==, "ollama");
  g_assert_true (settings == agent_profile_get_settings (profile));
}

/* create_provider: the profile's provider, base URL, model and settings,
 * the key from the environment */
static void
test_create_provider (void)
{
  g_autoptr(AgentProfile) profile = agent_profile_new ("A", "openai");
  g_autoptr(AgentProfile) unknown = agent_profile_new ("B", "telepathy");
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  agent_profile_set_base_url (profile, "http://127.0.0.1:9/v1");
  agent_profile_set_model (profile, "small");
  agent_request_settings_set_temperature (agent_profile_get_settings (profile), 0.5);

  g_setenv ("OPENAI_API_KEY", "", TRUE);
  g_unsetenv ("OPENAI_API_KEY");
  provider = agent_profile_create_provider (profile, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_provider_get_name (provider), ==, "openai");
  g_assert_cmpstr (agent_provider_get_base_url (provider), ==, "http://127.0.0.1:9/v1");
  g_assert_cmpstr (agent_provider_get_model (provider), ==, "small");
  g_assert_cmpfloat (agent_request_settings_get_temperature (agent_provider_get_settings (provider)),
                     ==, 0.5);
  g_assert_false (agent_provider_get_has_api_key (provider));
  g_clear_object (&provider);

  g_setenv ("OPENAI_API_KEY", "sk-from-the-environment", TRUE);
  provider = agent_profile_create_provider (profile, &error);
  g_assert_no_error (error);
  g_assert_true (agent_provider_get_has_api_key (provider));
  g_unsetenv ("OPENAI_API_KEY");

  g_assert_null (agent_profile_create_provider (unknown, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“B”");
  agent_test_assert_contains (error->message, "telepathy");
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The profile's search backend, its key from the variable: the async
 * call too, without a keyring to look in (no bus) */
static void
test_create_search_backend (void)
{
  AgentTestTavily *tavily = agent_test_tavily_new (TAVILY_KEY);
  g_autoptr(AgentProfile) profile = agent_profile_new ("Web", "openai");
  g_autoptr(AgentProfile) unknown = agent_profile_new ("Odd", "openai");
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(AgentSearchBackend) from_async = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) results = NULL;
  g_autoptr(GError) error = NULL;

  agent_profile_set_search_provider (profile, "tavily");
  agent_profile_set_search_url (profile, tavily->base);

  g_unsetenv ("TAVILY_API_KEY");
  g_assert_null (agent_profile_create_search_backend (profile, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“Web”");
  agent_test_assert_contains (error->message, "TAVILY_API_KEY");
  g_clear_error (&error);

  g_setenv ("TAVILY_API_KEY", TAVILY_KEY, TRUE);
  backend = agent_profile_create_search_backend (profile, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_search_backend_get_name (backend), ==, "Tavily");
  results = agent_search_backend_search (backend, "profiles", 4, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tavily->last_bearer, ==, "Bearer " TAVILY_KEY);
  g_assert_cmpint (tavily->last_max_results, ==, 4);

  /* No Secret Service on this bus: the variable's key */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", TRUE);
  agent_profile_create_search_backend_async (profile, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  from_async = agent_profile_create_search_backend_finish (profile, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (from_async);
  g_unsetenv ("TAVILY_API_KEY");

  agent_profile_set_search_provider (unknown, "altavista");
  g_assert_null (agent_profile_create_search_backend (unknown, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“altavista”");
  g_clear_error (&error);
  agent_profile_set_search_provider (unknown, "searxng");
  g_assert_null (agent_profile_create_search_backend (unknown, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“Odd”");

  g_assert_finalize_object (g_steal_pointer (&from_async));
  agent_test_tavily_free (tavily);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/profiles/" name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("missing-file", test_missing_file);
  ADD ("round-trip", test_round_trip);
  ADD ("keeps-comments", test_keeps_comments);
  ADD ("malformed", test_malformed);
  ADD ("malformed-keeps-list", test_malformed_keeps_list);
  ADD ("add-rename-remove", test_add_rename_remove);
  ADD ("no-password", test_no_password);
  ADD ("search-round-trip", test_search_round_trip);
  ADD ("changed", test_changed);
  ADD ("changed-new-folder", test_changed_new_folder);
#undef ADD
  g_test_add_func ("/profiles/default-path", test_default_path);
  g_test_add_func ("/profiles/properties", test_profile_properties);
  g_test_add_func ("/profiles/create-provider", test_create_provider);
  g_test_add_func ("/profiles/create-search-backend", test_create_search_backend);

  return g_test_run ();
}
