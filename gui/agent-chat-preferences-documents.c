/* agent-chat-preferences-documents.c
 *
 * Preferences › Documents: the folders the search_documents tool searches
 * (Add Folder… with the folder chooser, a Remove button on each), the
 * embedding model (saved when applied: Enter or its button), and the index
 * of AgentChatDocuments: how far an update is (a progress bar over
 * files-done / files-total), Index Now, what the last update left ("12
 * files, 40 chunks", or why it failed) and the files it could not index,
 * each with its reason, folded under one row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-preferences-documents.h"

struct _AgentChatPreferencesDocuments
{
  AdwPreferencesGroup   parent_instance;

  GtkButton            *add_button;
  AdwEntryRow          *model_row;
  AdwActionRow         *index_row;
  GtkProgressBar       *progress_bar;
  GtkButton            *index_button;
  AdwExpanderRow       *failures_row;

  GSettings            *settings;
  AgentChatDocuments   *documents;
  GPtrArray            *folder_rows;
  GPtrArray            *failure_rows;
};

G_DEFINE_FINAL_TYPE (AgentChatPreferencesDocuments, agent_chat_preferences_documents,
                     ADW_TYPE_PREFERENCES_GROUP)

/* Index Now: while there are folders and no update runs */
static void
sync_index_button (AgentChatPreferencesDocuments *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "document-folders");

  gtk_widget_set_sensitive (GTK_WIDGET (self->index_button),
                            folders[0] != NULL &&
                            !agent_chat_documents_get_indexing (self->documents));
}

/* The folders */

static void
set_folders (AgentChatPreferencesDocuments *self,
             const char                    *add,
             const char                    *remove)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "document-folders");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; folders[i] != NULL; i++)
    if (g_strcmp0 (folders[i], remove) != 0 && g_strcmp0 (folders[i], add) != 0)
      g_strv_builder_add (builder, folders[i]);
  if (add != NULL)
    g_strv_builder_add (builder, add);
  result = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "document-folders", (const char * const *) result);
}

static void
on_remove_clicked (GtkButton                     *button,
                   AgentChatPreferencesDocuments *self)
{
  set_folders (self, NULL, g_object_get_data (G_OBJECT (button), "folder"));
}

static void
sync_folders (AgentChatPreferencesDocuments *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "document-folders");

  for (guint i = 0; i < self->folder_rows->len; i++)
    adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self),
                                  g_ptr_array_index (self->folder_rows, i));
  g_ptr_array_set_size (self->folder_rows, 0);
  for (guint i = 0; folders[i] != NULL; i++)
    {
      g_autofree char *name = g_path_get_basename (folders[i]);
      /* Translators: the name of a button; %s is a folder's name */
      g_autofree char *label = g_strdup_printf (_("Remove Folder “%s”"), name);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folders[i]);
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove Folder"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      label, -1);
      g_object_set_data_full (G_OBJECT (remove), "folder", g_strdup (folders[i]), g_free);
      g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_clicked), self, 0);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), row);
      g_ptr_array_add (self->folder_rows, row);
    }
  sync_index_button (self);
}

static void
on_folder_chosen (GtkNativeDialog               *chooser,
                  int                            response,
                  AgentChatPreferencesDocuments *self)
{
  g_autoptr(GFile) folder = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL &&
      (path = g_file_get_path (folder)) != NULL)
    set_folders (self, path, NULL);
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
on_add_clicked (AgentChatPreferencesDocuments *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Add Folder"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Add"), NULL);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_folder_chosen), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The model */

static void
sync_model (AgentChatPreferencesDocuments *self)
{
  g_autofree char *model = g_settings_get_string (self->settings, "embedding-model");

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->model_row)), model) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->model_row), model);
}

static void
on_model_applied (AgentChatPreferencesDocuments *self)
{
  g_autofree char *model = g_strstrip (g_strdup (gtk_editable_get_text (
                                         GTK_EDITABLE (self->model_row))));

  g_settings_set_string (self->settings, "embedding-model", model);
}

/* The index */

static void
sync_progress (AgentChatPreferencesDocuments *self)
{
  guint done = agent_chat_documents_get_files_done (self->documents);
  guint total = agent_chat_documents_get_files_total (self->documents);
  gboolean indexing = agent_chat_documents_get_indexing (self->documents);
  g_autofree char *text = NULL;

  if (indexing && total > 0)
    /* Translators: an update of the index under way */
    text = g_strdup_printf (_("Indexing: %u of %u files"), done, total);
  adw_action_row_set_subtitle (self->index_row,
                               text != NULL ? text
                                            : agent_chat_documents_get_status (self->documents));
  gtk_progress_bar_set_fraction (self->progress_bar, total > 0 ? (double) done / total : 0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), total > 0);
  sync_index_button (self);
}

static void
add_failure_row (AgentChatPreferencesDocuments *self,
                 const char                    *failure)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), failure);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_expander_row_add_row (self->failures_row, row);
  g_ptr_array_add (self->failure_rows, row);
}

/* The failures are appended while an update runs, and cleared when the
 * next starts */
static void
on_failures_changed (AgentChatPreferencesDocuments *self,
                     guint                          position,
                     guint                          removed,
                     guint                          added,
                     GListModel                    *failures)
{
  guint n = g_list_model_get_n_items (failures);
  g_autofree char *subtitle = NULL;

  if (removed > 0 || position != self->failure_rows->len)
    {
      for (guint i = 0; i < self->failure_rows->len; i++)
        adw_expander_row_remove (self->failures_row, g_ptr_array_index (self->failure_rows, i));
      g_ptr_array_set_size (self->failure_rows, 0);
      position = 0;
      added = n;
    }
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkStringObject) failure = g_list_model_get_item (failures, i);

      add_failure_row (self, gtk_string_object_get_string (failure));
    }
  subtitle = g_strdup_printf (ngettext ("%u file could not be indexed",
                                        "%u files could not be indexed", n), n);
  adw_expander_row_set_subtitle (self->failures_row, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->failures_row), n > 0);
}

static void
on_index_clicked (AgentChatPreferencesDocuments *self)
{
  agent_chat_documents_update (self->documents);
}

static void
agent_chat_preferences_documents_dispose (GObject *object)
{
  AgentChatPreferencesDocuments *self = AGENT_CHAT_PREFERENCES_DOCUMENTS (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_PREFERENCES_DOCUMENTS);
  g_clear_pointer (&self->folder_rows, g_ptr_array_unref);
  g_clear_pointer (&self->failure_rows, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->documents);

  G_OBJECT_CLASS (agent_chat_preferences_documents_parent_class)->dispose (object);
}

static void
agent_chat_preferences_documents_class_init (AgentChatPreferencesDocumentsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_preferences_documents_dispose;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/libagent/Chat/agent-chat-preferences-documents.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments, add_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments, model_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments, index_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments,
                                        progress_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments,
                                        index_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesDocuments,
                                        failures_row);
}

static void
agent_chat_preferences_documents_init (AgentChatPreferencesDocuments *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Rows the group holds: removed from it, not freed */
  self->folder_rows = g_ptr_array_new ();
  self->failure_rows = g_ptr_array_new ();
}

/**
 * agent_chat_preferences_documents_setup:
 * @self: a #AgentChatPreferencesDocuments
 * @settings: the app's settings
 * @documents: the app's documents and their index
 *
 * Shows and edits the documents of @settings, and @documents' index.
 */
void
agent_chat_preferences_documents_setup (AgentChatPreferencesDocuments *self,
                                        GSettings                     *settings,
                                        AgentChatDocuments            *documents)
{
  static const char * const progress[] = {
    "notify::indexing", "notify::files-done", "notify::files-total", "notify::status",
  };

  g_return_if_fail (AGENT_CHAT_IS_PREFERENCES_DOCUMENTS (self));
  g_return_if_fail (self->settings == NULL);

  self->settings = g_object_ref (settings);
  self->documents = g_object_ref (documents);
  sync_folders (self);
  sync_model (self);
  sync_progress (self);
  on_failures_changed (self, 0, 0,
                       g_list_model_get_n_items (agent_chat_documents_get_failures (documents)),
                       agent_chat_documents_get_failures (documents));
  g_signal_connect_object (settings, "changed::document-folders", G_CALLBACK (sync_folders), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::embedding-model", G_CALLBACK (sync_model), self,
                           G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (progress); i++)
    g_signal_connect_object (documents, progress[i], G_CALLBACK (sync_progress), self,
                             G_CONNECT_SWAPPED);
  g_signal_connect_object (agent_chat_documents_get_failures (documents), "items-changed",
                           G_CALLBACK (on_failures_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->add_button, "clicked", G_CALLBACK (on_add_clicked), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_row, "apply", G_CALLBACK (on_model_applied), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->index_button, "clicked", G_CALLBACK (on_index_clicked), self,
                           G_CONNECT_SWAPPED);
}
