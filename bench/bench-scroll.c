/* bench-scroll.c
 *
 * agent-chat while the user scrolls a long chat: the real main window, under
 * Xvfb (or bench/wayland-run), showing a conversation of --messages messages
 * as real chats have them — questions, answers of paragraphs, lists,
 * headings, tables and highlighted code blocks, turns that call tools —
 * opened at its end, then scrolled to its top at --speed pixels a second
 * (a steady fling; each frame moves the view by the time since the last),
 * and back down to its end. The list view makes rows for the messages
 * coming into view, and frees or reuses the ones leaving it: what a frame
 * costs then is what a user feels as a smooth or a jerky scroll.
 *
 * It prints how long the conversation took to draw, then for each way the
 * frame work and its phases, the intervals between frames and how many
 * were late (over 1.5 periods of 60 Hz), the distance scrolled, the rows
 * bound and the CPU time the scroll took.
 *
 *   xvfb-run -a -s "-screen 0 1280x1024x24" meson devenv -C _build-release bench/bench-scroll
 *       [--messages N] [--speed PX] [--width PX] [--renderer R] [--verbose]
 *       [--wheel [--steps N]]
 *
 * With --wheel, real wheel steps scroll instead (see run_wheel()): up to the
 * top and back down, each step timed from the X server's event to the end
 * of the frame that shows it. Nothing of the benchmark's asks for frames:
 * a step that comes while the window draws frames anyway (the composer's
 * blinking cursor, an animation) waits for the next one, and those steps
 * are counted apart; --no-cursor-blink turns the blinking off.
 *
 * The content is made from a fixed seed: every run scrolls the same chat.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-window.h"
#include "bench-frames.h"
#include "bench-util.h"

static int n_messages = 400;
static int speed = 3000;
static int width = 720;
static char *renderer = NULL;
static gboolean verbose = FALSE;
static gboolean wheel = FALSE;
static int max_steps = 0;
static gboolean no_cursor_blink = FALSE;

/* The chat */

static const char *sentence_words[] = {
  "the", "model", "streams", "its", "answer", "while", "a", "tool", "runs", "and", "each",
  "result", "goes", "back", "into", "conversation", "so", "next", "step", "can", "use", "it",
  "when", "server", "closes", "connection", "request", "is", "retried", "from", "start",
  "`agent_session_send()`", "**never**", "*only*", "buffer", "[docs](https://example.org/docs)",
};

static const char *code_lines[] = {
  "static gboolean",
  "on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)",
  "{",
  "  Scroll *scroll = data;  /* where the view goes */",
  "  gint64 now = gdk_frame_clock_get_frame_time (clock);",
  "  double value = gtk_adjustment_get_value (scroll->adjustment);",
  "  if (value <= 0.0)",
  "    return G_SOURCE_REMOVE;",
  "  for (guint i = 0; i < scroll->n_rows; i++)",
  "    g_print (\"%u: %s\\n\", i, scroll->names[i]);",
  "  return G_SOURCE_CONTINUE;",
  "}",
  "def parse(lines):",
  "    for number, line in enumerate(lines, 1):",
  "        if not line.strip():",
  "            continue",
  "        yield number, line.split(\",\")",
};

static const char *languages[] = { "c", "python", "sh", "" };

static void
add_sentence (GString *text,
              GRand   *rand,
              int      n_words)
{
  for (int i = 0; i < n_words; i++)
    {
      const char *word = sentence_words[g_rand_int_range (rand, 0, G_N_ELEMENTS (sentence_words))];

      if (i == 0)
        g_string_append_printf (text, "%c%s", g_ascii_toupper (word[0]), word + 1);
      else
        g_string_append_printf (text, " %s", word);
    }
  g_string_append (text, ". ");
}

static void
add_paragraph (GString *text,
               GRand   *rand)
{
  int n = g_rand_int_range (rand, 2, 7);

  for (int i = 0; i < n; i++)
    add_sentence (text, rand, g_rand_int_range (rand, 6, 18));
  g_string_append (text, "\n\n");
}

static void
add_code (GString *text,
          GRand   *rand)
{
  int n = g_rand_int_range (rand, 4, 41);

  g_string_append_printf (text, "```%s\n", languages[g_rand_int_range (rand, 0, G_N_ELEMENTS (languages))]);
  for (int i = 0; i < n; i++)
    g_string_append_printf (text, "%s\n", code_lines[g_rand_int_range (rand, 0, G_N_ELEMENTS (code_lines))]);
  g_string_append (text, "```\n\n");
}

static void
add_list (GString *text,
          GRand   *rand)
{
  int n = g_rand_int_range (rand, 3, 7);
  gboolean numbered = g_rand_boolean (rand);

  for (int i = 0; i < n; i++)
    {
      g_string_append_printf (text, numbered ? "%d. " : "- ", i + 1);
      add_sentence (text, rand, g_rand_int_range (rand, 4, 14));
      g_string_append_c (text, '\n');
    }
  g_string_append_c (text, '\n');
}

static void
add_table (GString *text,
           GRand   *rand)
{
  g_string_append (text, "| Option | Default | What it does |\n|---|---|---|\n");
  for (int i = 0, n = g_rand_int_range (rand, 2, 6); i < n; i++)
    {
      g_string_append_printf (text, "| `option-%d` | %d | ", i, g_rand_int_range (rand, 0, 100));
      add_sentence (text, rand, g_rand_int_range (rand, 3, 9));
      g_string_append (text, "|\n");
    }
  g_string_append_c (text, '\n');
}

/* An answer: a paragraph, then parts of the kinds answers have */
static char *
make_answer (GRand *rand)
{
  GString *text = g_string_new (NULL);
  int n_parts = g_rand_int_range (rand, 1, 7);

  add_paragraph (text, rand);
  for (int i = 0; i < n_parts; i++)
    {
      switch (g_rand_int_range (rand, 0, 6))
        {
        case 0:
          g_string_append_printf (text, "### Step %d\n\n", i + 1);
          add_paragraph (text, rand);
          break;
        case 1:
        case 2:
          add_code (text, rand);
          break;
        case 3:
          add_list (text, rand);
          break;
        case 4:
          add_table (text, rand);
          break;
        default:
          add_paragraph (text, rand);
          break;
        }
    }
  return g_string_free (text, FALSE);
}

static void
append (AgentMemory  *memory,
        AgentMessage *message)
{
  agent_memory_append (memory, message, NULL);
  g_object_unref (message);
}

/* @n messages at least: a question, sometimes a tool call or two and their
 * results, an answer */
static AgentMemory *
make_chat (guint n)
{
  AgentMemory *memory = agent_simple_memory_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  guint turn = 0;

  while (g_list_model_get_n_items (G_LIST_MODEL (memory)) < n)
    {
      g_autoptr(GString) question = g_string_new (NULL);
      g_autofree char *answer = NULL;

      add_sentence (question, rand, g_rand_int_range (rand, 5, 25));
      if (g_rand_int_range (rand, 0, 8) == 0)
        add_code (question, rand);
      append (memory, agent_message_new (AGENT_MESSAGE_ROLE_USER, question->str));
      if (turn++ % 3 == 1)
        {
          AgentMessage *calls = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
          int n_calls = g_rand_int_range (rand, 1, 3);

          for (int i = 0; i < n_calls; i++)
            {
              g_autofree char *id = g_strdup_printf ("call_%u_%d", turn, i);
              g_autofree char *arguments = g_strdup_printf ("{\"path\": \"src/file-%u.c\", \"line\": %d}",
                                                            turn, g_rand_int_range (rand, 1, 900));
              g_autoptr(AgentToolCall) call = agent_tool_call_new (id, "read_file", arguments);

              agent_message_add_tool_call (calls, call);
            }
          append (memory, calls);
          for (int i = 0; i < n_calls; i++)
            {
              g_autofree char *id = g_strdup_printf ("call_%u_%d", turn, i);
              g_autoptr(GString) result = g_string_new (NULL);

              for (int j = 0, lines = g_rand_int_range (rand, 3, 30); j < lines; j++)
                g_string_append_printf (result, "%s\n", code_lines[g_rand_int_range (rand, 0, G_N_ELEMENTS (code_lines))]);
              append (memory, agent_message_new_tool_result (id, "read_file", result->str, FALSE));
            }
        }
      answer = make_answer (rand);
      append (memory, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer));
    }
  return memory;
}

static gsize
chat_bytes (AgentMemory *chat)
{
  gsize bytes = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (chat)); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (G_LIST_MODEL (chat), i);
      const char *content = agent_message_get_content (message);

      bytes += content != NULL ? strlen (content) : 0;
    }
  return bytes;
}

/* The scroll */

typedef struct
{
  BenchFrames   *frames;
  GtkAdjustment *adjustment;
  double         speed;      /* px/s, up if negative */
  gint64         last_time;
  double         distance;
  guint          n_rows;     /* message rows bound to an item */
  GHashTable    *items;      /* the items bound */
  guint          n_resting;  /* frames the view has not moved: done past RESTING_FRAMES */
} Scroll;

/* At an end, the list brings earlier messages in (or finds the real
 * heights of the last rows) while the view rests there: the scroll is over
 * when it has not moved for this many frames */
#define RESTING_FRAMES 30

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  Scroll *scroll = data;
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double value = gtk_adjustment_get_value (scroll->adjustment);
  double lower = gtk_adjustment_get_lower (scroll->adjustment);
  double upper = gtk_adjustment_get_upper (scroll->adjustment) -
                 gtk_adjustment_get_page_size (scroll->adjustment);
  double target;

  if (scroll->last_time == 0)
    {
      scroll->last_time = now;
      return G_SOURCE_CONTINUE;
    }
  target = CLAMP (value + scroll->speed * (now - scroll->last_time) / 1e6, lower, upper);
  scroll->last_time = now;
  if (target == value)
    return ++scroll->n_resting > RESTING_FRAMES ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
  scroll->n_resting = 0;
  scroll->distance += ABS (target - value);
  gtk_adjustment_set_value (scroll->adjustment, target);
  return G_SOURCE_CONTINUE;
}

static void
on_bind (GtkWidget *row,
         GParamSpec *pspec,
         Scroll     *scroll)
{
  GObject *item = agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row));

  if (item != NULL)
    {
      scroll->n_rows++;
      g_hash_table_add (scroll->items, item);
    }
}

/* Counts the rows bound from now on: the list's children are its items'
 * widgets, each holding a row */
static void
watch_rows (GtkWidget *list,
            Scroll    *scroll)
{
  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && AGENT_GTK_IS_MESSAGE_ROW (row) &&
          g_object_get_data (G_OBJECT (row), "bench-watched") == NULL)
        {
          g_object_set_data (G_OBJECT (row), "bench-watched", scroll);
          g_signal_connect (row, "notify::item", G_CALLBACK (on_bind), scroll);
        }
    }
}

static void
run_scroll (const char    *what,
            GtkWidget     *list,
            Scroll        *scroll,
            double         speed_px)
{
  gint64 start = g_get_monotonic_time ();
  BenchCpu cpu_start;
  double seconds;
  double cpu;

  bench_cpu_now (&cpu_start);

  bench_frames_clear (scroll->frames);
  scroll->speed = speed_px;
  scroll->last_time = 0;
  scroll->distance = 0;
  scroll->n_rows = 0;
  g_hash_table_remove_all (scroll->items);
  scroll->n_resting = 0;
  watch_rows (list, scroll);
  bench_frames_record (scroll->frames);
  gtk_widget_add_tick_callback (list, on_tick, scroll, NULL);
  while (scroll->n_resting <= RESTING_FRAMES)
    {
      g_main_context_iteration (NULL, TRUE);
      watch_rows (list, scroll);
    }
  scroll->frames->recording = FALSE;
  seconds = (g_get_monotonic_time () - start) / 1e6;
  cpu = bench_cpu_since (&cpu_start, NULL, NULL);
  printf ("%s: %.0f px in %.2f s (%.0f px/s), %u rows bound to %u items, CPU %.2f s (%.0f%% of a core)\n", what,
          scroll->distance, seconds, scroll->distance / seconds, scroll->n_rows,
          g_hash_table_size (scroll->items),
          cpu, 100 * cpu / seconds);
  bench_frames_print (scroll->frames, verbose);
  printf ("frames late (interval over 1.5 × 16.7 ms): %u of %u\n",
          bench_frames_count_late (scroll->frames, 1000.0 / 60, 1.5), scroll->frames->intervals->len);
}

/* wait_ms() is below */
static void wait_ms (guint ms);

/* --wheel: real wheel steps. Each is a button 4 (up) or 5 (down) click
 * through the X server (xdotool, as a person's wheel), sent when the
 * frame that showed the step before ended, and timed from the X server's
 * event (Xvfb stamps it with CLOCK_MONOTONIC, in ms) to the end of the
 * first frame after the view moved: what the person waited to see it. */

typedef struct
{
  GtkAdjustment *adjustment;
  BenchFrames   *frames;
  guint32        event_ms;   /* the X server's time of the step's event */
  double         value;      /* the view's when the event came */
  gboolean       pending;    /* an event came, its frame not yet */
  gint64         event_at;   /* when it came to the window, µs */
  gint64         frame_end;  /* the last frame's end, µs */
  gboolean       ticking;    /* a frame ended within a period before the event */
  gint64         last_start; /* the last frame's start, µs */
  guint          n_late;     /* steps not shown by the first frame begun after them */
  GArray        *latencies;  /* ms, event → the end of the frame showing it */
  GArray        *waited;     /* ms, event → the start of that frame */
  GArray        *work;       /* ms, that frame's work */
  GArray        *ticking_latencies;  /* the steps that came while frames ran */
  gboolean       done;
} Wheel;

/* 60 Hz: what Xvfb's frame clock runs at */
#define PERIOD_US (G_USEC_PER_SEC / 60)

static Wheel wheel_state;
static int clicker = -1;

/* The clicks come from a shell of their own, asked through a pipe: forking
 * this process for each would cost the window more than the step */
static void
start_clicker (void)
{
  const char *argv[] = { "/bin/sh", "-c", "while read button; do xdotool click $button; done", NULL };
  g_autoptr(GError) error = NULL;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                                 &clicker, NULL, NULL, &error))
    g_error ("bench-scroll: %s", error->message);
}

static gboolean
on_wheel_scroll (GtkEventControllerScroll *controller,
                 double                    dx,
                 double                    dy,
                 gpointer                  user_data)
{
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));

  if (event != NULL && !wheel_state.pending)
    {
      wheel_state.event_ms = gdk_event_get_time (event);
      wheel_state.value = gtk_adjustment_get_value (wheel_state.adjustment);
      wheel_state.pending = TRUE;
      wheel_state.event_at = g_get_monotonic_time ();
      wheel_state.ticking = (gint64) wheel_state.event_ms * 1000 - wheel_state.frame_end < PERIOD_US;
    }
  return FALSE;  /* the scrolled window scrolls */
}

static void
on_wheel_after_paint (GdkFrameClock *clock,
                      gpointer       user_data)
{
  gint64 now = g_get_monotonic_time ();
  double latency;
  double waited;
  double work;

  wheel_state.frame_end = now;
  if (!wheel_state.pending || gtk_adjustment_get_value (wheel_state.adjustment) == wheel_state.value)
    {
      wheel_state.last_start = wheel_state.frames->frame_start;
      return;
    }
  /* A frame that began after the event, before this one, did not show it */
  if (wheel_state.last_start > (gint64) wheel_state.event_ms * 1000 + 1000)
    wheel_state.n_late++;
  wheel_state.last_start = wheel_state.frames->frame_start;
  latency = (guint32) ((guint32) (now / 1000) - wheel_state.event_ms);
  work = wheel_state.frames->work->len > 0 ?
         g_array_index (wheel_state.frames->work, double, wheel_state.frames->work->len - 1) : 0;
  g_array_append_val (wheel_state.latencies, latency);
  g_array_append_val (wheel_state.work, work);
  waited = (double) (guint32) ((guint32) (wheel_state.frames->frame_start / 1000) - wheel_state.event_ms);
  g_array_append_val (wheel_state.waited, waited);
  if (wheel_state.ticking)
    g_array_append_val (wheel_state.ticking_latencies, latency);
  wheel_state.pending = FALSE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (GArray *values,
            double  p)
{
  g_autoptr(GArray) sorted = g_array_copy (values);

  if (sorted->len == 0)
    return 0;
  g_array_sort (sorted, compare_doubles);
  return g_array_index (sorted, double, MIN (sorted->len - 1, (guint) (p * sorted->len)));
}

static guint
count_over (GArray *values,
            double  limit)
{
  guint n = 0;

  for (guint i = 0; i < values->len; i++)
    n += g_array_index (values, double, i) > limit;
  return n;
}

/* Steps with @button until steps move nothing (or --steps): an end */
static void
run_wheel (const char *what,
           const char *button)
{
  BenchCpu cpu_start;
  gint64 start = g_get_monotonic_time ();
  guint n_lost = 0;
  guint n_still = 0;
  double cpu;

  bench_cpu_now (&cpu_start);
  g_array_set_size (wheel_state.latencies, 0);
  g_array_set_size (wheel_state.work, 0);
  g_array_set_size (wheel_state.ticking_latencies, 0);
  g_array_set_size (wheel_state.waited, 0);
  wheel_state.n_late = 0;
  bench_frames_clear (wheel_state.frames);
  bench_frames_record (wheel_state.frames);
  wheel_state.done = FALSE;
  while (!wheel_state.done && (max_steps == 0 || wheel_state.latencies->len < (guint) max_steps))
    {
      gint64 sent = g_get_monotonic_time ();
      guint n = wheel_state.latencies->len;
      char line[4];

      g_snprintf (line, sizeof line, "%s\n", button);
      if (write (clicker, line, strlen (line)) != (gssize) strlen (line))
        g_error ("bench-scroll: the clicker is gone");
      /* Until the step was shown; three in a row that moved nothing in a
       * second are the end, and a click that did not come in 5 s is
       * counted lost */
      while (wheel_state.latencies->len == n &&
             g_get_monotonic_time () - sent < 5 * G_USEC_PER_SEC &&
             !(wheel_state.pending && g_get_monotonic_time () - wheel_state.event_at > G_USEC_PER_SEC))
        wait_ms (10);
      if (wheel_state.latencies->len == n)
        {
          if (!wheel_state.pending)
            n_lost++;
          else if (++n_still == 3)
            wheel_state.done = TRUE;
          wheel_state.pending = FALSE;
        }
      else
        n_still = 0;
    }
  wheel_state.frames->recording = FALSE;
  cpu = bench_cpu_since (&cpu_start, NULL, NULL);
  printf ("%s: %u wheel steps in %.1f s, CPU %.2f s%s\n", what, wheel_state.latencies->len,
          (g_get_monotonic_time () - start) / 1e6, cpu, n_lost ? " (some clicks lost)" : "");
  printf ("  event to the end of the frame showing it: p50 %.0f ms, p99 %.0f ms, max %.0f ms; "
          "over 16.7 ms: %u, over 33.3 ms: %u\n",
          percentile (wheel_state.latencies, 0.5), percentile (wheel_state.latencies, 0.99),
          percentile (wheel_state.latencies, 1), count_over (wheel_state.latencies, 1000.0 / 60),
          count_over (wheel_state.latencies, 2000.0 / 60));
  printf ("  of that, before the frame began (GDK begins a frame at most once a period): "
          "p50 %.0f ms, p99 %.0f ms; shown by a later frame than the first begun after it: %u\n",
          percentile (wheel_state.waited, 0.5), percentile (wheel_state.waited, 0.99),
          wheel_state.n_late);
  printf ("  the %u that came while the window drew frames anyway, %s: p50 %.0f ms, p99 %.0f ms; "
          "over 16.7 ms: %u\n", wheel_state.ticking_latencies->len,
          no_cursor_blink ? "an animation" : "the composer's cursor blinking or an animation",
          percentile (wheel_state.ticking_latencies, 0.5),
          percentile (wheel_state.ticking_latencies, 0.99),
          count_over (wheel_state.ticking_latencies, 1000.0 / 60));
  printf ("  that frame's work: p50 %.2f ms, p99 %.2f ms, max %.2f ms; over 16.7 ms: %u\n",
          percentile (wheel_state.work, 0.5), percentile (wheel_state.work, 0.99),
          percentile (wheel_state.work, 1), count_over (wheel_state.work, 1000.0 / 60));
  if (n_lost > 0)
    printf ("  %u clicks lost (no frame showed them within 5 s)\n", n_lost);
  bench_frames_print (wheel_state.frames, verbose);
}

static void
wheel_up_and_down (GtkWidget     *window,
                   GtkAdjustment *adjustment,
                   BenchFrames   *frames)
{
  GtkEventController *controller = gtk_event_controller_scroll_new (
    GTK_EVENT_CONTROLLER_SCROLL_VERTICAL | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_autofree char *command = NULL;

  wheel_state.adjustment = adjustment;
  wheel_state.frames = frames;
  wheel_state.latencies = g_array_new (FALSE, FALSE, sizeof (double));
  wheel_state.work = g_array_new (FALSE, FALSE, sizeof (double));
  wheel_state.ticking_latencies = g_array_new (FALSE, FALSE, sizeof (double));
  wheel_state.waited = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_wheel_scroll), NULL);
  gtk_widget_add_controller (window, controller);
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_wheel_after_paint), NULL);

  /* The pointer over the chat, as a person's hand on the wheel */
  command = g_strdup_printf ("xdotool search --sync --onlyvisible --name \"%s\" "
                             "mousemove --window %%1 %d 300",
                             gtk_window_get_title (GTK_WINDOW (window)) ?
                             gtk_window_get_title (GTK_WINDOW (window)) : "Agent Chat",
                             width / 2);
  if (system (command) != 0)
    g_error ("bench-scroll: could not move the pointer over the window (%s)", command);
  start_clicker ();

  run_wheel ("wheel up to the top", "4");
  wait_ms (500);
  run_wheel ("wheel down to the end", "5");
  close (clicker);
  g_array_unref (wheel_state.latencies);
  g_array_unref (wheel_state.work);
  g_array_unref (wheel_state.ticking_latencies);
  g_array_unref (wheel_state.waited);
}

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_ms (guint ms)
{
  gboolean waited = FALSE;

  g_timeout_add (ms, set_flag, &waited);
  while (!waited)
    g_main_context_iteration (NULL, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "messages", 0, 0, G_OPTION_ARG_INT, &n_messages, "Messages in the chat (default 400)", "N" },
    { "speed", 0, 0, G_OPTION_ARG_INT, &speed, "Pixels a second (default 3,000)", "PX" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "The window's width (default 720)", "PX" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Also print the slowest frames", NULL },
    { "wheel", 0, 0, G_OPTION_ARG_NONE, &wheel,
      "Scroll with real wheel steps (xdotool click) instead of a fling", NULL },
    { "steps", 0, 0, G_OPTION_ARG_INT, &max_steps, "With --wheel: at most N steps each way", "N" },
    { "no-cursor-blink", 0, 0, G_OPTION_ARG_NONE, &no_cursor_blink,
      "The composer's cursor does not blink (GTK's gtk-cursor-blink off)", NULL },
    { "renderer", 0, 0, G_OPTION_ARG_STRING, &renderer,
      "GTK's renderer, as GSK_RENDERER (default: cairo, or GSK_RENDERER)", "R" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- agent-chat's frames while a long chat scrolls");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(AgentMemory) chat = NULL;
  GtkWidget *window;
  GtkWidget *list;
  AgentGtkChatView *view;
  Scroll scroll = { 0, };
  gint64 start;
  guint n;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-scroll: %s\n", error->message);
      return 1;
    }
  if (speed < 1 || n_messages < 1)
    {
      g_printerr ("bench-scroll: --speed and --messages must be at least 1\n");
      return 1;
    }

  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (renderer != NULL)
    g_setenv ("GSK_RENDERER", renderer, TRUE);
  else if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_init ();
  adw_init ();
  if (no_cursor_blink)
    g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  settings = g_settings_new ("io.github.libagent.Chat");
  g_settings_set_string (settings, "provider", "openai");
  /* Nothing is sent: a port that refuses */
  g_settings_set_string (settings, "base-url", "http://127.0.0.1:9/v1");
  g_settings_set_string (settings, "model", "bench");
  window = GTK_WIDGET (agent_chat_window_new (NULL));
  view = agent_chat_window_get_chat_view (AGENT_CHAT_WINDOW (window));
  list = GTK_WIDGET (_agent_gtk_chat_view_get_list_view (view));
  gtk_window_set_default_size (GTK_WINDOW (window), width, 760);
  gtk_window_present (GTK_WINDOW (window));
  scroll.items = g_hash_table_new (NULL, NULL);
  scroll.frames = bench_frames_new (gtk_widget_get_frame_clock (window));
  scroll.adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));
  wait_ms (1000);

  chat = make_chat (n_messages);
  n = g_list_model_get_n_items (G_LIST_MODEL (chat));
  start = g_get_monotonic_time ();
  agent_chat_window_set_memory (AGENT_CHAT_WINDOW (window), chat);
  bench_frames_wait_drawn (scroll.frames, window);
  printf ("bench-scroll: a chat of %u messages (%.0f KB of text), %s build, %s renderer on %s, "
          "%d px wide\n", n, chat_bytes (chat) / 1000.0, BENCH_BUILDTYPE,
          G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))),
          G_OBJECT_TYPE_NAME (gtk_widget_get_display (window)), width);
  printf ("opened: drawn in %.1f ms\n", (scroll.frames->drawn_at - start) / 1000.0);
  if (wheel)
    bench_frames_print_cursor_blink ("composer");
  wait_ms (500);

  if (wheel)
    wheel_up_and_down (window, scroll.adjustment, scroll.frames);
  else
    {
      run_scroll ("up to the top", list, &scroll, -speed);
      wait_ms (500);
      run_scroll ("down to the end", list, &scroll, speed);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  bench_frames_free (scroll.frames);
  g_hash_table_unref (scroll.items);
  return 0;
}
