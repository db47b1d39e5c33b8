/* agent-chat-a11y.c
 *
 * Names for screen readers that GTK 4.8 and libadwaita 1.2 do not give:
 * a list item takes the focus with no name of its own (GtkListItem has
 * an accessible label only from GTK 4.12), and a status page's scrolled
 * window, a stop of Tab when nothing in it takes the focus, goes unnamed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-chat-a11y.h"

/**
 * agent_chat_a11y_label_list_item:
 * @child: the child of a list view's item
 * @label: what a screen reader calls the item
 *
 * Names the list item holding @child, if @child is in one.
 */
void
agent_chat_a11y_label_list_item (GtkWidget  *child,
                                 const char *label)
{
  GtkWidget *parent = gtk_widget_get_parent (child);

  if (parent != NULL && g_str_equal (G_OBJECT_TYPE_NAME (parent), "GtkListItemWidget"))
    gtk_accessible_update_property (GTK_ACCESSIBLE (parent), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    label ? label : "", -1);
}

static void
on_title_changed (AdwStatusPage *page)
{
  GtkWidget *scroller = gtk_widget_get_first_child (GTK_WIDGET (page));
  const char *title = adw_status_page_get_title (page);

  if (scroller != NULL && GTK_IS_SCROLLED_WINDOW (scroller))
    gtk_accessible_update_property (GTK_ACCESSIBLE (scroller), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    title ? title : "", -1);
}

/**
 * agent_chat_a11y_name_status_page:
 * @page: a status page
 *
 * Names the scrolled window of @page after its title, now and as the
 * title changes.
 */
void
agent_chat_a11y_name_status_page (AdwStatusPage *page)
{
  g_signal_connect (page, "notify::title", G_CALLBACK (on_title_changed), NULL);
  on_title_changed (page);
}
