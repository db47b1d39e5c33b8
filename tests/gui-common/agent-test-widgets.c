/* agent-test-widgets.c — see agent-test-widgets.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-widgets.h"
#include "agent-test-util.h"

/* Runs the main loop until it has nothing left to do, a few times over */
void
iterate (void)
{
  for (guint i = 0; i < 5; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

/* The labels' text, one a line: those shown (@shown), or all of them,
 * their markup */
static void
collect_text (GtkWidget *widget,
              gboolean   shown,
              GString   *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (shown && (!gtk_widget_get_visible (child) || !gtk_widget_get_child_visible (child)))
        continue;
      if (GTK_IS_LABEL (child))
        g_string_append_printf (text, "%s\n", shown ? gtk_label_get_text (GTK_LABEL (child))
                                                    : gtk_label_get_label (GTK_LABEL (child)));
      collect_text (child, shown, text);
    }
}

/* The text of every label shown in @widget, one a line (a GtkStack's
 * pages not shown, and hidden widgets, left out) */
char *
shown_text (GtkWidget *widget)
{
  GString *text = g_string_new (NULL);

  iterate ();
  collect_text (widget, TRUE, text);
  return g_string_free (text, FALSE);
}

/* The label markup of a Markdown view, all its labels joined (hidden ones
 * too) */
char *
markdown_labels (GtkWidget *markdown)
{
  GString *text = g_string_new (NULL);

  collect_text (markdown, FALSE, text);
  return g_string_free (text, FALSE);
}

typedef struct
{
  guint painted;
  guint until;
} PaintWait;

static void
count_paint (GdkFrameClock *clock,
             PaintWait     *wait)
{
  wait->painted++;
}

static gboolean
painted_enough (gpointer data)
{
  PaintWait *wait = data;

  return wait->painted >= wait->until;
}

/* Until @window painted @n frames after this call: what changed before it
 * is then laid out and drawn (nothing more is queued here) */
void
wait_painted (GtkWidget *window,
              guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  PaintWait wait = { 0, n };
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint), &wait);

  agent_test_wait_until (painted_enough, &wait);
  g_signal_handler_disconnect (clock, id);
}
