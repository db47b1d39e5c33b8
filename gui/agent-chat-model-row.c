/* agent-chat-model-row.c
 *
 * One installed model in the Models window: its name, its details (size,
 * family, parameters, quantization, context length), its capabilities as
 * badges and, while the server holds it in memory, when it unloads with an
 * Unload Now button; a Delete button. The buttons activate the window's
 * actions (models.unload, models.delete) with the model's name: the row
 * changes nothing itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-model-badges.h"
#include "agent-chat-model-row.h"

struct _AgentChatModelRow
{
  GtkListBoxRow   parent_instance;

  GtkLabel       *name_label;
  GtkLabel       *details_label;
  GtkBox         *badges;
  GtkWidget      *running_box;
  GtkLabel       *running_label;
  GtkWidget      *unload_button;
  GtkWidget      *delete_button;

  AgentModelInfo *info;
  AgentModelInfo *running;  /* what /api/ps says of it, while loaded */
};

G_DEFINE_FINAL_TYPE (AgentChatModelRow, agent_chat_model_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  PROP_0,
  PROP_INFO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_running (AgentChatModelRow *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *text = NULL;

  gtk_widget_set_visible (self->running_box, self->running != NULL);
  if (self->running == NULL)
    return;
  text = agent_chat_model_expiry (agent_model_info_get_expires_at (self->running), now);
  gtk_label_set_text (self->running_label, text);
}

static void
update (AgentChatModelRow *self)
{
  const char *name = agent_model_info_get_name (self->info);
  AgentModelCapabilities capabilities = agent_model_info_get_capabilities (self->info);
  g_autofree char *details = agent_chat_model_details (self->info);
  g_autofree char *badges = agent_chat_model_capabilities_text (capabilities);
  /* Translators: the accessible name of a model's Delete button */
  g_autofree char *delete = g_strdup_printf (_("Delete %s"), name);
  GVariant *target = g_variant_new_string (name);

  gtk_label_set_text (self->name_label, name);
  gtk_label_set_text (self->details_label, details);
  gtk_widget_set_visible (GTK_WIDGET (self->details_label), *details != '\0');
  agent_chat_model_badges_fill (self->badges, capabilities);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  *badges != '\0' ? badges : details, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->delete_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, delete, -1);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->delete_button), target);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->unload_button), target);
  update_running (self);
}

static void
agent_chat_model_row_dispose (GObject *object)
{
  AgentChatModelRow *self = AGENT_CHAT_MODEL_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MODEL_ROW);
  g_clear_object (&self->info);
  g_clear_object (&self->running);

  G_OBJECT_CLASS (agent_chat_model_row_parent_class)->dispose (object);
}

static void
agent_chat_model_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentChatModelRow *self = AGENT_CHAT_MODEL_ROW (object);

  switch (prop_id)
    {
    case PROP_INFO:
      g_value_set_object (value, self->info);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_model_row_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentChatModelRow *self = AGENT_CHAT_MODEL_ROW (object);

  switch (prop_id)
    {
    case PROP_INFO:
      self->info = g_value_dup_object (value);
      update (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_model_row_class_init (AgentChatModelRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_model_row_dispose;
  object_class->get_property = agent_chat_model_row_get_property;
  object_class->set_property = agent_chat_model_row_set_property;

  properties[PROP_INFO] =
    g_param_spec_object ("info", NULL, NULL, AGENT_TYPE_MODEL_INFO,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-model-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, details_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, badges);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, running_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, running_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, unload_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatModelRow, delete_button);
}

static void
agent_chat_model_row_init (AgentChatModelRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  agent_chat_a11y_name_button (self->unload_button);
}

GtkWidget *
agent_chat_model_row_new (AgentModelInfo *info)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (info), NULL);

  return g_object_new (AGENT_CHAT_TYPE_MODEL_ROW, "info", info, NULL);
}

AgentModelInfo *
agent_chat_model_row_get_info (AgentChatModelRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MODEL_ROW (self), NULL);

  return self->info;
}

/**
 * agent_chat_model_row_set_running:
 * @self: a row
 * @running: (nullable): the model as the server's running list has it
 *   (with when it unloads), or %NULL when it is not loaded
 */
void
agent_chat_model_row_set_running (AgentChatModelRow *self,
                                  AgentModelInfo    *running)
{
  g_return_if_fail (AGENT_CHAT_IS_MODEL_ROW (self));

  g_set_object (&self->running, running);
  update_running (self);
}
