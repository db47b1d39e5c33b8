/* agent-gtk-dialog-private.h
 *
 * The dialog that AgentGtkApprovalPrompt and AgentGtkElicitationForm are
 * presented in (agent-gtk-dialog.c): one question over a window.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void _agent_gtk_dialog_present (GtkWidget  *child,
                                GtkWidget  *parent,
                                const char *title,
                                GtkWidget  *default_widget,
                                GCallback   closed);

G_END_DECLS
