/* test-document-db.c — the document index's SQLite file
 *
 * Vectors are made here (a text's letter counts, a-z: real arithmetic),
 * chunks by the chunker; a real SQLite file in a temporary folder.
 *
 * - /document-db/search: three files on three topics; a query finds the
 *   right file's chunk first, with its path, ordinal, byte range and text,
 *   and the scores go down.
 * - /document-db/current: a file is current for its mtime, size and model
 *   only.
 * - /document-db/replace: putting a file again replaces its chunks: the
 *   new text is found, the old is gone.
 * - /document-db/remove: a removed file is no longer listed nor found.
 * - /document-db/reopen: what was put is there after the file is reopened.
 * - /document-db/other-model: vectors of another model are not compared.
 * - /document-db/not-a-database: a file that is not SQLite is an error
 *   naming it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "documents/agent-chunker-private.h"
#include "documents/agent-document-db-private.h"
#include "agent-test-util.h"

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = agent_test_make_dir ("document-db");
  f->path = g_build_filename (f->dir, "sub", "documents.db", NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *sub = g_path_get_dirname (f->path);

  /* (The index's folder, made by the open) */
  if (g_file_test (sub, G_FILE_TEST_IS_DIR))
    agent_test_remove_dir (sub);
  agent_test_remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static AgentEmbeddings *
letters (const char * const *texts,
         const char         *model)
{
  guint n = g_strv_length ((char **) texts);
  float *values = g_new0 (float, n * 26);
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GError) error = NULL;
  AgentEmbeddings *embeddings;

  for (guint i = 0; i < n; i++)
    for (const char *p = texts[i]; *p != '\0'; p++)
      if (g_ascii_isalpha (*p))
        values[i * 26 + (g_ascii_tolower (*p) - 'a')] += 1;
  data = g_bytes_new_take (values, n * 26 * sizeof (float));
  embeddings = agent_embeddings_new (model, 26, data, &error);
  g_assert_no_error (error);
  return embeddings;
}

static void
put (AgentDocumentDb *db,
     const char      *path,
     gint64           mtime,
     const char      *text,
     const char      *model)
{
  g_autoptr(GArray) chunks = _agent_chunk_text (text, strlen (text), 64, 8);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AgentEmbeddings) vectors = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < chunks->len; i++)
    {
      AgentChunk *chunk = &g_array_index (chunks, AgentChunk, i);

      g_ptr_array_add (texts, g_strndup (text + chunk->start, chunk->end - chunk->start));
    }
  g_ptr_array_add (texts, NULL);
  vectors = letters ((const char * const *) texts->pdata, model);
  g_assert_true (_agent_document_db_put_file (db, path, mtime, strlen (text), text, chunks,
                                              vectors, &error));
  g_assert_no_error (error);
}

static GPtrArray *
search (AgentDocumentDb *db,
        const char      *query,
        const char      *model,
        guint            k)
{
  const char *texts[] = { query, NULL };
  g_autoptr(AgentEmbeddings) vector = letters (texts, model);
  g_autoptr(GError) error = NULL;
  GPtrArray *hits = _agent_document_db_search (db, vector, k, &error);

  g_assert_no_error (error);
  return hits;
}

#define HIT(hits, i) ((AgentDocumentHit *) (hits)->pdata[i])

static const char zoo[] = "zebra zoo zigzag zip. buzz fizz jazz quiz.";
static const char vowels[] = "aaa eee iii ooo uuu aeiou aeiou. a e i o u.";
static const char consonants[] = "kkk ttt ppp rst kpt trk. ktp rtk pkt.";

static void
put_three (AgentDocumentDb *db)
{
  put (db, "/docs/zoo.md", 1, zoo, "m");
  put (db, "/docs/vowels.txt", 1, vowels, "m");
  put (db, "/docs/consonants.txt", 1, consonants, "m");
}

/* A new index with the three files */
static AgentDocumentDb *
open_three (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  AgentDocumentDb *db = _agent_document_db_open (f->path, &error);

  g_assert_no_error (error);
  put_three (db);
  return db;
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(AgentDocumentDb) db = open_three (f);
  g_autoptr(GPtrArray) hits = NULL;


  hits = search (db, "jazzy zebras", "m", 2);
  g_assert_cmpuint (hits->len, ==, 2);
  g_assert_cmpstr (HIT (hits, 0)->path, ==, "/docs/zoo.md");
  g_assert_cmpuint (HIT (hits, 0)->ordinal, ==, 0);
  g_assert_cmpint (HIT (hits, 0)->start, ==, 0);
  g_assert_cmpint (HIT (hits, 0)->end, ==, strlen (zoo));
  g_assert_cmpstr (HIT (hits, 0)->text, ==, zoo);
  g_assert_cmpfloat (HIT (hits, 0)->score, >, HIT (hits, 1)->score);
  g_clear_pointer (&hits, g_ptr_array_unref);

  hits = search (db, "you eat", "m", 3);
  g_assert_cmpuint (hits->len, ==, 3);
  g_assert_cmpstr (HIT (hits, 0)->path, ==, "/docs/vowels.txt");
  g_assert_cmpfloat (HIT (hits, 1)->score, >=, HIT (hits, 2)->score);
}

static void
test_current (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(AgentDocumentDb) db = open_three (f);

  g_assert_true (_agent_document_db_is_current (db, "/docs/zoo.md", 1, strlen (zoo), "m"));
  g_assert_false (_agent_document_db_is_current (db, "/docs/zoo.md", 2, strlen (zoo), "m"));
  g_assert_false (_agent_document_db_is_current (db, "/docs/zoo.md", 1, 3, "m"));
  g_assert_false (_agent_document_db_is_current (db, "/docs/zoo.md", 1, strlen (zoo), "n"));
  g_assert_false (_agent_document_db_is_current (db, "/docs/new.md", 1, 1, "m"));
}

static void
test_replace (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentDocumentDb) db = open_three (f);
  g_autoptr(GPtrArray) hits = NULL;
  g_auto(GStrv) paths = NULL;

  put (db, "/docs/zoo.md", 2, consonants, "m");

  hits = search (db, "zebra zoo", "m", 10);
  for (guint i = 0; i < hits->len; i++)
    g_assert_null (strstr (HIT (hits, i)->text, "zebra"));
  g_assert_cmpuint (hits->len, ==, 3);
  g_assert_true (_agent_document_db_is_current (db, "/docs/zoo.md", 2, strlen (consonants),
                                                "m"));
  paths = _agent_document_db_list_paths (db, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (paths), ==, 3);
}

static void
test_remove (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentDocumentDb) db = open_three (f);
  g_autoptr(GPtrArray) hits = NULL;
  g_auto(GStrv) paths = NULL;

  g_assert_true (_agent_document_db_remove_file (db, "/docs/vowels.txt", &error));
  g_assert_no_error (error);

  paths = _agent_document_db_list_paths (db, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (paths), ==, 2);
  g_assert_cmpstr (paths[0], ==, "/docs/consonants.txt");
  g_assert_cmpstr (paths[1], ==, "/docs/zoo.md");
  hits = search (db, "aeiou", "m", 10);
  g_assert_cmpuint (hits->len, ==, 2);
  for (guint i = 0; i < hits->len; i++)
    g_assert_cmpstr (HIT (hits, i)->path, !=, "/docs/vowels.txt");
}

static void
test_reopen (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentDocumentDb) db = open_three (f);
  g_autoptr(GPtrArray) hits = NULL;

  g_clear_pointer (&db, _agent_document_db_close);

  db = _agent_document_db_open (f->path, &error);
  g_assert_no_error (error);
  hits = search (db, "kept", "m", 1);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (HIT (hits, 0)->path, ==, "/docs/consonants.txt");
}

static void
test_other_model (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AgentDocumentDb) db = open_three (f);
  g_autoptr(GPtrArray) hits = NULL;

  hits = search (db, "zebra", "another-model", 5);
  g_assert_cmpuint (hits->len, ==, 0);
}

static void
test_not_a_database (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sub = g_path_get_dirname (f->path);
  g_autoptr(AgentDocumentDb) db = NULL;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (f->path, "this is not SQLite, only words in a file "
                                      "that is long enough to have a header's length",
                                      -1, NULL));
  db = _agent_document_db_open (f->path, &error);
  g_assert_null (db);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (error->message, f->path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/document-db/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("search", test_search);
  ADD ("current", test_current);
  ADD ("replace", test_replace);
  ADD ("remove", test_remove);
  ADD ("reopen", test_reopen);
  ADD ("other-model", test_other_model);
  ADD ("not-a-database", test_not_a_database);
#undef ADD

  return g_test_run ();
}
