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
 * `visible` to false before `tooltip-text`. Workaround, GTK 4.8 (fix
 * version not known): measure bench-gui --answer code:200 without it when
 * the minimum moves. */
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

/* A wrapped GtkLabel's minimum width is its text laid out with as many
 * line breaks as it allows: with PANGO_WRAP_WORD_CHAR, a line a character.
 * GTK 4.8 measures it each time the text changes, and Pango's work grows
 * with the lines: a 300-word paragraph cost 14 ms to measure, a 3,000-word
 * one 270 ms, in each frame that added a word to it. A minimum of a few
 * characters (width-chars) lays it out in lines of that width instead
 * (2.5 and 42 ms there), and is still narrower than anything beside the
 * label in a 360 px window. For the labels whose text can be long: an
 * answer's paragraphs, its reasoning, a tool's arguments and result, the
 * user's message (when long: its bubble is as wide as its text). */
#define AGENT_GTK_LABEL_MIN_CHARS 8

static inline void
_agent_gtk_label_bound_minimum (GtkLabel *label)
{
  gtk_label_set_width_chars (label, AGENT_GTK_LABEL_MIN_CHARS);
}

G_END_DECLS
