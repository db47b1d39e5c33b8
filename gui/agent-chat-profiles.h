/* agent-chat-profiles.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

AgentProfileList *agent_chat_profiles_open            (GSettings         *settings,
                                                       gboolean          *first_run);
char             *agent_chat_profiles_name_for_server (const char        *provider,
                                                       const char        *base_url);
AgentProfile     *agent_chat_profiles_add             (AgentProfileList  *profiles,
                                                       const char        *name,
                                                       const char        *provider,
                                                       const char        *base_url,
                                                       const char        *model,
                                                       GError           **error);

G_END_DECLS
