/* agent-debug.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-debug-private.h"
#include "agent-provider-private.h"

#define DEBUG_DOMAIN "Agent-HTTP"
#define MAX_SHOWN    (64 * 1024)

gboolean
_agent_debug_http (void)
{
  static gsize initialized;
  static gboolean enabled;

  if (g_once_init_enter (&initialized))
    {
      static const GDebugKey keys[] = { { "http", 1 } };
      const char *value = g_getenv ("AGENT_DEBUG");

      enabled = value != NULL && (g_parse_debug_string (value, keys, G_N_ELEMENTS (keys)) & 1);
      g_once_init_leave (&initialized, 1);
    }

  return enabled;
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

  if (!_agent_debug_http ())
    return;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  emit (text);
}

static gboolean
is_secret_header (const char *name)
{
  static const char * const secret[] = {
    "Authorization", "Proxy-Authorization", "x-api-key", "x-goog-api-key", "api-key", "Cookie",
  };

  for (guint i = 0; i < G_N_ELEMENTS (secret); i++)
    if (g_ascii_strcasecmp (name, secret[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
append_headers (GString            *text,
                SoupMessageHeaders *headers)
{
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    g_string_append_printf (text, "\n  %s: %s", name,
                            is_secret_header (name) ? "[redacted]" : value);
}

/* Text from the wire, shown: valid UTF-8, cut, with the key removed */
static void
append_data (GString       *text,
             AgentProvider *provider,
             const char    *data,
             gsize          len)
{
  g_autofree char *valid = g_utf8_make_valid (data, MIN (len, MAX_SHOWN));
  g_autofree char *redacted = _agent_provider_redact (provider, valid);

  g_string_append (text, redacted);
  if (len > MAX_SHOWN)
    g_string_append_printf (text, "… (%" G_GSIZE_FORMAT " bytes in all)", len);
}

void
_agent_debug_request (AgentProvider *provider,
                      SoupMessage   *message,
                      GBytes        *body,
                      guint          attempt)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *uri = NULL;
  gsize len;
  const char *data;

  if (!_agent_debug_http ())
    return;

  uri = g_uri_to_string (soup_message_get_uri (message));
  text = g_string_new (NULL);
  g_string_append_printf (text, "→ %s %s", soup_message_get_method (message), uri);
  if (attempt > 0)
    g_string_append_printf (text, " (attempt %u)", attempt + 1);
  append_headers (text, soup_message_get_request_headers (message));
  data = g_bytes_get_data (body, &len);
  g_string_append (text, "\n  ");
  append_data (text, provider, data, len);

  emit (text->str);
}

void
_agent_debug_response (AgentProvider *provider,
                       SoupMessage   *message)
{
  g_autoptr(GString) text = NULL;

  if (!_agent_debug_http ())
    return;

  text = g_string_new (NULL);
  g_string_append_printf (text, "← %u %s", soup_message_get_status (message),
                          soup_message_get_reason_phrase (message));
  append_headers (text, soup_message_get_response_headers (message));

  emit (text->str);
}

void
_agent_debug_data (AgentProvider *provider,
                   const char    *data,
                   gsize          len)
{
  g_autoptr(GString) text = NULL;

  if (!_agent_debug_http ())
    return;

  text = g_string_new ("← ");
  append_data (text, provider, data, len);

  emit (text->str);
}
