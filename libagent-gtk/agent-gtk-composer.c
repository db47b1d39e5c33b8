/* agent-gtk-composer.c
 *
 * Where the user writes: multi-line, Enter sends, Shift+Enter makes a new
 * line. While a turn runs the Send button becomes Stop, and Escape stops.
 * The text stays until it was sent, so nothing typed is ever lost.
 *
 * While a message is edited (Edit and Resend), a bar above the text says
 * so; its Cancel button, or Escape, emits ::cancel-edit. Another bar says
 * what a turn waits for before it can start (the status). While empty, the
 * text says what it is for (the placeholder text). Images and documents go
 * with the message (agent-gtk-composer-attachments.c). Given MCP servers,
 * the attach menu offers their resources (agent-gtk-composer-resources.c)
 * and "/" their prompts (agent-gtk-composer-prompts.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-composer-private.h"
#include "agent-gtk-private.h"

/**
 * AgentGtkComposer:
 *
 * Where the user writes a message: Enter (or the Send button) emits
 * [signal@AgentGtk.Composer::send], Shift+Enter starts a new line. While
 * [property@AgentGtk.Composer:busy], Send becomes Stop, and Escape stops.
 * Bind it to a [class@AgentGtk.ChatView] with
 * [property@AgentGtk.ChatView:composer]; it may be placed anywhere in the
 * window.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_ATTACHMENTS,
  PROP_BUSY,
  PROP_EDITING,
  PROP_MAX_ATTACHMENT_SIZE,
  PROP_MCP_SERVERS,
  PROP_PLACEHOLDER_TEXT,
  PROP_STATUS,
  PROP_TEXT,
  N_PROPS
};

enum {
  SEND,
  STOP,
  CANCEL_EDIT,
  ATTACHMENT_ERROR,
  PROMPT_ERROR,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkComposer, agent_gtk_composer, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/**
 * agent_gtk_composer_dup_text:
 * @self: a composer
 *
 * Gets what the user wrote (and has not sent yet).
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
agent_gtk_composer_dup_text (AgentGtkComposer *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * agent_gtk_composer_set_text:
 * @self: a composer
 * @text: (nullable): the text, or %NULL to empty it
 *
 * Replaces what the composer holds.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_text (AgentGtkComposer *self,
                             const char       *text)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)),
                            text ? text : "", -1);
}

/* Emits ::send with @text and the attachments */
void
_agent_gtk_composer_send (AgentGtkComposer *self,
                          const char       *text)
{
  g_signal_emit (self, signals[SEND], 0, text);
}

/* Sends the text (not only white space); it is cleared by whoever starts
 * the turn (the chat view, once the turn starts). A "/" command gets its
 * prompt first. */
static void
send (AgentGtkComposer *self)
{
  g_autofree char *text = agent_gtk_composer_dup_text (self);

  if (self->busy || self->prompt_getting)
    return;
  g_strstrip (text);
  if (*text == '\0' && g_list_model_get_n_items (G_LIST_MODEL (self->attachments)) == 0)
    return;
  if (_agent_gtk_composer_send_prompt (self, text))
    return;
  _agent_gtk_composer_send (self, text);
}

/**
 * agent_gtk_composer_send:
 * @self: a composer
 *
 * Sends what the composer holds, as Enter and the Send button do: emits
 * [signal@AgentGtk.Composer::send] unless it is busy or holds nothing
 * but white space. An application's own input (dictation, for one) puts
 * its text in with [method@AgentGtk.Composer.set_text] and sends it so.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_send (AgentGtkComposer *self)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  send (self);
}

/**
 * agent_gtk_composer_add_suffix:
 * @self: a composer
 * @widget: a widget, a button most often
 *
 * Adds @widget after the message field, before the Send button: an
 * application's own input, such as a microphone. Suffixes are added in
 * order, the first nearest the message field.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_add_suffix (AgentGtkComposer *self,
                               GtkWidget        *widget)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (gtk_widget_get_parent (widget) == NULL);

  gtk_box_append (GTK_BOX (self->suffix_box), widget);
  gtk_widget_set_visible (self->suffix_box, TRUE);
}

static void
on_send_clicked (AgentGtkComposer *self)
{
  if (self->busy)
    g_signal_emit (self, signals[STOP], 0);
  else
    send (self);
  gtk_widget_grab_focus (self->text_view);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AgentGtkComposer     *self)
{
  if (_agent_gtk_composer_prompt_key (self, keyval, state))
    return GDK_EVENT_STOP;
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

/**
 * agent_gtk_composer_get_busy:
 * @self: a composer
 *
 * Gets whether a turn runs: Send is then Stop.
 *
 * Returns: whether a turn runs
 *
 * Since: 0.1
 */
gboolean
agent_gtk_composer_get_busy (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), FALSE);
  return self->busy;
}

/**
 * agent_gtk_composer_set_busy:
 * @self: a composer
 * @busy: whether a turn runs
 *
 * Turns Send into Stop while a turn runs, and back. A chat view the
 * composer is given to ([property@AgentGtk.ChatView:composer]) sets it.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_busy (AgentGtkComposer *self,
                              gboolean           busy)
{
  const char *label;

  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

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
on_cancel_edit_clicked (AgentGtkComposer *self)
{
  g_signal_emit (self, signals[CANCEL_EDIT], 0);
  gtk_widget_grab_focus (self->text_view);
}

/**
 * agent_gtk_composer_get_editing:
 * @self: a composer
 *
 * Gets whether the text is a message being edited (Edit and Resend).
 *
 * Returns: whether a message is being edited
 *
 * Since: 0.1
 */
gboolean
agent_gtk_composer_get_editing (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), FALSE);
  return self->editing;
}

/**
 * agent_gtk_composer_set_editing:
 * @self: a composer
 * @editing: whether the text is a message being edited
 *
 * Shows or hides the bar that says a message is being edited, whose
 * Cancel emits [signal@AgentGtk.Composer::cancel-edit].
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_editing (AgentGtkComposer *self,
                                 gboolean           editing)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

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
 * agent_gtk_composer_set_status:
 * @self: a composer
 * @status: (nullable): what the turn waits for, or %NULL
 *
 * Shows, above the text, what a turn waits for before it can start (with
 * a spinner); %NULL hides it.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_status (AgentGtkComposer *self,
                               const char       *status)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  if (g_strcmp0 (agent_gtk_composer_get_status (self), status) == 0)
    return;
  gtk_label_set_text (GTK_LABEL (self->status_label), status ? status : "");
  gtk_widget_set_visible (self->status_bar, status != NULL);
  gtk_spinner_set_spinning (GTK_SPINNER (self->status_spinner), status != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

/**
 * agent_gtk_composer_get_status:
 * @self: a composer
 *
 * Gets what the status bar above the text says.
 *
 * Returns: (nullable): the status, or %NULL when none shows
 *
 * Since: 0.1
 */
const char *
agent_gtk_composer_get_status (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);

  if (!gtk_widget_get_visible (self->status_bar))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->status_label));
}

/* The label shown over the text while it is empty */
GtkWidget *
_agent_gtk_composer_get_placeholder (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);
  return self->placeholder;
}

/**
 * agent_gtk_composer_get_placeholder_text:
 * @self: a composer
 *
 * Gets what the composer says it is for while it is empty.
 *
 * Returns: the placeholder text
 *
 * Since: 0.1
 */
const char *
agent_gtk_composer_get_placeholder_text (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->placeholder));
}

/**
 * agent_gtk_composer_set_placeholder_text:
 * @self: a composer
 * @placeholder_text: (nullable): what the composer is for ("Ask about this
 *   document…"), or %NULL for the default, “Send a message…”
 *
 * Sets what the composer says it is for while it is empty.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_placeholder_text (AgentGtkComposer *self,
                                         const char       *placeholder_text)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));

  if (placeholder_text == NULL)
    placeholder_text = _("Send a message…");
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (self->placeholder)), placeholder_text) == 0)
    return;
  gtk_label_set_text (GTK_LABEL (self->placeholder), placeholder_text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLACEHOLDER_TEXT]);
}

static void
on_buffer_changed (AgentGtkComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));

  gtk_widget_set_visible (self->placeholder, gtk_text_buffer_get_char_count (buffer) == 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * agent_gtk_composer_get_mcp_servers:
 * @self: a composer
 *
 * Gets the MCP servers whose resources and prompts the composer offers.
 *
 * Returns: (transfer none) (nullable): a list of [class@Agent.McpClient],
 *   or %NULL
 *
 * Since: 0.1
 */
GListModel *
agent_gtk_composer_get_mcp_servers (AgentGtkComposer *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (self), NULL);
  return self->mcp_servers;
}

/**
 * agent_gtk_composer_set_mcp_servers:
 * @self: a composer
 * @mcp_servers: (nullable): a list of [class@Agent.McpClient] (an
 *   [class@Agent.McpServerList], or any list model of them), or %NULL
 *
 * Sets the MCP servers whose resources and prompts the composer offers:
 * the attach button becomes a menu with “From <server>…” for each
 * connected server that has resources, and “/” at the start of an empty
 * message completes their prompts. The composer follows the list and the
 * servers' states.
 *
 * Since: 0.1
 */
void
agent_gtk_composer_set_mcp_servers (AgentGtkComposer *self,
                                    GListModel       *mcp_servers)
{
  g_return_if_fail (AGENT_GTK_IS_COMPOSER (self));
  g_return_if_fail (mcp_servers == NULL || G_IS_LIST_MODEL (mcp_servers));

  if (self->mcp_servers == mcp_servers)
    return;
  if (self->mcp_servers != NULL)
    g_signal_handlers_disconnect_by_func (self->mcp_servers,
                                          _agent_gtk_composer_mcp_servers_changed, self);
  g_set_object (&self->mcp_servers, mcp_servers);
  if (mcp_servers != NULL)
    g_signal_connect_object (mcp_servers, "items-changed",
                             G_CALLBACK (_agent_gtk_composer_mcp_servers_changed), self,
                             G_CONNECT_SWAPPED);
  _agent_gtk_composer_mcp_servers_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MCP_SERVERS]);
}

static gboolean
agent_gtk_composer_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (AGENT_GTK_COMPOSER (widget)->text_view);
}

/* Tab moves through the composer's children. GtkWidget's own would, on
 * Shift+Tab out of them, give the focus back to the composer itself: to
 * its text, by grab_focus() above, and the focus would not leave. */
static gboolean
agent_gtk_composer_focus_vfunc (GtkWidget        *widget,
                                 GtkDirectionType  direction)
{
  return gtk_widget_child_focus (AGENT_GTK_COMPOSER (widget)->box, direction);
}

static void
agent_gtk_composer_dispose (GObject *object)
{
  _agent_gtk_composer_dispose_prompts (AGENT_GTK_COMPOSER (object));
  _agent_gtk_composer_dispose_resources (AGENT_GTK_COMPOSER (object));
  _agent_gtk_composer_dispose_attachments (AGENT_GTK_COMPOSER (object));
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_COMPOSER);

  G_OBJECT_CLASS (agent_gtk_composer_parent_class)->dispose (object);
}

static void
agent_gtk_composer_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentGtkComposer *self = AGENT_GTK_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_ATTACHMENTS:
      g_value_set_object (value, self->attachments);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_EDITING:
      g_value_set_boolean (value, self->editing);
      break;
    case PROP_MAX_ATTACHMENT_SIZE:
      g_value_set_uint64 (value, self->max_attachment_size);
      break;
    case PROP_MCP_SERVERS:
      g_value_set_object (value, self->mcp_servers);
      break;
    case PROP_PLACEHOLDER_TEXT:
      g_value_set_string (value, agent_gtk_composer_get_placeholder_text (self));
      break;
    case PROP_STATUS:
      g_value_set_string (value, agent_gtk_composer_get_status (self));
      break;
    case PROP_TEXT:
      g_value_take_string (value, agent_gtk_composer_dup_text (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_composer_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AgentGtkComposer *self = AGENT_GTK_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      agent_gtk_composer_set_busy (self, g_value_get_boolean (value));
      break;
    case PROP_EDITING:
      agent_gtk_composer_set_editing (self, g_value_get_boolean (value));
      break;
    case PROP_MAX_ATTACHMENT_SIZE:
      agent_gtk_composer_set_max_attachment_size (self, g_value_get_uint64 (value));
      break;
    case PROP_MCP_SERVERS:
      agent_gtk_composer_set_mcp_servers (self, g_value_get_object (value));
      break;
    case PROP_PLACEHOLDER_TEXT:
      agent_gtk_composer_set_placeholder_text (self, g_value_get_string (value));
      break;
    case PROP_STATUS:
      agent_gtk_composer_set_status (self, g_value_get_string (value));
      break;
    case PROP_TEXT:
      agent_gtk_composer_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_composer_class_init (AgentGtkComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_composer_dispose;
  object_class->get_property = agent_gtk_composer_get_property;
  object_class->set_property = agent_gtk_composer_set_property;
  widget_class->grab_focus = agent_gtk_composer_grab_focus;
  widget_class->focus = agent_gtk_composer_focus_vfunc;

  /**
   * AgentGtkComposer:attachments: (type Gio.ListModel)
   *
   * The images and documents that go with the message (a list of
   * [class@Agent.ContentPart]), shown above the text until it is sent.
   *
   * Since: 0.1
   */
  properties[PROP_ATTACHMENTS] =
    g_param_spec_object ("attachments", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:busy:
   *
   * Whether a turn runs: the Send button is then Stop, and Escape stops.
   *
   * Since: 0.1
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:editing:
   *
   * Whether the text is a message being edited: a bar above it says so.
   *
   * Since: 0.1
   */
  properties[PROP_EDITING] =
    g_param_spec_boolean ("editing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:max-attachment-size:
   *
   * The most bytes a file may hold to be attached, or 0 for no limit: a
   * larger one is refused (not read) with
   * [signal@AgentGtk.Composer::attachment-error]. A chat view sets it to
   * its session's [property@Agent.Session:max-attachment-size].
   *
   * Since: 0.1
   */
  properties[PROP_MAX_ATTACHMENT_SIZE] =
    g_param_spec_uint64 ("max-attachment-size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:mcp-servers: (type Gio.ListModel)
   *
   * The MCP servers (a list of [class@Agent.McpClient]) whose resources
   * the attach menu offers (“From <server>…”) and whose prompts “/”
   * completes; %NULL for none. An application gives its
   * [class@Agent.McpServerList], or a list of its own.
   *
   * Since: 0.1
   */
  properties[PROP_MCP_SERVERS] =
    g_param_spec_object ("mcp-servers", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:placeholder-text:
   *
   * What the composer says it is for while it is empty.
   *
   * Since: 0.1
   */
  properties[PROP_PLACEHOLDER_TEXT] =
    g_param_spec_string ("placeholder-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:status:
   *
   * What a turn waits for before it can start, shown above the text with a
   * spinner; %NULL shows nothing.
   *
   * Since: 0.1
   */
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkComposer:text:
   *
   * What the user wrote and has not sent yet.
   *
   * Since: 0.1
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentGtkComposer::send:
   * @self: the composer
   * @text: what to send, without leading or trailing white space
   *
   * The user sent @text (Enter, or the Send button), with
   * [property@AgentGtk.Composer:attachments] (@text may be empty when
   * there are some). The text and the attachments stay in the composer:
   * whoever starts the turn empties it (the chat view does once the turn
   * starts).
   *
   * Since: 0.1
   */
  signals[SEND] = g_signal_new ("send", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * AgentGtkComposer::stop:
   * @self: the composer
   *
   * The user asked to stop the turn (the Stop button, or Escape while
   * [property@AgentGtk.Composer:busy]).
   *
   * Since: 0.1
   */
  signals[STOP] = g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * AgentGtkComposer::cancel-edit:
   * @self: the composer
   *
   * The user gave up editing a message (Cancel, or Escape).
   *
   * Since: 0.1
   */
  signals[CANCEL_EDIT] = g_signal_new ("cancel-edit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * AgentGtkComposer::attachment-error:
   * @self: the composer
   * @error: why, naming the file
   *
   * A file could not be attached: it could not be read, is a folder, or
   * is larger than [property@AgentGtk.Composer:max-attachment-size].
   * Show @error to the user (a toast).
   *
   * Since: 0.1
   */
  signals[ATTACHMENT_ERROR] = g_signal_new ("attachment-error", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_ERROR);

  /**
   * AgentGtkComposer::prompt-error:
   * @self: the composer
   * @error: why, naming the prompt and its server
   *
   * A “/” command could not be sent: no server of
   * [property@AgentGtk.Composer:mcp-servers] has that prompt, or the
   * server refused it (an argument missing or wrong). The text stays in
   * the composer. Show @error to the user (a toast).
   *
   * Since: 0.1
   */
  signals[PROMPT_ERROR] = g_signal_new ("prompt-error", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_ERROR);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-composer.ui");
  _agent_gtk_composer_class_init_attachments (widget_class);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, clamp);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, status_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, status_spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, status_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, editing_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, placeholder);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, scroller);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, text_view);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, send_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkComposer, suffix_box);
  gtk_widget_class_bind_template_callback (widget_class, on_send_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_edit_clicked);
  gtk_widget_class_set_css_name (widget_class, "composer");
}

static void
agent_gtk_composer_init (AgentGtkComposer *self)
{
  GtkEventController *keys;

  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  _agent_gtk_composer_init_attachments (self);
  _agent_gtk_composer_init_resources (self);
  _agent_gtk_composer_init_prompts (self);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (self->text_view, keys);
  g_signal_connect_object (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)), "changed",
                           G_CALLBACK (on_buffer_changed), self, G_CONNECT_SWAPPED);
}

/**
 * agent_gtk_composer_new:
 *
 * Creates a composer. Give it to a chat view
 * ([property@AgentGtk.ChatView:composer]) to send what is written there.
 *
 * Returns: (transfer floating): a new composer
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_composer_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_COMPOSER, NULL);
}
