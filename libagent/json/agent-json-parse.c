/* agent-json-parse.c — JSON read from outside, nested at most 512 deep
 *
 * json-glib's parser, cJSON's and every walk over the trees they build
 * recurse once per level of nesting: 150 KB of "[[[…" is enough to
 * overflow a thread's stack. Every JSON that libagent reads from outside
 * the program (a server, an MCP server, a file, the store) goes through
 * one of the readers of json/, and each holds it to AGENT_JSON_MAX_DEPTH:
 *
 * - agent_json_parse(): a JsonNode, json-glib's parser after a scan that
 *   measures the nesting first (one pass, no recursion);
 * - _agent_json_parse_cjson(): the same scan, then cJSON;
 * - agent_json_parser_parse() (agent-json-read.cpp): simdjson, whose own
 *   bound is set to the same depth;
 * - AgentPartialJson: JSON still streaming, refused past the same depth.
 *
 * The scan reads what json-glib 1.6 reads: strings in double quotes (with
 * escapes) or in single quotes (without), and C comments, inside which a
 * bracket opens nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json.h"
#include "json/agent-json-private.h"

/* Past what json-glib 1.6 reads as text, when it starts at @i: a string
 * in double quotes (with escapes) or in single quotes (without), or a C
 * comment, inside which a bracket opens nothing; @i when none starts there */
static gsize
pass_text (const char *text,
           gsize       len,
           gsize       i)
{
  const char *end;

  switch (text[i])
    {
    case '"':
      for (i++; i < len && text[i] != '"'; i++)
        if (text[i] == '\\')
          i++;
      return i + 1;

    case '\'':
      end = memchr (text + i + 1, '\'', len - i - 1);
      return end != NULL ? (gsize) (end - text) + 1 : len;

    case '/':
      if (i + 1 < len && text[i + 1] == '*')
        {
          end = g_strstr_len (text + i + 2, len - i - 2, "*/");
          return end != NULL ? (gsize) (end - text) + 2 : len;
        }
      return i;

    default:
      return i;
    }
}

/* The offset of the bracket that opens level AGENT_JSON_MAX_DEPTH + 1, or
 * -1 if the text never nests that deep. */
static gssize
find_too_deep (const char *text,
               gsize       len)
{
  guint depth = 0;
  gsize i = 0;

  while (i < len)
    {
      gsize past = pass_text (text, len, i);

      if (past != i)
        {
          i = past;
          continue;
        }

      switch (text[i])
        {
        case '[':
        case '{':
          if (++depth > AGENT_JSON_MAX_DEPTH)
            return i;
          i++;
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          i++;
          break;

        default:
          i++;
          break;
        }
    }

  return -1;
}

/* Fails with AGENT_ERROR_LIMIT if @text nests arrays and objects deeper
 * than AGENT_JSON_MAX_DEPTH. */
gboolean
_agent_json_check_depth (const char  *text,
                         gsize        len,
                         GError     **error)
{
  gssize at = find_too_deep (text, len);

  if (at < 0)
    return TRUE;

  _agent_json_set_too_deep (error, at);
  return FALSE;
}

void
_agent_json_set_too_deep (GError **error,
                          gsize    at)
{
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
               _("JSON nested more than %d arrays and objects deep (at byte %lu)"),
               AGENT_JSON_MAX_DEPTH, (gulong) at);
}

gboolean
_agent_json_error_is_too_deep (const GError *error)
{
  return g_error_matches (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
}

/* The integer member @name at the top of the object @text, found without
 * building anything, however deep the rest: the id of a JSON-RPC message
 * too deep to read. FALSE if @text is no object or has no such member. */
gboolean
_agent_json_find_top_level_int (const char *text,
                                gsize       len,
                                const char *name,
                                gint64     *out)
{
  gsize name_len = strlen (name);
  guint depth = 0;
  gsize i = 0;

  while (i < len && g_ascii_isspace (text[i]))
    i++;
  if (i >= len || text[i] != '{')
    return FALSE;

  while (i < len)
    {
      gsize start;
      gsize end;

      switch (text[i])
        {
        case '[':
        case '{':
          depth++;
          i++;
          break;

        case ']':
        case '}':
          if (depth > 0 && --depth == 0)
            return FALSE;
          i++;
          break;

        case '"':
          start = ++i;
          for (; i < len && text[i] != '"'; i++)
            if (text[i] == '\\')
              i++;
          end = MIN (i, len);
          i++;
          if (depth != 1 || end - start != name_len || memcmp (text + start, name, name_len) != 0)
            break;
          /* A member's name when a colon follows */
          while (i < len && g_ascii_isspace (text[i]))
            i++;
          if (i >= len || text[i] != ':')
            break;
          for (i++; i < len && g_ascii_isspace (text[i]); i++)
            ;
          {
            g_autofree char *digits = NULL;
            gsize n = 0;

            while (i + n < len && (g_ascii_isdigit (text[i + n]) || (n == 0 && text[i] == '-')))
              n++;
            digits = g_strndup (text + i, n);
            return g_ascii_string_to_signed (digits, 10, G_MININT64, G_MAXINT64, out, NULL);
          }

        default:
          i++;
          break;
        }
    }

  return FALSE;
}

/* cJSON's parse of @text (NUL-terminated, nothing after the value), or
 * NULL if it is not JSON or nests too deeply. */
cJSON *
_agent_json_parse_cjson (const char *text)
{
  if (!_agent_json_check_depth (text, strlen (text), NULL))
    return NULL;

  return cJSON_ParseWithOpts (text, NULL, TRUE);
}

/* json-glib 1.6 reads an integer beyond 64 bits as another one
 * (12345678901234567890 as -6101065172474983726): @text with ".0" after
 * each such integer, which it then reads as the nearest double, or NULL
 * when it has none. */
static GString *
widen_big_integers (const char *text,
                    gsize       len)
{
  GString *out = NULL;
  gsize copied = 0;
  gsize i = 0;

  while (i < len)
    {
      gsize past = pass_text (text, len, i);
      gsize start = i;
      gsize digits_start;
      gsize n_digits;

      if (past != i)
        {
          i = past;
          continue;
        }

      if (text[i] != '-' && !g_ascii_isdigit (text[i]))
        {
          i++;
          continue;
        }

      for (i++; i < len && (g_ascii_isdigit (text[i]) || strchr (".eE+-", text[i])); i++)
        ;
      /* 19 digits or more, nothing but digits: maybe beyond 64 bits */
      digits_start = start + (text[start] == '-');
      n_digits = 0;
      while (digits_start + n_digits < i && g_ascii_isdigit (text[digits_start + n_digits]))
        n_digits++;
      if (n_digits >= 19 && digits_start + n_digits == i)
        {
          g_autofree char *digits = g_strndup (text + start, i - start);

          if (!g_ascii_string_to_signed (digits, 10, G_MININT64, G_MAXINT64, NULL, NULL))
            {
              if (out == NULL)
                out = g_string_sized_new (len + 16);
              g_string_append_len (out, text + copied, i - copied);
              g_string_append (out, ".0");
              copied = i;
            }
        }
    }

  if (out != NULL && copied < len)
    g_string_append_len (out, text + copied, len - copied);
  return out;
}

/**
 * agent_json_parse:
 * @text: JSON text
 * @length: the length of @text in bytes, or -1 if it ends with a NUL
 * @error: return location for a [struct@GLib.Error]
 *
 * Reads a JSON document as json-glib's [class@Json.Parser] does, but
 * refuses, before building anything, one that nests arrays and objects
 * more than [const@Agent.JSON_MAX_DEPTH] deep: json-glib's parser, and
 * every walk over a tree (serializing it, copying it, turning it into
 * Python or JavaScript values), recurses once per level, and a few hundred
 * kilobytes of `[[[…` from a server or a file would otherwise overflow the
 * stack.
 *
 * An integer beyond 64 bits is read as the nearest double (json-glib alone
 * would read 12345678901234567890 as another, negative, integer).
 *
 * This is how libagent reads every JSON document that comes from outside
 * the program; use it for the same purpose.
 *
 * Returns: (transfer full): the document's root, or %NULL with @error set:
 *   %AGENT_ERROR_LIMIT when it nests too deeply (the message says at which
 *   byte), %AGENT_ERROR_INVALID_ARGUMENT when it is not JSON (the message
 *   is json-glib's, starting with the line and column: `1:7: Parse error:
 *   …`)
 *
 * Since: 0.1
 */
JsonNode *
agent_json_parse (const char  *text,
                  gssize       length,
                  GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GString) widened = NULL;
  JsonNode *root;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = strlen (text);

  if (!_agent_json_check_depth (text, length, error))
    return NULL;

  if ((widened = widen_big_integers (text, length)) != NULL)
    {
      text = widened->str;
      length = widened->len;
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, length, &local_error))
    {
      const char *detail = local_error->message;

      /* json-glib prefixes "<data>:LINE:COLUMN: " */
      if (g_str_has_prefix (detail, "<data>:"))
        detail += strlen ("<data>:");
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT, detail);
      return NULL;
    }

  root = json_parser_steal_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The text holds no JSON value"));
      return NULL;
    }

  return root;
}
