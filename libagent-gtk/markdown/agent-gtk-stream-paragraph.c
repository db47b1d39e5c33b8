/* agent-gtk-stream-paragraph.c
 *
 * The paragraph of an answer that is still growing, while it streams. A
 * GtkLabel queues a resize at every change of its text; the resize climbs
 * to the window, and each frame of a stream then measured the window and
 * the chat again and, on X11, asked the X server for the toplevel's size
 * (most of a streaming frame's CPU, bench/RESULTS.md, issue 44). Most
 * deltas add no line to the paragraph: this widget lays its text out at
 * the width it was given and queues only a draw while the height stays,
 * a resize when a line comes or goes.
 *
 * Nor is the whole paragraph laid out again at each delta: a long one
 * cost a frame more in shaping its text (HarfBuzz) than in anything else
 * of the app (bench/RESULTS.md, issue 44). Text added at the end changes
 * only the last line or two of a paragraph, unless it changes the text
 * before them (the Markdown of "**" closed later makes what it opened
 * bold): the lines before the last two are "settled", laid out once in
 * layouts of their own and drawn from a render node kept, so that a delta
 * shapes two lines and the renderer finds the settled ones unchanged. The
 * settled lines stay only while the text and attributes before their end
 * are what they were, at the same width and style, and only for text laid
 * out left to right with no right-to-left run in it (where the lines
 * would depend on the paragraph as a whole); otherwise the paragraph is
 * laid out whole, as before. Drawn either way, it is the same pixels
 * (tests/gtk/test-gtk-markdown.c compares them).
 *
 * It looks as the label it stands for: the CSS node is a label's (font,
 * colour, the block quote's class and margin), the text wraps at words or
 * characters, links are underlined in the theme's accent colour as
 * GtkLabel draws them. When the paragraph ends (the next block begins, or
 * the answer does) the Markdown view puts a GtkLabel in its place, with
 * selection and links that work. Screen readers read its text as a
 * label's, from its accessible label.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <math.h>
#include <string.h>

#include "markdown/agent-gtk-stream-paragraph-private.h"

/* As a GtkLabel's width-chars (_agent_gtk_label_bound_minimum()) */
#define MIN_CHARS 8

/* Lines settled at once (see settle()) */
#define SETTLE_LINES 3

/* Render nodes of settled lines kept one in the other at most (see
 * settled_node()) */
#define MAX_NODE_DEPTH 16

struct _AgentGtkStreamParagraph
{
  GtkWidget    parent_instance;
  PangoLayout *layout;     /* the text after the settled lines (all of it if
                            * none); NULL until needed, and when the style
                            * changes */
  char        *markup;
  char        *plain;
  char        *text;       /* the text the layouts show, and its attributes */
  PangoAttrList *attrs;

  /* The settled lines (see above) */
  GPtrArray   *settled;    /* of PangoLayout, top to bottom; NULL: none */
  gsize        settled_len;     /* the bytes of the text they show */
  int          settled_width;   /* Pango units: the width laid out at */
  int          settled_height;  /* Pango units */
  int          settled_natural; /* Pango units: their lines' widths, summed */
  GskRenderNode *settled_node;  /* the first settled_node_n layouts, drawn */
  guint        settled_node_n;
  guint        settled_node_depth; /* nodes kept in it, one in the other */
  GdkRGBA      settled_color;
  guint        n_settles;       /* for tests */
  guint        n_unsettles;
  gboolean     settle_failed;   /* laid out apart, lines differed: not again */
  PangoLayout *whole;           /* the text laid out whole, for the heights
                                 * GTK asks at other widths while settled */
  gboolean     whole_stale;
  int          width;      /* the width allocated, and the layout's height at it */
  int          height;
  guint        n_resizes;  /* for tests */
  gboolean     stale;      /* the text changed with no resize since the last: GTK's
                            * sizes of it for other widths may be old */
};

enum {
  PROP_0,
  PROP_LABEL,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentGtkStreamParagraph, agent_gtk_stream_paragraph, GTK_TYPE_WIDGET)

/* The markup the Markdown parser wrote, for Pango: GtkLabel's links
 * (<a href="…">, its own markup) as it draws them, underlined in the link
 * colour of the theme (libadwaita's: the accent colour). The model's text
 * is escaped, so "<a " and "</a>" are the parser's. */
static char *
pango_markup (GtkWidget  *widget,
              const char *markup)
{
  g_autoptr(GString) out = NULL;
  const char *p = markup;
  const char *link;
  g_autofree char *open = NULL;
  GdkRGBA accent;

  if (strstr (markup, "<a ") == NULL)
    return g_strdup (markup);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "accent_color",
                                      &accent))
    open = g_strdup_printf ("<span underline=\"single\" foreground=\"#%02x%02x%02x\">",
                            (guint) lround (accent.red * 255), (guint) lround (accent.green * 255),
                            (guint) lround (accent.blue * 255));
  else
    open = g_strdup ("<span underline=\"single\">");
  G_GNUC_END_IGNORE_DEPRECATIONS

  out = g_string_new (NULL);
  while ((link = strstr (p, "<a ")) != NULL)
    {
      const char *end = strchr (link, '>');

      if (end == NULL)
        break;
      g_string_append_len (out, p, link - p);
      g_string_append (out, open);
      p = end + 1;
    }
  g_string_append (out, p);
  /* The ends of links */
  for (gsize at = 0; (link = strstr (out->str + at, "</a>")) != NULL;)
    {
      at = link - out->str;
      g_string_erase (out, at, strlen ("</a>"));
      g_string_insert (out, at, "</span>");
      at += strlen ("</span>");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The attributes of @attrs over [@start, @end) of its text, moved to
 * begin at 0 */
static PangoAttrList *
attrs_slice (PangoAttrList *attrs,
             guint          start,
             guint          end)
{
  PangoAttrList *slice = pango_attr_list_new ();
  GSList *list;

  if (attrs == NULL)
    return slice;
  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->start_index < end && attr->end_index > start)
        {
          attr->start_index = MAX (attr->start_index, start) - start;
          attr->end_index = MIN (attr->end_index, end) - start;
          pango_attr_list_insert (slice, attr);
        }
      else
        pango_attribute_destroy (attr);
    }
  g_slist_free (list);
  return slice;
}

/* The layout shows what is left of the text after the settled lines */
static void
set_layout_text (AgentGtkStreamParagraph *self)
{
  gsize settled = self->settled_len;
  g_autoptr(PangoAttrList) attrs = NULL;

  if (self->layout == NULL)
    return;
  /* Settled lines are laid out left to right (see settle()): the rest
   * takes that direction, as it would in the paragraph whole */
  pango_layout_set_auto_dir (self->layout, settled == 0);
  if (settled > 0)
    attrs = attrs_slice (self->attrs, settled, strlen (self->text));
  pango_layout_set_text (self->layout, self->text + settled, -1);
  pango_layout_set_attributes (self->layout, settled > 0 ? attrs : self->attrs);
}

/* The paragraph laid out whole again */
static void
unsettle (AgentGtkStreamParagraph *self)
{
  if (self->settled == NULL)
    return;
  self->n_unsettles++;
  g_clear_pointer (&self->settled, g_ptr_array_unref);
  self->settled_len = 0;
  g_clear_pointer (&self->settled_node, gsk_render_node_unref);
  g_clear_object (&self->whole);
  self->settled_node_n = 0;
  self->settled_node_depth = 0;
  self->settled_height = 0;
  self->settled_natural = 0;
  set_layout_text (self);
}

/* Whether @attrs and @before are the same over [0, @end) of their texts,
 * in the same order (the markup of the same text parsed again gives them
 * so; another order only costs a layout). Not pango_attr_list_equal():
 * Pango 1.50's marks the attributes it matched in a 32-bit mask, and lists
 * of more than 32 attributes never compared equal. */
static gboolean
attrs_prefix_equal (PangoAttrList *attrs,
                    PangoAttrList *before,
                    guint          end)
{
  GSList *list = attrs ? pango_attr_list_get_attributes (attrs) : NULL;
  GSList *expected = before ? pango_attr_list_get_attributes (before) : NULL;
  GSList *e = expected;
  gboolean equal = TRUE;

  /* A list is in the order of the attributes' starts */
  for (GSList *l = list;
       equal && l != NULL && ((PangoAttribute *) l->data)->start_index < end;
       l = l->next, e = e ? e->next : NULL)
    {
      PangoAttribute *attr = l->data;
      PangoAttribute *other = e ? e->data : NULL;

      equal = other != NULL && other->start_index == attr->start_index &&
              MIN (other->end_index, end) == MIN (attr->end_index, end) &&
              pango_attribute_equal (attr, other);
    }
  equal = equal && (e == NULL || ((PangoAttribute *) e->data)->start_index >= end);
  g_slist_free_full (list, (GDestroyNotify) pango_attribute_destroy);
  g_slist_free_full (expected, (GDestroyNotify) pango_attribute_destroy);
  return equal;
}

/* Whether the settled lines still show the beginning of @text: the text
 * they were made from (the one shown until now) begins as @text does */
static gboolean
settled_holds (AgentGtkStreamParagraph *self,
               const char              *text,
               PangoAttrList           *attrs)
{
  gsize settled = self->settled_len;

  if (strncmp (text, self->text, settled) != 0 || text[settled] == '\0')
    return FALSE;
  return attrs_prefix_equal (attrs, self->attrs, settled);
}

static void
apply_text (AgentGtkStreamParagraph *self)
{
  g_autoptr(PangoAttrList) attrs = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  if (self->markup != NULL)
    markup = pango_markup (GTK_WIDGET (self), self->markup);
  if (markup == NULL || !pango_parse_markup (markup, -1, 0, &attrs, &text, NULL, NULL))
    {
      g_clear_pointer (&attrs, pango_attr_list_unref);
      g_free (text);
      text = g_strdup (self->plain ? self->plain : "");
    }
  if (self->settled != NULL && !settled_holds (self, text, attrs))
    unsettle (self);
  g_free (self->text);
  self->text = g_steal_pointer (&text);
  g_clear_pointer (&self->attrs, pango_attr_list_unref);
  self->attrs = g_steal_pointer (&attrs);
  self->whole_stale = TRUE;
  set_layout_text (self);
}

static PangoLayout *
ensure_layout (AgentGtkStreamParagraph *self)
{
  if (self->layout == NULL)
    {
      GtkWidget *widget = GTK_WIDGET (self);
      gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;

      self->layout = gtk_widget_create_pango_layout (widget, NULL);
      pango_layout_set_wrap (self->layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_alignment (self->layout, rtl ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      apply_text (self);
    }
  return self->layout;
}

/* The paragraph's height at @width, in Pango units: the settled lines'
 * and the layout's */
static int
height_for_width_units (AgentGtkStreamParagraph *self,
                        int                      width)
{
  PangoLayout *layout = ensure_layout (self);
  int height;

  /* GTK asks at other widths too when the window is laid out: the text
   * laid out whole there, apart, and the settled lines kept for the width
   * allocated */
  if (self->settled != NULL && (width < 0 || width * PANGO_SCALE != self->settled_width))
    {
      if (self->whole == NULL)
        {
          self->whole = pango_layout_copy (layout);
          pango_layout_set_auto_dir (self->whole, TRUE);
          self->whole_stale = TRUE;
        }
      if (self->whole_stale)
        {
          pango_layout_set_text (self->whole, self->text, -1);
          pango_layout_set_attributes (self->whole, self->attrs);
          self->whole_stale = FALSE;
        }
      pango_layout_set_width (self->whole, width >= 0 ? width * PANGO_SCALE : -1);
      pango_layout_get_size (self->whole, NULL, &height);
      return height;
    }
  pango_layout_set_width (layout, width >= 0 ? width * PANGO_SCALE : -1);
  pango_layout_get_size (layout, NULL, &height);
  return self->settled_height + height;
}

/* The same in pixels, as pango_layout_get_pixel_size() rounds it */
static int
height_for_width (AgentGtkStreamParagraph *self,
                  int                      width)
{
  return PANGO_PIXELS_CEIL (height_for_width_units (self, width));
}

/* Whether the lines of @layout run left to right only */
static gboolean
left_to_right (PangoLayout *layout,
               int          n_lines)
{
  for (int i = 0; i < n_lines; i++)
    {
      PangoLayoutLine *line = pango_layout_get_line_readonly (layout, i);

      if (line->resolved_dir != PANGO_DIRECTION_LTR)
        return FALSE;
      for (GSList *l = line->runs; l != NULL; l = l->next)
        if (((PangoGlyphItem *) l->data)->item->analysis.level % 2 != 0)
          return FALSE;
    }
  return TRUE;
}

/* Settles the layout's lines but the last two, laid out at the width
 * allocated (see the top of this file), once there are SETTLE_LINES of
 * them: a short paragraph costs less laid out whole than settled
 * (bench/bench-paragraph.c: 4 % more instructions an update in paragraphs
 * of three lines settled at each line) */
static void
settle (AgentGtkStreamParagraph *self)
{
  PangoLayout *layout = self->layout;
  PangoLayout *lines;
  g_autoptr(PangoAttrList) attrs = NULL;
  int n_lines = layout ? pango_layout_get_line_count (layout) : 0;
  int before, after;
  int start, end;
  int height;

  if (n_lines < SETTLE_LINES + 2 || self->width <= 0 || self->settle_failed ||
      pango_layout_get_width (layout) != self->width * PANGO_SCALE ||
      gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL ||
      !left_to_right (layout, n_lines - 2))
    return;

  before = height_for_width_units (self, self->width);
  start = self->settled_len;
  end = start + pango_layout_get_line_readonly (layout, n_lines - 2)->start_index;

  /* Those lines in a layout of their own: the same text at the same width
   * breaks in the same places */
  lines = pango_layout_copy (layout);
  attrs = attrs_slice (self->attrs, start, end);
  pango_layout_set_auto_dir (lines, FALSE);
  pango_layout_set_text (lines, self->text + start, end - start);
  pango_layout_set_attributes (lines, attrs);
  if (pango_layout_get_line_count (lines) != n_lines - 2)
    {
      self->settle_failed = TRUE;
      g_object_unref (lines);
      return;
    }
  pango_layout_get_size (lines, NULL, &height);
  for (int i = 0; i < n_lines - 2; i++)
    {
      PangoRectangle logical;

      pango_layout_line_get_extents (pango_layout_get_line_readonly (lines, i), NULL, &logical);
      self->settled_natural += logical.width;
    }

  if (self->settled == NULL)
    {
      self->settled = g_ptr_array_new_with_free_func (g_object_unref);
      self->settled_width = self->width * PANGO_SCALE;
    }
  g_ptr_array_add (self->settled, lines);
  self->settled_len = end;
  self->settled_height += height;
  self->n_settles++;
  set_layout_text (self);

  /* As tall as the paragraph laid out whole, or laid out whole */
  after = height_for_width_units (self, self->width);
  if (PANGO_PIXELS_CEIL (after) != PANGO_PIXELS_CEIL (before))
    {
      self->settle_failed = TRUE;
      unsettle (self);
    }
}

static void
queue_resize (AgentGtkStreamParagraph *self)
{
  self->n_resizes++;
  self->stale = FALSE;
  self->width = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
agent_gtk_stream_paragraph_measure (GtkWidget      *widget,
                                    GtkOrientation  orientation,
                                    int             for_size,
                                    int            *minimum,
                                    int            *natural,
                                    int            *minimum_baseline,
                                    int            *natural_baseline)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);
  PangoLayout *layout = ensure_layout (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* A wrapped label's: at least MIN_CHARS characters, at most its
       * text on one line */
      PangoFontMetrics *metrics = pango_context_get_metrics (pango_layout_get_context (layout),
                                                             NULL, NULL);
      int chars = MAX (pango_font_metrics_get_approximate_char_width (metrics),
                       pango_font_metrics_get_approximate_digit_width (metrics));
      PangoRectangle logical;

      pango_font_metrics_unref (metrics);
      pango_layout_set_width (layout, -1);
      pango_layout_get_extents (layout, NULL, &logical);
      *minimum = PANGO_PIXELS_CEIL (chars * MIN_CHARS);
      /* The settled lines on one line with the rest */
      *natural = MAX (*minimum, PANGO_PIXELS_CEIL (self->settled_natural + logical.width));
    }
  else
    *minimum = *natural = height_for_width (self, for_size);
}

static GtkSizeRequestMode
agent_gtk_stream_paragraph_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* GTK keeps the sizes it measured for other widths: given one of them
 * with a text changed since (no resize queued then), they may be old */
static void
agent_gtk_stream_paragraph_size_allocate (GtkWidget *widget,
                                          int        width,
                                          int        height,
                                          int        baseline)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);

  if (self->settled != NULL && width * PANGO_SCALE != self->settled_width)
    unsettle (self);
  self->width = width;
  self->height = height_for_width (self, width);
  if (self->stale && self->height != height)
    queue_resize (self);
}

/* The settled lines drawn in @color: the node kept gains the lines settled
 * since it was made, in a node around it, or is made again when that
 * nesting would be deep (GTK walks it at each frame) */
static GskRenderNode *
settled_node (AgentGtkStreamParagraph *self,
              const GdkRGBA           *color)
{
  GtkSnapshot *snapshot;
  int y = 0;

  if (self->settled_node != NULL &&
      (!gdk_rgba_equal (color, &self->settled_color) ||
       (self->settled_node_n < self->settled->len && self->settled_node_depth >= MAX_NODE_DEPTH)))
    {
      g_clear_pointer (&self->settled_node, gsk_render_node_unref);
      self->settled_node_n = 0;
      self->settled_node_depth = 0;
    }
  if (self->settled_node != NULL && self->settled_node_n == self->settled->len)
    return self->settled_node;

  snapshot = gtk_snapshot_new ();
  for (guint i = 0; i < self->settled->len; i++)
    {
      PangoLayout *lines = g_ptr_array_index (self->settled, i);
      int height;

      if (i == 0 && self->settled_node != NULL)
        gtk_snapshot_append_node (snapshot, self->settled_node);
      if (i >= self->settled_node_n)
        {
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (float) y / PANGO_SCALE));
          gtk_snapshot_append_layout (snapshot, lines, color);
          gtk_snapshot_restore (snapshot);
        }
      pango_layout_get_size (lines, NULL, &height);
      y += height;
    }
  g_clear_pointer (&self->settled_node, gsk_render_node_unref);
  self->settled_node = gtk_snapshot_free_to_node (snapshot);
  self->settled_node_n = self->settled->len;
  self->settled_node_depth++;
  self->settled_color = *color;
  return self->settled_node;
}

static void
agent_gtk_stream_paragraph_snapshot (GtkWidget   *widget,
                                     GtkSnapshot *snapshot)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);
  int width = gtk_widget_get_width (widget);
  PangoLayout *layout = ensure_layout (self);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  PangoRectangle logical;
  GdkRGBA color;
  int height;
  double x, y;

  if (self->settled != NULL && width * PANGO_SCALE != self->settled_width)
    unsettle (self);

  /* A label's colour. Workaround, GTK < 4.10: gtk_widget_get_color() */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS

  height = height_for_width (self, width);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* Placed as GtkLabel places its text: xalign 0 (1 right to left),
   * yalign 0.5 */
  x = floor ((rtl ? 1.0 : 0.0) * (width - logical.width)) - logical.x;
  y = floor ((gtk_widget_get_height (widget) - height) * 0.5);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  if (self->settled != NULL)
    {
      gtk_snapshot_append_node (snapshot, settled_node (self, &color));
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (0, (float) self->settled_height / PANGO_SCALE));
    }
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

/* GtkWidget queues what a change of style needs (a resize for the font);
 * the layout follows its context, the links the theme's colour */
static void
agent_gtk_stream_paragraph_css_changed (GtkWidget         *widget,
                                        GtkCssStyleChange *change)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);

  GTK_WIDGET_CLASS (agent_gtk_stream_paragraph_parent_class)->css_changed (widget, change);
  /* The settled lines were laid out in the old font */
  unsettle (self);
  if (self->layout != NULL)
    apply_text (self);
}

static void
agent_gtk_stream_paragraph_direction_changed (GtkWidget        *widget,
                                              GtkTextDirection  previous)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);

  unsettle (self);
  g_clear_object (&self->layout);
  queue_resize (self);
}

static void
agent_gtk_stream_paragraph_finalize (GObject *object)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (object);

  unsettle (self);
  g_clear_object (&self->layout);
  g_free (self->markup);
  g_free (self->plain);
  g_free (self->text);
  g_clear_pointer (&self->attrs, pango_attr_list_unref);

  G_OBJECT_CLASS (agent_gtk_stream_paragraph_parent_class)->finalize (object);
}

static void
agent_gtk_stream_paragraph_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->markup);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->plain);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_stream_paragraph_class_init (AgentGtkStreamParagraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = agent_gtk_stream_paragraph_finalize;
  object_class->get_property = agent_gtk_stream_paragraph_get_property;

  /* As GtkLabel's: its markup, and its text without markup (what the
   * tests read of a label-like widget: tests/gui-common) */
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->get_request_mode = agent_gtk_stream_paragraph_get_request_mode;
  widget_class->measure = agent_gtk_stream_paragraph_measure;
  widget_class->size_allocate = agent_gtk_stream_paragraph_size_allocate;
  widget_class->snapshot = agent_gtk_stream_paragraph_snapshot;
  widget_class->css_changed = agent_gtk_stream_paragraph_css_changed;
  widget_class->direction_changed = agent_gtk_stream_paragraph_direction_changed;

  /* Styled as the label it stands for */
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
agent_gtk_stream_paragraph_init (AgentGtkStreamParagraph *self)
{
  self->width = -1;
}

GtkWidget *
agent_gtk_stream_paragraph_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_STREAM_PARAGRAPH, NULL);
}

/**
 * agent_gtk_stream_paragraph_set_markup:
 * @self: a #AgentGtkStreamParagraph
 * @markup: the paragraph's markup, as the Markdown parser writes it
 * @plain: its text, shown should @markup be refused
 *
 * Shows a new text. While the paragraph keeps its height at the width
 * it was given, only a draw is queued. The Markdown view renders once a
 * frame, so screen readers are told of the text once a frame at most.
 */
void
agent_gtk_stream_paragraph_set_markup (AgentGtkStreamParagraph *self,
                                       const char              *markup,
                                       const char              *plain)
{
  g_return_if_fail (AGENT_GTK_IS_STREAM_PARAGRAPH (self));

  if (g_strcmp0 (self->markup, markup) == 0 && g_strcmp0 (self->plain, plain) == 0)
    return;
  g_free (self->markup);
  self->markup = g_strdup (markup);
  g_free (self->plain);
  self->plain = g_strdup (plain);
  if (self->layout != NULL)
    apply_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  /* What a GtkLabel says of its text */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->plain ? self->plain : "", -1);

  if (self->width > 0 && height_for_width (self, self->width) == self->height)
    {
      self->stale = TRUE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      settle (self);
    }
  else
    queue_resize (self);
}

const char *
agent_gtk_stream_paragraph_get_markup (AgentGtkStreamParagraph *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_STREAM_PARAGRAPH (self), NULL);
  return self->markup;
}

const char *
agent_gtk_stream_paragraph_get_plain (AgentGtkStreamParagraph *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_STREAM_PARAGRAPH (self), NULL);
  return self->plain;
}

/* agent_gtk_stream_paragraph_get_n_resizes:
 * @self: a #AgentGtkStreamParagraph
 *
 * Returns: how many times a new text queued a resize (not only a draw)
 */
guint
agent_gtk_stream_paragraph_get_n_resizes (AgentGtkStreamParagraph *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_STREAM_PARAGRAPH (self), 0);
  return self->n_resizes;
}

/* agent_gtk_stream_paragraph_get_n_settled_lines:
 * @self: a #AgentGtkStreamParagraph
 * @n_settles: (out) (optional): how many times lines were settled
 * @n_unsettles: (out) (optional): how many times settled lines were laid
 *   out again
 *
 * Returns: how many of its lines are settled (laid out once, not again at
 * each new text) now
 */
guint
agent_gtk_stream_paragraph_get_n_settled_lines (AgentGtkStreamParagraph *self,
                                                guint                   *n_settles,
                                                guint                   *n_unsettles)
{
  guint n_lines = 0;

  g_return_val_if_fail (AGENT_GTK_IS_STREAM_PARAGRAPH (self), 0);
  if (n_settles != NULL)
    *n_settles = self->n_settles;
  if (n_unsettles != NULL)
    *n_unsettles = self->n_unsettles;
  for (guint i = 0; self->settled != NULL && i < self->settled->len; i++)
    n_lines += pango_layout_get_line_count (g_ptr_array_index (self->settled, i));
  return n_lines;
}
