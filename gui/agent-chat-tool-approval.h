/* agent-chat-tool-approval.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_TOOL_APPROVAL (agent_chat_tool_approval_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatToolApproval, agent_chat_tool_approval,
                      AGENT_CHAT, TOOL_APPROVAL, AdwMessageDialog)

GtkWidget *agent_chat_tool_approval_new    (GtkWindow  *parent,
                                            const char *app_id,
                                            const char *app_name,
                                            const char *tool_name,
                                            const char *description,
                                            const char *arguments);
GVariant  *agent_chat_tool_approval_answer (const char *response);

G_END_DECLS
