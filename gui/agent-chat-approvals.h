/* agent-chat-approvals.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_CHAT_ALLOW_TOOL,
  AGENT_CHAT_ALLOW_SERVER,
} AgentChatAllowScope;

#define AGENT_CHAT_APPROVALS_MEMBER "allowed-tools"

gboolean   agent_chat_approvals_allows   (AgentMemory          *memory,
                                          AgentTool            *tool);
gboolean   agent_chat_approvals_add      (AgentMemory          *memory,
                                          AgentTool            *tool,
                                          AgentChatAllowScope   scope,
                                          GError              **error);
char     **agent_chat_approvals_list     (AgentMemory          *memory);
char      *agent_chat_approvals_describe (const char           *key);
gboolean   agent_chat_approvals_revoke   (AgentMemory          *memory,
                                          const char           *key,
                                          GError              **error);
gboolean   agent_chat_approvals_keep     (AgentMemory          *memory,
                                          char                **keys,
                                          GError              **error);

G_END_DECLS
