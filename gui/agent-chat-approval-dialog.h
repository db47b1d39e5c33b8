/* agent-chat-approval-dialog.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_APPROVAL_DIALOG (agent_chat_approval_dialog_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatApprovalDialog, agent_chat_approval_dialog,
                      AGENT_CHAT, APPROVAL_DIALOG, AdwMessageDialog)

GtkWidget         *agent_chat_approval_dialog_new          (GtkWindow               *parent,
                                                           AgentToolApproval       *approval);
AgentToolApproval *agent_chat_approval_dialog_get_approval (AgentChatApprovalDialog *self);

G_END_DECLS
