/* test-document-index.c — AgentDocumentIndex and the search_documents tool
 *
 * A copy of tests/data/documents (ten short files on distinct topics, a
 * hidden folder and a picture) in a temporary folder, indexed into a real
 * SQLite file through a loopback embedding server with fixed vectors
 * (agent-test-embedder.c).
 *
 * - /document-index/recall: each topic's question finds its file first;
 *   hidden files and the picture are left out; the tool gives the same.
 * - /document-index/changed: a second update embeds nothing; a changed file
 *   alone is embedded again; a deleted file is dropped.
 * - /document-index/cancel: cancelled in the middle of a request, the index
 *   keeps whole files only, and the next update does the rest.
 * - /document-index/server-error: a file whose chunks the server refuses
 *   fails after its retries, the others are indexed; a passing 503 is
 *   retried and gets through.
 * - /document-index/progress: files-done grows one by one up to
 *   files-total, notified on the main thread.
 * - /document-index/large: a file of 150 chunks goes in requests of at most
 *   64; one over the size limit fails naming the file and the limit.
 * - /document-index/tool-arguments: bad arguments are errors saying why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <utime.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-embedder.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestEmbedder  *embedder;
  AgentProvider      *provider;
  AgentDocumentIndex *index;
  char               *folder;
  char               *db_path;
  GPtrArray          *indexed;   /* paths, from file-indexed */
  GPtrArray          *failed;    /* paths, from file-failed */
  GPtrArray          *errors;    /* of GError, from file-failed */
} Fixture;

static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        {
          copy_tree (source, target);
          continue;
        }
      g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (target, contents, len, NULL));
    }
}

static void
indexed_cb (AgentDocumentIndex *index,
            const char         *path,
            guint               n_chunks,
            Fixture            *f)
{
  g_assert_cmpuint (n_chunks, >, 0);
  g_ptr_array_add (f->indexed, g_strdup (path));
}

static void
failed_cb (AgentDocumentIndex *index,
           const char         *path,
           const GError       *error,
           Fixture            *f)
{
  g_ptr_array_add (f->failed, g_strdup (path));
  g_ptr_array_add (f->errors, g_error_copy (error));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "data", "documents", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("document-index-XXXXXX", &error);
  const char *folders[2] = { NULL, NULL };

  g_assert_no_error (error);
  f->folder = g_build_filename (tmp, "docs", NULL);
  f->db_path = g_build_filename (tmp, "index", "documents.db", NULL);
  copy_tree (corpus, f->folder);

  f->embedder = agent_test_embedder_new ();
  f->provider = agent_test_embedder_provider_new (f->embedder);
  f->index = agent_document_index_new (f->db_path, f->provider, NULL, &error);
  g_assert_no_error (error);
  folders[0] = f->folder;
  agent_document_index_set_folders (f->index, folders);
  f->indexed = g_ptr_array_new_with_free_func (g_free);
  f->failed = g_ptr_array_new_with_free_func (g_free);
  f->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  g_signal_connect (f->index, "file-indexed", G_CALLBACK (indexed_cb), f);
  g_signal_connect (f->index, "file-failed", G_CALLBACK (failed_cb), f);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* A worker thread drops its task, and the task its index, a moment after
 * the task's callback ran: no source of the main loop tells when */
static void
wait_for_workers (AgentDocumentIndex *index)
{
  for (guint i = 0; i < 30000 && g_atomic_int_get (&G_OBJECT (index)->ref_count) > 1; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *tmp = g_path_get_dirname (f->folder);

  wait_for_workers (f->index);
  g_assert_finalize_object (f->index);
  g_assert_finalize_object (f->provider);
  agent_test_embedder_free (f->embedder);
  remove_tree (tmp);
  g_free (f->folder);
  g_free (f->db_path);
  g_ptr_array_unref (f->indexed);
  g_ptr_array_unref (f->failed);
  g_ptr_array_unref (f->errors);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
update (Fixture       *f,
        GCancellable  *cancellable,
        GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  g_ptr_array_set_size (f->indexed, 0);
  g_ptr_array_set_size (f->failed, 0);
  g_ptr_array_set_size (f->errors, 0);
  agent_document_index_update_async (f->index, cancellable, done_cb, &result);
  g_assert_true (agent_document_index_get_indexing (f->index));
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (agent_document_index_get_indexing (f->index));
  return agent_document_index_update_finish (f->index, result, error);
}

static JsonArray *
search (Fixture    *f,
        const char *query,
        guint       max_results)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) hits = NULL;

  agent_document_index_search_async (f->index, query, max_results, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  hits = agent_document_index_search_finish (f->index, result, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (hits));
  return json_array_ref (json_node_get_array (hits));
}

static const char *
hit_path (JsonArray *hits,
          guint      i)
{
  return json_object_get_string_member (json_array_get_object_element (hits, i), "path");
}

static gboolean
has_path_ending (GPtrArray  *paths,
                 const char *suffix)
{
  for (guint i = 0; i < paths->len; i++)
    if (g_str_has_suffix (paths->pdata[i], suffix))
      return TRUE;
  return FALSE;
}

static const struct
{
  const char *question;
  const char *file;
} topics[] = {
  { "feeding a starter and baking a loaf with a dark crust", "/sourdough.md" },
  { "puncture in the inner tube of my bike wheel", "/bicycle.txt" },
  { "why are there two high tides every day, moon and ocean", "/tides.md" },
  { "best first moves: castle early, develop knights and bishops", "/chess.txt" },
  { "queen cells in the hive mean the colony will swarm", "/beekeeping.md" },
  { "renewal form, photographs and fee for travelling abroad", "/passport.txt" },
  { "magma chamber, lava and ash when it erupts", "/volcano.md" },
  { "turning the heap of leaves and grass clippings into soil", "/notes/compost.txt" },
  { "cast on stitches with wool and needles", "/notes/knitting.md" },
  { "mirror or lens, aperture to see a faint galaxy", "/notes/telescope.txt" },
};

static void
test_recall (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (update (f, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->failed->len, ==, 0);
  g_assert_cmpuint (f->indexed->len, ==, G_N_ELEMENTS (topics));
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, G_N_ELEMENTS (topics));
  g_assert_cmpuint (agent_document_index_get_n_chunks (f->index), >=, G_N_ELEMENTS (topics));
  g_assert_false (has_path_ending (f->indexed, "ignored.txt"));
  g_assert_false (has_path_ending (f->indexed, "picture.png"));

  for (guint i = 0; i < G_N_ELEMENTS (topics); i++)
    {
      g_autoptr(JsonArray) hits = search (f, topics[i].question, 3);
      JsonObject *best;

      g_assert_cmpuint (json_array_get_length (hits), ==, 3);
      best = json_array_get_object_element (hits, 0);
      g_test_message ("%s → %s", topics[i].question, hit_path (hits, 0));
      g_assert_true (g_str_has_suffix (hit_path (hits, 0), topics[i].file));
      g_assert_true (g_str_has_prefix (hit_path (hits, 0), f->folder));
      g_assert_cmpfloat (json_object_get_double_member (best, "score"), >,
                         json_object_get_double_member (json_array_get_object_element (hits, 1),
                                                        "score"));
      g_assert_cmpint (json_object_get_int_member (best, "first_line"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (best, "start"), ==, 0);
      g_assert_nonnull (strstr (json_object_get_string_member (best, "text"), "\n"));
    }

  /* An index opened again holds the same */
  {
    g_autoptr(AgentDocumentIndex) again = agent_document_index_new (f->db_path, f->provider,
                                                                    NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (agent_document_index_get_n_files (again), ==, G_N_ELEMENTS (topics));
  }
}

static void
invoked_cb (GObject    *object,
            GParamSpec *pspec,
            gpointer    user_data)
{
  *(gboolean *) user_data = TRUE;
}

static char *
call_tool (AgentTool  *tool,
           const char *arguments,
           gboolean   *is_error)
{
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "search_documents", arguments);
  g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
  gboolean completed = FALSE;

  g_signal_connect (invocation, "notify::completed", G_CALLBACK (invoked_cb), &completed);
  agent_tool_invoke (tool, invocation);
  if (!agent_tool_invocation_is_completed (invocation))
    agent_test_wait_for (&completed);
  return agent_tool_invocation_dup_result (invocation, is_error);
}

static void
test_tool (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentTool) tool = agent_search_documents_tool_new (f->index);
  g_autofree char *result = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  gboolean is_error = TRUE;

  g_assert_true (update (f, NULL, &error));
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "search_documents");
  g_assert_false (agent_tool_get_requires_approval (tool));

  result = call_tool (tool, "{\"query\": \"queen cells in the hive\", \"max_results\": 2}",
                      &is_error);
  g_assert_false (is_error);
  parsed = agent_test_parse_json (result);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (parsed)), ==, 2);
  g_assert_true (g_str_has_suffix (hit_path (json_node_get_array (parsed), 0),
                                   "/beekeeping.md"));
  g_clear_pointer (&result, g_free);
  g_clear_pointer (&parsed, json_node_unref);

  /* Five unless said */
  result = call_tool (tool, "{\"query\": \"lava\"}", &is_error);
  g_assert_false (is_error);
  parsed = agent_test_parse_json (result);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (parsed)), ==, 5);
  g_clear_pointer (&result, g_free);

  result = call_tool (tool, "{\"query\": \"lava\", \"max_results\": 21}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (result, "“max_results” must be a whole number from 1 to 20");
  g_clear_pointer (&result, g_free);

  result = call_tool (tool, "{\"query\": \"lava\", \"max_results\": 2.5}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (result, "max_results");
  g_clear_pointer (&result, g_free);

  result = call_tool (tool, "{\"query\": 3}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (result, "“query” must be a string");
  g_clear_pointer (&result, g_free);

  result = call_tool (tool, "{}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (result, "“query”");
}

static void
touch (const char *path,
       const char *append)
{
  g_autofree char *contents = NULL;
  g_autofree char *changed = NULL;
  GStatBuf st;
  struct utimbuf times;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  changed = g_strconcat (contents, append, NULL);
  g_assert_true (g_file_set_contents (path, changed, -1, NULL));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  times.actime = st.st_atime;
  times.modtime = st.st_mtime + 10;
  g_assert_cmpint (g_utime (path, &times), ==, 0);
}

static void
test_changed (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *chess = g_build_filename (f->folder, "chess.txt", NULL);
  g_autofree char *volcano = g_build_filename (f->folder, "volcano.md", NULL);
  guint before;

  g_assert_true (update (f, NULL, &error));
  before = f->embedder->n_requests;
  g_assert_cmpuint (before, ==, G_N_ELEMENTS (topics));

  /* Nothing changed: nothing is embedded */
  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (f->embedder->n_requests, ==, before);
  g_assert_cmpuint (f->indexed->len, ==, 0);
  g_assert_cmpuint (agent_document_index_get_files_done (f->index), ==, G_N_ELEMENTS (topics));

  /* One file changed: it alone is embedded again */
  touch (chess, "\nThe en passant capture surprises beginners.\n");
  g_assert_true (update (f, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->embedder->n_requests, ==, before + 1);
  g_assert_cmpuint (f->indexed->len, ==, 1);
  g_assert_cmpstr (f->indexed->pdata[0], ==, chess);
  {
    g_autoptr(JsonArray) hits = search (f, "en passant capture", 1);

    g_assert_cmpstr (hit_path (hits, 0), ==, chess);
  }

  /* A deleted file is dropped */
  g_assert_cmpint (g_unlink (volcano), ==, 0);
  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, G_N_ELEMENTS (topics) - 1);
  g_assert_cmpuint (f->embedder->n_requests, ==, before + 2);   /* and the search's */
  {
    g_autoptr(JsonArray) hits = search (f, "magma chamber, lava and ash", 20);

    for (guint i = 0; i < json_array_get_length (hits); i++)
      g_assert_cmpstr (hit_path (hits, i), !=, volcano);
  }

  /* A folder no longer indexed drops its files */
  agent_document_index_set_folders (f->index, NULL);
  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, 0);
  g_assert_cmpuint (agent_document_index_get_n_chunks (f->index), ==, 0);
}

static void
cancel_on_third (AgentTestEmbedder *embedder,
                 JsonArray         *texts,
                 gpointer           user_data)
{
  if (embedder->n_requests == 3)
    g_cancellable_cancel (user_data);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  guint n_chunks;

  f->embedder->hook = cancel_on_third;
  f->embedder->hook_data = cancellable;
  g_assert_false (update (f, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* Two whole files, not the third whose request was cancelled */
  g_assert_cmpuint (f->indexed->len, ==, 2);
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, 2);
  n_chunks = agent_document_index_get_n_chunks (f->index);
  g_assert_cmpuint (n_chunks, >=, 2);

  /* The next update does the other eight */
  f->embedder->hook = NULL;
  g_assert_true (update (f, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->indexed->len, ==, G_N_ELEMENTS (topics) - 2);
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, G_N_ELEMENTS (topics));
  g_assert_cmpuint (f->embedder->n_requests, ==, 3 + G_N_ELEMENTS (topics) - 2);
}

static void
test_server_error (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *knitting = g_build_filename (f->folder, "notes", "knitting.md", NULL);
  const GError *failure;

  /* knitting.md is refused each time: tried 4 times, then failed; the
   * first request (beekeeping.md) meets a passing 503 and gets through */
  f->embedder->fail_word = g_strdup ("garter");
  f->embedder->n_transient = 1;
  g_assert_true (update (f, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->failed->len, ==, 1);
  g_assert_cmpstr (f->failed->pdata[0], ==, knitting);
  failure = f->errors->pdata[0];
  g_assert_true (g_error_matches (failure, AGENT_ERROR, AGENT_ERROR_HTTP));
  g_assert_cmpuint (agent_error_get_http_status (failure), ==, 500);
  agent_test_assert_contains (failure->message, knitting);
  g_assert_null (strstr (failure->message, "sk-embedder-test-key"));
  g_assert_cmpuint (f->indexed->len, ==, G_N_ELEMENTS (topics) - 1);
  g_assert_cmpuint (agent_document_index_get_n_files (f->index), ==, G_N_ELEMENTS (topics) - 1);
  /* 10 files, one retry of the 503, three retries of the 500 */
  g_assert_cmpuint (f->embedder->n_requests, ==, G_N_ELEMENTS (topics) + 1 + 3);

  /* Fixed on the server: the next update indexes it */
  g_clear_pointer (&f->embedder->fail_word, g_free);
  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (f->indexed->len, ==, 1);
  g_assert_cmpstr (f->indexed->pdata[0], ==, knitting);
}

typedef struct
{
  GArray  *done;
  guint    total;
  GThread *thread;
} Progress;

static void
progress_cb (GObject    *object,
             GParamSpec *pspec,
             Progress   *progress)
{
  guint value = agent_document_index_get_files_done (AGENT_DOCUMENT_INDEX (object));

  g_assert_true (g_thread_self () == progress->thread);
  g_array_append_val (progress->done, value);
  progress->total = agent_document_index_get_files_total (AGENT_DOCUMENT_INDEX (object));
}

static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (guint));
  Progress progress = { done, 0, g_thread_self () };
  gulong handler = g_signal_connect (f->index, "notify::files-done", G_CALLBACK (progress_cb),
                                     &progress);

  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (agent_document_index_get_files_total (f->index), ==, G_N_ELEMENTS (topics));
  g_assert_cmpuint (done->len, ==, G_N_ELEMENTS (topics));
  for (guint i = 0; i < done->len; i++)
    g_assert_cmpuint (g_array_index (done, guint, i), ==, i + 1);
  g_assert_cmpuint (progress.total, ==, G_N_ELEMENTS (topics));

  /* The next update starts from 0 again and counts every file */
  g_array_set_size (done, 0);
  g_assert_true (update (f, NULL, &error));
  g_assert_cmpuint (done->len, ==, G_N_ELEMENTS (topics) + 1);
  g_assert_cmpuint (g_array_index (done, guint, 0), ==, 0);
  for (guint i = 1; i < done->len; i++)
    g_assert_cmpuint (g_array_index (done, guint, i), ==, i);
  g_signal_handler_disconnect (f->index, handler);
}

static void
test_large (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *big = g_build_filename (f->folder, "big.md", NULL);
  g_autofree char *huge = g_build_filename (f->folder, "huge.txt", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_big_requests = 0;
  guint n_full = 0;
  const GError *failure;

  for (guint i = 0; i < 150; i++)
    {
      g_string_append_printf (text, "## Section %u\n\n", i);
      for (guint j = 0; j < 18; j++)
        g_string_append_printf (text, "Paragraph %u of section %u about lighthouses. ", j, i);
      g_string_append (text, "\n\n");
    }
  g_assert_true (g_file_set_contents (big, text->str, text->len, NULL));
  g_string_set_size (text, 0);
  for (guint i = 0; i < 8000; i++)
    g_string_append (text, "too big to be indexed\n");
  g_assert_true (g_file_set_contents (huge, text->str, text->len, NULL));
  agent_document_index_set_max_file_size (f->index, 150000);
  g_assert_cmpuint (agent_document_index_get_max_file_size (f->index), ==, 150000);
  g_assert_cmpuint (text->len, >, 150000);

  g_assert_true (update (f, NULL, &error));
  g_assert_no_error (error);

  /* big.md went in full requests of 64 and the rest */
  for (guint i = 0; i < f->embedder->batch_sizes->len; i++)
    {
      guint size = g_array_index (f->embedder->batch_sizes, guint, i);

      g_assert_cmpuint (size, <=, 64);
      if (size > 1)
        n_big_requests++;
      if (size == 64)
        n_full++;
    }
  g_assert_cmpuint (n_big_requests, >=, 3);
  g_assert_cmpuint (n_full, >=, 2);
  g_assert_true (has_path_ending (f->indexed, "/big.md"));
  g_assert_cmpuint (agent_document_index_get_n_chunks (f->index), >=, 150);

  g_assert_cmpuint (f->failed->len, ==, 1);
  g_assert_cmpstr (f->failed->pdata[0], ==, huge);
  failure = f->errors->pdata[0];
  g_assert_error (failure, AGENT_ERROR, AGENT_ERROR_LIMIT);
  agent_test_assert_contains (failure->message, huge);
  agent_test_assert_contains (failure->message, "150.0");
  for (guint i = 0; i < f->embedder->texts->len; i++)
    g_assert_null (strstr (f->embedder->texts->pdata[i], "too big to be indexed"));
}

static void
test_bad_index (void)
{
  g_autoptr(AgentTestEmbedder) embedder = agent_test_embedder_new ();
  g_autoptr(AgentProvider) provider = agent_test_embedder_provider_new (embedder);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("document-index-XXXXXX", NULL);
  g_autofree char *junk = g_build_filename (tmp, "junk.db", NULL);
  AgentDocumentIndex *index;

  g_assert_true (g_file_set_contents (junk, "this is not an SQLite file, not at all......", -1,
                                      NULL));
  index = agent_document_index_new (junk, provider, "m", &error);
  g_assert_null (index);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (error->message, junk);
  g_unlink (junk);
  g_rmdir (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/document-index/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("recall", test_recall);
  ADD ("tool", test_tool);
  ADD ("changed", test_changed);
  ADD ("cancel", test_cancel);
  ADD ("server-error", test_server_error);
  ADD ("progress", test_progress);
  ADD ("large", test_large);
#undef ADD
  g_test_add_func ("/document-index/bad-index", test_bad_index);

  return g_test_run ();
}
