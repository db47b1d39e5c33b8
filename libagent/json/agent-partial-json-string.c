/* agent-partial-json-string.c — the text of the strings AgentPartialJson
 * reads: escape sequences, surrogate pairs, UTF-8 that is held back until
 * a character is whole, and the string shown in its node as it grows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "json/agent-partial-json-private.h"

void
_agent_partial_json_flush_high_surrogate (AgentPartialJson *self)
{
  if (self->high_surrogate != 0)
    {
      g_string_append (self->buffer, "\xef\xbf\xbd");
      self->high_surrogate = 0;
    }
}

void
_agent_partial_json_add_code_unit (AgentPartialJson *self,
                                   gunichar          unit)
{
  if (self->high_surrogate != 0)
    {
      if (unit >= 0xdc00 && unit <= 0xdfff)
        {
          gunichar c = 0x10000 + ((self->high_surrogate - 0xd800) << 10) + (unit - 0xdc00);

          g_string_append_unichar (self->buffer, c);
          self->high_surrogate = 0;
          return;
        }
      _agent_partial_json_flush_high_surrogate (self);
    }

  if (unit >= 0xd800 && unit <= 0xdbff)
    self->high_surrogate = unit;
  else if ((unit >= 0xdc00 && unit <= 0xdfff) || unit == 0)
    g_string_append (self->buffer, "\xef\xbf\xbd");
  else
    g_string_append_unichar (self->buffer, unit);
}

/* How many bytes at the end of @text (@len) may be the start of a
 * character whose other bytes have not arrived */
static gsize
incomplete_tail (const char *text,
                 gsize       len)
{
  for (gsize back = 1; back <= 3 && back <= len; back++)
    {
      guchar c = text[len - back];
      gsize need;

      if ((c & 0xc0) == 0x80)
        continue;
      if (c >= 0xc2 && c <= 0xdf)
        need = 2;
      else if (c >= 0xe0 && c <= 0xef)
        need = 3;
      else if (c >= 0xf0 && c <= 0xf4)
        need = 4;
      else
        return 0;

      return back < need ? back : 0;
    }

  return 0;
}

/* Makes the buffer from @from on valid UTF-8, holding back (unless @whole)
 * a character that is not complete yet; returns the length that is. */
gsize
_agent_partial_json_validate (AgentPartialJson *self,
                              gsize             from,
                              gboolean          whole)
{
  GString *buffer = self->buffer;
  gsize len = buffer->len;
  const char *end;

  if (!whole)
    len -= incomplete_tail (buffer->str + from, len - from);

  if (!g_utf8_validate_len (buffer->str + from, len - from, &end))
    {
      g_autofree char *valid = g_utf8_make_valid (buffer->str + from, len - from);
      g_autofree char *rest = g_strndup (buffer->str + len, buffer->len - len);

      g_string_truncate (buffer, from);
      g_string_append (buffer, valid);
      len = buffer->len;
      g_string_append (buffer, rest);
    }

  return len;
}

/* Shows the string being read in its node, as far as it is whole */
void
_agent_partial_json_sync_string (AgentPartialJson *self,
                                 gboolean          whole)
{
  gsize len;
  char saved;

  if (self->string_node == NULL)
    return;

  /* Each showing copies the string: a long one is shown in steps of a
   * 256th of what is shown, so that the copies of a string of n bytes add
   * up to a few hundred times n, not n² over the length of a delta */
  if (!whole && self->synced >= LONG_STRING &&
      (self->buffer->len - self->synced) * 256 < self->synced)
    return;

  len = _agent_partial_json_validate (self, self->synced, whole);
  if (len == self->synced && !whole)
    return;

  /* Sealed by someone it was given to (object-delta's handlers) */
  if (json_node_is_immutable (self->string_node))
    _agent_partial_json_unseal (self);
  if (len != self->synced)
    _agent_partial_json_note_string (self, self->synced);

  saved = self->buffer->str[len];
  self->buffer->str[len] = '\0';
  json_node_set_string (self->string_node, self->buffer->str);
  self->buffer->str[len] = saved;

  if (len != self->synced)
    self->revision++;
  self->synced = len;
}

gboolean
_agent_partial_json_escape (AgentPartialJson *self,
                            guchar            c,
                            gsize             at)
{
  gunichar unit;

  switch (c)
    {
    case '"': unit = '"'; break;
    case '\\': unit = '\\'; break;
    case '/': unit = '/'; break;
    case 'b': unit = '\b'; break;
    case 'f': unit = '\f'; break;
    case 'n': unit = '\n'; break;
    case 'r': unit = '\r'; break;
    case 't': unit = '\t'; break;
    case 'u':
      self->lex = LEX_UNICODE;
      self->code_unit = 0;
      self->n_digits = 0;
      return TRUE;
    default:
      return _agent_partial_json_fail (self, at, _("an invalid escape sequence"));
    }

  _agent_partial_json_add_code_unit (self, unit);
  self->lex = LEX_STRING;
  return TRUE;
}

