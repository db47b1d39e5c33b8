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

struct _AgentGtkStreamParagraph
{
  GtkWidget    parent_instance;
  PangoLayout *layout;     /* NULL until needed, and when the style changes */
  char        *markup;
  char        *plain;
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

static void
apply_text (AgentGtkStreamParagraph *self)
{
  g_autoptr(PangoAttrList) attrs = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  if (self->markup != NULL)
    markup = pango_markup (GTK_WIDGET (self), self->markup);
  if (markup != NULL && pango_parse_markup (markup, -1, 0, &attrs, &text, NULL, NULL))
    {
      pango_layout_set_text (self->layout, text, -1);
      pango_layout_set_attributes (self->layout, attrs);
    }
  else
    {
      pango_layout_set_text (self->layout, self->plain ? self->plain : "", -1);
      pango_layout_set_attributes (self->layout, NULL);
    }
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

/* The layout's height at @width */
static int
height_for_width (AgentGtkStreamParagraph *self,
                  int                      width)
{
  PangoLayout *layout = ensure_layout (self);
  int height;

  pango_layout_set_width (layout, width >= 0 ? width * PANGO_SCALE : -1);
  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
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
      *natural = MAX (*minimum, PANGO_PIXELS_CEIL (logical.width));
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

  self->width = width;
  self->height = height_for_width (self, width);
  if (self->stale && self->height != height)
    queue_resize (self);
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
  double x, y;

  /* A label's colour. Workaround, GTK < 4.10: gtk_widget_get_color() */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS

  pango_layout_set_width (layout, width * PANGO_SCALE);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* Placed as GtkLabel places its text: xalign 0 (1 right to left),
   * yalign 0.5 */
  x = floor ((rtl ? 1.0 : 0.0) * (width - logical.width)) - logical.x;
  y = floor ((gtk_widget_get_height (widget) - logical.height) * 0.5);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
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
  if (self->layout != NULL)
    apply_text (self);
}

static void
agent_gtk_stream_paragraph_direction_changed (GtkWidget        *widget,
                                              GtkTextDirection  previous)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (widget);

  g_clear_object (&self->layout);
  queue_resize (self);
}

static void
agent_gtk_stream_paragraph_finalize (GObject *object)
{
  AgentGtkStreamParagraph *self = AGENT_GTK_STREAM_PARAGRAPH (object);

  g_clear_object (&self->layout);
  g_free (self->markup);
  g_free (self->plain);

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
