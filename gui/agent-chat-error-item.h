/* agent-chat-error-item.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_ERROR_ITEM (agent_chat_error_item_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatErrorItem, agent_chat_error_item, AGENT_CHAT, ERROR_ITEM, GObject)

/**
 * AgentChatErrorFlags:
 * @AGENT_CHAT_ERROR_NONE: nothing more is known
 * @AGENT_CHAT_ERROR_PARTIAL: part of the answer had arrived
 * @AGENT_CHAT_ERROR_NO_KEY: no API key was set for the provider
 *
 * What the window knows of the turn an error ended.
 */
typedef enum
{
  AGENT_CHAT_ERROR_NONE    = 0,
  AGENT_CHAT_ERROR_PARTIAL = 1 << 0,
  AGENT_CHAT_ERROR_NO_KEY  = 1 << 1,
} AgentChatErrorFlags;

AgentChatErrorItem *agent_chat_error_item_new                (const GError       *error,
                                                              AgentChatErrorFlags flags);
const GError       *agent_chat_error_item_get_error          (AgentChatErrorItem *self);
const char         *agent_chat_error_item_get_title          (AgentChatErrorItem *self);
const char         *agent_chat_error_item_get_message        (AgentChatErrorItem *self);
gboolean            agent_chat_error_item_get_needs_settings (AgentChatErrorItem *self);
const char         *agent_chat_error_describe_interruption   (const GError       *error);

G_END_DECLS
