/* agent-chat-search-provider.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agent-chat-application.h"

G_BEGIN_DECLS

guint agent_chat_search_provider_register (AgentChatApplication  *app,
                                           GDBusConnection       *connection,
                                           const char            *object_path,
                                           GError               **error);

G_END_DECLS
