/* agent-gtk-attachment-load.c
 *
 * Files and the clipboard, read into parts to attach: files in a thread
 * (a large one must not stop the window), each refused with its name when
 * it is a folder or cannot be read; the clipboard's image (as PNG).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-attachment-private.h"

typedef struct
{
  GPtrArray *files;
  guint64    max_size;   /* 0: no limit */
  GPtrArray *parts;
  GError    *error;  /* the first file that could not be read */
} Load;

static void
load_free (Load *load)
{
  g_ptr_array_unref (load->files);
  g_ptr_array_unref (load->parts);
  g_clear_error (&load->error);
  g_free (load);
}

static AgentContentPart *
load_file (GFile         *file,
           guint64        max_size,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autofree char *name = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                                 G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  AgentContentPart *part;

  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      name = g_file_get_parse_name (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   /* TRANSLATORS: %s is what the user tried to attach */
                   _("“%s” is a folder, not a file"), name);
      return NULL;
    }
  if (info != NULL && max_size > 0 && (guint64) g_file_info_get_size (info) > max_size)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      g_autofree char *max = g_format_size (max_size);

      name = g_file_get_parse_name (file);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                   /* TRANSLATORS: the file, its size, the most an attachment may hold */
                   _("“%s” is too large to attach: %s, more than %s"), name, size, max);
      return NULL;
    }
  part = agent_content_part_new_from_file (file, cancellable, &local_error);
  if (part == NULL)
    {
      name = g_file_get_parse_name (file);
      g_set_error (error, local_error->domain, local_error->code,
                   /* TRANSLATORS: %s is the file, then why it could not be read */
                   _("“%s” could not be attached: %s"), name, local_error->message);
    }
  return part;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;

  for (guint i = 0; i < load->files->len; i++)
    {
      g_autoptr(GError) error = NULL;
      AgentContentPart *part = load_file (g_ptr_array_index (load->files, i), load->max_size,
                                          cancellable, &error);

      if (part != NULL)
        g_ptr_array_add (load->parts, part);
      else if (load->error == NULL)
        load->error = g_steal_pointer (&error);
    }
  g_task_return_boolean (task, TRUE);
}

void
_agent_gtk_attachment_load_files_async (GFile               **files,
                                        guint                 n_files,
                                        guint64               max_size,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Load *load = g_new0 (Load, 1);

  g_task_set_source_tag (task, _agent_gtk_attachment_load_files_async);
  load->max_size = max_size;
  load->files = g_ptr_array_new_with_free_func (g_object_unref);
  load->parts = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (load->files, g_object_ref (files[i]));
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (task, load_thread);
}

/* The parts of the files that could be read, in their order; @error is set
 * (by the first that could not) even so */
GPtrArray *
_agent_gtk_attachment_load_files_finish (GAsyncResult  *result,
                                         GError       **error)
{
  Load *load;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        _agent_gtk_attachment_load_files_async, NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return g_ptr_array_new_with_free_func (g_object_unref);
  load = g_task_get_task_data (G_TASK (result));
  if (load->error != NULL)
    g_propagate_error (error, g_steal_pointer (&load->error));
  return g_ptr_array_ref (load->parts);
}

/* The clipboard */

static GdkContentFormats *
dup_formats (GdkClipboard *clipboard)
{
  GdkContentFormats *formats = gdk_content_formats_ref (gdk_clipboard_get_formats (clipboard));

  return gdk_content_formats_union_deserialize_gtypes (formats);
}

/* What a paste attaches: files, or an image that is not text too (a word
 * processor's text may come as an image as well: it is pasted as text);
 * G_TYPE_INVALID when the clipboard's text is to be pasted */
GType
_agent_gtk_attachment_paste_type (GdkClipboard *clipboard)
{
  g_autoptr(GdkContentFormats) formats = dup_formats (clipboard);

  if (gdk_content_formats_contain_gtype (formats, GDK_TYPE_FILE_LIST))
    return GDK_TYPE_FILE_LIST;
  if (gdk_content_formats_contain_gtype (formats, GDK_TYPE_TEXTURE) &&
      !gdk_content_formats_contain_gtype (formats, G_TYPE_STRING))
    return GDK_TYPE_TEXTURE;
  return G_TYPE_INVALID;
}

static void
on_texture_read (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (object),
                                                                     result, &error);
  g_autoptr(GBytes) png = NULL;
  GPtrArray *parts;

  if (texture == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  png = gdk_texture_save_to_png_bytes (texture);
  parts = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (parts, agent_content_part_new_image ("image/png", png));
  g_task_return_pointer (task, parts, (GDestroyNotify) g_ptr_array_unref);
}

void
_agent_gtk_attachment_paste_image_async (GdkClipboard        *clipboard,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (clipboard, cancellable, callback, user_data);

  g_task_set_source_tag (task, _agent_gtk_attachment_paste_image_async);
  gdk_clipboard_read_texture_async (clipboard, cancellable, on_texture_read,
                                    g_steal_pointer (&task));
}

/* The image pasted, as a PNG part */
GPtrArray *
_agent_gtk_attachment_paste_image_finish (GAsyncResult  *result,
                                          GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        _agent_gtk_attachment_paste_image_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
