/* agent-gtk-attachment.c
 *
 * An attachment of a message, as the composer and the conversation show
 * it: an image as its picture (a button that shows it larger, in a window
 * Escape closes), a document as a chip with its icon, name and size. In the
 * composer, a button on it removes it before the message is sent.
 *
 * Images are decoded at the size they are shown (never larger than they
 * are), once (kept with the part), so that a large photo never widens the
 * window nor fills the memory; one too large to decode
 * (AGENT_CONTENT_PART_MAX_IMAGE_PIXELS) shows as a document does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-attachment-private.h"
#include "agent-gtk-private.h"

struct _AgentGtkAttachment
{
  GtkWidget         parent_instance;

  GtkWidget        *overlay;
  GtkWidget        *picture_button;
  GtkWidget        *picture;
  GtkWidget        *chip;
  GtkWidget        *icon;
  GtkWidget        *name_label;
  GtkWidget        *size_label;
  GtkWidget        *remove_button;

  AgentContentPart *part;
};

enum {
  REMOVE,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkAttachment, agent_gtk_attachment, GTK_TYPE_WIDGET)

static guint signals[N_SIGNALS];

/* What the user knows the part by: its file's name, or what it is */
char *
_agent_gtk_attachment_dup_name (AgentContentPart *part)
{
  const char *name = agent_content_part_get_name (part);

  if (name != NULL && *name != '\0')
    return g_strdup (name);
  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
    return g_strdup (_("Image"));
  return g_strdup (_("Document"));
}

/* The image of @part, at most @max_size pixels on its longer side (0: the
 * viewer's largest). libagent scales it (agent_content_part_scale_image()),
 * which reads its size first and refuses an image too large to decode
 * (AGENT_CONTENT_PART_MAX_IMAGE_PIXELS): what GTK decodes then is never
 * larger than it is shown. */
GdkTexture *
_agent_gtk_attachment_load_texture (AgentContentPart *part,
                                    int               max_size,
                                    GError          **error)
{
  g_autoptr(AgentContentPart) scaled = NULL;

  if (agent_content_part_get_data (part) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The image is not here"));
      return NULL;
    }
  scaled = agent_content_part_scale_image (part,
                                           max_size > 0 ? max_size
                                                        : AGENT_GTK_ATTACHMENT_VIEWER_SIZE,
                                           error);
  if (scaled == NULL)
    return NULL;
  return gdk_texture_new_from_bytes (agent_content_part_get_data (scaled), error);
}

/* The image larger, in a window of its own that Escape closes */
void
_agent_gtk_attachment_show_viewer (GtkWidget        *parent,
                                   AgentContentPart *part)
{
  g_autoptr(GdkTexture) texture = _agent_gtk_attachment_load_texture (part, 0, NULL);
  g_autofree char *name = _agent_gtk_attachment_dup_name (part);
  GtkRoot *root = parent != NULL ? gtk_widget_get_root (parent) : NULL;
  GtkWidget *window, *box, *picture;
  GtkEventController *shortcuts;
  GtkShortcut *escape;
  int width, height;

  if (texture == NULL)
    return;
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);

  window = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), name);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  gtk_window_set_default_size (GTK_WINDOW (window), CLAMP (width, 240, 1000),
                               CLAMP (height + 46, 200, 800));
  gtk_widget_add_css_class (window, "attachment-viewer");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_alternative_text (GTK_PICTURE (picture), name);
  gtk_widget_set_vexpand (picture, TRUE);
  gtk_box_append (GTK_BOX (box), picture);
  adw_window_set_content (ADW_WINDOW (window), box);

  shortcuts = gtk_shortcut_controller_new ();
  escape = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                             gtk_named_action_new ("window.close"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), escape);
  gtk_widget_add_controller (window, shortcuts);
  gtk_window_present (GTK_WINDOW (window));
}

static void
on_picture_clicked (AgentGtkAttachment *self)
{
  _agent_gtk_attachment_show_viewer (GTK_WIDGET (self), self->part);
}

static void
on_remove_clicked (AgentGtkAttachment *self)
{
  g_signal_emit (self, signals[REMOVE], 0);
}

/* The image of @part as shown at @size, decoded once: a row of the
 * conversation shows it again each time it is bound */
static GdkTexture *
dup_shown_texture (AgentContentPart *part,
                   int               size)
{
  g_autofree char *key = g_strdup_printf ("agent-gtk-texture-%d", size);
  GdkTexture *texture = g_object_get_data (G_OBJECT (part), key);

  if (texture != NULL)
    return g_object_ref (texture);
  texture = _agent_gtk_attachment_load_texture (part, size, NULL);
  if (texture != NULL)
    g_object_set_data_full (G_OBJECT (part), key, g_object_ref (texture), g_object_unref);
  return texture;
}

static void
show_part (AgentGtkAttachment *self,
           gboolean            removable)
{
  g_autofree char *name = _agent_gtk_attachment_dup_name (self->part);
  g_autofree char *size = g_format_size (agent_content_part_get_size (self->part));
  g_autofree char *remove = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GIcon) icon = NULL;
  const char *mime_type = agent_content_part_get_mime_type (self->part);

  if (agent_content_part_get_kind (self->part) == AGENT_CONTENT_PART_KIND_IMAGE)
    texture = dup_shown_texture (self->part, removable ? AGENT_GTK_ATTACHMENT_THUMBNAIL_SIZE
                                                       : AGENT_GTK_ATTACHMENT_PICTURE_SIZE);
  if (texture != NULL)
    {
      g_autofree char *view = g_strdup_printf (_("View %s"), name);

      gtk_picture_set_paintable (GTK_PICTURE (self->picture), GDK_PAINTABLE (texture));
      gtk_widget_set_size_request (self->picture, gdk_texture_get_width (texture),
                                   gdk_texture_get_height (texture));
      gtk_widget_set_tooltip_text (self->picture_button, name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->picture_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, view,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, size, -1);
      gtk_widget_set_visible (self->picture_button, TRUE);
    }
  else
    {
      icon = g_content_type_get_symbolic_icon (mime_type ? mime_type : "application/octet-stream");
      gtk_image_set_from_gicon (GTK_IMAGE (self->icon), icon);
      gtk_label_set_text (GTK_LABEL (self->name_label), name);
      gtk_label_set_text (GTK_LABEL (self->size_label), size);
      gtk_widget_set_tooltip_text (self->chip, name);
      gtk_widget_set_visible (self->chip, TRUE);
    }

  /* TRANSLATORS: the button that takes an attachment off the message; %s is its name */
  remove = g_strdup_printf (_("Remove %s"), name);
  gtk_widget_set_tooltip_text (self->remove_button, remove);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->remove_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove, -1);
  gtk_widget_set_visible (self->remove_button, removable);
  if (removable)
    gtk_widget_add_css_class (GTK_WIDGET (self), "removable");
}

AgentContentPart *
agent_gtk_attachment_get_part (AgentGtkAttachment *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ATTACHMENT (self), NULL);
  return self->part;
}

static void
agent_gtk_attachment_dispose (GObject *object)
{
  AgentGtkAttachment *self = AGENT_GTK_ATTACHMENT (object);

  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_ATTACHMENT);
  g_clear_object (&self->part);

  G_OBJECT_CLASS (agent_gtk_attachment_parent_class)->dispose (object);
}

static void
agent_gtk_attachment_class_init (AgentGtkAttachmentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_attachment_dispose;

  /* The user asked to take the attachment off the message */
  signals[REMOVE] = g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-attachment.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, overlay);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, picture_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, picture);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, chip);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, icon);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, name_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, size_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkAttachment, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, on_picture_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_remove_clicked);
  gtk_widget_class_set_css_name (widget_class, "attachment");
}

static void
agent_gtk_attachment_init (AgentGtkAttachment *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* @part shown: with a button that removes it where @removable (the
 * composer), as a larger picture otherwise (the conversation) */
GtkWidget *
agent_gtk_attachment_new (AgentContentPart *part,
                          gboolean          removable)
{
  AgentGtkAttachment *self;

  g_return_val_if_fail (AGENT_IS_CONTENT_PART (part), NULL);

  self = g_object_new (AGENT_GTK_TYPE_ATTACHMENT, NULL);
  self->part = g_object_ref (part);
  show_part (self, removable);
  return GTK_WIDGET (self);
}
