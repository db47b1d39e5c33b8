/* agent-chat-pull-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PULL_ROW (agent_chat_pull_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPullRow, agent_chat_pull_row, AGENT_CHAT, PULL_ROW, GtkListBoxRow)

GtkWidget  *agent_chat_pull_row_new          (const char        *model);
const char *agent_chat_pull_row_get_model    (AgentChatPullRow  *self);
void        agent_chat_pull_row_set_progress (AgentChatPullRow  *self,
                                              AgentPullProgress *progress);
void        agent_chat_pull_row_set_error    (AgentChatPullRow  *self,
                                              const char        *message);

G_END_DECLS
