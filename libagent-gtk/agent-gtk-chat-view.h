/* agent-gtk-chat-view.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-gtk-composer.h"
#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_CHAT_VIEW (agent_gtk_chat_view_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkChatView, agent_gtk_chat_view, AGENT_GTK, CHAT_VIEW, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget        *agent_gtk_chat_view_new                           (void);
AGENT_GTK_AVAILABLE_IN_ALL
AgentSession     *agent_gtk_chat_view_get_session                   (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_session                   (AgentGtkChatView *self,
                                                                     AgentSession     *session);
AGENT_GTK_AVAILABLE_IN_ALL
AgentGtkComposer *agent_gtk_chat_view_get_composer                  (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_composer                  (AgentGtkChatView *self,
                                                                     AgentGtkComposer *composer);
AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget        *agent_gtk_chat_view_get_placeholder               (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_placeholder               (AgentGtkChatView *self,
                                                                     GtkWidget        *placeholder);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_show_tool_call_chunks     (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_show_tool_call_chunks     (AgentGtkChatView *self,
                                                                     gboolean          show_tool_call_chunks);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_show_settings             (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_show_settings             (AgentGtkChatView *self,
                                                                     gboolean          show_settings);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_offer_conversation_approval (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_offer_conversation_approval (AgentGtkChatView *self,
                                                                       gboolean          offer);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_following                 (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_set_following                 (AgentGtkChatView *self,
                                                                     gboolean          following);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_scroll_to_end                 (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_scroll_to_start               (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_busy                      (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_send                          (AgentGtkChatView *self,
                                                                     const char       *text);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_send_with_attachments         (AgentGtkChatView *self,
                                                                     const char       *text,
                                                                     GListModel       *attachments);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_retry                         (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_regenerate                    (AgentGtkChatView *self,
                                                                     AgentMessage     *message);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_stop                          (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_resume_turn                   (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_fail_turn                     (AgentGtkChatView *self,
                                                                     const GError     *error);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_show_error                    (AgentGtkChatView *self,
                                                                     const GError     *error);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_edit                          (AgentGtkChatView *self,
                                                                     AgentMessage     *message);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_cancel_edit                   (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean          agent_gtk_chat_view_get_can_undo_edit             (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void              agent_gtk_chat_view_undo_edit                     (AgentGtkChatView *self);

AGENT_GTK_AVAILABLE_IN_ALL
gboolean      agent_gtk_chat_view_get_can_read_aloud (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_chat_view_set_can_read_aloud (AgentGtkChatView *self,
                                                      gboolean          can_read_aloud);
AGENT_GTK_AVAILABLE_IN_ALL
AgentMessage *agent_gtk_chat_view_get_reading_aloud  (AgentGtkChatView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_chat_view_set_reading_aloud  (AgentGtkChatView *self,
                                                      AgentMessage     *message);

G_END_DECLS
