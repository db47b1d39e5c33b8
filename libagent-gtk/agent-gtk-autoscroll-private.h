/* agent-gtk-autoscroll.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agent-gtk-tail-model-private.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_AUTOSCROLL (agent_gtk_autoscroll_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkAutoscroll, agent_gtk_autoscroll, AGENT_GTK, AUTOSCROLL, GObject)

AgentGtkAutoscroll *agent_gtk_autoscroll_new           (GtkListView        *list_view);
gboolean            agent_gtk_autoscroll_get_following (AgentGtkAutoscroll *self);
void                agent_gtk_autoscroll_set_following (AgentGtkAutoscroll *self,
                                                        gboolean            following);
void                agent_gtk_autoscroll_set_jumping   (AgentGtkAutoscroll *self,
                                                        gboolean            jumping);
void                agent_gtk_autoscroll_set_tail      (AgentGtkAutoscroll *self,
                                                        AgentGtkTailModel  *tail,
                                                        guint               step);

G_END_DECLS
