/* agent-chat-window-split.c
 *
 * The sidebar and the chat side by side, or one at a time in a narrow
 * window (the sidebar's back and New Chat buttons show then). libadwaita
 * 1.4 brought AdwNavigationSplitView, collapsed by an AdwBreakpoint of the
 * window, and deprecated AdwLeaflet, which is all 1.2 has. The app builds
 * on both (Debian's 1.2, the GNOME runtime's newer one): built with 1.4 or
 * later, the panes of the template go into a split view; with 1.2, into a
 * leaflet, whose header bars show the window's buttons and the back button
 * as it folds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-window-private.h"

/* The narrowest window that shows both panes: the sidebar's width and the
 * chat's (their width-request in the template) */
#define BOTH_PANES_WIDTH 620

/* Moves @child out of the template's box of panes */
static GtkWidget *
take_pane (GtkWidget *child)
{
  GtkWidget *box = gtk_widget_get_parent (child);

  g_object_ref (child);
  gtk_box_remove (GTK_BOX (box), child);
  return child;
}

#if ADW_CHECK_VERSION (1, 4, 0)

void
_agent_chat_window_init_split (AgentChatWindow *self)
{
  AdwNavigationSplitView *split = ADW_NAVIGATION_SPLIT_VIEW (adw_navigation_split_view_new ());
  g_autoptr(GtkWidget) sidebar = take_pane (self->sidebar_pane);
  g_autoptr(GtkWidget) content = take_pane (self->content_pane);
  AdwBreakpoint *breakpoint;
  g_autofree char *condition = g_strdup_printf ("max-width: %dpx", BOTH_PANES_WIDTH);

  /* The split view draws its own line between the panes, and the content's
   * header bar its own back button */
  gtk_widget_set_visible (self->sidebar_separator, FALSE);
  adw_navigation_split_view_set_sidebar (split,
                                         adw_navigation_page_new (sidebar, _("Conversations")));
  adw_navigation_split_view_set_content (split, adw_navigation_page_new (content, _("Chat")));
  adw_navigation_split_view_set_show_content (split, TRUE);
  g_object_bind_property (split, "collapsed", self->content_new_button, "visible",
                          G_BINDING_SYNC_CREATE);
  breakpoint = adw_breakpoint_new (adw_breakpoint_condition_parse (condition));
  adw_breakpoint_add_setters (breakpoint, G_OBJECT (split), "collapsed", TRUE, NULL);
  adw_application_window_add_breakpoint (ADW_APPLICATION_WINDOW (self), breakpoint);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (self), GTK_WIDGET (split));
  self->split = GTK_WIDGET (split);
}

void
_agent_chat_window_show_pane (AgentChatWindow *self,
                              gboolean         content)
{
  if (self->split != NULL)
    adw_navigation_split_view_set_show_content (ADW_NAVIGATION_SPLIT_VIEW (self->split), content);
}

#else

/* libadwaita 1.2's leaflet draws the shadow of a pane sliding over the
 * other with four widgets of its own, and sets their CSS classes anew in
 * each of its allocations, the same classes each time. GTK 4.8 then
 * validates the window's style in the next frame, which lays the window
 * out again and paints nothing (bench-gui, an answer at 100 deltas a
 * second: ~230 such layouts in 20 s, 0.3-0.5 ms each). A hidden widget's
 * style changes stay with it, and the leaflet draws these widgets only
 * while a pane slides: they are hidden, and shown while the panes move.
 * Workaround, libadwaita < 1.4 (AdwLeaflet) on GTK 4.8: goes with the
 * leaflet. */

/* How long the shadow stays after the leaflet's mode-transition-duration,
 * the slide of a fold or unfold, of which nothing tells the end */
#define SHADOW_MARGIN_US (100 * G_TIME_SPAN_MILLISECOND)

static void
set_shadow_visible (AgentChatWindow *self,
                    gboolean         visible)
{
  self->split_shadow_shown = visible;
  for (GtkWidget *child = gtk_widget_get_first_child (self->split);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *name = gtk_widget_get_css_name (child);

      if (g_str_equal (name, "dimming") || g_str_equal (name, "shadow")
          || g_str_equal (name, "border") || g_str_equal (name, "outline"))
        gtk_widget_set_visible (child, visible);
    }
}

static gboolean
hide_shadow_after_slide (GtkWidget     *leaflet,
                         GdkFrameClock *clock,
                         gpointer       user_data)
{
  AgentChatWindow *self = user_data;

  if (adw_leaflet_get_child_transition_running (ADW_LEAFLET (leaflet))
      || gdk_frame_clock_get_frame_time (clock) < self->split_shadow_until)
    return G_SOURCE_CONTINUE;
  set_shadow_visible (self, FALSE);
  return G_SOURCE_REMOVE;
}

static void
show_shadow_for_slide (AdwLeaflet      *leaflet,
                       GParamSpec      *pspec,
                       AgentChatWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (leaflet));

  /* The slide starts at this frame (and the leaflet, folding or unfolding,
   * is being laid out in it) */
  if (g_str_equal (pspec->name, "folded"))
    self->split_shadow_until = (clock != NULL ? gdk_frame_clock_get_frame_time (clock)
                                              : g_get_monotonic_time ())
                               + adw_leaflet_get_mode_transition_duration (leaflet)
                                 * G_TIME_SPAN_MILLISECOND
                               + SHADOW_MARGIN_US;
  else if (!adw_leaflet_get_child_transition_running (leaflet))
    return;
  if (!self->split_shadow_shown)
    {
      set_shadow_visible (self, TRUE);
      gtk_widget_add_tick_callback (GTK_WIDGET (leaflet), hide_shadow_after_slide, self, NULL);
    }
}

void
_agent_chat_window_init_split (AgentChatWindow *self)
{
  AdwLeaflet *leaflet = ADW_LEAFLET (adw_leaflet_new ());
  g_autoptr(GtkWidget) sidebar = take_pane (self->sidebar_pane);
  g_autoptr(GtkWidget) separator = take_pane (self->sidebar_separator);
  g_autoptr(GtkWidget) content = take_pane (self->content_pane);

  adw_leaflet_set_can_navigate_back (leaflet, TRUE);
  adw_leaflet_append (leaflet, sidebar);
  adw_leaflet_page_set_navigatable (adw_leaflet_append (leaflet, separator), FALSE);
  adw_leaflet_append (leaflet, content);
  /* Folded, one pane shows at a time, each with the window's buttons, and
   * the chat with a way back to the sidebar and a New Chat of its own */
  g_object_bind_property (leaflet, "folded", self->sidebar_header, "show-end-title-buttons",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (leaflet, "folded", self->content_header, "show-start-title-buttons",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (leaflet, "folded", self->back_button, "visible",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (leaflet, "folded", self->content_new_button, "visible",
                          G_BINDING_SYNC_CREATE);
  adw_leaflet_set_visible_child (leaflet, content);
  /* libadwaita 1.2's leaflet sets the CSS classes of the four widgets of
   * its shadow each time it is allocated, which is every frame while an
   * answer streams (the text's resize reaches the window), and GTK 4.8
   * then restyles the widgets after them: the panes, the conversation
   * with every chunk of its answers (3 ms a frame at 3,000 lines). The
   * panes go first, nothing follows the shadow's widgets. Workaround,
   * libadwaita < 1.4 (AdwLeaflet) on GTK 4.8: goes with the leaflet. */
  gtk_widget_insert_after (sidebar, GTK_WIDGET (leaflet), NULL);
  gtk_widget_insert_after (separator, GTK_WIDGET (leaflet), sidebar);
  gtk_widget_insert_after (content, GTK_WIDGET (leaflet), separator);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (self), GTK_WIDGET (leaflet));
  self->split = GTK_WIDGET (leaflet);
  set_shadow_visible (self, FALSE);
  g_signal_connect (leaflet, "notify::folded", G_CALLBACK (show_shadow_for_slide), self);
  g_signal_connect (leaflet, "notify::child-transition-running",
                    G_CALLBACK (show_shadow_for_slide), self);
}

void
_agent_chat_window_show_pane (AgentChatWindow *self,
                              gboolean         content)
{
  adw_leaflet_set_visible_child (ADW_LEAFLET (self->split),
                                 content ? self->content_pane : self->sidebar_pane);
}

#endif

/* Without a store, the chat alone */
void
_agent_chat_window_hide_sidebar (AgentChatWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  /* Out of the split view, which would keep a page (and a way back) for
   * its sidebar */
  AdwNavigationPage *page = adw_navigation_split_view_get_content (
    ADW_NAVIGATION_SPLIT_VIEW (self->split));
  g_autoptr(GtkWidget) content = g_object_ref (self->content_pane);

  adw_navigation_page_set_child (page, NULL);
  self->split = NULL;
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (self), content);
  gtk_widget_set_visible (self->content_new_button, FALSE);
#else
  gtk_widget_set_visible (self->sidebar_pane, FALSE);
  gtk_widget_set_visible (self->sidebar_separator, FALSE);
#endif
}
