/* agent-chat-window-private.h
 *
 * The window's insides, shared by agent-chat-window.c (the chat) and
 * agent-chat-window-conversations.c (the stored conversations and the
 * sidebar).
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
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  GtkListView          *list_view;
  GtkSignalListItemFactory *factory;
  GtkRevealer          *jump_revealer;
  AgentChatComposer    *composer;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentSession         *session;
  GtkFilterListModel   *messages;   /* the transcript without tool results */
  GListStore           *extras;     /* the error of the last turn, if any */
  GtkFlattenListModel  *items;
  GCancellable         *cancellable;
  char                 *last_prompt;

#if AGENT_HAS_STORE
  AgentStore           *store;
  GtkWidget            *sidebar;
  AgentConversation    *conversation;  /* the memory, when it is a stored one */
#endif

  AgentChatAutoscroll  *autoscroll;
};

AgentChatApplication *_agent_chat_window_get_application (AgentChatWindow *self);

#if AGENT_HAS_STORE
void         _agent_chat_window_class_init_conversations (GtkWidgetClass  *widget_class);
void         _agent_chat_window_init_conversations       (AgentChatWindow *self);
void         _agent_chat_window_dispose_conversations    (AgentChatWindow *self);
AgentMemory *_agent_chat_window_new_memory               (AgentChatWindow *self);
void         _agent_chat_window_memory_changed           (AgentChatWindow *self);
void         _agent_chat_window_turn_started             (AgentChatWindow *self);
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
#endif

G_END_DECLS
