/* agent-chat-pull-row.c
 *
 * A pull under way in the Models window: the model's name, a progress bar
 * over all its layers, and below it what the server says it does
 * ("Downloading", "Verifying", "Writing manifest") with the bytes and the
 * percentage; a Cancel button, which activates the window's
 * models.cancel-pull with the model's name. The bar's value is the
 * accessible value of a progress bar, read by screen readers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "agent-chat-pull-row.h"

struct _AgentChatPullRow
{
  GtkListBoxRow      parent_instance;

  GtkLabel          *name_label;
  GtkProgressBar    *progress_bar;
  GtkLabel          *status_label;
  GtkWidget         *cancel_button;

  char              *model;
  AgentPullProgress *progress;
  gulong             notify_id;
};

G_DEFINE_FINAL_TYPE (AgentChatPullRow, agent_chat_pull_row, GTK_TYPE_LIST_BOX_ROW)

/* Ollama's status, in words of the app: "pulling 6a0746a1ec1a" is a layer
 * downloading; the others are steps of their own */
static const char *
describe_status (const char *status)
{
  if (status == NULL || *status == '\0' || g_str_equal (status, "pulling manifest"))
    return _("Starting");
  if (g_str_has_prefix (status, "pulling ") || g_str_has_prefix (status, "downloading"))
    return _("Downloading");
  if (g_str_has_prefix (status, "verifying"))
    return _("Verifying");
  if (g_str_has_prefix (status, "writing"))
    return _("Writing manifest");
  if (g_str_equal (status, "success"))
    return _("Done");
  return status;
}

static void
update (AgentChatPullRow *self)
{
  guint64 completed = agent_pull_progress_get_overall_completed (self->progress);
  guint64 total = agent_pull_progress_get_overall_total (self->progress);
  double fraction = agent_pull_progress_get_fraction (self->progress);
  const char *status = describe_status (agent_pull_progress_get_status (self->progress));
  g_autofree char *text = NULL;

  if (total > 0)
    {
      g_autofree char *done = g_format_size (completed);
      g_autofree char *all = g_format_size (total);

      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
      /* Translators: a pull's status, "Downloading · 1.2 GB of 2.0 GB (60 %)" */
      text = g_strdup_printf (_("%s · %s of %s (%d %%)"), status, done, all,
                              (int) (CLAMP (fraction, 0, 1) * 100));
    }
  else
    {
      gtk_progress_bar_pulse (self->progress_bar);
      text = g_strdup (status);
    }
  gtk_label_set_text (self->status_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress_bar),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
}

static void
agent_chat_pull_row_dispose (GObject *object)
{
  AgentChatPullRow *self = AGENT_CHAT_PULL_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_PULL_ROW);
  g_clear_signal_handler (&self->notify_id, self->progress);
  g_clear_object (&self->progress);

  G_OBJECT_CLASS (agent_chat_pull_row_parent_class)->dispose (object);
}

static void
agent_chat_pull_row_finalize (GObject *object)
{
  AgentChatPullRow *self = AGENT_CHAT_PULL_ROW (object);

  g_free (self->model);

  G_OBJECT_CLASS (agent_chat_pull_row_parent_class)->finalize (object);
}

static void
agent_chat_pull_row_class_init (AgentChatPullRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_pull_row_dispose;
  object_class->finalize = agent_chat_pull_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-pull-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatPullRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPullRow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPullRow, status_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPullRow, cancel_button);
}

static void
agent_chat_pull_row_init (AgentChatPullRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
agent_chat_pull_row_new (const char *model)
{
  AgentChatPullRow *self;
  g_autofree char *pulling = NULL;
  g_autofree char *cancel = NULL;

  g_return_val_if_fail (model != NULL, NULL);

  self = g_object_new (AGENT_CHAT_TYPE_PULL_ROW, NULL);
  self->model = g_strdup (model);
  gtk_label_set_text (self->name_label, model);
  gtk_label_set_text (self->status_label, _("Starting"));
  /* Translators: the accessible name of a pull's progress bar */
  pulling = g_strdup_printf (_("Pulling %s"), model);
  /* Translators: the accessible name of a pull's Cancel button */
  cancel = g_strdup_printf (_("Cancel Pulling %s"), model);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, pulling, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->cancel_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, cancel, -1);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->cancel_button),
                                          g_variant_new_string (model));
  return GTK_WIDGET (self);
}

const char *
agent_chat_pull_row_get_model (AgentChatPullRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_PULL_ROW (self), NULL);

  return self->model;
}

/**
 * agent_chat_pull_row_set_progress:
 * @self: a row
 * @progress: the pull's progress, which the row follows from now on
 */
void
agent_chat_pull_row_set_progress (AgentChatPullRow  *self,
                                  AgentPullProgress *progress)
{
  g_return_if_fail (AGENT_CHAT_IS_PULL_ROW (self));
  g_return_if_fail (AGENT_IS_PULL_PROGRESS (progress));

  if (self->progress != progress)
    {
      g_clear_signal_handler (&self->notify_id, self->progress);
      g_set_object (&self->progress, progress);
      self->notify_id = g_signal_connect_object (progress, "notify", G_CALLBACK (update), self,
                                                 G_CONNECT_SWAPPED);
    }
  update (self);
}

/**
 * agent_chat_pull_row_set_error:
 * @self: a row
 * @message: why the pull failed, as a sentence
 *
 * Shows that the pull failed and why, in place of its progress; the
 * Cancel button becomes Dismiss (models.dismiss-pull).
 */
void
agent_chat_pull_row_set_error (AgentChatPullRow *self,
                               const char       *message)
{
  g_autofree char *dismiss = NULL;

  g_return_if_fail (AGENT_CHAT_IS_PULL_ROW (self));

  g_clear_signal_handler (&self->notify_id, self->progress);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  gtk_label_set_text (self->status_label, message);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_button_set_icon_name (GTK_BUTTON (self->cancel_button), "window-close-symbolic");
  gtk_widget_set_tooltip_text (self->cancel_button, _("Dismiss"));
  /* Translators: the accessible name of a failed pull's Dismiss button */
  dismiss = g_strdup_printf (_("Dismiss %s"), self->model);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->cancel_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, dismiss, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  message, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->cancel_button), "models.dismiss-pull");
}
