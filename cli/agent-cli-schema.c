/* agent-cli-schema.c — --schema FILE
 *
 * The session's output-schema is read from FILE. Without --json, the
 * object is printed once whole and checked, as indented JSON on standard
 * output (the text it streams as is not shown); with --json, an
 * object-delta event carries the object as far as it arrived, and an
 * object event the whole object, besides the usual events.
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
                 CliOutput    *output)
{
  cli_output_object_delta (output, object);
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
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = g_filename_display_name (path);
  JsonNode *root;

  if (!json_parser_load_from_file (parser, path, &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Could not read the schema %s: %s"), display, local_error->message);
      return FALSE;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The schema %s is not a JSON object"), display);
      return FALSE;
    }

  agent_session_set_output_schema (session, root);
  cli_output_set_objects (output, TRUE);
  g_signal_connect (session, "object-delta", G_CALLBACK (object_delta_cb), output);
  g_signal_connect (session, "object-finished", G_CALLBACK (object_finished_cb), output);
  return TRUE;
}
