/* agent-chat-composer.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_COMPOSER (agent_chat_composer_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatComposer, agent_chat_composer, AGENT_CHAT, COMPOSER, GtkWidget)

GtkWidget *agent_chat_composer_new      (void);
char      *agent_chat_composer_dup_text (AgentChatComposer *self);
void       agent_chat_composer_set_text (AgentChatComposer *self,
                                         const char        *text);
gboolean   agent_chat_composer_get_busy (AgentChatComposer *self);
void       agent_chat_composer_set_busy (AgentChatComposer *self,
                                         gboolean           busy);
void       agent_chat_composer_focus    (AgentChatComposer *self);
gboolean   agent_chat_composer_get_editing (AgentChatComposer *self);
void       agent_chat_composer_set_editing (AgentChatComposer *self,
                                            gboolean           editing);
void        agent_chat_composer_set_status (AgentChatComposer *self,
                                            const char        *status);
const char *agent_chat_composer_get_status (AgentChatComposer *self);
GtkWidget  *agent_chat_composer_get_placeholder (AgentChatComposer *self);

G_END_DECLS
