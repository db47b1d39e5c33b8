/* agent-gtk-sideways.c
 *
 * Code blocks and tables wider than an answer scroll sideways, in a
 * GtkScrolledWindow of their own inside the conversation's. GTK 4.8's
 * scrolled window takes every wheel event over it as soon as it can scroll
 * in one direction: the vertical wheel over a wide block was spent on
 * nothing (the block cannot scroll up or down) and the conversation stopped
 * scrolling under the pointer.
 *
 * So the block's scrolled window takes only horizontal motion: its own
 * scroll controller is told to see the horizontal axis alone (the
 * horizontal wheel, a touchpad's sideways swipe, with GTK's deceleration),
 * and vertical motion goes on to the conversation. Shift with the wheel,
 * which GTK turns sideways in the scrolled window's own handler, is turned
 * sideways here, before it (the capture phase), by the same step as GTK's:
 * the page to the power 2/3 a notch of the wheel.
 *
 * Workaround, GTK 4.8 (fix version not known): when the minimum moves,
 * remove _agent_gtk_sideways_init() and run test-gui-controls-e2e (the
 * wheel over a wide block scrolls the conversation).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <math.h>

#include "markdown/agent-gtk-sideways-private.h"

/* GtkScrolledWindow's factor for a touchpad's pixels */
#define SURFACE_SCROLL_FACTOR 2.5

static gboolean
on_shifted_scroll (GtkEventControllerScroll *controller,
                   double                    dx,
                   double                    dy,
                   GtkScrolledWindow        *scroller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (
    GTK_EVENT_CONTROLLER (controller));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (scroller);
  double page = gtk_adjustment_get_page_size (adjustment);
  double lower = gtk_adjustment_get_lower (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);
  double step;

  /* Only Shift turns the vertical wheel sideways; and a block that fits has
   * nothing to scroll: the conversation scrolls */
  if ((state & GDK_SHIFT_MASK) == 0 || dy == 0 || upper - lower <= page)
    return GDK_EVENT_PROPAGATE;

  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
         ? pow (page, 2.0 / 3.0) : SURFACE_SCROLL_FACTOR;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy * step);
  return GDK_EVENT_STOP;
}

/**
 * _agent_gtk_sideways_init:
 * @scroller: a scrolled window that scrolls sideways only (its vertical
 *   policy %GTK_POLICY_NEVER), inside another that scrolls up and down
 *
 * Makes @scroller take only horizontal motion (and Shift with the wheel),
 * and leave vertical motion to the scrolled window it is in.
 */
void
_agent_gtk_sideways_init (GtkScrolledWindow *scroller)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (scroller));
  GtkEventController *shifted;

  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (scroller));

  /* The scrolled window's own: the one that handles the wheel, in the
   * bubble phase (the other, in the capture phase, only goes on with a
   * touchpad's scroll the first one began) */
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller) &&
          gtk_event_controller_get_propagation_phase (controller) == GTK_PHASE_BUBBLE)
        gtk_event_controller_scroll_set_flags (GTK_EVENT_CONTROLLER_SCROLL (controller),
                                               GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL |
                                               GTK_EVENT_CONTROLLER_SCROLL_KINETIC);
    }

  shifted = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (shifted, GTK_PHASE_CAPTURE);
  g_signal_connect_object (shifted, "scroll", G_CALLBACK (on_shifted_scroll), scroller, 0);
  gtk_widget_add_controller (GTK_WIDGET (scroller), shifted);
}
