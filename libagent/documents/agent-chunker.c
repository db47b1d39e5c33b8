/* agent-chunker.c — a text cut into chunks for embedding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "documents/agent-chunker-private.h"

/* How well a chunk ends before the byte at @pos, from worst to best */
typedef enum
{
  BREAK_NONE,       /* inside a character */
  BREAK_CHARACTER,
  BREAK_SPACE,
  BREAK_LINE,
  BREAK_PARAGRAPH,
  BREAK_HEADING,
} Break;

static gboolean
is_heading (const char *text,
            gsize       len,
            gsize       pos)
{
  while (pos < len && text[pos] == '#')
    pos++;
  return pos < len && text[pos] == ' ';
}

static Break
break_at (const char *text,
          gsize       len,
          gsize       pos)
{
  char before = text[pos - 1];

  if ((text[pos] & 0xc0) == 0x80)
    return BREAK_NONE;
  if (before != '\n')
    return g_ascii_isspace (before) ? BREAK_SPACE : BREAK_CHARACTER;
  if (text[pos] == '#' && is_heading (text, len, pos))
    return BREAK_HEADING;
  if (pos >= 2 && text[pos - 2] == '\n')
    return BREAK_PARAGRAPH;
  return BREAK_LINE;
}

static gsize
skip_space (const char *text,
            gsize       len,
            gsize       pos)
{
  while (pos < len && g_ascii_isspace (text[pos]))
    pos++;
  return pos;
}

/* Where the chunk from @start ends: the best break in the last half of
 * the target, the farthest of its kind */
static gsize
find_end (const char *text,
          gsize       len,
          gsize       start,
          gsize       target,
          Break      *kind)
{
  gsize low = start + target / 2;
  gsize best = start + target;
  Break best_kind = BREAK_NONE;

  if (len - start <= target)
    {
      *kind = BREAK_HEADING;
      return len;
    }

  for (gsize pos = start + target; pos > low && best_kind < BREAK_HEADING; pos--)
    {
      Break here = break_at (text, len, pos);

      if (here > best_kind)
        {
          best_kind = here;
          best = pos;
        }
    }
  /* Not even a character boundary in the last half: a text that is not
   * UTF-8; cut where the target is */
  *kind = best_kind;
  return best;
}

/* Documented in agent-chunker-private.h */
GArray *
_agent_chunk_text (const char *text,
                   gsize       len,
                   gsize       target,
                   gsize       overlap)
{
  GArray *chunks = g_array_new (FALSE, FALSE, sizeof (AgentChunk));
  gsize start;

  g_return_val_if_fail (text != NULL || len == 0, chunks);
  g_return_val_if_fail (target >= 16, chunks);
  g_return_val_if_fail (overlap < target / 2, chunks);

  start = skip_space (text, len, 0);
  while (start < len)
    {
      Break kind;
      gsize end = find_end (text, len, start, target, &kind);
      gsize stop = end;
      gsize next = end;

      while (stop > start && g_ascii_isspace (text[stop - 1]))
        stop--;
      /* (A chunk that adds only white space to the last one is left out) */
      if (stop > start &&
          (chunks->len == 0 || stop > g_array_index (chunks, AgentChunk, chunks->len - 1).end))
        {
          AgentChunk chunk = { start, stop };

          g_array_append_val (chunks, chunk);
        }
      if (end >= len)
        break;

      /* Cut inside a paragraph: the next chunk starts a little before, at
       * the start of a word; a paragraph or a section starts afresh */
      if (kind < BREAK_PARAGRAPH && overlap > 0)
        {
          next = end - overlap > start ? end - overlap : start + 1;
          while (next < end && !(g_ascii_isspace (text[next - 1]) &&
                                 !g_ascii_isspace (text[next])))
            next++;
        }
      start = skip_space (text, len, next);
    }

  return chunks;
}
