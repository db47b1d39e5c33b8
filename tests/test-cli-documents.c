/* test-cli-documents.c — agent-cli's --index, --documents-db,
 * --embedding-model and --tool search_documents, as a black box against
 * one loopback server: fixed embeddings (agent-test-embedder.c) and a
 * model that calls search_documents, then answers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "agent-test-cli.h"
#include "agent-test-embedder.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

typedef struct
{
  guint n_chats;
} Chat;

/* The model: its first step calls search_documents, its second answers */
static void
chat (AgentTestServer *server,
      const char      *path,
      JsonNode        *body,
      gpointer         user_data)
{
  static const char * const answer[] = { "Patch the tube.", NULL };
  AgentTestToolChunk call = { 0, "call_d", "search_documents",
                              "{\"query\": \"puncture in the inner tube of my bike wheel\", "
                              "\"max_results\": 2}" };
  Chat *state = user_data;

  if (state->n_chats++ % 2 == 0)
    agent_test_openai_add_tool_response (server, &call, 1, 5, 5);
  else
    agent_test_openai_add_text_response (server, answer, 1, 1);
}

static char *
make_tmp (void)
{
  g_autoptr(GError) error = NULL;
  char *tmp = g_dir_make_tmp ("cli-documents-XXXXXX", &error);

  g_assert_no_error (error);
  return tmp;
}

static void
test_index_and_search (void)
{
  g_autoptr(AgentTestEmbedder) embedder = agent_test_embedder_new ();
  g_autoptr(AgentTestProcess) first = NULL;
  g_autoptr(AgentTestProcess) again = NULL;
  g_autoptr(AgentTestProcess) plain = NULL;
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "data", "documents", NULL);
  g_autofree char *tmp = make_tmp ();
  g_autofree char *db = g_build_filename (tmp, "docs.db", NULL);
  g_autofree char *wal = g_strconcat (db, "-wal", NULL);
  g_autofree char *shm = g_strconcat (db, "-shm", NULL);
  const char *base = agent_test_server_get_base_url (embedder->server);
  Chat state = { 0 };
  g_autoptr(JsonNode) hits = NULL;
  JsonObject *indexed;
  guint requests;

  embedder->chat = chat;
  embedder->chat_data = &state;

  first = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", base, "--model",
                                                    "chat-model", "--embedding-model",
                                                    "test-embed", "--index", corpus,
                                                    "--documents-db", db, "--tool",
                                                    "search_documents", "My tyre is flat"));
  agent_test_process_assert_exit (first, 0);
  g_assert_cmpuint (agent_test_process_count_events (first, "document-indexed"), ==, 10);
  g_assert_cmpuint (agent_test_process_count_events (first, "document-failed"), ==, 0);
  indexed = agent_test_process_nth_event (first, "document-indexed", 0);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (indexed, "path"), corpus));
  g_assert_cmpint (json_object_get_int_member (indexed, "chunks"), >=, 1);
  g_assert_cmpint (json_object_get_int_member (
                     agent_test_process_nth_event (first, "documents-updated", 0), "files"),
                   ==, 10);
  g_assert_cmpstr (agent_test_cli_done_content (first), ==, "Patch the tube.");
  hits = agent_test_parse_json (agent_test_cli_call_result (first, "call_d"));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (hits)), ==, 2);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (
                                     json_array_get_object_element (json_node_get_array (hits),
                                                                    0), "path"),
                                   "/bicycle.txt"));
  g_assert_true (g_file_test (db, G_FILE_TEST_EXISTS));
  /* Ten files and the question, each a request of the embedding model */
  g_assert_cmpuint (embedder->n_requests, ==, 11);

  /* Again: nothing changed, nothing embedded but the question */
  requests = embedder->n_requests;
  again = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", base, "--model",
                                                    "chat-model", "--embedding-model",
                                                    "test-embed", "--index", corpus,
                                                    "--documents-db", db, "--tool",
                                                    "search_documents", "My tyre is flat"));
  agent_test_process_assert_exit (again, 0);
  g_assert_cmpuint (agent_test_process_count_events (again, "document-indexed"), ==, 0);
  g_assert_cmpuint (embedder->n_requests, ==, requests + 1);

  /* Without --json, progress is on standard error */
  plain = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", base, "--model", "chat-model",
                                               "--embedding-model", "test-embed", "--index",
                                               corpus, "--documents-db", db, "--tool",
                                               "search_documents", "My tyre is flat"));
  agent_test_process_assert_exit (plain, 0);
  agent_test_assert_contains (plain->err->str, "10 files");
  agent_test_assert_contains (plain->out->str, "Patch the tube.");

  g_unlink (db);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (tmp);
}

static void
test_errors (void)
{
  g_autoptr(AgentTestProcess) no_index = NULL;
  g_autoptr(AgentTestProcess) not_folder = NULL;
  g_autofree char *tmp = make_tmp ();
  g_autofree char *db = g_build_filename (tmp, "none.db", NULL);
  g_autofree char *file = g_build_filename (tmp, "file.txt", NULL);

  /* search_documents with no index: said so, before any request */
  no_index = agent_test_cli_run (AGENT_TEST_ARGS ("--tool", "search_documents",
                                                  "--documents-db", db, "Hi"));
  agent_test_process_assert_exit (no_index, 1);
  agent_test_assert_contains (no_index->err->str, "search_documents needs a document index");
  agent_test_assert_contains (no_index->err->str, db);
  g_assert_false (g_file_test (db, G_FILE_TEST_EXISTS));

  g_assert_true (g_file_set_contents (file, "text", -1, NULL));
  not_folder = agent_test_cli_run (AGENT_TEST_ARGS ("--index", file, "--documents-db", db,
                                                    "--base-url", "http://127.0.0.1:9/v1",
                                                    "Hi"));
  agent_test_process_assert_exit (not_folder, 1);
  agent_test_assert_contains (not_folder->err->str, "--index needs a folder");
  agent_test_assert_contains (not_folder->err->str, file);

  g_unlink (file);
  g_unlink (db);
  g_rmdir (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-documents/index-and-search", test_index_and_search);
  g_test_add_func ("/cli-documents/errors", test_errors);

  return g_test_run ();
}
