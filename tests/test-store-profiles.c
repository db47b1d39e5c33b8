/* test-store-profiles.c — a stored conversation remembers its profile
 *
 * - /store/profiles/migrate-from-v7: a database of the schema before
 *   profiles (tests/test-store-v7.db, made by tests/make-store-v7.sh with
 *   the agent-cli of commit 594af6b) opens, migrated: every conversation
 *   has no profile, its provider, model and messages as they were.
 * - /store/profiles/remembered: the profile set on a new conversation is
 *   written with its first message, a change after is written too, and
 *   another store reads both back; NULL clears it.
 * - /store/profiles/export-import: the JSON export carries the profile's
 *   name, and an import brings it back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-util.h"
#include "test-store-util.h"

static void
test_migrate_from_v7 (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-v7");
  g_autofree char *path = test_store_copy_fixture (dir, "test-store-v7.db", "7");
  static const guint n_messages[] = { 4, 4, 2 };
  g_autofree char *version = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = agent_store_new (path, &error);
  g_assert_no_error (error);
  version = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "8");

  for (guint i = 0; i < G_N_ELEMENTS (n_messages); i++)
    {
      g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (store, i + 1);
      g_autofree char *profile = NULL;

      g_assert_nonnull (conversation);
      g_assert_null (agent_conversation_get_profile (conversation));
      g_object_get (conversation, "profile", &profile, NULL);
      g_assert_null (profile);
      g_assert_cmpstr (agent_conversation_get_provider (conversation), ==, "openai");
      g_assert_cmpstr (agent_conversation_get_model (conversation), ==, "demo");
      g_assert_true (agent_conversation_load (conversation, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==,
                        n_messages[i]);
    }

  /* And it goes on: a profile set on an old conversation is kept */
  {
    g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (store, 2);
    g_autoptr(AgentStore) again = NULL;
    g_autoptr(AgentConversation) back = NULL;

    g_assert_true (agent_conversation_set_profile (conversation, "Work", &error));
    g_assert_no_error (error);
    test_store_flush (store);
    again = agent_store_new (path, &error);
    g_assert_no_error (error);
    back = agent_store_lookup_conversation (again, 2);
    g_assert_cmpstr (agent_conversation_get_profile (back), ==, "Work");
  }
  test_store_assert_sound (path);
  agent_test_remove_dir (dir);
}

static void
test_remembered (void)
{
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hello");
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *column = NULL;
  guint notified = 0;
  gint64 id;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  g_signal_connect (conversation, "notify::profile", G_CALLBACK (agent_test_count_notify),
                    &notified);
  g_assert_true (agent_conversation_set_profile (conversation, "Local Ollama", &error));
  g_assert_no_error (error);
  g_assert_true (agent_conversation_set_profile (conversation, "Local Ollama", &error));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpstr (agent_conversation_get_profile (conversation), ==, "Local Ollama");
  test_store_append (conversation, question);
  test_store_flush (db.store);
  id = agent_conversation_get_id (conversation);
  g_assert_cmpint (id, >, 0);

  back = test_store_read_back (&db, id, &again);
  g_assert_cmpstr (agent_conversation_get_profile (back), ==, "Local Ollama");
  g_clear_object (&back);
  g_clear_object (&again);

  g_assert_true (agent_conversation_set_profile (conversation, "Cloud", &error));
  g_assert_no_error (error);
  test_store_flush (db.store);
  column = test_store_query (db.path, "SELECT profile FROM conversations");
  g_assert_cmpstr (column, ==, "Cloud");
  back = test_store_read_back (&db, id, &again);
  g_assert_cmpstr (agent_conversation_get_profile (back), ==, "Cloud");
  g_clear_object (&back);
  g_clear_object (&again);

  g_assert_true (agent_conversation_set_profile (conversation, NULL, &error));
  g_assert_cmpuint (notified, ==, 3);
  test_store_flush (db.store);
  back = test_store_read_back (&db, id, &again);
  g_assert_null (agent_conversation_get_profile (back));
  g_clear_object (&back);
  g_clear_object (&again);

  g_clear_object (&conversation);
  test_store_close (&db);
}

typedef struct
{
  AgentConversation *conversation;
  GError            *error;
  gboolean           done;
} Imported;

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Imported *imported = user_data;

  imported->conversation = agent_store_import_conversation_finish (AGENT_STORE (object), result,
                                                                   &imported->error);
  imported->done = TRUE;
}

static void
test_export_import (void)
{
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) imported = NULL;
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  Imported result = { 0 };
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  g_assert_true (agent_conversation_set_profile (conversation, "Work", &error));
  test_store_append (conversation, question);
  test_store_flush (db.store);

  json = agent_conversation_export (conversation, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  root = agent_test_parse_json (json);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "profile"), ==,
                   "Work");

  bytes = g_bytes_new (json, strlen (json));
  agent_store_import_conversation_async (db.store, bytes, NULL, imported_cb, &result);
  agent_test_wait_for (&result.done);
  g_assert_no_error (result.error);
  imported = result.conversation;
  g_assert_cmpstr (agent_conversation_get_profile (imported), ==, "Work");
  g_assert_cmpint (agent_conversation_get_id (imported), !=, agent_conversation_get_id (conversation));

  g_clear_object (&imported);
  g_clear_object (&conversation);
  test_store_close (&db);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/profiles/migrate-from-v7", test_migrate_from_v7);
  g_test_add_func ("/store/profiles/remembered", test_remembered);
  g_test_add_func ("/store/profiles/export-import", test_export_import);

  return g_test_run ();
}
