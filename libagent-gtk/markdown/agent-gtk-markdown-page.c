/* agent-gtk-markdown-page.c
 *
 * A page of a Markdown view: a run of its chunks in a vertical box
 * (agent-gtk-markdown-view.c says why they are kept in pages), or a group
 * of pages: a page's children are chunks or pages. All draw only the
 * children near the view that shows them, so that a frame costs what is on
 * screen, not the whole answer.
 *
 * A page taken out of its view is freed later, a few at a time: a
 * 10,000-line answer's 157 pages hold 10,000 widgets, and freeing them all
 * at once (leaving its conversation, say) held up the next conversation's
 * first frame by a third of a second.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "markdown/agent-gtk-markdown-page-private.h"

struct _AgentGtkMarkdownPage
{
  GtkWidget parent_instance;
  guint     first;       /* the position of its first chunk */
  GPtrArray *drawn;      /* a group: the pages its last snapshot drew */
  guint     n_drawn;     /* children drawn by its last snapshot */
  guint     last_drawn;  /* the position of the last of them */
};

G_DEFINE_FINAL_TYPE (AgentGtkMarkdownPage, agent_gtk_markdown_page, GTK_TYPE_WIDGET)

/* How far beyond the view children are still drawn, in pixels */
#define DRAW_MARGIN 256

/* Time spent freeing removed pages in one go, in µs */
#define FREE_SLICE_USEC 4000

/**
 * _agent_gtk_markdown_snapshot_near_view:
 * @widget: a Markdown view, or one of its pages
 * @snapshot: where to draw
 * @drawn: (nullable): where to add the children drawn
 * @n_drawn: (out): how many were drawn
 * @last_drawn: (out): the position of the last drawn
 *
 * Draws the children of @widget that are near the view showing it.
 */
void
_agent_gtk_markdown_snapshot_near_view (GtkWidget   *widget,
                                        GtkSnapshot *snapshot,
                                        GPtrArray   *drawn,
                                        guint       *n_drawn,
                                        guint       *last_drawn)
{
  GtkWidget *view = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t visible;
  gboolean cull = view != NULL && gtk_widget_compute_bounds (view, widget, &visible);
  guint position = 0;

  if (cull)
    graphene_rect_inset (&visible, 0, -DRAW_MARGIN);

  *n_drawn = 0;
  *last_drawn = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child), position++)
    {
      graphene_rect_t bounds;

      if (cull && gtk_widget_compute_bounds (child, widget, &bounds) &&
          !graphene_rect_intersection (&bounds, &visible, NULL))
        {
          /* They go down the page: past the view, none is left to draw */
          if (bounds.origin.y >= visible.origin.y + visible.size.height)
            break;
          continue;
        }
      gtk_widget_snapshot_child (widget, child, snapshot);
      if (drawn != NULL)
        g_ptr_array_add (drawn, child);
      (*n_drawn)++;
      *last_drawn = position;
    }
}

/* A group: its children are pages (a group keeps at least one) */
static gboolean
holds_pages (AgentGtkMarkdownPage *self)
{
  return AGENT_GTK_IS_MARKDOWN_PAGE (gtk_widget_get_first_child (GTK_WIDGET (self)));
}

static void
agent_gtk_markdown_page_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  AgentGtkMarkdownPage *self = AGENT_GTK_MARKDOWN_PAGE (widget);

  g_ptr_array_set_size (self->drawn, 0);
  _agent_gtk_markdown_snapshot_near_view (widget, snapshot, self->drawn, &self->n_drawn,
                                          &self->last_drawn);
  self->last_drawn += self->first;
  /* Only pages are kept: a chunk can go before the next snapshot (a page
   * taken out tells its group, _agent_gtk_markdown_page_remove()) */
  if (!holds_pages (self))
    g_ptr_array_set_size (self->drawn, 0);
}

static void
agent_gtk_markdown_page_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&AGENT_GTK_MARKDOWN_PAGE (object)->drawn, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_gtk_markdown_page_parent_class)->dispose (object);
}

static void
agent_gtk_markdown_page_class_init (AgentGtkMarkdownPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_markdown_page_dispose;
  widget_class->snapshot = agent_gtk_markdown_page_snapshot;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
agent_gtk_markdown_page_init (AgentGtkMarkdownPage *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), AGENT_GTK_MARKDOWN_SPACING);
  self->drawn = g_ptr_array_new ();
}

/**
 * _agent_gtk_markdown_page_new:
 * @first: the position of its first chunk in the view
 *
 * Returns: (transfer floating): a new page
 */
GtkWidget *
_agent_gtk_markdown_page_new (guint first)
{
  AgentGtkMarkdownPage *self = g_object_new (AGENT_GTK_TYPE_MARKDOWN_PAGE, NULL);

  self->first = first;
  return GTK_WIDGET (self);
}

/**
 * _agent_gtk_markdown_pages_get_drawn:
 * @pages: (element-type AgentGtkMarkdownPage): pages or groups drawn
 * @last: (out): the view's position of the last chunk they drew, if any
 *
 * Returns: how many chunks the last snapshots of @pages drew
 */
guint
_agent_gtk_markdown_pages_get_drawn (GPtrArray *pages,
                                     guint     *last)
{
  guint n_drawn = 0;

  for (guint i = 0; i < pages->len; i++)
    {
      guint page_last = 0;
      guint page_drawn = _agent_gtk_markdown_page_get_drawn (g_ptr_array_index (pages, i),
                                                             &page_last);

      n_drawn += page_drawn;
      if (page_drawn > 0)
        *last = page_last;
    }
  return n_drawn;
}

/**
 * _agent_gtk_markdown_page_get_drawn:
 * @self: a page, or a group of pages
 * @last: (out): the view's position of the last chunk its last snapshot drew
 *
 * Returns: how many chunks its last snapshot drew (through its pages', for
 *   a group)
 */
guint
_agent_gtk_markdown_page_get_drawn (AgentGtkMarkdownPage *self,
                                    guint                *last)
{
  *last = self->last_drawn;
  if (!holds_pages (self))
    return self->n_drawn;
  return _agent_gtk_markdown_pages_get_drawn (self->drawn, last);
}

/* Removed pages, freed a few at a time */

static GQueue removed = G_QUEUE_INIT;
static guint free_id;

static gboolean
free_removed_cb (gpointer data)
{
  gint64 until = g_get_monotonic_time () + FREE_SLICE_USEC;

  while (!g_queue_is_empty (&removed))
    {
      g_object_unref (g_queue_pop_head (&removed));
      if (g_get_monotonic_time () >= until)
        return G_SOURCE_CONTINUE;
    }
  free_id = 0;
  return G_SOURCE_REMOVE;
}

/**
 * _agent_gtk_markdown_page_remove:
 * @page: a page in a Markdown view
 *
 * Takes @page out of its view at once, with its chunks; they are freed
 * once the main loop has nothing more urgent to do.
 */
void
_agent_gtk_markdown_page_remove (GtkWidget *page)
{
  GtkWidget *parent;

  g_return_if_fail (AGENT_GTK_IS_MARKDOWN_PAGE (page));

  parent = gtk_widget_get_parent (page);
  if (AGENT_GTK_IS_MARKDOWN_PAGE (parent))
    g_ptr_array_remove (AGENT_GTK_MARKDOWN_PAGE (parent)->drawn, page);
  g_queue_push_tail (&removed, g_object_ref (page));
  gtk_widget_unparent (page);
  if (free_id == 0)
    {
      free_id = g_idle_add_full (G_PRIORITY_LOW, free_removed_cb, NULL, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, free_id),
                                "[agent-gtk-markdown-free]");
    }
}
