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

#if AGENT_HAS_STORE
void              agent_chat_profiles_rename_in_store (AgentStore        *store,
                                                       const char        *name,
                                                       const char        *new_name);
#endif

G_END_DECLS
