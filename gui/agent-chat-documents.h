/* agent-chat-documents.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_DOCUMENTS (agent_chat_documents_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatDocuments, agent_chat_documents, AGENT_CHAT, DOCUMENTS, GObject)

AgentChatDocuments *agent_chat_documents_new             (GSettings            *settings,
                                                          AgentChatSecretStore *secrets,
                                                          AgentProfileList     *profiles,
                                                          const char           *path);
AgentDocumentIndex *agent_chat_documents_get_index       (AgentChatDocuments   *self);
gboolean            agent_chat_documents_get_indexing    (AgentChatDocuments   *self);
guint               agent_chat_documents_get_files_done  (AgentChatDocuments   *self);
guint               agent_chat_documents_get_files_total (AgentChatDocuments   *self);
const char         *agent_chat_documents_get_status      (AgentChatDocuments   *self);
GListModel         *agent_chat_documents_get_failures    (AgentChatDocuments   *self);
void                agent_chat_documents_update          (AgentChatDocuments   *self);
void                agent_chat_documents_update_when_idle (AgentChatDocuments  *self);
void                agent_chat_documents_shutdown        (AgentChatDocuments   *self);

G_END_DECLS
