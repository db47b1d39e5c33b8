/* agent-cli-log.c — what of GLib's log agent-cli shows
 *
 * Everything goes to GLib's own writer (AGENT_DEBUG's logs, warnings),
 * on stderr whatever its level: stdout holds the answer, or with --json
 * one event a line, which a message or a debug line there would break;
 * except a warning that only repeats, in GObject's words, an error that
 * agent-cli prints: libsoup 3 reads a Content-Length of "-5" as a length
 * below zero, which the stream it makes for the body refuses ("value "-5"
 * of type 'gint64' is invalid or out of range for property
 * 'content-length'"); libagent refuses such an answer with an error that
 * names the header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-cli-log.h"

static gboolean
is_said_otherwise (GLogLevelFlags   level,
                   const GLogField *fields,
                   gsize            n_fields)
{
  const char *domain = NULL;
  const char *message = NULL;

  if (!(level & G_LOG_LEVEL_WARNING))
    return FALSE;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
        message = fields[i].value;
    }

  return g_strcmp0 (domain, "GLib-GObject") == 0 && message != NULL &&
         strstr (message, "is invalid or out of range for property 'content-length'") != NULL;
}

static GLogWriterOutput
write_log (GLogLevelFlags   level,
           const GLogField *fields,
           gsize            n_fields,
           gpointer         user_data)
{
  if (is_said_otherwise (level, fields, n_fields))
    return G_LOG_WRITER_HANDLED;

  return g_log_writer_default (level, fields, n_fields, user_data);
}

/* Once, before anything is logged */
void
cli_log_init (void)
{
  g_log_writer_default_set_use_stderr (TRUE);
  g_log_set_writer_func (write_log, NULL, NULL);
}
