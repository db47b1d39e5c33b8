/* agent-json-scan.c — a forward-only JSON reader (see agent-json-scan-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "json/agent-json-scan-private.h"

/* Bytes a string's text cannot run over: its end, an escape, and the
 * control characters JSON wants escaped. */
static const guint8 stops_string[256] = {
  [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1,
  [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1,
  [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
  [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1,
  ['"'] = 1, ['\\'] = 1,
};

void
agent_json_scan_init (AgentJsonScan *scan,
                      const char    *text,
                      gsize          len,
                      GString       *scratch)
{
  /* Strings taken are never longer than their JSON text with its quotes,
   * NUL included: all of them fit, and stay where they are. */
  if (scratch->allocated_len <= len + 1)
    g_string_set_size (scratch, len + 1);

  scan->start = scan->p = text;
  scan->end = text + len;
  scan->out = scratch->str;
  scan->first = 0;
  scan->depth = 0;
  scan->failed = FALSE;
}

/* What a value's first byte says it is (AGENT_JSON_ABSENT: none) */
const guint8 _agent_json_scan_kinds[256] = {
  ['{'] = AGENT_JSON_OBJECT, ['['] = AGENT_JSON_ARRAY, ['"'] = AGENT_JSON_STRING,
  ['t'] = AGENT_JSON_BOOLEAN, ['f'] = AGENT_JSON_BOOLEAN, ['n'] = AGENT_JSON_NULL,
  ['-'] = AGENT_JSON_NUMBER, ['0'] = AGENT_JSON_NUMBER, ['1'] = AGENT_JSON_NUMBER,
  ['2'] = AGENT_JSON_NUMBER, ['3'] = AGENT_JSON_NUMBER, ['4'] = AGENT_JSON_NUMBER,
  ['5'] = AGENT_JSON_NUMBER, ['6'] = AGENT_JSON_NUMBER, ['7'] = AGENT_JSON_NUMBER,
  ['8'] = AGENT_JSON_NUMBER, ['9'] = AGENT_JSON_NUMBER,
};

#define next_byte _agent_json_scan_next_byte
#define skip_space _agent_json_scan_skip_space

/* Past @open, into a container one level deeper */
static gboolean
enter (AgentJsonScan *scan,
       char           open)
{
  if (scan->failed || next_byte (scan) != open || scan->depth + 1 >= AGENT_JSON_SCAN_MAX_DEPTH)
    return agent_json_scan_fail (scan);

  scan->p++;
  scan->depth++;
  scan->first |= G_GUINT64_CONSTANT (1) << scan->depth;
  return TRUE;
}

/* Before the next member or element of the current container: TRUE if
 * there is one, FALSE past the container's @close (or on failure). */
static gboolean
next_item (AgentJsonScan *scan,
           char           close)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << scan->depth;
  char c;

  if (scan->failed || scan->depth == 0)
    return agent_json_scan_fail (scan);

  c = next_byte (scan);
  if (c == '\0')
    return agent_json_scan_fail (scan);  /* the end, or a NUL byte */
  if (c == close)
    {
      scan->p++;
      scan->first &= ~bit;
      scan->depth--;
      return FALSE;
    }

  if (scan->first & bit)
    {
      scan->first &= ~bit;
      return TRUE;
    }

  if (c != ',')
    return agent_json_scan_fail (scan);
  scan->p++;
  /* [1,] and {"a": 1,} are not JSON, nor a text that ends after the comma */
  c = next_byte (scan);
  if (c == close || c == '\0')
    return agent_json_scan_fail (scan);
  return TRUE;
}

gboolean
agent_json_scan_object (AgentJsonScan *scan)
{
  return enter (scan, '{');
}

gboolean
agent_json_scan_array (AgentJsonScan *scan)
{
  return enter (scan, '[');
}

gboolean
agent_json_scan_element (AgentJsonScan *scan)
{
  return next_item (scan, ']');
}

#if G_BYTE_ORDER == G_LITTLE_ENDIAN && defined(__GNUC__)
#define ONES  G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

/* The high bit of each byte of @w that is a stop byte, and maybe of later
 * bytes too (the lowest is exact): the usual "has zero byte" arithmetic */
static inline guint64
stop_bytes (guint64 w)
{
  guint64 quote = w ^ (ONES * '"');
  guint64 backslash = w ^ (ONES * '\\');

  return (((w - ONES * 0x20) & ~w) |
          ((quote - ONES) & ~quote) |
          ((backslash - ONES) & ~backslash)) & HIGHS;
}
#endif

/* The text of a string up to its next stop byte, eight bytes at a time
 * where it can. With @high, the bytes passed are or-ed into it (to tell
 * ASCII from the rest). */
static inline const char *
string_run (const char *p,
            const char *end,
            guint8     *high)
{
#ifdef HIGHS
  guint64 seen = 0;

  while (end - p >= 8)
    {
      guint64 w;
      guint64 stops;

      memcpy (&w, p, 8);
      if ((stops = stop_bytes (w)) != 0)
        {
          guint n = __builtin_ctzll (stops) >> 3;

          p += n;
          seen |= w & ((G_GUINT64_CONSTANT (1) << (n * 8)) - 1);
          if (high != NULL)
            *high |= (seen & HIGHS) != 0 ? 0x80 : 0;
          return p;
        }
      seen |= w;
      p += 8;
    }
  if (high != NULL)
    *high |= (seen & HIGHS) != 0 ? 0x80 : 0;
#endif

  while (p < end && !stops_string[(guint8) *p])
    {
      if (high != NULL)
        *high |= (guint8) *p;
      p++;
    }
  return p;
}

/* The code unit of a \u escape (a u and four hex digits at @p, past
 * the backslash), or -1 */
static int
unicode_escape (const char *p,
                const char *end)
{
  int unit = 0;

  if (end - p < 5 || p[0] != 'u')
    return -1;
  for (int i = 1; i <= 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return -1;
      unit = (unit << 4) | digit;
    }
  return unit;
}

/* Reads the escape at scan->p (past the backslash): FALSE if it is not
 * JSON. With @out, its character is written at *out, and *out moved past
 * it; FALSE too, then, for an escape the DOM reader repairs (an escaped
 * NUL, an unpaired surrogate). */
static gboolean
escape (AgentJsonScan  *scan,
        char          **out)
{
  static const char unescaped[] = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
                                    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t' };
  const char *p = scan->p;
  int unit;
  int low;

  if (p >= scan->end)
    return FALSE;

  if ((guint8) *p < sizeof unescaped && unescaped[(guint8) *p] != '\0')
    {
      if (out != NULL)
        *(*out)++ = unescaped[(guint8) *p];
      scan->p++;
      return TRUE;
    }

  if ((unit = unicode_escape (p, scan->end)) < 0)
    return FALSE;
  scan->p += 5;
  if (out == NULL)
    return TRUE;

  if (unit == 0 || (unit >= 0xDC00 && unit <= 0xDFFF))
    return FALSE;

  if (unit >= 0xD800 && unit <= 0xDBFF)
    {
      if (scan->end - scan->p < 2 || scan->p[0] != '\\' ||
          (low = unicode_escape (scan->p + 1, scan->end)) < 0xDC00 || low > 0xDFFF)
        return FALSE;
      scan->p += 6;
      unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }

  *out += g_unichar_to_utf8 (unit, *out);
  return TRUE;
}

/* Past a string's text (after its opening quote), checked, not kept.
 * With @no_escape, an escape fails the scan too. */
static gboolean
pass_string (AgentJsonScan *scan,
             gboolean       no_escape)
{
  for (;;)
    {
      scan->p = string_run (scan->p, scan->end, NULL);
      if (scan->p >= scan->end)
        return agent_json_scan_fail (scan);

      switch (*scan->p++)
        {
        case '"':
          return TRUE;
        case '\\':
          if (no_escape || !escape (scan, NULL))
            return agent_json_scan_fail (scan);
          break;
        default:  /* a control character */
          return agent_json_scan_fail (scan);
        }
    }
}

gboolean
agent_json_scan_member (AgentJsonScan  *scan,
                        const char    **key,
                        gsize          *key_len)
{
  const char *start;

  if (!next_item (scan, '}'))
    return FALSE;

  if (*scan->p != '"')
    return agent_json_scan_fail (scan);
  start = ++scan->p;
  if (!pass_string (scan, TRUE))
    return FALSE;
  *key = start;
  *key_len = scan->p - 1 - start;

  if (next_byte (scan) != ':')
    return agent_json_scan_fail (scan);
  scan->p++;
  return TRUE;
}

const char *
agent_json_scan_string (AgentJsonScan *scan,
                        gsize         *len)
{
  char *start = scan->out;
  char *out = scan->out;
  guint8 high = 0;

  if (scan->failed || next_byte (scan) != '"')
    {
      agent_json_scan_fail (scan);
      return NULL;
    }
  scan->p++;

  for (;;)
    {
      const char *run = scan->p;

      scan->p = string_run (run, scan->end, &high);
      memcpy (out, run, scan->p - run);
      out += scan->p - run;

      if (scan->p >= scan->end)
        break;

      switch (*scan->p++)
        {
        case '"':
          if ((high & 0x80) && !g_utf8_validate_len (start, out - start, NULL))
            break;
          *out = '\0';
          *len = out - start;
          scan->out = out + 1;
          return start;
        case '\\':
          if (escape (scan, &out))
            continue;
          break;
        default:
          break;
        }
      break;
    }

  agent_json_scan_fail (scan);
  return NULL;
}

gboolean
agent_json_scan_int (AgentJsonScan *scan,
                     gint64        *value)
{
  gboolean negative;
  gint64 n = 0;
  guint digits = 0;

  if (scan->failed)
    return FALSE;

  negative = next_byte (scan) == '-';
  scan->p += negative;

  /* At most 18 digits: they fit */
  while (scan->p < scan->end && g_ascii_isdigit (*scan->p))
    {
      if (digits == 18)
        return agent_json_scan_fail (scan);
      n = n * 10 + (*scan->p++ - '0');
      digits++;
    }

  /* 0, or no leading zero; no fraction or exponent */
  if (digits == 0 || (digits > 1 && *(scan->p - digits) == '0') ||
      (scan->p < scan->end && (*scan->p == '.' || *scan->p == 'e' || *scan->p == 'E')))
    return agent_json_scan_fail (scan);

  *value = negative ? -n : n;
  return TRUE;
}

/* Past a number, checked against JSON's grammar */
static gboolean
pass_number (AgentJsonScan *scan)
{
  const char *p = scan->p;
  const char *end = scan->end;

  if (p < end && *p == '-')
    p++;
  if (p < end && *p == '0')
    p++;
  else if (p < end && *p >= '1' && *p <= '9')
    while (p < end && g_ascii_isdigit (*p))
      p++;
  else
    return agent_json_scan_fail (scan);

  if (p < end && *p == '.')
    {
      if (++p >= end || !g_ascii_isdigit (*p))
        return agent_json_scan_fail (scan);
      while (p < end && g_ascii_isdigit (*p))
        p++;
    }

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p >= end || !g_ascii_isdigit (*p))
        return agent_json_scan_fail (scan);
      while (p < end && g_ascii_isdigit (*p))
        p++;
    }

  scan->p = p;
  return TRUE;
}

static gboolean
pass_literal (AgentJsonScan *scan,
              const char    *literal,
              gsize          len)
{
  if ((gsize) (scan->end - scan->p) < len || memcmp (scan->p, literal, len) != 0)
    return agent_json_scan_fail (scan);
  scan->p += len;
  return TRUE;
}

gboolean
agent_json_scan_skip (AgentJsonScan *scan)
{
  switch (agent_json_scan_peek (scan))
    {
    case AGENT_JSON_OBJECT:
      if (!agent_json_scan_object (scan))
        return FALSE;
      /* Keys with escapes are fine here: nobody compares them */
      while (next_item (scan, '}'))
        {
          if (*scan->p != '"')
            return agent_json_scan_fail (scan);
          scan->p++;
          if (!pass_string (scan, FALSE) || next_byte (scan) != ':')
            return agent_json_scan_fail (scan);
          scan->p++;
          if (!agent_json_scan_skip (scan))
            return FALSE;
        }
      return !scan->failed;

    case AGENT_JSON_ARRAY:
      if (!agent_json_scan_array (scan))
        return FALSE;
      while (agent_json_scan_element (scan))
        if (!agent_json_scan_skip (scan))
          return FALSE;
      return !scan->failed;

    case AGENT_JSON_STRING:
      scan->p++;
      return pass_string (scan, FALSE);

    case AGENT_JSON_NUMBER:
      return pass_number (scan);

    case AGENT_JSON_BOOLEAN:
      return *scan->p == 't' ? pass_literal (scan, "true", 4) : pass_literal (scan, "false", 5);

    case AGENT_JSON_NULL:
      return pass_literal (scan, "null", 4);

    case AGENT_JSON_ABSENT:
    default:
      return agent_json_scan_fail (scan);
    }
}

gboolean
agent_json_scan_end (AgentJsonScan *scan)
{
  if (scan->failed)
    return FALSE;

  skip_space (scan);
  return scan->depth == 0 && scan->p == scan->end;
}

/* How far the scan read */
gsize
agent_json_scan_offset (const AgentJsonScan *scan)
{
  return scan->p - scan->start;
}

/* Goes on with a new scan (just initialized) at @offset, where an earlier
 * scan of the same bytes before it found a string value (@offset being
 * where its quote is): the string can be read, and nothing after it. */
void
agent_json_scan_resume_string (AgentJsonScan *scan,
                               gsize          offset)
{
  g_return_if_fail (offset < (gsize) (scan->end - scan->start));

  scan->p = scan->start + offset;
  scan->depth = 0;
  scan->first = 0;
}
