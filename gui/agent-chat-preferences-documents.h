/* agent-chat-preferences-documents.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-chat-documents.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PREFERENCES_DOCUMENTS (agent_chat_preferences_documents_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPreferencesDocuments, agent_chat_preferences_documents,
                      AGENT_CHAT, PREFERENCES_DOCUMENTS, AdwPreferencesGroup)

void agent_chat_preferences_documents_setup (AgentChatPreferencesDocuments *self,
                                             GSettings                     *settings,
                                             AgentChatDocuments            *documents);

G_END_DECLS
