/* agent-chat-window-private.h
 *
 * The window's insides, shared by agent-chat-window.c (the chat, a
 * libagent-gtk AgentGtkChatView, and its session), agent-chat-window-split.c
 * (the panes), agent-chat-window-context.c (long conversations),
 * agent-chat-window-approvals.c (the tools allowed, the
 * notifications), agent-chat-window-models.c (the model picker),
 * agent-chat-window-settings.c (the conversation's settings),
 * agent-chat-window-tools.c (web search and the documents' search),
 * agent-chat-window-conversations.c (the stored conversations and the
 * sidebar) and agent-chat-window-import.c (conversations imported).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agent-chat-context-meter.h"
#include "agent-chat-window.h"

G_BEGIN_DECLS

struct _AgentChatWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;  /* over the conversation */
  GtkWidget            *split;  /* the panes: agent-chat-window-split.c */
  gint64                split_shadow_until;  /* libadwaita < 1.4: the leaflet's shadow */
  guint                 split_shadow_shown : 1;
  GtkWidget            *sidebar_pane;
  GtkWidget            *sidebar_separator;
  GtkWidget            *sidebar_header;
  GtkWidget            *content_pane;
  GtkWidget            *content_header;
  GtkWidget            *back_button;
  GtkWidget            *content_new_button;
  AdwWindowTitle       *window_title;
  GtkMenuButton        *menu_button;
  GtkMenuButton        *settings_button;  /* the conversation's: agent-chat-window-settings.c */
  GtkMenuButton        *model_button;
  GtkPopover           *models_popover;
  GtkSearchEntry       *model_search;
  GtkListBox           *model_list;
  GtkLabel             *models_status;
  GtkWidget            *more_models_button;  /* Get More Models…, for Ollama */
  GCancellable         *models_cancellable;
  GtkWidget            *vision_warning;  /* agent-chat-window-vision.c */
  GtkLabel             *vision_label;
  GCancellable         *vision_cancellable;
  char                 *vision_model;    /* the model whose capabilities are known */
  char                 *vision_url;      /* and its server */
  AgentModelCapabilities vision_capabilities;
  guint                 vision_known : 1;
  GtkWindow            *models_window;  /* the Models window, while open (a weak pointer) */
  GMenu                *approvals_section;
  AdwStatusPage        *empty_page;
  GtkWidget            *first_run;   /* its choices of a server, at the first run */
  AgentGtkChatView     *chat_view;   /* the conversation, libagent-gtk's */
  AgentGtkComposer     *composer;
  AgentChatContextMeter *context_meter;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentChatConnection  *connection;  /* the server in use */
  AgentSession         *session;
  AgentMcpServerList   *mcp_servers;  /* the app's: every session is offered their tools */
  AdwToast             *undo_toast;  /* the Undo of the last edit, while it shows */
  GCancellable         *context_cancellable;  /* the model list asked for the window */
  char                 *listed_window_key;    /* the server and model it was asked for */
  guint64               listed_window;        /* what it said, 0 if nothing */
  guint64               applied_window;       /* the window set on the session */

#if AGENT_HAS_STORE
  AgentStore           *store;
  GtkWidget            *sidebar;
  AdwToastOverlay      *sidebar_toast_overlay;  /* over the sidebar */
  AgentConversation    *conversation;  /* the memory, when it is a stored one */
  GCancellable         *opening;       /* while a conversation is read to be shown */
#endif

  guint                 claim_source;  /* while another program holds the conversation */
  guint                 notified : 1;      /* a notification waits for the window */
  guint                 was_active : 1;    /* it had the keyboard once */
  guint                 looking_up_key : 1;
  GObject              *voice_reader;  /* Read Aloud: agent-chat-window-voice.c */
};

AgentChatApplication *_agent_chat_window_get_application (AgentChatWindow *self);
void                  _agent_chat_window_add_toast        (AgentChatWindow *self,
                                                           AdwToast        *toast);
void                  _agent_chat_window_show_error       (AgentChatWindow *self,
                                                           const GError    *error);
void                  _agent_chat_window_update_approvals (AgentChatWindow *self);
void                  _agent_chat_window_model_changed    (AgentChatWindow *self);

/* agent-chat-window-approvals.c */
gboolean _agent_chat_window_approve_tool_call (AgentSession      *session,
                                               AgentToolCall     *call,
                                               AgentToolApproval *approval,
                                               AgentChatWindow   *self);
void     _agent_chat_window_approval_answered (AgentChatWindow        *self,
                                               AgentToolApproval      *approval,
                                               AgentGtkApprovalAnswer  answer);
void     _agent_chat_window_revoke_approvals  (GtkWidget         *widget,
                                               const char        *action_name,
                                               GVariant          *parameter);
void     _agent_chat_window_notify_away       (AgentChatWindow   *self,
                                               const char        *title,
                                               const char        *body);
void     _agent_chat_window_is_active_changed (AgentChatWindow   *self);
char    *_agent_chat_window_excerpt           (const char        *text);

/* agent-chat-window-models.c */
const char    *_agent_chat_window_chat_model    (AgentChatWindow *self);
AgentProvider *_agent_chat_window_keyed_provider (AgentChatWindow *self);
void        _agent_chat_window_class_init_models (GtkWidgetClass *widget_class);
void        _agent_chat_window_init_models   (AgentChatWindow *self);
void        _agent_chat_window_dispose_models (AgentChatWindow *self);

/* agent-chat-window-vision.c */
void     _agent_chat_window_init_vision       (AgentChatWindow *self);
void     _agent_chat_window_dispose_vision    (AgentChatWindow *self);
void     _agent_chat_window_update_vision     (AgentChatWindow *self);
gboolean _agent_chat_window_refuse_images     (AgentChatWindow *self);

/* agent-chat-window-settings.c */
void     _agent_chat_window_init_chat_settings      (AgentChatWindow *self);
void     _agent_chat_window_apply_chat_settings     (AgentChatWindow *self);
guint64  _agent_chat_window_chat_context_window     (AgentChatWindow *self);

/* agent-chat-window-context.c */
void     _agent_chat_window_configure_context       (AgentChatWindow *self);
gboolean _agent_chat_window_wait_for_context_window (AgentChatWindow *self);
void     _agent_chat_window_init_context            (AgentChatWindow *self);
void     _agent_chat_window_dispose_context         (AgentChatWindow *self);

/* agent-chat-window-tools.c */
gboolean _agent_chat_window_wait_for_search_key (AgentChatWindow *self);
void     _agent_chat_window_add_search_tools    (AgentChatWindow *self);

/* agent-chat-window-split.c */
void _agent_chat_window_init_split   (AgentChatWindow *self);
void _agent_chat_window_show_pane    (AgentChatWindow *self,
                                      gboolean         content);
void _agent_chat_window_hide_sidebar (AgentChatWindow *self);

#if AGENT_HAS_STORE
void         _agent_chat_window_class_init_conversations (GtkWidgetClass  *widget_class);
void         _agent_chat_window_init_conversations       (AgentChatWindow *self);
void         _agent_chat_window_dispose_conversations    (AgentChatWindow *self);
AgentMemory *_agent_chat_window_new_memory               (AgentChatWindow *self);
void         _agent_chat_window_memory_changed           (AgentChatWindow *self);
void         _agent_chat_window_turn_started             (AgentChatWindow *self);
gboolean     _agent_chat_window_keep_profile             (AgentChatWindow  *self,
                                                          GError          **error);
gboolean     _agent_chat_window_wait_for_claim           (AgentChatWindow *self);
void         _agent_chat_window_turn_answered            (AgentChatWindow *self,
                                                          AgentMessage    *answer);
gboolean     _agent_chat_window_stop_waiting             (AgentChatWindow *self);
void         _agent_chat_window_open_conversation        (AgentChatWindow   *self,
                                                          AgentConversation *conversation);

/* agent-chat-window-import.c */
void         _agent_chat_window_class_init_import        (GtkWidgetClass  *widget_class);
void         _agent_chat_window_init_import              (AgentChatWindow *self);
#else
/* Without the store: no sidebar, and conversations in memory only */
static inline void
_agent_chat_window_class_init_conversations (GtkWidgetClass *widget_class)
{
}

static inline void
_agent_chat_window_init_conversations (AgentChatWindow *self)
{
  _agent_chat_window_hide_sidebar (self);
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
_agent_chat_window_keep_profile (AgentChatWindow  *self,
                                 GError          **error)
{
  return TRUE;
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

static inline void
_agent_chat_window_class_init_import (GtkWidgetClass *widget_class)
{
}

static inline void
_agent_chat_window_init_import (AgentChatWindow *self)
{
}
#endif

/* agent-chat-window-voice.c: dictation and Read Aloud (-Dgstreamer) */
void     _agent_chat_window_init_voice        (AgentChatWindow *self);

G_END_DECLS
