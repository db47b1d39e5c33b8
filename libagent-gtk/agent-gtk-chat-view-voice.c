/* agent-gtk-chat-view-voice.c
 *
 * Read Aloud: an application that can speak (agent-chat, through
 * GStreamer) sets [property@AgentGtk.ChatView:can-read-aloud]; each answer
 * then offers Read Aloud (agent-gtk-read-aloud-button.c), whose click is
 * [signal@AgentGtk.ChatView::read-aloud]. The application plays the
 * answer and says which it reads with
 * [property@AgentGtk.ChatView:reading-aloud]: that answer's button is
 * Stop Reading until it is set back to %NULL. The buttons shown are told
 * of each change (they add themselves while mapped).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-read-aloud-button-private.h"

static void
update_buttons (AgentGtkChatView *self)
{
  for (guint i = 0; self->read_aloud_buttons != NULL && i < self->read_aloud_buttons->len; i++)
    _agent_gtk_read_aloud_button_update (g_ptr_array_index (self->read_aloud_buttons, i));
}

void
_agent_gtk_chat_view_add_read_aloud_button (AgentGtkChatView        *self,
                                            AgentGtkReadAloudButton *button)
{
  if (self->read_aloud_buttons == NULL)
    self->read_aloud_buttons = g_ptr_array_new ();
  g_ptr_array_add (self->read_aloud_buttons, button);
}

void
_agent_gtk_chat_view_remove_read_aloud_button (AgentGtkChatView        *self,
                                               AgentGtkReadAloudButton *button)
{
  if (self->read_aloud_buttons != NULL)
    g_ptr_array_remove_fast (self->read_aloud_buttons, button);
}

void
_agent_gtk_chat_view_dispose_voice (AgentGtkChatView *self)
{
  g_clear_pointer (&self->read_aloud_buttons, g_ptr_array_unref);
  g_clear_object (&self->reading_aloud);
}

/**
 * agent_gtk_chat_view_get_can_read_aloud:
 * @self: a chat view
 *
 * Gets whether answers offer Read Aloud.
 *
 * Returns: whether they do
 *
 * Since: 0.1
 */
gboolean
agent_gtk_chat_view_get_can_read_aloud (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), FALSE);

  return self->can_read_aloud;
}

/**
 * agent_gtk_chat_view_set_can_read_aloud:
 * @self: a chat view
 * @can_read_aloud: whether answers offer Read Aloud
 *
 * Offers Read Aloud on each answer, for an application that can play
 * speech: a click emits [signal@AgentGtk.ChatView::read-aloud].
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_can_read_aloud (AgentGtkChatView *self,
                                        gboolean          can_read_aloud)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));

  can_read_aloud = !!can_read_aloud;
  if (self->can_read_aloud == can_read_aloud)
    return;
  self->can_read_aloud = can_read_aloud;
  update_buttons (self);
  _agent_gtk_chat_view_notify_voice (self, FALSE);
}

/**
 * agent_gtk_chat_view_get_reading_aloud:
 * @self: a chat view
 *
 * Gets the answer being read aloud.
 *
 * Returns: (transfer none) (nullable): the answer, or %NULL
 *
 * Since: 0.1
 */
AgentMessage *
agent_gtk_chat_view_get_reading_aloud (AgentGtkChatView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (self), NULL);

  return self->reading_aloud;
}

/**
 * agent_gtk_chat_view_set_reading_aloud:
 * @self: a chat view
 * @message: (nullable): the answer being read aloud, or %NULL
 *
 * Says which answer is read aloud: its Read Aloud button is Stop Reading
 * until this is set to another, or to %NULL when it is over.
 *
 * Since: 0.1
 */
void
agent_gtk_chat_view_set_reading_aloud (AgentGtkChatView *self,
                                       AgentMessage     *message)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_VIEW (self));
  g_return_if_fail (message == NULL || AGENT_IS_MESSAGE (message));

  if (!g_set_object (&self->reading_aloud, message))
    return;
  update_buttons (self);
  _agent_gtk_chat_view_notify_voice (self, TRUE);
}
