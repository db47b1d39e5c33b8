/* agent-chat-message-row.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-chat-markdown.h"

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MESSAGE_ROW (agent_chat_message_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMessageRow, agent_chat_message_row, AGENT_CHAT, MESSAGE_ROW, GtkWidget)

GtkWidget         *agent_chat_message_row_new          (void);
GObject           *agent_chat_message_row_get_item     (AgentChatMessageRow *self);
void               agent_chat_message_row_set_item     (AgentChatMessageRow *self,
                                                        GObject             *item);
AgentChatMarkdown *agent_chat_message_row_get_markdown (AgentChatMessageRow *self);
GtkWidget         *agent_chat_message_row_get_cards    (AgentChatMessageRow *self);
void               agent_chat_message_row_flush        (AgentChatMessageRow *self);
void               agent_chat_message_row_set_progress (AgentChatMessageRow *self,
                                                        const char          *title,
                                                        const char          *detail);
void               agent_chat_message_row_set_turn_error (AgentChatMessageRow *self,
                                                          const GError        *error);
void               agent_chat_message_row_set_editing  (AgentChatMessageRow *self,
                                                        gboolean             editing);

G_END_DECLS
