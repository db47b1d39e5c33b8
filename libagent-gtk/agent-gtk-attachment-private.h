/* agent-gtk-attachment-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The longest side of an image: in the composer, and in the conversation */
#define AGENT_GTK_ATTACHMENT_THUMBNAIL_SIZE 64
#define AGENT_GTK_ATTACHMENT_PICTURE_SIZE   240
/* …and in its own window, shown larger (at most 1000 × 800, twice that
 * on a screen of scale 2) */
#define AGENT_GTK_ATTACHMENT_VIEWER_SIZE    2048

#define AGENT_GTK_TYPE_ATTACHMENT (agent_gtk_attachment_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkAttachment, agent_gtk_attachment, AGENT_GTK, ATTACHMENT, GtkWidget)

GtkWidget        *agent_gtk_attachment_new           (AgentContentPart *part,
                                                      gboolean          removable);
AgentContentPart *agent_gtk_attachment_get_part      (AgentGtkAttachment *self);
char             *_agent_gtk_attachment_dup_name     (AgentContentPart *part);
GdkTexture       *_agent_gtk_attachment_load_texture (AgentContentPart *part,
                                                      int               max_size,
                                                      GError          **error);
void              _agent_gtk_attachment_show_viewer  (GtkWidget        *parent,
                                                      AgentContentPart *part);

/* agent-gtk-attachment-load.c: files and the clipboard's image, read into parts */
void              _agent_gtk_attachment_load_files_async  (GFile              **files,
                                                           guint                n_files,
                                                           guint64              max_size,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
GPtrArray        *_agent_gtk_attachment_load_files_finish (GAsyncResult        *result,
                                                           GError             **error);
GType             _agent_gtk_attachment_paste_type        (GdkClipboard        *clipboard);
void              _agent_gtk_attachment_paste_image_async (GdkClipboard        *clipboard,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
GPtrArray        *_agent_gtk_attachment_paste_image_finish (GAsyncResult       *result,
                                                            GError            **error);

G_END_DECLS
