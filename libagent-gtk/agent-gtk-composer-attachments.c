/* agent-gtk-composer-attachments.c
 *
 * The composer's attachments: images and documents that go with the
 * message, added by the Attach button (Ctrl+O), by pasting files or an
 * image, or by dropping files on the composer; shown above the text (an
 * image's thumbnail, a document's chip), each with a button that removes
 * it, until the message is sent. A file that cannot be read is refused
 * with ::attachment-error, which names it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-attachment-private.h"
#include "agent-gtk-composer-private.h"

/**
 * agent_gtk_composer_get_attachments:
 * @self: a composer
 *
 * Gets the images and documents that go with the message, in their order.
 *
 * Returns: (transfer none): a list of [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
GListModel *
agent_gtk_composer_get_attachments (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);
  return G_LIST_MODEL (self->attachments);
}

/**
 * agent_gtk_composer_add_attachment:
 * @self: a composer
 * @part: an image or a document
 *
 * Adds @part to what goes with the message; it shows above the text, with
 * a button that removes it.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_add_attachment (AgentGtkComposer *self,
                                   AgentContentPart *part)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));
  g_return_if_fail (AGENT_IS_CONTENT_PART (part));

  g_list_store_append (self->attachments, part);
}

/**
 * agent_gtk_composer_remove_attachment:
 * @self: a composer
 * @part: one of its attachments
 *
 * Takes @part off the message, as its remove button does.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_remove_attachment (AgentGtkComposer *self,
                                      AgentContentPart *part)
{
  guint position;

  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));
  g_return_if_fail (AGENT_IS_CONTENT_PART (part));

  if (g_list_store_find (self->attachments, part, &position))
    g_list_store_remove (self->attachments, position);
}

/**
 * agent_gtk_composer_clear_attachments:
 * @self: a composer
 *
 * Takes every attachment off the message (the chat view does once it is
 * sent).
 *
 * Since: 0.1
 */
void
agent_gtk_composer_clear_attachments (AgentGtkComposer *self)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  g_list_store_remove_all (self->attachments);
}

/**
 * agent_gtk_composer_get_max_attachment_size:
 * @self: a composer
 *
 * Gets the most bytes a file may hold to be attached.
 *
 * Returns: the limit, or 0 for none
 *
 * Since: 0.1
 */
guint64
agent_gtk_composer_get_max_attachment_size (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), 0);
  return self->max_attachment_size;
}

/**
 * agent_gtk_composer_set_max_attachment_size:
 * @self: a composer
 * @max_attachment_size: the most bytes, or 0 for no limit
 *
 * Sets the most bytes a file may hold to be attached: a larger one is
 * refused before it is read.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_max_attachment_size (AgentGtkComposer *self,
                                            guint64           max_attachment_size)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  if (self->max_attachment_size == max_attachment_size)
    return;
  self->max_attachment_size = max_attachment_size;
  g_object_notify (G_OBJECT (self), "max-attachment-size");
}

static void
add_parts (AgentGtkComposer *self,
           GPtrArray        *parts,
           GError           *error)
{
  if (self->attachments == NULL)  /* disposed meanwhile */
    return;
  if (parts != NULL)
    for (guint i = 0; i < parts->len; i++)
      g_list_store_append (self->attachments, g_ptr_array_index (parts, i));
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit_by_name (self, "attachment-error", error);
}

static void
on_files_loaded (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AgentGtkComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parts = _agent_gtk_attachment_load_files_finish (result, &error);

  add_parts (self, parts, error);
}

/**
 * agent_gtk_composer_attach_files:
 * @self: a composer
 * @files: (array length=n_files): the files to attach
 * @n_files: how many
 *
 * Reads @files (in a thread) and adds them to the message, as the Attach
 * button and a drop do: images as images, other files as documents, each
 * with its MIME type. A file that cannot be read (or a folder, or one
 * larger than [property@AgentGtk.Composer:max-attachment-size]) is not
 * added: [signal@AgentGtk.Composer::attachment-error] names it.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_attach_files (AgentGtkComposer  *self,
                                 GFile            **files,
                                 guint              n_files)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));
  g_return_if_fail (files != NULL || n_files == 0);

  if (n_files == 0)
    return;
  _agent_gtk_attachment_load_files_async (files, n_files, self->max_attachment_size,
                                          self->cancellable, on_files_loaded, g_object_ref (self));
}

static void
attach_file_list (AgentGtkComposer *self,
                  GSList           *list)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  for (GSList *l = list; l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  agent_gtk_composer_attach_files (self, (GFile **) files->pdata, files->len);
}

/* The Attach button */

static void
on_chooser_response (AgentGtkComposer *self,
                     int               response,
                     GtkNativeDialog  *chooser)
{
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      list = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        g_ptr_array_add (files, g_list_model_get_item (list, i));
      agent_gtk_composer_attach_files (self, (GFile **) files->pdata, files->len);
    }
  g_clear_object (&self->chooser);
  gtk_widget_grab_focus (self->text_view);
}

/* The file chooser, once at a time */
static void
choose_files (AgentGtkComposer *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Attach Files"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Attach"), NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Ctrl+O */
static void
attach_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  choose_files (AGENT_GTK_COMPOSER (widget));
}

/* The paperclip: a handler of its own, not the action, which GTK 4.8 never
 * lets a button of the template reach (its nested boxes leave the button
 * out of the composer's actions: it would stay insensitive). Workaround,
 * GTK 4.8 (fix version not known): when the minimum moves, try
 * action-name="composer.attach" in the template (test-gui-sensitive-e2e). */
static void
on_attach_clicked (AgentGtkComposer *self)
{
  choose_files (self);
}

/* Paste: files, or an image, are attached; text is pasted as text */

static void
on_image_pasted (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AgentGtkComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parts = _agent_gtk_attachment_paste_image_finish (result, &error);

  add_parts (self, parts, error);
}

static void
on_files_pasted (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AgentGtkComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  const GValue *value = gdk_clipboard_read_value_finish (GDK_CLIPBOARD (object), result, &error);

  if (value == NULL)
    add_parts (self, NULL, error);
  else if (self->attachments != NULL)
    attach_file_list (self, g_value_get_boxed (value));
}

static void
on_paste_clipboard (AgentGtkComposer *self,
                    GtkTextView      *text_view)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (text_view));
  GType type = _agent_gtk_attachment_paste_type (clipboard);

  if (type == G_TYPE_INVALID)
    return;
  g_signal_stop_emission_by_name (text_view, "paste-clipboard");
  if (type == GDK_TYPE_FILE_LIST)
    gdk_clipboard_read_value_async (clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT,
                                    self->cancellable, on_files_pasted, g_object_ref (self));
  else
    _agent_gtk_attachment_paste_image_async (clipboard, self->cancellable, on_image_pasted,
                                             g_object_ref (self));
}

/* Drop */

static gboolean
on_drop (GtkDropTarget    *target,
         const GValue     *value,
         double            x,
         double            y,
         AgentGtkComposer *self)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  attach_file_list (self, g_value_get_boxed (value));
  return TRUE;
}

/* The row of attachments above the text */

static void
on_attachment_remove (AgentGtkComposer   *self,
                      AgentGtkAttachment *attachment)
{
  agent_gtk_composer_remove_attachment (self, agent_gtk_attachment_get_part (attachment));
  gtk_widget_grab_focus (self->text_view);
}

static void
on_attachments_changed (AgentGtkComposer *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->attachments_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->attachments_box), child);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (G_LIST_MODEL (self->attachments),
                                                                i);
      GtkWidget *attachment = agent_gtk_attachment_new (part, TRUE);

      g_signal_connect_object (attachment, "remove", G_CALLBACK (on_attachment_remove), self,
                               G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->attachments_box), attachment);
    }
  gtk_widget_set_visible (self->attachments_scroller, n > 0);
  g_object_notify (G_OBJECT (self), "attachments");
}

void
_agent_gtk_composer_class_init_attachments (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, attach_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, attach_menu_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, attachments_scroller);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, attachments_box);
  gtk_widget_class_bind_template_callback (widget_class, on_attach_clicked);
  gtk_widget_class_install_action (widget_class, "composer.attach", NULL, attach_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "composer.attach", NULL);
}

void
_agent_gtk_composer_init_attachments (AgentGtkComposer *self)
{
  GtkDropTarget *drop;

  self->attachments = g_list_store_new (AGENT_TYPE_CONTENT_PART);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (self->attachments, "items-changed",
                           G_CALLBACK (on_attachments_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->text_view, "paste-clipboard", G_CALLBACK (on_paste_clipboard),
                           self, G_CONNECT_SWAPPED);

  /* Before the text's own (which would take the files' names as text);
   * a drag of text goes on to the text */
  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drop), GTK_PHASE_CAPTURE);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

void
_agent_gtk_composer_dispose_attachments (AgentGtkComposer *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->attachments);
}
