/* agent-chat-a11y.c
 *
 * Names for screen readers that GTK 4.8 and libadwaita 1.2 do not give:
 * a status page's scrolled window, a stop of Tab when nothing in it takes
 * the focus, goes unnamed, and a toast's buttons are called "_Undo Undo"
 * (the label, underscore and all, then the label's text) and "GtkImage".
 * (List items are named with libagent-gtk's agent-gtk-a11y-private.h.)
 * Workaround, GTK 4.8 and libadwaita 1.2 (fix versions not known): when
 * the minimums move, read the names in the accessibility tree
 * (test-gui-keyboard) without these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"

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

static void
name_toast_buttons (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child))
        {
          GtkWidget *content = gtk_button_get_child (GTK_BUTTON (child));

          /* The label child names the button; the icon, the close button */
          if (content != NULL && GTK_IS_LABEL (content))
            gtk_accessible_reset_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL);
          else if (content != NULL && GTK_IS_IMAGE (content))
            gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                            _("Dismiss"), -1);
        }
      name_toast_buttons (child);
    }
}

static void
on_overlay_children_changed (GListModel *children,
                             guint       position,
                             guint       removed,
                             guint       added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkWidget) child = g_list_model_get_item (children, i);

      if (g_str_equal (G_OBJECT_TYPE_NAME (child), "AdwToastWidget"))
        name_toast_buttons (child);
    }
}

/**
 * agent_chat_a11y_name_toasts:
 * @overlay: a toast overlay
 *
 * Names the buttons of each toast @overlay shows.
 */
void
agent_chat_a11y_name_toasts (AdwToastOverlay *overlay)
{
  GListModel *children = gtk_widget_observe_children (GTK_WIDGET (overlay));

  g_signal_connect (children, "items-changed", G_CALLBACK (on_overlay_children_changed), NULL);
  g_object_set_data_full (G_OBJECT (overlay), "agent-chat-a11y-children", children,
                          g_object_unref);
}

/**
 * agent_chat_a11y_name_button:
 * @button: a button with a label (a mnemonic in it)
 *
 * Names @button after its label's text alone: GTK 4.8 names it after its
 * label property, underscore and all, then the label's text ("_Retry
 * Retry").
 */
void
agent_chat_a11y_name_button (GtkWidget *button)
{
  gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
}
