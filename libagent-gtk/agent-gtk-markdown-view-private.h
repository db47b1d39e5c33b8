/* agent-gtk-markdown-view-private.h — what tests and benchmarks look at
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-markdown-view.h"

G_BEGIN_DECLS

guint      _agent_gtk_markdown_view_get_n_renders (AgentGtkMarkdownView *self);
void       _agent_gtk_markdown_view_flush         (AgentGtkMarkdownView *self);
guint      _agent_gtk_markdown_view_get_n_drawn   (AgentGtkMarkdownView *self,
                                                   guint                *last);
guint      _agent_gtk_markdown_view_get_n_chunks  (AgentGtkMarkdownView *self);
GtkWidget *_agent_gtk_markdown_view_get_chunk     (AgentGtkMarkdownView *self,
                                                   guint                 position);
gboolean   _agent_gtk_markdown_view_get_making_pages (AgentGtkMarkdownView *self);
char      *_agent_gtk_markdown_to_pango_markup    (const char           *text);
void       _agent_gtk_markdown_view_set_streaming (AgentGtkMarkdownView *self,
                                                   gboolean              streaming);

G_END_DECLS
