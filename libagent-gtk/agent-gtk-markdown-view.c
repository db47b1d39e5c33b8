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
 * are drawn, the chunks are kept in pages, and a long text set at once is
 * laid out a page at a time (agent-gtk-markdown-view-pages.c says how
 * and why).
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
#include "agent-gtk-markdown-view-pages-private.h"
#include "agent-gtk-private.h"
#include "markdown/agent-gtk-code-block-private.h"
#include "markdown/agent-gtk-markdown-page-private.h"
#include "markdown/agent-gtk-markdown-parser-private.h"
#include "markdown/agent-gtk-stream-paragraph-private.h"
#include "markdown/agent-gtk-table-block-private.h"
#include "agent-trace-private.h"


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
set_text_block (GtkWidget *label,
                Block     *block)
{
  if (AGENT_GTK_IS_STREAM_PARAGRAPH (label))
    agent_gtk_stream_paragraph_set_markup (AGENT_GTK_STREAM_PARAGRAPH (label), block->text,
                                           block->plain);
  else if (_agent_gtk_markdown_markup_is_valid (block->text))
    gtk_label_set_markup (GTK_LABEL (label), block->text);
  else
    gtk_label_set_text (GTK_LABEL (label), block->plain);
}

/* A block quote's look, on a label or a paragraph streaming */
static void
set_quote (GtkWidget *widget,
           guint      quote)
{
  if (quote > 0)
    {
      gtk_widget_add_css_class (widget, "blockquote");
      gtk_widget_set_margin_start (widget, 12 * (quote - 1));
    }
  g_object_set_data (G_OBJECT (widget), "quote", GUINT_TO_POINTER (quote));
}

static GtkWidget *
text_block_new (Block    *block,
                gboolean  streaming)
{
  GtkWidget *label;

  /* The paragraph growing at the end of an answer: see
   * agent-gtk-stream-paragraph.c */
  if (streaming)
    {
      GtkWidget *paragraph = agent_gtk_stream_paragraph_new ();

      set_text_block (paragraph, block);
      set_quote (paragraph, block->quote);
      return paragraph;
    }

  label = gtk_label_new (NULL);

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
  set_quote (label, block->quote);
  return label;
}

static GtkWidget *block_widget_new (Block    *block,
                                    gboolean  open,
                                    gboolean  streaming);

/* A text block's widget, @child of @box, is a paragraph streaming, or a
 * label, as @streaming says: the other is put in its place */
static GtkWidget *
swap_text_block (GtkWidget *box,
                 GtkWidget *child,
                 Block     *block,
                 gboolean   streaming)
{
  GtkWidget *widget;

  if (AGENT_GTK_IS_STREAM_PARAGRAPH (child) == streaming)
    return child;
  widget = text_block_new (block, streaming);
  gtk_widget_insert_before (widget, box, child);
  gtk_box_remove (GTK_BOX (box), child);
  return widget;
}

/* The widgets of a chunk hold the same kinds of blocks as the first of
 * @blocks: update them in place and add widgets for the blocks after them
 * (the usual case while the last chunk grows, or ends and the next
 * begins), which spares making widgets and computing their style.
 * @open: the chunk ends inside a code fence (its last block may grow).
 * @streaming: its last block is the paragraph still growing at the end of
 * a stream. *@made: set when widgets were made or taken away. */
static gboolean
update_chunk_widget (GtkWidget *box,
                     GPtrArray *blocks,
                     gboolean   open,
                     gboolean   streaming,
                     gboolean  *made)
{
  GtkWidget *child = gtk_widget_get_first_child (box);
  guint n_children;
  guint i;

  for (i = 0; i < blocks->len && child != NULL; i++, child = gtk_widget_get_next_sibling (child))
    {
      Block *block = g_ptr_array_index (blocks, i);
      BlockKind kind = GTK_IS_LABEL (child) || AGENT_GTK_IS_STREAM_PARAGRAPH (child) ? BLOCK_TEXT
                       : GTK_IS_SEPARATOR (child) ? BLOCK_RULE
                       : AGENT_GTK_IS_TABLE_BLOCK (child) ? BLOCK_TABLE
                       : BLOCK_CODE;

      if (kind != block->kind)
        return FALSE;
      if (kind == BLOCK_TEXT &&
          GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "quote")) != block->quote)
        return FALSE;
      /* A table keeps its widgets while its shape stays (a row streams in
       * cell by cell) */
      if (kind == BLOCK_TABLE &&
          !agent_gtk_table_block_has_shape (AGENT_GTK_TABLE_BLOCK (child), block))
        return FALSE;
      if (kind == BLOCK_CODE &&
          g_strcmp0 (agent_gtk_code_block_get_language (AGENT_GTK_CODE_BLOCK (child)),
                     block->language) != 0)
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
        {
          GtkWidget *widget = swap_text_block (box, child, block,
                                               streaming && i + 1 == blocks->len);

          *made |= widget != child;
          child = widget;
          set_text_block (child, block);
        }
      else if (block->kind == BLOCK_CODE)
        agent_gtk_code_block_set_text (AGENT_GTK_CODE_BLOCK (child), block->text,
                                       open && i + 1 == blocks->len);
      else if (block->kind == BLOCK_TABLE)
        agent_gtk_table_block_set_cells (AGENT_GTK_TABLE_BLOCK (child), block);
    }
  for (; i < blocks->len; i++)
    {
      gtk_box_append (GTK_BOX (box), block_widget_new (g_ptr_array_index (blocks, i),
                                                       open && i + 1 == blocks->len,
                                                       streaming && i + 1 == blocks->len));
      *made = TRUE;
    }
  return TRUE;
}

static GtkWidget *
block_widget_new (Block    *block,
                  gboolean  open,
                  gboolean  streaming)
{
  switch (block->kind)
    {
    case BLOCK_TEXT:
      return text_block_new (block, streaming);
    case BLOCK_CODE:
      return agent_gtk_code_block_new (block->text, block->language, open);
    case BLOCK_TABLE:
      return agent_gtk_table_block_new (block, G_CALLBACK (on_activate_link));
    case BLOCK_RULE:
    default:
      return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
    }
}

/* The widgets of a chunk: made with it, or when its page comes near the
 * view (agent-gtk-markdown-view-pages.c). @streaming: its last block is the
 * paragraph growing at the end of a stream. */
GtkWidget *
_agent_gtk_markdown_chunk_widget_new (const char *source,
                                      gboolean    open,
                                      gboolean    streaming)
{
  g_autoptr(GPtrArray) blocks = _agent_gtk_markdown_parse_blocks (source, strlen (source));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  for (guint i = 0; i < blocks->len; i++)
    gtk_box_append (GTK_BOX (box), block_widget_new (g_ptr_array_index (blocks, i),
                                                     open && i + 1 == blocks->len,
                                                     streaming && i + 1 == blocks->len));
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
  if (self->scrolled != NULL)
    self->drawn_value = gtk_adjustment_get_value (self->scrolled);
  _agent_gtk_markdown_snapshot_near_view (widget, snapshot, self->drawn, &n_drawn, &last_drawn);
}

/* What was drawn depends on where the view is: the pages draw again when it
 * moves (GTK would reuse what they drew before), and the pages that come
 * near it are made */
static void
redraw (AgentGtkMarkdownView *self)
{
  _agent_gtk_markdown_view_follow_view (self);
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
 * lines (the lead saw it at 360 px; test-gui-actions-e2e). Workaround,
 * GTK 4.8 (fix version not known): when the minimum moves, try a
 * GtkBoxLayout again and run test-gui-actions-e2e. */
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
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (widget);
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL && gtk_widget_get_visible (child))
    gtk_widget_allocate (child, width, height, -1, NULL);
  /* Wider or narrower, the pages that stand in change their height */
  if (width != self->allocated_width)
    {
      self->allocated_width = width;
      _agent_gtk_markdown_view_follow_view (self);
    }
}

static void
agent_gtk_markdown_view_dispose (GObject *object)
{
  AgentGtkMarkdownView *self = AGENT_GTK_MARKDOWN_VIEW (object);

  _agent_gtk_markdown_view_stop_building (self);
  _agent_gtk_markdown_view_stop_following (self);
  if (self->chunks != NULL)
    _agent_gtk_markdown_view_truncate_chunks (self, 0);
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

/* Makes the chunk of @source (taken) at @offset of the text, at the end;
 * @open: it ends inside a code fence; @streaming: it is the last, and its
 * last paragraph grows */
void
_agent_gtk_markdown_view_add_chunk (AgentGtkMarkdownView *self,
                                    char                 *source,
                                    gsize                 offset,
                                    gboolean              open,
                                    gboolean              streaming)
{
  Chunk *chunk = g_new0 (Chunk, 1);

  chunk->source = source;
  chunk->offset = offset;
  chunk->open = open;
  chunk->streaming = streaming;
  /* Its widgets are made if its page is (_agent_gtk_markdown_view_append_chunk()) */
  _agent_gtk_markdown_view_append_chunk (self, chunk);
  self->n_renders++;
}

/* Laying a long text out a page at a time: agent-gtk-markdown-view-pages.c */

/* While an answer streams, the last block of the text, if a paragraph, is
 * a paragraph streaming (agent-gtk-stream-paragraph.c), which a delta
 * that adds no line only draws again; the other text blocks are labels.
 * Puts the right one at the end; TRUE if it did. */
static gboolean
update_tail (AgentGtkMarkdownView *self)
{
  GtkWidget *box;
  GtkWidget *last;
  Block block = { .kind = BLOCK_TEXT };
  g_autofree char *escaped = NULL;

  if (self->chunks->len == 0)
    return FALSE;
  box = ((Chunk *) g_ptr_array_index (self->chunks, self->chunks->len - 1))->widget;
  last = box != NULL ? gtk_widget_get_last_child (box) : NULL;
  if (last == NULL || AGENT_GTK_IS_STREAM_PARAGRAPH (last) == self->streaming)
    return FALSE;
  if (AGENT_GTK_IS_STREAM_PARAGRAPH (last))
    {
      block.text = (char *) agent_gtk_stream_paragraph_get_markup (AGENT_GTK_STREAM_PARAGRAPH (last));
      block.plain = (char *) agent_gtk_stream_paragraph_get_plain (AGENT_GTK_STREAM_PARAGRAPH (last));
    }
  else if (GTK_IS_LABEL (last))
    {
      block.plain = (char *) gtk_label_get_text (GTK_LABEL (last));
      if (gtk_label_get_use_markup (GTK_LABEL (last)))
        block.text = (char *) gtk_label_get_label (GTK_LABEL (last));
      else
        block.text = escaped = g_markup_escape_text (block.plain, -1);
    }
  else
    return FALSE;
  block.quote = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (last), "quote"));
  swap_text_block (box, last, &block, self->streaming);
  return TRUE;
}

/* _agent_gtk_markdown_view_set_streaming:
 * @self: a #AgentGtkMarkdownView
 * @streaming: whether its text is an answer still streaming
 *
 * While @streaming, the paragraph growing at the end of the text is drawn
 * without laying the window out again at each delta (unless it gains a
 * line); once the stream ends it is a label again, selectable, with its
 * links.
 */
void
_agent_gtk_markdown_view_set_streaming (AgentGtkMarkdownView *self,
                                        gboolean              streaming)
{
  g_return_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self));

  streaming = !!streaming;
  if (self->streaming == streaming)
    return;
  self->streaming = streaming;
  update_tail (self);
}

/* Whether pages are still to be made changed: said to screen readers */
void
_agent_gtk_markdown_view_notify_laying_out (AgentGtkMarkdownView *self)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY,
                               self->build_tick != 0, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYING_OUT]);
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
  gboolean made_widgets = FALSE;
  guint i;
  G_GNUC_UNUSED gint64 trace_begin;
  G_GNUC_UNUSED guint n_renders;
  guint n_chunks;

  g_return_if_fail (AGENT_GTK_IS_MARKDOWN_VIEW (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (self->text, text) == 0)
    return;

  /* Still laying the old text out: the pages to come take the new text,
   * which begins as the old one did */
  if (self->build_tick != 0 && !self->all_cut && g_str_has_prefix (text, self->text))
    {
      g_free (self->text);
      self->text = g_strdup (text);
      /* Cut again from where the chunks made end: the cuts before do not
       * change, a cut is decided by the lines before it */
      g_clear_pointer (&self->pending_cuts, g_array_unref);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
      return;
    }
  _agent_gtk_markdown_view_stop_building (self);
  trace_begin = _agent_trace_begin ();
  n_renders = self->n_renders;
  n_chunks = self->chunks->len;

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
           * following it): its widgets take the new text; a page that
           * stands in keeps only its text */
          if (index + 1 == self->chunks->len && chunk->widget == NULL)
            {
              g_free (chunk->source);
              chunk->source = g_steal_pointer (&source);
              chunk->offset = start;
              chunk->open = ends_in_fence && i == cuts->len;
              _agent_gtk_markdown_view_chunk_changed (self, index);
              self->n_renders++;
              start = end;
              continue;
            }
          if (index + 1 == self->chunks->len)
            {
              g_autoptr(GPtrArray) blocks = _agent_gtk_markdown_parse_blocks (source, strlen (source));

              if (update_chunk_widget (chunk->widget, blocks, ends_in_fence && i == cuts->len,
                                       self->streaming && i == cuts->len, &made_widgets))
                {
                  g_free (chunk->source);
                  chunk->source = g_steal_pointer (&source);
                  chunk->offset = start;
                  chunk->open = ends_in_fence && i == cuts->len;
                  self->n_renders++;
                  start = end;
                  continue;
                }
            }
          _agent_gtk_markdown_view_truncate_chunks (self, index);
        }

      /* What fills a window made: the rest at the next frames */
      if (made == FIRST_CHUNKS)
        {
          _agent_gtk_markdown_view_truncate_chunks (self, index);
          self->built_end = start;
          self->pending_cuts = g_steal_pointer (&cuts);
          self->pending_base = base;
          self->pending_next = i;
          self->pending_fence = ends_in_fence;
          _agent_gtk_markdown_view_start_building (self);
          break;
        }

      _agent_gtk_markdown_view_add_chunk (self, g_steal_pointer (&source), start,
                                          ends_in_fence && i == cuts->len,
                                          self->streaming && i == cuts->len);
      made++;
      start = end;
    }
  if (self->build_tick == 0)
    _agent_gtk_markdown_view_truncate_chunks (self, first + i);
  made_widgets |= update_tail (self);

  _agent_gtk_markdown_view_follow_view (self);

  /* Adding or removing a child resizes its parent only while the parent is
   * visible: hidden (a row being bound again), we would keep the size of
   * the old text once shown. The last chunk's blocks updated in place
   * queue what they need themselves: a paragraph streaming that keeps its
   * height only a draw, and the window is not laid out again. */
  if (made != 0 || made_widgets || self->chunks->len != n_chunks ||
      !gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_queue_resize (GTK_WIDGET (self));
  _agent_trace_end (trace_begin, "libagent-gtk", "markdown update",
                    "%u chunks made, %u re-rendered, from byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT "%s",
                    made, self->n_renders - n_renders, base, length,
                    self->build_tick != 0 ? ", the rest at the next frames" : "");
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
  /* Far from the view, its page is made now */
  _agent_gtk_markdown_view_make_chunk (self, position);
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
