/* agent-gtk-message-row-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-gtk-markdown-view.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_MESSAGE_ROW (agent_gtk_message_row_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkMessageRow, agent_gtk_message_row, AGENT_GTK, MESSAGE_ROW, GtkWidget)

GtkWidget            *agent_gtk_message_row_new            (void);
GObject              *agent_gtk_message_row_get_item       (AgentGtkMessageRow *self);
void                  agent_gtk_message_row_set_item       (AgentGtkMessageRow *self,
                                                            GObject            *item);
AgentGtkMarkdownView *agent_gtk_message_row_get_markdown   (AgentGtkMessageRow *self);
GtkWidget            *agent_gtk_message_row_get_cards      (AgentGtkMessageRow *self);
void                  agent_gtk_message_row_flush          (AgentGtkMessageRow *self);
void                  agent_gtk_message_row_set_progress   (AgentGtkMessageRow *self,
                                                            const char         *title,
                                                            const char         *detail);
void                  agent_gtk_message_row_set_turn_error (AgentGtkMessageRow *self,
                                                            const GError       *error);
void                  agent_gtk_message_row_set_editing    (AgentGtkMessageRow *self,
                                                            gboolean            editing);
void                  agent_gtk_message_row_set_siblings   (AgentGtkMessageRow *self,
                                                            guint               index,
                                                            guint               n_siblings,
                                                            gboolean            can_switch);
GtkWidget            *agent_gtk_message_row_get_branch_switcher (AgentGtkMessageRow *self);
void                  agent_gtk_message_row_set_failed_turn (AgentGtkMessageRow *self,
                                                             const GError       *error);

G_END_DECLS
