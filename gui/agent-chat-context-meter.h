/* agent-chat-context-meter.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_CONTEXT_METER (agent_chat_context_meter_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatContextMeter, agent_chat_context_meter, AGENT_CHAT, CONTEXT_METER,
                      GtkWidget)

GtkWidget    *agent_chat_context_meter_new         (void);
AgentSession *agent_chat_context_meter_get_session (AgentChatContextMeter *self);
void          agent_chat_context_meter_set_session (AgentChatContextMeter *self,
                                                    AgentSession          *session);
gint64        agent_chat_context_meter_get_used    (AgentChatContextMeter *self);
guint64       agent_chat_context_meter_get_window  (AgentChatContextMeter *self);
gboolean      agent_chat_context_meter_get_warning (AgentChatContextMeter *self);
gboolean      agent_chat_context_meter_get_over    (AgentChatContextMeter *self);
char         *agent_chat_context_meter_format_tokens (gint64 tokens);

G_END_DECLS
