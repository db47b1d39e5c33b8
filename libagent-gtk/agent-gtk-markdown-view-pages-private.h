/* agent-gtk-markdown-view-pages-private.h
 *
 * The Markdown view's insides, shared by agent-gtk-markdown-view.c (the
 * widget: its chunks and their blocks, set_text()) and
 * agent-gtk-markdown-view-pages.c (the chunks kept in pages and groups,
 * and a long text laid out a page at a time).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-markdown-view-private.h"

G_BEGIN_DECLS

typedef struct
{
  char      *source;
  gsize      offset;  /* of the source in the text */
  GtkWidget *widget;  /* NULL while its page stands in (far from the view) */
  gboolean   open;    /* it ends inside a code fence */
  gboolean   streaming; /* its last paragraph grows: made a paragraph streaming */
} Chunk;

struct _AgentGtkMarkdownView
{
  GtkWidget      parent_instance;
  char          *text;
  GPtrArray     *chunks;      /* of Chunk */
  GPtrArray     *pages;       /* of AgentGtkMarkdownPage, holding the chunks */
  GPtrArray     *groups;      /* of AgentGtkMarkdownPage, holding the pages and the next group */
  GPtrArray     *drawn;       /* the first group, if the last snapshot drew it */
  guint          n_renders;   /* chunks parsed so far, for tests and benchmarks */
  GtkAdjustment *scrolled;    /* the vertical adjustment of the view showing us */
  double         drawn_value; /* its value when we were last drawn */
  gsize          built_end;   /* while pending: where the chunks not made yet begin */
  GArray        *pending_cuts; /* while pending: the cuts of the text from pending_base */
  gsize          pending_base;
  guint          pending_next; /* the index in pending_cuts of the next chunk's end */
  gboolean       pending_fence; /* the text ends inside a code fence */
  guint          build_tick;  /* while pending: the tick that makes the next page */
  gboolean       all_cut;     /* while pending: the text is all in chunks, pages near the view to make */
  int            allocated_width;
  guint          page_tick;   /* while pages near the view stand in: the tick that makes them */
  double         row_height;  /* of a line of text, for the pages that stand in */
  double         char_width;
  double         measured_px; /* the pages made so far: their height without spacing, */
  double         measured_rows; /* and the rows their estimate gave them */
  gint64         chunk_cost;  /* µs: what a chunk of the last page made took, made and measured */
  gboolean       streaming;   /* the last paragraph grows: agent-gtk-stream-paragraph.c */
};

/* agent-gtk-markdown-view.c */
GtkWidget *_agent_gtk_markdown_chunk_widget_new  (const char           *source,
                                                  gboolean              open,
                                                  gboolean              streaming);
void _agent_gtk_markdown_view_add_chunk          (AgentGtkMarkdownView *self,
                                                  char                 *source,
                                                  gsize                 offset,
                                                  gboolean              open,
                                                  gboolean              streaming);
void _agent_gtk_markdown_view_notify_laying_out  (AgentGtkMarkdownView *self);

/* agent-gtk-markdown-view-pages.c */
void _agent_gtk_markdown_view_append_chunk       (AgentGtkMarkdownView *self,
                                                  Chunk                *chunk);
void _agent_gtk_markdown_view_truncate_chunks    (AgentGtkMarkdownView *self,
                                                  guint                 n_chunks);
void _agent_gtk_markdown_view_start_building     (AgentGtkMarkdownView *self);
void _agent_gtk_markdown_view_stop_building      (AgentGtkMarkdownView *self);
void _agent_gtk_markdown_view_chunk_changed      (AgentGtkMarkdownView *self,
                                                  guint                 index);
void _agent_gtk_markdown_view_make_chunk         (AgentGtkMarkdownView *self,
                                                  guint                 index);
void _agent_gtk_markdown_view_follow_view        (AgentGtkMarkdownView *self);
void _agent_gtk_markdown_view_stop_following     (AgentGtkMarkdownView *self);

G_END_DECLS
