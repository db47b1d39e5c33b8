/* test-gtk-scroll-bin.c
 *
 * The chat's list sits in an AgentGtkScrollBin (agent-gtk-scroll-bin.c)
 * inside its scrolled window, which has no horizontal scrollbar and an
 * external vertical one: it reads its child's minimum width and nothing of
 * its height, yet GTK 4.8 measures the child's height at -1 at each
 * layout, and a list answers that by measuring every row of its. Here a
 * widget that counts its measures, in a GtkViewport, stands for the list:
 * in the scrolled window it is asked for its height at -1 (why the bin is
 * there), in the bin it is not; and in the bin it still gets the scrolled
 * window's whole size, its adjustments (it scrolls), and the scrolled
 * window still takes its minimum width.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "agent-gtk-scroll-bin-private.h"
#include "agent-test-widgets.h"

#define CONTENT_MIN_WIDTH 200
#define CONTENT_HEIGHT 2000

/* A tall widget that counts the measures of its height at -1 */
#define TEST_TYPE_COUNTING (test_counting_get_type ())
G_DECLARE_FINAL_TYPE (TestCounting, test_counting, TEST, COUNTING, GtkWidget)

struct _TestCounting
{
  GtkWidget parent_instance;
  guint     n_heights_at_any_width;
  guint     n_widths;
};

G_DEFINE_FINAL_TYPE (TestCounting, test_counting, GTK_TYPE_WIDGET)

static GtkSizeRequestMode
test_counting_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
test_counting_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  TestCounting *self = TEST_COUNTING (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      self->n_widths++;
      *minimum = CONTENT_MIN_WIDTH;
      *natural = 2 * CONTENT_MIN_WIDTH;
      return;
    }
  if (for_size < 0)
    self->n_heights_at_any_width++;
  *minimum = *natural = CONTENT_HEIGHT;
}

static void
test_counting_class_init (TestCountingClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->get_request_mode = test_counting_get_request_mode;
  widget_class->measure = test_counting_measure;
}

static void
test_counting_init (TestCounting *self)
{
}

typedef struct
{
  GtkWidget    *window;
  GtkWidget    *scroller;
  GtkWidget    *viewport;
  TestCounting *content;
} Fixture;

/* A window with a scrolled window as the chat view has it, holding the
 * counting content in a viewport, in a scroll bin if @in_bin */
static void
fixture_set_up (Fixture  *fixture,
                gboolean  in_bin)
{
  fixture->content = g_object_new (TEST_TYPE_COUNTING, NULL);
  fixture->viewport = gtk_viewport_new (NULL, NULL);
  gtk_viewport_set_child (GTK_VIEWPORT (fixture->viewport), GTK_WIDGET (fixture->content));
  fixture->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (fixture->scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);
  if (in_bin)
    {
      GtkWidget *bin = g_object_new (AGENT_GTK_TYPE_SCROLL_BIN, "child", fixture->viewport, NULL);

      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), bin);
    }
  else
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), fixture->viewport);
  fixture->window = show_in_window (fixture->scroller);
  wait_frames (fixture->window, 1);
}

/* The content changed size: the window is laid out and drawn again */
static void
relayout (Fixture *fixture)
{
  fixture->content->n_heights_at_any_width = 0;
  fixture->content->n_widths = 0;
  gtk_widget_queue_resize (GTK_WIDGET (fixture->content));
  wait_frames (fixture->window, 1);
}

static void
fixture_tear_down (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
}

/* What the bin is for: without it, GTK 4.8 asks for a height nobody reads.
 * (Should this fail with a newer GTK, the bin can go: see
 * agent-gtk-scroll-bin.c.) */
static void
test_without_bin (void)
{
  Fixture fixture;

  fixture_set_up (&fixture, FALSE);
  relayout (&fixture);
  g_assert_cmpuint (fixture.content->n_heights_at_any_width, >, 0);
  fixture_tear_down (&fixture);
}

static void
test_in_bin (void)
{
  Fixture fixture;
  GtkAdjustment *vadjustment;
  graphene_rect_t bounds;
  int min_width;

  fixture_set_up (&fixture, TRUE);
  relayout (&fixture);
  /* Asked for its width, never for a height at -1 */
  g_assert_cmpuint (fixture.content->n_widths, >, 0);
  g_assert_cmpuint (fixture.content->n_heights_at_any_width, ==, 0);

  /* The scrolled window's whole area, and its minimum width */
  g_assert_cmpint (gtk_widget_get_width (fixture.viewport), ==, gtk_widget_get_width (fixture.scroller));
  g_assert_cmpint (gtk_widget_get_height (fixture.viewport), ==, gtk_widget_get_height (fixture.scroller));
  gtk_widget_measure (fixture.scroller, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  g_assert_cmpint (min_width, >=, CONTENT_MIN_WIDTH);

  /* The scrolled window's adjustments are the viewport's: it scrolls */
  vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (fixture.scroller));
  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture.viewport)) == vadjustment);
  g_assert_true (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (fixture.viewport)) ==
                 gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (fixture.scroller)));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), ==, CONTENT_HEIGHT);
  gtk_adjustment_set_value (vadjustment, 500);
  wait_frames (fixture.window, 1);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (fixture.content), fixture.scroller, &bounds));
  g_assert_cmpfloat (bounds.origin.y, ==, -500);
  fixture_tear_down (&fixture);
}

/* A child set after the scrolled window gave the bin its adjustments and
 * policies still gets them */
static void
test_child_set_later (void)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *bin = g_object_new (AGENT_GTK_TYPE_SCROLL_BIN, NULL);
  GtkWidget *viewport = gtk_viewport_new (NULL, NULL);

  g_object_ref_sink (scroller);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), bin);
  g_object_set (bin, "vscroll-policy", GTK_SCROLL_NATURAL, NULL);
  agent_gtk_scroll_bin_set_child (AGENT_GTK_SCROLL_BIN (bin), viewport);

  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (viewport)) ==
                 gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
  g_assert_true (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (viewport)) ==
                 gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller)));
  g_assert_cmpint (gtk_scrollable_get_vscroll_policy (GTK_SCROLLABLE (viewport)), ==, GTK_SCROLL_NATURAL);
  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (bin)) ==
                 gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
  g_object_unref (scroller);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add_func ("/gtk/scroll-bin/without-bin", test_without_bin);
  g_test_add_func ("/gtk/scroll-bin/in-bin", test_in_bin);
  g_test_add_func ("/gtk/scroll-bin/child-set-later", test_child_set_later);
  return agent_test_gui_run (data_home);
}
