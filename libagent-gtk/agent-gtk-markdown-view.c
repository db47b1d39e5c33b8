/* agent-gtk-markdown-view.c
 *
 * An answer rendered from Markdown, with md4c. The text is cut into chunks at
 * blank lines outside code fences; each chunk is parsed on its own into
 * widgets: labels with Pango markup that this file writes (every piece of the
 * model's text is escaped, so the model can never inject markup), block
 * quotes (a bar at their side), code blocks in monospace, highlighted
 * (agent-gtk-code.c), with a copy button, tables as grids, and rules. Code
 * blocks and tables scroll sideways when wider than the view: wide content
 * never widens the window. When the text grows, only the
 * chunks that changed — while streaming, the last one — are parsed again:
 * the rest of the message is neither re-rendered nor re-laid out.
 *
 * A long answer is taller than the view: only the chunks that can be seen
 * (those within the scrolled window that shows the message, with a margin)
 * are drawn, so that a frame costs what is on screen, not the whole answer.
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
 * Links ask before they open. Code blocks have a Copy button.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "agent-gtk-alert-private.h"
#include "agent-gtk-copy-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-private.h"
#include "markdown/agent-gtk-code-private.h"
#include "markdown/agent-gtk-markdown-page-private.h"
#include "markdown/agent-gtk-markdown-parser-private.h"
#include "markdown/agent-gtk-sideways-private.h"

typedef struct
{
  char      *source;
  gsize      offset;  /* of the source in the text */
  GtkWidget *widget;
} Chunk;


/**
 * AgentGtkMarkdownView:
 *
 * Markdown as widgets: paragraphs, headings, lists, block quotes, tables,
 * code blocks (highlighted), rules, LaTeX as text. Setting a longer text
 * renders only what changed, once per frame, so an answer can stream into
 * it.
 *
 * Since: 0.1
 */
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
  gsize          built_end;   /* while pending: where the chunks not made yet begin */
  GArray        *pending_cuts; /* while pending: the cuts of the text from pending_base */
  gsize          pending_base;
  guint          pending_next; /* the index in pending_cuts of the next chunk's end */
  gboolean       pending_fence; /* the text ends inside a code fence */
  guint          build_tick;  /* while pending: the tick that makes the next page */
};

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
/* The chunks of a long text made at once: more than a window shows of
 * one-line paragraphs */
#define FIRST_CHUNKS 32

enum {
  PROP_0,
  PROP_TEXT,
  PROP_LAYING_OUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentGtkMarkdownView, agent_gtk_markdown_view, GTK_TYPE_WIDGET)

/* Widgets */

static void
on_open_link_response (AgentGtkAlert *dialog,
                       const char     *response,
                       gpointer        user_data)
{
  const char *uri = g_object_get_data (G_OBJECT (dialog), "uri");
  GtkWidget *parent = agent_gtk_alert_get_parent (dialog);
  GtkRoot *root = parent ? gtk_widget_get_root (parent) : NULL;

  if (g_strcmp0 (response, "open") == 0)
    gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
}

static gboolean
on_activate_link (GtkLabel   *label,
                  const char *uri,
                  gpointer    user_data)
{
  AgentGtkAlert *dialog = agent_gtk_alert_new (GTK_WIDGET (label), _("Open Link?"), uri);

  agent_gtk_alert_add_response (dialog, "cancel", _("_Cancel"), ADW_RESPONSE_DEFAULT);
  agent_gtk_alert_add_response (dialog, "open", _("_Open Link"), ADW_RESPONSE_SUGGESTED);
  agent_gtk_alert_set_responses (dialog, "cancel", "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "uri", g_strdup (uri), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_link_response), NULL);
  agent_gtk_alert_present (dialog);

  return TRUE;
}

static void
on_copy_code (GtkButton *button,
              gpointer   user_data)
{
  const char *code = g_object_get_data (G_OBJECT (button), "code");

  _agent_gtk_copy_text (GTK_WIDGET (button), code);
}

/* Whether markup is well formed (Pango itself does not know GtkLabel's <a>). */
static gboolean
markup_is_valid (const char *markup)
{
  static const GMarkupParser parser = { NULL, };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, NULL, NULL);

  return g_markup_parse_context_parse (context, "<markup>", -1, NULL) &&
         g_markup_parse_context_parse (context, markup, -1, NULL) &&
         g_markup_parse_context_parse (context, "</markup>", -1, NULL) &&
         g_markup_parse_context_end_parse (context, NULL);
}

static void
set_text_block (GtkWidget *label,
                Block     *block)
{
  if (markup_is_valid (block->text))
    gtk_label_set_markup (GTK_LABEL (label), block->text);
  else
    gtk_label_set_text (GTK_LABEL (label), block->plain);
}

static GtkWidget *
text_block_new (Block *block)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  _agent_gtk_label_bound_minimum (GTK_LABEL (label));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  /* Out of the Tab chain: GTK 4.8's selectable labels take Tab otherwise */
  gtk_widget_set_can_focus (label, FALSE);
  set_text_block (label, block);
  g_signal_connect (label, "activate-link", G_CALLBACK (on_activate_link), NULL);
  if (block->quote > 0)
    {
      gtk_widget_add_css_class (label, "blockquote");
      gtk_widget_set_margin_start (label, 12 * (block->quote - 1));
    }
  g_object_set_data (G_OBJECT (label), "quote", GUINT_TO_POINTER (block->quote));
  return label;
}

/* A table: a grid of labels, scrolled sideways when wider than the view */
static void
set_table_cells (GtkWidget *grid,
                 Block     *block)
{
  for (guint i = 0; i < block->cells->len; i++)
    {
      GtkWidget *cell = gtk_grid_get_child_at (GTK_GRID (grid), i % block->n_columns,
                                               i / block->n_columns);
      const char *markup = g_ptr_array_index (block->cells, i);

      if (markup_is_valid (markup))
        gtk_label_set_markup (GTK_LABEL (cell), markup);
      else
        gtk_label_set_text (GTK_LABEL (cell), g_ptr_array_index (block->plain_cells, i));
    }
}

static GtkWidget *
table_block_new (Block *block)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *grid = gtk_grid_new ();
  guint n_columns = MAX (block->n_columns, 1);

  for (guint i = 0; i < block->cells->len; i++)
    {
      GtkWidget *cell = gtk_label_new (NULL);
      guint row = i / n_columns;
      int align = g_array_index (block->aligns, int, i % n_columns);

      /* One line a cell: a table wider than the view scrolls (a wrapped
       * cell would make the scrolled window as tall as at its narrowest) */
      gtk_label_set_xalign (GTK_LABEL (cell), align == 1 ? 0.5 : align == 2 ? 1.0 : 0.0);
      gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
      gtk_widget_set_focusable (cell, FALSE);
      gtk_widget_set_can_focus (cell, FALSE);
      gtk_widget_set_hexpand (cell, TRUE);
      gtk_widget_add_css_class (cell, "table-cell");
      if (row < block->n_header_rows)
        gtk_widget_add_css_class (cell, "heading");
      else if ((row - block->n_header_rows) % 2 == 1)
        gtk_widget_add_css_class (cell, "table-odd");
      g_signal_connect (cell, "activate-link", G_CALLBACK (on_activate_link), NULL);
      gtk_grid_attach (GTK_GRID (grid), cell, i % n_columns, row, 1, 1);
    }
  set_table_cells (grid, block);
  gtk_widget_add_css_class (grid, "markdown-table");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), grid);
  _agent_gtk_sideways_init (GTK_SCROLLED_WINDOW (scroller));
  gtk_widget_add_css_class (scroller, "card");
  gtk_widget_add_css_class (scroller, "table-block");
  /* Tab stops there (to scroll a wide table): a screen reader names it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (scroller), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Table"), -1);
  g_object_set_data (G_OBJECT (scroller), "table-grid", grid);
  g_object_set_data (G_OBJECT (scroller), "table-shape",
                     GUINT_TO_POINTER (block->cells->len * 1000 + n_columns));
  return scroller;
}

/* @open: the block may grow (see agent-gtk-code.c) */
static GtkWidget *
code_block_new (Block    *block,
                gboolean  open)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *language = gtk_label_new (block->language ? block->language : "");
  GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *code = _agent_gtk_code_new ();

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "code-block");
  gtk_widget_add_css_class (language, "caption");
  gtk_widget_add_css_class (language, "dim-label");
  gtk_widget_set_hexpand (language, TRUE);
  gtk_label_set_xalign (GTK_LABEL (language), 0);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 3);
  gtk_widget_set_margin_top (header, 3);
  gtk_widget_add_css_class (copy, "flat");
  _agent_gtk_set_new_tooltip (copy, _("Copy Code"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (copy),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy Code"), -1);
  g_object_set_data_full (G_OBJECT (copy), "code", g_strdup (block->text), g_free);
  g_signal_connect (copy, "clicked", G_CALLBACK (on_copy_code), NULL);
  gtk_box_append (GTK_BOX (header), language);
  gtk_box_append (GTK_BOX (header), copy);

  _agent_gtk_code_set_text (code, block->text, block->language, open);
  gtk_widget_set_margin_start (code, 12);
  gtk_widget_set_margin_end (code, 12);
  gtk_widget_set_margin_bottom (code, 12);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), code);
  _agent_gtk_sideways_init (GTK_SCROLLED_WINDOW (scroller));
  /* Tab stops there (to scroll long lines): a screen reader names it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (scroller), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Code"), -1);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), scroller);
  g_object_set_data (G_OBJECT (box), "code", code);
  g_object_set_data (G_OBJECT (box), "copy-button", copy);
  g_object_set_data_full (G_OBJECT (box), "language", g_strdup (block->language), g_free);
  return box;
}

static GtkWidget *block_widget_new (Block    *block,
                                    gboolean  open);

/* The widgets of a chunk hold the same kinds of blocks as the first of
 * @blocks: update them in place and add widgets for the blocks after them
 * (the usual case while the last chunk grows, or ends and the next
 * begins), which spares making widgets and computing their style.
 * @open: the chunk ends inside a code fence (its last block may grow). */
static gboolean
update_chunk_widget (GtkWidget *box,
                     GPtrArray *blocks,
                     gboolean   open)
{
  GtkWidget *child = gtk_widget_get_first_child (box);
  guint n_children;
  guint i;

  for (i = 0; i < blocks->len && child != NULL; i++, child = gtk_widget_get_next_sibling (child))
    {
      Block *block = g_ptr_array_index (blocks, i);
      BlockKind kind = GTK_IS_LABEL (child) ? BLOCK_TEXT
                       : GTK_IS_SEPARATOR (child) ? BLOCK_RULE
                       : g_object_get_data (G_OBJECT (child), "table-grid") ? BLOCK_TABLE
                       : BLOCK_CODE;

      if (kind != block->kind)
        return FALSE;
      if (kind == BLOCK_TEXT &&
          GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "quote")) != block->quote)
        return FALSE;
      /* A table keeps its widgets while its shape stays (a row streams in
       * cell by cell) */
      if (kind == BLOCK_TABLE &&
          GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "table-shape")) !=
          block->cells->len * 1000 + MAX (block->n_columns, 1))
        return FALSE;
      if (kind == BLOCK_CODE &&
          g_strcmp0 (g_object_get_data (G_OBJECT (child), "language"), block->language) != 0)
        return FALSE;
    }
  if (child != NULL)
    return FALSE;
  n_children = i;

  for (i = 0, child = gtk_widget_get_first_child (box); i < n_children;
       i++, child = gtk_widget_get_next_sibling (child))
    {
      Block *block = g_ptr_array_index (blocks, i);

      if (block->kind == BLOCK_TEXT)
        set_text_block (child, block);
      else if (block->kind == BLOCK_CODE)
        {
          GtkWidget *code = g_object_get_data (G_OBJECT (child), "code");
          GtkWidget *copy = g_object_get_data (G_OBJECT (child), "copy-button");

          _agent_gtk_code_set_text (code, block->text, block->language,
                                    open && i + 1 == blocks->len);
          g_object_set_data_full (G_OBJECT (copy), "code", g_strdup (block->text), g_free);
        }
      else if (block->kind == BLOCK_TABLE)
        set_table_cells (g_object_get_data (G_OBJECT (child), "table-grid"), block);
    }
  for (; i < blocks->len; i++)
    gtk_box_append (GTK_BOX (box), block_widget_new (g_ptr_array_index (blocks, i),
                                                     open && i + 1 == blocks->len));
  return TRUE;
}

static GtkWidget *
block_widget_new (Block    *block,
                  gboolean  open)
{
  switch (block->kind)
    {
    case BLOCK_TEXT:
      return text_block_new (block);
    case BLOCK_CODE:
      return code_block_new (block, open);
    case BLOCK_TABLE:
      return table_block_new (block);
    case BLOCK_RULE:
    default:
      return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
    }
}

static GtkWidget *
chunk_widget_new (const char *source,
                  gboolean    open)
{
  g_autoptr(GPtrArray) blocks = _agent_gtk_markdown_parse_blocks (source, strlen (source));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  for (guint i = 0; i < blocks->len; i++)
    gtk_box_append (GTK_BOX (box), block_widget_new (g_ptr_array_index (blocks, i),
                                                     open && i + 1 == blocks->len));
  return box;
}

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_clear_pointer (&chunk->widget, gtk_widget_unparent);
  g_free (chunk->source);
  g_free (chunk);
}

/* Drawing what can be seen */

static void
agent_gtk_markdown_view_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);
  guint n_drawn, last_drawn;

  g_ptr_array_set_size (self->drawn, 0);
  _agent_gtk_markdown_snapshot_near_view (widget, snapshot, self->drawn, &n_drawn, &last_drawn);
}

/* What was drawn depends on where the view is: the pages draw again when it
 * moves (GTK would reuse what they drew before) */
static void
redraw (AgentGtkMarkdownView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  for (guint i = 0; i < self->groups->len; i++)
    gtk_widget_queue_draw (g_ptr_array_index (self->groups, i));
  for (guint i = 0; i < self->pages->len; i++)
    gtk_widget_queue_draw (g_ptr_array_index (self->pages, i));
}

/* Scrolling moves us without changing our size, which GTK draws from what
 * we drew before: what was out of sight then must be drawn now. */
static void
agent_gtk_markdown_view_root (GtkWidget *widget)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);
  GtkWidget *view;

  GTK_WIDGET_CLASS (agent_gtk_markdown_view_parent_class)->root (widget);

  view = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (view == NULL)
    return;
  self->scrolled = g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (view)));
  g_signal_connect_object (self->scrolled, "value-changed", G_CALLBACK (redraw),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->scrolled, "changed", G_CALLBACK (redraw),
                           self, G_CONNECT_SWAPPED);
}

static void
agent_gtk_markdown_view_unroot (GtkWidget *widget)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);

  if (self->scrolled != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->scrolled, self);
      g_clear_object (&self->scrolled);
    }

  GTK_WIDGET_CLASS (agent_gtk_markdown_view_parent_class)->unroot (widget);
}

/* Its one child, the first group: measured and allocated here, not by a
 * GtkBoxLayout. GTK 4.8 takes a widget's request mode from its layout
 * manager, which has it from the children, and kept the one found while
 * the view was empty and hidden (an answer's row before its first delta):
 * "constant size", so the whole answer, set at once while hidden, was
 * measured for no width, each paragraph one line high, and what follows
 * the view in the row (the answer's actions) was placed over its last
 * lines (the lead saw it at 360 px; test-gui-actions-e2e). */
static GtkSizeRequestMode
agent_gtk_markdown_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
agent_gtk_markdown_view_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_measure (child, orientation, for_size, minimum, natural, NULL, NULL);
}

static void
agent_gtk_markdown_view_size_allocate (GtkWidget *widget,
                                       int        width,
                                       int        height,
                                       int        baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_allocate (child, width, height, -1, NULL);
}

static void truncate_chunks (AgentGtkMarkdownView *self,
                             guint                 n_chunks);
static void stop_building   (AgentGtkMarkdownView *self);

static void
agent_gtk_markdown_view_dispose (GObject *object)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (object);

  stop_building (self);
  if (self->chunks != NULL)
    truncate_chunks (self, 0);
  g_clear_pointer (&self->chunks, g_ptr_array_unref);
  g_clear_pointer (&self->drawn, g_ptr_array_unref);
  g_clear_pointer (&self->pages, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_gtk_markdown_view_parent_class)->dispose (object);
}

static void
agent_gtk_markdown_view_finalize (GObject *object)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (object);

  g_free (self->text);

  G_OBJECT_CLASS (agent_gtk_markdown_view_parent_class)->finalize (object);
}

static void
agent_gtk_markdown_view_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, agent_gtk_markdown_view_get_text (self));
      break;
    case PROP_LAYING_OUT:
      g_value_set_boolean (value, self->build_tick != 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_markdown_view_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      agent_gtk_markdown_view_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_markdown_view_class_init (AgentGtkMarkdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_markdown_view_dispose;
  object_class->finalize = agent_gtk_markdown_view_finalize;
  object_class->get_property = agent_gtk_markdown_view_get_property;
  object_class->set_property = agent_gtk_markdown_view_set_property;

  /**
   * AgentGtkMarkdownView:text:
   *
   * The Markdown shown. Setting a text that extends the one shown (an
   * answer streaming in) renders only what changed.
   *
   * Since: 0.1
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentGtkMarkdownView:laying-out:
   *
   * Whether a long text is still being laid out, a page of it at each
   * frame (see [method@AgentGtk.MarkdownView.set_text]). Screen readers
   * hear the view as busy meanwhile.
   *
   * Since: 0.1
   */
  properties[PROP_LAYING_OUT] =
    g_param_spec_boolean ("laying-out", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);


  widget_class->snapshot = agent_gtk_markdown_view_snapshot;
  widget_class->root = agent_gtk_markdown_view_root;
  widget_class->unroot = agent_gtk_markdown_view_unroot;
  widget_class->get_request_mode = agent_gtk_markdown_view_get_request_mode;
  widget_class->measure = agent_gtk_markdown_view_measure;
  widget_class->size_allocate = agent_gtk_markdown_view_size_allocate;

  gtk_widget_class_set_css_name (widget_class, "markdown");
}

static void
agent_gtk_markdown_view_init (AgentGtkMarkdownView *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  self->chunks = g_ptr_array_new_with_free_func (chunk_free);
  self->pages = g_ptr_array_new ();
  self->groups = g_ptr_array_new ();
  self->drawn = g_ptr_array_new ();
}

/**
 * agent_gtk_markdown_view_new:
 *
 * Creates a view of Markdown text: paragraphs, headings, emphasis, links
 * (which ask before they open), lists, block quotes, tables, math, and
 * code blocks highlighted, with a Copy button. The model's text can never
 * inject markup.
 *
 * Returns: (transfer floating): a new Markdown view
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_markdown_view_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_MARKDOWN_VIEW, NULL);
}

/**
 * agent_gtk_markdown_view_get_text:
 * @self: a Markdown view
 *
 * Gets the Markdown shown.
 *
 * Returns: the text
 *
 * Since: 0.1
 */
const char *
agent_gtk_markdown_view_get_text (AgentGtkMarkdownView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), NULL);
  return self->text ? self->text : "";
}

/* Chunks are only ever added at the end */
static void
append_chunk (AgentGtkMarkdownView *self,
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

static void
truncate_chunks (AgentGtkMarkdownView *self,
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

/* Makes the chunk of @source (taken) at @offset of the text, at the end;
 * @open: it ends inside a code fence */
static void
add_chunk (AgentGtkMarkdownView *self,
           char                 *source,
           gsize                 offset,
           gboolean              open)
{
  Chunk *chunk = g_new0 (Chunk, 1);

  chunk->source = source;
  chunk->offset = offset;
  chunk->widget = chunk_widget_new (chunk->source, open);
  append_chunk (self, chunk);
  self->n_renders++;
}

/* Laying a long text out a page at a time */

/* Whether pages are still to be made changed: said to screen readers */
static void
notify_laying_out (AgentGtkMarkdownView *self)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY,
                               self->build_tick != 0, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYING_OUT]);
}

static void
stop_building (AgentGtkMarkdownView *self)
{
  if (self->build_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->build_tick);
      self->build_tick = 0;
      g_clear_pointer (&self->pending_cuts, g_array_unref);
      notify_laying_out (self);
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

      add_chunk (self, g_strndup (self->text + start, end - start), start,
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

  stop_building (self);
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

  do
    if (!build_pending (self, CHUNKS_PER_STEP))
      return G_SOURCE_REMOVE;  /* build_pending() removed the tick */
  while (g_get_monotonic_time () - start < BUILD_BUDGET_US);
  return G_SOURCE_CONTINUE;
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

/**
 * agent_gtk_markdown_view_set_text:
 * @self: a Markdown view
 * @text: (nullable): Markdown
 *
 * Shows @text. The text is cut in chunks at blank lines; the chunks that
 * did not change keep their widgets, so that a text streaming in costs
 * what changed, not the whole text again. A long text is laid out a page
 * of chunks at a time, one page at once and one more at each frame, so
 * that the window answers meanwhile.
 *
 * Since: 0.1
 */
void
agent_gtk_markdown_view_set_text (AgentGtkMarkdownView *self,
                              const char        *text)
{
  g_autoptr(GArray) cuts = NULL;
  gboolean ends_in_fence = FALSE;
  gsize base = 0;
  gsize start;
  gsize length;
  guint first = 0;
  guint made = 0;
  guint i;

  g_return_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (self->text, text) == 0)
    return;

  /* Still laying the old text out: the pages to come take the new text,
   * which begins as the old one did */
  if (self->build_tick != 0 && g_str_has_prefix (text, self->text))
    {
      g_free (self->text);
      self->text = g_strdup (text);
      /* Cut again from where the chunks made end: the cuts before do not
       * change, a cut is decided by the lines before it */
      g_clear_pointer (&self->pending_cuts, g_array_unref);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
      return;
    }
  stop_building (self);

  /* Text that extends the old one (a stream) changes nothing before the
   * old one's last chunk: a cut is decided by the lines before it */
  if (self->text != NULL && self->chunks->len > 0 && g_str_has_prefix (text, self->text))
    {
      first = self->chunks->len - 1;
      base = ((Chunk *) g_ptr_array_index (self->chunks, first))->offset;
    }
  g_free (self->text);
  self->text = g_strdup (text);
  length = strlen (text);

  cuts = _agent_gtk_markdown_split_chunks (text + base, &ends_in_fence);
  start = base;
  for (i = 0; i <= cuts->len; i++)
    {
      guint index = first + i;
      gsize end = i < cuts->len ? base + g_array_index (cuts, gsize, i) : length;
      g_autofree char *source = g_strndup (text + start, end - start);
      Chunk *chunk;

      if (index < self->chunks->len)
        {
          chunk = g_ptr_array_index (self->chunks, index);
          if (strcmp (chunk->source, source) == 0)
            {
              start = end;
              continue;
            }
          /* The old last chunk grew (and may end now, the next ones
           * following it): its widgets take the new text */
          if (index + 1 == self->chunks->len)
            {
              g_autoptr(GPtrArray) blocks = _agent_gtk_markdown_parse_blocks (source, strlen (source));

              if (update_chunk_widget (chunk->widget, blocks, ends_in_fence && i == cuts->len))
                {
                  g_free (chunk->source);
                  chunk->source = g_steal_pointer (&source);
                  chunk->offset = start;
                  self->n_renders++;
                  start = end;
                  continue;
                }
            }
          truncate_chunks (self, index);
        }

      /* What fills a window made: the rest at the next frames */
      if (made == FIRST_CHUNKS)
        {
          truncate_chunks (self, index);
          self->built_end = start;
          self->pending_cuts = g_steal_pointer (&cuts);
          self->pending_base = base;
          self->pending_next = i;
          self->pending_fence = ends_in_fence;
          self->build_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_build_tick,
                                                           NULL, NULL);
          notify_laying_out (self);
          break;
        }

      add_chunk (self, g_steal_pointer (&source), start, ends_in_fence && i == cuts->len);
      made++;
      start = end;
    }
  if (self->build_tick == 0)
    truncate_chunks (self, first + i);

  /* Adding or removing a child resizes its parent only while the parent is
   * visible: hidden (a row being bound again), we would keep the size of
   * the old text once shown. */
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/**
 * agent_gtk_markdown_view_get_laying_out:
 * @self: a Markdown view
 *
 * Gets [property@AgentGtk.MarkdownView:laying-out].
 *
 * Returns: whether a long text is still being laid out
 *
 * Since: 0.1
 */
gboolean
agent_gtk_markdown_view_get_laying_out (AgentGtkMarkdownView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), FALSE);
  return self->build_tick != 0;
}

/* _agent_gtk_markdown_view_get_n_renders:
 * @self: a #AgentGtkMarkdownView
 *
 * Returns: how many chunks were parsed and built since @self was created
 */
guint
_agent_gtk_markdown_view_get_n_renders (AgentGtkMarkdownView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), 0);
  return self->n_renders;
}

/* _agent_gtk_markdown_view_get_n_drawn:
 * @self: a #AgentGtkMarkdownView
 * @last: (out) (optional): the position of the last chunk drawn
 *
 * Returns: how many chunks are drawn on screen (those near the view), as
 *   the last snapshot drew them
 */
guint
_agent_gtk_markdown_view_get_n_drawn (AgentGtkMarkdownView *self,
                                 guint             *last)
{
  guint last_drawn = 0;
  guint n_drawn;

  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), 0);

  n_drawn = _agent_gtk_markdown_pages_get_drawn (self->drawn, &last_drawn);
  if (last != NULL)
    *last = last_drawn;
  return n_drawn;
}

/* _agent_gtk_markdown_view_get_n_chunks:
 * @self: a #AgentGtkMarkdownView
 *
 * Returns: how many chunks the text is cut into
 */
guint
_agent_gtk_markdown_view_get_n_chunks (AgentGtkMarkdownView *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), 0);
  return self->chunks->len;
}

/* _agent_gtk_markdown_view_get_chunk:
 * @self: a #AgentGtkMarkdownView
 * @position: a chunk's position
 *
 * Returns: (transfer none) (nullable): the widget showing the chunk at
 *   @position, or %NULL past the last
 */
GtkWidget *
_agent_gtk_markdown_view_get_chunk (AgentGtkMarkdownView *self,
                               guint              position)
{
  g_return_val_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self), NULL);

  if (position >= self->chunks->len)
    return NULL;
  return ((Chunk *) g_ptr_array_index (self->chunks, position))->widget;
}

/* _agent_gtk_markdown_to_pango_markup:
 * @text: Markdown
 *
 * Renders @text as one piece of Pango markup (code blocks in `<tt>`), as the
 * widget renders its labels.
 *
 * Returns: (transfer full): Pango markup
 */
char *
_agent_gtk_markdown_to_pango_markup (const char *text)
{
  g_autoptr(GPtrArray) blocks = _agent_gtk_markdown_parse_blocks (text, strlen (text));
  g_autoptr(GString) markup = g_string_new (NULL);

  for (guint i = 0; i < blocks->len; i++)
    {
      Block *block = g_ptr_array_index (blocks, i);

      if (i > 0)
        g_string_append (markup, "\n\n");
      if (block->kind == BLOCK_TEXT)
        g_string_append (markup, block->text);
      else if (block->kind == BLOCK_CODE)
        {
          g_autofree char *escaped = g_markup_escape_text (block->text, -1);

          g_string_append_printf (markup, "<tt>%s</tt>", escaped);
        }
      else if (block->kind == BLOCK_TABLE)
        for (guint j = 0; j < block->cells->len; j++)
          g_string_append_printf (markup, "%s%s", (const char *) g_ptr_array_index (block->cells, j),
                                  (j + 1) % MAX (block->n_columns, 1) == 0
                                  ? (j + 1 < block->cells->len ? "\n" : "") : " │ ");
      else
        g_string_append (markup, "—");
    }
  return g_string_free (g_steal_pointer (&markup), FALSE);
}
