/* agent-debug.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-debug-private.h"
#include "agent-util-private.h"
#include "wire/agent-wire-util-private.h"

#define DEBUG_DOMAIN "Agent-HTTP"
#define MAX_SHOWN    (64 * 1024)

/* Whether AGENT_DEBUG names @flag: the variable is read once, at the first
 * question. */
gboolean
_agent_debug_enabled (AgentDebugFlags flag)
{
  static gsize flags;

  if (g_once_init_enter (&flags))
    {
      static const GDebugKey keys[] = {
        { "http", AGENT_DEBUG_HTTP },
        { "mcp", AGENT_DEBUG_MCP },
      };
      const char *value = g_getenv ("AGENT_DEBUG");
      gsize parsed = value != NULL ? g_parse_debug_string (value, keys, G_N_ELEMENTS (keys)) : 0;

      /* g_once_init_leave() wants a value other than 0 */
      g_once_init_leave (&flags, parsed | ((gsize) 1 << 31));
    }

  return (flags & flag) != 0;
}

static void
emit (const char *text)
{
  /* Asked for explicitly: shown without G_MESSAGES_DEBUG */
  g_log_structured (DEBUG_DOMAIN, G_LOG_LEVEL_MESSAGE, "MESSAGE", "%s", text);
}

void
_agent_debug_note (const char *format,
                   ...)
{
  g_autofree char *text = NULL;
  va_list args;

  if (!_agent_debug_enabled (AGENT_DEBUG_HTTP))
    return;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  emit (text);
}

static void
append_headers (GString             *text,
                SoupMessageHeaders  *headers,
                const char * const  *secrets)
{
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    {
      g_autofree char *shown = _agent_header_is_secret (name) ? g_strdup (AGENT_REDACTED)
                                                              : agent_redact (value, secrets);

      g_string_append_printf (text, "\n  %s: %s", name, shown);
    }
}

/* Text from the wire, shown: valid UTF-8, cut, with the secrets removed */
static void
append_data (GString            *text,
             const char * const *secrets,
             const char         *data,
             gsize               len)
{
  g_autofree char *valid = g_utf8_make_valid (data, MIN (len, MAX_SHOWN));
  g_autofree char *redacted = agent_redact (valid, secrets);

  g_string_append (text, redacted);
  if (len > MAX_SHOWN)
    g_string_append_printf (text, "… (%" G_GSIZE_FORMAT " bytes in all)", len);
}

/* A URL as shown: without user information */
static char *
show_uri (GUri               *uri,
          const char * const *secrets)
{
  g_autofree char *shown = g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);

  return agent_redact (shown, secrets);
}

void
_agent_debug_request (const char * const *secrets,
                      SoupMessage        *message,
                      GBytes             *body,
                      guint               attempt)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *uri = NULL;
  gsize len;
  const char *data;

  if (!_agent_debug_enabled (AGENT_DEBUG_HTTP))
    return;

  uri = show_uri (soup_message_get_uri (message), secrets);
  text = g_string_new (NULL);
  g_string_append_printf (text, "→ %s %s", soup_message_get_method (message), uri);
  if (attempt > 0)
    g_string_append_printf (text, " (attempt %u)", attempt + 1);
  append_headers (text, soup_message_get_request_headers (message), secrets);
  data = g_bytes_get_data (body, &len);
  g_string_append (text, "\n  ");
  append_data (text, secrets, data, len);

  emit (text->str);
}

void
_agent_debug_response (const char * const *secrets,
                       SoupMessage        *message)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *reason = NULL;

  if (!_agent_debug_enabled (AGENT_DEBUG_HTTP))
    return;

  reason = agent_redact (soup_message_get_reason_phrase (message), secrets);
  text = g_string_new (NULL);
  g_string_append_printf (text, "← %u %s", soup_message_get_status (message),
                          reason ? reason : "");
  append_headers (text, soup_message_get_response_headers (message), secrets);

  emit (text->str);
}

/* The bytes of a body, as they were read. A secret may be split between
 * two reads: the end of a read that could begin a piece of one is held in
 * *@held (the caller's, NULL at first) and shown with the next read, or
 * by _agent_debug_data_end(). */
void
_agent_debug_data (const char * const  *secrets,
                   GString            **held,
                   const char          *data,
                   gsize                len)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *valid = NULL;
  g_autofree char *redacted = NULL;
  gsize redacted_len;
  gsize consumed;
  gsize shown;
  gsize keep;

  /* Called for every read of a streaming body: nothing else unless on */
  if G_LIKELY (!_agent_debug_enabled (AGENT_DEBUG_HTTP))
    return;

  if (secrets == NULL || secrets[0] == NULL)
    {
      text = g_string_new ("← ");
      append_data (text, secrets, data, len);
      emit (text->str);
      return;
    }

  if (*held == NULL)
    *held = g_string_new (NULL);
  g_string_append_len (*held, data, len);

  /* What can be shown goes now; the end that may be the start of a
   * piece of a secret waits, and with it as much of the text before (so
   * that a secret redacted with the next read is shown with what precedes
   * it), cut at a character */
  valid = g_utf8_make_valid ((*held)->str, (*held)->len);
  redacted = agent_redact_prefix (valid, strlen (valid), secrets, &consumed);
  keep = agent_secrets_longest (secrets);
  redacted_len = strlen (redacted);
  shown = redacted_len > keep ? redacted_len - keep : 0;
  while (shown > 0 && (redacted[shown] & 0xc0) == 0x80)
    shown--;
  if (shown == 0)
    return;

  g_string_assign (*held, redacted + shown);
  g_string_append (*held, valid + consumed);
  text = g_string_new ("← ");
  append_data (text, NULL, redacted, shown);
  emit (text->str);
}

/* The end of a body: what is held is shown. */
void
_agent_debug_data_end (const char * const  *secrets,
                       GString            **held)
{
  g_autoptr(GString) text = NULL;

  if (*held == NULL)
    return;

  if ((*held)->len > 0 && _agent_debug_enabled (AGENT_DEBUG_HTTP))
    {
      text = g_string_new ("← ");
      append_data (text, secrets, (*held)->str, (*held)->len);
      emit (text->str);
    }

  g_string_free (g_steal_pointer (held), TRUE);
}
