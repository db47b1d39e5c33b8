/* agent-gtk-markdown-view-pages.c
 *
 * The Markdown view's paging. A long answer is taller than the view: only
 * the chunks that can be seen (those within the scrolled window that shows
 * the message, with a margin; agent-gtk-markdown-page.c) are drawn, so
 * that a frame costs what is on screen, not the whole answer.
 * And the chunks are kept in pages (agent-gtk-markdown-page.c) of CHUNKS_PER_PAGE,
 * the pages in groups of PAGES_PER_GROUP: a change at the end of an answer of
 * 10,000 chunks makes GTK measure, allocate and restyle the last page and
 * the groups above it, not every chunk; new text that only extends the old
 * is cut into chunks from the start of its last chunk, not from the top.
 *
 * A long text set at once (an answer of a stored conversation opened, or a
 * first delta of 10,000 lines) is laid out as a stream would bring it:
 * the first page at once, then chunks at each frame for at most 6 ms of it
 * (on_build_tick()), so that the window answers the keyboard and the
 * pointer meanwhile; the text is cut once for all of them. Opened whole, a
 * stored answer of 10,000 lines was first drawn after 2 to 3 s, the window
 * frozen for a second of it.
 *
 * Each group holds its pages, then the next group: the view's one child is
 * the first group. A widget added to a parent makes GTK 4.8 restyle what its
 * siblings hold (their positions from the end change). The 157 pages of
 * 10,000 lines side by side made each new page cost its frame 12-30 ms, and
 * groups side by side did the same for each new group (bench-gui). In this
 * chain a new page or group has at most PAGES_PER_GROUP siblings, all of
 * them pages.
 *
 * Workaround, GTK 4.8 (not measured on newer GTK): the groups exist for
 * GTK 4.8's restyling of siblings. When the minimum moves, run bench-gui
 * --deltas 3000 with PAGES_PER_GROUP set very high (one group): if the
 * frames stay as short, the pages can be the view's children and the
 * groups go.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <string.h>

#include "agent-gtk-markdown-view-pages-private.h"
#include "markdown/agent-gtk-markdown-page-private.h"
#include "markdown/agent-gtk-markdown-parser-private.h"
#include "agent-trace-private.h"

/* Enough to keep a page's work small, few enough pages for a long answer:
 * 10,000 chunks make 157 pages */
#define CHUNKS_PER_PAGE 64
/* 10,000 chunks: 10 groups, one in the other, of up to 16 pages */
#define PAGES_PER_GROUP 16
/* The time a frame gives to making the pages of a long text, in µs, and
 * the chunks made between two looks at the clock (a chunk takes 0.2 to
 * 0.6 ms in a debug build) */
#define BUILD_BUDGET_US 6000
#define CHUNKS_PER_STEP 8

/* The chunks in pages, the pages in groups */

/* Chunks are only ever added at the end */
void
_agent_gtk_markdown_view_append_chunk (AgentGtkMarkdownView *self,
                                       Chunk                *chunk)
{
  guint n = self->chunks->len / CHUNKS_PER_PAGE;
  GtkWidget *page;

  if (n == self->pages->len)
    {
      guint g = n / PAGES_PER_GROUP;
      GtkWidget *group;

      /* A new group goes after the last group's pages, in it */
      if (g == self->groups->len)
        {
          GtkWidget *parent = g > 0 ? g_ptr_array_index (self->groups, g - 1) : GTK_WIDGET (self);

          group = _agent_gtk_markdown_page_new (g * PAGES_PER_GROUP * CHUNKS_PER_PAGE);
          gtk_widget_insert_before (group, parent, NULL);
          g_ptr_array_add (self->groups, group);
        }
      group = g_ptr_array_index (self->groups, g);
      page = _agent_gtk_markdown_page_new (n * CHUNKS_PER_PAGE);
      gtk_widget_insert_before (page, group, NULL);
      g_ptr_array_add (self->pages, page);
    }
  page = g_ptr_array_index (self->pages, n);
  gtk_widget_insert_before (chunk->widget, page, NULL);
  g_ptr_array_add (self->chunks, chunk);
}

void
_agent_gtk_markdown_view_truncate_chunks (AgentGtkMarkdownView *self,
                                          guint                 n_chunks)
{
  guint n_pages = (n_chunks + CHUNKS_PER_PAGE - 1) / CHUNKS_PER_PAGE;
  guint n_groups = (n_pages + PAGES_PER_GROUP - 1) / PAGES_PER_GROUP;

  /* The chunks of the pages that go, go with them
   * (_agent_gtk_markdown_page_remove()) */
  for (guint i = n_pages * CHUNKS_PER_PAGE; i < self->chunks->len; i++)
    ((Chunk *) g_ptr_array_index (self->chunks, i))->widget = NULL;
  if (self->chunks->len > n_chunks)
    g_ptr_array_set_size (self->chunks, n_chunks);
  while (self->pages->len > n_pages)
    _agent_gtk_markdown_page_remove (g_ptr_array_steal_index (self->pages, self->pages->len - 1));
  while (self->groups->len > n_groups)
    {
      GtkWidget *group = g_ptr_array_steal_index (self->groups, self->groups->len - 1);

      g_ptr_array_remove (self->drawn, group);
      _agent_gtk_markdown_page_remove (group);
    }
}

/* Laying a long text out a page at a time */

void
_agent_gtk_markdown_view_stop_building (AgentGtkMarkdownView *self)
{
  if (self->build_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->build_tick);
      self->build_tick = 0;
      g_clear_pointer (&self->pending_cuts, g_array_unref);
      _agent_gtk_markdown_view_notify_laying_out (self);
    }
}

/* Makes the chunks of the text from built_end on, at most @budget of
 * them; FALSE when the text is all made. The text is cut once, not at
 * each call: the cuts of the rest of a long text are most of a call's
 * cost */
static gboolean
build_pending (AgentGtkMarkdownView *self,
               guint                 budget)
{
  gsize length = strlen (self->text);
  gsize start = self->built_end;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  guint made = 0;

  if (self->pending_cuts == NULL)
    {
      self->pending_base = self->built_end;
      self->pending_cuts = _agent_gtk_markdown_split_chunks (self->text + self->pending_base,
                                                             &self->pending_fence);
      self->pending_next = 0;
    }

  for (; made < budget && self->pending_next <= self->pending_cuts->len; made++)
    {
      guint i = self->pending_next++;
      gsize end = i < self->pending_cuts->len ?
                  self->pending_base + g_array_index (self->pending_cuts, gsize, i) : length;

      _agent_gtk_markdown_view_add_chunk (self, g_strndup (self->text + start, end - start),
                                          start,
                                          self->pending_fence && i == self->pending_cuts->len);
      /* Its text shaped now, within the time given (the layout that
       * follows finds it measured): made but not measured, a chunk costs
       * four times as much again in the frame's layout */
      if (width > 0)
        gtk_widget_measure (((Chunk *) g_ptr_array_index (self->chunks,
                                                          self->chunks->len - 1))->widget,
                            GTK_ORIENTATION_VERTICAL, width, NULL, NULL, NULL, NULL);
      start = end;
    }
  self->built_end = start;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  if (self->pending_next <= self->pending_cuts->len)
    return TRUE;

  _agent_gtk_markdown_view_stop_building (self);
  return FALSE;
}

/* Chunks at each frame, a few at a time while they took less than
 * BUILD_BUDGET_US together: the frame still has its layout and its paint
 * to do */
static gboolean
on_build_tick (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);
  gint64 start = g_get_monotonic_time ();
  gint64 trace_begin = _agent_trace_begin ();
  G_GNUC_UNUSED guint n_chunks = self->chunks->len;
  gboolean more;

  do
    more = build_pending (self, CHUNKS_PER_STEP);
  while (more && g_get_monotonic_time () - start < BUILD_BUDGET_US);
  _agent_trace_end (trace_begin, "libagent-gtk", "markdown page",
                    "%u chunks, to byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT "%s",
                    self->chunks->len - n_chunks, self->built_end, strlen (self->text),
                    more ? "" : ", the last");
  /* build_pending() removed the tick at the end */
  return more ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* The rest of the text (from built_end, cut at pending_cuts) is made at
 * the next frames */
void
_agent_gtk_markdown_view_start_building (AgentGtkMarkdownView *self)
{
  self->build_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_build_tick, NULL, NULL);
  _agent_gtk_markdown_view_notify_laying_out (self);
}

/* _agent_gtk_markdown_view_flush:
 * @self: a #AgentGtkMarkdownView
 *
 * Makes now what a long text left for the next frames.
 */
void
_agent_gtk_markdown_view_flush (AgentGtkMarkdownView *self)
{
  g_return_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self));

  if (self->build_tick != 0)
    build_pending (self, G_MAXUINT);
}
