/* agent-gtk-dialog.c
 *
 * The dialog that a question of libagent-gtk is presented in, when an
 * application asks in a dialog rather than where it shows the chat: the
 * approval prompt (agent_gtk_approval_prompt_present()) and the
 * elicitation form (agent_gtk_elicitation_form_present()). An AdwDialog
 * where libadwaita has it (1.5 and later); before, a modal window
 * transient for the parent's, 480 px wide or as wide as the parent's
 * window where that is narrower (a phone's), as AdwDialog would be.
 *
 * The question is a widget with a boolean "pending" property: the dialog
 * goes once it no longer waits (answered, in the dialog or elsewhere, or
 * stopped); closing the dialog first calls the question's answer for that
 * (the prompt denies, the form cancels).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>

#include "agent-gtk-dialog-private.h"

#define DIALOG_WIDTH 480

static gboolean
destroy_later (gpointer data)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_dialog_force_close (ADW_DIALOG (data));
#else
  gtk_window_destroy (GTK_WINDOW (data));
#endif
  return G_SOURCE_REMOVE;
}

/* No longer waiting: the dialog goes, though not within the question's own
 * notification */
static void
on_pending_changed (GtkWidget  *child,
                    GParamSpec *pspec,
                    GtkWidget  *dialog)
{
  gboolean pending = FALSE;

  g_object_get (child, "pending", &pending, NULL);
  if (pending)
    return;
  g_signal_handlers_disconnect_by_func (child, on_pending_changed, dialog);
  g_idle_add_full (G_PRIORITY_DEFAULT, destroy_later, g_object_ref (dialog), g_object_unref);
}

/* Closed by the user: it goes as it is, whatever the answer to closing
 * does (the next handler) */
#if ADW_CHECK_VERSION (1, 5, 0)
static void
on_closed (AdwDialog *dialog)
{
  g_signal_handlers_disconnect_by_func (adw_dialog_get_child (dialog), on_pending_changed,
                                        dialog);
}
#else
static gboolean
on_close_request (GtkWindow *dialog)
{
  g_signal_handlers_disconnect_by_func (gtk_window_get_child (dialog), on_pending_changed,
                                        dialog);
  return FALSE;
}
#endif

/*
 * _agent_gtk_dialog_present:
 * @child: the question: a widget with a boolean "pending" property, not in
 *   a parent yet
 * @parent: (nullable): a widget of the window the question is about
 * @title: the dialog's title
 * @default_widget: (nullable): what Enter activates in the modal window
 * @closed: called, swapped with @child, when the user closes the dialog:
 *   the question's answer to that (a "close-request" handler that returns
 *   %FALSE; with libadwaita 1.5 or later, a "closed" one)
 *
 * Shows @child in a dialog over @parent's window, that goes once @child no
 * longer waits.
 */
void
_agent_gtk_dialog_present (GtkWidget  *child,
                           GtkWidget  *parent,
                           const char *title,
                           GtkWidget  *default_widget,
                           GCallback   closed)
{
  GtkWidget *dialog;

  g_return_if_fail (GTK_IS_WIDGET (child));
  g_return_if_fail (g_object_class_find_property (G_OBJECT_GET_CLASS (child), "pending") != NULL);
  g_return_if_fail (parent == NULL || GTK_IS_WIDGET (parent));

#if ADW_CHECK_VERSION (1, 5, 0)
  dialog = GTK_WIDGET (adw_dialog_new ());
  adw_dialog_set_title (ADW_DIALOG (dialog), title);
  adw_dialog_set_content_width (ADW_DIALOG (dialog), DIALOG_WIDTH);
  adw_dialog_set_child (ADW_DIALOG (dialog), child);
  g_signal_connect (dialog, "closed", G_CALLBACK (on_closed), NULL);
  g_signal_connect_object (dialog, "closed", closed, child, G_CONNECT_SWAPPED);
#else
  {
    GtkRoot *root = parent != NULL ? gtk_widget_get_root (parent) : NULL;
    int width = DIALOG_WIDTH;

    /* No wider than a narrow window (a phone's), as AdwDialog would be */
    if (GTK_IS_WINDOW (root) && gtk_widget_get_width (GTK_WIDGET (root)) > 0)
      width = MIN (width, gtk_widget_get_width (GTK_WIDGET (root)));
    dialog = gtk_window_new ();
    gtk_window_set_title (GTK_WINDOW (dialog), title);
    gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
    gtk_window_set_default_size (GTK_WINDOW (dialog), width, -1);
    if (GTK_IS_WINDOW (root))
      gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
    gtk_window_set_child (GTK_WINDOW (dialog), child);
    if (default_widget != NULL)
      gtk_window_set_default_widget (GTK_WINDOW (dialog), default_widget);
    g_signal_connect (dialog, "close-request", G_CALLBACK (on_close_request), NULL);
    g_signal_connect_object (dialog, "close-request", closed, child, G_CONNECT_SWAPPED);
  }
#endif
  g_signal_connect_object (child, "notify::pending", G_CALLBACK (on_pending_changed), dialog, 0);
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_dialog_present (ADW_DIALOG (dialog), parent);
#else
  gtk_window_present (GTK_WINDOW (dialog));
#endif
  /* Answered, or stopped, before it showed */
  on_pending_changed (child, NULL, dialog);
}
