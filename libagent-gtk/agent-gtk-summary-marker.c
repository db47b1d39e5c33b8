/* agent-gtk-summary-marker.c
 *
 * The row of a summary (agent_message_is_summary()): where the context
 * policy replaced older turns by a summary the model wrote. The messages
 * it replaces stay in the conversation, above it; what the model is sent
 * from then on is the summary, and the marker says so: "Earlier messages
 * summarized", folded, and unfolded which messages it replaces and its
 * text. While the model writes it: "Summarizing earlier messages…" with a
 * spinner.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-summary-marker-private.h"

struct _AgentGtkSummaryMarker
{
  GtkWidget  parent_instance;

  GtkWidget *expander;
  GtkWidget *title_label;
  GtkWidget *spinner;
  GtkWidget *range_label;
  GtkWidget *summary_label;
};

G_DEFINE_FINAL_TYPE (AgentGtkSummaryMarker, agent_gtk_summary_marker, GTK_TYPE_WIDGET)

/**
 * agent_gtk_summary_marker_update:
 * @self: a #AgentGtkSummaryMarker
 * @summary: a message that [method@Agent.Message.is_summary]
 *
 * Shows @summary as it is now (it may still be written).
 */
void
agent_gtk_summary_marker_update (AgentGtkSummaryMarker *self,
                                 AgentMessage          *summary)
{
  const char *content = agent_message_get_content (summary);
  gboolean writing = agent_message_get_state (summary) == AGENT_MESSAGE_STATE_STREAMING;
  guint start = agent_message_get_summary_start (summary);
  guint end = agent_message_get_summary_end (summary);
  g_autofree char *range = NULL;

  g_return_if_fail (AGENT_GTK_IS_SUMMARY_MARKER (self));

  gtk_label_set_text (GTK_LABEL (self->title_label),
                      writing ? _("Summarizing earlier messages…")
                              : _("Earlier messages summarized"));
  gtk_widget_set_visible (self->spinner, writing);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), writing);

  if (end == start + 1)
    range = g_strdup_printf (_("The model is sent this summary in place of the message above it "
                               "(message %u)."), end);
  else if (end > start)
    range = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "The model is sent this summary in place of the %u "
                                          "message above it (messages %u to %u).",
                                          "The model is sent this summary in place of the %u "
                                          "messages above it (messages %u to %u).",
                                          end - start),
                             end - start, start + 1, end);
  gtk_label_set_text (GTK_LABEL (self->range_label), range ? range : "");
  gtk_widget_set_visible (self->range_label, range != NULL);
  gtk_label_set_text (GTK_LABEL (self->summary_label), content ? content : "");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->expander),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_label_get_text (GTK_LABEL (self->title_label)),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, range ? range : "",
                                  -1);
}

/* Folded again, for another message */
void
agent_gtk_summary_marker_reset (AgentGtkSummaryMarker *self)
{
  g_return_if_fail (AGENT_GTK_IS_SUMMARY_MARKER (self));

  gtk_expander_set_expanded (GTK_EXPANDER (self->expander), FALSE);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), FALSE);
}

const char *
agent_gtk_summary_marker_get_title (AgentGtkSummaryMarker *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_SUMMARY_MARKER (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->title_label));
}

gboolean
agent_gtk_summary_marker_get_expanded (AgentGtkSummaryMarker *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_SUMMARY_MARKER (self), FALSE);

  return gtk_expander_get_expanded (GTK_EXPANDER (self->expander));
}

void
agent_gtk_summary_marker_set_expanded (AgentGtkSummaryMarker *self,
                                       gboolean               expanded)
{
  g_return_if_fail (AGENT_GTK_IS_SUMMARY_MARKER (self));

  gtk_expander_set_expanded (GTK_EXPANDER (self->expander), expanded);
}

static void
agent_gtk_summary_marker_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_SUMMARY_MARKER);

  G_OBJECT_CLASS (agent_gtk_summary_marker_parent_class)->dispose (object);
}

static void
agent_gtk_summary_marker_class_init (AgentGtkSummaryMarkerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_summary_marker_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-summary-marker.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkSummaryMarker, expander);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkSummaryMarker, title_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkSummaryMarker, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkSummaryMarker, range_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkSummaryMarker, summary_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "summarymarker");
}

static void
agent_gtk_summary_marker_init (AgentGtkSummaryMarker *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
