/* agent-gtk-markdown-page-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Between the chunks of a page, and between the pages of a view, in pixels */
#define AGENT_GTK_MARKDOWN_SPACING 12

#define AGENT_GTK_TYPE_MARKDOWN_PAGE (agent_gtk_markdown_page_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkMarkdownPage, agent_gtk_markdown_page, AGENT_GTK, MARKDOWN_PAGE,
                      GtkWidget)

GtkWidget *_agent_gtk_markdown_page_new            (guint                 first);
guint      _agent_gtk_markdown_page_get_drawn      (AgentGtkMarkdownPage *self,
                                                    guint                *last);
guint      _agent_gtk_markdown_pages_get_drawn     (GPtrArray            *pages,
                                                    guint                *last);
void       _agent_gtk_markdown_page_remove         (GtkWidget            *page);
void       _agent_gtk_markdown_snapshot_near_view  (GtkWidget            *widget,
                                                    GtkSnapshot          *snapshot,
                                                    GPtrArray            *drawn,
                                                    guint                *n_drawn,
                                                    guint                *last_drawn);

G_END_DECLS
