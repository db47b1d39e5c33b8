/* agent-chat-preferences-search.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PREFERENCES_SEARCH (agent_chat_preferences_search_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPreferencesSearch, agent_chat_preferences_search,
                      AGENT_CHAT, PREFERENCES_SEARCH, AdwPreferencesGroup)

void agent_chat_preferences_search_setup (AgentChatPreferencesSearch *self,
                                          GSettings                  *settings,
                                          AgentChatSecretStore       *secrets);

G_END_DECLS
