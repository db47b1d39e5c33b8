/* agent-gtk-summary-marker-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_SUMMARY_MARKER (agent_gtk_summary_marker_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkSummaryMarker, agent_gtk_summary_marker, AGENT_GTK, SUMMARY_MARKER,
                      GtkWidget)

void        agent_gtk_summary_marker_update       (AgentGtkSummaryMarker *self,
                                                   AgentMessage          *summary);
void        agent_gtk_summary_marker_reset        (AgentGtkSummaryMarker *self);
const char *agent_gtk_summary_marker_get_title    (AgentGtkSummaryMarker *self);
gboolean    agent_gtk_summary_marker_get_expanded (AgentGtkSummaryMarker *self);
void        agent_gtk_summary_marker_set_expanded (AgentGtkSummaryMarker *self,
                                                   gboolean               expanded);

G_END_DECLS
