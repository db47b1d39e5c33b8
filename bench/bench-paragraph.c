/* bench-paragraph.c
 *
 * What an answer's growing paragraph costs, alone: a Markdown view
 * streaming (as in a message row) in a window of --width pixels, fed a
 * long paragraph --words words at a time, one frame drawn after each
 * update, as agent-chat shows a stream (30 updates a second). It prints the
 * CPU time of the updates and their frames, per update, and how many lines
 * the paragraph reached.
 *
 * The work is the same at any speed (a fixed number of updates, each with
 * its frame), so it can run under valgrind's callgrind, whose instruction
 * counts do not move with the machine's load as timings do on a shared VM:
 *
 *   xvfb-run -a -s "-screen 0 1280x1024x24" meson devenv -C _build-rel \
 *       bench/bench-paragraph [--updates N] [--words N] [--paragraph N] [--width PX]
 *   xvfb-run -a -s "-screen 0 1280x1024x24" meson devenv -C _build-rel \
 *       valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out bench/bench-paragraph --updates 300
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent-gtk-markdown-view-private.h"
#include "markdown/agent-gtk-stream-paragraph-private.h"
#include "bench-util.h"

static int n_updates = 1200;
static int words_per_update = 3;
static int paragraph_words = 250;
static int width = 720;

static const char *prose[] = {
  "The ", "model ", "keeps ", "writing ", "one ", "long ", "paragraph, ", "as ",
  "some ", "answers ", "do ", "when ", "they ", "`explain` ", "at ", "**length**. ",
};

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  gboolean *painted = user_data;

  *painted = TRUE;
}

/* Until @window drew a frame asked for now */
static void
draw_frame (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  gboolean painted = FALSE;
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);

  gtk_widget_queue_draw (window);
  while (!painted)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "updates", 0, 0, G_OPTION_ARG_INT, &n_updates, "Updates of the text (default 1,200)", "N" },
    { "words", 0, 0, G_OPTION_ARG_INT, &words_per_update, "Words an update adds (default 3)", "N" },
    { "paragraph", 0, 0, G_OPTION_ARG_INT, &paragraph_words,
      "Words a paragraph (default 250)", "N" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "The view's width (default 720)", "PX" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *window;
  GtkWidget *scrolled;
  GtkWidget *view;
  GtkWidget *paragraph = NULL;
  BenchCpu start;
  double cpu;
  guint n_settled = 0;
  guint word = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (n_updates < 1 || words_per_update < 1 || paragraph_words < 1 || width < 100)
    {
      g_printerr ("bench-paragraph: --updates, --words and --paragraph must be positive, "
                  "--width at least 100\n");
      return 2;
    }
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  adw_init ();

  window = gtk_window_new ();
  scrolled = gtk_scrolled_window_new ();
  view = agent_gtk_markdown_view_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), width, 900);
  gtk_window_present (GTK_WINDOW (window));
  draw_frame (window);
  _agent_gtk_markdown_view_set_streaming (AGENT_GTK_MARKDOWN_VIEW (view), TRUE);

  bench_cpu_now (&start);
  for (int i = 0; i < n_updates; i++)
    {
      for (int w = 0; w < words_per_update; w++, word++)
        {
          g_string_append (text, prose[word % G_N_ELEMENTS (prose)]);
          if ((word + 1) % paragraph_words == 0)
            g_string_append (text, "\n\n");
        }
      agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (view), text->str);
      draw_frame (window);
    }
  cpu = bench_cpu_since (&start, NULL, NULL);

  for (GtkWidget *w = view; w != NULL; w = gtk_widget_get_last_child (w))
    if (AGENT_GTK_IS_STREAM_PARAGRAPH (w))
      paragraph = w;
  if (paragraph != NULL)
    n_settled = agent_gtk_stream_paragraph_get_n_settled_lines (AGENT_GTK_STREAM_PARAGRAPH (paragraph),
                                                                NULL, NULL);
  printf ("bench-paragraph: %d updates of %d words, paragraphs of %d words, %d px wide\n",
          n_updates, words_per_update, paragraph_words, width);
  printf ("CPU: %.1f µs an update, with its frame (user + system)\n", cpu * 1e6 / n_updates);
  printf ("the last paragraph: %d px tall, %u lines settled\n",
          paragraph ? gtk_widget_get_height (paragraph) : 0, n_settled);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
