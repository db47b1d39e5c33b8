/* agent-gtk-code.c
 *
 * Code blocks highlighted by GtkSourceView 5: the language from the
 * fence's info string ("python", "py", "sh"…), the style scheme following
 * the light or dark style (Adwaita, Adwaita-dark). The text stays a
 * selectable GtkLabel, as the rest of an answer: GtkSourceView's
 * highlighting engine colours a GtkSourceBuffer kept with the label, and
 * its tags become the label's Pango attributes. While a block streams,
 * the buffer only grows: what was highlighted is not done again.
 *
 * The text is cut in labels of CODE_PIECE_LINES lines while the block
 * streams (its closing fence not there yet): GTK lays out again the whole
 * text of a label whose text changes, and a block of 200 lines took 9-11 ms
 * of each frame that added to its last line, 45 µs a line (bench-gui
 * --answer code:200). Only the last piece changes then. Once the block is
 * closed, the pieces are of CODE_CLOSED_PIECE_LINES lines, so that a
 * selection can span the whole of most blocks. Not one label whatever
 * its length: Pango's work on a label grows faster than its lines, and a
 * block of 5,000 lines took 1.4 s to show in one label, 0.2 s in labels of
 * 128 lines, 0.3 s in labels of 512.
 *
 * GtkSourceView's first use costs 40-50 ms (bench-gui's VM: gtk_source_init(),
 * the index of its languages, the style scheme): it is
 * done at idle once the window has drawn a frame, not in the frame that
 * shows an answer's first code block. So is loading the SVG loader that
 * draws the spinner of the first answer waited for (10-20 ms).
 *
 * A language's definitions are read (7-14 ms) the first time a block
 * shows it: at idle too. The block shows plain in that frame and
 * highlighted once they are read. They stay loaded for the process
 * (GtkSourceView would free them with the last buffer using them, and read
 * them again for the next conversation's first block).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "markdown/agent-gtk-code-private.h"

/* The text of a code block: its pieces, one under the other, as a
 * vertical GtkBox lays them out (and named "box", as it was, for the style
 * and screen readers) */
struct _AgentGtkCode
{
  GtkWidget        parent_instance;
  GtkSourceBuffer *buffer;      /* highlighted: once its language is known and read */
  GHashTable      *tag_styles;  /* GtkTextTag → TagStyle, of the buffer's scheme */
  char            *language;    /* the fence's info string */
  char            *text;
  guint            open : 1;    /* the block may grow (its closing fence not there yet) */
  guint            pending : 1; /* waits for its language to be read */
};

G_DEFINE_FINAL_TYPE (AgentGtkCode, agent_gtk_code, GTK_TYPE_WIDGET)

/* Lines in each label of a block that streams, and of a closed one */
#define CODE_PIECE_LINES 32
#define CODE_CLOSED_PIECE_LINES 256

static guint
piece_lines (AgentGtkCode *self)
{
  return self->open ? CODE_PIECE_LINES : CODE_CLOSED_PIECE_LINES;
}

/* The languages read, by id: a buffer holding each */
static GHashTable *loaded_languages;
/* The blocks waiting for their language to be read, and the idle reading it */
static GPtrArray *pending_blocks;
static guint load_source;

/* The fence's name, or a file name's extension */
static GtkSourceLanguage *
find_language (const char *name)
{
  GtkSourceLanguageManager *manager = gtk_source_language_manager_get_default ();
  static const struct { const char *alias; const char *id; } aliases[] = {
    { "py", "python3" }, { "python", "python3" }, { "js", "js" }, { "javascript", "js" },
    { "ts", "typescript" }, { "sh", "sh" }, { "bash", "sh" }, { "shell", "sh" },
    { "console", "sh" }, { "zsh", "sh" }, { "c++", "cpp" }, { "rs", "rust" },
    { "yml", "yaml" }, { "md", "markdown" }, { "html", "html" }, { "xml", "xml" },
    { "json", "json" }, { "rb", "ruby" }, { "golang", "go" }, { "kt", "kotlin" },
  };
  g_autofree char *lower = NULL;
  g_autofree char *file = NULL;
  GtkSourceLanguage *language;

  if (name == NULL || *name == '\0')
    return NULL;
  lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (lower, aliases[i].alias) &&
        (language = gtk_source_language_manager_get_language (manager, aliases[i].id)))
      return language;
  if ((language = gtk_source_language_manager_get_language (manager, lower)))
    return language;
  file = g_strconcat ("block.", lower, NULL);
  return gtk_source_language_manager_guess_language (manager, file, NULL);
}

static void
apply_scheme (AgentGtkCode *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (
    schemes, dark ? "Adwaita-dark" : "Adwaita");

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "classic-dark"
                                                                       : "classic");
  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
  g_clear_pointer (&self->tag_styles, g_hash_table_unref);
}

/* What a tag of the highlighting sets, read once a tag (g_object_get() of
 * six properties for every run of every frame was most of re-highlighting
 * a long block as it streams) */
typedef struct
{
  gboolean color_set, weight_set, style_set;
  guint16  red, green, blue;
  int      weight;
  PangoStyle style;
} TagStyle;

static const TagStyle *
tag_style (AgentGtkCode *self,
           GtkTextTag   *tag)
{
  TagStyle *style;

  if (self->tag_styles == NULL)
    self->tag_styles = g_hash_table_new_full (NULL, NULL, g_object_unref, g_free);
  style = g_hash_table_lookup (self->tag_styles, tag);
  if (style == NULL)
    {
      g_autoptr(GdkRGBA) color = NULL;
      int weight = PANGO_WEIGHT_NORMAL;
      PangoStyle slant = PANGO_STYLE_NORMAL;

      style = g_new0 (TagStyle, 1);
      g_object_get (tag, "foreground-set", &style->color_set, "foreground-rgba", &color,
                    "weight-set", &style->weight_set, "weight", &weight,
                    "style-set", &style->style_set, "style", &slant, NULL);
      style->color_set = style->color_set && color != NULL;
      if (style->color_set)
        {
          style->red = color->red * 65535;
          style->green = color->green * 65535;
          style->blue = color->blue * 65535;
        }
      style->weight = weight;
      style->style = slant;
      g_hash_table_insert (self->tag_styles, g_object_ref (tag), style);
    }
  return style;
}

static void
add_attribute (PangoAttrList  *attributes,
               PangoAttribute *attribute,
               guint           start,
               guint           end)
{
  attribute->start_index = start;
  attribute->end_index = end;
  pango_attr_list_insert (attributes, attribute);
}

/* The tags of the highlighted buffer, as the attributes of @label, which
 * shows its lines from @first on */
static void
update_attributes (AgentGtkCode *self,
                   GtkLabel     *label,
                   int           first)
{
  GtkSourceBuffer *buffer = self->buffer;
  GtkTextBuffer *text_buffer = GTK_TEXT_BUFFER (buffer);
  PangoAttrList *attributes = pango_attr_list_new ();
  const char *text = gtk_label_get_text (label);
  const char *at = text;
  int offset;
  GtkTextIter iter, end;

  gtk_text_buffer_get_iter_at_line (text_buffer, &iter, first);
  end = iter;
  gtk_text_iter_forward_chars (&end, g_utf8_strlen (text, -1));
  gtk_source_buffer_ensure_highlight (buffer, &iter, &end);
  offset = gtk_text_iter_get_offset (&iter);
  while (gtk_text_iter_compare (&iter, &end) < 0)
    {
      GtkTextIter next = iter;
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&iter);
      guint from;
      guint to;

      if (!gtk_text_iter_forward_to_tag_toggle (&next, NULL) ||
          gtk_text_iter_compare (&next, &end) > 0)
        next = end;
      from = g_utf8_offset_to_pointer (at, gtk_text_iter_get_offset (&iter) - offset) - text;
      to = g_utf8_offset_to_pointer (text + from, gtk_text_iter_get_offset (&next) -
                                                  gtk_text_iter_get_offset (&iter)) - text;
      for (GSList *l = tags; l != NULL; l = l->next)
        {
          const TagStyle *style = tag_style (self, l->data);

          if (style->color_set)
            add_attribute (attributes,
                           pango_attr_foreground_new (style->red, style->green, style->blue),
                           from, to);
          if (style->weight_set)
            add_attribute (attributes, pango_attr_weight_new (style->weight), from, to);
          if (style->style_set)
            add_attribute (attributes, pango_attr_style_new (style->style), from, to);
        }
      at = text + to;
      offset = gtk_text_iter_get_offset (&next);
      iter = next;
    }
  gtk_label_set_attributes (label, attributes);
  pango_attr_list_unref (attributes);
}

/* The pieces of @code with their first lines: the attributes of each
 * piece in @changed (all, if %NULL) */
static void
update_pieces_attributes (AgentGtkCode *self,
                          GPtrArray    *changed)
{
  guint lines = piece_lines (self);
  int first = 0;

  if (self->buffer == NULL || gtk_source_buffer_get_language (self->buffer) == NULL)
    return;
  for (GtkWidget *piece = gtk_widget_get_first_child (GTK_WIDGET (self)); piece != NULL;
       piece = gtk_widget_get_next_sibling (piece))
    {
      if (changed == NULL || g_ptr_array_find (changed, piece, NULL))
        update_attributes (self, GTK_LABEL (piece), first);
      first += lines;
    }
}

static void
on_dark_changed (AgentGtkCode *self)
{
  if (self->buffer != NULL && gtk_source_buffer_get_language (self->buffer) != NULL)
    {
      apply_scheme (self);
      update_pieces_attributes (self, NULL);
    }
}

/* One step of the preparation at a time, so that no idle blocks the main
 * loop for long (@user_data: the display) */
static gboolean
prepare_step (gpointer user_data)
{
  static guint step;
  GdkDisplay *display = user_data;

  switch (step++)
    {
    case 0:
      gtk_source_init ();
      return G_SOURCE_CONTINUE;
    case 1:
      gtk_source_language_manager_get_language_ids (gtk_source_language_manager_get_default ());
      return G_SOURCE_CONTINUE;
    case 2:
      gtk_source_style_scheme_manager_get_scheme (
        gtk_source_style_scheme_manager_get_default (),
        adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "Adwaita-dark" : "Adwaita");
      return G_SOURCE_CONTINUE;
    default:
      {
        /* The spinner of an answer being waited for: the theme's one SVG
         * icon (Adwaita's others are PNG), whose loader, librsvg, took
         * 10-20 ms of the first answer's first frame. Drawn once, the icon
         * stays in the theme's cache. */
        g_autoptr(GtkIconPaintable) icon = NULL;
        g_autoptr(GtkSnapshot) snapshot = NULL;
        g_autoptr(GskRenderNode) node = NULL;

        icon = gtk_icon_theme_lookup_icon (gtk_icon_theme_get_for_display (display),
                                           "process-working-symbolic", NULL, 16, 1,
                                           GTK_TEXT_DIR_NONE, 0);
        snapshot = gtk_snapshot_new ();
        gdk_paintable_snapshot (GDK_PAINTABLE (icon), snapshot, 16, 16);
        node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
        return G_SOURCE_REMOVE;
      }
    }
}

static void
on_after_first_paint (GdkFrameClock *clock,
                      gpointer       user_data)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_first_paint, user_data);
  g_idle_add_full (G_PRIORITY_LOW, prepare_step, user_data, g_object_unref);
}

/**
 * _agent_gtk_code_prepare:
 * @widget: a mapped widget that will show answers
 *
 * Loads what highlighting needs, and the SVG loader of the spinner that an
 * answer waited for shows, at idle after @widget's window has drawn its
 * next frame; once a process.
 */
void
_agent_gtk_code_prepare (GtkWidget *widget)
{
  static gboolean scheduled;
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  if (scheduled || clock == NULL)
    return;
  scheduled = TRUE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_first_paint),
                    g_object_ref (gtk_widget_get_display (widget)));
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
}

/* Languages read at idle */

static gboolean
language_is_loaded (GtkSourceLanguage *language)
{
  return loaded_languages != NULL &&
         g_hash_table_contains (loaded_languages, gtk_source_language_get_id (language));
}

/* Reads @language's definitions (a buffer using it highlights a line) and
 * keeps them */
static void
load_language (GtkSourceLanguage *language)
{
  GtkSourceBuffer *buffer = gtk_source_buffer_new_with_language (language);
  GtkTextIter start, end;

  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), "x\n", -1);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  gtk_source_buffer_ensure_highlight (buffer, &start, &end);
  if (loaded_languages == NULL)
    loaded_languages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_hash_table_insert (loaded_languages, g_strdup (gtk_source_language_get_id (language)), buffer);
}

/* One language a dispatch; the blocks waiting for it are highlighted */
static gboolean
load_pending (gpointer user_data)
{
  g_autoptr(GPtrArray) blocks = g_steal_pointer (&pending_blocks);
  GtkSourceLanguage *language = NULL;

  pending_blocks = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < blocks->len; i++)
    {
      AgentGtkCode *code = g_ptr_array_index (blocks, i);
      g_autofree char *name = g_strdup (code->language);
      GtkSourceLanguage *found = find_language (name);

      if (found != NULL && !language_is_loaded (found) && language == NULL)
        {
          language = found;
          load_language (language);
        }
      if (found == NULL || language_is_loaded (found))
        {
          g_autofree char *text = g_strdup (code->text);

          code->pending = FALSE;
          _agent_gtk_code_set_text (GTK_WIDGET (code), text, name, code->open);
        }
      else
        g_ptr_array_add (pending_blocks, g_object_ref (code));
    }
  if (pending_blocks->len > 0)
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&pending_blocks, g_ptr_array_unref);
  load_source = 0;
  return G_SOURCE_REMOVE;
}

static void
wait_for_language (AgentGtkCode *code)
{
  if (code->pending)
    return;
  code->pending = TRUE;
  if (pending_blocks == NULL)
    pending_blocks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (pending_blocks, g_object_ref (code));
  if (load_source == 0)
    load_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, load_pending, NULL, NULL);
}

/* The pieces */

static GtkWidget *
piece_new (void)
{
  GtkWidget *piece = gtk_label_new (NULL);

  gtk_widget_add_css_class (piece, "monospace");
  gtk_label_set_xalign (GTK_LABEL (piece), 0);
  gtk_label_set_selectable (GTK_LABEL (piece), TRUE);
  gtk_widget_set_focusable (piece, FALSE);
  /* Out of the Tab chain: GTK 4.8's selectable labels take Tab otherwise */
  gtk_widget_set_can_focus (piece, FALSE);
  return piece;
}

/* Cuts @text in pieces of piece_lines() lines: the pieces whose text
 * changed go to @changed */
static void
set_pieces (AgentGtkCode *self,
            const char   *text,
            GPtrArray    *changed)
{
  GtkWidget *piece = gtk_widget_get_first_child (GTK_WIDGET (self));
  guint n_lines = piece_lines (self);
  const char *start = text;

  for (;;)
    {
      const char *end = start;
      gsize length;

      for (guint lines = 0; lines < n_lines && end != NULL; lines++)
        {
          end = strchr (end, '\n');
          if (end != NULL && lines + 1 < n_lines)
            end++;
        }
      length = end != NULL ? (gsize) (end - start) : strlen (start);
      if (piece == NULL)
        {
          piece = piece_new ();
          gtk_widget_insert_before (piece, GTK_WIDGET (self), NULL);
        }
      if (strncmp (gtk_label_get_text (GTK_LABEL (piece)), start, length) != 0 ||
          gtk_label_get_text (GTK_LABEL (piece))[length] != '\0')
        {
          g_autofree char *part = g_strndup (start, length);

          gtk_label_set_text (GTK_LABEL (piece), part);
          g_ptr_array_add (changed, piece);
        }
      piece = gtk_widget_get_next_sibling (piece);
      if (end == NULL)
        break;
      start = end + 1;
    }
  while (piece != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (piece);

      gtk_widget_unparent (piece);
      piece = next;
    }
}

/**
 * _agent_gtk_code_new:
 *
 * Returns: a code block's text: selectable labels, in monospace
 */
GtkWidget *
_agent_gtk_code_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_CODE, NULL);
}

/**
 * _agent_gtk_code_set_text:
 * @code: the text of a code block, from _agent_gtk_code_new()
 * @text: the code
 * @language: (nullable): the fence's info string
 * @open: whether the block may grow (its closing fence not there yet)
 *
 * Shows @text in @code, highlighted when its language is known.
 */
void
_agent_gtk_code_set_text (GtkWidget  *code,
                          const char *text,
                          const char *language,
                          gboolean    open)
{
  AgentGtkCode *self = (AgentGtkCode *) code;
  g_autoptr(GPtrArray) changed = g_ptr_array_new ();
  g_autofree char *old = NULL;
  GtkTextBuffer *text_buffer;
  GtkTextIter end;

  g_return_if_fail (AGENT_GTK_IS_CODE (code));

  old = g_steal_pointer (&self->text);
  self->text = g_strdup (text);
  self->open = !!open;
  set_pieces (self, text, changed);
  if (self->buffer == NULL)
    {
      GtkSourceLanguage *found;

      gtk_source_init ();
      found = find_language (language);
      g_free (self->language);
      self->language = g_strdup (language);
      if (found == NULL)
        return;
      if (!language_is_loaded (found))
        {
          wait_for_language (self);
          return;
        }
      self->buffer = gtk_source_buffer_new_with_language (found);
      gtk_source_buffer_set_highlight_matching_brackets (self->buffer, FALSE);
      apply_scheme (self);
      g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                               G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
      /* Every piece, even those whose text was already there */
      g_clear_pointer (&changed, g_ptr_array_unref);
    }

  /* A stream only adds: the buffer grows, and keeps its highlighting */
  text_buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_get_end_iter (text_buffer, &end);
  if (gtk_text_buffer_get_char_count (text_buffer) > 0 && old != NULL && g_str_has_prefix (text, old))
    gtk_text_buffer_insert (text_buffer, &end, text + strlen (old), -1);
  else
    gtk_text_buffer_set_text (text_buffer, text, -1);
  update_pieces_attributes (self, changed);
}

/**
 * _agent_gtk_code_get_language:
 * @code: the text of a code block
 *
 * Returns: (nullable): the id of the language it is highlighted as, or
 *   %NULL when it is not
 */
const char *
_agent_gtk_code_get_language (GtkWidget *code)
{
  AgentGtkCode *self = (AgentGtkCode *) code;
  GtkSourceLanguage *language;

  g_return_val_if_fail (AGENT_GTK_IS_CODE (code), NULL);

  language = self->buffer ? gtk_source_buffer_get_language (self->buffer) : NULL;

  return language ? gtk_source_language_get_id (language) : NULL;
}

/* GObject */

static void
agent_gtk_code_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (agent_gtk_code_parent_class)->dispose (object);
}

static void
agent_gtk_code_finalize (GObject *object)
{
  AgentGtkCode *self = AGENT_GTK_CODE (object);

  g_clear_object (&self->buffer);
  g_clear_pointer (&self->tag_styles, g_hash_table_unref);
  g_free (self->language);
  g_free (self->text);

  G_OBJECT_CLASS (agent_gtk_code_parent_class)->finalize (object);
}

static void
agent_gtk_code_class_init (AgentGtkCodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_code_dispose;
  object_class->finalize = agent_gtk_code_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_code_init (AgentGtkCode *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  /* As a vertical GtkBox is */
  gtk_widget_add_css_class (GTK_WIDGET (self), "vertical");
  gtk_widget_insert_before (piece_new (), GTK_WIDGET (self), NULL);
}
