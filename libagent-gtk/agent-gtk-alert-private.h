/* agent-gtk-alert.h — a question in a dialog, with the libadwaita at hand
 *
 * libadwaita 1.5 brought AdwAlertDialog (an AdwDialog, shown within its
 * window) and 1.6 deprecated AdwMessageDialog (a window of its own), which
 * is all 1.2 has. The app builds on both (Debian's 1.2, the GNOME runtime's
 * newer one): built with 1.5 or later, these use AdwAlertDialog; with
 * older ones, AdwMessageDialog. The calls are the same otherwise: heading,
 * body, responses, their appearance, the default and close responses, an
 * extra child, and the ::response signal (dialog, response id).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#if ADW_CHECK_VERSION (1, 5, 0)
# define AGENT_GTK_ALERT(obj) ADW_ALERT_DIALOG (obj)
typedef AdwAlertDialog AgentGtkAlert;
#else
# define AGENT_GTK_ALERT(obj) ADW_MESSAGE_DIALOG (obj)
typedef AdwMessageDialog AgentGtkAlert;
#endif

/* A question about @parent (a widget of the window it belongs to) */
static inline AgentGtkAlert *
agent_gtk_alert_new (GtkWidget  *parent,
                      const char *heading,
                      const char *body)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  AgentGtkAlert *self = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading, body));
#else
  GtkRoot *root = parent ? gtk_widget_get_root (parent) : NULL;
  AgentGtkAlert *self = ADW_MESSAGE_DIALOG (
    adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body));
#endif

  /* Where it is shown, for agent_gtk_alert_get_parent() */
  if (parent != NULL)
    g_object_set_data_full (G_OBJECT (self), "agent-gtk-alert-parent", g_object_ref (parent),
                            g_object_unref);
  return self;
}

static inline GtkWidget *
agent_gtk_alert_get_parent (AgentGtkAlert *self)
{
  return g_object_get_data (G_OBJECT (self), "agent-gtk-alert-parent");
}

static inline void
agent_gtk_alert_add_response (AgentGtkAlert    *self,
                               const char        *id,
                               const char        *label,
                               AdwResponseAppearance appearance)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_alert_dialog_add_response (self, id, label);
  adw_alert_dialog_set_response_appearance (self, id, appearance);
#else
  adw_message_dialog_add_response (self, id, label);
  adw_message_dialog_set_response_appearance (self, id, appearance);
#endif
}

static inline void
agent_gtk_alert_set_responses (AgentGtkAlert *self,
                                const char     *default_response,
                                const char     *close_response)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_alert_dialog_set_default_response (self, default_response);
  adw_alert_dialog_set_close_response (self, close_response);
#else
  adw_message_dialog_set_default_response (self, default_response);
  adw_message_dialog_set_close_response (self, close_response);
#endif
}

static inline void
agent_gtk_alert_set_extra_child (AgentGtkAlert *self,
                                  GtkWidget      *child)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_alert_dialog_set_extra_child (self, child);
#else
  adw_message_dialog_set_extra_child (self, child);
#endif
}

static inline GtkWidget *
agent_gtk_alert_get_extra_child (AgentGtkAlert *self)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  return adw_alert_dialog_get_extra_child (self);
#else
  return adw_message_dialog_get_extra_child (self);
#endif
}

static inline void
agent_gtk_alert_present (AgentGtkAlert *self)
{
#if ADW_CHECK_VERSION (1, 5, 0)
  adw_dialog_present (ADW_DIALOG (self), agent_gtk_alert_get_parent (self));
#else
  gtk_window_present (GTK_WINDOW (self));
#endif
}

G_END_DECLS
