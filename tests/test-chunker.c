/* test-chunker.c — cutting texts into chunks for embedding
 *
 * Every result is checked for the chunker's promises: each chunk at most
 * the target, valid UTF-8 where the text is, neither starting nor ending
 * with white space, in order, overlapping the last one by at most the
 * overlap, and every byte that is not white space in some chunk.
 *
 * - /chunker/short, /chunker/blank: a short text is one chunk, trimmed;
 *   white space alone is none.
 * - /chunker/markdown: sections under headings start their own chunks.
 * - /chunker/paragraph: one long paragraph is cut at spaces, each chunk
 *   starting at a word a little before the last one ended.
 * - /chunker/no-spaces: a text of two-byte characters without a space is
 *   cut between characters.
 * - /chunker/random: seeded random texts of words, lines, paragraphs,
 *   headings and multi-byte characters, at several targets.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "documents/agent-chunker-private.h"

static GArray *
chunk_checked (const char *text,
               gsize       target,
               gsize       overlap)
{
  gsize len = strlen (text);
  GArray *chunks = _agent_chunk_text (text, len, target, overlap);
  g_autofree gboolean *covered = g_new0 (gboolean, len + 1);

  for (guint i = 0; i < chunks->len; i++)
    {
      AgentChunk *chunk = &g_array_index (chunks, AgentChunk, i);

      g_assert_cmpuint (chunk->start, <, chunk->end);
      g_assert_cmpuint (chunk->end, <=, len);
      g_assert_cmpuint (chunk->end - chunk->start, <=, target);
      g_assert_true (g_utf8_validate (text + chunk->start, chunk->end - chunk->start, NULL));
      g_assert_false (g_ascii_isspace (text[chunk->start]));
      g_assert_false (g_ascii_isspace (text[chunk->end - 1]));
      if (i > 0)
        {
          AgentChunk *last = &g_array_index (chunks, AgentChunk, i - 1);

          g_assert_cmpuint (chunk->start, >, last->start);
          g_assert_cmpuint (chunk->end, >, last->end);
          if (chunk->start < last->end)
            g_assert_cmpuint (last->end - chunk->start, <=, overlap);
        }
      for (gsize b = chunk->start; b < chunk->end; b++)
        covered[b] = TRUE;
    }
  for (gsize b = 0; b < len; b++)
    if (!g_ascii_isspace (text[b]) && !covered[b])
      g_error ("byte %" G_GSIZE_FORMAT " (“%.20s”) is in no chunk", b, text + b);

  return chunks;
}

static void
test_short (void)
{
  const char *text = "\n  A short note about bread.  \n\n";
  g_autoptr(GArray) chunks = chunk_checked (text, 1000, 100);
  AgentChunk *chunk;

  g_assert_cmpuint (chunks->len, ==, 1);
  chunk = &g_array_index (chunks, AgentChunk, 0);
  g_assert_cmpuint (chunk->start, ==, 3);
  g_assert_cmpuint (chunk->end, ==, 3 + strlen ("A short note about bread."));
}

static void
test_blank (void)
{
  g_autoptr(GArray) none = chunk_checked ("", 1000, 100);
  g_autoptr(GArray) blank = chunk_checked (" \n\n\t \n", 1000, 100);

  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (blank->len, ==, 0);
}

static char *
words (guint       n,
       const char *word)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%s%u", i > 0 ? " " : "", word, i);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_markdown (void)
{
  g_autofree char *bread = words (80, "flour");
  g_autofree char *rust = words (80, "borrow");
  g_autofree char *tea = words (80, "leaf");
  g_autofree char *text = g_strdup_printf ("# Bread\n\n%s\n\n## Rust\n\n%s\n\n## Tea\n\n%s\n",
                                           bread, rust, tea);
  g_autoptr(GArray) chunks = chunk_checked (text, 1000, 100);

  /* Each section is about 600 bytes: two do not fit in 1,000 */
  g_assert_cmpuint (chunks->len, ==, 3);
  for (guint i = 0; i < chunks->len; i++)
    g_assert_cmpint (text[g_array_index (chunks, AgentChunk, i).start], ==, '#');
}

static void
test_paragraph (void)
{
  g_autofree char *text = words (800, "word");
  g_autoptr(GArray) chunks = chunk_checked (text, 1000, 100);
  guint overlapping = 0;

  g_assert_cmpuint (chunks->len, >=, strlen (text) / 1000);
  for (guint i = 1; i < chunks->len; i++)
    {
      AgentChunk *chunk = &g_array_index (chunks, AgentChunk, i);

      /* At a word */
      g_assert_cmpint (text[chunk->start - 1], ==, ' ');
      g_assert_true (g_str_has_prefix (text + chunk->start, "word"));
      if (chunk->start < g_array_index (chunks, AgentChunk, i - 1).end)
        overlapping++;
    }
  g_assert_cmpuint (overlapping, ==, chunks->len - 1);
}

static void
test_no_spaces (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) chunks = NULL;

  for (guint i = 0; i < 3001; i++)
    g_string_append (text, "é");
  chunks = chunk_checked (text->str, 1001, 100);
  g_assert_cmpuint (chunks->len, ==, 7);
}

static void
test_random (void)
{
  static const char * const pieces[] = {
    "lorem", "ipsum", "Größe", "naïve", "日本語", "x", "supercalifragilistic", "\n", "\n\n",
    "\n\n# Heading\n", "\n## Sub heading\n\n", "\t", "  ", "#notaheading", "😀",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (46);

  for (guint round = 0; round < 200; round++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 1500);
      gsize target = g_rand_int_range (rand, 16, 1200);
      gsize overlap = g_rand_int_range (rand, 0, target / 2);
      g_autoptr(GArray) chunks = NULL;

      for (guint i = 0; i < n; i++)
        {
          g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
          g_string_append_c (text, ' ');
        }
      chunks = chunk_checked (text->str, target, overlap);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chunker/short", test_short);
  g_test_add_func ("/chunker/blank", test_blank);
  g_test_add_func ("/chunker/markdown", test_markdown);
  g_test_add_func ("/chunker/paragraph", test_paragraph);
  g_test_add_func ("/chunker/no-spaces", test_no_spaces);
  g_test_add_func ("/chunker/random", test_random);

  return g_test_run ();
}
