/* agent-gtk-copy.c
 *
 * Copy, and the sign that it was done: the widgets live in windows that are
 * not theirs (no toast overlay of their own), so the Copy button itself says
 * so for a moment — a check mark, and "Copied" for its tooltip and for a
 * screen reader — then is Copy again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-copy-private.h"

#define COPIED_KEY "agent-gtk-copied"
#define COPIED_SECONDS 2

typedef struct
{
  GWeakRef  button;
  char     *icon_name;
  char     *tooltip;
  guint     source;
} Copied;

static void
copied_free (gpointer data)
{
  Copied *copied = data;

  g_clear_handle_id (&copied->source, g_source_remove);
  g_weak_ref_clear (&copied->button);
  g_free (copied->icon_name);
  g_free (copied->tooltip);
  g_free (copied);
}

static gboolean
restore (gpointer data)
{
  Copied *copied = data;
  g_autoptr(GtkWidget) button = g_weak_ref_get (&copied->button);

  copied->source = 0;
  if (button != NULL)
    {
      gtk_button_set_icon_name (GTK_BUTTON (button), copied->icon_name);
      gtk_widget_set_tooltip_text (button, copied->tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      copied->tooltip ? copied->tooltip : "", -1);
      g_object_set_data (G_OBJECT (button), COPIED_KEY, NULL);
    }
  return G_SOURCE_REMOVE;
}

/* Puts @text on the clipboard of @button's display; @button (a button with
 * an icon) shows for a moment that it was copied */
void
_agent_gtk_copy_text (GtkWidget  *button,
                      const char *text)
{
  Copied *copied;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (button), text ? text : "");
  if (!GTK_IS_BUTTON (button) || gtk_button_get_icon_name (GTK_BUTTON (button)) == NULL)
    return;

  copied = g_object_get_data (G_OBJECT (button), COPIED_KEY);
  if (copied == NULL)
    {
      copied = g_new0 (Copied, 1);
      g_weak_ref_init (&copied->button, button);
      copied->icon_name = g_strdup (gtk_button_get_icon_name (GTK_BUTTON (button)));
      copied->tooltip = g_strdup (gtk_widget_get_tooltip_text (button));
      g_object_set_data_full (G_OBJECT (button), COPIED_KEY, copied, copied_free);
    }
  g_clear_handle_id (&copied->source, g_source_remove);
  gtk_button_set_icon_name (GTK_BUTTON (button), "object-select-symbolic");
  gtk_widget_set_tooltip_text (button, _("Copied"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Copied"), -1);
  copied->source = g_timeout_add_seconds (COPIED_SECONDS, restore, copied);
}
