/* agent-gtk-read-aloud-button-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_READ_ALOUD_BUTTON (agent_gtk_read_aloud_button_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkReadAloudButton, agent_gtk_read_aloud_button, AGENT_GTK,
                      READ_ALOUD_BUTTON, GtkWidget)

void _agent_gtk_read_aloud_button_update (AgentGtkReadAloudButton *self);

G_END_DECLS
