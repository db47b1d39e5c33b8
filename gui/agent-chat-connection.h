/* agent-chat-connection.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_CONNECTION (agent_chat_connection_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatConnection, agent_chat_connection, AGENT_CHAT, CONNECTION, GObject)

AgentChatConnection *agent_chat_connection_new                 (GSettings            *settings,
                                                                const char           *provider,
                                                                const char           *base_url,
                                                                const char           *model);
AgentChatConnection *agent_chat_connection_new_for_profile     (GSettings            *settings,
                                                                AgentProfileList     *profiles,
                                                                const char           *profile,
                                                                const char           *provider,
                                                                const char           *base_url,
                                                                const char           *model);
AgentProfileList    *agent_chat_connection_get_profiles        (AgentChatConnection  *self);
AgentProfile        *agent_chat_connection_get_profile         (AgentChatConnection  *self);
const char          *agent_chat_connection_get_profile_name    (AgentChatConnection  *self);
gboolean             agent_chat_connection_use_profile         (AgentChatConnection  *self,
                                                                const char           *name);
const char          *agent_chat_connection_get_provider        (AgentChatConnection  *self);
const char          *agent_chat_connection_get_base_url        (AgentChatConnection  *self);
const char          *agent_chat_connection_get_model           (AgentChatConnection  *self);
gboolean             agent_chat_connection_get_from_command_line (AgentChatConnection *self);
void                 agent_chat_connection_set_provider        (AgentChatConnection  *self,
                                                                const char           *provider);
gboolean             agent_chat_connection_set_base_url        (AgentChatConnection  *self,
                                                                const char           *base_url,
                                                                GError              **error);
char                *agent_chat_connection_dup_shown_base_url  (AgentChatConnection  *self);
char                *agent_chat_url_hide_userinfo              (const char           *url);
void                 agent_chat_connection_set_model           (AgentChatConnection  *self,
                                                                const char           *model);
AgentProvider       *agent_chat_connection_create_provider     (AgentChatConnection  *self,
                                                                GError              **error);
void                 agent_chat_connection_apply               (AgentChatConnection  *self,
                                                                AgentProvider        *provider);
char                *agent_chat_connection_dup_host            (AgentChatConnection  *self);
gboolean             agent_chat_connection_is_demo             (AgentChatConnection  *self);
char                *agent_chat_connection_dup_subtitle        (AgentChatConnection  *self);
char                *agent_chat_connection_dup_subtitle_for    (AgentChatConnection  *self,
                                                                const char           *model);
gboolean             agent_chat_connection_equal               (AgentChatConnection  *self,
                                                                AgentChatConnection  *other);
gboolean             agent_chat_connection_check_options       (const char           *provider,
                                                                const char           *base_url,
                                                                GError              **error);

G_END_DECLS
