/* agent-chat-error-item.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_ERROR_ITEM (agent_chat_error_item_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatErrorItem, agent_chat_error_item, AGENT_CHAT, ERROR_ITEM, GObject)

AgentChatErrorItem *agent_chat_error_item_new                (const GError       *error);
const char         *agent_chat_error_item_get_title          (AgentChatErrorItem *self);
const char         *agent_chat_error_item_get_message        (AgentChatErrorItem *self);
gboolean            agent_chat_error_item_get_needs_settings (AgentChatErrorItem *self);

G_END_DECLS
