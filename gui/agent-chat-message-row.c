/* agent-chat-message-row.c
 *
 * One row of the chat view: a user's message, an assistant's answer (its
 * "Thinking", its Markdown, its tool calls as cards, "Stopped" when cut
 * short), or a failed turn with Retry. Rows are recycled by the list view:
 * setting a new item drops every handler, timer and card of the old one.
 *
 * Streaming text is shown once per frame: a delta only marks the row dirty,
 * and the frame clock's tick renders what changed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "agent-chat-error-item.h"
#include "agent-chat-message-row.h"
#include "agent-chat-tool-card.h"

struct _AgentChatMessageRow
{
  GtkWidget     parent_instance;

  GtkWidget    *clamp;
  GtkWidget    *box;
  GtkWidget    *user_bubble;
  GtkWidget    *user_label;
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
  GtkWidget    *error_box;
  GtkWidget    *error_title;
  GtkWidget    *error_message;
  GtkWidget    *settings_button;
  GtkWidget    *actions_box;
  GtkWidget    *copy_button;
  GtkWidget    *edit_button;
  GtkWidget    *regenerate_button;

  GObject      *item;
  AgentMessage *message;   /* item, when it is a message */
  GSignalGroup *signals;
  GSignalGroup *tool_signals;
  char         *progress_title;   /* while the answer is awaited: NULL for "Waiting…" */
  char         *progress_detail;
  GError       *turn_error;       /* what cut the answer short, if not the user */
  guint         tick_id;
  guint         show_tool_call_chunks : 1;
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_SHOW_TOOL_CALL_CHUNKS,
  N_PROPS
};

enum {
  EDIT,
  REGENERATE,
  RETRY,
  OPEN_PREFERENCES,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatMessageRow, agent_chat_message_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* From the moment of Send until something of the answer shows: that it is
 * awaited, or tried again and why. */
static void
update_waiting (AgentChatMessageRow *self)
{
  AgentMessage *message = self->message;
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  gboolean waiting = agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT &&
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

static void
update_text (AgentChatMessageRow *self)
{
  AgentMessage *message = self->message;
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  gboolean streaming = agent_message_get_state (message) == AGENT_MESSAGE_STATE_STREAMING;
  gboolean has_content = content != NULL && *content != '\0';

  if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_USER)
    {
      gtk_label_set_text (GTK_LABEL (self->user_label), content ? content : "");
      return;
    }

  gtk_widget_set_visible (self->thinking_expander, reasoning != NULL && *reasoning != '\0');
  if (reasoning != NULL)
    gtk_label_set_text (GTK_LABEL (self->reasoning_label), reasoning);
  gtk_widget_set_visible (self->thinking_spinner, streaming && !has_content);
  gtk_spinner_set_spinning (GTK_SPINNER (self->thinking_spinner), streaming && !has_content);
  update_waiting (self);

  agent_chat_markdown_set_text (AGENT_CHAT_MARKDOWN (self->markdown), content);
  gtk_widget_set_visible (self->markdown, has_content);
}

static void
update_state (AgentChatMessageRow *self)
{
  AgentMessage *message = self->message;
  AgentMessageState state = agent_message_get_state (message);
  AgentMessageRole role = agent_message_get_role (message);
  const char *content = agent_message_get_content (message);
  gboolean has_content = content != NULL && *content != '\0';

  gtk_widget_set_visible (self->stopped_label, state == AGENT_MESSAGE_STATE_INTERRUPTED);
  gtk_label_set_text (GTK_LABEL (self->stopped_label),
                      agent_chat_error_describe_interruption (self->turn_error));
  gtk_widget_set_visible (self->actions_box,
                          role == AGENT_MESSAGE_ROLE_USER ||
                          (state != AGENT_MESSAGE_STATE_STREAMING && has_content));
  gtk_widget_set_visible (self->edit_button, role == AGENT_MESSAGE_ROLE_USER);
  gtk_widget_set_visible (self->regenerate_button, role == AGENT_MESSAGE_ROLE_ASSISTANT);
  gtk_widget_set_halign (self->actions_box,
                         role == AGENT_MESSAGE_ROLE_USER ? GTK_ALIGN_END : GTK_ALIGN_START);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  AgentChatMessageRow *self = AGENT_CHAT_MESSAGE_ROW (widget);

  self->tick_id = 0;
  if (self->message != NULL)
    {
      update_text (self);
      update_state (self);
    }
  return G_SOURCE_REMOVE;
}

static void
schedule_update (AgentChatMessageRow *self)
{
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
}

static void
cancel_update (AgentChatMessageRow *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
}

/**
 * agent_chat_message_row_flush:
 * @self: a #AgentChatMessageRow
 *
 * Renders now what would be rendered at the next frame.
 */
void
agent_chat_message_row_flush (AgentChatMessageRow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self));

  if (self->tick_id != 0)
    {
      cancel_update (self);
      on_tick (GTK_WIDGET (self), NULL, NULL);
    }
}

static void
clear_cards (AgentChatMessageRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->cards_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->cards_box), child);
}

static void
on_tool_calls_changed (AgentChatMessageRow *self,
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
      GtkWidget *card = agent_chat_tool_card_new ();

      g_object_bind_property (self, "show-tool-call-chunks", card, "show-chunks",
                              G_BINDING_SYNC_CREATE);
      agent_chat_tool_card_set_tool_call (AGENT_CHAT_TOOL_CARD (card), call);
      gtk_box_append (GTK_BOX (self->cards_box), card);
    }
  if (self->message != NULL)
    update_waiting (self);
}

static void
show_error (AgentChatMessageRow *self,
            AgentChatErrorItem  *error)
{
  gtk_label_set_text (GTK_LABEL (self->error_title), agent_chat_error_item_get_title (error));
  gtk_label_set_text (GTK_LABEL (self->error_message), agent_chat_error_item_get_message (error));
  gtk_widget_set_visible (self->settings_button, agent_chat_error_item_get_needs_settings (error));
  gtk_widget_set_visible (self->error_box, TRUE);
}

static void
reset (AgentChatMessageRow *self)
{
  cancel_update (self);
  clear_cards (self);
  gtk_widget_set_visible (self->user_bubble, FALSE);
  gtk_widget_set_visible (self->thinking_expander, FALSE);
  gtk_expander_set_expanded (GTK_EXPANDER (self->thinking_expander), FALSE);
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
  gtk_widget_set_visible (self->stopped_label, FALSE);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (self->actions_box, FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "user");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "assistant");
}

/**
 * agent_chat_message_row_set_item:
 * @self: a #AgentChatMessageRow
 * @item: (nullable): an #AgentMessage or an #AgentChatErrorItem
 *
 * Shows @item, after dropping everything bound to the item shown before.
 */
void
agent_chat_message_row_set_item (AgentChatMessageRow *self,
                                 GObject             *item)
{
  g_return_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self));

  if (self->item == item)
    return;

  g_signal_group_set_target (self->signals, NULL);
  g_signal_group_set_target (self->tool_signals, NULL);
  reset (self);
  g_set_object (&self->item, item);
  self->message = AGENT_IS_MESSAGE (item) ? AGENT_MESSAGE (item) : NULL;

  if (AGENT_CHAT_IS_ERROR_ITEM (item))
    show_error (self, AGENT_CHAT_ERROR_ITEM (item));
  else if (self->message != NULL)
    {
      gboolean user = agent_message_get_role (self->message) == AGENT_MESSAGE_ROLE_USER;

      gtk_widget_add_css_class (GTK_WIDGET (self), user ? "user" : "assistant");
      gtk_widget_set_visible (self->user_bubble, user);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      user ? _("Your message") : _("Answer"), -1);
      g_signal_group_set_target (self->signals, self->message);
      g_signal_group_set_target (self->tool_signals, agent_message_get_tool_calls (self->message));
      update_text (self);
      update_state (self);
      on_tool_calls_changed (self, 0, 0, 0, agent_message_get_tool_calls (self->message));
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

GObject *
agent_chat_message_row_get_item (AgentChatMessageRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self), NULL);
  return self->item;
}

AgentChatMarkdown *
agent_chat_message_row_get_markdown (AgentChatMessageRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self), NULL);
  return AGENT_CHAT_MARKDOWN (self->markdown);
}

/**
 * agent_chat_message_row_set_progress:
 * @self: a #AgentChatMessageRow
 * @title: (nullable): what happens while the answer is awaited, or %NULL
 *   for "Waiting for the model…"
 * @detail: (nullable): more about it (why a request is tried again)
 *
 * What the row says while its answer is awaited.
 */
void
agent_chat_message_row_set_progress (AgentChatMessageRow *self,
                                     const char          *title,
                                     const char          *detail)
{
  g_return_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self));

  if (g_strcmp0 (self->progress_title, title) == 0 &&
      g_strcmp0 (self->progress_detail, detail) == 0)
    return;
  g_free (self->progress_title);
  g_free (self->progress_detail);
  self->progress_title = g_strdup (title);
  self->progress_detail = g_strdup (detail);
  if (self->message != NULL)
    update_waiting (self);
}

/**
 * agent_chat_message_row_set_turn_error:
 * @self: a #AgentChatMessageRow
 * @error: (nullable): the error the message's turn failed with
 *
 * Says why an answer was cut short: with no error, the user stopped it.
 */
void
agent_chat_message_row_set_turn_error (AgentChatMessageRow *self,
                                       const GError        *error)
{
  g_return_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self));

  if (self->turn_error == error)
    return;
  g_clear_error (&self->turn_error);
  self->turn_error = error ? g_error_copy (error) : NULL;
  if (self->message != NULL)
    update_state (self);
}

/**
 * agent_chat_message_row_get_cards:
 * @self: a #AgentChatMessageRow
 *
 * Returns: (transfer none): the box holding the tool cards
 */
GtkWidget *
agent_chat_message_row_get_cards (AgentChatMessageRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MESSAGE_ROW (self), NULL);
  return self->cards_box;
}

static void
on_copy_clicked (AgentChatMessageRow *self)
{
  const char *content;

  if (self->message == NULL)
    return;
  content = agent_message_get_content (self->message);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), content ? content : "");
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _("Message copied"));
}

static void
on_edit_clicked (AgentChatMessageRow *self)
{
  if (self->message != NULL)
    g_signal_emit (self, signals[EDIT], 0, self->message);
}

static void
on_regenerate_clicked (AgentChatMessageRow *self)
{
  if (self->message != NULL)
    g_signal_emit (self, signals[REGENERATE], 0, self->message);
}

static void
on_retry_clicked (AgentChatMessageRow *self)
{
  g_signal_emit (self, signals[RETRY], 0);
}

static void
on_settings_clicked (AgentChatMessageRow *self)
{
  g_signal_emit (self, signals[OPEN_PREFERENCES], 0);
}

static void
agent_chat_message_row_dispose (GObject *object)
{
  AgentChatMessageRow *self = AGENT_CHAT_MESSAGE_ROW (object);

  if (self->signals != NULL)
    agent_chat_message_row_set_item (self, NULL);
  g_clear_object (&self->signals);
  g_clear_object (&self->tool_signals);
  g_clear_pointer (&self->progress_title, g_free);
  g_clear_pointer (&self->progress_detail, g_free);
  g_clear_error (&self->turn_error);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (agent_chat_message_row_parent_class)->dispose (object);
}

static void
agent_chat_message_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AgentChatMessageRow *self = AGENT_CHAT_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      g_value_set_boolean (value, self->show_tool_call_chunks);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_message_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AgentChatMessageRow *self = AGENT_CHAT_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      agent_chat_message_row_set_item (self, g_value_get_object (value));
      break;
    case PROP_SHOW_TOOL_CALL_CHUNKS:
      if (self->show_tool_call_chunks != g_value_get_boolean (value))
        {
          self->show_tool_call_chunks = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_message_row_class_init (AgentChatMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_message_row_dispose;
  object_class->get_property = agent_chat_message_row_get_property;
  object_class->set_property = agent_chat_message_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_TOOL_CALL_CHUNKS] =
    g_param_spec_boolean ("show-tool-call-chunks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[EDIT] = g_signal_new ("edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  signals[REGENERATE] = g_signal_new ("regenerate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  signals[RETRY] = g_signal_new ("retry", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[OPEN_PREFERENCES] = g_signal_new ("open-preferences", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);

  g_type_ensure (AGENT_CHAT_TYPE_MARKDOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, clamp);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, user_bubble);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, user_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, thinking_expander);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, thinking_title);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, thinking_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, reasoning_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, waiting_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, waiting_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, waiting_detail);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, markdown);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, cards_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, stopped_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, error_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, error_title);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, error_message);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, settings_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, actions_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, edit_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMessageRow, regenerate_button);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_regenerate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_retry_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_settings_clicked);
  gtk_widget_class_set_css_name (widget_class, "messagerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_chat_message_row_init (AgentChatMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->signals = g_signal_group_new (AGENT_TYPE_MESSAGE);
  g_signal_group_connect_swapped (self->signals, "notify::content",
                                  G_CALLBACK (schedule_update), self);
  g_signal_group_connect_swapped (self->signals, "notify::reasoning",
                                  G_CALLBACK (schedule_update), self);
  g_signal_group_connect_swapped (self->signals, "notify::state",
                                  G_CALLBACK (schedule_update), self);

  self->tool_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->tool_signals, "items-changed",
                                  G_CALLBACK (on_tool_calls_changed), self);
}

GtkWidget *
agent_chat_message_row_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_MESSAGE_ROW, NULL);
}
