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
 * the first chunks at once, then the rest cut into chunks at each frame
 * for at most 3 ms of it, and the pages near the view made at the next
 * frames for at most 6 ms of each (on_build_tick()), so that the window
 * answers the keyboard and the pointer meanwhile; the text is cut once for
 * all of them. Opened whole, a stored answer of 10,000 lines was first
 * drawn after 2 to 3 s, the window frozen for a second of it. The frame
 * does more than what the budgets count: GTK styles and measures what a
 * tick added, then paints it (6 to 10 ms for a window of new text, under
 * Xvfb). A page is begun only while it fits, so a fast scroll through a
 * long answer makes one page a frame where it made two and overran.
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
 * 10,000 chunks make 157 pages. A page of 64 one-line paragraphs takes
 * ~5 ms to make and measure in a release build (of 32: 2.5 to 4.5 ms, and
 * no shorter stall in bench-reopen) */
#define CHUNKS_PER_PAGE 64
/* 10,000 chunks: 10 groups, one in the other, of up to 16 pages */
#define PAGES_PER_GROUP 16
/* The time a frame gives to making the pages of a long text, in µs; the
 * time it gives to cutting it into chunks (each new page stands in, a
 * widget GTK styles in the same frame: 3 ms of cutting, 6,000 to 8,000
 * chunks, cost the frame 2 to 5 ms more); and the chunks made between two
 * looks at the clock (a chunk takes 0.2 to 0.6 ms in a debug build) */
#define BUILD_BUDGET_US 6000
#define CUT_BUDGET_US 3000
#define CHUNKS_PER_STEP 8

/* Pages that stand in
 *
 * A page far from the view holds no widgets but a stand-in as tall as its
 * text would be (estimated from its lines and characters at the view's
 * width, and the height of the rows of the pages measured so far): the
 * widgets of a chunk and their Pango layouts are most of what an answer
 * costs: 10,000 lines held ~170 MB more and took seconds to lay out. */

#define AGENT_GTK_TYPE_MARKDOWN_STAND_IN (agent_gtk_markdown_stand_in_get_type ())
G_DECLARE_FINAL_TYPE (AgentGtkMarkdownStandIn, agent_gtk_markdown_stand_in, AGENT_GTK,
                      MARKDOWN_STAND_IN, GtkWidget)

struct _AgentGtkMarkdownStandIn
{
  GtkWidget parent_instance;
  guint     n_chunks;
  guint     n_lines;  /* that are not blank */
  gsize     n_chars;
};

G_DEFINE_FINAL_TYPE (AgentGtkMarkdownStandIn, agent_gtk_markdown_stand_in, GTK_TYPE_WIDGET)

/* The rows a text of @n_lines lines and @n_chars characters takes at @width */
static double
estimate_rows (AgentGtkMarkdownView *self,
               guint                 n_lines,
               gsize                 n_chars,
               int                   width)
{
  if (self->row_height == 0)
    {
      static const char sample[] = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ 0123456789";
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), sample);
      int w, h;

      pango_layout_get_pixel_size (layout, &w, &h);
      self->char_width = MAX (w, 1) / (double) (sizeof sample - 1);
      self->row_height = MAX (h, 1);
    }
  return MAX ((double) n_lines, n_chars * self->char_width / MAX (width, 1));
}

/* The height a stand-in gives its page at @width */
static int
estimate_height (AgentGtkMarkdownView    *self,
                 AgentGtkMarkdownStandIn *stand_in,
                 int                      width)
{
  double rows = estimate_rows (self, stand_in->n_lines, stand_in->n_chars, width);
  double row = self->measured_rows > 0 ? self->measured_px / self->measured_rows : self->row_height;

  return (int) (rows * row) + AGENT_GTK_MARKDOWN_SPACING * (MAX (stand_in->n_chunks, 1) - 1);
}

static GtkSizeRequestMode
agent_gtk_markdown_stand_in_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
agent_gtk_markdown_stand_in_measure (GtkWidget      *widget,
                                     GtkOrientation  orientation,
                                     int             for_size,
                                     int            *minimum,
                                     int            *natural,
                                     int            *minimum_baseline,
                                     int            *natural_baseline)
{
  GtkWidget *view = gtk_widget_get_ancestor (widget, AGENT_GTK_TYPE_MARKDOWN_VIEW);

  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_VERTICAL && view != NULL)
    *minimum = *natural = estimate_height (AGENT_GTK_MARKDOWN_VIEW (view),
                                           AGENT_GTK_MARKDOWN_STAND_IN (widget),
                                           for_size >= 0 ? for_size : gtk_widget_get_width (view));
}

static void
agent_gtk_markdown_stand_in_class_init (AgentGtkMarkdownStandInClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->get_request_mode = agent_gtk_markdown_stand_in_get_request_mode;
  widget_class->measure = agent_gtk_markdown_stand_in_measure;
}

static void
agent_gtk_markdown_stand_in_init (AgentGtkMarkdownStandIn *self)
{
}

static GtkWidget *
page_stand_in (GtkWidget *page)
{
  GtkWidget *child = gtk_widget_get_first_child (page);

  return AGENT_GTK_IS_MARKDOWN_STAND_IN (child) ? child : NULL;
}

/* The chunks of page @n: from *first to *end */
static void
page_chunks (AgentGtkMarkdownView *self,
             guint                 n,
             guint                *first,
             guint                *end)
{
  *first = n * CHUNKS_PER_PAGE;
  *end = MIN (*first + CHUNKS_PER_PAGE, self->chunks->len);
}

static guint
count_lines (const char *source)
{
  guint n_lines = 0;

  for (const char *line = source; *line != '\0';)
    {
      const char *eol = strchr (line, '\n');
      gsize length = eol != NULL ? (gsize) (eol - line) : strlen (line);

      if (length > 0)
        n_lines++;
      line += length + (eol != NULL);
    }
  return n_lines;
}

static void
stand_in_add (AgentGtkMarkdownStandIn *stand_in,
              Chunk                   *chunk)
{
  stand_in->n_chunks++;
  stand_in->n_lines += count_lines (chunk->source);
  stand_in->n_chars += strlen (chunk->source);
  gtk_widget_queue_resize (GTK_WIDGET (stand_in));
}

/* Screen readers read the text of a page that stands in: its widgets are
 * not there to read */
static void
stand_in_describe (AgentGtkMarkdownView *self,
                   guint                 n)
{
  GtkWidget *stand_in = page_stand_in (g_ptr_array_index (self->pages, n));
  g_autoptr(GString) text = g_string_new (NULL);
  guint first, end;

  page_chunks (self, n, &first, &end);
  for (guint i = first; i < end; i++)
    g_string_append (text, ((Chunk *) g_ptr_array_index (self->chunks, i))->source);
  gtk_accessible_update_property (GTK_ACCESSIBLE (stand_in), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
}

/* Counts the lines of page @n's text again */
static void
stand_in_update (AgentGtkMarkdownView *self,
                 guint                 n)
{
  AgentGtkMarkdownStandIn *stand_in = AGENT_GTK_MARKDOWN_STAND_IN (page_stand_in (g_ptr_array_index (self->pages, n)));
  guint first, end;

  stand_in->n_chunks = stand_in->n_lines = 0;
  stand_in->n_chars = 0;
  page_chunks (self, n, &first, &end);
  for (guint i = first; i < end; i++)
    stand_in_add (stand_in, g_ptr_array_index (self->chunks, i));
  stand_in_describe (self, n);
}

static gboolean
page_is_made (GtkWidget *page)
{
  return page_stand_in (page) == NULL;
}

/* Makes the widgets of page @n's chunks, in place of its stand-in */
static void
make_page (AgentGtkMarkdownView *self,
           guint                 n)
{
  GtkWidget *page = g_ptr_array_index (self->pages, n);
  guint first, end;

  gtk_widget_unparent (page_stand_in (page));
  page_chunks (self, n, &first, &end);
  for (guint i = first; i < end; i++)
    {
      Chunk *chunk = g_ptr_array_index (self->chunks, i);

      chunk->widget = _agent_gtk_markdown_chunk_widget_new (chunk->source, chunk->open, FALSE);
      gtk_widget_insert_before (chunk->widget, page, NULL);
    }
}

/* Takes the widgets of page @n away (freed later, a few at a time) and
 * puts a stand-in in their place */
static void
release_page (AgentGtkMarkdownView *self,
              guint                 n)
{
  GtkWidget *page = g_ptr_array_index (self->pages, n);
  GtkWidget *removed = g_object_ref_sink (_agent_gtk_markdown_page_new (0));
  guint first, end;

  page_chunks (self, n, &first, &end);
  for (guint i = first; i < end; i++)
    {
      Chunk *chunk = g_ptr_array_index (self->chunks, i);
      GtkWidget *widget = g_steal_pointer (&chunk->widget);

      g_object_ref (widget);
      gtk_widget_unparent (widget);
      gtk_widget_insert_before (widget, removed, NULL);
      g_object_unref (widget);
    }
  _agent_gtk_markdown_page_remove (removed);
  g_object_unref (removed);
  gtk_widget_insert_before (g_object_new (AGENT_GTK_TYPE_MARKDOWN_STAND_IN, NULL), page, NULL);
  stand_in_update (self, n);
}

/* The chunks in pages, the pages in groups */

/* Chunks are only ever added at the end. A new page stands in while a long
 * text is laid out; streaming, it is made (the stream is followed there,
 * and the last page is never released). */
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
      if (n > 0 && self->build_tick != 0)
        gtk_widget_insert_before (g_object_new (AGENT_GTK_TYPE_MARKDOWN_STAND_IN, NULL), page, NULL);
      gtk_widget_insert_before (page, group, NULL);
      g_ptr_array_add (self->pages, page);
    }
  page = g_ptr_array_index (self->pages, n);
  g_ptr_array_add (self->chunks, chunk);
  if (page_is_made (page))
    {
      chunk->widget = _agent_gtk_markdown_chunk_widget_new (chunk->source, chunk->open,
                                                            chunk->streaming);
      gtk_widget_insert_before (chunk->widget, page, NULL);
    }
  else
    {
      stand_in_add (AGENT_GTK_MARKDOWN_STAND_IN (page_stand_in (page)), chunk);
      /* Said to screen readers once the text is all laid out */
      if (self->build_tick == 0)
        stand_in_describe (self, n);
    }
}

/* The text of chunk @index changed, its page standing in */
void
_agent_gtk_markdown_view_chunk_changed (AgentGtkMarkdownView *self,
                                        guint                 index)
{
  stand_in_update (self, index / CHUNKS_PER_PAGE);
}

/* Makes the page of chunk @index if it stands in */
void
_agent_gtk_markdown_view_make_chunk (AgentGtkMarkdownView *self,
                                     guint                 index)
{
  guint n = index / CHUNKS_PER_PAGE;

  if (!page_is_made (g_ptr_array_index (self->pages, n)))
    make_page (self, n);
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
  /* The last page kept may have lost chunks */
  if (n_pages > 0 && !page_is_made (g_ptr_array_index (self->pages, n_pages - 1)))
    stand_in_update (self, n_pages - 1);
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

/* Cuts the text from built_end on into chunks, at most @budget of them;
 * FALSE when the text is all cut. The text is cut once, not at each call:
 * the cuts of the rest of a long text are most of a call's cost. Pages
 * made (the first) get the chunks' widgets; the others stand in. */
static gboolean
build_pending (AgentGtkMarkdownView *self,
               guint                 budget)
{
  gsize start = self->built_end;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  guint made = 0;

  if (self->all_cut)
    return FALSE;
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
      /* The last chunk ends with the text (measured then, not at each
       * call: a call makes CHUNKS_PER_STEP chunks, and the strlen() of a
       * 10,000-line text at each was most of the cut's time) */
      gsize end = i < self->pending_cuts->len ?
                  self->pending_base + g_array_index (self->pending_cuts, gsize, i) :
                  start + strlen (self->text + start);
      Chunk *chunk;

      _agent_gtk_markdown_view_add_chunk (self, g_strndup (self->text + start, end - start),
                                          start,
                                          self->pending_fence && i == self->pending_cuts->len,
                                          FALSE);
      /* Its text shaped now, within the time given (the layout that
       * follows finds it measured): made but not measured, a chunk costs
       * four times as much again in the frame's layout */
      chunk = g_ptr_array_index (self->chunks, self->chunks->len - 1);
      if (width > 0 && chunk->widget != NULL)
        gtk_widget_measure (chunk->widget, GTK_ORIENTATION_VERTICAL, width, NULL, NULL, NULL, NULL);
      start = end;
    }
  self->built_end = start;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  if (self->pending_next <= self->pending_cuts->len)
    return TRUE;

  self->all_cut = TRUE;
  g_clear_pointer (&self->pending_cuts, g_array_unref);
  for (guint n = 0; n < self->pages->len; n++)
    if (!page_is_made (g_ptr_array_index (self->pages, n)))
      stand_in_describe (self, n);
  return FALSE;
}

/* Pages near the view */

/* How far from the view pages are made, and how far they stay made, in
 * heights of the view */
#define NEAR_VIEWS 1
#define KEEP_VIEWS 3

static gboolean
page_bounds (AgentGtkMarkdownView *self,
             GtkWidget            *page,
             graphene_rect_t      *bounds)
{
  /* A page added since the last layout has no place yet */
  return gtk_widget_get_width (page) > 0 &&
         gtk_widget_compute_bounds (page, GTK_WIDGET (self), bounds);
}

/* Moves the view by @delta: a page above it was made, its height not the
 * one it stood in with, and what the user reads must not move */
static void
keep_in_place (AgentGtkMarkdownView *self,
               double                delta)
{
  double value;

  if (self->scrolled == NULL || delta == 0)
    return;
  value = gtk_adjustment_get_value (self->scrolled);
  /* At the end, the end is what is read: whoever follows it (the chat
   * view) keeps it in view */
  if (value + gtk_adjustment_get_page_size (self->scrolled) >=
      gtk_adjustment_get_upper (self->scrolled) - 1)
    return;
  if (delta > 0)
    gtk_adjustment_set_upper (self->scrolled, gtk_adjustment_get_upper (self->scrolled) + delta);
  gtk_adjustment_set_value (self->scrolled, value + delta);
}

/* Whether page @n can be made before @until, @made made already: one at
 * least (or a frame would make none when a page takes longer than the
 * time given), and others while their chunks' cost, at the last page's
 * rate, fits */
static gboolean
may_make_page (AgentGtkMarkdownView *self,
               guint                 n,
               gint64                until,
               guint                 made)
{
  gint64 now = g_get_monotonic_time ();
  guint first, end;

  page_chunks (self, n, &first, &end);
  return now < until && (made == 0 || now + self->chunk_cost * (end - first) <= until);
}

/* Makes page @n and lays it out at @width; returns how much taller it is
 * than its stand-in was. Its rows tell the height of those that stand in. */
static int
make_page_measured (AgentGtkMarkdownView *self,
                    guint                 n,
                    int                   width)
{
  GtkWidget *page = g_ptr_array_index (self->pages, n);
  gint64 begin = g_get_monotonic_time ();
  guint first, end, n_lines = 0;
  gsize n_chars = 0;
  int before, after;

  gtk_widget_measure (page, GTK_ORIENTATION_VERTICAL, width, &before, NULL, NULL, NULL);
  make_page (self, n);
  /* Laid out now, within the time given: the frame's layout finds it
   * measured */
  gtk_widget_measure (page, GTK_ORIENTATION_VERTICAL, width, &after, NULL, NULL, NULL);
  page_chunks (self, n, &first, &end);
  for (guint i = first; i < end; i++)
    {
      const char *source = ((Chunk *) g_ptr_array_index (self->chunks, i))->source;

      n_lines += count_lines (source);
      n_chars += strlen (source);
    }
  self->measured_rows += estimate_rows (self, n_lines, n_chars, width);
  self->measured_px += after - AGENT_GTK_MARKDOWN_SPACING * (MAX (end - first, 1) - 1);
  self->chunk_cost = (g_get_monotonic_time () - begin) / MAX (end - first, 1);
  return after - before;
}

/* Makes the pages near the view, until @until (monotonic time), and
 * releases those far from it; FALSE once all near it are made */
static gboolean
update_near_view (AgentGtkMarkdownView *self,
                  gint64                until)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  graphene_rect_t visible, near, keep, bounds;
  gboolean more = FALSE;
  double delta = 0;
  guint low = 0, high, made = 0;

  if (width <= 0 || self->pages->len == 0)
    return width <= 0 && self->pages->len > 0 && gtk_widget_get_mapped (GTK_WIDGET (self));
  if (view == NULL || !gtk_widget_compute_bounds (view, GTK_WIDGET (self), &visible))
    graphene_rect_init (&visible, 0, 0, width, G_MAXFLOAT / 4);
  /* Placed where the view was at the last frame: it may have moved since */
  else if (self->scrolled != NULL)
    visible.origin.y += gtk_adjustment_get_value (self->scrolled) - self->drawn_value;
  graphene_rect_inset_r (&visible, 0, -visible.size.height * NEAR_VIEWS, &near);
  graphene_rect_inset_r (&visible, 0, -visible.size.height * KEEP_VIEWS, &keep);

  /* The first page whose end is below the top of what is near: pages go
   * down the view, the last ones perhaps not placed yet */
  high = self->pages->len;
  while (low < high)
    {
      guint mid = (low + high) / 2;

      if (page_bounds (self, g_ptr_array_index (self->pages, mid), &bounds) &&
          bounds.origin.y + bounds.size.height < near.origin.y)
        low = mid + 1;
      else
        high = mid;
    }

  /* The last page first, always made: the stream goes on there, and the
   * view is taken to the end at once (Jump to Bottom). Then what is in
   * view, then what is near it. */
  if (!page_is_made (g_ptr_array_index (self->pages, self->pages->len - 1)))
    {
      make_page_measured (self, self->pages->len - 1, width);
      made++;
    }

  for (guint pass = 0; pass < 2 && !more; pass++)
    {
      const graphene_rect_t *area = pass == 0 ? &visible : &near;

      for (guint n = low; n < self->pages->len; n++)
        {
          GtkWidget *page = g_ptr_array_index (self->pages, n);
          int change;

          if (!page_bounds (self, page, &bounds))
            {
              more = TRUE;
              break;
            }
          if (bounds.origin.y > area->origin.y + area->size.height)
            break;
          if (page_is_made (page) || bounds.origin.y + bounds.size.height < area->origin.y)
            continue;
          if (!may_make_page (self, n, until, made))
            {
              more = TRUE;
              break;
            }
          change = make_page_measured (self, n, width);
          made++;
          if (bounds.origin.y + bounds.size.height <= visible.origin.y)
            delta += change;
        }
    }

  /* Far from the view, a page's widgets go (not the last one's) */
  for (guint n = 0; n + 1 < self->pages->len; n++)
    {
      GtkWidget *page = g_ptr_array_index (self->pages, n);

      if (page_is_made (page) && page_bounds (self, page, &bounds) &&
          !graphene_rect_intersection (&bounds, &keep, NULL))
        release_page (self, n);
    }

  keep_in_place (self, delta);
  return more;
}

static gboolean
on_page_tick (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);

  if (update_near_view (self, g_get_monotonic_time () + BUILD_BUDGET_US))
    return G_SOURCE_CONTINUE;
  self->page_tick = 0;
  return G_SOURCE_REMOVE;
}

/* The view moved, or the text or the width changed: the pages near the
 * view are made at the next frame */
void
_agent_gtk_markdown_view_follow_view (AgentGtkMarkdownView *self)
{
  if (self->page_tick == 0 && self->build_tick == 0 && self->pages->len > 1)
    self->page_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_page_tick, NULL, NULL);
}

void
_agent_gtk_markdown_view_stop_following (AgentGtkMarkdownView *self)
{
  if (self->page_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->page_tick);
      self->page_tick = 0;
    }
}

/* One frame's making, the frame's tick begun at @start: the rest of the
 * text cut into chunks, or the pages near the view. TRUE while there is
 * more. */
static gboolean
build_step (AgentGtkMarkdownView *self,
            gint64                start)
{
  if (!self->all_cut)
    {
      while (build_pending (self, CHUNKS_PER_STEP))
        if (g_get_monotonic_time () >= start + CUT_BUDGET_US)
          return TRUE;
      /* The pages at the next frame: GTK styles and measures what the cut
       * added (a page standing in for each CHUNKS_PER_PAGE) in this one */
      return TRUE;
    }
  return update_near_view (self, start + BUILD_BUDGET_US);
}

/* The text cut at each frame, a few chunks at a time while they took less
 * than CUT_BUDGET_US together (the frame still has its layout and its
 * paint to do), then the pages near the view made, BUILD_BUDGET_US a
 * frame */
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

  more = build_step (self, start);
  _agent_trace_end (trace_begin, "libagent-gtk", "markdown page",
                    "%u chunks, to byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT "%s",
                    self->chunks->len - n_chunks, self->built_end, strlen (self->text),
                    more ? "" : ", the last");
  if (more)
    return G_SOURCE_CONTINUE;
  self->build_tick = 0;
  _agent_gtk_markdown_view_notify_laying_out (self);
  return G_SOURCE_REMOVE;
}

/* The rest of the text (from built_end, cut at pending_cuts) is made at
 * the next frames */
void
_agent_gtk_markdown_view_start_building (AgentGtkMarkdownView *self)
{
  _agent_gtk_markdown_view_stop_following (self);
  self->all_cut = FALSE;
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
    {
      build_pending (self, G_MAXUINT);
      _agent_gtk_markdown_view_stop_building (self);
      _agent_gtk_markdown_view_follow_view (self);
    }
}

/* _agent_gtk_markdown_view_get_making_pages:
 * @self: a #AgentGtkMarkdownView
 *
 * Returns: whether pages near the view are still to be made (or the view
 *   to be looked at again, the next frame)
 */
gboolean
_agent_gtk_markdown_view_get_making_pages (AgentGtkMarkdownView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), FALSE);
  return self->build_tick != 0 || self->page_tick != 0;
}
