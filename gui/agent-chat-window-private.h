/* agent-chat-window-private.h
 *
 * The window's insides, shared by agent-chat-window.c (the chat),
 * agent-chat-window-chats.c (what belongs to each chat: its draft, its
 * edit, its errors) and agent-chat-window-conversations.c (the stored
 * conversations and the sidebar).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-chat-autoscroll.h"
#include "agent-chat-window.h"

G_BEGIN_DECLS

struct _AgentChatWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  AdwLeaflet           *leaflet;
  GtkWidget            *sidebar_pane;
  GtkWidget            *sidebar_separator;
  GtkWidget            *content_pane;
  AdwWindowTitle       *window_title;
  GtkMenuButton        *menu_button;
  GtkMenuButton        *model_button;
  GtkPopover           *models_popover;
  GtkSearchEntry       *model_search;
  GtkListBox           *model_list;
  GtkLabel             *models_status;
  GCancellable         *models_cancellable;
  GMenu                *approvals_section;
  AdwStatusPage        *empty_page;
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  GtkListView          *list_view;
  GtkSignalListItemFactory *factory;
  GtkRevealer          *jump_revealer;
  AgentChatComposer    *composer;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentChatConnection  *connection;  /* the server in use */
  AgentSession         *session;
  GtkFilterListModel   *messages;   /* the transcript without tool results */
  GListStore           *extras;     /* the error of the last turn, if any */
  GtkFlattenListModel  *items;
  GCancellable         *cancellable;
  char                 *last_prompt;
  char                 *pending_prompt;  /* sent once the server's key is looked up */
  AgentMessage         *pending_regenerate;  /* likewise, an answer to regenerate */
  char                 *progress_title;   /* while the answer is awaited: retrying, and why */
  char                 *progress_detail;
  gpointer              pending_undo;     /* an Undo of an edit, waiting for its turn to end */
  AdwToast             *undo_toast;       /* the Undo of the last edit, while it shows */

#if AGENT_HAS_STORE
  AgentStore           *store;
  GtkWidget            *sidebar;
  AgentConversation    *conversation;  /* the memory, when it is a stored one */
#endif

  guint                 claim_source;  /* while another program holds the conversation */
  guint                 pending_continue : 1;
  guint                 pending_retry : 1;
  guint                 notified : 1;      /* a notification waits for the window */
  guint                 was_active : 1;    /* it had the keyboard once */  /* likewise, a turn to go on with */
  guint                 looking_up_key : 1;
  AgentChatAutoscroll  *autoscroll;
};

AgentChatApplication *_agent_chat_window_get_application (AgentChatWindow *self);
void                  _agent_chat_window_show_error       (AgentChatWindow *self,
                                                           const GError    *error,
                                                           AgentMessage    *last);
void                  _agent_chat_window_update_rows      (AgentChatWindow *self);
void                  _agent_chat_window_resume           (AgentChatWindow *self);
void                  _agent_chat_window_busy_changed     (AgentChatWindow *self);
void                  _agent_chat_window_update_approvals (AgentChatWindow *self);
void                  _agent_chat_window_model_changed    (AgentChatWindow *self);

/* agent-chat-window-approvals.c */
gboolean _agent_chat_window_approve_tool_call (AgentSession      *session,
                                               AgentToolCall     *call,
                                               AgentToolApproval *approval,
                                               AgentChatWindow   *self);
void     _agent_chat_window_revoke_approvals  (GtkWidget         *widget,
                                               const char        *action_name,
                                               GVariant          *parameter);
void     _agent_chat_window_notify_away       (AgentChatWindow   *self,
                                               const char        *title,
                                               const char        *body);
void     _agent_chat_window_is_active_changed (AgentChatWindow   *self);
char    *_agent_chat_window_excerpt           (const char        *text);

/* agent-chat-window-models.c */
const char *_agent_chat_window_chat_model    (AgentChatWindow *self);
void        _agent_chat_window_init_models   (AgentChatWindow *self);
void        _agent_chat_window_dispose_models (AgentChatWindow *self);

/* agent-chat-window-chats.c */
guint         _agent_chat_window_memory_position (AgentMemory     *memory,
                                                  AgentMessage    *message);
const GError *_agent_chat_window_lookup_error    (AgentChatWindow *self,
                                                  AgentMessage    *message);
gboolean      _agent_chat_window_record_error    (AgentChatWindow *self,
                                                  AgentMemory     *memory,
                                                  const GError    *error);
void          _agent_chat_window_forget_error    (AgentChatWindow *self);
void          _agent_chat_window_show_last_error (AgentChatWindow *self);
void          _agent_chat_window_leave_chat      (AgentChatWindow *self);
void          _agent_chat_window_enter_chat      (AgentChatWindow *self);
AgentMessage *_agent_chat_window_get_editing     (AgentChatWindow *self);
void          _agent_chat_window_edit            (AgentChatWindow *self,
                                                  AgentMessage    *message);
void          _agent_chat_window_cancel_edit     (AgentChatWindow *self);
gboolean      _agent_chat_window_apply_edit      (AgentChatWindow *self,
                                                  const char      *text);
void          _agent_chat_window_turn_ended      (AgentChatWindow *self,
                                                  AgentMemory     *memory);
void          _agent_chat_window_dispose_chats   (AgentChatWindow *self);

#if AGENT_HAS_STORE
void         _agent_chat_window_class_init_conversations (GtkWidgetClass  *widget_class);
void         _agent_chat_window_init_conversations       (AgentChatWindow *self);
void         _agent_chat_window_dispose_conversations    (AgentChatWindow *self);
AgentMemory *_agent_chat_window_new_memory               (AgentChatWindow *self);
void         _agent_chat_window_memory_changed           (AgentChatWindow *self);
void         _agent_chat_window_turn_started             (AgentChatWindow *self);
gboolean     _agent_chat_window_wait_for_claim           (AgentChatWindow *self);
void         _agent_chat_window_turn_answered            (AgentChatWindow *self,
                                                          AgentMessage    *answer);
gboolean     _agent_chat_window_stop_waiting             (AgentChatWindow *self);
#else
/* Without the store: no sidebar, and conversations in memory only */
static inline void
_agent_chat_window_class_init_conversations (GtkWidgetClass *widget_class)
{
}

static inline void
_agent_chat_window_init_conversations (AgentChatWindow *self)
{
  gtk_widget_set_visible (self->sidebar_pane, FALSE);
  gtk_widget_set_visible (self->sidebar_separator, FALSE);
}

static inline void
_agent_chat_window_dispose_conversations (AgentChatWindow *self)
{
}

static inline AgentMemory *
_agent_chat_window_new_memory (AgentChatWindow *self)
{
  return agent_simple_memory_new ();
}

static inline void
_agent_chat_window_memory_changed (AgentChatWindow *self)
{
}

static inline void
_agent_chat_window_turn_started (AgentChatWindow *self)
{
}

static inline void
_agent_chat_window_turn_answered (AgentChatWindow *self,
                                  AgentMessage    *answer)
{
}

static inline gboolean
_agent_chat_window_wait_for_claim (AgentChatWindow *self)
{
  return FALSE;
}

static inline gboolean
_agent_chat_window_stop_waiting (AgentChatWindow *self)
{
  return FALSE;
}
#endif

G_END_DECLS
