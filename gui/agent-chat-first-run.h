/* agent-chat-first-run.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_FIRST_RUN (agent_chat_first_run_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatFirstRun, agent_chat_first_run, AGENT_CHAT, FIRST_RUN, GtkBox)

void agent_chat_first_run_set_profiles (AgentChatFirstRun *self,
                                        AgentProfileList  *profiles);
void agent_chat_first_run_set_server_given (AgentChatFirstRun *self,
                                            gboolean           server_given);
char *agent_chat_first_run_dup_ollama_url (void);

G_END_DECLS
