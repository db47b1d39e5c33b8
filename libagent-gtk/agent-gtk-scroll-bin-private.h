/* agent-gtk-scroll-bin-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_SCROLL_BIN (agent_gtk_scroll_bin_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkScrollBin, agent_gtk_scroll_bin, AGENT_GTK, SCROLL_BIN, GtkWidget)

GtkWidget *agent_gtk_scroll_bin_get_child (AgentGtkScrollBin *self);
void       agent_gtk_scroll_bin_set_child (AgentGtkScrollBin *self,
                                           GtkWidget         *child);

G_END_DECLS
