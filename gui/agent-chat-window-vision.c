/* agent-chat-window-vision.c
 *
 * Images for a model that cannot read them: said before sending. While
 * the composer holds an image and the chat's model is one its server says
 * has no vision (Ollama's capabilities, through AgentModelManager), a
 * warning shows above the message field, naming the model and what to do;
 * it has the accessible role "alert", so a screen reader says it as it
 * appears. Send then refuses the turn with the same explanation (an error
 * card; the text and the image stay in the composer), rather than letting
 * the image go unseen.
 *
 * What the model can do is asked once per model (/api/show), when an image
 * is attached or the model changes; servers without a manager say nothing
 * of vision, and nothing is refused there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-window-private.h"

static gboolean
holds_image (AgentChatWindow *self)
{
  GListModel *attachments = agent_gtk_composer_get_attachments (self->composer);
  guint n = g_list_model_get_n_items (attachments);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (attachments, i);

      if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
        return TRUE;
    }
  return FALSE;
}

/* Whether the chat's model is known to read no images */
static gboolean
blind (AgentChatWindow *self)
{
  return self->vision_known &&
         g_strcmp0 (self->vision_model, _agent_chat_window_chat_model (self)) == 0 &&
         (self->vision_capabilities & AGENT_MODEL_CAPABILITY_VISION) == 0;
}

static char *
explain (AgentChatWindow *self)
{
  /* Translators: shown above the message field when an image is attached */
  return g_strdup_printf (_("%s cannot read images: the image would not be seen. Remove it, or "
                            "pick a model marked Vision."), _agent_chat_window_chat_model (self));
}

static void
show_warning (AgentChatWindow *self)
{
  gboolean shown = holds_image (self) && blind (self);

  if (shown)
    {
      g_autofree char *text = explain (self);

      gtk_label_set_text (self->vision_label, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->vision_warning),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }
  gtk_widget_set_visible (self->vision_warning, shown);
}

static void
on_shown (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentModelInfo) info = agent_model_manager_show_finish (AGENT_MODEL_MANAGER (object),
                                                                    result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->vision_cancellable);
  /* A model the server does not know (or a server that failed) says
   * nothing: the turn goes, and its error is the server's */
  self->vision_known = info != NULL && agent_model_info_get_details_known (info);
  self->vision_capabilities = info ? agent_model_info_get_capabilities (info)
                                   : AGENT_MODEL_CAPABILITY_NONE;
  show_warning (self);
}

/**
 * _agent_chat_window_update_vision:
 * @self: a #AgentChatWindow
 *
 * The attachments, the chat's model or the server changed: the warning
 * shows if it has to, once what the model can do is known.
 */
void
_agent_chat_window_update_vision (AgentChatWindow *self)
{
  const char *model = _agent_chat_window_chat_model (self);
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentModelManager) manager = NULL;

  if (self->connection == NULL || self->composer == NULL)
    return;
  if (g_strcmp0 (self->vision_model, model) == 0 &&
      g_strcmp0 (self->vision_url, agent_chat_connection_get_base_url (self->connection)) == 0)
    {
      show_warning (self);
      return;
    }
  /* Another model: asked for when an image is there to be sent */
  g_cancellable_cancel (self->vision_cancellable);
  g_clear_object (&self->vision_cancellable);
  self->vision_known = FALSE;
  g_clear_pointer (&self->vision_model, g_free);
  show_warning (self);
  if (!holds_image (self) || model == NULL || *model == '\0')
    return;
  provider = _agent_chat_window_keyed_provider (self);
  if (provider == NULL)
    return;
  manager = agent_model_manager_new (provider);
  if (!agent_model_manager_get_supported (manager))
    return;
  self->vision_model = g_strdup (model);
  g_free (self->vision_url);
  self->vision_url = g_strdup (agent_chat_connection_get_base_url (self->connection));
  self->vision_cancellable = g_cancellable_new ();
  agent_model_manager_show_async (manager, model, self->vision_cancellable, on_shown,
                                  g_object_ref (self));
}

/**
 * _agent_chat_window_refuse_images:
 * @self: a #AgentChatWindow
 *
 * Before a turn: refuses it, saying why, when the composer holds an image
 * and the chat's model cannot read one.
 *
 * Returns: %TRUE if the turn was refused
 */
gboolean
_agent_chat_window_refuse_images (AgentChatWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!holds_image (self) || !blind (self))
    return FALSE;
  text = explain (self);
  error = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT, text);
  agent_gtk_chat_view_fail_turn (self->chat_view, error);
  show_warning (self);
  return TRUE;
}

void
_agent_chat_window_init_vision (AgentChatWindow *self)
{
  g_signal_connect_object (agent_gtk_composer_get_attachments (self->composer), "items-changed",
                           G_CALLBACK (_agent_chat_window_update_vision), self,
                           G_CONNECT_SWAPPED);
}

void
_agent_chat_window_dispose_vision (AgentChatWindow *self)
{
  g_cancellable_cancel (self->vision_cancellable);
  g_clear_object (&self->vision_cancellable);
  g_clear_pointer (&self->vision_model, g_free);
  g_clear_pointer (&self->vision_url, g_free);
}
