/* agent-gtk-tool-card.h
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

#define AGENT_GTK_TYPE_TOOL_CARD (agent_gtk_tool_card_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkToolCard, agent_gtk_tool_card, AGENT_GTK, TOOL_CARD, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget     *agent_gtk_tool_card_new             (void);
AGENT_GTK_AVAILABLE_IN_ALL
AgentToolCall *agent_gtk_tool_card_get_tool_call   (AgentGtkToolCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void           agent_gtk_tool_card_set_tool_call   (AgentGtkToolCard *self,
                                                    AgentToolCall    *tool_call);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean       agent_gtk_tool_card_get_show_chunks (AgentGtkToolCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void           agent_gtk_tool_card_set_show_chunks (AgentGtkToolCard *self,
                                                    gboolean          show_chunks);

G_END_DECLS
