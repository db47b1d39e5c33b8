/* agent-chat-popover.c
 *
 * The app's popovers leave the window's shortcuts working. GTK 4.8 gives
 * the keys pressed while a popover is open to the popover alone: Ctrl+,
 * (Preferences), Ctrl+N, F1… did nothing while the model picker or a menu
 * was open. What the popover and its children leave unhandled is passed
 * on to the window (its shortcuts, the application's accelerators), and
 * the popover closes when the window used it: the window does what the key
 * says, as when no popover is open.
 *
 * Workaround, GTK 4.8 (fix version not known): when the minimum moves,
 * check test-gui-popovers-e2e without agent_chat_popover_forward_shortcuts().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-popover.h"

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkPopover            *popover)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (popover));

  /* Escape is the popover's, and plain keys the search's or the menu's:
   * only shortcuts go on */
  if (keyval == GDK_KEY_Escape || root == NULL ||
      ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
       !(keyval >= GDK_KEY_F1 && keyval <= GDK_KEY_F35)))
    return GDK_EVENT_PROPAGATE;
  if (!gtk_event_controller_key_forward (controller, GTK_WIDGET (root)))
    return GDK_EVENT_PROPAGATE;
  gtk_popover_popdown (popover);
  return GDK_EVENT_STOP;
}

#define CONTROLLER_NAME "agent-chat-forward-shortcuts"

/**
 * agent_chat_popover_forward_shortcuts:
 * @popover: a popover of a window
 *
 * Passes the shortcuts pressed while @popover is open, and that nothing in
 * it handles, on to its window; closes it when the window used one. Once
 * for a popover, however often it is called (a menu button's popover,
 * given a new menu).
 */
void
agent_chat_popover_forward_shortcuts (GtkPopover *popover)
{
  g_autoptr(GListModel) controllers = NULL;
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_POPOVER (popover));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (popover));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) other = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (other), CONTROLLER_NAME) == 0)
        return;
    }
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_static_name (controller, CONTROLLER_NAME);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (on_key_pressed), popover, 0);
  gtk_widget_add_controller (GTK_WIDGET (popover), controller);
}
