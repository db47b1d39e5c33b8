/* agent-chat-model-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MODEL_ROW (agent_chat_model_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatModelRow, agent_chat_model_row, AGENT_CHAT, MODEL_ROW, GtkListBoxRow)

GtkWidget      *agent_chat_model_row_new         (AgentModelInfo    *info);
AgentModelInfo *agent_chat_model_row_get_info    (AgentChatModelRow *self);
void            agent_chat_model_row_set_running (AgentChatModelRow *self,
                                                  AgentModelInfo    *running);

G_END_DECLS
