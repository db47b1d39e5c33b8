/* agent-cli-models.c — managing the server's models from agent-cli
 *
 * --list-models --details   a table: name, size, family, parameters,
 *                           quantization, context, capabilities
 * --show-model MODEL        one model, a line per field
 * --list-running            the models in memory, and until when
 * --pull MODEL              a progress bar on a terminal, a line per step
 *                           otherwise; Ctrl-C cancels (the download resumes
 *                           on the next pull)
 * --delete-model MODEL      asks on a terminal unless --yes; refuses
 *                           without a terminal and without --yes
 * --unload-model MODEL      frees its memory now
 *
 * With --json, one object per line: {"type": "model", …} per model,
 * {"type": "pull-progress", …} per step of a pull, then {"type":
 * "pulled"}, {"type": "deleted"} or {"type": "unloaded"}; an error is
 * {"type": "error", "code", "message"} as for a turn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "agent-cli-models.h"

#define EXIT_INTERRUPTED 130
#define BAR_WIDTH 24

static gboolean opt_details;
static gboolean opt_list_running;
static char *opt_show_model;
static char *opt_pull;
static char *opt_delete_model;
static char *opt_unload_model;

const GOptionEntry cli_models_entries[] = {
  { "details", 0, 0, G_OPTION_ARG_NONE, &opt_details,
    N_("With --list-models: a table of each model's size, family, parameters, quantization, "
       "context window and capabilities (Ollama)"), NULL },
  { "show-model", 0, 0, G_OPTION_ARG_STRING, &opt_show_model,
    N_("Describe MODEL and exit (Ollama)"), N_("MODEL") },
  { "list-running", 0, 0, G_OPTION_ARG_NONE, &opt_list_running,
    N_("List the models loaded in the server's memory and exit (Ollama)"), NULL },
  { "pull", 0, 0, G_OPTION_ARG_STRING, &opt_pull,
    N_("Download MODEL into the server, with progress, and exit (Ollama)"), N_("MODEL") },
  { "delete-model", 0, 0, G_OPTION_ARG_STRING, &opt_delete_model,
    N_("Delete MODEL from the server after asking (--yes: without asking) and exit (Ollama)"),
    N_("MODEL") },
  { "unload-model", 0, 0, G_OPTION_ARG_STRING, &opt_unload_model,
    N_("Unload MODEL from the server's memory now and exit (Ollama)"), N_("MODEL") },
  { NULL }
};

typedef struct
{
  AgentModelManager *manager;
  CliOutput         *output;
  gboolean           json;
  gboolean           tty;
  GCancellable      *cancellable;
  /* A pull's last line: its status, and the tenth of the whole shown */
  char              *shown_status;
  int                shown_tenth;
  gboolean           bar_drawn;
} Models;

gboolean
cli_models_wanted (gboolean list_models)
{
  return (list_models && opt_details) || opt_list_running || opt_show_model != NULL ||
         opt_pull != NULL || opt_delete_model != NULL || opt_unload_model != NULL;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static void
print_text (const char *text)
{
  g_autofree char *escaped = cli_escape_for_terminal (text, TRUE);

  fputs (escaped, stdout);
}

static char *
format_size (guint64 size)
{
  return size > 0 ? g_format_size (size) : g_strdup ("-");
}

static char *
format_tokens (guint64 tokens)
{
  if (tokens == 0)
    return g_strdup ("-");
  if (tokens % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "K", tokens / 1024);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, tokens);
}

static const char *
or_dash (const char *text)
{
  return text != NULL && *text != '\0' ? text : "-";
}

static void
add_member_int (JsonBuilder *builder,
                const char  *name,
                guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
add_member_time (JsonBuilder *builder,
                 const char  *name,
                 GDateTime   *time)
{
  g_autofree char *text = time != NULL ? g_date_time_format_iso8601 (time) : NULL;

  cli_output_add_string (builder, name, text);
}

static void
emit_model (Models         *models,
            AgentModelInfo *info,
            gboolean        running)
{
  JsonBuilder *builder = cli_output_begin_event ("model");
  g_autofree char *names = NULL;
  g_auto(GStrv) capabilities = NULL;

  names = agent_model_capabilities_to_string (agent_model_info_get_capabilities (info));
  capabilities = g_strsplit (names, ",", -1);
  cli_output_add_string (builder, "name", agent_model_info_get_name (info));
  add_member_int (builder, "size", agent_model_info_get_size (info));
  cli_output_add_string (builder, "digest", agent_model_info_get_digest (info));
  cli_output_add_string (builder, "family", agent_model_info_get_family (info));
  cli_output_add_string (builder, "parameter_size", agent_model_info_get_parameter_size (info));
  cli_output_add_string (builder, "quantization", agent_model_info_get_quantization (info));
  add_member_int (builder, "context_length", agent_model_info_get_context_length (info));
  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_array (builder);
  for (guint i = 0; capabilities[i] != NULL; i++)
    if (*capabilities[i] != '\0')
      json_builder_add_string_value (builder, capabilities[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "details_known");
  json_builder_add_boolean_value (builder, agent_model_info_get_details_known (info));
  add_member_time (builder, "modified_at", agent_model_info_get_modified_at (info));
  if (running)
    {
      add_member_int (builder, "size_vram", agent_model_info_get_size_vram (info));
      add_member_time (builder, "expires_at", agent_model_info_get_expires_at (info));
    }
  cli_output_end_event (models->output, builder);
}

/* A table: columns as wide as their widest cell */
static void
print_table (GPtrArray *rows,
             guint      n_columns)
{
  g_autofree guint *widths = g_new0 (guint, n_columns);

  for (guint r = 0; r < rows->len; r++)
    for (guint c = 0; c < n_columns; c++)
      {
        const char *cell = ((char **) g_ptr_array_index (rows, r))[c];

        widths[c] = MAX (widths[c], g_utf8_strlen (cell, -1));
      }

  for (guint r = 0; r < rows->len; r++)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint c = 0; c < n_columns; c++)
        {
          const char *cell = ((char **) g_ptr_array_index (rows, r))[c];

          g_string_append (line, cell);
          if (c + 1 < n_columns)
            for (guint pad = g_utf8_strlen (cell, -1); pad < widths[c] + 2; pad++)
              g_string_append_c (line, ' ');
        }
      g_string_append_c (line, '\n');
      print_text (line->str);
    }
}

static char **
row_new (const char *first,
         ...)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  va_list args;
  char **row;

  va_start (args, first);
  for (const char *cell = first; cell != NULL; cell = va_arg (args, const char *))
    g_strv_builder_add (builder, cell);
  va_end (args);
  row = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return row;
}

static char **
model_row (AgentModelInfo *info)
{
  g_autofree char *size = format_size (agent_model_info_get_size (info));
  g_autofree char *context = format_tokens (agent_model_info_get_context_length (info));
  g_autofree char *capabilities = NULL;

  capabilities = agent_model_capabilities_to_string (agent_model_info_get_capabilities (info));
  return row_new (agent_model_info_get_name (info), size,
                  or_dash (agent_model_info_get_family (info)),
                  or_dash (agent_model_info_get_parameter_size (info)),
                  or_dash (agent_model_info_get_quantization (info)), context,
                  or_dash (capabilities), NULL);
}

static int
fail (Models *models,
      GError *error)
{
  cli_output_error (models->output, error);
  g_error_free (error);
  return EXIT_FAILURE;
}

static GListModel *
list_models (Models  *models,
             GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_model_manager_list_async (models->manager, models->cancellable, result_cb, &result);
  return agent_model_manager_list_finish (models->manager, wait_result (&result), error);
}

static int
list_details (Models *models)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GListModel) list = NULL;
  GError *error = NULL;
  guint n;

  if (!(list = list_models (models, &error)))
    return fail (models, error);

  n = g_list_model_get_n_items (list);
  g_ptr_array_add (rows, row_new (_("NAME"), _("SIZE"), _("FAMILY"), _("PARAMETERS"),
                                  _("QUANTIZATION"), _("CONTEXT"), _("CAPABILITIES"), NULL));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (list, i);

      if (models->json)
        emit_model (models, info, FALSE);
      else
        g_ptr_array_add (rows, model_row (info));
    }
  if (!models->json)
    print_table (rows, 7);
  return EXIT_SUCCESS;
}

static int
list_running (Models *models)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) list = NULL;
  GError *error = NULL;
  guint n;

  agent_model_manager_list_running_async (models->manager, models->cancellable, result_cb,
                                          &result);
  list = agent_model_manager_list_running_finish (models->manager, wait_result (&result), &error);
  if (list == NULL)
    return fail (models, error);

  n = g_list_model_get_n_items (list);
  g_ptr_array_add (rows, row_new (_("NAME"), _("SIZE"), _("IN GPU"), _("UNTIL"), NULL));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (list, i);
      GDateTime *expires_at = agent_model_info_get_expires_at (info);
      g_autofree char *size = format_size (agent_model_info_get_size (info));
      g_autofree char *vram = format_size (agent_model_info_get_size_vram (info));
      g_autoptr(GDateTime) local = expires_at ? g_date_time_to_local (expires_at) : NULL;
      g_autofree char *until = local ? g_date_time_format (local, "%Y-%m-%d %H:%M:%S")
                                     : g_strdup ("-");

      if (models->json)
        emit_model (models, info, TRUE);
      else
        g_ptr_array_add (rows, row_new (agent_model_info_get_name (info), size, vram, until,
                                        NULL));
    }
  if (!models->json)
    print_table (rows, 4);
  return EXIT_SUCCESS;
}

static int
show_model (Models *models)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AgentModelInfo) info = NULL;
  g_autofree char *context = NULL;
  g_autofree char *capabilities = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  agent_model_manager_show_async (models->manager, opt_show_model, models->cancellable,
                                  result_cb, &result);
  info = agent_model_manager_show_finish (models->manager, wait_result (&result), &error);
  if (info == NULL)
    return fail (models, error);

  if (models->json)
    {
      emit_model (models, info, FALSE);
      return EXIT_SUCCESS;
    }

  context = format_tokens (agent_model_info_get_context_length (info));
  capabilities = agent_model_capabilities_to_string (agent_model_info_get_capabilities (info));
  text = g_strdup_printf ("%s\n  %s: %s\n  %s: %s\n  %s: %s\n  %s: %s\n  %s: %s\n",
                          agent_model_info_get_name (info),
                          _("Family"), or_dash (agent_model_info_get_family (info)),
                          _("Parameters"), or_dash (agent_model_info_get_parameter_size (info)),
                          _("Quantization"), or_dash (agent_model_info_get_quantization (info)),
                          _("Context window"), context,
                          _("Capabilities"), or_dash (capabilities));
  print_text (text);
  return EXIT_SUCCESS;
}

/* A pull's progress */

static void
draw_bar (Models            *models,
          AgentPullProgress *progress)
{
  double fraction = agent_pull_progress_get_fraction (progress);
  g_autoptr(GString) line = g_string_new ("\r");
  g_autofree char *status = cli_escape_for_terminal (agent_pull_progress_get_status (progress),
                                                     FALSE);

  if (fraction >= 0)
    {
      g_autofree char *done = g_format_size (agent_pull_progress_get_overall_completed (progress));
      g_autofree char *total = g_format_size (agent_pull_progress_get_overall_total (progress));
      int filled = (int) (fraction * BAR_WIDTH);

      g_string_append_c (line, '[');
      for (int i = 0; i < BAR_WIDTH; i++)
        g_string_append (line, i < filled ? "#" : "-");
      g_string_append_printf (line, "] %3d%%  %s / %s  ", (int) (fraction * 100), done, total);
    }
  g_string_append_printf (line, "%.40s", status);
  /* Clears what a longer line left */
  g_string_append (line, "\033[K");
  fputs (line->str, stdout);
  fflush (stdout);
  models->bar_drawn = TRUE;
}

static void
print_step (Models            *models,
            AgentPullProgress *progress)
{
  const char *status = agent_pull_progress_get_status (progress);
  double fraction = agent_pull_progress_get_fraction (progress);
  int tenth = fraction >= 0 ? (int) (fraction * 10) : -1;
  g_autofree char *text = NULL;

  /* A line when the step changes, and at each tenth of the whole */
  if (g_strcmp0 (status, models->shown_status) == 0 && tenth == models->shown_tenth)
    return;
  g_free (models->shown_status);
  models->shown_status = g_strdup (status);
  models->shown_tenth = tenth;

  if (fraction >= 0)
    text = g_strdup_printf ("%s (%d%%)\n", status, (int) (fraction * 100));
  else
    text = g_strdup_printf ("%s\n", status);
  print_text (text);
  fflush (stdout);
}

static void
pull_progress_cb (AgentModelManager *manager,
                  AgentPullProgress *progress,
                  Models            *models)
{
  if (models->json)
    {
      JsonBuilder *builder = cli_output_begin_event ("pull-progress");

      cli_output_add_string (builder, "model", agent_pull_progress_get_model (progress));
      cli_output_add_string (builder, "status", agent_pull_progress_get_status (progress));
      cli_output_add_string (builder, "digest", agent_pull_progress_get_digest (progress));
      add_member_int (builder, "completed", agent_pull_progress_get_completed (progress));
      add_member_int (builder, "total", agent_pull_progress_get_total (progress));
      add_member_int (builder, "overall_completed",
                      agent_pull_progress_get_overall_completed (progress));
      add_member_int (builder, "overall_total", agent_pull_progress_get_overall_total (progress));
      cli_output_end_event (models->output, builder);
    }
  else if (models->tty)
    draw_bar (models, progress);
  else
    print_step (models, progress);
}

static void
emit_done (Models     *models,
           const char *type,
           const char *model)
{
  JsonBuilder *builder = cli_output_begin_event (type);

  cli_output_add_string (builder, "model", model);
  cli_output_end_event (models->output, builder);
}

static int
pull (Models *models)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *error = NULL;
  gulong handler;

  handler = g_signal_connect (models->manager, "pull-progress", G_CALLBACK (pull_progress_cb),
                              models);
  models->shown_tenth = -2;
  agent_model_manager_pull_async (models->manager, opt_pull, models->cancellable, result_cb,
                                  &result);
  agent_model_manager_pull_finish (models->manager, wait_result (&result), &error);
  g_signal_handler_disconnect (models->manager, handler);
  g_clear_pointer (&models->shown_status, g_free);

  if (models->bar_drawn)
    fputc ('\n', stdout);
  fflush (stdout);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) cancelled = NULL;

      /* Translators: %s is a model's name */
      cancelled = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The pull of “%s” was cancelled; pulling it again resumes "
                                 "the download"), opt_pull);
      g_error_free (error);
      if (models->json)
        cli_output_error (models->output, cancelled);
      else
        g_printerr ("%s\n", cancelled->message);
      return EXIT_INTERRUPTED;
    }
  if (error != NULL)
    return fail (models, error);

  if (models->json)
    emit_done (models, "pulled", opt_pull);
  else
    {
      /* Translators: %s is a model's name */
      g_autofree char *text = g_strdup_printf (_("Pulled %s.\n"), opt_pull);

      print_text (text);
    }
  return EXIT_SUCCESS;
}

/* Deleting */

/* The size of @model as the server lists it, or NULL (not installed) */
static char *
dup_model_size (Models      *models,
                const char  *model,
                GError     **error)
{
  g_autoptr(GListModel) list = NULL;
  g_autofree char *tagged = strchr (model, ':') ? g_strdup (model)
                                                : g_strconcat (model, ":latest", NULL);
  guint n;

  if (!(list = list_models (models, error)))
    return NULL;
  n = g_list_model_get_n_items (list);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (list, i);
      const char *name = agent_model_info_get_name (info);

      if (g_str_equal (name, model) || g_str_equal (name, tagged))
        return format_size (agent_model_info_get_size (info));
    }
  /* Translators: the first and second %s are a model's name */
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND,
               _("Model “%s” is not installed; pull it with `agent-cli --pull %s`"),
               model, model);
  return NULL;
}

static gboolean
ask_delete (const char *model,
            const char *size)
{
  char answer[64] = "";
  g_autofree char *name = cli_escape_for_terminal (model, FALSE);

  /* Translators: the first %s is a model's name, the second its size
   * ("4.7 GB"); keep "[y/N]" if your answers below keep "y" */
  fprintf (stderr, _("Delete %s (%s)? [y/N] "), name, size);
  fflush (stderr);
  if (fgets (answer, sizeof answer, stdin) == NULL)
    return FALSE;
  g_strstrip (answer);

  /* Translators: the answers that mean yes besides "y" and "yes",
   * separated by |, lower case */
  {
    g_auto(GStrv) yes = g_strsplit (_("y|yes"), "|", -1);
    g_autofree char *lower = g_utf8_strdown (answer, -1);

    if (g_str_equal (lower, "y") || g_str_equal (lower, "yes"))
      return TRUE;
    return g_strv_contains ((const char * const *) yes, lower);
  }
}

static int
delete_model (Models   *models,
              gboolean  yes)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *size = NULL;
  GError *error = NULL;

  if (!yes)
    {
      if (!isatty (STDIN_FILENO))
        return fail (models, g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                          /* Translators: %s is a model's name */
                                          _("Not deleting “%s”: there is no terminal to ask on; "
                                            "add --yes to delete it without asking"),
                                          opt_delete_model));
      if (!(size = dup_model_size (models, opt_delete_model, &error)))
        return fail (models, error);
      if (!ask_delete (opt_delete_model, size))
        {
          g_printerr ("%s\n", _("Not deleted."));
          return EXIT_FAILURE;
        }
    }

  agent_model_manager_delete_async (models->manager, opt_delete_model, models->cancellable,
                                    result_cb, &result);
  if (!agent_model_manager_delete_finish (models->manager, wait_result (&result), &error))
    return fail (models, error);

  if (models->json)
    emit_done (models, "deleted", opt_delete_model);
  else
    {
      /* Translators: %s is a model's name */
      g_autofree char *text = g_strdup_printf (_("Deleted %s.\n"), opt_delete_model);

      print_text (text);
    }
  return EXIT_SUCCESS;
}

static int
unload_model (Models *models)
{
  g_autoptr(GAsyncResult) result = NULL;
  GError *error = NULL;

  agent_model_manager_unload_async (models->manager, opt_unload_model, models->cancellable,
                                    result_cb, &result);
  if (!agent_model_manager_unload_finish (models->manager, wait_result (&result), &error))
    return fail (models, error);

  if (models->json)
    emit_done (models, "unloaded", opt_unload_model);
  else
    {
      /* Translators: %s is a model's name */
      g_autofree char *text = g_strdup_printf (_("Unloaded %s.\n"), opt_unload_model);

      print_text (text);
    }
  return EXIT_SUCCESS;
}

int
cli_models_run (AgentProvider *provider,
                CliOutput     *output,
                gboolean       json,
                gboolean       list_models,
                gboolean       yes,
                GCancellable  *cancellable)
{
  g_autoptr(AgentModelManager) manager = agent_model_manager_new (provider);
  Models models = { 0 };
  int status;

  models.manager = manager;
  models.output = output;
  models.json = json;
  models.tty = isatty (STDOUT_FILENO);
  models.cancellable = cancellable;

  if (opt_pull != NULL)
    status = pull (&models);
  else if (opt_delete_model != NULL)
    status = delete_model (&models, yes);
  else if (opt_unload_model != NULL)
    status = unload_model (&models);
  else if (opt_show_model != NULL)
    status = show_model (&models);
  else if (opt_list_running)
    status = list_running (&models);
  else
    status = list_details (&models);

  fflush (stdout);
  if (status == EXIT_SUCCESS && cli_output_report_failure (output))
    return EXIT_FAILURE;
  return status;
}
