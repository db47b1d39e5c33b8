/* agent-cli-export.c — --export FORMAT writes a kept conversation to
 * standard output (Markdown: the active branch; JSON: every branch, as
 * agent_conversation_export() writes it), --import FILE reads such a JSON
 * file back as a new conversation of the store, every branch with it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "agent-cli-export.h"

#if AGENT_HAS_STORE

int
cli_export_conversation (AgentConversation *conversation,
                         const char        *format,
                         CliOutput         *output)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AgentExportFormat which;

  if (g_strcmp0 (format, "markdown") == 0)
    which = AGENT_EXPORT_FORMAT_MARKDOWN;
  else if (g_strcmp0 (format, "json") == 0)
    which = AGENT_EXPORT_FORMAT_JSON;
  else
    return cli_output_fail (output,
                            g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                         _("--export takes markdown or json, not “%s”"),
                                         format));

  if (!(text = agent_conversation_export (conversation, which, &error)))
    return cli_output_fail (output, g_steal_pointer (&error));
  fputs (text, stdout);
  if (!g_str_has_suffix (text, "\n"))
    fputc ('\n', stdout);
  return fflush (stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

int
cli_import_conversation (AgentStore *store,
                         const char *path,
                         gboolean    json,
                         CliOutput  *output)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;

  if (!(bytes = g_file_load_bytes (file, NULL, NULL, &error)))
    return cli_output_fail (output, g_steal_pointer (&error));

  agent_store_import_conversation_async (store, bytes, NULL, imported_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (!(conversation = agent_store_import_conversation_finish (store, result, &error)))
    {
      g_prefix_error (&error, _("%s is not imported: "), path);
      return cli_output_fail (output, g_steal_pointer (&error));
    }

  if (json)
    g_print ("{\"type\":\"imported\",\"conversation\":%" G_GINT64_FORMAT "}\n",
             agent_conversation_get_id (conversation));
  else
    g_print (_("Imported as conversation %lld.\n"),
             (long long) agent_conversation_get_id (conversation));
  return EXIT_SUCCESS;
}

#endif
