/* agent-gtk-branch-switcher.c
 *
 * The "‹ 2 / 3 ›" of a message with siblings: the answers that
 * Regenerate made at its place, or the versions of a question that Edit
 * and Resend made (agent_memory_get_n_siblings()). Previous and Next ask
 * for a sibling with ::select; the row's owner switches the branch
 * (agent_memory_select_sibling()) and the list shows the new path. Hidden
 * when the message has no sibling; the buttons are reached by Tab and
 * named for screen readers ("Previous answer"), and the label says
 * "Answer 2 of 3".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-branch-switcher-private.h"

struct _AgentGtkBranchSwitcher
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkWidget *previous_button;
  GtkWidget *label;
  GtkWidget *next_button;

  guint      index;
  guint      n_siblings;
  guint      answer : 1;
};

enum {
  SELECT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentGtkBranchSwitcher, agent_gtk_branch_switcher, GTK_TYPE_WIDGET)

/* The buttons' names, for an answer's siblings or a question's */
static void
set_names (AgentGtkBranchSwitcher *self,
           gboolean                answer)
{
  gtk_widget_set_tooltip_text (self->previous_button,
                               answer ? _("Previous Answer") : _("Previous Version"));
  gtk_widget_set_tooltip_text (self->next_button, answer ? _("Next Answer") : _("Next Version"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->previous_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  answer ? _("Previous answer") : _("Previous version"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->next_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  answer ? _("Next answer") : _("Next version"), -1);
}

/**
 * agent_gtk_branch_switcher_set_siblings:
 * @self: a #AgentGtkBranchSwitcher
 * @index: which sibling the message is, from 0
 * @n_siblings: how many there are, the message included
 * @answer: whether they are answers (or versions of a question)
 *
 * Shows "@index + 1 / @n_siblings", or nothing when @n_siblings is below 2.
 */
void
agent_gtk_branch_switcher_set_siblings (AgentGtkBranchSwitcher *self,
                                        guint                   index,
                                        guint                   n_siblings,
                                        gboolean                answer)
{
  g_autofree char *text = NULL;
  g_autofree char *spoken = NULL;

  g_return_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self));

  gtk_widget_set_visible (GTK_WIDGET (self), n_siblings > 1);
  if (n_siblings < 2)
    {
      self->index = 0;
      self->n_siblings = n_siblings;
      return;
    }
  index = MIN (index, n_siblings - 1);
  if (self->index == index && self->n_siblings == n_siblings && self->answer == !!answer)
    return;
  if (self->answer != !!answer)
    set_names (self, answer);
  self->index = index;
  self->n_siblings = n_siblings;
  self->answer = !!answer;

  /* TRANSLATORS: which of a message's siblings is shown: "2 / 3" */
  text = g_strdup_printf (C_("branch", "%u / %u"), index + 1, n_siblings);
  gtk_label_set_text (GTK_LABEL (self->label), text);
  spoken = answer ? g_strdup_printf (_("Answer %u of %u"), index + 1, n_siblings)
                  : g_strdup_printf (_("Version %u of %u"), index + 1, n_siblings);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  spoken, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, spoken,
                                  -1);
  gtk_widget_set_sensitive (self->previous_button, index > 0);
  gtk_widget_set_sensitive (self->next_button, index + 1 < n_siblings);
}

guint
agent_gtk_branch_switcher_get_index (AgentGtkBranchSwitcher *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self), 0);
  return self->index;
}

guint
agent_gtk_branch_switcher_get_n_siblings (AgentGtkBranchSwitcher *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self), 0);
  return self->n_siblings;
}

/* "2 / 3", as shown */
const char *
agent_gtk_branch_switcher_get_text (AgentGtkBranchSwitcher *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->label));
}

/**
 * agent_gtk_branch_switcher_step:
 * @self: a #AgentGtkBranchSwitcher
 * @step: -1 for the previous sibling, 1 for the next
 *
 * Asks for the sibling before or after the one shown, as the buttons do
 * (for the keyboard: Alt+Left and Alt+Right on the row).
 *
 * Returns: whether there was one to ask for
 */
gboolean
agent_gtk_branch_switcher_step (AgentGtkBranchSwitcher *self,
                                int                     step)
{
  GtkWidget *button;

  g_return_val_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self), FALSE);
  g_return_val_if_fail (step == -1 || step == 1, FALSE);

  button = step < 0 ? self->previous_button : self->next_button;
  if (!gtk_widget_get_visible (GTK_WIDGET (self)) || !gtk_widget_is_sensitive (button))
    return FALSE;
  g_signal_emit (self, signals[SELECT], 0, self->index + step);
  return TRUE;
}

/* Gives the keyboard focus to Previous (@step -1) or Next (1), or to the
 * other when that one has no sibling to go to */
void
agent_gtk_branch_switcher_focus (AgentGtkBranchSwitcher *self,
                                 int                     step)
{
  GtkWidget *button = step < 0 ? self->previous_button : self->next_button;
  GtkWidget *other = step < 0 ? self->next_button : self->previous_button;

  g_return_if_fail (AGENT_GTK_IS_BRANCH_SWITCHER (self));

  if (!gtk_widget_get_sensitive (button))
    button = other;
  gtk_widget_grab_focus (button);
}

static void
on_previous_clicked (AgentGtkBranchSwitcher *self)
{
  agent_gtk_branch_switcher_step (self, -1);
}

static void
on_next_clicked (AgentGtkBranchSwitcher *self)
{
  agent_gtk_branch_switcher_step (self, 1);
}

static void
agent_gtk_branch_switcher_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_BRANCH_SWITCHER);

  G_OBJECT_CLASS (agent_gtk_branch_switcher_parent_class)->dispose (object);
}

static void
agent_gtk_branch_switcher_class_init (AgentGtkBranchSwitcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_branch_switcher_dispose;

  /**
   * AgentGtkBranchSwitcher::select:
   * @self: the switcher
   * @index: the sibling asked for, from 0
   *
   * Previous or Next was clicked.
   */
  signals[SELECT] = g_signal_new ("select", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-branch-switcher.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkBranchSwitcher, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkBranchSwitcher, previous_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkBranchSwitcher, label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkBranchSwitcher, next_button);
  gtk_widget_class_bind_template_callback (widget_class, on_previous_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_next_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "branchswitcher");
}

static void
agent_gtk_branch_switcher_init (AgentGtkBranchSwitcher *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The template hides the buttons while they get their tooltips (see
   * agent-gtk-private.h) */
  gtk_widget_set_visible (self->previous_button, TRUE);
  gtk_widget_set_visible (self->next_button, TRUE);
  self->answer = TRUE;
}
