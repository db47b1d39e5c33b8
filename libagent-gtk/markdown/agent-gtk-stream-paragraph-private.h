/* agent-gtk-stream-paragraph-private.h
 *
 * The last paragraph of an answer while it streams: drawn from a
 * PangoLayout of its own, resized only when it gains or loses a line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_STREAM_PARAGRAPH (agent_gtk_stream_paragraph_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkStreamParagraph, agent_gtk_stream_paragraph, AGENT_GTK,
                      STREAM_PARAGRAPH, GtkWidget)

GtkWidget  *agent_gtk_stream_paragraph_new        (void);
void        agent_gtk_stream_paragraph_set_markup (AgentGtkStreamParagraph *self,
                                                   const char              *markup,
                                                   const char              *plain);
const char *agent_gtk_stream_paragraph_get_markup (AgentGtkStreamParagraph *self);
const char *agent_gtk_stream_paragraph_get_plain  (AgentGtkStreamParagraph *self);
guint       agent_gtk_stream_paragraph_get_n_resizes (AgentGtkStreamParagraph *self);
guint       agent_gtk_stream_paragraph_get_n_settled_lines (AgentGtkStreamParagraph *self,
                                                            guint                   *n_settles,
                                                            guint                   *n_unsettles);

G_END_DECLS
