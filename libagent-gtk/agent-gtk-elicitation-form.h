/* agent-gtk-elicitation-form.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_ELICITATION_FORM (agent_gtk_elicitation_form_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkElicitationForm, agent_gtk_elicitation_form,
                      AGENT_GTK, ELICITATION_FORM, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget           *agent_gtk_elicitation_form_new             (AgentMcpElicitation     *elicitation);
AGENT_GTK_AVAILABLE_IN_ALL
AgentMcpElicitation *agent_gtk_elicitation_form_get_elicitation (AgentGtkElicitationForm *self);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean             agent_gtk_elicitation_form_get_pending     (AgentGtkElicitationForm *self);
AGENT_GTK_AVAILABLE_IN_ALL
JsonObject          *agent_gtk_elicitation_form_dup_content     (AgentGtkElicitationForm *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_GTK_AVAILABLE_IN_ALL
void                 agent_gtk_elicitation_form_present         (AgentGtkElicitationForm *self,
                                                                 GtkWidget               *parent);

G_END_DECLS
