/* agent-gtk-error-item.c
 *
 * The error of a failed turn as an item of the chat view's list, after the
 * conversation's messages: the error, and what is known of its turn (part
 * of the answer had arrived; no API key was set). Its row shows it in an
 * AgentGtkErrorCard, which says it in words.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-error-item-private.h"

struct _AgentGtkErrorItem
{
  GObject  parent_instance;
  GError  *error;
  guint    partial : 1;
  guint    api_key_missing : 1;
};

G_DEFINE_FINAL_TYPE (AgentGtkErrorItem, agent_gtk_error_item, G_TYPE_OBJECT)

static void
agent_gtk_error_item_finalize (GObject *object)
{
  AgentGtkErrorItem *self = AGENT_GTK_ERROR_ITEM (object);

  g_clear_error (&self->error);

  G_OBJECT_CLASS (agent_gtk_error_item_parent_class)->finalize (object);
}

static void
agent_gtk_error_item_class_init (AgentGtkErrorItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_gtk_error_item_finalize;
}

static void
agent_gtk_error_item_init (AgentGtkErrorItem *self)
{
}

AgentGtkErrorItem *
agent_gtk_error_item_new (const GError *error,
                          gboolean      partial,
                          gboolean      api_key_missing)
{
  AgentGtkErrorItem *self;

  g_return_val_if_fail (error != NULL, NULL);

  self = g_object_new (AGENT_GTK_TYPE_ERROR_ITEM, NULL);
  self->error = g_error_copy (error);
  self->partial = !!partial;
  self->api_key_missing = !!api_key_missing;
  return self;
}

const GError *
agent_gtk_error_item_get_error (AgentGtkErrorItem *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_ITEM (self), NULL);
  return self->error;
}

gboolean
agent_gtk_error_item_get_partial (AgentGtkErrorItem *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_ITEM (self), FALSE);
  return self->partial;
}

gboolean
agent_gtk_error_item_get_api_key_missing (AgentGtkErrorItem *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_ITEM (self), FALSE);
  return self->api_key_missing;
}
