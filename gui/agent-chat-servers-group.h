/* agent-chat-servers-group.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_SERVERS_GROUP (agent_chat_servers_group_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatServersGroup, agent_chat_servers_group, AGENT_CHAT, SERVERS_GROUP,
                      AdwPreferencesGroup)

void        agent_chat_servers_group_set_profiles (AgentChatServersGroup *self,
                                                   AgentProfileList      *profiles);
void        agent_chat_servers_group_add         (AgentChatServersGroup *self);
const char *agent_chat_servers_group_get_editing (AgentChatServersGroup *self);
void        agent_chat_servers_group_set_editing (AgentChatServersGroup *self,
                                                  const char            *name);

G_END_DECLS
