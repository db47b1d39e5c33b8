/* agent-chat-autoscroll.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_AUTOSCROLL (agent_chat_autoscroll_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatAutoscroll, agent_chat_autoscroll, AGENT_CHAT, AUTOSCROLL, GObject)

AgentChatAutoscroll *agent_chat_autoscroll_new           (GtkListView         *list_view);
gboolean             agent_chat_autoscroll_get_following (AgentChatAutoscroll *self);
void                 agent_chat_autoscroll_set_following (AgentChatAutoscroll *self,
                                                          gboolean             following);

G_END_DECLS
