/* agent-test-widgets.c — see agent-test-widgets.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-widgets.h"

/* Runs the main loop until it has nothing left to do, a few times over */
void
iterate (void)
{
  for (guint i = 0; i < 5; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static void
collect_text (GtkWidget *widget,
              GString   *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_visible (child) || !gtk_widget_get_child_visible (child))
        continue;
      if (GTK_IS_LABEL (child))
        g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (child)));
      collect_text (child, text);
    }
}

/* The text of every label shown in @widget, one a line (a GtkStack's
 * pages not shown, and hidden widgets, left out) */
char *
shown_text (GtkWidget *widget)
{
  GString *text = g_string_new (NULL);

  iterate ();
  collect_text (widget, text);
  return g_string_free (text, FALSE);
}
