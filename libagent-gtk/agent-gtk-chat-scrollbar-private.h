/* agent-gtk-chat-scrollbar-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "agent-gtk-autoscroll-private.h"
#include "agent-gtk-tail-model-private.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_CHAT_SCROLLBAR (agent_gtk_chat_scrollbar_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkChatScrollbar, agent_gtk_chat_scrollbar, AGENT_GTK, CHAT_SCROLLBAR,
                      GtkWidget)

void agent_gtk_chat_scrollbar_set_view      (AgentGtkChatScrollbar *self,
                                             GtkListView           *list_view,
                                             AgentGtkTailModel     *tail,
                                             AgentGtkAutoscroll    *autoscroll);
void agent_gtk_chat_scrollbar_scroll_to     (AgentGtkChatScrollbar *self,
                                             guint                  index,
                                             double                 fraction,
                                             gboolean               focus);
void agent_gtk_chat_scrollbar_pointer_moved (AgentGtkChatScrollbar *self);

G_END_DECLS
