/* agent-gtk-code-private.h
 *
 * The text of a code block, highlighted (agent-gtk-code.c says how).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_CODE (agent_gtk_code_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkCode, agent_gtk_code, AGENT_GTK, CODE, GtkWidget)

GtkWidget  *_agent_gtk_code_new          (void);
void        _agent_gtk_code_set_text     (GtkWidget  *code,
                                          const char *text,
                                          const char *language,
                                          gboolean    open);
const char *_agent_gtk_code_get_language (GtkWidget  *code);
void        _agent_gtk_code_prepare      (GtkWidget  *widget);

G_END_DECLS
