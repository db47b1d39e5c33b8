/* agent-gtk-branch-switcher-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_BRANCH_SWITCHER (agent_gtk_branch_switcher_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkBranchSwitcher, agent_gtk_branch_switcher, AGENT_GTK,
                      BRANCH_SWITCHER, GtkWidget)

void        agent_gtk_branch_switcher_set_siblings (AgentGtkBranchSwitcher *self,
                                                    guint                   index,
                                                    guint                   n_siblings,
                                                    gboolean                answer);
guint       agent_gtk_branch_switcher_get_index    (AgentGtkBranchSwitcher *self);
guint       agent_gtk_branch_switcher_get_n_siblings (AgentGtkBranchSwitcher *self);
const char *agent_gtk_branch_switcher_get_text     (AgentGtkBranchSwitcher *self);
gboolean    agent_gtk_branch_switcher_step         (AgentGtkBranchSwitcher *self,
                                                    int                     step);
void        agent_gtk_branch_switcher_focus        (AgentGtkBranchSwitcher *self,
                                                    int                     step);

G_END_DECLS
