/* test-gtk-markdown-pages.c — a long answer's pages: only those near the
 * view are made (widgets, Pango layouts), the others stand in at about
 * their height; scrolling makes the pages that come near and frees those
 * that go far, and what the user reads stays in place meanwhile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <agent.h>

#include "agent-gtk-markdown-view-private.h"
#include "agent-test-widgets.h"
#include "agent-test-util.h"

#define N_LINES 10000

typedef struct
{
  GtkWidget            *window;
  GtkWidget            *scroller;
  GtkWidget            *markdown;
  AgentGtkMarkdownView *view;
  GtkAdjustment        *adjustment;
  GString              *text;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->markdown = agent_gtk_markdown_view_new ();
  fixture->view = AGENT_GTK_MARKDOWN_VIEW (fixture->markdown);
  fixture->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), fixture->markdown);
  fixture->adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (fixture->scroller));
  fixture->window = show_in_window (fixture->scroller);
  fixture->text = g_string_new (NULL);
  for (guint i = 0; i < N_LINES; i++)
    g_string_append_printf (fixture->text, "Line %u of a long answer.\n\n", i);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_string_free (fixture->text, TRUE);
}

static gboolean
pages_settled (gpointer data)
{
  return !_agent_gtk_markdown_view_get_making_pages (data);
}

/* Until the pages near the view are made, and drawn */
static void
wait_settled (Fixture *fixture)
{
  wait_frames (fixture->window, 1);
  agent_test_wait_until (pages_settled, fixture->view);
  wait_frames (fixture->window, 1);
}

static guint
count_labels (GtkWidget *widget)
{
  g_autoptr(GPtrArray) labels = find_all (widget, GTK_TYPE_LABEL);

  return labels->len;
}

/* The number of the line shown at @y of the view, and where its label
 * begins and ends in the view */
static guint
line_at_full (Fixture *fixture,
              double   y,
              double  *top,
              double  *bottom)
{
  GtkWidget *picked = NULL;
  graphene_rect_t bounds;
  guint line = G_MAXUINT;

  /* (at the first label at or below @y: the paragraphs are 12 px apart) */
  for (guint dy = 0; dy < 16 && !GTK_IS_LABEL (picked); dy++)
    picked = gtk_widget_pick (fixture->scroller, 100, y + dy, GTK_PICK_DEFAULT);

  g_assert_true (GTK_IS_LABEL (picked));
  g_assert_cmpint (sscanf (gtk_label_get_text (GTK_LABEL (picked)), "Line %u of", &line), ==, 1);
  g_assert_true (gtk_widget_compute_bounds (picked, fixture->scroller, &bounds));
  if (top != NULL)
    *top = bounds.origin.y;
  if (bottom != NULL)
    *bottom = bounds.origin.y + bounds.size.height;
  return line;
}

static guint
line_at (Fixture *fixture,
         double   y,
         double  *top)
{
  return line_at_full (fixture, y, top, NULL);
}

/* 10,000 lines set at once: cut into 10,000 chunks, but only the pages
 * near the view have widgets; its first lines are shown */
static void
test_pages_near_view (Fixture       *fixture,
                      gconstpointer  data)
{
  agent_gtk_markdown_view_set_text (fixture->view, fixture->text->str);
  wait_settled (fixture);

  g_assert_false (agent_gtk_markdown_view_get_laying_out (fixture->view));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (fixture->view), ==, N_LINES);
  g_assert_cmpuint (count_labels (fixture->markdown), <, N_LINES / 20);
  g_assert_cmpuint (line_at (fixture, 10, NULL), ==, 0);
  /* The whole answer's height, about (one line of text and a gap each) */
  g_assert_cmpfloat (gtk_adjustment_get_upper (fixture->adjustment), >, N_LINES * 20);
}

/* Scrolled to the middle, then to the end: the pages there are made and
 * show the lines that belong there; those left far behind are freed */
static void
test_pages_follow_scrolling (Fixture       *fixture,
                             gconstpointer  data)
{
  guint line;

  agent_gtk_markdown_view_set_text (fixture->view, fixture->text->str);
  wait_settled (fixture);

  gtk_adjustment_set_value (fixture->adjustment, gtk_adjustment_get_upper (fixture->adjustment) / 2);
  wait_settled (fixture);
  line = line_at (fixture, 300, NULL);
  g_assert_cmpuint (line, >, N_LINES / 4);
  g_assert_cmpuint (line, <, 3 * N_LINES / 4);
  g_assert_cmpuint (count_labels (fixture->markdown), <, N_LINES / 20);
  /* The line after it is there too, below it */
  {
    double top, bottom, next_top;
    guint next = line_at_full (fixture, 300, &top, &bottom);
    guint below;

    /* (paragraphs 12 px apart) */
    below = line_at (fixture, bottom + 12 + 2, &next_top);
    g_assert_cmpuint (next, ==, line);
    g_assert_cmpuint (below, ==, line + 1);
    g_assert_cmpfloat (next_top, >, top);
  }

  gtk_adjustment_set_value (fixture->adjustment, gtk_adjustment_get_upper (fixture->adjustment));
  wait_settled (fixture);
  /* At the end (the estimates made good as the pages were made) */
  gtk_adjustment_set_value (fixture->adjustment, gtk_adjustment_get_upper (fixture->adjustment));
  wait_settled (fixture);
  g_assert_cmpuint (count_labels (fixture->markdown), <, N_LINES / 20);
  g_assert_cmpfloat (gtk_adjustment_get_value (fixture->adjustment) +
                     gtk_adjustment_get_page_size (fixture->adjustment), >=,
                     gtk_adjustment_get_upper (fixture->adjustment) - 1);
  {
    double top, bottom;

    g_assert_cmpuint (line_at_full (fixture, gtk_widget_get_height (fixture->scroller) - 30,
                                    &top, &bottom), >=, N_LINES - 2);
    if (bottom + 12 < gtk_widget_get_height (fixture->scroller))
      g_assert_cmpuint (line_at (fixture, bottom + 12 + 2, NULL), ==, N_LINES - 1);
  }
}

/* Scrolling up a step at a time through pages that stood in: the line
 * read stays where the step puts it, however tall its page above turned
 * out to be */
static void
test_pages_keep_reading_in_place (Fixture       *fixture,
                                  gconstpointer  data)
{
  /* Paragraphs of one to a few lines: their pages' heights are not the
   * ones estimated */
  g_string_truncate (fixture->text, 0);
  for (guint i = 0; i < N_LINES; i++)
    {
      g_string_append_printf (fixture->text, "Line %u of a long answer.", i);
      for (guint j = 0; j < i * 7 % 23; j++)
        g_string_append (fixture->text, " And a few more words.");
      g_string_append (fixture->text, "\n\n");
    }
  agent_gtk_markdown_view_set_text (fixture->view, fixture->text->str);
  wait_settled (fixture);
  gtk_adjustment_set_value (fixture->adjustment, gtk_adjustment_get_upper (fixture->adjustment) * 0.6);
  wait_settled (fixture);

  for (guint step = 0; step < 80; step++)
    {
      double top, moved;
      guint line = line_at (fixture, 200, &top);

      gtk_adjustment_set_value (fixture->adjustment,
                                gtk_adjustment_get_value (fixture->adjustment) - 50);
      wait_settled (fixture);
      /* The same line, 50 px lower */
      g_assert_cmpuint (line_at (fixture, top + 50 + 1, &moved), ==, line);
      g_assert_cmpfloat_with_epsilon (moved, top + 50, 1);
    }
}

/* A page that stands in gives screen readers its text */
static void
test_pages_stand_in_readable (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GPtrArray) all = NULL;
  GtkWidget *stand_in = NULL;
  g_autofree char *error = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);

  agent_gtk_markdown_view_set_text (fixture->view, fixture->text->str);
  wait_settled (fixture);

  /* The last page is made (the stream goes on there); the one before it
   * stands in while the view is at the top: 10,000 chunks, 64 a page */
  for (guint i = (N_LINES / 64 - 1) * 64; i < N_LINES / 64 * 64; i++)
    g_string_append_printf (expected, "Line %u of a long answer.\n\n", i);
  all = find_all (fixture->markdown, GTK_TYPE_WIDGET);
  for (guint i = all->len; i > 0 && stand_in == NULL; i--)
    if (g_str_equal (G_OBJECT_TYPE_NAME (g_ptr_array_index (all, i - 1)), "AgentGtkMarkdownStandIn"))
      stand_in = g_ptr_array_index (all, i - 1);
  g_assert_nonnull (stand_in);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (stand_in),
                                              GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              expected->str);
  g_assert_null (error);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home;

  /* Accessible properties kept, to be read (the tests' GTK_A11Y=none keeps none) */
  g_setenv ("GTK_A11Y", "test", TRUE);
  data_home = agent_test_gui_init (&argc, &argv);

  g_test_add ("/gui/markdown-pages/near-view", Fixture, NULL,
              fixture_set_up, test_pages_near_view, fixture_tear_down);
  g_test_add ("/gui/markdown-pages/follow-scrolling", Fixture, NULL,
              fixture_set_up, test_pages_follow_scrolling, fixture_tear_down);
  g_test_add ("/gui/markdown-pages/keep-reading-in-place", Fixture, NULL,
              fixture_set_up, test_pages_keep_reading_in_place, fixture_tear_down);
  g_test_add ("/gui/markdown-pages/stand-in-readable", Fixture, NULL,
              fixture_set_up, test_pages_stand_in_readable, fixture_tear_down);

  return agent_test_gui_run (data_home);
}
