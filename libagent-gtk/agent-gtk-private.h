/* agent-gtk-private.h — what every source of the library includes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk.h"

G_BEGIN_DECLS

/* Every widget's instance init, first: the library is set up (its style
 * sheet needs a display: not in class_init, which g-ir-scanner runs
 * without one). The templates name their gettext domain,
 * <interface domain="libagent-gtk-1">. */
#define AGENT_GTK_INSTANCE_INIT() agent_gtk_init ()

/* GTK 4.8 asks the display server where the pointer is (on X11, a round
 * trip: 0.2 ms on an idle server, more while it draws) each time a
 * visible widget gets a tooltip, to show the new one at once if the
 * pointer is over it. Widgets made in numbers (a code block's Copy
 * button, a row's actions) get theirs while hidden: not on screen yet,
 * they have no tooltip to show. Templates do the same by setting
 * `visible` to false before `tooltip-text`. */
static inline void
_agent_gtk_set_new_tooltip (GtkWidget  *widget,
                            const char *text)
{
  gboolean visible = gtk_widget_get_visible (widget);

  g_return_if_fail (!gtk_widget_get_mapped (widget));

  gtk_widget_set_visible (widget, FALSE);
  gtk_widget_set_tooltip_text (widget, text);
  gtk_widget_set_visible (widget, visible);
}

G_END_DECLS
