/* agent-gtk-table-block.c
 *
 * A table of an answer: a grid of labels, one line a cell, in a scrolled
 * window that scrolls sideways when the table is wider than the view
 * (agent-gtk-sideways.c): a wide table never widens the window. The
 * scrolled window is the card a screen reader finds ("Table", where Tab
 * stops to scroll it); the block around it keeps the table's shape, so
 * that a row streaming in cell by cell updates the labels in place.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "markdown/agent-gtk-sideways-private.h"
#include "markdown/agent-gtk-table-block-private.h"

struct _AgentGtkTableBlock
{
  GtkWidget  parent_instance;
  GtkWidget *scroller;
  GtkWidget *grid;       /* of labels, row by row */
  guint      n_cells;
  guint      n_columns;  /* at least 1 */
};

G_DEFINE_FINAL_TYPE (AgentGtkTableBlock, agent_gtk_table_block, GTK_TYPE_WIDGET)

/**
 * agent_gtk_table_block_new:
 * @block: a table (BLOCK_TABLE)
 * @on_activate_link: the handler of ::activate-link of the cells
 *
 * Returns: a table block showing @block
 */
GtkWidget *
agent_gtk_table_block_new (Block     *block,
                           GCallback  on_activate_link)
{
  AgentGtkTableBlock *self = g_object_new (AGENT_GTK_TYPE_TABLE_BLOCK, NULL);

  self->n_cells = block->cells->len;
  self->n_columns = MAX (block->n_columns, 1);
  self->scroller = gtk_scrolled_window_new ();
  self->grid = gtk_grid_new ();
  for (guint i = 0; i < self->n_cells; i++)
    {
      GtkWidget *cell = gtk_label_new (NULL);
      guint row = i / self->n_columns;
      int align = g_array_index (block->aligns, int, i % self->n_columns);

      /* One line a cell: a table wider than the view scrolls (a wrapped
       * cell would make the scrolled window as tall as at its narrowest) */
      gtk_label_set_xalign (GTK_LABEL (cell), align == 1 ? 0.5 : align == 2 ? 1.0 : 0.0);
      gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
      gtk_widget_set_focusable (cell, FALSE);
      gtk_widget_set_can_focus (cell, FALSE);
      gtk_widget_set_hexpand (cell, TRUE);
      gtk_widget_add_css_class (cell, "table-cell");
      if (row < block->n_header_rows)
        gtk_widget_add_css_class (cell, "heading");
      else if ((row - block->n_header_rows) % 2 == 1)
        gtk_widget_add_css_class (cell, "table-odd");
      g_signal_connect (cell, "activate-link", on_activate_link, NULL);
      gtk_grid_attach (GTK_GRID (self->grid), cell, i % self->n_columns, row, 1, 1);
    }
  agent_gtk_table_block_set_cells (self, block);
  gtk_widget_add_css_class (self->grid, "markdown-table");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->grid);
  _agent_gtk_sideways_init (GTK_SCROLLED_WINDOW (self->scroller));
  gtk_widget_add_css_class (self->scroller, "card");
  gtk_widget_add_css_class (self->scroller, "table-block");
  /* Tab stops there (to scroll a wide table): a screen reader names it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scroller),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Table"), -1);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/* Whether @block has as many cells and columns as the table shows: then
 * its labels can show it (a row streams in cell by cell) */
gboolean
agent_gtk_table_block_has_shape (AgentGtkTableBlock *self,
                                 Block              *block)
{
  g_return_val_if_fail (AGENT_GTK_IS_TABLE_BLOCK (self), FALSE);
  return block->cells->len == self->n_cells && MAX (block->n_columns, 1) == self->n_columns;
}

/* The cells' text, from @block (of the table's shape) */
void
agent_gtk_table_block_set_cells (AgentGtkTableBlock *self,
                                 Block              *block)
{
  g_return_if_fail (AGENT_GTK_IS_TABLE_BLOCK (self));
  g_return_if_fail (agent_gtk_table_block_has_shape (self, block));

  for (guint i = 0; i < self->n_cells; i++)
    {
      GtkWidget *cell = gtk_grid_get_child_at (GTK_GRID (self->grid), i % self->n_columns,
                                               i / self->n_columns);
      const char *markup = g_ptr_array_index (block->cells, i);

      if (_agent_gtk_markdown_markup_is_valid (markup))
        gtk_label_set_markup (GTK_LABEL (cell), markup);
      else
        gtk_label_set_text (GTK_LABEL (cell), g_ptr_array_index (block->plain_cells, i));
    }
}

static void
agent_gtk_table_block_dispose (GObject *object)
{
  AgentGtkTableBlock *self = AGENT_GTK_TABLE_BLOCK (object);

  self->grid = NULL;  /* the scrolled window's child */
  g_clear_pointer (&self->scroller, gtk_widget_unparent);

  G_OBJECT_CLASS (agent_gtk_table_block_parent_class)->dispose (object);
}

static void
agent_gtk_table_block_class_init (AgentGtkTableBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_table_block_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tableblock");
  /* As a GtkBox around the table would be */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_table_block_init (AgentGtkTableBlock *self)
{
}
