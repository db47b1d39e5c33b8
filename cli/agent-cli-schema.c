/* agent-cli-schema.c — --schema FILE
 *
 * The session's output-schema is read from FILE. Without --json, the
 * object is printed once whole and checked, as indented JSON on standard
 * output (the text it streams as is not shown); with --json, an
 * object-delta event carries what the object gained since the one before
 * (the session's changes: applied in turn they build it), and an object
 * event the whole object, besides the usual events.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-schema.h"

static void
object_delta_cb (AgentSession *session,
                 AgentMessage *message,
                 JsonNode     *object,
                 JsonNode     *changes,
                 CliOutput    *output)
{
  cli_output_object_delta (output, changes);
}

static void
object_finished_cb (AgentSession *session,
                    AgentMessage *message,
                    JsonNode     *object,
                    CliOutput    *output)
{
  cli_output_object (output, object);
}

gboolean
cli_schema_attach (AgentSession  *session,
                   CliOutput     *output,
                   const char    *path,
                   GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize len;

  /* Read as every JSON from outside is (no deeper than
   * AGENT_JSON_MAX_DEPTH), and checked before any request */
  if (!g_file_get_contents (path, &text, &len, &local_error) ||
      !(root = agent_json_parse (text, len, &local_error)))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Could not read the schema %s: %s"), display, local_error->message);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The schema %s is not a JSON object"), display);
      return FALSE;
    }

  if (!agent_json_schema_check (root, &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT, "%s: %s", display,
                   local_error->message);
      return FALSE;
    }

  agent_session_set_output_schema (session, root);
  cli_output_set_objects (output, TRUE);
  g_signal_connect (session, "object-delta", G_CALLBACK (object_delta_cb), output);
  g_signal_connect (session, "object-finished", G_CALLBACK (object_finished_cb), output);
  return TRUE;
}
