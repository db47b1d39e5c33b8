/* agent-gtk-a11y-private.h
 *
 * Names for screen readers that GTK 4.8 does not give: a list item takes
 * the focus with no name of its own (GtkListItem has an accessible label
 * only from GTK 4.12). Header-only: agent-chat's sidebar rows use it too.
 * Workaround, GTK < 4.12: with 4.12, set GtkListItem:accessible-label in
 * the factories' bind instead, and remove this header.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Names the list item holding @child, if @child is in one (and in a
 * window: GTK 4.8's AT-SPI bridge stumbles over the property changes of
 * a list item on its way out). */
static inline void
agent_gtk_a11y_label_list_item (GtkWidget  *child,
                                const char *label)
{
  GtkWidget *parent = gtk_widget_get_parent (child);

  if (parent != NULL && gtk_widget_get_root (parent) != NULL &&
      g_str_equal (G_OBJECT_TYPE_NAME (parent), "GtkListItemWidget"))
    gtk_accessible_update_property (GTK_ACCESSIBLE (parent), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    label ? label : "", -1);
}

G_END_DECLS
