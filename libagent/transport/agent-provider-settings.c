/* agent-provider-settings.c — what a provider's keep-alive may say
 *
 * AgentProvider:keep-alive is sent to Ollama, which reads it as a Go
 * duration or a number of seconds: a value it would refuse is refused
 * when it is set (agent-provider.c), and a number is sent as a JSON
 * number (providers/agent-ollama.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "transport/agent-provider-private.h"

/* A Go duration, as Ollama reads keep_alive: [-+]? (number unit)+, number
 * a decimal with an optional fraction, unit ns, us, µs, ms, s, m or h; or
 * "0" */
static gboolean
is_go_duration (const char *text)
{
  static const char * const units[] = { "ns", "us", "µs", "ms", "s", "m", "h" };
  const char *p = text;

  if (*p == '-' || *p == '+')
    p++;
  if (strcmp (p, "0") == 0)
    return TRUE;
  if (*p == '\0')
    return FALSE;

  while (*p != '\0')
    {
      gboolean digits = FALSE;
      gsize longest = 0;

      while (g_ascii_isdigit (*p))
        p++, digits = TRUE;
      if (*p == '.')
        for (p++; g_ascii_isdigit (*p); p++)
          digits = TRUE;
      if (!digits)
        return FALSE;

      /* The longest unit that fits: "ms" before "m" */
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_str_has_prefix (p, units[i]) && strlen (units[i]) > longest)
          longest = strlen (units[i]);
      if (longest == 0)
        return FALSE;
      p += longest;
    }
  return TRUE;
}

/**
 * _agent_keep_alive_is_seconds:
 *
 * Whether @text (a valid keep-alive) is a number of seconds, sent as a
 * JSON number: Ollama reads a string as a Go duration, which wants a unit.
 */
gboolean
_agent_keep_alive_is_seconds (const char *text)
{
  const char *p = text;
  gboolean digits = FALSE;

  if (*p == '-' || *p == '+')
    p++;
  while (g_ascii_isdigit (*p))
    p++, digits = TRUE;
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p); p++)
      digits = TRUE;
  return digits && *p == '\0';
}

/* Whether @text is a keep-alive Ollama takes: a Go duration or a number
 * of seconds */
gboolean
_agent_keep_alive_is_valid (const char *text)
{
  return is_go_duration (text) || _agent_keep_alive_is_seconds (text);
}
