/* agent-gtk-message-row.c
 *
 * One row of the chat view: a user's message, an assistant's answer, a
 * summary of earlier turns (an AgentGtkSummaryMarker), or a failed turn (an
 * AgentGtkErrorCard, with Retry). Rows are recycled by the
 * list view: setting a new item drops every handler, timer and card of the
 * old one.
 *
 * A message is drawn in parts, top to bottom, each by its own update_*()
 * from the message: the user's text (in its bubble), its attachments (an
 * image as a picture, a document as a chip: agent-gtk-attachment.c), the answer's
 * "Thinking" (its reasoning), "Waiting for the model…" (or why it is tried
 * again) until something arrives, the answer's Markdown, its tool calls as
 * cards, "Stopped" (or why it was cut short), and the actions. A new part
 * (attachments, the tokens a turn used) is one more widget of the template
 * and one more update_*() called from update_parts().
 *
 * Streaming text is shown at most once per frame, and while it streams at
 * most every 30 ms: a delta only marks the row dirty, and a tick of the frame
 * clock renders what changed (agent-gtk-update-pacer.c).
 *
 * The row takes the keyboard focus (Tab, the arrows of the list), and is
 * named for screen readers ("Your message", "Answer", "Error") with its
 * text as description. Its actions are buttons, reached by Tab, and a
 * context menu: the Menu key, Shift+F10, a right click or a long press.
 * The buttons show while the pointer is over the row or the focus is in
 * it (they keep their place otherwise, so that nothing moves). A message
 * with siblings (other answers that Regenerate made, other versions of a
 * question) shows "‹ 2 / 3 ›" with them, always
 * (agent-gtk-branch-switcher.c); Alt+Left and Alt+Right on the row go to
 * the previous and the next sibling.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-a11y-private.h"
#include "agent-gtk-answer-info-private.h"
#include "agent-gtk-attachment-private.h"
#include "agent-gtk-branch-switcher-private.h"
#include "agent-gtk-copy-private.h"
#include "agent-gtk-error-card-private.h"
#include "agent-gtk-error-item-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-private.h"
#include "agent-gtk-read-aloud-button-private.h"
#include "agent-gtk-summary-marker-private.h"
#include "agent-gtk-update-pacer-private.h"

struct _AgentGtkMessageRow
{
  GtkWidget     parent_instance;

  GtkWidget    *clamp;
  GtkWidget    *box;
  GtkWidget    *user_box;
  GtkWidget    *user_bubble;
  GtkWidget    *user_label;
  GtkWidget    *attachments_box;
  GtkWidget    *thinking_expander;
  GtkWidget    *thinking_title;
  GtkWidget    *thinking_spinner;
  GtkWidget    *reasoning_label;
  GtkWidget    *waiting_box;
  GtkWidget    *waiting_spinner;
  GtkWidget    *waiting_label;
  GtkWidget    *waiting_detail;
  GtkWidget    *markdown;
  GtkWidget    *cards_box;
  GtkWidget    *stopped_label;
  GtkWidget    *error_card;      /* made when a row first shows an error */
  GtkWidget    *summary_marker;  /* made when a row first shows a summary */
  GtkWidget    *actions_box;
  GtkWidget    *branch_switcher;
  GtkWidget    *copy_button;
  GtkWidget    *edit_button;
  GtkWidget    *regenerate_button;
  GtkWidget    *info_label;
  GMenuModel   *user_menu;
  GMenuModel   *answer_menu;
  GMenuModel   *error_menu;
  GtkWidget    *menu;         /* the context menu, once opened */

  GObject      *item;
  GObject      *unbound;  /* weak: the item shown before set_item (NULL) */
  AgentMessage *message;   /* item, when it is a message */
  GSignalGroup *signals;
  GSignalGroup *tool_signals;
  char         *progress_title;   /* while the answer is awaited: NULL for "Waiting…" */
  char         *progress_detail;
  GError       *turn_error;       /* what cut the answer short, if not the user */
  char         *info;             /* how the answer was made, in words (answer-info) */
  AgentGtkUpdatePacer pacer;
  guint         n_attachments;    /* shown in attachments_box */
  guint         show_tool_call_chunks : 1;
  guint         show_settings : 1;
  guint         hovered : 1;
  guint         focused : 1;
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_SHOW_TOOL_CALL_CHUNKS,
  PROP_SHOW_SETTINGS,
  N_PROPS
};

enum {
  EDIT,
  REGENERATE,
  RETRY,
  OPEN_SETTINGS,
  SELECT_SIBLING,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkMessageRow, agent_gtk_message_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The parts of a message */

/* The user's text, in its bubble */
static void
update_user_part (AgentGtkMessageRow *self)
{
  const char *content = agent_message_get_content (self->message);
  gboolean user = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER;

  gtk_widget_set_visible (self->user_box, user);
  gtk_widget_set_visible (self->user_bubble,
                          user && ((content != NULL && *content != '\0') ||
                                   agent_message_get_n_attachments (self->message) == 0));
  if (user)
    {
      /* The bubble is as wide as a short message: a minimum of
       * AGENT_GTK_LABEL_MIN_CHARS would widen it (agent-gtk-private.h);
       * a message of a few lines costs little to measure */
      gtk_label_set_width_chars (GTK_LABEL (self->user_label),
                                 content != NULL && strlen (content) > 256 ? AGENT_GTK_LABEL_MIN_CHARS : -1);
      gtk_label_set_text (GTK_LABEL (self->user_label), content ? content : "");
    }
}

static void
clear_attachments (AgentGtkMessageRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->attachments_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->attachments_box), child);
  self->n_attachments = 0;
  gtk_widget_set_visible (self->attachments_box, FALSE);
}

/* Its images and documents, under the user's bubble (an answer's, at its
 * start); a message only gains some */
static void
update_attachments_part (AgentGtkMessageRow *self)
{
  guint n = agent_message_get_n_attachments (self->message);
  gboolean user = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER;

  if (n == self->n_attachments)
    return;
  clear_attachments (self);
  gtk_widget_set_halign (self->attachments_box, user ? GTK_ALIGN_END : GTK_ALIGN_START);
  for (guint i = 0; i < n; i++)
    gtk_box_append (GTK_BOX (self->attachments_box),
                    agent_gtk_attachment_new (agent_message_get_attachment (self->message, i),
                                              FALSE));
  self->n_attachments = n;
  gtk_widget_set_visible (self->attachments_box, n > 0);
}

/* "Thinking": the answer's reasoning, folded, with a spinner until the
 * answer's text comes */
static void
update_reasoning_part (AgentGtkMessageRow *self)
{
  const char *reasoning = agent_message_get_reasoning (self->message);
  const char *content = agent_message_get_content (self->message);
  gboolean thinking = agent_message_get_state (self->message) == AGENT_MESSAGE_STATE_STREAMING &&
                      (content == NULL || *content == '\0');

  gtk_widget_set_visible (self->thinking_expander, reasoning != NULL && *reasoning != '\0');
  if (reasoning != NULL)
    gtk_label_set_text (GTK_LABEL (self->reasoning_label), reasoning);
  gtk_widget_set_visible (self->thinking_spinner, thinking);
  gtk_spinner_set_spinning (GTK_SPINNER (self->thinking_spinner), thinking);
}

/* From the moment of Send until something of the answer shows: that it is
 * awaited, or tried again and why. A summary being written says so in its
 * marker: it awaits nothing here (the view gives the progress of the turn
 * to the message streaming, which the summary is first). */
static void
update_waiting_part (AgentGtkMessageRow *self)
{
  AgentMessage *message = self->message;
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  gboolean waiting = agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT &&
                     !agent_message_is_summary (message) &&
                     agent_message_get_state (message) == AGENT_MESSAGE_STATE_STREAMING &&
                     (content == NULL || *content == '\0') &&
                     (reasoning == NULL || *reasoning == '\0') &&
                     agent_message_get_n_tool_calls (message) == 0;

  gtk_widget_set_visible (self->waiting_box, waiting);
  gtk_spinner_set_spinning (GTK_SPINNER (self->waiting_spinner), waiting);
  gtk_label_set_text (GTK_LABEL (self->waiting_label),
                      self->progress_title ? self->progress_title : _("Waiting for the model…"));
  gtk_label_set_text (GTK_LABEL (self->waiting_detail),
                      self->progress_detail ? self->progress_detail : "");
  gtk_widget_set_visible (self->waiting_detail, self->progress_detail != NULL);
}

/* The answer's text, as Markdown */
static void
update_text_part (AgentGtkMessageRow *self)
{
  const char *content = agent_message_get_content (self->message);
  gboolean answer = agent_message_get_role (self->message) != AGENT_MESSAGE_ROLE_USER;
  gboolean has_content = content != NULL && *content != '\0';

  if (answer)
    {
      /* Its last paragraph drawn without a layout of the window while it
       * grows; a label again once the answer is whole */
      _agent_gtk_markdown_view_set_streaming (AGENT_GTK_MARKDOWN_VIEW (self->markdown),
                                              agent_message_get_state (self->message) ==
                                              AGENT_MESSAGE_STATE_STREAMING);
      agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (self->markdown), content);
    }
  gtk_widget_set_visible (self->markdown, answer && has_content);
}

/* "Stopped", or why the answer was cut short */
static void
update_stopped_part (AgentGtkMessageRow *self)
{
  gtk_widget_set_visible (self->stopped_label,
                          agent_message_get_state (self->message) ==
                          AGENT_MESSAGE_STATE_INTERRUPTED);
  gtk_label_set_text (GTK_LABEL (self->stopped_label),
                      _agent_gtk_describe_interruption (self->turn_error));
}

static void update_accessible (AgentGtkMessageRow *self);

/* When the answer was made, by which model, its tokens and time: shown
 * with the actions, on hover and focus (update_actions_shown()), and said
 * with the row's text */
static void
update_info_part (AgentGtkMessageRow *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *text = _agent_gtk_answer_info_dup_short (self->message, now);

  g_free (self->info);
  self->info = _agent_gtk_answer_info_dup_long (self->message, now);
  gtk_label_set_text (GTK_LABEL (self->info_label), text ? text : "");
  gtk_widget_set_tooltip_text (self->info_label, self->info);
  gtk_widget_set_visible (self->info_label, text != NULL && (self->hovered || self->focused));
}

/* The actions go beside the user's bubble (at its start, level with its
 * last line), under an answer; rows are recycled from one to the other */
static void
place_actions (AgentGtkMessageRow *self,
               gboolean            user)
{
  GtkWidget *home = user ? self->user_box : self->box;
  GtkWidget *parent = gtk_widget_get_parent (self->actions_box);

  if (parent != home)
    {
      g_object_ref (self->actions_box);
      if (user)
        {
          gtk_box_remove (GTK_BOX (parent), self->actions_box);
          gtk_grid_attach (GTK_GRID (home), self->actions_box, 0, 0, 1, 1);
          /* Before the bubble for the focus too */
          gtk_widget_insert_before (self->actions_box, home, self->user_bubble);
        }
      else
        {
          gtk_grid_remove (GTK_GRID (parent), self->actions_box);
          gtk_box_append (GTK_BOX (home), self->actions_box);
        }
      g_object_unref (self->actions_box);
    }
  gtk_widget_set_valign (self->actions_box, user ? GTK_ALIGN_END : GTK_ALIGN_FILL);
}

/* Copy, and Edit and Resend or Regenerate, once there is something to copy */
static void
update_actions_part (AgentGtkMessageRow *self)
{
  AgentMessageState state = agent_message_get_state (self->message);
  AgentMessageRole role = agent_message_get_role (self->message);
  const char *content = agent_message_get_content (self->message);
  gboolean has_content = content != NULL && *content != '\0';

  place_actions (self, role == AGENT_MESSAGE_ROLE_USER);

  gtk_widget_set_visible (self->actions_box,
                          role == AGENT_MESSAGE_ROLE_USER ||
                          (state != AGENT_MESSAGE_STATE_STREAMING && has_content));
  gtk_widget_set_visible (self->edit_button, role == AGENT_MESSAGE_ROLE_USER);
  gtk_widget_set_visible (self->regenerate_button, role == AGENT_MESSAGE_ROLE_ASSISTANT);
  gtk_widget_set_halign (self->actions_box, GTK_ALIGN_START);
  /* Said once the text is whole, not at every delta */
  if (state != AGENT_MESSAGE_STATE_STREAMING)
    {
      update_info_part (self);
      update_accessible (self);
    }
}

/* The parts few rows show are made when one first does: a conversation
 * opened makes up to 200 rows at once (GtkListView's), and each part in
 * the template costs every one of them */

static void on_retry_clicked    (AgentGtkMessageRow *self);
static void on_settings_clicked (AgentGtkMessageRow *self);

static AgentGtkSummaryMarker *
ensure_summary_marker (AgentGtkMessageRow *self)
{
  if (self->summary_marker == NULL)
    {
      self->summary_marker = g_object_new (AGENT_GTK_TYPE_SUMMARY_MARKER, NULL);
      gtk_box_insert_child_after (GTK_BOX (self->box), self->summary_marker, self->stopped_label);
    }
  return AGENT_GTK_SUMMARY_MARKER (self->summary_marker);
}

static AgentGtkErrorCard *
ensure_error_card (AgentGtkMessageRow *self)
{
  if (self->error_card == NULL)
    {
      self->error_card = g_object_new (AGENT_GTK_TYPE_ERROR_CARD, NULL);
      agent_gtk_error_card_set_show_settings (AGENT_GTK_ERROR_CARD (self->error_card),
                                              self->show_settings);
      g_signal_connect_swapped (self->error_card, "retry", G_CALLBACK (on_retry_clicked), self);
      g_signal_connect_swapped (self->error_card, "open-settings",
                                G_CALLBACK (on_settings_clicked), self);
      gtk_box_insert_child_after (GTK_BOX (self->box), self->error_card,
                                  self->summary_marker ? self->summary_marker
                                                       : self->stopped_label);
    }
  return AGENT_GTK_ERROR_CARD (self->error_card);
}

/* Every part but the tool cards, which follow the message's list of calls
 * (on_tool_calls_changed()) */
static void
update_parts (AgentGtkMessageRow *self)
{
  /* A summary is a marker, folded, and nothing else */
  if (agent_message_is_summary (self->message))
    {
      agent_gtk_summary_marker_update (ensure_summary_marker (self), self->message);
      gtk_widget_set_visible (self->summary_marker, TRUE);
      if (agent_message_get_state (self->message) != AGENT_MESSAGE_STATE_STREAMING)
        update_accessible (self);
      return;
    }
  update_user_part (self);
  update_attachments_part (self);
  update_reasoning_part (self);
  update_waiting_part (self);
  update_text_part (self);
  update_stopped_part (self);
  update_actions_part (self);
}

/* What a screen reader says of the row: who wrote it, and the text */
static void
update_accessible (AgentGtkMessageRow *self)
{
  g_autofree char *description = NULL;
  const char *label = NULL;

  if (self->message != NULL)
    {
      gboolean user = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER;
      const char *content = agent_message_get_content (self->message);

      label = user ? _("Your message")
                   : agent_message_is_summary (self->message) ? _("Summary of earlier messages")
                                                              : _("Answer");
      if (agent_message_get_state (self->message) == AGENT_MESSAGE_STATE_INTERRUPTED)
        description = g_strdup_printf ("%s (%s)", content ? content : "",
                                       _agent_gtk_describe_interruption (self->turn_error));
      else
        description = g_strdup (content ? content : "");
      /* How it was made, first: a long answer is not read to its end */
      if (self->info != NULL && !user)
        {
          char *with_info = g_strdup_printf ("%s. %s", self->info, description);

          g_free (description);
          description = with_info;
        }
    }
  else if (AGENT_GTK_IS_ERROR_ITEM (self->item))
    {
      AgentGtkErrorCard *card = ensure_error_card (self);

      label = _("Error");
      description = g_strdup_printf ("%s. %s", agent_gtk_error_card_get_heading (card),
                                     agent_gtk_error_card_get_body (card));
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label ? label : "",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description ? description : "",
                                  -1);
  agent_gtk_a11y_label_list_item (GTK_WIDGET (self), label);
}

static void
on_update (GtkWidget *widget)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (widget);

  if (self->message != NULL)
    update_parts (self);
}

/* At the next frame */
static void
schedule_update (AgentGtkMessageRow *self)
{
  _agent_gtk_update_pacer_queue (&self->pacer);
}

/* The text or the reasoning grew: at most every 30 ms while it streams */
static void
schedule_text_update (AgentGtkMessageRow *self)
{
  _agent_gtk_update_pacer_queue_paced (&self->pacer);
}

static void
cancel_update (AgentGtkMessageRow *self)
{
  _agent_gtk_update_pacer_cancel (&self->pacer);
}

/**
 * agent_gtk_message_row_flush:
 * @self: a #AgentGtkMessageRow
 *
 * Renders now what would be rendered at the next frames: the message's
 * change, and the pages of a long answer still to be laid out.
 */
void
agent_gtk_message_row_flush (AgentGtkMessageRow *self)
{
  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  _agent_gtk_update_pacer_flush (&self->pacer);
  _agent_gtk_markdown_view_flush (AGENT_GTK_MARKDOWN_VIEW (self->markdown));
}

static void
clear_cards (AgentGtkMessageRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->cards_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->cards_box), child);
}

static void
on_tool_calls_changed (AgentGtkMessageRow *self,
                       guint                position,
                       guint                removed,
                       guint                added,
                       GListModel          *tool_calls)
{
  guint n = g_list_model_get_n_items (tool_calls);

  clear_cards (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentToolCall) call = g_list_model_get_item (tool_calls, i);
      GtkWidget *card = agent_gtk_tool_card_new ();

      g_object_bind_property (self, "show-tool-call-chunks", card, "show-chunks",
                              G_BINDING_SYNC_CREATE);
      agent_gtk_tool_card_set_tool_call (AGENT_GTK_TOOL_CARD (card), call);
      gtk_box_append (GTK_BOX (self->cards_box), card);
    }
  /* Empty, it would still take the spacing of the row's parts */
  gtk_widget_set_visible (self->cards_box, n > 0);
  if (self->message != NULL)
    update_waiting_part (self);
}

static void
show_error (AgentGtkMessageRow *self,
            AgentGtkErrorItem  *error)
{
  AgentGtkErrorCard *card = ensure_error_card (self);

  agent_gtk_error_card_set_partial (card, agent_gtk_error_item_get_partial (error));
  agent_gtk_error_card_set_api_key_missing (card, agent_gtk_error_item_get_api_key_missing (error));
  agent_gtk_error_card_set_error (card, agent_gtk_error_item_get_error (error));
  gtk_widget_set_visible (self->error_card, TRUE);
  update_accessible (self);
}

/* The menu's Preferences, only where the fix is there and the application
 * has them */
static void
update_actions (AgentGtkMessageRow *self)
{
  gboolean settings = AGENT_GTK_IS_ERROR_ITEM (self->item) && self->show_settings &&
                      self->error_card != NULL &&
                      agent_gtk_error_card_get_needs_settings (AGENT_GTK_ERROR_CARD (self->error_card));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "message.preferences", settings);
}

static void
reset (AgentGtkMessageRow *self)
{
  cancel_update (self);
  clear_cards (self);
  gtk_widget_set_visible (self->cards_box, FALSE);
  gtk_widget_set_visible (self->user_box, FALSE);
  gtk_widget_set_visible (self->user_bubble, FALSE);
  clear_attachments (self);
  gtk_widget_set_visible (self->thinking_expander, FALSE);
  /* The Markdown keeps its text, hidden: the next message shown sets its
   * own, and keeps the chunks they share. GTK 4.8 unbinds and binds again
   * the row of an item replaced by itself, as the answer is when it goes
   * into memory: that costs nothing then, instead of rebuilding it all. */
  gtk_widget_set_visible (self->markdown, FALSE);
  gtk_widget_set_visible (self->waiting_box, FALSE);
  gtk_spinner_set_spinning (GTK_SPINNER (self->waiting_spinner), FALSE);
  g_clear_pointer (&self->progress_title, g_free);
  g_clear_pointer (&self->progress_detail, g_free);
  g_clear_error (&self->turn_error);
  g_clear_pointer (&self->info, g_free);
  gtk_widget_set_visible (self->info_label, FALSE);
  gtk_widget_set_visible (self->stopped_label, FALSE);
  if (self->error_card != NULL)
    gtk_widget_set_visible (self->error_card, FALSE);
  if (self->summary_marker != NULL)
    {
      gtk_widget_set_visible (self->summary_marker, FALSE);
      agent_gtk_summary_marker_reset (AGENT_GTK_SUMMARY_MARKER (self->summary_marker));
    }
  gtk_widget_set_visible (self->actions_box, FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "user");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "assistant");
}

/* Whether the cards show the calls of @tool_calls, in their order */
static gboolean
cards_show (AgentGtkMessageRow *self,
            GListModel         *tool_calls)
{
  GtkWidget *card = gtk_widget_get_first_child (self->cards_box);
  guint n = g_list_model_get_n_items (tool_calls);

  for (guint i = 0; i < n; i++, card = gtk_widget_get_next_sibling (card))
    {
      g_autoptr(AgentToolCall) call = g_list_model_get_item (tool_calls, i);

      if (card == NULL || agent_gtk_tool_card_get_tool_call (AGENT_GTK_TOOL_CARD (card)) != call)
        return FALSE;
    }
  return card == NULL;
}

/**
 * agent_gtk_message_row_set_item:
 * @self: a #AgentGtkMessageRow
 * @item: (nullable): an #AgentMessage or an #AgentGtkErrorItem
 *
 * Shows @item, after dropping everything bound to the item shown before.
 *
 * Unbound (@item %NULL), the row keeps what it showed (a list view
 * shows no row without an item): GTK 4.8's list views unbind a
 * row and bind it again to the same item whenever its position changes —
 * every row below a message added above them, as when the list brings
 * earlier messages in while the user scrolls up, or the answer going into
 * memory. Bound again to that item, the row only catches up with what
 * changed meanwhile; bound to another, it starts again.
 */
void
agent_gtk_message_row_set_item (AgentGtkMessageRow *self,
                                 GObject             *item)
{
  gboolean again;

  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  if (self->item == item)
    return;

  g_signal_group_set_target (self->signals, NULL);
  g_signal_group_set_target (self->tool_signals, NULL);
  if (item == NULL)
    {
      cancel_update (self);
      g_set_weak_pointer (&self->unbound, self->item);
      g_clear_object (&self->item);
      self->message = NULL;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
      return;
    }

  again = item == self->unbound;
  g_clear_weak_pointer (&self->unbound);
  if (!again)
    {
      reset (self);
      /* The reasoning of a message shown again stays as the user left it:
       * folded or not */
      gtk_expander_set_expanded (GTK_EXPANDER (self->thinking_expander), FALSE);
    }
  g_set_object (&self->item, item);
  self->message = AGENT_IS_MESSAGE (item) ? AGENT_MESSAGE (item) : NULL;

  if (AGENT_GTK_IS_ERROR_ITEM (item))
    show_error (self, AGENT_GTK_ERROR_ITEM (item));
  else if (self->message != NULL)
    {
      gboolean user = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER;
      GListModel *tool_calls = agent_message_get_tool_calls (self->message);

      gtk_widget_add_css_class (GTK_WIDGET (self), user ? "user" : "assistant");
      update_accessible (self);
      g_signal_group_set_target (self->signals, self->message);
      g_signal_group_set_target (self->tool_signals, tool_calls);
      update_parts (self);
      if (!again || !cards_show (self, tool_calls))
        on_tool_calls_changed (self, 0, 0, 0, tool_calls);
    }
  update_actions (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

GObject *
agent_gtk_message_row_get_item (AgentGtkMessageRow *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self), NULL);
  return self->item;
}

AgentGtkMarkdownView *
agent_gtk_message_row_get_markdown (AgentGtkMessageRow *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self), NULL);
  return AGENT_GTK_MARKDOWN_VIEW (self->markdown);
}

/**
 * agent_gtk_message_row_set_progress:
 * @self: a #AgentGtkMessageRow
 * @title: (nullable): what happens while the answer is awaited, or %NULL
 *   for "Waiting for the model…"
 * @detail: (nullable): more about it (why a request is tried again)
 *
 * What the row says while its answer is awaited.
 */
void
agent_gtk_message_row_set_progress (AgentGtkMessageRow *self,
                                     const char          *title,
                                     const char          *detail)
{
  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  if (g_strcmp0 (self->progress_title, title) == 0 &&
      g_strcmp0 (self->progress_detail, detail) == 0)
    return;
  g_free (self->progress_title);
  g_free (self->progress_detail);
  self->progress_title = g_strdup (title);
  self->progress_detail = g_strdup (detail);
  if (self->message != NULL)
    update_waiting_part (self);
}

/**
 * agent_gtk_message_row_set_turn_error:
 * @self: a #AgentGtkMessageRow
 * @error: (nullable): the error the message's turn failed with
 *
 * Says why an answer was cut short: with no error, the user stopped it.
 */
void
agent_gtk_message_row_set_turn_error (AgentGtkMessageRow *self,
                                       const GError        *error)
{
  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  if (self->turn_error == error)
    return;
  g_clear_error (&self->turn_error);
  self->turn_error = error ? g_error_copy (error) : NULL;
  if (self->message != NULL)
    {
      update_stopped_part (self);
      update_actions_part (self);
    }
}

/**
 * agent_gtk_message_row_set_failed_turn:
 * @self: a #AgentGtkMessageRow
 * @error: (nullable): why the turn that ended at the message failed, or
 *   %NULL
 *
 * Keeps a failed turn failed in the history: under the message it ended
 * at (its question, unanswered, or its answer cut short), a card says why,
 * with Retry (::retry). The view shows the last turn's failure in a card
 * of its own, after the conversation: this is for the earlier ones.
 */
void
agent_gtk_message_row_set_failed_turn (AgentGtkMessageRow *self,
                                       const GError       *error)
{
  AgentGtkErrorCard *card;

  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  if (self->message == NULL)
    return;
  if (error == NULL)
    {
      if (self->error_card != NULL)
        gtk_widget_set_visible (self->error_card, FALSE);
      return;
    }
  card = ensure_error_card (self);
  agent_gtk_error_card_set_partial (card, agent_message_get_state (self->message) ==
                                          AGENT_MESSAGE_STATE_INTERRUPTED);
  agent_gtk_error_card_set_error (card, error);
  gtk_widget_set_visible (self->error_card, TRUE);
}

/**
 * agent_gtk_message_row_set_editing:
 * @self: a #AgentGtkMessageRow
 * @editing: whether the message shown is being edited
 *
 * Marks the message being edited (Edit and Resend).
 */
void
agent_gtk_message_row_set_editing (AgentGtkMessageRow *self,
                                    gboolean             editing)
{
  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  if (editing)
    gtk_widget_add_css_class (GTK_WIDGET (self), "editing");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "editing");
}

/**
 * agent_gtk_message_row_get_cards:
 * @self: a #AgentGtkMessageRow
 *
 * Returns: (transfer none): the box holding the tool cards
 */
GtkWidget *
agent_gtk_message_row_get_cards (AgentGtkMessageRow *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self), NULL);
  return self->cards_box;
}

static void
on_copy_clicked (AgentGtkMessageRow *self)
{
  g_autofree char *text = NULL;

  if (self->message != NULL)
    text = g_strdup (agent_message_get_content (self->message));
  else if (AGENT_GTK_IS_ERROR_ITEM (self->item))
    text = g_strdup_printf ("%s\n%s", agent_gtk_error_card_get_heading (ensure_error_card (self)),
                            agent_gtk_error_card_get_body (ensure_error_card (self)));
  else
    return;
  _agent_gtk_copy_text (self->copy_button, text);
}

static void
on_edit_clicked (AgentGtkMessageRow *self)
{
  if (self->message != NULL)
    g_signal_emit (self, signals[EDIT], 0, self->message);
}

static void
on_regenerate_clicked (AgentGtkMessageRow *self)
{
  if (self->message != NULL)
    g_signal_emit (self, signals[REGENERATE], 0, self->message);
}

/* Previous or Next of "‹ 2 / 3 ›" */
static void
on_branch_select (AgentGtkMessageRow *self,
                  guint               index)
{
  if (self->message != NULL)
    g_signal_emit (self, signals[SELECT_SIBLING], 0, self->message, index);
}

/**
 * agent_gtk_message_row_set_siblings:
 * @self: a #AgentGtkMessageRow
 * @index: which of its siblings the message shown is, from 0
 * @n_siblings: how many there are, itself included
 * @can_switch: whether another may be selected now (not while a turn runs)
 *
 * Shows "‹ @index + 1 / @n_siblings ›" when the message has siblings.
 */
void
agent_gtk_message_row_set_siblings (AgentGtkMessageRow *self,
                                    guint               index,
                                    guint               n_siblings,
                                    gboolean            can_switch)
{
  g_return_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self));

  agent_gtk_branch_switcher_set_siblings (AGENT_GTK_BRANCH_SWITCHER (self->branch_switcher),
                                          index, self->message != NULL ? n_siblings : 0,
                                          self->message == NULL ||
                                          agent_message_get_role (self->message) !=
                                          AGENT_MESSAGE_ROLE_USER);
  gtk_widget_set_sensitive (self->branch_switcher, can_switch);
}

/* The switcher, for tests */
GtkWidget *
agent_gtk_message_row_get_branch_switcher (AgentGtkMessageRow *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MESSAGE_ROW (self), NULL);
  return self->branch_switcher;
}

static void
on_retry_clicked (AgentGtkMessageRow *self)
{
  g_signal_emit (self, signals[RETRY], 0);
}

static void
on_settings_clicked (AgentGtkMessageRow *self)
{
  g_signal_emit (self, signals[OPEN_SETTINGS], 0);
}

/* The context menu */

/* Shows the menu at (@x, @y), or under the row's start for the keyboard
 * (@x < 0) */
static void
show_menu (AgentGtkMessageRow *self,
           double               x,
           double               y)
{
  GMenuModel *model;
  GdkRectangle rect = { 0, 0, 1, 1 };

  /* A summary is not an answer: nothing to regenerate */
  if (self->message != NULL && agent_message_is_summary (self->message))
    return;
  if (self->message != NULL)
    model = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER ? self->user_menu
                                                                              : self->answer_menu;
  else if (AGENT_GTK_IS_ERROR_ITEM (self->item))
    model = self->error_menu;
  else
    return;

  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_popover_set_position (GTK_POPOVER (self->menu), GTK_POS_BOTTOM);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Message Menu"), -1);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), model);

  if (x < 0)
    {
      /* Under the user's bubble, or the answer's first line */
      GtkWidget *anchor = self->message != NULL && gtk_widget_get_visible (self->user_bubble)
                          ? self->user_bubble : self->box;
      graphene_rect_t bounds;

      if (gtk_widget_compute_bounds (anchor, GTK_WIDGET (self), &bounds))
        {
          rect.x = (int) bounds.origin.x;
          rect.y = (int) bounds.origin.y;
          rect.width = MAX (1, (int) MIN (bounds.size.width, 48));
          rect.height = MAX (1, (int) MIN (bounds.size.height, 48));
        }
    }
  else
    {
      rect.x = (int) x;
      rect.y = (int) y;
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &rect);
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
show_menu_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  show_menu (AGENT_GTK_MESSAGE_ROW (widget), -1, -1);
}

/* Whether what is at (@x, @y) has a menu of its own worth showing: text
 * selected in a label (to copy), a link, a field */
static gboolean
own_menu_at (AgentGtkMessageRow *self,
             double               x,
             double               y)
{
  for (GtkWidget *widget = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
       widget != NULL && widget != GTK_WIDGET (self);
       widget = gtk_widget_get_parent (widget))
    {
      int start, end;

      if (GTK_IS_EDITABLE (widget) || GTK_IS_TEXT_VIEW (widget))
        return TRUE;
      if (GTK_IS_LABEL (widget))
        return gtk_label_get_selection_bounds (GTK_LABEL (widget), &start, &end) ||
               gtk_label_get_current_uri (GTK_LABEL (widget)) != NULL;
    }
  return FALSE;
}

/* Before the message's labels (the capture phase): a right click on the
 * text opens the message's menu, not a label's Cut, Paste and Delete, all
 * insensitive; unless the label has something to offer */
static void
on_right_click (GtkGestureClick     *gesture,
                int                  n_press,
                double               x,
                double               y,
                AgentGtkMessageRow *self)
{
  if (own_menu_at (self, x, y))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  show_menu (self, x, y);
}

static void
on_long_press (GtkGestureLongPress *gesture,
               double               x,
               double               y,
               AgentGtkMessageRow *self)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  show_menu (self, x, y);
}

static void
row_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (widget);

  if (g_str_equal (action_name, "message.copy"))
    on_copy_clicked (self);
  else if (g_str_equal (action_name, "message.edit"))
    on_edit_clicked (self);
  else if (g_str_equal (action_name, "message.regenerate"))
    on_regenerate_clicked (self);
  else if (g_str_equal (action_name, "message.retry"))
    on_retry_clicked (self);
  else if (g_str_equal (action_name, "message.preferences"))
    on_settings_clicked (self);
  else if (g_str_equal (action_name, "message.previous-sibling") ||
           g_str_equal (action_name, "message.next-sibling"))
    agent_gtk_branch_switcher_step (AGENT_GTK_BRANCH_SWITCHER (self->branch_switcher),
                                    g_str_equal (action_name, "message.previous-sibling") ? -1 : 1);
}

/* GtkWidget: the row's one child, and its menu */

static void
agent_gtk_message_row_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  gtk_widget_measure (AGENT_GTK_MESSAGE_ROW (widget)->clamp, orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
}

static void
agent_gtk_message_row_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (widget);

  gtk_widget_allocate (self->clamp, width, height, baseline, NULL);
  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

/* The row takes the focus before its actions (Tab), after them going
 * backwards (Shift+Tab); the arrows are the list's, from row to row.
 * (Through the box: AdwClamp 1.2 does not pass the focus on.) */
static gboolean
agent_gtk_message_row_focus (GtkWidget        *widget,
                              GtkDirectionType  direction)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (widget);
  GtkWidget *focus_child = gtk_widget_get_focus_child (widget);
  gboolean tab = direction == GTK_DIR_TAB_FORWARD || direction == GTK_DIR_TAB_BACKWARD;


  if (gtk_widget_is_focus (widget))
    return direction == GTK_DIR_TAB_FORWARD && gtk_widget_child_focus (self->box, direction);

  if (focus_child != NULL)
    {
      if (gtk_widget_child_focus (focus_child, direction))
        return TRUE;
      return direction == GTK_DIR_TAB_BACKWARD && gtk_widget_grab_focus (widget);
    }

  if (direction == GTK_DIR_TAB_BACKWARD && gtk_widget_child_focus (self->box, direction))
    return TRUE;
  return (tab || gtk_widget_get_focusable (widget)) && gtk_widget_grab_focus (widget);
}

/* The row itself (GtkWidget's would give the focus to a child) */
static gboolean
agent_gtk_message_row_grab_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  if (root == NULL || !gtk_widget_get_focusable (widget))
    return FALSE;
  gtk_root_set_focus (root, widget);
  return gtk_widget_is_focus (widget);
}

static GtkSizeRequestMode
agent_gtk_message_row_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
agent_gtk_message_row_dispose (GObject *object)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (object);

  g_clear_pointer (&self->menu, gtk_widget_unparent);

  if (self->signals != NULL)
    agent_gtk_message_row_set_item (self, NULL);
  g_clear_weak_pointer (&self->unbound);
  g_clear_object (&self->signals);
  g_clear_object (&self->tool_signals);
  g_clear_pointer (&self->progress_title, g_free);
  g_clear_pointer (&self->progress_detail, g_free);
  g_clear_error (&self->turn_error);
  g_clear_pointer (&self->info, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (agent_gtk_message_row_parent_class)->dispose (object);
}

static void
agent_gtk_message_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      g_value_set_boolean (value, self->show_tool_call_chunks);
      break;
    case PROP_SHOW_SETTINGS:
      g_value_set_boolean (value, self->show_settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_message_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AgentGtkMessageRow *self = AGENT_GTK_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      agent_gtk_message_row_set_item (self, g_value_get_object (value));
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      if (self->show_tool_call_chunks != g_value_get_boolean (value))
        {
          self->show_tool_call_chunks = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SHOW_SETTINGS:
      if (self->show_settings != g_value_get_boolean (value))
        {
          self->show_settings = g_value_get_boolean (value);
          if (self->error_card != NULL)
            agent_gtk_error_card_set_show_settings (AGENT_GTK_ERROR_CARD (self->error_card),
                                                    self->show_settings);
          update_actions (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_message_row_class_init (AgentGtkMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_message_row_dispose;
  object_class->get_property = agent_gtk_message_row_get_property;
  object_class->set_property = agent_gtk_message_row_set_property;
  widget_class->measure = agent_gtk_message_row_measure;
  widget_class->size_allocate = agent_gtk_message_row_size_allocate;
  widget_class->get_request_mode = agent_gtk_message_row_get_request_mode;
  widget_class->focus = agent_gtk_message_row_focus;
  widget_class->grab_focus = agent_gtk_message_row_grab_focus;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_TOOL_CALL_CHUNKS] =
    g_param_spec_boolean ("show-tool-call-chunks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_SETTINGS] =
    g_param_spec_boolean ("show-settings", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[EDIT] = g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  signals[REGENERATE] = g_signal_new ("regenerate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  signals[RETRY] = g_signal_new ("retry", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[OPEN_SETTINGS] = g_signal_new ("open-settings", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  /* Previous or Next of "‹ 2 / 3 ›": the message, the sibling asked for */
  signals[SELECT_SIBLING] = g_signal_new ("select-sibling", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                          2, AGENT_TYPE_MESSAGE, G_TYPE_UINT);

  g_type_ensure (AGENT_GTK_TYPE_BRANCH_SWITCHER);
  g_type_ensure (AGENT_GTK_TYPE_ERROR_CARD);
  g_type_ensure (AGENT_GTK_TYPE_MARKDOWN_VIEW);
  g_type_ensure (AGENT_GTK_TYPE_READ_ALOUD_BUTTON);
  g_type_ensure (AGENT_GTK_TYPE_SUMMARY_MARKER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, clamp);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, user_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, user_bubble);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, user_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, attachments_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, thinking_expander);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, thinking_title);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, thinking_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, reasoning_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, waiting_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, waiting_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, waiting_detail);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, markdown);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, cards_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, stopped_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, actions_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, branch_switcher);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, edit_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, regenerate_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, info_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, user_menu);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, answer_menu);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkMessageRow, error_menu);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_regenerate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_branch_select);
  gtk_widget_class_install_action (widget_class, "message.copy", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.edit", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.regenerate", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.retry", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.preferences", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.previous-sibling", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.next-sibling", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "message.show-menu", NULL, show_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "message.previous-sibling", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK,
                                       "message.next-sibling", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "message.show-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "message.show-menu", NULL);
  gtk_widget_class_set_css_name (widget_class, "messagerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

/* The actions show under the pointer, or with the focus in the row; and
 * with them, how the answer was made */
static void
update_actions_shown (AgentGtkMessageRow *self)
{
  gboolean shown = self->hovered || self->focused;

  /* All but "‹ 2 / 3 ›", which shows always */
  for (GtkWidget *child = gtk_widget_get_first_child (self->actions_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != self->branch_switcher)
      gtk_widget_set_opacity (child, shown ? 1.0 : 0.0);
  gtk_widget_set_visible (self->info_label,
                          shown && *gtk_label_get_text (GTK_LABEL (self->info_label)) != '\0');
}

static void
on_pointer_enter (AgentGtkMessageRow *self)
{
  self->hovered = TRUE;
  update_actions_shown (self);
}

static void
on_pointer_leave (AgentGtkMessageRow *self)
{
  self->hovered = FALSE;
  update_actions_shown (self);
}

static void
on_contains_focus_changed (AgentGtkMessageRow *self,
                           GParamSpec          *pspec,
                           GtkEventController  *controller)
{
  self->focused = gtk_event_controller_focus_contains_focus (
    GTK_EVENT_CONTROLLER_FOCUS (controller));
  update_actions_shown (self);
}

/* A long answer laid out a page at a time: the row is busy meanwhile, for
 * screen readers (which wait for it) */
static void
on_laying_out_changed (AgentGtkMessageRow *self)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY,
                               agent_gtk_markdown_view_get_laying_out (
                                 AGENT_GTK_MARKDOWN_VIEW (self->markdown)),
                               -1);
}

/* The ring of the focus goes around the row when the row itself has the
 * focus, not one of its buttons (GTK 4.8 says :focus-visible of both) */
static void
on_is_focus_changed (AgentGtkMessageRow *self,
                     GParamSpec          *pspec,
                     GtkEventController  *controller)
{
  if (gtk_event_controller_focus_is_focus (GTK_EVENT_CONTROLLER_FOCUS (controller)))
    gtk_widget_add_css_class (GTK_WIDGET (self), "focused");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "focused");
}

static void
agent_gtk_message_row_init (AgentGtkMessageRow *self)
{
  GtkGesture *click;
  GtkGesture *long_press;
  GtkEventController *focus;
  GtkEventController *motion;

  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  _agent_gtk_update_pacer_init (&self->pacer, GTK_WIDGET (self), on_update);
  _agent_gtk_label_bound_minimum (GTK_LABEL (self->reasoning_label));
  /* The template hides the action buttons while they get their tooltips
   * (see agent-gtk-private.h); update_role() shows edit and regenerate */
  gtk_widget_set_visible (self->copy_button, TRUE);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_right_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect (long_press, "pressed", G_CALLBACK (on_long_press), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (long_press));
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "notify::is-focus", G_CALLBACK (on_is_focus_changed), self);
  g_signal_connect_swapped (focus, "notify::contains-focus",
                            G_CALLBACK (on_contains_focus_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (on_pointer_enter), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (on_pointer_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  update_actions_shown (self);
  g_signal_connect_swapped (self->markdown, "notify::laying-out",
                            G_CALLBACK (on_laying_out_changed), self);

  self->signals = g_signal_group_new (AGENT_TYPE_MESSAGE);
  g_signal_group_connect_swapped (self->signals, "notify::content",
                                  G_CALLBACK (schedule_text_update), self);
  g_signal_group_connect_swapped (self->signals, "notify::reasoning",
                                  G_CALLBACK (schedule_text_update), self);
  g_signal_group_connect_swapped (self->signals, "notify::state",
                                  G_CALLBACK (schedule_update), self);

  self->tool_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->tool_signals, "items-changed",
                                  G_CALLBACK (on_tool_calls_changed), self);
}

GtkWidget *
agent_gtk_message_row_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_MESSAGE_ROW, NULL);
}
