/* agent-gtk-markdown-view.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_MARKDOWN_VIEW (agent_gtk_markdown_view_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkMarkdownView, agent_gtk_markdown_view, AGENT_GTK, MARKDOWN_VIEW,
                      GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget  *agent_gtk_markdown_view_new      (void);
AGENT_GTK_AVAILABLE_IN_ALL
const char *agent_gtk_markdown_view_get_text (AgentGtkMarkdownView *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_markdown_view_set_text (AgentGtkMarkdownView *self,
                                              const char           *text);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean    agent_gtk_markdown_view_get_laying_out (AgentGtkMarkdownView *self);

G_END_DECLS
