/* agent-gtk-table-block-private.h
 *
 * A table of an answer: a grid of labels, which scrolls sideways.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "markdown/agent-gtk-markdown-parser-private.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_TABLE_BLOCK (agent_gtk_table_block_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkTableBlock, agent_gtk_table_block, AGENT_GTK, TABLE_BLOCK, GtkWidget)

GtkWidget *agent_gtk_table_block_new       (Block              *block,
                                            GCallback           on_activate_link);
gboolean   agent_gtk_table_block_has_shape (AgentGtkTableBlock *self,
                                            Block              *block);
void       agent_gtk_table_block_set_cells (AgentGtkTableBlock *self,
                                            Block              *block);

G_END_DECLS
