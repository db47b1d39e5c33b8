/* agent-gtk-read-aloud-button.c
 *
 * An answer's Read Aloud, among its actions (agent-gtk-message-row.ui): it
 * shows when the chat view offers reading aloud
 * ([property@AgentGtk.ChatView:can-read-aloud]) and its row holds an
 * answer; while that answer is read ([property@AgentGtk.ChatView:reading-aloud])
 * it is Stop Reading. A click asks the view to read the answer, or to stop
 * ([signal@AgentGtk.ChatView::read-aloud]). It finds its row and its view
 * among its ancestors, and while mapped it is one of the view's buttons
 * told of changes (agent-gtk-chat-view-voice.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-private.h"
#include "agent-gtk-read-aloud-button-private.h"

struct _AgentGtkReadAloudButton
{
  GtkWidget         parent_instance;

  GtkWidget        *button;
  AgentGtkChatView *view;  /* while mapped */
  GtkWidget        *row;   /* while mapped */
  gulong            item_handler;
  int               reading;  /* what the button says: -1 before it says anything */
};

G_DEFINE_FINAL_TYPE (AgentGtkReadAloudButton, agent_gtk_read_aloud_button, GTK_TYPE_WIDGET)

/* The answer of the row, or NULL */
static AgentMessage *
answer (AgentGtkReadAloudButton *self)
{
  GObject *item;

  if (self->row == NULL)
    return NULL;
  item = agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (self->row));
  if (!AGENT_IS_MESSAGE (item) ||
      agent_message_get_role (AGENT_MESSAGE (item)) != AGENT_MESSAGE_ROLE_ASSISTANT)
    return NULL;
  return AGENT_MESSAGE (item);
}

void
_agent_gtk_read_aloud_button_update (AgentGtkReadAloudButton *self)
{
  AgentMessage *message = answer (self);
  gboolean reading;
  const char *label;

  gtk_widget_set_visible (self->button, message != NULL && self->view != NULL &&
                                        agent_gtk_chat_view_get_can_read_aloud (self->view));
  reading = message != NULL && self->view != NULL &&
            agent_gtk_chat_view_get_reading_aloud (self->view) == message;
  if (self->reading == reading)
    return;
  self->reading = reading;
  label = reading ? _("Stop Reading") : _("Read Aloud");
  gtk_button_set_icon_name (GTK_BUTTON (self->button),
                            reading ? "media-playback-stop-symbolic" : "audio-volume-high-symbolic");
  gtk_widget_set_tooltip_text (self->button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
}

static void
on_clicked (AgentGtkReadAloudButton *self)
{
  AgentMessage *message = answer (self);

  if (message != NULL && self->view != NULL)
    _agent_gtk_chat_view_read_aloud (self->view, message);
}

static void
agent_gtk_read_aloud_button_map (GtkWidget *widget)
{
  AgentGtkReadAloudButton *self = AGENT_GTK_READ_ALOUD_BUTTON (widget);
  GtkWidget *view = gtk_widget_get_ancestor (widget, AGENT_GTK_TYPE_CHAT_VIEW);

  self->row = gtk_widget_get_ancestor (widget, AGENT_GTK_TYPE_MESSAGE_ROW);
  if (view != NULL)
    {
      self->view = AGENT_GTK_CHAT_VIEW (view);
      _agent_gtk_chat_view_add_read_aloud_button (self->view, self);
    }
  if (self->row != NULL)
    self->item_handler = g_signal_connect_swapped (self->row, "notify::item",
                                                   G_CALLBACK (_agent_gtk_read_aloud_button_update),
                                                   self);
  _agent_gtk_read_aloud_button_update (self);

  GTK_WIDGET_CLASS (agent_gtk_read_aloud_button_parent_class)->map (widget);
}

static void
agent_gtk_read_aloud_button_unmap (GtkWidget *widget)
{
  AgentGtkReadAloudButton *self = AGENT_GTK_READ_ALOUD_BUTTON (widget);

  if (self->view != NULL)
    _agent_gtk_chat_view_remove_read_aloud_button (self->view, self);
  g_clear_signal_handler (&self->item_handler, self->row);
  self->view = NULL;
  self->row = NULL;

  GTK_WIDGET_CLASS (agent_gtk_read_aloud_button_parent_class)->unmap (widget);
}

static void
agent_gtk_read_aloud_button_dispose (GObject *object)
{
  AgentGtkReadAloudButton *self = AGENT_GTK_READ_ALOUD_BUTTON (object);

  g_clear_pointer (&self->button, gtk_widget_unparent);

  G_OBJECT_CLASS (agent_gtk_read_aloud_button_parent_class)->dispose (object);
}

static void
agent_gtk_read_aloud_button_class_init (AgentGtkReadAloudButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_read_aloud_button_dispose;
  widget_class->map = agent_gtk_read_aloud_button_map;
  widget_class->unmap = agent_gtk_read_aloud_button_unmap;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
agent_gtk_read_aloud_button_init (AgentGtkReadAloudButton *self)
{
  self->reading = -1;
  self->button = gtk_button_new ();
  gtk_widget_add_css_class (self->button, "flat");
  /* Hidden while it gets its tooltip (see agent-gtk-private.h) */
  gtk_widget_set_visible (self->button, FALSE);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
  g_signal_connect_swapped (self->button, "clicked", G_CALLBACK (on_clicked), self);
}
