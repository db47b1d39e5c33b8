/* agent-gtk-chat-view-private.h
 *
 * The chat view's insides, shared by agent-gtk-chat-view.c (the widget:
 * its list, its session and composer, its rows, its approval prompts),
 * agent-gtk-chat-view-turns.c (the turns it runs) and
 * agent-gtk-chat-view-chats.c (the composer's draft as the conversation
 * shown changes, and Edit and Resend) and agent-gtk-chat-view-branches.c
 * (the "‹ 2 / 3 ›" of a message with siblings). What belongs to each conversation
 * (its draft, its edit, its errors) is its AgentGtkChatState
 * (agent-gtk-chat-state-private.h), which calls none of them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-autoscroll-private.h"
#include "agent-gtk-chat-scrollbar-private.h"
#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-read-aloud-button-private.h"

G_BEGIN_DECLS

/* Messages shown when a conversation is opened, brought in at a time as
 * the user scrolls up or down, and in the list at most: under GTK 4.8's
 * 200 rows, with room for the rows that are not messages
 * (agent-gtk-tail-model.c says why; workaround, GTK < 4.10) */
#define ROWS_AT_OPEN  16
#define ROWS_PER_STEP 16
#define ROWS_IN_LIST  150

/* What a turn about to start is */
typedef enum
{
  TURN_NONE,
  TURN_SEND,        /* a message of the user's: text */
  TURN_CONTINUE,    /* the conversation goes on from its last message */
  TURN_RETRY,       /* the failed turn again: an answer cut short goes first */
  TURN_REGENERATE,  /* message answered again: cut back to its question */
} TurnKind;

typedef struct
{
  TurnKind      kind;
  char         *text;
  AgentMessage *message;
  GPtrArray    *parts;    /* of AgentContentPart: the attachments sent with text */
} Turn;

struct _AgentGtkChatView
{
  GtkWidget                 parent_instance;

  /* The template */
  GtkStack                 *stack;
  GtkScrolledWindow        *scroller;
  GtkListView              *list_view;
  GtkSignalListItemFactory *factory;
  GtkRevealer              *jump_revealer;
  AgentGtkChatScrollbar    *scrollbar;
  GtkWidget                *prompts_box;

  GtkWidget                *placeholder;
  AgentGtkTailModel        *tail;       /* the transcript's end, as far back as scrolled */
  GtkFilterListModel       *messages;   /* that, without tool results */
  GListStore               *extras;     /* the error of the last turn, if any */
  AgentMessage             *extras_failed;  /* the message whose failure it shows */
  GtkFlattenListModel      *items;
  AgentGtkAutoscroll       *autoscroll;

  AgentSession             *session;
  AgentGtkComposer         *composer;
  AgentMemory              *memory;     /* the conversation shown, for its state */

  /* Turns */
  GCancellable             *cancellable;  /* of the turn that runs */
  Turn                      pending;      /* the turn about to start, or held */
  char                     *last_prompt;
  GPtrArray                *last_parts;   /* its attachments, or NULL */
  gpointer                  sent_memory;   /* the turn that runs sent them there (only compared) */
  guint                     sent_position; /* at that position */
  char                     *progress_title;   /* while the answer is awaited: retrying, and why */
  char                     *progress_detail;

  /* Edit and Resend */
  AgentGtkEditUndo         *undo;          /* what the last edit cut, while it may come back */
  AgentGtkEditUndo         *pending_undo;  /* an Undo waiting for its turn to stop */

  guint                     held : 1;      /* ::prepare-turn holds the pending turn */
  guint                     busy : 1;
  guint                     show_tool_call_chunks : 1;
  guint                     show_settings : 1;
  guint                     offer_conversation_approval : 1;

  /* Read Aloud (agent-gtk-chat-view-voice.c) */
  GPtrArray                *read_aloud_buttons;  /* those mapped */
  AgentMessage             *reading_aloud;
  guint                     can_read_aloud : 1;
};

/* agent-gtk-chat-view.c: the widget and its surface */
void          _agent_gtk_chat_view_update_busy      (AgentGtkChatView *self);
GListModel   *_agent_gtk_chat_view_get_items        (AgentGtkChatView *self);
GtkListView  *_agent_gtk_chat_view_get_list_view    (AgentGtkChatView *self);

/* agent-gtk-chat-view-rows.c: what the rows and the card after them show */
void          _agent_gtk_chat_view_update_rows      (AgentGtkChatView *self);
void          _agent_gtk_chat_view_apply_row_state  (AgentGtkChatView   *self,
                                                     AgentGtkMessageRow *row);
const GError *_agent_gtk_chat_view_lookup_failed_turn (AgentGtkChatView *self,
                                                       AgentMessage     *message);
void          _agent_gtk_chat_view_show_error_item  (AgentGtkChatView *self,
                                                     const GError     *error,
                                                     AgentMessage     *last);
void          _agent_gtk_chat_view_clear_error_item (AgentGtkChatView *self);
void          _agent_gtk_chat_view_show_last_error  (AgentGtkChatView *self);
void          _agent_gtk_chat_view_set_progress     (AgentGtkChatView *self,
                                                     const char       *title,
                                                     const char       *detail);

/* agent-gtk-chat-view-turns.c: Send, Retry, Regenerate, Stop, Undo */
void          _agent_gtk_chat_view_request_turn     (AgentGtkChatView *self,
                                                     TurnKind          kind,
                                                     const char       *text,
                                                     GListModel       *attachments,
                                                     AgentMessage     *message);
void          _agent_gtk_chat_view_ask_again        (AgentGtkChatView *self,
                                                     AgentMessage     *message);
void          _agent_gtk_chat_view_clear_turn       (Turn             *turn);

/* agent-gtk-chat-view-branches.c: "‹ 2 / 3 ›" */
void          _agent_gtk_chat_view_apply_siblings   (AgentGtkChatView   *self,
                                                     AgentGtkMessageRow *row);
void          _agent_gtk_chat_view_select_sibling   (AgentGtkChatView   *self,
                                                     AgentGtkMessageRow *row,
                                                     AgentMessage       *message,
                                                     guint               index);

/* agent-gtk-chat-view-chats.c: drafts, Edit and Resend */
void          _agent_gtk_chat_view_memory_changed   (AgentGtkChatView *self);
gboolean      _agent_gtk_chat_view_apply_edit       (AgentGtkChatView *self,
                                                     const char       *text);
AgentGtkEditUndo *_agent_gtk_chat_view_take_undo    (AgentGtkChatView *self);
void          _agent_gtk_chat_view_restore_edit     (AgentGtkChatView *self,
                                                     AgentGtkEditUndo *undo);
void          _agent_gtk_chat_view_drop_undo        (AgentGtkChatView *self,
                                                     AgentMemory      *memory);
void          _agent_gtk_chat_view_dispose_chats    (AgentGtkChatView *self);

/* agent-gtk-chat-view-voice.c: Read Aloud */
void          _agent_gtk_chat_view_read_aloud       (AgentGtkChatView        *self,
                                                     AgentMessage            *message);
void          _agent_gtk_chat_view_notify_voice     (AgentGtkChatView        *self,
                                                     gboolean                 reading);
void          _agent_gtk_chat_view_add_read_aloud_button    (AgentGtkChatView        *self,
                                                             AgentGtkReadAloudButton *button);
void          _agent_gtk_chat_view_remove_read_aloud_button (AgentGtkChatView        *self,
                                                             AgentGtkReadAloudButton *button);
void          _agent_gtk_chat_view_dispose_voice    (AgentGtkChatView        *self);

G_END_DECLS
