/* bench-reopen.c — opening a stored conversation whose answer is long, in
 * agent-chat's window
 *
 *   xvfb-run -a meson devenv -C _build bench/bench-reopen [--lines N] [--runs N]
 *
 * A store in a temporary directory holds a conversation: a question and an
 * answer of N lines (10,000 by default; one paragraph a line, as
 * bench-gui's long answer). The store is opened again, the conversation
 * read on a thread (agent_conversation_load_async(), as the sidebar does),
 * and shown in the real main window; from that moment it prints:
 *
 * - first paint: until the end of the first frame that drew any of the
 *   answer;
 * - laid out: until the answer is all cut into chunks and the pages in
 *   view are made (all its pages, before pages far from the view stood in);
 * - the longest stall of the main loop: the longest gap between two
 *   dispatches of a timeout that asks for one every 2 ms (what input
 *   waits at most), and the longest interval between two frames;
 * - key presses: a real key (xdotool key, through the X server, as a
 *   person's) is pressed every 100 ms from the opening until it is laid
 *   out, and each is timed from the X server's event (Xvfb stamps it with
 *   CLOCK_MONOTONIC) to the moment the window's key controller got it:
 *   what the window made it wait; and from the moment this process asked
 *   for it (a shell of its own runs xdotool), which adds xdotool's start
 *   on a busy machine (the same press on a window at rest is measured
 *   first).
 *
 * The window's store and the bench's are in the temporary directory
 * (XDG_DATA_HOME). The source builds against an agent-chat without the
 * paging of long answers too (copy it into that tree's bench/), to
 * compare.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-window.h"
#include "bench-frames.h"
#include "bench-util.h"

#define KEY "F13"

static int n_lines = 10000;
static int n_runs = 3;
static gboolean verbose = FALSE;
static BenchFrames *frames;

typedef struct
{
  AgentGtkChatView *view;
  gint64   opened_at;
  gint64   painted_at;    /* the first frame that drew the answer */
  gint64   laid_out_at;   /* its last chunk made */
  gint64   last_tick;
  gint64   longest_stall;
  gint64   last_frame;
  gint64   longest_frame;
  GArray  *presses;       /* µs: when each xdotool was started, in order */
  GArray  *latencies;     /* µs, in the same order */
  GArray  *waits;         /* µs from the X server's event to the window's handler */
  guint    tick_source;
  guint    press_source;
  gboolean measuring;
} Run;

static Run run;

/* The Markdown of the answer, once its row is made */
static AgentGtkMarkdownView *
answer_markdown (void)
{
  GtkWidget *list = GTK_WIDGET (_agent_gtk_chat_view_get_list_view (run.view));

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);
      GObject *item;

      if (!AGENT_GTK_IS_MESSAGE_ROW (row))
        continue;
      item = agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row));
      if (AGENT_IS_MESSAGE (item) &&
          agent_message_get_role (AGENT_MESSAGE (item)) == AGENT_MESSAGE_ROLE_ASSISTANT)
        return agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row));
    }
  return NULL;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  gint64 now = g_get_monotonic_time ();
  AgentGtkMarkdownView *markdown;

  if (!run.measuring)
    return;
  if (run.last_frame != 0)
    run.longest_frame = MAX (run.longest_frame, now - run.last_frame);
  run.last_frame = now;
  markdown = answer_markdown ();
  if (markdown == NULL)
    return;
  if (run.painted_at == 0 && _agent_gtk_markdown_view_get_n_drawn (markdown, NULL) > 0)
    run.painted_at = now;
  if (run.laid_out_at == 0 && _agent_gtk_markdown_view_get_n_chunks (markdown) == (guint) n_lines &&
      !agent_gtk_markdown_view_get_laying_out (markdown))
    run.laid_out_at = now;
}

/* The main loop's pulse */
static gboolean
on_tick (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();

  if (run.last_tick != 0)
    run.longest_stall = MAX (run.longest_stall, now - run.last_tick);
  run.last_tick = now;
  return G_SOURCE_CONTINUE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                gpointer               user_data)
{
  gint64 now = g_get_monotonic_time ();
  guint32 event_ms = gtk_event_controller_get_current_event_time (GTK_EVENT_CONTROLLER (controller));
  gint64 latency, wait;

  if (keyval != GDK_KEY_F13 || run.latencies->len >= run.presses->len)
    return FALSE;
  latency = now - g_array_index (run.presses, gint64, run.latencies->len);
  g_array_append_val (run.latencies, latency);
  /* Xvfb stamps its events with CLOCK_MONOTONIC in ms (32 bits) */
  wait = (gint64) (guint32) ((guint32) (now / 1000) - event_ms) * 1000;
  g_array_append_val (run.waits, wait);
  return TRUE;
}

/* The keys are pressed by a small process of their own, asked through a
 * pipe: spawning xdotool from this process would fork its hundreds of
 * megabytes at each press, which cost the window more than the answer */
static int presser = -1;

static void
start_presser (void)
{
  const char *argv[] = { "/bin/sh", "-c", "while read press; do xdotool key " KEY "; done", NULL };
  g_autoptr(GError) error = NULL;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                                 &presser, NULL, NULL, &error))
    g_error ("bench-reopen: %s", error->message);
}

static void
press_key (void)
{
  gint64 now = g_get_monotonic_time ();

  if (write (presser, "press\n", 6) != 6)
    g_error ("bench-reopen: the key presser is gone");
  g_array_append_val (run.presses, now);
}

static gboolean
on_press_timer (gpointer user_data)
{
  press_key ();
  return G_SOURCE_CONTINUE;
}

static void
iterate_for (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* Until every press was answered (or 5 s) */
static void
wait_for_presses (void)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (run.latencies->len < run.presses->len && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!agent_conversation_load_finish (AGENT_CONVERSATION (object), result, &error))
    g_error ("bench-reopen: %s", error->message);
  *(gboolean *) user_data = TRUE;
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  agent_store_flush_finish (AGENT_STORE (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static void
iterate_until (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

/* A store holding the conversation; its path */
static char *
make_store (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = agent_store_new (path, &error);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER,
                                                        "A long one, please");
  g_autoptr(AgentMessage) answer = NULL;
  gboolean flushed = FALSE;

  if (store == NULL)
    g_error ("bench-reopen: %s", error->message);
  for (int i = 1; i <= n_lines; i++)
    g_string_append_printf (text, "Line %d of a long answer.\n\n", i);
  answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, text->str);
  conversation = agent_store_create_conversation (store);
  if (!agent_memory_append (AGENT_MEMORY (conversation), question, &error) ||
      !agent_memory_append (AGENT_MEMORY (conversation), answer, &error))
    g_error ("bench-reopen: %s", error->message);
  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  iterate_until (&flushed);
  return g_steal_pointer (&path);
}

static double
max_of (GArray *values)
{
  gint64 most = 0;

  for (guint i = 0; i < values->len; i++)
    most = MAX (most, g_array_index (values, gint64, i));
  return most / 1000.0;
}

static double
median_of (GArray *values)
{
  g_autofree double *ms = g_new (double, MAX (values->len, 1));

  for (guint i = 0; i < values->len; i++)
    ms[i] = g_array_index (values, gint64, i) / 1000.0;
  return values->len > 0 ? bench_median (ms, values->len) : 0;
}

static void
reopen (GtkWidget  *window,
        const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = agent_store_new (path, &error);
  g_autoptr(GListModel) list = agent_store_list_conversations (store);
  g_autoptr(AgentConversation) conversation = g_list_model_get_item (list, 0);
  gboolean loaded = FALSE;

  /* A new chat first: the conversation is not the one shown */
  agent_chat_window_set_memory (AGENT_CHAT_WINDOW (window), NULL);
  iterate_for (300);
  agent_conversation_load_async (conversation, NULL, loaded_cb, &loaded);
  iterate_until (&loaded);

  memset (&run, 0, sizeof run);
  run.view = agent_chat_window_get_chat_view (AGENT_CHAT_WINDOW (window));
  run.presses = g_array_new (FALSE, FALSE, sizeof (gint64));
  run.latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
  run.waits = g_array_new (FALSE, FALSE, sizeof (gint64));
  run.measuring = TRUE;
  run.tick_source = g_timeout_add_full (G_PRIORITY_HIGH, 2, on_tick, NULL, NULL);
  bench_frames_clear (frames);
  bench_frames_record (frames);
  run.opened_at = g_get_monotonic_time ();
  /* What set_memory() itself takes is a stall too */
  run.last_tick = run.opened_at;
  press_key ();
  run.press_source = g_timeout_add (100, on_press_timer, NULL);
  agent_chat_window_set_memory (AGENT_CHAT_WINDOW (window), AGENT_MEMORY (conversation));
  while (run.laid_out_at == 0 && g_get_monotonic_time () - run.opened_at < 60 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  frames->recording = FALSE;
  g_source_remove (run.press_source);
  wait_for_presses ();
  g_source_remove (run.tick_source);
  run.measuring = FALSE;

  printf ("first paint %7.1f ms   laid out %7.1f ms   longest stall %6.1f ms   longest frame "
          "%6.1f ms\n  %u key presses: from the X server's event to the window, median %.1f ms, "
          "longest %.1f ms; from the request (xdotool started), median %.1f ms, longest %.1f ms\n",
          run.painted_at ? (run.painted_at - run.opened_at) / 1000.0 : -1,
          run.laid_out_at ? (run.laid_out_at - run.opened_at) / 1000.0 : -1,
          run.longest_stall / 1000.0, run.longest_frame / 1000.0, run.latencies->len,
          median_of (run.waits), max_of (run.waits), median_of (run.latencies),
          max_of (run.latencies));
  bench_frames_print (frames, verbose);
  g_array_unref (run.presses);
  g_array_unref (run.latencies);
  g_array_unref (run.waits);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "lines", 0, 0, G_OPTION_ARG_INT, &n_lines, "Lines of the answer (default 10,000)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Times it is opened (default 3)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Also print the slowest frames", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- opening a long stored answer");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  GtkEventController *keys;
  GtkWidget *window;

  setvbuf (stdout, NULL, _IOLBF, 0);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-reopen: %s\n", error->message);
      return 1;
    }
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  dir = g_dir_make_tmp ("bench-reopen-XXXXXX", &error);
  if (dir == NULL)
    g_error ("bench-reopen: %s", error->message);
  /* The window's own store goes there too, not into the user's */
  g_setenv ("XDG_DATA_HOME", dir, TRUE);
  gtk_init ();
  adw_init ();
  path = make_store (dir);

  settings = g_settings_new ("io.github.libagent.Chat");
  g_settings_set_string (settings, "provider", "openai");
  g_settings_set_string (settings, "base-url", "http://127.0.0.1:9/v1");
  window = GTK_WIDGET (agent_chat_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 760);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), NULL);
  gtk_widget_add_controller (window, keys);
  gtk_window_present (GTK_WINDOW (window));
  iterate_for (1500);
  start_presser ();
  /* The keyboard to it: there is no window manager under Xvfb */
  g_spawn_command_line_sync ("xdotool search --onlyvisible --name \"Agent Chat\" "
                             "windowfocus --sync %1", NULL, NULL, NULL, NULL);
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), NULL);
  frames = bench_frames_new (gtk_widget_get_frame_clock (window));

  /* The same key, on the window at rest: xdotool's own time */
  {
    memset (&run, 0, sizeof run);
    run.presses = g_array_new (FALSE, FALSE, sizeof (gint64));
    run.latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
    run.waits = g_array_new (FALSE, FALSE, sizeof (gint64));
    for (int i = 0; i < 5; i++)
      {
        press_key ();
        wait_for_presses ();
        iterate_for (50);
      }
    printf ("bench-reopen: an answer of %d lines, %s build; a key press on the window at rest: "
            "median %.1f ms from the X server's event, %.1f ms from the request\n",
            n_lines, BENCH_BUILDTYPE, median_of (run.waits), median_of (run.latencies));
    g_array_unref (run.presses);
    g_array_unref (run.latencies);
    g_array_unref (run.waits);
  }

  for (int i = 0; i < n_runs; i++)
    reopen (window, path);

  gtk_window_destroy (GTK_WINDOW (window));
  bench_frames_free (frames);
  {
    g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
    const char *name;

    while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
      {
        g_autofree char *file = g_build_filename (dir, name, NULL);

        g_unlink (file);
      }
    g_rmdir (dir);
  }
  return 0;
}
