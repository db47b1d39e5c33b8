/* agent-chat-markdown.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_MARKDOWN (agent_chat_markdown_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMarkdown, agent_chat_markdown, AGENT_CHAT, MARKDOWN, GtkWidget)

GtkWidget  *agent_chat_markdown_new              (void);
const char *agent_chat_markdown_get_text         (AgentChatMarkdown *self);
void        agent_chat_markdown_set_text         (AgentChatMarkdown *self,
                                                  const char        *text);
guint       agent_chat_markdown_get_n_renders    (AgentChatMarkdown *self);
guint       agent_chat_markdown_get_n_drawn      (AgentChatMarkdown *self,
                                                  guint             *last);
guint       agent_chat_markdown_get_n_chunks     (AgentChatMarkdown *self);
GtkWidget  *agent_chat_markdown_get_chunk        (AgentChatMarkdown *self,
                                                  guint              position);
char       *agent_chat_markdown_to_pango_markup  (const char        *text);

G_END_DECLS
