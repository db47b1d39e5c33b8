/* agent-chat-window-import.c — conversations imported from the JSON that
 * Export writes: from the sidebar's menu (Import Conversation…, a file
 * chooser), or by dropping the file on the window
 *
 * A file dropped on the window that is such an export (a .json file whose
 * start names the format) is imported; any other file is attached to the
 * message, as a drop on the message field or the conversation attaches it.
 * The file is read and checked on threads (agent_store_import_conversation
 * _async()): an imported conversation is shown, and a file that cannot be
 * imported is refused in a dialog that says what is wrong and where.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-window-private.h"
#include "agent-gtk-alert-private.h"

/* The start of a file that says it is an export */
#define SNIFF_BYTES 4096
#define FORMAT_NAME "\"libagent-conversation\""

/* The largest file imported: a conversation with its attachments, read
 * whole into memory to be checked */
#define MAX_BYTES (G_GINT64_CONSTANT (500) * 1000 * 1000)

typedef struct
{
  AgentChatWindow *window;
  GFile           *file;
} Import;

static void
import_free (Import *import)
{
  g_object_unref (import->window);
  g_object_unref (import->file);
  g_free (import);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Import, import_free)

static void
refuse (AgentChatWindow *self,
        GFile           *file,
        const GError    *error)
{
  g_autofree char *name = g_file_get_basename (file);
  /* TRANSLATORS: the heading of the dialog; %s is the file's name */
  g_autofree char *heading = g_strdup_printf (_("Could Not Import “%s”"), name);
  AgentGtkAlert *alert = agent_gtk_alert_new (GTK_WIDGET (self), heading, error->message);

  agent_gtk_alert_add_response (alert, "close", _("_Close"), ADW_RESPONSE_DEFAULT);
  agent_gtk_alert_set_responses (alert, "close", "close");
  agent_gtk_alert_present (alert);
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Import) import = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentConversation) conversation =
    agent_store_import_conversation_finish (AGENT_STORE (object), result, &error);
  const char *title;
  AdwToast *toast;

  if (conversation == NULL)
    {
      refuse (import->window, import->file, error);
      return;
    }
  title = agent_conversation_get_title (conversation);
  /* TRANSLATORS: a toast; %s is the title of the conversation imported */
  toast = adw_toast_new_format (_("Imported “%s”"), title ? title : _("Untitled conversation"));
  adw_toast_overlay_add_toast (import->window->toast_overlay, toast);
  _agent_chat_window_open_conversation (import->window, conversation);
}

static void
import_bytes (Import *import,
              GBytes *bytes)
{
  AgentChatWindow *self = import->window;

  agent_store_import_conversation_async (self->store, bytes, NULL, imported_cb, import);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Import) import = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_file_load_bytes_finish (G_FILE (object), result, NULL, &error);

  if (bytes == NULL)
    {
      refuse (import->window, import->file, error);
      return;
    }
  import_bytes (g_steal_pointer (&import), bytes);
}

static void
measured_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Import) import = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInfo) info = g_file_query_info_finish (G_FILE (object), result, &error);
  GFile *file;

  if (info != NULL && g_file_info_get_size (info) > MAX_BYTES)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      g_autofree char *most = g_format_size (MAX_BYTES);

      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   /* TRANSLATORS: the sizes, as “300 MB” */
                   _("It is %s, more than the %s a conversation imported can be"), size, most);
      g_clear_object (&info);
    }
  if (info == NULL)
    {
      refuse (import->window, import->file, error);
      return;
    }
  file = import->file;
  g_file_load_bytes_async (file, NULL, loaded_cb, g_steal_pointer (&import));
}

/* Reads @file, if it is not too large, and imports it; takes @import */
static void
import_file (Import *import)
{
  g_file_query_info_async (import->file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                           G_PRIORITY_DEFAULT, NULL, measured_cb, import);
}

static Import *
import_new (AgentChatWindow *self,
            GFile           *file)
{
  Import *import = g_new0 (Import, 1);

  import->window = g_object_ref (self);
  import->file = g_object_ref (file);
  return import;
}

/* Import Conversation… */

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     AgentChatWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      import_file (import_new (self, file));
    }
  g_object_unref (chooser);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  if (self->store == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Import Conversation"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  /* TRANSLATORS: the kind of files the import takes, in the file chooser */
  gtk_file_filter_set_name (filter, _("Exported Conversations (JSON)"));
  gtk_file_filter_add_mime_type (filter, "application/json");
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A drop on the window */

static void
sniffed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Import) import = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              NULL);
  gsize len = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  g_input_stream_close_async (G_INPUT_STREAM (object), G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  /* An export: imported; anything else, attached (which says why a file
   * that cannot be read is not) */
  if (data != NULL && memmem (data, len, FORMAT_NAME, strlen (FORMAT_NAME)) != NULL)
    import_file (g_steal_pointer (&import));
  else
    agent_gtk_composer_attach_files (import->window->composer, &import->file, 1);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Import) import = user_data;
  g_autoptr(GFileInputStream) stream = g_file_read_finish (G_FILE (object), result, NULL);

  if (stream == NULL)
    {
      agent_gtk_composer_attach_files (import->window->composer, &import->file, 1);
      return;
    }
  g_input_stream_read_bytes_async (G_INPUT_STREAM (stream), SNIFF_BYTES, G_PRIORITY_DEFAULT, NULL,
                                   sniffed_cb, g_steal_pointer (&import));
}

static gboolean
is_json_name (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = name != NULL ? g_ascii_strdown (name, -1) : NULL;

  return lower != NULL && g_str_has_suffix (lower, ".json");
}

static gboolean
on_drop (GtkDropTarget   *target,
         const GValue    *value,
         double           x,
         double           y,
         AgentChatWindow *self)
{
  g_autoptr(GPtrArray) attached = g_ptr_array_new ();

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST) || self->store == NULL)
    return FALSE;
  for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
    {
      GFile *file = l->data;

      if (is_json_name (file))
        {
          g_file_read_async (file, G_PRIORITY_DEFAULT, NULL, opened_cb, import_new (self, file));
        }
      else
        g_ptr_array_add (attached, file);
    }
  agent_gtk_composer_attach_files (self->composer, (GFile **) attached->pdata, attached->len);
  return TRUE;
}

void
_agent_chat_window_class_init_import (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.import-conversation", NULL, import_action);
}

void
_agent_chat_window_init_import (AgentChatWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  /* Before the message field's and the conversation's, which attach */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drop), GTK_PHASE_CAPTURE);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
