/* bench-gtk-floor.c — what GTK alone spends to show text that streams
 *
 * The floor under bench-gui's CPU a delta: the same display, renderer and
 * window size as agent-chat's, but none of the app. A scrolled column of
 * wrapping GtkLabels, one a paragraph, the last one growing by a word at
 * each delta; a focused GtkTextView below it stands for the composer. The
 * deltas are made in this process by a timeout, --rate a second (no HTTP,
 * no parsing, no Markdown, no rows), and the text is shown at most every
 * --text-interval ms (30, as agent-chat's update pacer shows it), the view
 * kept at its end; only the last 40 paragraphs are kept, what is near the
 * view, as agent-chat keeps only that. What it prints per delta is what any GTK app pays to
 * show text streaming at that pace; agent-chat's cost is above it.
 *
 *   xvfb-run -a -s "-screen 0 1280x1024x24" meson devenv -C _build bench/bench-gtk-floor \
 *     [--deltas N] [--rate N] [--text-interval MS] [--no-cursor-blink] [--verbose]
 *
 * The words are bench-gui's (its Markdown mix, shown as plain text); a
 * blank line begins a new label. The renderer is GTK's cairo renderer
 * unless GSK_RENDERER says otherwise, as in bench-gui.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

#include "bench-frames.h"
#include "bench-util.h"

/* Labels kept: more than the view's height of short paragraphs */
#define MAX_LABELS 40

static int n_deltas = 2000;
static int rate = 100;
static int text_interval = 30;
static gboolean no_cursor_blink = FALSE;
static gboolean verbose = FALSE;

typedef struct
{
  GtkWidget     *column;
  GtkWidget     *label;        /* the paragraph that grows */
  GString       *paragraph;
  GtkAdjustment *vadjustment;
  int            sent;
  gint64         started;
  gint64         shown_at;
  guint          show_id;      /* waiting for the interval to end */
  GdkFrameClock *clock;        /* then for the next frame */
  guint          n_labels;
  gboolean       changed;
  gboolean       done;
} Stream;

/* The text that came since the last update, shown */
static void
show (Stream *self)
{
  self->shown_at = g_get_monotonic_time ();
  if (!self->changed)
    return;
  self->changed = FALSE;
  gtk_label_set_text (GTK_LABEL (self->label), self->paragraph->str);
}

/* At the frame's start, as agent-chat's pacer (a new label's style is
 * then validated in the same frame) */
static void
on_before_paint (GdkFrameClock *clock,
                 gpointer       data)
{
  Stream *self = data;

  g_signal_handlers_disconnect_by_func (clock, on_before_paint, data);
  self->clock = NULL;
  show (self);
}

static gboolean
on_show (gpointer data)
{
  Stream *self = data;

  self->show_id = 0;
  self->clock = gtk_widget_get_frame_clock (self->column);
  g_signal_connect (self->clock, "before-paint", G_CALLBACK (on_before_paint), self);
  gdk_frame_clock_request_phase (self->clock, GDK_FRAME_CLOCK_PHASE_UPDATE);
  return G_SOURCE_REMOVE;
}

/* A delta: a word on the growing paragraph, or a new paragraph */
static void
add_word (Stream     *self,
          const char *word)
{
  gsize length = strlen (word);

  if (length >= 2 && g_str_has_suffix (word, "\n\n"))
    {
      g_string_append_len (self->paragraph, word, length - 2);
      self->changed = TRUE;
      show (self);
      self->label = gtk_label_new (NULL);
      gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (self->label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (self->label), 0);
      gtk_box_append (GTK_BOX (self->column), self->label);
      /* Only what is near the view exists, as in agent-chat (its list
       * view's rows, its long answers' pages): the first label goes */
      if (++self->n_labels > MAX_LABELS)
        {
          gtk_box_remove (GTK_BOX (self->column), gtk_widget_get_first_child (self->column));
          self->n_labels--;
        }
      g_string_truncate (self->paragraph, 0);
      return;
    }
  g_string_append_len (self->paragraph, word, length);
  self->changed = TRUE;
}

/* The deltas due by now, then the text shown once the interval has gone */
static gboolean
send_due (gpointer data)
{
  Stream *self = data;
  gint64 due = (g_get_monotonic_time () - self->started) * rate / G_USEC_PER_SEC + 1;
  gint64 wait;

  while (self->sent < n_deltas && self->sent < due)
    add_word (self, bench_markdown_mix_word (self->sent++));
  if (self->sent == n_deltas)
    {
      g_clear_handle_id (&self->show_id, g_source_remove);
      if (self->clock != NULL)
        g_signal_handlers_disconnect_by_func (self->clock, on_before_paint, self);
      self->clock = NULL;
      show (self);
      self->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  if (self->changed && self->show_id == 0 && self->clock == NULL)
    {
      wait = self->shown_at + text_interval * (gint64) 1000 - g_get_monotonic_time ();
      self->show_id = g_timeout_add (wait > 0 ? (guint) ((wait + 999) / 1000) : 0, on_show, self);
    }
  return G_SOURCE_CONTINUE;
}

/* The view follows the end as the text grows */
static void
follow_end (GtkAdjustment *adjustment,
            gpointer       data)
{
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) -
                                        gtk_adjustment_get_page_size (adjustment));
}

static gboolean
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "deltas", 0, 0, G_OPTION_ARG_INT, &n_deltas, "Deltas to stream (default 2,000)", "N" },
    { "rate", 0, 0, G_OPTION_ARG_INT, &rate, "Deltas a second (default 100)", "N" },
    { "text-interval", 0, 0, G_OPTION_ARG_INT, &text_interval,
      "Text shown at most every MS ms (default 30, agent-chat's)", "MS" },
    { "no-cursor-blink", 0, 0, G_OPTION_ARG_NONE, &no_cursor_blink,
      "The text view's cursor does not blink (GTK's gtk-cursor-blink off)", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Also print the slowest frames", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- GTK's own cost of streaming text");
  g_autoptr(GError) error = NULL;
  Stream stream = { 0, };
  GtkWidget *window;
  GtkWidget *box;
  GtkWidget *scroller;
  GtkWidget *composer;
  BenchFrames *frames;
  double cpu_start;
  double cpu;
  gint64 start;
  gboolean waited = FALSE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-gtk-floor: %s\n", error->message);
      return 1;
    }
  if (rate < 1 || n_deltas < 1 || text_interval < 0)
    {
      g_printerr ("bench-gtk-floor: --rate and --deltas must be at least 1, "
                  "--text-interval at least 0\n");
      return 1;
    }
  if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_init ();
  if (no_cursor_blink)
    g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  /* agent-chat's default size (data/io.github.libagent.Chat.gschema.xml) */
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 760);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  stream.column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (stream.column, 12);
  gtk_widget_set_margin_end (stream.column, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), stream.column);
  gtk_box_append (GTK_BOX (box), scroller);
  composer = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (composer), GTK_WRAP_WORD_CHAR);
  gtk_widget_set_size_request (composer, -1, 60);
  gtk_box_append (GTK_BOX (box), composer);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_grab_focus (composer);

  stream.paragraph = g_string_new (NULL);
  stream.label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (stream.label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (stream.label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (stream.label), 0);
  gtk_box_append (GTK_BOX (stream.column), stream.label);
  stream.n_labels = 1;
  stream.vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_signal_connect (stream.vadjustment, "changed", G_CALLBACK (follow_end), NULL);

  while (!gtk_widget_get_mapped (window))
    g_main_context_iteration (NULL, TRUE);
  frames = bench_frames_new (gtk_widget_get_frame_clock (window));
  bench_frames_wait_drawn (frames, window);

  /* As in bench-gui, a second after the window shows: what GTK does at
   * idle after its first frame is done by then */
  g_timeout_add (1000, set_true, &waited);
  while (!waited)
    g_main_context_iteration (NULL, TRUE);

  bench_frames_record (frames);
  cpu_start = bench_process_cputime ();
  stream.started = start = g_get_monotonic_time ();
  stream.shown_at = G_MININT64 / 2;
  /* Steps of at least 8 ms, as bench-gui's server sends them */
  g_timeout_add (MAX (1000 / rate, 8), send_due, &stream);
  while (!stream.done)
    g_main_context_iteration (NULL, TRUE);
  bench_frames_wait_drawn (frames, window);
  cpu = bench_process_cputime () - cpu_start;
  frames->recording = FALSE;

  printf ("bench-gtk-floor: GTK alone (labels in a scrolled window, a text view), %d deltas in "
          "%.2f s (%d a second asked), %s renderer on %s\n", n_deltas,
          (g_get_monotonic_time () - start) / 1e6, rate,
          G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))),
          G_OBJECT_TYPE_NAME (gtk_widget_get_display (window)));
  printf ("CPU while streaming: %.1f µs a delta (user + system, this process), %.0f%% of one core\n",
          cpu * 1e6 / n_deltas, 100.0 * cpu * 1e6 / MAX (1, g_get_monotonic_time () - start));
  printf ("text shown at most every %d ms\n", text_interval);
  bench_frames_print_cursor_blink ("text view");
  bench_frames_print (frames, verbose);

  bench_frames_free (frames);
  g_string_free (stream.paragraph, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
