/* agent-chat-models-window.c
 *
 * The Models window: the models of the server in use, managed as Alpaca
 * does for Ollama. A window of its own (from the main menu's Models and
 * the picker's Get More Models…), not a page of Preferences: a pull takes
 * minutes, and the window stays open beside the chat meanwhile, while
 * Preferences is a dialog closed once a setting is made.
 *
 * It lists the installed models (name, size, family, parameters,
 * quantization, context length, capability badges), marks the ones the
 * server holds in memory with when they unload and an Unload Now button,
 * pulls a model by name with a progress bar and Cancel (several at once),
 * and deletes one after asking. Ollama keeps nothing of a deleted model,
 * so there is no Undo: the toast after a delete offers Pull Again, which
 * downloads it anew, and the question before says so.
 *
 * A server without a manager (anything but Ollama's native API) gets a
 * status page that says so; a server that cannot be reached, one with the
 * error and Retry. Every call is an AgentModelManager call with the
 * window's cancellable, cancelled when the window goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-model-row.h"
#include "agent-chat-models-window.h"
#include "agent-chat-names.h"
#include "agent-chat-pull-row.h"
#include "agent-gtk-alert-private.h"

/* How often the running models are asked for again, while the window shows */
#define RUNNING_INTERVAL_SECONDS 30

struct _AgentChatModelsWindow
{
  AdwWindow          parent_instance;

  AdwWindowTitle    *window_title;
  AdwToastOverlay   *toast_overlay;
  GtkStack          *stack;
  GtkSpinner        *spinner;
  AdwStatusPage     *unsupported_page;
  AdwStatusPage     *error_page;
  GtkWidget         *retry_button;
  AdwEntryRow       *pull_entry;
  GtkListBox        *pull_list;
  GtkListBox        *model_list;
  AdwStatusPage     *empty_page;

  AgentModelManager *manager;
  GCancellable      *cancellable;  /* of the listing; cancelled when the window goes */
  GHashTable        *pulls;        /* model → GCancellable of its pull */
  GListModel        *installed;
  GListModel        *running;
  guint              running_source;
  guint              listing;      /* calls of a refresh not yet answered */
};

G_DEFINE_FINAL_TYPE (AgentChatModelsWindow, agent_chat_models_window, ADW_TYPE_WINDOW)

static void list_running (AgentChatModelsWindow *self);

static void
toast (AgentChatModelsWindow *self,
       const char            *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The model called @name in @models (of AgentModelInfo), or NULL */
static AgentModelInfo *
find_model (GListModel *models,
            const char *name)
{
  guint n = models ? g_list_model_get_n_items (models) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (models, i);

      if (g_strcmp0 (agent_model_info_get_name (info), name) == 0)
        return info;
    }
  return NULL;
}

static void
update_running (AgentChatModelsWindow *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->model_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      AgentChatModelRow *model_row = AGENT_CHAT_MODEL_ROW (row);
      AgentModelInfo *info = agent_chat_model_row_get_info (model_row);

      agent_chat_model_row_set_running (model_row,
                                        find_model (self->running, agent_model_info_get_name (info)));
    }
}

static void
show_models (AgentChatModelsWindow *self)
{
  guint n = g_list_model_get_n_items (self->installed);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->model_list))) != NULL)
    gtk_list_box_remove (self->model_list, child);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (self->installed, i);

      gtk_list_box_append (self->model_list, agent_chat_model_row_new (info));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->model_list), n > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->empty_page), n == 0);
  update_running (self);
  gtk_stack_set_visible_child_name (self->stack, "models");
  gtk_spinner_stop (self->spinner);
}

static void
show_error (AgentChatModelsWindow *self,
            const GError          *error)
{
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  gtk_spinner_stop (self->spinner);
}

static void
on_listed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AgentChatModelsWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) installed = agent_model_manager_list_finish (AGENT_MODEL_MANAGER (object),
                                                                     result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->listing--;
  if (installed == NULL)
    {
      show_error (self, error);
      return;
    }
  g_set_object (&self->installed, installed);
  show_models (self);
}

static void
on_running_listed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  AgentChatModelsWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) running = agent_model_manager_list_running_finish (
    AGENT_MODEL_MANAGER (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* An old server without /api/ps: nothing shows as loaded */
  g_set_object (&self->running, running);
  update_running (self);
}

static void
list_running (AgentChatModelsWindow *self)
{
  if (!agent_model_manager_get_supported (self->manager))
    return;
  agent_model_manager_list_running_async (self->manager, self->cancellable, on_running_listed,
                                          self);
}

static gboolean
on_running_timeout (gpointer user_data)
{
  list_running (user_data);
  return G_SOURCE_CONTINUE;
}

/**
 * agent_chat_models_window_refresh:
 * @self: the Models window
 *
 * Asks the server again for its models and the ones it has loaded.
 */
void
agent_chat_models_window_refresh (AgentChatModelsWindow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_MODELS_WINDOW (self));

  if (!agent_model_manager_get_supported (self->manager))
    {
      AgentProvider *provider = agent_model_manager_get_provider (self->manager);
      const char *name = provider ? agent_provider_get_name (provider) : NULL;
      g_autofree char *text = g_strdup_printf (
        _("%s servers list their models but do not let Agent Chat pull, delete or unload them. "
          "Ollama servers do."), name ? agent_chat_provider_title (name) : _("These"));

      adw_status_page_set_description (self->unsupported_page, text);
      gtk_stack_set_visible_child_name (self->stack, "unsupported");
      return;
    }
  /* The spinner shows only the first time: later, the list stays while it is asked again */
  if (self->installed == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "loading");
      gtk_spinner_start (self->spinner);
    }
  self->listing++;
  agent_model_manager_list_async (self->manager, self->cancellable, on_listed, self);
  list_running (self);
}

/* Pull */

static AgentChatPullRow *
find_pull_row (AgentChatModelsWindow *self,
               const char            *model)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->pull_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (agent_chat_pull_row_get_model (AGENT_CHAT_PULL_ROW (row)), model) == 0)
      return AGENT_CHAT_PULL_ROW (row);
  return NULL;
}

static void
remove_pull_row (AgentChatModelsWindow *self,
                 const char            *model)
{
  AgentChatPullRow *row = find_pull_row (self, model);

  if (row != NULL)
    gtk_list_box_remove (self->pull_list, GTK_WIDGET (row));
  gtk_widget_set_visible (GTK_WIDGET (self->pull_list),
                          gtk_widget_get_first_child (GTK_WIDGET (self->pull_list)) != NULL);
}

static void
on_pull_progress (AgentChatModelsWindow *self,
                  AgentPullProgress     *progress)
{
  AgentChatPullRow *row = find_pull_row (self, agent_pull_progress_get_model (progress));

  if (row != NULL)
    agent_chat_pull_row_set_progress (row, progress);
}

typedef struct
{
  AgentChatModelsWindow *self;  /* a reference */
  char                  *model;
} Pull;

static void
pull_free (Pull *pull)
{
  g_object_unref (pull->self);
  g_free (pull->model);
  g_free (pull);
}

static void
on_pulled (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Pull *pull = user_data;
  AgentChatModelsWindow *self = pull->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  agent_model_manager_pull_finish (AGENT_MODEL_MANAGER (object), result, &error);
  g_hash_table_remove (self->pulls, pull->model);
  if (gtk_widget_in_destruction (GTK_WIDGET (self)) || self->manager == NULL)
    ;
  else if (error == NULL)
    {
      remove_pull_row (self, pull->model);
      /* Translators: a toast, "Pulled llama3.2" */
      text = g_strdup_printf (_("Pulled %s"), pull->model);
      toast (self, text);
      agent_chat_models_window_refresh (self);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      remove_pull_row (self, pull->model);
      /* Translators: a toast, after Cancel */
      text = g_strdup_printf (_("Pulling %s was cancelled"), pull->model);
      toast (self, text);
    }
  else
    {
      AgentChatPullRow *row = find_pull_row (self, pull->model);

      /* The manager's words: what happened (no such model, a full disk,
       * the registry out of reach) and what to do */
      if (row != NULL)
        agent_chat_pull_row_set_error (row, error->message);
    }
  pull_free (pull);
}

static void
start_pull (AgentChatModelsWindow *self,
            const char            *name)
{
  g_autofree char *model = g_strstrip (g_strdup (name));
  GCancellable *cancellable;
  AgentChatPullRow *row;
  Pull *pull;

  if (*model == '\0' || !agent_model_manager_get_supported (self->manager))
    return;
  if (g_hash_table_contains (self->pulls, model))
    return;
  /* A failed pull of the same model, shown still, makes way */
  if ((row = find_pull_row (self, model)) != NULL)
    gtk_list_box_remove (self->pull_list, GTK_WIDGET (row));
  gtk_list_box_append (self->pull_list, agent_chat_pull_row_new (model));
  gtk_widget_set_visible (GTK_WIDGET (self->pull_list), TRUE);
  cancellable = g_cancellable_new ();
  g_hash_table_insert (self->pulls, g_strdup (model), cancellable);
  pull = g_new0 (Pull, 1);
  pull->self = g_object_ref (self);
  pull->model = g_strdup (model);
  agent_model_manager_pull_async (self->manager, model, cancellable, on_pulled, pull);
}

static void
on_pull_entry_apply (AgentChatModelsWindow *self)
{
  g_autofree char *model = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->pull_entry)));

  start_pull (self, model);
  gtk_editable_set_text (GTK_EDITABLE (self->pull_entry), "");
}

static void
pull_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  start_pull (AGENT_CHAT_MODELS_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
cancel_pull_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  AgentChatModelsWindow *self = AGENT_CHAT_MODELS_WINDOW (widget);
  GCancellable *cancellable = g_hash_table_lookup (self->pulls,
                                                   g_variant_get_string (parameter, NULL));

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

static void
dismiss_pull_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  remove_pull_row (AGENT_CHAT_MODELS_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* Delete */

static void
on_deleted (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Pull *call = user_data;
  AgentChatModelsWindow *self = call->self;
  g_autoptr(GError) error = NULL;

  if (!agent_model_manager_delete_finish (AGENT_MODEL_MANAGER (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: a toast, "llama3.2 could not be deleted: …" */
          g_autofree char *text = g_strdup_printf (_("%s could not be deleted: %s"), call->model,
                                                   error->message);

          toast (self, text);
        }
    }
  else
    {
      /* Ollama keeps nothing of it: the way back is to pull it again */
      /* Translators: a toast after a delete, "Deleted llama3.2" */
      g_autofree char *text = g_strdup_printf (_("Deleted %s"), call->model);
      AdwToast *deleted = adw_toast_new (text);

      adw_toast_set_button_label (deleted, _("_Pull Again"));
      adw_toast_set_action_name (deleted, "models.pull");
      adw_toast_set_action_target_value (deleted, g_variant_new_string (call->model));
      adw_toast_set_timeout (deleted, 10);
      adw_toast_overlay_add_toast (self->toast_overlay, deleted);
      agent_chat_models_window_refresh (self);
    }
  pull_free (call);
}

static void
on_delete_response (AgentGtkAlert         *dialog,
                    const char            *response,
                    AgentChatModelsWindow *self)
{
  const char *model = g_object_get_data (G_OBJECT (dialog), "model");
  Pull *call;

  if (g_strcmp0 (response, "delete") != 0 || self->manager == NULL)
    return;
  call = g_new0 (Pull, 1);
  call->self = g_object_ref (self);
  call->model = g_strdup (model);
  agent_model_manager_delete_async (self->manager, model, self->cancellable, on_deleted, call);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentChatModelsWindow *self = AGENT_CHAT_MODELS_WINDOW (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  AgentModelInfo *info = find_model (self->installed, model);
  g_autofree char *size = g_format_size (info ? agent_model_info_get_size (info) : 0);
  /* Translators: the question before a delete, "Delete llama3.2?" */
  g_autofree char *heading = g_strdup_printf (_("Delete %s?"), model);
  g_autofree char *body = g_strdup_printf (
    _("Its files (%s) are removed from the server, which keeps no copy: to use it again, it has "
      "to be pulled again, downloading all of it."), size);
  AgentGtkAlert *dialog = agent_gtk_alert_new (GTK_WIDGET (self), heading, body);

  agent_gtk_alert_add_response (dialog, "cancel", _("_Cancel"), ADW_RESPONSE_DEFAULT);
  agent_gtk_alert_add_response (dialog, "delete", _("_Delete"), ADW_RESPONSE_DESTRUCTIVE);
  agent_gtk_alert_set_responses (dialog, "cancel", "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "model", g_strdup (model), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_delete_response), self, 0);
  agent_gtk_alert_present (dialog);
}

/* Unload */

static void
on_unloaded (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Pull *call = user_data;
  AgentChatModelsWindow *self = call->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (agent_model_manager_unload_finish (AGENT_MODEL_MANAGER (object), result, &error))
    {
      /* Translators: a toast, "Unloaded llama3.2" */
      text = g_strdup_printf (_("Unloaded %s"), call->model);
      list_running (self);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* Translators: a toast, "llama3.2 could not be unloaded: …" */
    text = g_strdup_printf (_("%s could not be unloaded: %s"), call->model, error->message);
  if (text != NULL)
    toast (self, text);
  pull_free (call);
}

static void
unload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentChatModelsWindow *self = AGENT_CHAT_MODELS_WINDOW (widget);
  Pull *call = g_new0 (Pull, 1);

  call->self = g_object_ref (self);
  call->model = g_variant_dup_string (parameter, NULL);
  agent_model_manager_unload_async (self->manager, call->model, self->cancellable, on_unloaded,
                                    call);
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  agent_chat_models_window_refresh (AGENT_CHAT_MODELS_WINDOW (widget));
}

static void
on_map (AgentChatModelsWindow *self)
{
  if (self->running_source == 0)
    self->running_source = g_timeout_add_seconds (RUNNING_INTERVAL_SECONDS, on_running_timeout,
                                                  self);
}

static void
on_unmap (AgentChatModelsWindow *self)
{
  g_clear_handle_id (&self->running_source, g_source_remove);
}

static void
cancel_pulls (AgentChatModelsWindow *self)
{
  GHashTableIter iter;
  GCancellable *cancellable;

  if (self->pulls == NULL)
    return;
  g_hash_table_iter_init (&iter, self->pulls);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &cancellable))
    g_cancellable_cancel (cancellable);
}

static void
agent_chat_models_window_dispose (GObject *object)
{
  AgentChatModelsWindow *self = AGENT_CHAT_MODELS_WINDOW (object);

  g_clear_handle_id (&self->running_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  cancel_pulls (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MODELS_WINDOW);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->manager);
  g_clear_object (&self->installed);
  g_clear_object (&self->running);

  G_OBJECT_CLASS (agent_chat_models_window_parent_class)->dispose (object);
}

static void
agent_chat_models_window_finalize (GObject *object)
{
  AgentChatModelsWindow *self = AGENT_CHAT_MODELS_WINDOW (object);

  g_clear_pointer (&self->pulls, g_hash_table_unref);

  G_OBJECT_CLASS (agent_chat_models_window_parent_class)->finalize (object);
}

static void
agent_chat_models_window_class_init (AgentChatModelsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_models_window_dispose;
  object_class->finalize = agent_chat_models_window_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/libagent/Chat/agent-chat-models-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, unsupported_page);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, retry_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, pull_entry);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, pull_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, model_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelsWindow, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, on_pull_entry_apply);

  gtk_widget_class_install_action (widget_class, "models.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "models.pull", "s", pull_action);
  gtk_widget_class_install_action (widget_class, "models.cancel-pull", "s", cancel_pull_action);
  gtk_widget_class_install_action (widget_class, "models.dismiss-pull", "s",
                                   dismiss_pull_action);
  gtk_widget_class_install_action (widget_class, "models.delete", "s", delete_action);
  gtk_widget_class_install_action (widget_class, "models.unload", "s", unload_action);
}

static void
agent_chat_models_window_init (AgentChatModelsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->pulls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  agent_chat_a11y_name_toasts (self->toast_overlay);
  agent_chat_a11y_name_status_page (self->unsupported_page);
  agent_chat_a11y_name_status_page (self->error_page);
  agent_chat_a11y_name_button (self->retry_button);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  g_signal_connect (self, "unmap", G_CALLBACK (on_unmap), NULL);
}

/**
 * agent_chat_models_window_new:
 * @provider: the provider of the server in use, with its key
 * @server: (nullable): the server as the window's subtitle names it
 *
 * Returns: (transfer full): a Models window for the server of @provider,
 *   which it starts listing
 */
GtkWindow *
agent_chat_models_window_new (AgentProvider *provider,
                              const char    *server)
{
  AgentChatModelsWindow *self;

  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MODELS_WINDOW, NULL);
  self->manager = agent_model_manager_new (provider);
  g_signal_connect_object (self->manager, "pull-progress", G_CALLBACK (on_pull_progress), self,
                           G_CONNECT_SWAPPED);
  adw_window_title_set_subtitle (self->window_title, server);
  agent_chat_models_window_refresh (self);
  return GTK_WINDOW (self);
}

AgentModelManager *
agent_chat_models_window_get_manager (AgentChatModelsWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MODELS_WINDOW (self), NULL);

  return self->manager;
}
