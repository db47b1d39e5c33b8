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
 * GtkSourceView's first use costs 40-50 ms (bench-gui's VM: gtk_source_init(),
 * the index of its languages, the style scheme): it is
 * done at idle once the window has drawn a frame, not in the frame that
 * shows an answer's first code block.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "markdown/agent-gtk-code-private.h"

#define BUFFER_KEY "agent-gtk-code-buffer"

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
apply_scheme (GtkSourceBuffer *buffer)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (
    schemes, dark ? "Adwaita-dark" : "Adwaita");

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "classic-dark"
                                                                       : "classic");
  gtk_source_buffer_set_style_scheme (buffer, scheme);
}

/* The tags of the highlighted buffer, as the label's attributes */
static void
update_attributes (GtkLabel        *label,
                   GtkSourceBuffer *buffer)
{
  GtkTextBuffer *text_buffer = GTK_TEXT_BUFFER (buffer);
  PangoAttrList *attributes = pango_attr_list_new ();
  const char *text = gtk_label_get_text (label);
  const char *at = text;
  int offset = 0;
  GtkTextIter iter, end;

  gtk_text_buffer_get_bounds (text_buffer, &iter, &end);
  gtk_source_buffer_ensure_highlight (buffer, &iter, &end);
  while (!gtk_text_iter_is_end (&iter))
    {
      GtkTextIter next = iter;
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&iter);
      const char *from;
      const char *to;

      if (!gtk_text_iter_forward_to_tag_toggle (&next, NULL))
        next = end;
      from = g_utf8_offset_to_pointer (at, gtk_text_iter_get_offset (&iter) - offset);
      to = g_utf8_offset_to_pointer (from, gtk_text_iter_get_offset (&next) -
                                           gtk_text_iter_get_offset (&iter));
      for (GSList *l = tags; l != NULL; l = l->next)
        {
          g_autoptr(GdkRGBA) color = NULL;
          gboolean color_set = FALSE, weight_set = FALSE, style_set = FALSE;
          int weight = PANGO_WEIGHT_NORMAL;
          PangoStyle style = PANGO_STYLE_NORMAL;
          PangoAttribute *attribute;

          g_object_get (l->data, "foreground-set", &color_set, "foreground-rgba", &color,
                        "weight-set", &weight_set, "weight", &weight,
                        "style-set", &style_set, "style", &style, NULL);
          if (color_set && color != NULL)
            {
              attribute = pango_attr_foreground_new (color->red * 65535, color->green * 65535,
                                                     color->blue * 65535);
              attribute->start_index = from - text;
              attribute->end_index = to - text;
              pango_attr_list_insert (attributes, attribute);
            }
          if (weight_set)
            {
              attribute = pango_attr_weight_new (weight);
              attribute->start_index = from - text;
              attribute->end_index = to - text;
              pango_attr_list_insert (attributes, attribute);
            }
          if (style_set)
            {
              attribute = pango_attr_style_new (style);
              attribute->start_index = from - text;
              attribute->end_index = to - text;
              pango_attr_list_insert (attributes, attribute);
            }
        }
      at = to;
      offset = gtk_text_iter_get_offset (&next);
      iter = next;
    }
  gtk_label_set_attributes (label, attributes);
  pango_attr_list_unref (attributes);
}

static void
on_dark_changed (GtkLabel *label)
{
  GtkSourceBuffer *buffer = g_object_get_data (G_OBJECT (label), BUFFER_KEY);

  if (buffer != NULL && gtk_source_buffer_get_language (buffer) != NULL)
    {
      apply_scheme (buffer);
      update_attributes (label, buffer);
    }
}

/* One step of the preparation at a time, so that no idle blocks the main
 * loop for long */
static gboolean
prepare_step (gpointer user_data)
{
  static guint step;

  switch (step++)
    {
    case 0:
      gtk_source_init ();
      return G_SOURCE_CONTINUE;
    case 1:
      gtk_source_language_manager_get_language_ids (gtk_source_language_manager_get_default ());
      return G_SOURCE_CONTINUE;
    default:
      gtk_source_style_scheme_manager_get_scheme (
        gtk_source_style_scheme_manager_get_default (),
        adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "Adwaita-dark" : "Adwaita");
      return G_SOURCE_REMOVE;
    }
}

static void
on_after_first_paint (GdkFrameClock *clock,
                      gpointer       user_data)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_first_paint, user_data);
  g_idle_add_full (G_PRIORITY_LOW, prepare_step, NULL, NULL);
}

/**
 * _agent_gtk_code_prepare:
 * @widget: a mapped widget that will show code blocks
 *
 * Loads what highlighting needs at idle, after @widget's window has drawn
 * its next frame; once a process.
 */
void
_agent_gtk_code_prepare (GtkWidget *widget)
{
  static gboolean scheduled;
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  if (scheduled || clock == NULL)
    return;
  scheduled = TRUE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_first_paint), NULL);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
}

/**
 * _agent_gtk_code_set_text:
 * @label: the label of a code block
 * @code: the code
 * @language: (nullable): the fence's info string
 *
 * Shows @code in @label, highlighted when its language is known.
 */
void
_agent_gtk_code_set_text (GtkLabel   *label,
                          const char *code,
                          const char *language)
{
  GtkSourceBuffer *buffer = g_object_get_data (G_OBJECT (label), BUFFER_KEY);
  GtkTextBuffer *text_buffer;
  g_autofree char *old = NULL;
  GtkTextIter start, end;

  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_text (label, code);
  if (buffer == NULL)
    {
      GtkSourceLanguage *found;

      gtk_source_init ();
      found = find_language (language);
      g_object_set_data_full (G_OBJECT (label), "agent-gtk-code-language", g_strdup (language),
                              g_free);
      if (found == NULL)
        return;
      buffer = gtk_source_buffer_new_with_language (found);
      gtk_source_buffer_set_highlight_matching_brackets (buffer, FALSE);
      apply_scheme (buffer);
      g_object_set_data_full (G_OBJECT (label), BUFFER_KEY, buffer, g_object_unref);
      g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                               G_CALLBACK (on_dark_changed), label, G_CONNECT_SWAPPED);
    }

  /* A stream only adds: the buffer grows, and keeps its highlighting */
  text_buffer = GTK_TEXT_BUFFER (buffer);
  gtk_text_buffer_get_bounds (text_buffer, &start, &end);
  old = gtk_text_buffer_get_text (text_buffer, &start, &end, TRUE);
  if (g_str_has_prefix (code, old))
    gtk_text_buffer_insert (text_buffer, &end, code + strlen (old), -1);
  else
    gtk_text_buffer_set_text (text_buffer, code, -1);
  update_attributes (label, buffer);
}

/**
 * _agent_gtk_code_get_language:
 * @label: the label of a code block
 *
 * Returns: (nullable): the id of the language it is highlighted as, or
 *   %NULL when it is not
 */
const char *
_agent_gtk_code_get_language (GtkLabel *label)
{
  GtkSourceBuffer *buffer = g_object_get_data (G_OBJECT (label), BUFFER_KEY);
  GtkSourceLanguage *language = buffer ? gtk_source_buffer_get_language (buffer) : NULL;

  return language ? gtk_source_language_get_id (language) : NULL;
}
