/* test-gtk-markdown.c
 *
 * The Markdown view of agent-chat's answers under a real display (Xvfb):
 * what it renders (and never lets through as markup), how it renders a
 * growing text a chunk at a time, draws only what is near the view, and
 * keeps a very long answer's pages in groups.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <agent.h>

#include "agent-gtk-markdown-view-private.h"
#include "markdown/agent-gtk-markdown-page-private.h"
#include "markdown/agent-gtk-stream-paragraph-private.h"
#include "agent-test-widgets.h"
#include "agent-test-util.h"

/* Markdown */

static void
test_markdown_render (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  g_autoptr(GPtrArray) buttons = NULL;
  g_autofree char *labels = NULL;

  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown),
                                "# Title\n\nSome *emphasis*, **strong** and `code`.\n\n"
                                "- one\n- two\n\n1. first\n2. second\n\n"
                                "A [link](https://example.org/?a=1&b=2).\n\n"
                                "```c\nint main (void) { return 1 < 2; }\n```\n");
  iterate ();
  labels = markdown_labels (markdown);

  agent_test_assert_contains (labels, "<span size=\"x-large\" weight=\"bold\">Title</span>");
  agent_test_assert_contains (labels, "<i>emphasis</i>");
  agent_test_assert_contains (labels, "<b>strong</b>");
  agent_test_assert_contains (labels, "<tt>code</tt>");
  agent_test_assert_contains (labels, "•  one\n•  two");
  agent_test_assert_contains (labels, "1. first\n2. second");
  {
    /* GtkLabel keeps links apart from its label: check the markup it was given */
    g_autofree char *markup = _agent_gtk_markdown_to_pango_markup ("A [link](https://example.org/?a=1&b=2).");

    agent_test_assert_contains (markup, "<a href=\"https://example.org/?a=1&amp;b=2\">link</a>");
  }
  /* The code block: monospace, its text as it was, with a copy button */
  agent_test_assert_contains (labels, "int main (void) { return 1 < 2; }");
  buttons = find_all (markdown, GTK_TYPE_BUTTON);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (g_ptr_array_index (buttons, 0)), ==, "Copy Code");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_markdown_no_injection (void)
{
  static const char *text =
    "<span foreground=\"red\">red</span> & <b>bold</b> &lt;tt&gt;\n\n"
    "*<i>x</i>* [a](\"><b>evil</b>)\n";
  g_autofree char *markup = _agent_gtk_markdown_to_pango_markup (text);
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  g_autoptr(GPtrArray) labels = NULL;
  g_autoptr(GString) shown = g_string_new (NULL);

  /* Valid markup in which the model's tags are text (a real link aside) */
  {
    g_autofree char *wrapped = g_strdup_printf ("<markup>%s</markup>", markup);
    static const GMarkupParser parser = { NULL, };
    g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, NULL, NULL);

    g_assert_true (g_markup_parse_context_parse (context, wrapped, -1, NULL));
    g_assert_true (g_markup_parse_context_end_parse (context, NULL));
  }
  g_assert_null (strstr (markup, "<span foreground"));
  g_assert_null (strstr (markup, "<b>bold"));
  agent_test_assert_contains (markup, "&lt;span foreground=&quot;red&quot;&gt;");

  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), text);
  iterate ();
  labels = find_all (markdown, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    g_string_append (shown, gtk_label_get_text (g_ptr_array_index (labels, i)));
  agent_test_assert_contains (shown->str, "<span foreground=\"red\">red</span> & <b>bold</b> <tt>");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_markdown_incremental (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  GtkWidget *first;
  GString *text = g_string_new ("First paragraph.\n\n```\ncode\n\nstill code\n```\n\nThird");

  agent_gtk_markdown_view_set_text (view, text->str);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_renders (view), ==, 3);
  first = _agent_gtk_markdown_view_get_chunk (view, 0);

  /* A delta re-renders the last chunk only */
  for (guint i = 0; i < 10; i++)
    {
      g_string_append (text, " word");
      agent_gtk_markdown_view_set_text (view, text->str);
    }
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_renders (view), ==, 13);
  g_assert_true (_agent_gtk_markdown_view_get_chunk (view, 0) == first);

  /* The same text again renders nothing */
  agent_gtk_markdown_view_set_text (view, text->str);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_renders (view), ==, 13);

  /* A shorter text (a new item in a recycled row) drops the extra chunks */
  agent_gtk_markdown_view_set_text (view, "Only");
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 1);

  g_string_free (text, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A long answer in a scrolled view: a frame draws the chunks near the view,
 * not all of them, and scrolling (nothing else) draws those that come into
 * view. */
static void
test_markdown_draws_what_is_seen (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *window;
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  GtkAdjustment *adjustment;
  GString *text = g_string_new (NULL);
  guint n_chunks;
  guint last = 0;

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "Paragraph %u of a long answer.\n\n", i);
  agent_gtk_markdown_view_set_text (view, text->str);
  _agent_gtk_markdown_view_flush (view);
  n_chunks = _agent_gtk_markdown_view_get_n_chunks (view);
  g_assert_cmpuint (n_chunks, ==, 300);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), markdown);
  window = show_in_window (scroller);
  gtk_widget_queue_draw (window);
  wait_painted (window, 1);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, &last), >, 0);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, NULL), <, n_chunks / 4);
  g_assert_cmpuint (last, <, n_chunks / 4);

  /* To the end: drawn again, still only what is near the view */
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, 4 * gtk_adjustment_get_page_size (adjustment));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  wait_painted (window, 1);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, &last), >, 0);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, NULL), <, n_chunks / 4);
  g_assert_cmpuint (last, ==, n_chunks - 1);

  g_string_free (text, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The most pages that one widget of @widget's tree holds side by side */
static guint
most_pages_side_by_side (GtkWidget *widget)
{
  guint pages = 0;
  guint most = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (AGENT_GTK_IS_MARKDOWN_PAGE (child))
        pages++;
      most = MAX (most, most_pages_side_by_side (child));
    }
  return MAX (most, pages);
}

static void
append_paragraphs (GString *text,
                   guint    from,
                   guint    to)
{
  for (guint i = from; i < to; i++)
    g_string_append_printf (text, "Paragraph %u of a long answer.\n\n", i);
}

/* A very long answer keeps its pages in groups, each in the one before:
 * no widget holds more than 16 pages and a group side by side, whatever
 * the length (GTK restyles the siblings of a widget added, so 157 pages
 * side by side made each new one cost a frame). The answer grows, is cut
 * and is drawn to its last chunk the same. */
static void
test_markdown_pages_in_groups (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *window;
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new (NULL);
  GtkAdjustment *adjustment;
  guint last = 0;

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), markdown);
  window = show_in_window (scroller);

  append_paragraphs (text, 0, 3000);
  agent_gtk_markdown_view_set_text (view, text->str);
  _agent_gtk_markdown_view_flush (view);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 3000);
  g_assert_cmpuint (most_pages_side_by_side (markdown), <=, 17);

  /* Streaming on, across pages and groups */
  for (guint i = 3000; i < 4200; i += 100)
    {
      append_paragraphs (text, i, i + 100);
      agent_gtk_markdown_view_set_text (view, text->str);
    }
  /* (a hundred chunks at once are laid out a page at a time) */
  _agent_gtk_markdown_view_flush (view);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 4200);
  g_assert_cmpuint (most_pages_side_by_side (markdown), <=, 17);
  g_assert_true (gtk_widget_is_ancestor (_agent_gtk_markdown_view_get_chunk (view, 4199), markdown));

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  gtk_widget_queue_draw (window);
  wait_painted (window, 1);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  wait_painted (window, 1);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, &last), >, 0);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, NULL), <, 100);
  g_assert_cmpuint (last, ==, 4199);

  /* Cut back into the second group: the pages and groups after it go */
  g_string_truncate (text, 0);
  append_paragraphs (text, 0, 1100);
  agent_gtk_markdown_view_set_text (view, text->str);
  _agent_gtk_markdown_view_flush (view);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 1100);
  g_assert_true (gtk_widget_is_ancestor (_agent_gtk_markdown_view_get_chunk (view, 1099), markdown));
  g_assert_null (_agent_gtk_markdown_view_get_chunk (view, 1100));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  wait_painted (window, 1);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (view, &last), >, 0);
  g_assert_cmpuint (last, ==, 1099);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The text of the label of chunk @i */
static const char *
chunk_label (AgentGtkMarkdownView *view,
             guint                 i)
{
  GtkWidget *chunk = _agent_gtk_markdown_view_get_chunk (view, i);

  return chunk != NULL ? gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (chunk)))
                       : NULL;
}

/* A long text set at once is laid out a page at a time, one page at once
 * (busy for screen readers meanwhile); text that extends it meanwhile is
 * laid out with it; a text that replaces it starts again */
static void
test_markdown_paged (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *window;
  guint n_notify = 0;
  guint n;

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), markdown);
  window = show_in_window (scroller);
  g_signal_connect (markdown, "notify::laying-out", G_CALLBACK (agent_test_count_notify),
                    &n_notify);

  append_paragraphs (text, 0, 1000);
  agent_gtk_markdown_view_set_text (view, text->str);
  n = _agent_gtk_markdown_view_get_n_chunks (view);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 100);
  g_assert_true (agent_gtk_markdown_view_get_laying_out (view));
  g_assert_cmpuint (n_notify, ==, 1);

  /* The stream goes on meanwhile */
  append_paragraphs (text, 1000, 1010);
  agent_gtk_markdown_view_set_text (view, text->str);
  g_assert_true (agent_gtk_markdown_view_get_laying_out (view));
  while (agent_gtk_markdown_view_get_laying_out (view))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_notify, ==, 2);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 1010);
  g_assert_cmpstr (chunk_label (view, 0), ==, "Paragraph 0 of a long answer.");
  g_assert_cmpstr (chunk_label (view, 1009), ==, "Paragraph 1009 of a long answer.");

  /* Replaced while laid out: only the new text's chunks */
  g_string_truncate (text, 0);
  append_paragraphs (text, 5000, 6000);
  agent_gtk_markdown_view_set_text (view, text->str);
  g_assert_true (agent_gtk_markdown_view_get_laying_out (view));
  g_string_truncate (text, 0);
  append_paragraphs (text, 7000, 7300);
  agent_gtk_markdown_view_set_text (view, text->str);
  _agent_gtk_markdown_view_flush (view);
  g_assert_false (agent_gtk_markdown_view_get_laying_out (view));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (view), ==, 300);
  g_assert_cmpstr (chunk_label (view, 0), ==, "Paragraph 7000 of a long answer.");
  g_assert_cmpstr (chunk_label (view, 299), ==, "Paragraph 7299 of a long answer.");
  g_assert_null (_agent_gtk_markdown_view_get_chunk (view, 300));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The last paragraph of the text, and its height */
static GtkWidget *
last_block (AgentGtkMarkdownView *view)
{
  guint n = _agent_gtk_markdown_view_get_n_chunks (view);

  return gtk_widget_get_last_child (_agent_gtk_markdown_view_get_chunk (view, n - 1));
}

/* A long paragraph streams in a word at a time: while it grows it is a
 * paragraph of its own that asks for a new layout only when it gains a
 * line (most words do not), and shows what the finished answer shows;
 * once the stream ends it is a label, as tall, with the same text, which
 * can be selected, as a text set whole renders it. */
static void
test_markdown_streaming_paragraph (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new ("# Streamed\n\nA first paragraph, whole.\n\n");
  GtkWidget *whole = agent_gtk_markdown_view_new ();
  GtkWidget *whole_window;
  GtkWidget *paragraph;
  GtkWidget *label;
  g_autofree char *plain = NULL;
  int height;
  guint n_words = 120;
  int start, end;

  _agent_gtk_markdown_view_set_streaming (view, TRUE);
  for (guint i = 0; i < n_words; i++)
    {
      if (i == 40)
        g_string_append (text, "a [link](https://example.org/?a=1&b=2) and *emphasis* ");
      g_string_append_printf (text, "word%u ", i);
      agent_gtk_markdown_view_set_text (view, text->str);
      wait_painted (window, 1);
    }
  paragraph = last_block (view);
  g_assert_true (AGENT_GTK_IS_STREAM_PARAGRAPH (paragraph));
  /* The blocks before it are labels */
  g_assert_true (GTK_IS_LABEL (gtk_widget_get_prev_sibling (paragraph)) ||
                 gtk_widget_get_prev_sibling (paragraph) == NULL);
  g_assert_true (GTK_IS_LABEL (gtk_widget_get_first_child (_agent_gtk_markdown_view_get_chunk (view, 0))));
  /* Some twenty lines at 400 px: a resize for each, not for each word */
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_resizes (AGENT_GTK_STREAM_PARAGRAPH (paragraph)), >, 3);
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_resizes (AGENT_GTK_STREAM_PARAGRAPH (paragraph)), <,
                    n_words / 2);
  height = gtk_widget_get_height (paragraph);
  g_assert_cmpint (height, >, 0);
  plain = g_strdup (agent_gtk_stream_paragraph_get_plain (AGENT_GTK_STREAM_PARAGRAPH (paragraph)));
  agent_test_assert_contains (plain, "word0 word1");
  agent_test_assert_contains (plain, "a link and emphasis word40");

  /* The stream ends: a label, selectable, as tall, with the same text */
  _agent_gtk_markdown_view_set_streaming (view, FALSE);
  wait_frames (window, 2);
  label = last_block (view);
  g_assert_true (GTK_IS_LABEL (label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, plain);
  g_assert_cmpint (gtk_widget_get_height (label), ==, height);
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (label)));
  gtk_label_select_region (GTK_LABEL (label), 2, 6);
  g_assert_true (gtk_label_get_selection_bounds (GTK_LABEL (label), &start, &end));
  g_assert_cmpint (start, ==, 2);
  g_assert_cmpint (end, ==, 6);

  /* As the text set whole renders it, in a window as wide */
  whole_window = show_in_window (whole);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (whole), text->str);
  wait_frames (whole_window, 2);
  g_assert_cmpint (gtk_widget_get_width (whole), ==, gtk_widget_get_width (markdown));
  {
    GtkWidget *whole_label = last_block (AGENT_GTK_MARKDOWN_VIEW (whole));
    g_autofree char *labels = markdown_labels (markdown);
    g_autofree char *whole_labels = markdown_labels (whole);
    int streamed_height, whole_height;

    g_assert_cmpstr (labels, ==, whole_labels);
    g_assert_cmpint (gtk_widget_get_height (whole_label), ==, height);

    gtk_widget_measure (markdown, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (markdown),
                        &streamed_height, NULL, NULL, NULL);
    gtk_widget_measure (whole, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (markdown),
                        &whole_height, NULL, NULL, NULL);
    g_assert_cmpint (streamed_height, ==, whole_height);
  }

  /* Streaming again (a recycled row): the last paragraph streams, with
   * its text, and a new block takes the stream from it */
  _agent_gtk_markdown_view_set_streaming (view, TRUE);
  g_assert_true (AGENT_GTK_IS_STREAM_PARAGRAPH (last_block (view)));
  g_assert_cmpstr (agent_gtk_stream_paragraph_get_plain (AGENT_GTK_STREAM_PARAGRAPH (last_block (view))),
                   ==, plain);
  g_string_append (text, "\n\nThe next one");
  agent_gtk_markdown_view_set_text (view, text->str);
  wait_painted (window, 1);
  g_assert_true (AGENT_GTK_IS_STREAM_PARAGRAPH (last_block (view)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_last_child (
                     _agent_gtk_markdown_view_get_chunk (view, 2)))), ==, plain);

  gtk_window_destroy (GTK_WINDOW (whole_window));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Words that add no line queue no resize, so GTK keeps the sizes it
 * measured before them for other widths: given one of those widths again,
 * the paragraph streaming is laid out for its text, not the old one */
static void
test_markdown_streaming_widths (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *window;
  GtkWidget *paragraph;
  int measured;

  gtk_widget_set_hexpand (markdown, TRUE);
  gtk_widget_set_valign (markdown, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), spacer);
  gtk_box_append (GTK_BOX (box), markdown);
  window = show_in_window (box);
  _agent_gtk_markdown_view_set_streaming (view, TRUE);

  for (guint round = 0; round < 4; round++)
    {
      /* Narrower, then as wide as before, a few words at each */
      gtk_widget_set_size_request (spacer, round % 2 == 0 ? 150 : 0, -1);
      for (guint i = 0; i < 12; i++)
        {
          g_string_append_printf (text, "w%u.%u ", round, i);
          agent_gtk_markdown_view_set_text (view, text->str);
          wait_painted (window, 1);
        }
      wait_frames (window, 2);
      paragraph = last_block (view);
      g_assert_true (AGENT_GTK_IS_STREAM_PARAGRAPH (paragraph));
      gtk_widget_measure (paragraph, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (paragraph),
                          &measured, NULL, NULL, NULL);
      g_assert_cmpint (gtk_widget_get_height (paragraph), ==, measured);
    }

  /* Ended: the label is as tall */
  {
    int height = gtk_widget_get_height (last_block (view));

    _agent_gtk_markdown_view_set_streaming (view, FALSE);
    wait_frames (window, 2);
    g_assert_true (GTK_IS_LABEL (last_block (view)));
    g_assert_cmpint (gtk_widget_get_height (last_block (view)), ==, height);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* @widget as the cairo renderer draws it, its pixels */
static GBytes *
widget_pixels (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gsize stride = width * 4;
  guchar *data;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);
  data = g_malloc (stride * height);
  gdk_texture_download (texture, data, stride);
  return g_bytes_new_take (data, stride * height);
}

/* The streaming paragraph's pixels, then the same text laid out whole
 * (a text that differs from its beginning drops the settled lines):
 * they must be the same */
static void
assert_draws_as_whole (GtkWidget *window,
                       GtkWidget *paragraph)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (paragraph);
  g_autofree char *markup = g_strdup (agent_gtk_stream_paragraph_get_markup (self));
  g_autofree char *plain = g_strdup (agent_gtk_stream_paragraph_get_plain (self));
  g_autoptr(GBytes) settled = NULL;
  g_autoptr(GBytes) whole = NULL;
  int height = gtk_widget_get_height (paragraph);

  wait_frames (window, 1);
  settled = widget_pixels (paragraph);
  agent_gtk_stream_paragraph_set_markup (self, "Other", "Other");
  wait_frames (window, 1);
  agent_gtk_stream_paragraph_set_markup (self, markup, plain);
  wait_frames (window, 2);
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (self, NULL, NULL), ==, 0);
  g_assert_cmpint (gtk_widget_get_height (paragraph), ==, height);
  whole = widget_pixels (paragraph);
  g_assert_true (g_bytes_equal (settled, whole));
}

/* A long paragraph streaming lays its lines out once: all but its last
 * two are settled, drawn as the paragraph laid out whole draws them, and
 * dropped when the text before them changes (the Markdown of an emphasis
 * closed lines later) */
static void
test_markdown_streaming_settled (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new ("Before it.\n\n");
  AgentGtkStreamParagraph *paragraph;
  guint n_settled, n_settles, n_settles_before;
  guint n_unsettles = 0, n_unsettles_at = 0, n_settles_at = 0;
  int height;

  _agent_gtk_markdown_view_set_streaming (view, TRUE);
  for (guint i = 0; i < 450; i++)
    {
      if (i % 37 == 5)
        g_string_append (text, "`code`, [a link](https://example.org/) and *emphasis*, ");
      g_string_append_printf (text, "word%u ", i);
      agent_gtk_markdown_view_set_text (view, text->str);
      wait_painted (window, 1);
      /* The last check after more settles than the settled lines' nodes
       * are kept one in the other (16) */
      if (i == 49 || i == 399)
        {
          paragraph = AGENT_GTK_STREAM_PARAGRAPH (last_block (view));
          n_settled = agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, &n_settles,
                                                                      &n_unsettles);
          /* Dozens of lines at 400 px: all settled but the last two, and
           * never laid out again as the window was (a line more) */
          g_assert_cmpuint (n_settled, >, 0);
          g_assert_cmpuint (n_unsettles, ==, n_unsettles_at);
          if (i == 49)
            n_settles_at = n_settles;
          else
            g_assert_cmpuint (n_settles - n_settles_at, >, 16);
          height = gtk_widget_get_height (GTK_WIDGET (paragraph));
          {
            int measured;

            gtk_widget_measure (GTK_WIDGET (paragraph), GTK_ORIENTATION_VERTICAL,
                                gtk_widget_get_width (GTK_WIDGET (paragraph)),
                                &measured, NULL, NULL, NULL);
            g_assert_cmpint (measured, ==, height);
          }
          assert_draws_as_whole (window, GTK_WIDGET (paragraph));
          /* (which laid it out whole) */
          agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, &n_unsettles_at);
        }
    }
  paragraph = AGENT_GTK_STREAM_PARAGRAPH (last_block (view));

  /* The same text with other attributes (bold, all of it): the settled
   * lines are laid out again */
  {
    g_autofree char *bold = g_strdup_printf ("<b>%s</b>",
                                             agent_gtk_stream_paragraph_get_markup (paragraph));
    g_autofree char *plain = g_strdup (agent_gtk_stream_paragraph_get_plain (paragraph));

    g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, &n_unsettles),
                      >, 0);
    agent_gtk_stream_paragraph_set_markup (paragraph, bold, plain);
    agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, &n_unsettles_at);
    g_assert_cmpuint (n_unsettles_at, ==, n_unsettles + 1);
    wait_frames (window, 2);
    assert_draws_as_whole (window, GTK_WIDGET (paragraph));
  }
  agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, &n_settles_before, NULL);

  /* An emphasis opened early and closed later: the settled lines were
   * the "**" shown as they are; bold now, they are laid out again */
  g_string_append (text, "**bold from here ");
  for (guint i = 0; i < 60; i++)
    {
      g_string_append_printf (text, "more%u ", i);
      agent_gtk_markdown_view_set_text (view, text->str);
      wait_painted (window, 1);
    }
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, &n_settles, NULL), >, 0);
  g_assert_cmpuint (n_settles, >, n_settles_before);
  g_assert_true (strstr (agent_gtk_stream_paragraph_get_markup (paragraph), "<b>") == NULL);
  g_string_append (text, "to here** and after.");
  agent_gtk_markdown_view_set_text (view, text->str);
  wait_frames (window, 2);
  g_assert_true (AGENT_GTK_STREAM_PARAGRAPH (last_block (view)) == paragraph);
  g_assert_nonnull (strstr (agent_gtk_stream_paragraph_get_markup (paragraph), "<b>"));
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, NULL), ==, 0);
  assert_draws_as_whole (window, GTK_WIDGET (paragraph));

  /* The stream ends: a label as tall */
  height = gtk_widget_get_height (GTK_WIDGET (paragraph));
  _agent_gtk_markdown_view_set_streaming (view, FALSE);
  wait_frames (window, 2);
  g_assert_true (GTK_IS_LABEL (last_block (view)));
  g_assert_cmpint (gtk_widget_get_height (last_block (view)), ==, height);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Right-to-left runs: a line that holds one is never settled (its order
 * would depend on the paragraph as a whole), the lines before it may be,
 * and a right-to-left paragraph is laid out whole; drawn, each is what the
 * text laid out whole draws */
static void
test_markdown_streaming_settled_bidi (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  AgentGtkMarkdownView *view = AGENT_GTK_MARKDOWN_VIEW (markdown);
  g_autoptr(GString) text = g_string_new (NULL);
  AgentGtkStreamParagraph *paragraph;
  guint n_settled;

  _agent_gtk_markdown_view_set_streaming (view, TRUE);
  for (guint i = 0; i < 160; i++)
    {
      /* Arabic words and numbers among English ones, after a while */
      if (i >= 60 && i % 9 == 0)
        g_string_append_printf (text, "\u0645\u0631\u062d\u0628\u0627 %u ", i);
      g_string_append_printf (text, "word%u ", i);
      agent_gtk_markdown_view_set_text (view, text->str);
      wait_painted (window, 1);
      if (i == 55)
        {
          paragraph = AGENT_GTK_STREAM_PARAGRAPH (last_block (view));
          g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, NULL),
                            >, 0);
        }
    }
  paragraph = AGENT_GTK_STREAM_PARAGRAPH (last_block (view));
  n_settled = agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, NULL);
  /* The lines before the first Arabic word only (a few of some 30) */
  g_assert_cmpuint (n_settled, >, 0);
  g_assert_cmpuint (n_settled, <, 15);
  assert_draws_as_whole (window, GTK_WIDGET (paragraph));

  /* A Hebrew paragraph */
  g_string_append (text, "\n\n");
  for (guint i = 0; i < 120; i++)
    {
      g_string_append_printf (text, "\u05e9\u05dc\u05d5\u05dd %u ", i);
      agent_gtk_markdown_view_set_text (view, text->str);
      wait_painted (window, 1);
    }
  paragraph = AGENT_GTK_STREAM_PARAGRAPH (last_block (view));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (paragraph)), >, 100);
  g_assert_cmpuint (agent_gtk_stream_paragraph_get_n_settled_lines (paragraph, NULL, NULL), ==, 0);
  assert_draws_as_whole (window, GTK_WIDGET (paragraph));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add_func ("/gui/markdown/render", test_markdown_render);
  g_test_add_func ("/gui/markdown/no-injection", test_markdown_no_injection);
  g_test_add_func ("/gui/markdown/incremental", test_markdown_incremental);
  g_test_add_func ("/gui/markdown/draws-what-is-seen", test_markdown_draws_what_is_seen);
  g_test_add_func ("/gui/markdown/pages-in-groups", test_markdown_pages_in_groups);
  g_test_add_func ("/gui/markdown/paged", test_markdown_paged);
  g_test_add_func ("/gui/markdown/streaming-paragraph", test_markdown_streaming_paragraph);
  g_test_add_func ("/gui/markdown/streaming-widths", test_markdown_streaming_widths);
  g_test_add_func ("/gui/markdown/streaming-settled", test_markdown_streaming_settled);
  g_test_add_func ("/gui/markdown/streaming-settled-bidi", test_markdown_streaming_settled_bidi);

  return agent_test_gui_run (data_home);
}
