/* agent-gtk-chat-view.c
 *
 * A conversation with a model, as a widget: the messages of an AgentSession
 * (its transcript: its memory, then the answer streaming in), tool results
 * left out since their calls' cards show them, and after them the error of
 * a failed turn, if any, with Retry. Rows are recycled (GtkListView), an
 * answer is rendered once per frame and only what changed, and the view
 * follows the end of the conversation while it grows, until the user
 * scrolls up (agent-gtk-autoscroll.c). The questions about tools show
 * under the conversation, as approval prompts.
 *
 * The view runs the turns (agent-gtk-chat-view-turns.c) from its composer,
 * an AgentGtkComposer placed where the application likes, and keeps with
 * each conversation its draft, its edit and its errors
 * (agent-gtk-chat-view-chats.c). The provider, the keyring, the store are
 * the application's: it gets the session ready in ::prepare-turn.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-chat-state-private.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-private.h"
#include "agent-gtk-scroll-bin-private.h"
#include "markdown/agent-gtk-code-private.h"

/**
 * AgentGtkChatView:
 *
 * A conversation with a model, as a widget: the messages of an
 * [class@Agent.Session] (its memory, then the answer streaming in), a card
 * for each tool call ([class@AgentGtk.ToolCard]), the approval prompts of
 * tools that ask first ([class@AgentGtk.ApprovalPrompt]), and after the
 * conversation the error of a failed turn with Retry
 * ([class@AgentGtk.ErrorCard]). Answers are rendered as Markdown once per
 * frame, and the view follows the end of the conversation while it grows,
 * until the user scrolls up.
 *
 * The view runs the turns of its session: the messages of its
 * [property@AgentGtk.ChatView:composer] (or [method@AgentGtk.ChatView.send]),
 * Stop, Retry, Regenerate, Edit and Resend. The application gets the
 * session ready in [signal@AgentGtk.ChatView::prepare-turn]: its provider,
 * key and tools are the application's, never the view's.
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (AgentGtkChatView, agent_gtk_chat_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_COMPOSER,
  PROP_PLACEHOLDER,
  PROP_SHOW_TOOL_CALL_CHUNKS,
  PROP_SHOW_SETTINGS,
  PROP_OFFER_CONVERSATION_APPROVAL,
  PROP_FOLLOWING,
  PROP_BUSY,
  PROP_CAN_UNDO_EDIT,
  PROP_CAN_READ_ALOUD,
  PROP_READING_ALOUD,
  N_PROPS
};

enum {
  PREPARE_TURN,
  TURN_FINISHED,
  EDIT_SENT,
  APPROVAL_ANSWERED,
  OPEN_SETTINGS,
  READ_ALOUD,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What the view shows */

static void
update_page (AgentGtkChatView *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->items)) == 0;
  const char *page = empty && self->placeholder != NULL ? "placeholder" : "chat";

  /* The conversation shows at once: the prompt that starts a chat, where
   * the user looks, with its answer streaming in, and a stored one opened,
   * whose first frames lay its answers out. Under GTK's cairo renderer each
   * frame of a cross-fade draws both pages through images of their own
   * (4-7 ms more a frame, bench/bench-reopen). Only the empty page fades
   * in. */
  gtk_stack_set_visible_child_full (self->stack, page,
                                    g_str_equal (page, "chat") ? GTK_STACK_TRANSITION_TYPE_NONE
                                                               : gtk_stack_get_transition_type (self->stack));
}

/* Read Aloud (agent-gtk-chat-view-voice.c) */

void
_agent_gtk_chat_view_read_aloud (AgentGtkChatView *self,
                                 AgentMessage     *message)
{
  g_signal_emit (self, signals[READ_ALOUD], 0, message);
}

void
_agent_gtk_chat_view_notify_voice (AgentGtkChatView *self,
                                   gboolean          reading)
{
  g_object_notify_by_pspec (G_OBJECT (self),
                            properties[reading ? PROP_READING_ALOUD : PROP_CAN_READ_ALOUD]);
}

/* Rows: what they do */

static void
on_row_edit (AgentGtkChatView *self,
             AgentMessage     *message)
{
  agent_gtk_chat_view_edit (self, message);
}

static void
on_row_regenerate (AgentGtkChatView *self,
                   AgentMessage     *message)
{
  agent_gtk_chat_view_regenerate (self, message);
}

/* The card after the conversation tries the last turn again; a failed
 * turn's card in the history asks its question again */
static void
on_row_retry (AgentGtkMessageRow *row,
              AgentGtkChatView   *self)
{
  GObject *item = agent_gtk_message_row_get_item (row);

  if (AGENT_IS_MESSAGE (item) &&
      _agent_gtk_chat_view_lookup_failed_turn (self, AGENT_MESSAGE (item)) != NULL)
    _agent_gtk_chat_view_ask_again (self, AGENT_MESSAGE (item));
  else
    agent_gtk_chat_view_retry (self);
}

static void
on_row_select_sibling (AgentGtkMessageRow *row,
                       AgentMessage       *message,
                       guint               index,
                       AgentGtkChatView   *self)
{
  _agent_gtk_chat_view_select_sibling (self, row, message, index);
}

static void
on_row_open_settings (AgentGtkChatView *self)
{
  g_signal_emit (self, signals[OPEN_SETTINGS], 0);
}

static void
on_setup_item (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               AgentGtkChatView         *self)
{
  GtkWidget *row = agent_gtk_message_row_new ();

  g_object_bind_property (self, "show-tool-call-chunks", row, "show-tool-call-chunks",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "show-settings", row, "show-settings", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (row, "edit", G_CALLBACK (on_row_edit), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "regenerate", G_CALLBACK (on_row_regenerate), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "retry", G_CALLBACK (on_row_retry), self, 0);
  g_signal_connect_object (row, "select-sibling", G_CALLBACK (on_row_select_sibling), self, 0);
  g_signal_connect_object (row, "open-settings", G_CALLBACK (on_row_open_settings), self,
                           G_CONNECT_SWAPPED);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, row);
}

static void
on_bind_item (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              AgentGtkChatView         *self)
{
  AgentGtkMessageRow *row = AGENT_GTK_MESSAGE_ROW (gtk_list_item_get_child (item));

  agent_gtk_message_row_set_item (row, gtk_list_item_get_item (item));
  _agent_gtk_chat_view_apply_row_state (self, row);
}

static void
on_unbind_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                AgentGtkChatView         *self)
{
  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (gtk_list_item_get_child (item)), NULL);
}

static gboolean
keep_message (gpointer item,
              gpointer user_data)
{
  AgentMessageRole role = agent_message_get_role (item);

  return role == AGENT_MESSAGE_ROLE_USER || role == AGENT_MESSAGE_ROLE_ASSISTANT;
}

/* Busy: a turn runs, or one is about to start */

void
_agent_gtk_chat_view_update_busy (AgentGtkChatView *self)
{
  gboolean busy = (self->session != NULL && agent_session_get_busy (self->session)) ||
                  self->pending.kind != TURN_NONE;

  if (self->composer != NULL)
    agent_gtk_composer_set_busy (self->composer, busy);
  if (self->busy == busy)
    return;
  self->busy = busy;
  /* "‹ 2 / 3 ›" switches only between turns */
  _agent_gtk_chat_view_update_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Approvals: a prompt under the conversation for each question */

static void
on_prompt_answered (AgentGtkChatView       *self,
                    AgentGtkApprovalAnswer  answer,
                    AgentGtkApprovalPrompt *prompt)
{
  g_signal_emit (self, signals[APPROVAL_ANSWERED], 0,
                 agent_gtk_approval_prompt_get_approval (prompt), answer);
}

static void
remove_prompt (AgentGtkChatView *self,
               GtkWidget        *prompt)
{
  gboolean had_focus = gtk_widget_get_focus_child (self->prompts_box) == prompt;

  g_signal_handlers_disconnect_by_data (prompt, self);
  gtk_box_remove (GTK_BOX (self->prompts_box), prompt);
  gtk_widget_set_visible (self->prompts_box,
                          gtk_widget_get_first_child (self->prompts_box) != NULL);
  /* The keyboard goes on where the user writes */
  if (had_focus && self->composer != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
on_prompt_pending_changed (AgentGtkChatView       *self,
                           GParamSpec             *pspec,
                           AgentGtkApprovalPrompt *prompt)
{
  if (!agent_gtk_approval_prompt_get_pending (prompt))
    remove_prompt (self, GTK_WIDGET (prompt));
}

static void
clear_prompts (AgentGtkChatView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->prompts_box)) != NULL)
    remove_prompt (self, child);
}

/* Whether the user is writing (the focus is in a text of the window): a
 * question does not take the keyboard away then */
static gboolean
writing (AgentGtkChatView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (GTK_IS_TEXT_VIEW (focus) || GTK_IS_EDITABLE (focus));
}

/* After the application's handlers: one that answers (a tool allowed for
 * the conversation) keeps the question from being asked */
static gboolean
on_approve_tool_call (AgentSession      *session,
                      AgentToolCall     *call,
                      AgentToolApproval *approval,
                      AgentGtkChatView  *self)
{
  GtkWidget *prompt = agent_gtk_approval_prompt_new (approval);

  agent_gtk_approval_prompt_set_offer_conversation (AGENT_GTK_APPROVAL_PROMPT (prompt),
                                                    self->offer_conversation_approval);
  g_signal_connect_object (prompt, "answered", G_CALLBACK (on_prompt_answered), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (prompt, "notify::pending", G_CALLBACK (on_prompt_pending_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->prompts_box), prompt);
  gtk_widget_set_visible (self->prompts_box, TRUE);
  /* Stopped meanwhile */
  if (!agent_gtk_approval_prompt_get_pending (AGENT_GTK_APPROVAL_PROMPT (prompt)))
    {
      remove_prompt (self, prompt);
      return TRUE;
    }
  if (!writing (self))
    gtk_widget_grab_focus (prompt);
  agent_gtk_chat_view_scroll_to_end (self);
  return TRUE;
}

/* The session */

static void
on_retry (AgentSession     *session,
          guint             attempt,
          double            delay,
          const GError     *error,
          AgentGtkChatView *self)
{
  guint max_retries = agent_provider_get_max_retries (agent_session_get_provider (session));
  /* Translators: the attempt about to be made, of how many at most */
  g_autofree char *title = g_strdup_printf (_("Retrying (%u of %u)…"), attempt + 1,
                                            max_retries + 1);

  _agent_gtk_chat_view_set_progress (self, title, error ? error->message : NULL);
}

/* A new answer is awaited (or none): nothing was tried again for it yet */
static void
on_current_message_changed (AgentGtkChatView *self)
{
  _agent_gtk_chat_view_set_progress (self, NULL, NULL);
}

/* The composer refuses a file the session would refuse to send */
static void
sync_attachment_limit (AgentGtkChatView *self)
{
  guint64 max = 0;

  if (self->composer == NULL || self->session == NULL)
    return;
  g_object_get (self->session, "max-attachment-size", &max, NULL);
  agent_gtk_composer_set_max_attachment_size (self->composer, max);
}

static void
detach_session (AgentGtkChatView *self)
{
  if (self->session == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->session, self);
  clear_prompts (self);
  g_clear_object (&self->session);
}

/**
 * agent_gtk_chat_view_set_session:
 * @self: a chat view
 * @session: (nullable): the session to show and run turns with
 *
 * Shows @session's conversation, and runs the turns of the view with it.
 * A turn of the session shown before goes on in its own conversation; the
 * view no longer shows it.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_session (AgentGtkChatView *self,
                                 AgentSession     *session)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (session == NULL || AGENT_IS_SESSION (session));

  if (self->session == session)
    return;

  if (session != NULL)
    g_object_ref (session);
  detach_session (self);
  self->session = session;
  g_clear_object (&self->cancellable);
  if (session != NULL)
    {
      agent_session_set_stream_tool_call_chunks (session, self->show_tool_call_chunks);
      g_signal_connect_object (session, "approve-tool-call", G_CALLBACK (on_approve_tool_call),
                               self, G_CONNECT_AFTER);
      g_signal_connect_object (session, "retry", G_CALLBACK (on_retry), self, 0);
      g_signal_connect_object (session, "notify::current-message",
                               G_CALLBACK (on_current_message_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::busy",
                               G_CALLBACK (_agent_gtk_chat_view_update_busy), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::memory",
                               G_CALLBACK (_agent_gtk_chat_view_memory_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::max-attachment-size",
                               G_CALLBACK (sync_attachment_limit), self, G_CONNECT_SWAPPED);
      sync_attachment_limit (self);
    }
  agent_gtk_tail_model_set_model (self->tail, session ? agent_session_get_transcript (session) : NULL);
  _agent_gtk_chat_view_memory_changed (self);
  _agent_gtk_chat_view_update_busy (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * agent_gtk_chat_view_get_session:
 * @self: a chat view
 *
 * Gets the session the view shows.
 *
 * Returns: (transfer none) (nullable): the session
 *
 * Since: 0.1
 */
AgentSession *
agent_gtk_chat_view_get_session (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);
  return self->session;
}

/* The composer */

/* Files dropped on the conversation go to the composer, as attachments */
static gboolean
on_drop (GtkDropTarget    *target,
         const GValue     *value,
         double            x,
         double            y,
         AgentGtkChatView *self)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  if (self->composer == NULL || !G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  agent_gtk_composer_attach_files (self->composer, (GFile **) files->pdata, files->len);
  return TRUE;
}

static void
on_composer_send (AgentGtkChatView *self,
                  const char       *text,
                  AgentGtkComposer *composer)
{
  agent_gtk_chat_view_send_with_attachments (self, text,
                                             agent_gtk_composer_get_attachments (composer));
}

/**
 * agent_gtk_chat_view_set_composer:
 * @self: a chat view
 * @composer: (nullable): the composer that sends to the view
 *
 * Sends what is written in @composer, and stops with its Stop: the view
 * sets its [property@AgentGtk.Composer:busy] state, empties it when a turn
 * starts, keeps its text as the draft of each conversation, and puts a
 * message to edit in it. The composer is placed where the application
 * likes (usually under the view).
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_composer (AgentGtkChatView *self,
                                  AgentGtkComposer *composer)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (composer == NULL || AGENT_GTK_IS_COMPOSER (composer));

  if (self->composer == composer)
    return;
  if (self->composer != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->composer, self);
      g_clear_object (&self->composer);
    }
  if (composer != NULL)
    {
      self->composer = g_object_ref (composer);
      g_signal_connect_object (composer, "send", G_CALLBACK (on_composer_send), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (composer, "stop", G_CALLBACK (agent_gtk_chat_view_stop), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (composer, "cancel-edit",
                               G_CALLBACK (agent_gtk_chat_view_cancel_edit), self,
                               G_CONNECT_SWAPPED);
      agent_gtk_composer_set_editing (composer,
                                      self->memory != NULL &&
                                      agent_gtk_chat_state_get_editing (
                                        agent_gtk_chat_state_get (self->memory)) != NULL);
      sync_attachment_limit (self);
    }
  _agent_gtk_chat_view_update_busy (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPOSER]);
}

/**
 * agent_gtk_chat_view_get_composer:
 * @self: a chat view
 *
 * Gets the composer that sends to the view.
 *
 * Returns: (transfer none) (nullable): the composer
 *
 * Since: 0.1
 */
AgentGtkComposer *
agent_gtk_chat_view_get_composer (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);
  return self->composer;
}

/* Scrolling: the view follows the end of the conversation (a streaming
 * answer, a new turn) until the user scrolls up */

/**
 * agent_gtk_chat_view_scroll_to_end:
 * @self: a chat view
 *
 * Brings the end of the conversation into view, and follows it from there
 * as it grows.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_scroll_to_end (AgentGtkChatView *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  agent_gtk_autoscroll_set_following (self->autoscroll, TRUE);
}

/* Jump to Bottom */
static void
on_jump_clicked (AgentGtkChatView *self)
{
  agent_gtk_chat_view_scroll_to_end (self);
}

/* Shown while the view does not follow the end, and hidden once it faded
 * out: a screen reader finds no button that is not on screen */
static void
update_jump_button (AgentGtkChatView *self)
{
  gtk_widget_set_visible (gtk_revealer_get_child (self->jump_revealer),
                          gtk_revealer_get_reveal_child (self->jump_revealer) ||
                          gtk_revealer_get_child_revealed (self->jump_revealer));
}

/**
 * agent_gtk_chat_view_scroll_to_start:
 * @self: a chat view
 *
 * Brings the first message of the conversation into view, at its top,
 * however long the conversation: the view no longer follows its end.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_scroll_to_start (AgentGtkChatView *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  agent_gtk_chat_scrollbar_scroll_to (self->scrollbar, 0, 0, FALSE);
}

static void
scroll_to_start_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  agent_gtk_chat_view_scroll_to_start (AGENT_GTK_CHAT_VIEW (widget));
}

/* Home and End (with Ctrl or not) in the conversation: its first message
 * and its last, which take the keyboard (the list's own keys go to the
 * first and last rows it holds, a part of a long conversation) */
static gboolean
on_list_key_pressed (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     AgentGtkChatView      *self)
{
  gboolean home = keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home;
  gboolean end = keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (!(home || end) ||
      (state & gtk_accelerator_get_default_mod_mask () & ~GDK_CONTROL_MASK) != 0 ||
      (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus))))
    return GDK_EVENT_PROPAGATE;
  agent_gtk_chat_scrollbar_scroll_to (self->scrollbar, home ? 0 : G_MAXUINT, 0, TRUE);
  return GDK_EVENT_STOP;
}

/* The pointer over the conversation shows its scrollbar */
static void
on_pointer_moved (AgentGtkChatView *self)
{
  agent_gtk_chat_scrollbar_pointer_moved (self->scrollbar);
}

static void
scroll_to_end_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  agent_gtk_chat_view_scroll_to_end (AGENT_GTK_CHAT_VIEW (widget));
}

/**
 * agent_gtk_chat_view_get_following:
 * @self: a chat view
 *
 * Gets whether the view follows the end of the conversation.
 *
 * Returns: whether the end of the conversation stays in view
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_following (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return agent_gtk_autoscroll_get_following (self->autoscroll);
}

/**
 * agent_gtk_chat_view_set_following:
 * @self: a chat view
 * @following: whether to follow the end of the conversation
 *
 * Sets [property@AgentGtk.ChatView:following].
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_following (AgentGtkChatView *self,
                                   gboolean          following)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  agent_gtk_autoscroll_set_following (self->autoscroll, following);
}

/* Properties */

/**
 * agent_gtk_chat_view_get_placeholder:
 * @self: a chat view
 *
 * Gets what shows while the conversation is empty.
 *
 * Returns: (transfer none) (nullable): the placeholder
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_chat_view_get_placeholder (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);
  return self->placeholder;
}

/**
 * agent_gtk_chat_view_set_placeholder:
 * @self: a chat view
 * @placeholder: (nullable): a widget to show while the conversation is
 *   empty (an [class@Adw.StatusPage], say)
 *
 * Sets what shows while the conversation is empty.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_placeholder (AgentGtkChatView *self,
                                     GtkWidget        *placeholder)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (placeholder == NULL || GTK_IS_WIDGET (placeholder));

  if (self->placeholder == placeholder)
    return;
  if (self->placeholder != NULL)
    gtk_stack_remove (self->stack, self->placeholder);
  self->placeholder = placeholder;
  if (placeholder != NULL)
    gtk_stack_add_named (self->stack, placeholder, "placeholder");
  update_page (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLACEHOLDER]);
}

/**
 * agent_gtk_chat_view_get_show_tool_call_chunks:
 * @self: a chat view
 *
 * Gets whether tool calls show while the model writes them.
 *
 * Returns: whether tool calls show fragment by fragment
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_show_tool_call_chunks (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return self->show_tool_call_chunks;
}

/**
 * agent_gtk_chat_view_set_show_tool_call_chunks:
 * @self: a chat view
 * @show_tool_call_chunks: whether tool calls show while they are written
 *
 * Sets [property@AgentGtk.ChatView:show-tool-call-chunks].
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_show_tool_call_chunks (AgentGtkChatView *self,
                                               gboolean          show_tool_call_chunks)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  show_tool_call_chunks = !!show_tool_call_chunks;
  if (self->show_tool_call_chunks == show_tool_call_chunks)
    return;
  self->show_tool_call_chunks = show_tool_call_chunks;
  if (self->session != NULL)
    agent_session_set_stream_tool_call_chunks (self->session, show_tool_call_chunks);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_TOOL_CALL_CHUNKS]);
}

/**
 * agent_gtk_chat_view_get_show_settings:
 * @self: a chat view
 *
 * Gets whether error cards offer Preferences.
 *
 * Returns: whether error cards offer Preferences
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_show_settings (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return self->show_settings;
}

/**
 * agent_gtk_chat_view_set_show_settings:
 * @self: a chat view
 * @show_settings: whether error cards offer Preferences
 *
 * Sets [property@AgentGtk.ChatView:show-settings].
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_show_settings (AgentGtkChatView *self,
                                       gboolean          show_settings)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  show_settings = !!show_settings;
  if (self->show_settings == show_settings)
    return;
  self->show_settings = show_settings;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SETTINGS]);
}

/**
 * agent_gtk_chat_view_get_offer_conversation_approval:
 * @self: a chat view
 *
 * Gets whether approval prompts offer to allow a tool for the conversation.
 *
 * Returns: whether answers for the conversation are offered
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_offer_conversation_approval (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return self->offer_conversation_approval;
}

/**
 * agent_gtk_chat_view_set_offer_conversation_approval:
 * @self: a chat view
 * @offer: whether approval prompts offer answers for the conversation
 *
 * Sets [property@AgentGtk.ChatView:offer-conversation-approval].
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_offer_conversation_approval (AgentGtkChatView *self,
                                                     gboolean          offer)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  offer = !!offer;
  if (self->offer_conversation_approval == offer)
    return;
  self->offer_conversation_approval = offer;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFER_CONVERSATION_APPROVAL]);
}

/**
 * agent_gtk_chat_view_get_busy:
 * @self: a chat view
 *
 * Gets whether a turn runs, or is about to start (held by
 * [signal@AgentGtk.ChatView::prepare-turn]): Stop stops it.
 *
 * Returns: whether the view is busy with a turn
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_busy (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);
  return self->busy;
}

/* For the tests and benchmarks: what the list shows (messages, then the
 * error of the last turn), and the list */
GListModel *
_agent_gtk_chat_view_get_items (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);
  return G_LIST_MODEL (self->items);
}

GtkListView *
_agent_gtk_chat_view_get_list_view (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);
  return self->list_view;
}

/* GObject */

static void
agent_gtk_chat_view_dispose (GObject *object)
{
  AgentGtkChatView *self = AGENT_GTK_CHAT_VIEW (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  _agent_gtk_chat_view_clear_turn (&self->pending);
  if (self->prompts_box != NULL)
    detach_session (self);
  g_clear_object (&self->session);
  agent_gtk_chat_view_set_composer (self, NULL);
  _agent_gtk_chat_view_dispose_chats (self);
  _agent_gtk_chat_view_dispose_voice (self);
  g_clear_object (&self->autoscroll);
  self->placeholder = NULL;  /* a page of the stack */
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_CHAT_VIEW);
  /* The prompts' clamp, which the template does not name */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->items);
  g_clear_object (&self->messages);
  g_clear_object (&self->tail);
  g_clear_object (&self->extras);
  g_clear_object (&self->extras_failed);
  g_clear_object (&self->memory);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (agent_gtk_chat_view_parent_class)->dispose (object);
}

static void
agent_gtk_chat_view_finalize (GObject *object)
{
  AgentGtkChatView *self = AGENT_GTK_CHAT_VIEW (object);

  g_free (self->last_prompt);
  g_clear_pointer (&self->last_parts, g_ptr_array_unref);
  g_free (self->progress_title);
  g_free (self->progress_detail);

  G_OBJECT_CLASS (agent_gtk_chat_view_parent_class)->finalize (object);
}

static void
agent_gtk_chat_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentGtkChatView *self = AGENT_GTK_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_COMPOSER:
      g_value_set_object (value, self->composer);
      break;
    case PROP_PLACEHOLDER:
      g_value_set_object (value, self->placeholder);
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      g_value_set_boolean (value, self->show_tool_call_chunks);
      break;
    case PROP_SHOW_SETTINGS:
      g_value_set_boolean (value, self->show_settings);
      break;
    case PROP_OFFER_CONVERSATION_APPROVAL:
      g_value_set_boolean (value, self->offer_conversation_approval);
      break;
    case PROP_FOLLOWING:
      g_value_set_boolean (value, agent_gtk_chat_view_get_following (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_CAN_UNDO_EDIT:
      g_value_set_boolean (value, agent_gtk_chat_view_get_can_undo_edit (self));
      break;
    case PROP_CAN_READ_ALOUD:
      g_value_set_boolean (value, self->can_read_aloud);
      break;

    case PROP_READING_ALOUD:
      g_value_set_object (value, self->reading_aloud);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_chat_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AgentGtkChatView *self = AGENT_GTK_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      agent_gtk_chat_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_COMPOSER:
      agent_gtk_chat_view_set_composer (self, g_value_get_object (value));
      break;
    case PROP_PLACEHOLDER:
      agent_gtk_chat_view_set_placeholder (self, g_value_get_object (value));
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      agent_gtk_chat_view_set_show_tool_call_chunks (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_SETTINGS:
      agent_gtk_chat_view_set_show_settings (self, g_value_get_boolean (value));
      break;
    case PROP_OFFER_CONVERSATION_APPROVAL:
      agent_gtk_chat_view_set_offer_conversation_approval (self, g_value_get_boolean (value));
      break;
    case PROP_FOLLOWING:
      agent_gtk_chat_view_set_following (self, g_value_get_boolean (value));
      break;
    case PROP_CAN_READ_ALOUD:
      agent_gtk_chat_view_set_can_read_aloud (self, g_value_get_boolean (value));
      break;

    case PROP_READING_ALOUD:
      agent_gtk_chat_view_set_reading_aloud (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_chat_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (agent_gtk_chat_view_parent_class)->map (widget);

  /* Answers bring code blocks and a spinner: their highlighter and the
   * spinner's SVG loader are made ready at idle */
  _agent_gtk_code_prepare (widget);
}

static void
agent_gtk_chat_view_class_init (AgentGtkChatViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_chat_view_dispose;
  object_class->finalize = agent_gtk_chat_view_finalize;
  widget_class->map = agent_gtk_chat_view_map;
  object_class->get_property = agent_gtk_chat_view_get_property;
  object_class->set_property = agent_gtk_chat_view_set_property;

  /**
   * AgentGtkChatView:session:
   *
   * The session whose conversation the view shows, and with which it runs
   * its turns. Its memory may be any [iface@Agent.Memory]: what a stored
   * conversation ([class@Agent.Conversation]) keeps, the errors of its
   * turns, the view shows again when it is opened.
   *
   * Since: 0.1
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AGENT_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:composer:
   *
   * The composer whose messages the view sends, and whose Stop stops its
   * turns.
   *
   * Since: 0.1
   */
  properties[PROP_COMPOSER] =
    g_param_spec_object ("composer", NULL, NULL, AGENT_GTK_TYPE_COMPOSER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:placeholder:
   *
   * What shows while the conversation is empty; %NULL shows the empty
   * list.
   *
   * Since: 0.1
   */
  properties[PROP_PLACEHOLDER] =
    g_param_spec_object ("placeholder", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:show-tool-call-chunks:
   *
   * Whether tool calls show while the model writes them: the session
   * streams their fragments ([property@Agent.Session:stream-tool-call-chunks])
   * and their cards show them. Otherwise a card says that a call is being
   * written, and shows it once whole. It acts at once, mid-stream too.
   *
   * Since: 0.1
   */
  properties[PROP_SHOW_TOOL_CALL_CHUNKS] =
    g_param_spec_boolean ("show-tool-call-chunks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:show-settings:
   *
   * Whether the card of a failed turn offers Preferences when the fix is
   * likely there (see [property@AgentGtk.ErrorCard:show-settings]); it
   * emits [signal@AgentGtk.ChatView::open-settings].
   *
   * Since: 0.1
   */
  properties[PROP_SHOW_SETTINGS] =
    g_param_spec_boolean ("show-settings", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:offer-conversation-approval:
   *
   * Whether the approval prompts offer to allow a tool for the rest of the
   * conversation (see [property@AgentGtk.ApprovalPrompt:offer-conversation]):
   * for an application that keeps such answers, from
   * [signal@AgentGtk.ChatView::approval-answered].
   *
   * Since: 0.1
   */
  properties[PROP_OFFER_CONVERSATION_APPROVAL] =
    g_param_spec_boolean ("offer-conversation-approval", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:following:
   *
   * Whether the view keeps the end of the conversation in view as it grows
   * (an answer streaming in). Scrolling up stops it; scrolling back to the
   * end, or the Jump to Bottom button, follows it again.
   *
   * Since: 0.1
   */
  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:busy:
   *
   * Whether a turn runs, or is about to start.
   *
   * Since: 0.1
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkChatView:can-undo-edit:
   *
   * Whether the last edited message sent can be undone
   * ([method@AgentGtk.ChatView.undo_edit]).
   *
   * Since: 0.1
   */
  properties[PROP_CAN_UNDO_EDIT] =
    g_param_spec_boolean ("can-undo-edit", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentGtkChatView:can-read-aloud:
   *
   * Whether answers offer Read Aloud (agent-gtk-chat-view-voice.c), for
   * an application that can play speech.
   *
   * Since: 0.1
   */
  properties[PROP_CAN_READ_ALOUD] =
    g_param_spec_boolean ("can-read-aloud", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentGtkChatView:reading-aloud:
   *
   * The answer being read aloud, whose Read Aloud is Stop Reading.
   *
   * Since: 0.1
   */
  properties[PROP_READING_ALOUD] =
    g_param_spec_object ("reading-aloud", NULL, NULL, AGENT_TYPE_MESSAGE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentGtkChatView::prepare-turn:
   * @self: the chat view
   *
   * Emitted before each turn starts (Send, Retry, Regenerate, an edited
   * message), and again when a held turn is resumed: get the session ready
   * here — its provider, model, API key, tools — or replace it
   * ([property@AgentGtk.ChatView:session]).
   *
   * A handler that cannot let the turn start yet (a key is being looked
   * up, another program writes to the conversation) returns %TRUE: the
   * turn is held, the view stays busy (Stop drops the turn), and
   * [method@AgentGtk.ChatView.resume_turn] tries again.
   * [method@AgentGtk.ChatView.fail_turn] drops it with an error.
   *
   * Returns: %TRUE to hold the turn
   *
   * Since: 0.1
   */
  signals[PREPARE_TURN] = g_signal_new ("prepare-turn", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, g_signal_accumulator_true_handled,
                                        NULL, NULL, G_TYPE_BOOLEAN, 0);
  /**
   * AgentGtkChatView::turn-finished:
   * @self: the chat view
   * @message: (nullable): the answer the turn ended with
   * @error: (nullable): why it failed; `G_IO_ERROR_CANCELLED` when stopped
   *
   * A turn of the view's session ended, and the view shows how: the
   * answer, or the error in a card with Retry.
   *
   * Since: 0.1
   */
  signals[TURN_FINISHED] = g_signal_new ("turn-finished", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                         AGENT_TYPE_MESSAGE, G_TYPE_ERROR);
  /**
   * AgentGtkChatView::edit-sent:
   * @self: the chat view
   *
   * An edited message was sent (Edit and Resend): the message it replaces
   * and the turns after it were cut from the conversation. An application
   * may offer to undo that ([method@AgentGtk.ChatView.undo_edit]), while
   * [property@AgentGtk.ChatView:can-undo-edit] holds.
   *
   * Since: 0.1
   */
  signals[EDIT_SENT] = g_signal_new ("edit-sent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * AgentGtkChatView::approval-answered:
   * @self: the chat view
   * @approval: the question
   * @answer: what the user answered
   *
   * The user answered a question about a tool in the view's approval
   * prompt, which allowed or denied it. An answer for the conversation is
   * the application's to keep: its handler of
   * [signal@Agent.Session::approve-tool-call] then answers at once, and the
   * view does not ask.
   *
   * Since: 0.1
   */
  signals[APPROVAL_ANSWERED] = g_signal_new ("approval-answered", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 2, AGENT_TYPE_TOOL_APPROVAL,
                                             AGENT_GTK_TYPE_APPROVAL_ANSWER);
  /**
   * AgentGtkChatView::open-settings:
   * @self: the chat view
   *
   * The user asked for the settings from the card of a failed turn (see
   * [property@AgentGtk.ChatView:show-settings]).
   *
   * Since: 0.1
   */
  signals[OPEN_SETTINGS] = g_signal_new ("open-settings", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);

  /**
   * AgentGtkChatView::read-aloud:
   * @self: the chat view
   * @message: the answer
   *
   * The user asked to hear @message (its Read Aloud), or to stop it when
   * it is [property@AgentGtk.ChatView:reading-aloud] (its Stop Reading).
   *
   * Since: 0.1
   */
  signals[READ_ALOUD] = g_signal_new ("read-aloud", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);

  g_type_ensure (AGENT_GTK_TYPE_CHAT_SCROLLBAR);
  g_type_ensure (AGENT_GTK_TYPE_SCROLL_BIN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-chat-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, stack);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, scroller);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, list_view);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, factory);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, jump_revealer);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, prompts_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatView, scrollbar);
  gtk_widget_class_bind_template_callback (widget_class, on_jump_clicked);
  gtk_widget_class_install_action (widget_class, "chat-view.scroll-to-start", NULL,
                                   scroll_to_start_action);
  gtk_widget_class_install_action (widget_class, "chat-view.scroll-to-end", NULL,
                                   scroll_to_end_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chatview");
}

static void
on_following_changed (AgentGtkChatView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
}

static void
agent_gtk_chat_view_init (AgentGtkChatView *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkCustomFilter *filter;
  GListStore *models;
  GtkDropTarget *drop;
  GtkEventController *keys;
  GtkEventController *motion;
  g_autoptr(GtkNoSelection) selection = NULL;

  AGENT_GTK_INSTANCE_INIT ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));

  filter = gtk_custom_filter_new (keep_message, NULL, NULL);
  self->tail = agent_gtk_tail_model_new (GTK_FILTER (filter), ROWS_AT_OPEN, ROWS_IN_LIST);
  self->messages = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->tail)),
                                              GTK_FILTER (filter));
  self->extras = g_list_store_new (G_TYPE_OBJECT);
  models = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (models, self->messages);
  g_list_store_append (models, self->extras);
  self->items = gtk_flatten_list_model_new (G_LIST_MODEL (models));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  g_signal_connect_object (self->items, "items-changed", G_CALLBACK (update_page), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->factory, "setup", G_CALLBACK (on_setup_item), self, 0);
  g_signal_connect_object (self->factory, "bind", G_CALLBACK (on_bind_item), self, 0);
  g_signal_connect_object (self->factory, "unbind", G_CALLBACK (on_unbind_item), self, 0);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  self->autoscroll = agent_gtk_autoscroll_new (self->list_view);
  agent_gtk_autoscroll_set_tail (self->autoscroll, self->tail, ROWS_PER_STEP);
  agent_gtk_chat_scrollbar_set_view (self->scrollbar, self->list_view, self->tail,
                                     self->autoscroll);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_list_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), keys);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion, "motion", G_CALLBACK (on_pointer_moved), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->stack), motion);
  g_signal_connect_object (self->jump_revealer, "notify::reveal-child",
                           G_CALLBACK (update_jump_button), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jump_revealer, "notify::child-revealed",
                           G_CALLBACK (update_jump_button), self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->autoscroll, "following", self->jump_revealer, "reveal-child",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  update_jump_button (self);
  g_signal_connect_object (self->autoscroll, "notify::following",
                           G_CALLBACK (on_following_changed), self, G_CONNECT_SWAPPED);
}

/**
 * agent_gtk_chat_view_new:
 *
 * Creates a chat view. Give it a session
 * ([property@AgentGtk.ChatView:session]) to show and to talk with, and a
 * composer ([property@AgentGtk.ChatView:composer]) to write in.
 *
 * Returns: (transfer floating): a new chat view
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_chat_view_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_CHAT_VIEW, NULL);
}
