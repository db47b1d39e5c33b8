/* agent-gtk-code-block-private.h
 *
 * A code block of an answer: its language and a Copy button over its text,
 * which scrolls sideways.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_CODE_BLOCK (agent_gtk_code_block_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkCodeBlock, agent_gtk_code_block, AGENT_GTK, CODE_BLOCK, GtkWidget)

GtkWidget  *agent_gtk_code_block_new          (const char        *text,
                                               const char        *language,
                                               gboolean           open);
const char *agent_gtk_code_block_get_language (AgentGtkCodeBlock *self);
void        agent_gtk_code_block_set_text     (AgentGtkCodeBlock *self,
                                               const char        *text,
                                               gboolean           open);

G_END_DECLS
