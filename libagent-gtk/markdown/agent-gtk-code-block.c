/* agent-gtk-code-block.c
 *
 * A code block of an answer, as a card: a header with the fence's language
 * and a Copy button (which copies the code as it is now, while it streams
 * too), and the code (agent-gtk-code.c) in a scrolled window of its own,
 * scrolled sideways when its lines are wider than the view
 * (agent-gtk-sideways.c): a long line never widens the window. Laid out
 * as a vertical GtkBox would, and named "box" as the box it replaces was,
 * so that the style and screen readers see what they saw.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-copy-private.h"
#include "agent-gtk-private.h"
#include "markdown/agent-gtk-code-block-private.h"
#include "markdown/agent-gtk-code-private.h"
#include "markdown/agent-gtk-sideways-private.h"

struct _AgentGtkCodeBlock
{
  GtkWidget  parent_instance;
  GtkWidget *code;      /* AgentGtkCode */
  char      *language;  /* the fence's info string, or NULL */
  char      *text;      /* what Copy copies */
};

G_DEFINE_FINAL_TYPE (AgentGtkCodeBlock, agent_gtk_code_block, GTK_TYPE_WIDGET)

static void
on_copy_clicked (AgentGtkCodeBlock *self,
                 GtkButton         *button)
{
  _agent_gtk_copy_text (GTK_WIDGET (button), self->text);
}

/**
 * agent_gtk_code_block_new:
 * @text: the code
 * @language: (nullable): the fence's info string
 * @open: whether the block may grow (its closing fence not there yet)
 *
 * Returns: a code block
 */
GtkWidget *
agent_gtk_code_block_new (const char *text,
                          const char *language,
                          gboolean    open)
{
  AgentGtkCodeBlock *self = g_object_new (AGENT_GTK_TYPE_CODE_BLOCK, NULL);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (language ? language : "");
  GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->language = g_strdup (language);
  self->text = g_strdup (text);
  self->code = _agent_gtk_code_new ();

  gtk_widget_add_css_class (GTK_WIDGET (self), "card");
  gtk_widget_add_css_class (GTK_WIDGET (self), "code-block");
  gtk_widget_add_css_class (name, "caption");
  gtk_widget_add_css_class (name, "dim-label");
  gtk_widget_set_hexpand (name, TRUE);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 3);
  gtk_widget_set_margin_top (header, 3);
  gtk_widget_add_css_class (copy, "flat");
  _agent_gtk_set_new_tooltip (copy, _("Copy Code"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (copy),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy Code"), -1);
  g_signal_connect_object (copy, "clicked", G_CALLBACK (on_copy_clicked), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (header), name);
  gtk_box_append (GTK_BOX (header), copy);

  _agent_gtk_code_set_text (self->code, text, language, open);
  gtk_widget_set_margin_start (self->code, 12);
  gtk_widget_set_margin_end (self->code, 12);
  gtk_widget_set_margin_bottom (self->code, 12);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->code);
  _agent_gtk_sideways_init (GTK_SCROLLED_WINDOW (scroller));
  /* Tab stops there (to scroll long lines): a screen reader names it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (scroller), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Code"), -1);

  gtk_widget_insert_before (header, GTK_WIDGET (self), NULL);
  gtk_widget_insert_before (scroller, GTK_WIDGET (self), NULL);
  return GTK_WIDGET (self);
}

/* The fence's info string, or NULL: a block of another language is
 * another block */
const char *
agent_gtk_code_block_get_language (AgentGtkCodeBlock *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_CODE_BLOCK (self), NULL);
  return self->language;
}

/* The block grew (or its closing fence came: @open is FALSE then) */
void
agent_gtk_code_block_set_text (AgentGtkCodeBlock *self,
                               const char        *text,
                               gboolean           open)
{
  g_return_if_fail (AGENT_GTK_IS_CODE_BLOCK (self));

  _agent_gtk_code_set_text (self->code, text, self->language, open);
  g_free (self->text);
  self->text = g_strdup (text);
}

static void
agent_gtk_code_block_dispose (GObject *object)
{
  AgentGtkCodeBlock *self = AGENT_GTK_CODE_BLOCK (object);
  GtkWidget *child;

  self->code = NULL;  /* a child of the scrolled window */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (agent_gtk_code_block_parent_class)->dispose (object);
}

static void
agent_gtk_code_block_finalize (GObject *object)
{
  AgentGtkCodeBlock *self = AGENT_GTK_CODE_BLOCK (object);

  g_free (self->language);
  g_free (self->text);

  G_OBJECT_CLASS (agent_gtk_code_block_parent_class)->finalize (object);
}

static void
agent_gtk_code_block_class_init (AgentGtkCodeBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_code_block_dispose;
  object_class->finalize = agent_gtk_code_block_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_code_block_init (AgentGtkCodeBlock *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  /* As a vertical GtkBox is */
  gtk_widget_add_css_class (GTK_WIDGET (self), "vertical");
}
