/* agent-string-private.h
 *
 * Appending to a GString on the hot path: what GLib 2.76 does inline
 * (g_string_append_len() is a function call through g_string_insert_len()
 * before it, about a hundred instructions for a few bytes), used where a
 * streamed event appends: the SSE parser's buffers and the message's text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

static inline void
_agent_string_append_len (GString    *string,
                          const char *text,
                          gsize       len)
{
  if G_LIKELY (string->len + len < string->allocated_len)
    {
      memcpy (string->str + string->len, text, len);
      string->len += len;
      string->str[string->len] = '\0';
    }
  else
    g_string_append_len (string, text, len);
}

G_END_DECLS
