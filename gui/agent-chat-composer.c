/* agent-chat-composer.c
 *
 * Where the user writes: multi-line, Enter sends, Shift+Enter makes a new
 * line. While a turn runs the Send button becomes Stop, and Escape stops.
 * The text stays until it was sent, so nothing typed is ever lost.
 *
 * While a message is edited (Edit and Resend), a bar above the text says
 * so; its Cancel button, or Escape, emits ::cancel-edit. Another bar says
 * what a turn waits for before it can start (agent_chat_composer_set_status()).
 * While empty, the text says what it is for (a placeholder).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "agent-chat-composer.h"

struct _AgentChatComposer
{
  GtkWidget  parent_instance;

  GtkWidget *clamp;
  GtkWidget *box;
  GtkWidget *status_bar;
  GtkWidget *status_spinner;
  GtkWidget *status_label;
  GtkWidget *editing_bar;
  GtkWidget *placeholder;
  GtkWidget *scroller;
  GtkWidget *text_view;
  GtkWidget *send_button;

  guint      busy : 1;
  guint      editing : 1;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_EDITING,
  N_PROPS
};

enum {
  SEND,
  STOP,
  CANCEL_EDIT,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatComposer, agent_chat_composer, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/**
 * agent_chat_composer_dup_text:
 * @self: a #AgentChatComposer
 *
 * Returns: (transfer full): what the user wrote
 */
char *
agent_chat_composer_dup_text (AgentChatComposer *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (AGENT_CHAT_IS_COMPOSER (self), NULL);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
agent_chat_composer_set_text (AgentChatComposer *self,
                              const char        *text)
{
  g_return_if_fail (AGENT_CHAT_IS_COMPOSER (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)),
                            text ? text : "", -1);
}

void
agent_chat_composer_focus (AgentChatComposer *self)
{
  g_return_if_fail (AGENT_CHAT_IS_COMPOSER (self));
  gtk_widget_grab_focus (self->text_view);
}

/* Sends the text (not only white space); it is cleared by the window once
 * the turn started. */
static void
send (AgentChatComposer *self)
{
  g_autofree char *text = agent_chat_composer_dup_text (self);

  if (self->busy)
    return;
  g_strstrip (text);
  if (*text == '\0')
    return;
  g_signal_emit (self, signals[SEND], 0, text);
}

static void
on_send_clicked (AgentChatComposer *self)
{
  if (self->busy)
    g_signal_emit (self, signals[STOP], 0);
  else
    send (self);
  agent_chat_composer_focus (self);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AgentChatComposer     *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    {
      send (self);
      return GDK_EVENT_STOP;
    }
  if (keyval == GDK_KEY_Escape && self->busy)
    {
      g_signal_emit (self, signals[STOP], 0);
      return GDK_EVENT_STOP;
    }
  if (keyval == GDK_KEY_Escape && self->editing)
    {
      g_signal_emit (self, signals[CANCEL_EDIT], 0);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

gboolean
agent_chat_composer_get_busy (AgentChatComposer *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_COMPOSER (self), FALSE);
  return self->busy;
}

/**
 * agent_chat_composer_set_busy:
 * @self: a #AgentChatComposer
 * @busy: whether a turn runs
 *
 * Turns Send into Stop while a turn runs, and back.
 */
void
agent_chat_composer_set_busy (AgentChatComposer *self,
                              gboolean           busy)
{
  const char *label;

  g_return_if_fail (AGENT_CHAT_IS_COMPOSER (self));

  busy = !!busy;
  if (self->busy == busy)
    return;
  self->busy = busy;

  label = busy ? _("Stop") : _("Send");
  gtk_button_set_icon_name (GTK_BUTTON (self->send_button),
                            busy ? "media-playback-stop-symbolic" : "go-up-symbolic");
  gtk_widget_set_tooltip_text (self->send_button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->send_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  if (busy)
    {
      gtk_widget_remove_css_class (self->send_button, "suggested-action");
      gtk_widget_add_css_class (self->send_button, "destructive-action");
    }
  else
    {
      gtk_widget_remove_css_class (self->send_button, "destructive-action");
      gtk_widget_add_css_class (self->send_button, "suggested-action");
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
on_cancel_edit_clicked (AgentChatComposer *self)
{
  g_signal_emit (self, signals[CANCEL_EDIT], 0);
  agent_chat_composer_focus (self);
}

gboolean
agent_chat_composer_get_editing (AgentChatComposer *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_COMPOSER (self), FALSE);
  return self->editing;
}

/**
 * agent_chat_composer_set_editing:
 * @self: a #AgentChatComposer
 * @editing: whether the text is a message being edited
 *
 * Shows or hides the bar that says a message is being edited.
 */
void
agent_chat_composer_set_editing (AgentChatComposer *self,
                                 gboolean           editing)
{
  g_return_if_fail (AGENT_CHAT_IS_COMPOSER (self));

  editing = !!editing;
  if (self->editing == editing)
    return;
  self->editing = editing;
  gtk_widget_set_visible (self->editing_bar, editing);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  editing ? _("Edited Message") : _("Message"), -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING]);
}

/**
 * agent_chat_composer_set_status:
 * @self: a #AgentChatComposer
 * @status: (nullable): what the turn waits for, or %NULL
 *
 * Shows, above the text, what a turn waits for before it can start (with
 * a spinner); %NULL hides it.
 */
void
agent_chat_composer_set_status (AgentChatComposer *self,
                                const char        *status)
{
  g_return_if_fail (AGENT_CHAT_IS_COMPOSER (self));

  gtk_label_set_text (GTK_LABEL (self->status_label), status ? status : "");
  gtk_widget_set_visible (self->status_bar, status != NULL);
  gtk_spinner_set_spinning (GTK_SPINNER (self->status_spinner), status != NULL);
}

/**
 * agent_chat_composer_get_status:
 * @self: a #AgentChatComposer
 *
 * Returns: (nullable): what the status bar says, or %NULL when hidden
 */
const char *
agent_chat_composer_get_status (AgentChatComposer *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_COMPOSER (self), NULL);

  if (!gtk_widget_get_visible (self->status_bar))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->status_label));
}

/**
 * agent_chat_composer_get_placeholder:
 * @self: a #AgentChatComposer
 *
 * Returns: (transfer none): the label shown over the text while it is empty
 */
GtkWidget *
agent_chat_composer_get_placeholder (AgentChatComposer *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_COMPOSER (self), NULL);
  return self->placeholder;
}

static void
update_placeholder (AgentChatComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));

  gtk_widget_set_visible (self->placeholder, gtk_text_buffer_get_char_count (buffer) == 0);
}

static gboolean
agent_chat_composer_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (AGENT_CHAT_COMPOSER (widget)->text_view);
}

/* Tab moves through the composer's children. GtkWidget's own would, on
 * Shift+Tab out of them, give the focus back to the composer itself: to
 * its text, by grab_focus() above, and the focus would not leave. */
static gboolean
agent_chat_composer_focus_vfunc (GtkWidget        *widget,
                                 GtkDirectionType  direction)
{
  return gtk_widget_child_focus (AGENT_CHAT_COMPOSER (widget)->box, direction);
}

static void
agent_chat_composer_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_CHAT_TYPE_COMPOSER);

  G_OBJECT_CLASS (agent_chat_composer_parent_class)->dispose (object);
}

static void
agent_chat_composer_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentChatComposer *self = AGENT_CHAT_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_EDITING:
      g_value_set_boolean (value, self->editing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_composer_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AgentChatComposer *self = AGENT_CHAT_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      agent_chat_composer_set_busy (self, g_value_get_boolean (value));
      break;
    case PROP_EDITING:
      agent_chat_composer_set_editing (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_composer_class_init (AgentChatComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_composer_dispose;
  object_class->get_property = agent_chat_composer_get_property;
  object_class->set_property = agent_chat_composer_set_property;
  widget_class->grab_focus = agent_chat_composer_grab_focus;
  widget_class->focus = agent_chat_composer_focus_vfunc;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITING] =
    g_param_spec_boolean ("editing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentChatComposer::send:
   * @self: the composer
   * @text: what to send, without leading or trailing white space
   */
  signals[SEND] = g_signal_new ("send", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[STOP] = g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * AgentChatComposer::cancel-edit:
   * @self: the composer
   *
   * The user gave up editing a message (Cancel, or Escape).
   */
  signals[CANCEL_EDIT] = g_signal_new ("cancel-edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-composer.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, clamp);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, status_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, status_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, status_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, editing_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, placeholder);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, scroller);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, text_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatComposer, send_button);
  gtk_widget_class_bind_template_callback (widget_class, on_send_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_edit_clicked);
  gtk_widget_class_set_css_name (widget_class, "composer");
}

static void
agent_chat_composer_init (AgentChatComposer *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (self->text_view, keys);
  g_signal_connect_object (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)), "changed",
                           G_CALLBACK (update_placeholder), self, G_CONNECT_SWAPPED);
}

GtkWidget *
agent_chat_composer_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_COMPOSER, NULL);
}
