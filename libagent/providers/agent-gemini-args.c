/* agent-gemini-args.c — a call's arguments as Gemini wrote them
 *
 * Gemini sends a whole call's arguments as an object inside its event
 * ({"functionCall": {"name", "args": {…}}}). Printed again from the DOM
 * reader's tree, its numbers would be simdjson's: 1e400 (beyond a double)
 * null, 1.50 as 1.5. The arguments a model wrote must reach the tool as
 * written, so the event is scanned (agent-json-scan.c) for the text of
 * each part's args, which becomes the call's arguments: every token as
 * written, without the white space between them (as the tree printed).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "json/agent-json-scan-private.h"
#include "providers/agent-gemini-private.h"

#define KEY_IS(key, len, name) ((len) == strlen (name) && memcmp ((key), (name), (len)) == 0)

/* The members of the object the scan is at; at @name, the scan stops
 * before its value. FALSE when it has no such member (or the scan failed). */
static gboolean
find_member (AgentJsonScan *scan,
             const char    *name)
{
  const char *key;
  gsize key_len;

  if (agent_json_scan_peek (scan) != AGENT_JSON_OBJECT || !agent_json_scan_object (scan))
    return FALSE;

  while (agent_json_scan_member (scan, &key, &key_len))
    {
      if (KEY_IS (key, key_len, name))
        return TRUE;
      if (!agent_json_scan_skip (scan))
        return FALSE;
    }
  return FALSE;
}

/* A part: the span of functionCall.args when it is an object */
static gboolean
scan_part (AgentJsonScan *scan,
           AgentGeminiArgs    *args)
{
  const char *key;
  gsize key_len;

  if (agent_json_scan_peek (scan) != AGENT_JSON_OBJECT)
    return agent_json_scan_skip (scan);

  agent_json_scan_object (scan);
  while (agent_json_scan_member (scan, &key, &key_len))
    {
      if (KEY_IS (key, key_len, "functionCall") && args->length == 0 &&
          agent_json_scan_peek (scan) == AGENT_JSON_OBJECT)
        {
          agent_json_scan_object (scan);
          while (agent_json_scan_member (scan, &key, &key_len))
            {
              gsize start;

              if (KEY_IS (key, key_len, "args") && args->length == 0 &&
                  agent_json_scan_peek (scan) == AGENT_JSON_OBJECT)
                {
                  start = agent_json_scan_offset (scan);
                  if (!agent_json_scan_skip (scan))
                    return FALSE;
                  args->offset = start;
                  args->length = agent_json_scan_offset (scan) - start;
                }
              else if (!agent_json_scan_skip (scan))
                return FALSE;
            }
        }
      else if (!agent_json_scan_skip (scan))
        return FALSE;
    }
  return !agent_json_scan_failed (scan);
}

/* @text, valid JSON, without the white space between its tokens (as the
 * DOM reader prints it), every token as it is */
static char *
minify (const char *text,
        gsize       len)
{
  GString *out = g_string_sized_new (len);
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\' && i + 1 < len)
            g_string_append_c (out, text[++i]);
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        {
          g_string_append_c (out, c);
          in_string = c == '"';
        }
    }

  return g_string_free (out, FALSE);
}

/* Documented in agent-gemini-private.h */
GArray *
_agent_gemini_scan_args (const char *text,
                         gsize       len)
{
  g_autoptr(GString) scratch = g_string_new (NULL);
  g_autoptr(GArray) spans = g_array_new (FALSE, TRUE, sizeof (AgentGeminiArgs));
  AgentJsonScan scan;

  agent_json_scan_init (&scan, text, len, scratch);

  /* {"candidates": [{"content": {"parts": [PART, …]}, …}, …], …}: the
   * first candidate, as the decoder reads it */
  if (!find_member (&scan, "candidates") ||
      agent_json_scan_peek (&scan) != AGENT_JSON_ARRAY || !agent_json_scan_array (&scan) ||
      !agent_json_scan_element (&scan) ||
      !find_member (&scan, "content") ||
      !find_member (&scan, "parts") ||
      agent_json_scan_peek (&scan) != AGENT_JSON_ARRAY || !agent_json_scan_array (&scan))
    return NULL;

  while (agent_json_scan_element (&scan))
    {
      AgentGeminiArgs args = { 0, 0 };

      if (!scan_part (&scan, &args))
        return NULL;
      /* Only valid UTF-8 goes on as it is: the DOM reader repairs the rest */
      if (args.length > 0 && !g_utf8_validate (text + args.offset, args.length, NULL))
        args.length = 0;
      g_array_append_val (spans, args);
    }

  return agent_json_scan_failed (&scan) ? NULL : g_steal_pointer (&spans);
}

/* Documented in agent-gemini-private.h */
char *
_agent_gemini_args_text (const char *text,
                         GArray     *spans,
                         guint       part)
{
  const AgentGeminiArgs *span;

  if (spans == NULL || part >= spans->len)
    return NULL;

  span = &g_array_index (spans, AgentGeminiArgs, part);
  return span->length > 0 ? minify (text + span->offset, span->length) : NULL;
}
