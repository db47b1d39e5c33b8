/* agent-test-scroll.h — the chat view as test-gui-scroll and
 * test-gui-history see it: waits for frames, where things are in the view,
 * and long answers and conversations to show in it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-test-chat.h"

G_BEGIN_DECLS

/* Runs the main loop until @predicate holds; fails after ten minutes */
void             wait_until        (gboolean       (*predicate) (gpointer),
                                    gpointer         data);

GtkWidget       *scroller_of       (AgentChatWindow *window);
GtkAdjustment   *vadjustment_of    (AgentChatWindow *window);
GtkWidget       *find_row          (AgentChatWindow *window,
                                    gpointer         item);
GtkRevealer     *jump_revealer_of  (AgentChatWindow *window);
gpointer         last_item         (AgentChatWindow *window);
graphene_rect_t  bounds_in_view    (AgentChatWindow *window,
                                    GtkWidget       *widget);
void             assert_in_view    (AgentChatWindow       *window,
                                    const graphene_rect_t *bounds);
char            *chunk_text        (GtkWidget       *chunk);
void             assert_end_shown  (AgentChatWindow *window,
                                    const char      *last_line,
                                    gboolean         done);

char            *line_of           (guint            n);
char            *long_answer       (guint            n_lines);
void             fill_conversation (AgentMemory     *memory,
                                    guint            n_messages);

G_END_DECLS
