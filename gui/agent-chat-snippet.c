/* agent-chat-snippet.c
 *
 * The words around a search match, for the sidebar: the store gives them as
 * they are in the message (Markdown: "**", "`", "#", "[text](url)"…), as
 * Pango markup with each matched word in <b>. Shown in one line that is cut
 * at its end, a match far into it would not be seen: the snippet is made
 * plain text on one line, without the Markdown's marks, and starts a few
 * words before the first match.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-chat-snippet.h"

typedef struct
{
  gunichar c;
  gboolean match;
} Char;

/* The characters of @markup (its entities read) and whether each is in <b> */
static GArray *
read_markup (const char *markup)
{
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (Char));
  gboolean match = FALSE;
  const char *p = markup;

  while (*p != '\0')
    {
      Char one = { 0, match };

      if (g_str_has_prefix (p, "<b>") || g_str_has_prefix (p, "</b>"))
        {
          match = p[1] != '/';
          p += match ? 3 : 4;
          continue;
        }
      if (*p == '&')
        {
          static const struct { const char *entity; gunichar c; } entities[] = {
            { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
            { "&apos;", '\'' }, { "&#39;", '\'' },
          };
          const char *end = strchr (p, ';');
          gboolean known = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (entities); i++)
            if (g_str_has_prefix (p, entities[i].entity))
              {
                one.c = entities[i].c;
                p += strlen (entities[i].entity);
                known = TRUE;
                break;
              }
          if (!known && end != NULL && p[1] == '#')
            {
              one.c = (gunichar) (p[2] == 'x' ? g_ascii_strtoull (p + 3, NULL, 16)
                                              : g_ascii_strtoull (p + 2, NULL, 10));
              p = end + 1;
              known = g_unichar_validate (one.c);
            }
          if (!known)
            {
              one.c = '&';
              p++;
            }
        }
      else
        {
          one.c = g_utf8_get_char_validated (p, -1);
          if (one.c == (gunichar) -1 || one.c == (gunichar) -2)
            break;
          p = g_utf8_next_char (p);
        }
      g_array_append_val (chars, one);
    }
  return chars;
}

static gboolean
is_word (gunichar c)
{
  return g_unichar_isalnum (c);
}

/* Whether the Markdown mark at @i is only a mark: emphasis ("*", "_", "~")
 * at the edge of a word, code ("`"), headings ("#") and quotes (">") */
static gboolean
is_mark (GArray *chars,
         guint   i)
{
  gunichar c = g_array_index (chars, Char, i).c;
  gunichar before = i > 0 ? g_array_index (chars, Char, i - 1).c : ' ';
  gunichar after = i + 1 < chars->len ? g_array_index (chars, Char, i + 1).c : ' ';

  switch (c)
    {
    case '`':
    case '#':
    case '>':
    case '|':
      return TRUE;
    case '*':
    case '_':
    case '~':
      return !(is_word (before) && is_word (after));
    default:
      return FALSE;
    }
}

/* "[text](url)" keeps its text */
static guint
skip_link_target (GArray *chars,
                  guint   i)
{
  guint j;

  if (i + 1 >= chars->len || g_array_index (chars, Char, i).c != ']' ||
      g_array_index (chars, Char, i + 1).c != '(')
    return i;
  for (j = i + 2; j < chars->len; j++)
    {
      gunichar c = g_array_index (chars, Char, j).c;

      if (c == ')')
        return j;
      if (g_unichar_isspace (c))
        return i;
    }
  return i;
}

/* Without the marks, on one line, spaces collapsed */
static GArray *
plain (GArray *chars)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Char));

  for (guint i = 0; i < chars->len; i++)
    {
      Char one = g_array_index (chars, Char, i);
      guint end = skip_link_target (chars, i);

      if (end != i)
        {
          i = end;
          continue;
        }
      if (one.c == '[' || one.c == ']' || is_mark (chars, i))
        continue;
      if (g_unichar_isspace (one.c))
        {
          one.c = ' ';
          if (out->len == 0 || g_array_index (out, Char, out->len - 1).c == ' ')
            continue;
        }
      g_array_append_val (out, one);
    }
  while (out->len > 0 && g_array_index (out, Char, out->len - 1).c == ' ')
    g_array_set_size (out, out->len - 1);
  return out;
}

/**
 * agent_chat_snippet_to_markup:
 * @snippet: a snippet as [method@Agent.SearchResult.get_snippet] gives it
 * @context: how many characters to keep before the first match, at most
 *
 * Returns: (transfer full): Pango markup: the snippet's text without its
 *   Markdown marks, on one line, starting at most @context characters (at
 *   a word's start) before the first match, with "…" where it was cut; the
 *   matches in <b>
 */
char *
agent_chat_snippet_to_markup (const char *snippet,
                              guint       context)
{
  g_autoptr(GArray) chars = read_markup (snippet ? snippet : "");
  g_autoptr(GArray) text = plain (chars);
  g_autoptr(GString) markup = g_string_new (NULL);
  guint first = 0;
  guint start = 0;
  gboolean open = FALSE;

  while (first < text->len && !g_array_index (text, Char, first).match)
    first++;
  if (first < text->len && first > context)
    {
      start = first - context;
      /* From the start of a word */
      while (start < first && g_array_index (text, Char, start - 1).c != ' ')
        start++;
      g_string_append (markup, "…");
    }
  /* The store's own cut mark is not doubled */
  if (start > 0 && start < text->len && g_array_index (text, Char, start).c == 0x2026)
    start++;

  for (guint i = start; i < text->len; i++)
    {
      Char one = g_array_index (text, Char, i);
      char utf8[8] = { 0, };

      if (one.match != open)
        {
          g_string_append (markup, one.match ? "<b>" : "</b>");
          open = one.match;
        }
      switch (one.c)
        {
        case '&':
          g_string_append (markup, "&amp;");
          break;
        case '<':
          g_string_append (markup, "&lt;");
          break;
        case '>':
          g_string_append (markup, "&gt;");
          break;
        default:
          g_unichar_to_utf8 (one.c, utf8);
          g_string_append (markup, utf8);
        }
    }
  if (open)
    g_string_append (markup, "</b>");
  return g_string_free (g_steal_pointer (&markup), FALSE);
}
