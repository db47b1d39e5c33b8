/* agent-chat-model-badges.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

void  agent_chat_model_badges_fill       (GtkBox                 *box,
                                          AgentModelCapabilities  capabilities);
char *agent_chat_model_capabilities_text (AgentModelCapabilities  capabilities);
char *agent_chat_model_details           (AgentModelInfo         *info);
char *agent_chat_model_expiry            (GDateTime              *expires_at,
                                          GDateTime              *now);

G_END_DECLS
