/* agent-cli-documents.c — agent-cli's document index
 *
 * --index DIR                  indexes the text files of DIR (repeatable)
 *                              before the turn: new and changed files are
 *                              embedded, files gone are dropped
 * --documents-db PATH          the index's SQLite file (default:
 *                              $XDG_DATA_HOME/libagent/documents.db)
 * --embedding-model NAME       the embedding model (default: --model's)
 * --tool search_documents      lets the model search the index
 *
 * Each file indexed or failed is a line on standard error, or with --json
 * an event: {"type": "document-indexed", "path", "chunks"} or
 * {"type": "document-failed", "path", "code", "message"}; then
 * {"type": "documents-updated", "files", "chunks"}.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-documents.h"

static char **opt_index;
static char *opt_documents_db;
static char *opt_embedding_model;

const GOptionEntry cli_documents_entries[] = {
  { "index", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_index,
    N_("Index the text files of DIR for search_documents before the turn (repeatable)"),
    N_("DIR") },
  { "documents-db", 0, 0, G_OPTION_ARG_FILENAME, &opt_documents_db,
    N_("The document index's file (default: $XDG_DATA_HOME/libagent/documents.db)"),
    N_("PATH") },
  { "embedding-model", 0, 0, G_OPTION_ARG_STRING, &opt_embedding_model,
    N_("The model that embeds the documents and the searches (default: --model's)"),
    N_("NAME") },
  { NULL }
};

#if AGENT_HAS_STORE

static AgentDocumentIndex *documents_index;
static gboolean json_output;

static char *
dup_db_path (void)
{
  if (opt_documents_db != NULL)
    return g_strdup (opt_documents_db);
  return g_build_filename (g_get_user_data_dir (), "libagent", "documents.db", NULL);
}

/* The index, opened once; made only when --index asks for one */
static AgentDocumentIndex *
open_index (AgentProvider  *provider,
            GError        **error)
{
  g_autofree char *path = NULL;

  if (documents_index != NULL)
    return documents_index;

  path = dup_db_path ();
  if (opt_index == NULL && !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("search_documents needs a document index, and “%s” does not exist: "
                     "give --index DIR to make one (or --documents-db PATH)"), path);
      return NULL;
    }
  documents_index = agent_document_index_new (path, provider, opt_embedding_model, error);
  return documents_index;
}

AgentTool *
cli_documents_tool_new (AgentProvider  *provider,
                        GError        **error)
{
  AgentDocumentIndex *documents = open_index (provider, error);

  return documents != NULL ? agent_search_documents_tool_new (documents) : NULL;
}

static void
file_indexed_cb (AgentDocumentIndex *documents,
                 const char         *path,
                 guint               n_chunks,
                 CliOutput          *output)
{
  g_autofree char *line = NULL;

  if (json_output)
    {
      JsonBuilder *builder = cli_output_begin_event ("document-indexed");

      cli_output_add_string (builder, "path", path);
      json_builder_set_member_name (builder, "chunks");
      json_builder_add_int_value (builder, n_chunks);
      cli_output_end_event (output, builder);
    }
  line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Indexed %s (%u chunk)",
                                       "Indexed %s (%u chunks)", n_chunks), path, n_chunks);
  cli_output_notice (output, line);
}

static void
file_failed_cb (AgentDocumentIndex *documents,
                const char         *path,
                const GError       *error,
                CliOutput          *output)
{

  if (json_output)
    {
      JsonBuilder *builder = cli_output_begin_event ("document-failed");

      cli_output_add_string (builder, "path", path);
      cli_output_add_string (builder, "code", agent_error_get_code (error));
      cli_output_add_string (builder, "message", error->message);
      cli_output_end_event (output, builder);
    }
  cli_output_notice (output, error->message);
}

static void
updated_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

int
cli_documents_update (AgentProvider *provider,
                      CliOutput     *output,
                      gboolean       json,
                      GCancellable  *cancellable)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  AgentDocumentIndex *documents;
  gulong indexed_id, failed_id;
  guint n_files, n_chunks;

  if (opt_index == NULL)
    return -1;
  for (guint i = 0; opt_index[i] != NULL; i++)
    if (!g_file_test (opt_index[i], G_FILE_TEST_IS_DIR))
      {
        g_set_error (&error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("--index needs a folder, and “%s” is not one"), opt_index[i]);
        return cli_output_fail (output, g_steal_pointer (&error));
      }
  if (!(documents = open_index (provider, &error)))
    return cli_output_fail (output, g_steal_pointer (&error));

  json_output = json;
  agent_document_index_set_folders (documents, (const char * const *) opt_index);
  indexed_id = g_signal_connect (documents, "file-indexed", G_CALLBACK (file_indexed_cb),
                                 output);
  failed_id = g_signal_connect (documents, "file-failed", G_CALLBACK (file_failed_cb), output);
  agent_document_index_update_async (documents, cancellable, updated_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (documents, indexed_id);
  g_signal_handler_disconnect (documents, failed_id);
  if (!agent_document_index_update_finish (documents, result, &error))
    return cli_output_fail (output, g_steal_pointer (&error));

  n_files = agent_document_index_get_n_files (documents);
  n_chunks = agent_document_index_get_n_chunks (documents);
  if (json)
    {
      JsonBuilder *builder = cli_output_begin_event ("documents-updated");

      json_builder_set_member_name (builder, "files");
      json_builder_add_int_value (builder, n_files);
      json_builder_set_member_name (builder, "chunks");
      json_builder_add_int_value (builder, n_chunks);
      cli_output_end_event (output, builder);
    }
  summary = g_strdup_printf (_("The document index holds %u files in %u chunks"), n_files,
                             n_chunks);
  cli_output_notice (output, summary);
  return -1;
}

void
cli_documents_free (void)
{
  g_clear_object (&documents_index);
}

#else /* !AGENT_HAS_STORE */

AgentTool *
cli_documents_tool_new (AgentProvider  *provider,
                        GError        **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                       _("search_documents needs libagent built with its store (SQLite)"));
  return NULL;
}

int
cli_documents_update (AgentProvider *provider,
                      CliOutput     *output,
                      gboolean       json,
                      GCancellable  *cancellable)
{
  if (opt_index == NULL)
    return -1;
  return cli_output_fail (output,
                          g_error_new_literal (AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                                               _("--index needs libagent built with its store "
                                                 "(SQLite)")));
}

void
cli_documents_free (void)
{
}

#endif
