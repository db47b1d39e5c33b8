/* bench-gui.c
 *
 * agent-chat while it streams: the real main window, under Xvfb, showing an
 * answer that arrives as 1,000 deltas a second (--rate; Markdown with
 * paragraphs, lists and code), from a model server in another process (this
 * program, started again with --serve). It prints the rate reached, the CPU
 * time this process spent per delta while the answer streamed (getrusage:
 * user and system, all its threads; the server's is not counted), which is
 * what a laptop's battery sees at --rate 100, and the frame times: how long each
 * frame's work took (from the GdkFrameClock's before-paint to its
 * after-paint: the tick callbacks that render Markdown, layout, paint)
 * and the intervals between frames (GdkFrameTimings). Then it streams the
 * same deltas at the end of a long answer (10,000 lines in its first delta),
 * which the view follows, and prints the same; and it opens a conversation
 * of 10,000 messages and prints how long until its end is drawn.
 *
 *   xvfb-run -a meson devenv -C _build bench/bench-gui [--embedded] [--deltas N] [--rate N]
 *                                                      [--lines N] [--history N] [--store]
 *                                                      [--renderer R] [--answer KIND]
 *                                                      [--text-interval MS] [--no-cursor-blink]
 *                                                      [--verbose]
 *
 * The server sends the deltas in steps of at least 8 ms, as many in each as
 * are due by then: GLib's timeouts overshoot by a fraction of a millisecond,
 * and one delta a millisecond came out at ~800 a second whatever the app did.
 *
 * With --answer, the answer is prose in paragraphs of N words
 * (paragraphs:N), or code blocks of N lines (code:N), instead of the mix:
 * what a frame costs when the block that grows is long.
 *
 * With --store, the answers go into a conversation of a SQLite store in a
 * temporary directory, as in agent-chat: each message is committed (on the
 * store's writer thread) while the frames are measured.
 *
 * With --embedded, the same is measured for libagent-gtk's chat view in a
 * host window of this program's (a text view beside the view and its
 * composer, the session its own), as an application embeds it.
 *
 * The composer has the focus, and its cursor blinks as GTK's settings say
 * (by default for 10 s after the last key): GTK 4.8's text view then ticks
 * at every frame of the display, whether the cursor changes or not.
 * --no-cursor-blink turns the blinking off (GNOME's Cursor Blinking setting
 * off), which measures the app without it.
 *
 * The renderer is GTK's cairo renderer unless --renderer (or GSK_RENDERER)
 * says otherwise: under Xvfb there is no GPU, and GTK's GL renderer runs on
 * Mesa's llvmpipe, which rasterizes every frame in software on the same two
 * cores — that measures Mesa, not the app. `--renderer gl` shows it.
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
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "agent-gtk-chat-view-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-update-pacer-private.h"
#include "agent-chat-renderer.h"
#include "agent-chat-window.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"
#include "bench-frames.h"
#include "bench-util.h"

static int n_deltas = 5000;
static int rate = 1000;
static int n_lines = 10000;
static int n_history = 10000;
static char *renderer = NULL;
static gboolean embedded = FALSE;
static gboolean use_store = FALSE;
static gboolean verbose = FALSE;
static int text_interval = -1;
static gboolean no_cursor_blink = FALSE;

/* The server: one answer, @rate deltas a second */

/* --answer paragraphs:N: prose, N words a paragraph; code:N: code blocks of
 * N lines, eight deltas a line */
static char *answer = NULL;
static int paragraph_words = 0;
static int code_lines = 0;

static const char *prose[] = {
  "The ", "model ", "keeps ", "writing ", "one ", "long ", "paragraph, ", "as ",
  "some ", "answers ", "do ", "when ", "they ", "explain ", "at ", "length. ",
};

static const char *code[] = {
  "    int ", "value ", "= ", "compute ", "(input, ", "count); ", "// the next step", "\n",
};

/* The text of delta @i */
static char *
delta_text (int i)
{
  if (paragraph_words > 0)
    return g_strconcat (prose[i % G_N_ELEMENTS (prose)],
                        (i + 1) % paragraph_words == 0 ? "\n\n" : "", NULL);
  if (code_lines > 0)
    {
      int line = i / G_N_ELEMENTS (code);
      gboolean first = i % G_N_ELEMENTS (code) == 0;

      return g_strconcat (first && line % code_lines == 0 ? "```c\n" : "",
                          code[i % G_N_ELEMENTS (code)],
                          (i + 1) % G_N_ELEMENTS (code) == 0 &&
                          (line + 1) % code_lines == 0 ? "```\n\n" : "", NULL);
    }
  return g_strdup (bench_markdown_mix_word (i));
}

static gboolean
parse_answer (void)
{
  if (answer == NULL || g_str_equal (answer, "markdown"))
    return TRUE;
  if (g_str_has_prefix (answer, "paragraphs:"))
    paragraph_words = atoi (answer + strlen ("paragraphs:"));
  else if (g_str_has_prefix (answer, "code:"))
    code_lines = atoi (answer + strlen ("code:"));
  return paragraph_words > 0 || code_lines > 0;
}

/* The deltas, paced: each step waits at least 8 ms (or a delta's period, if
 * longer) and sends the deltas due by its end */
static void
add_deltas (AgentTestResponse *response)
{
  guint step = MAX (8, (1000 + rate - 1) / rate);
  int sent = 0;

  for (guint64 ms = 0; sent < n_deltas; ms += step)
    {
      int due = MIN (n_deltas, (int) ((ms * rate) / 1000) + 1);

      for (; sent < due; sent++)
        {
          g_autofree char *text = delta_text (sent);

          agent_test_openai_add_text (response, text);
        }
      if (sent < n_deltas)
        agent_test_response_add_delay (response, step);
    }
}

static int
serve (void)
{
  AgentTestServer *server = agent_test_server_new ();
  AgentTestResponse *response = agent_test_openai_begin (server, "");
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  /* Gone with the benchmark, even if it fails before it stops the server */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  add_deltas (response);
  agent_test_openai_add_end (response, "stop", 1, n_deltas);

  /* The long answer: its lines at once, then words at the same pace as above */
  if (n_lines > 0)
    {
      g_autoptr(GString) lines = g_string_new (NULL);

      response = agent_test_openai_begin (server, "");
      for (int i = 1; i <= n_lines; i++)
        g_string_append_printf (lines, "Line %d of a long answer.\n\n", i);
      agent_test_openai_add_text (response, lines->str);
      /* Time to lay the long answer out: the frames are timed from then */
      agent_test_response_add_delay (response, 8000);
      add_deltas (response);
      agent_test_openai_add_end (response, "stop", 1, n_lines + n_deltas);
    }
  printf ("%s\n", agent_test_server_get_base_url (server));
  fflush (stdout);
  g_main_loop_run (loop);
  return 0;
}

/* The app */

typedef struct
{
  BenchFrames *frames;
  AgentGtkChatView *view;
  int      wait_for_lines;  /* record once the last answer has more lines (the deltas after them) */
  gint64   lines_drawn_at;
  gint64   first_delta_at;   /* the answer's first and last text deltas */
  gint64   last_delta_at;
  gint64   cpu_at_record;    /* the CPU time when recording began */
  gboolean done;
} Stats;

/* The Markdown of the last message, if its row is made */
static AgentGtkMarkdownView *
last_markdown (AgentGtkChatView *view,
               GtkWidget       **list_item)
{
  GtkWidget *list = GTK_WIDGET (_agent_gtk_chat_view_get_list_view (view));
  GListModel *items = _agent_gtk_chat_view_get_items (view);
  guint n = g_list_model_get_n_items (items);
  g_autoptr(GObject) last = n > 0 ? g_list_model_get_item (items, n - 1) : NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (last != NULL && AGENT_GTK_IS_MESSAGE_ROW (row) &&
          agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row)) == last)
        {
          if (list_item != NULL)
            *list_item = child;
          return agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row));
        }
    }
  return NULL;
}

/* Whether the last line of the conversation is inside the chat view */
static gboolean
end_in_view (AgentGtkChatView *chat_view)
{
  GtkWidget *list_item = NULL;
  AgentGtkMarkdownView *markdown = last_markdown (chat_view, &list_item);
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (_agent_gtk_chat_view_get_list_view (chat_view)),
                                             GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *line;
  graphene_rect_t bounds;

  if (markdown == NULL)
    return FALSE;
  line = _agent_gtk_markdown_view_get_chunk (markdown, _agent_gtk_markdown_view_get_n_chunks (markdown) - 1);
  return gtk_widget_get_child_visible (list_item) && line != NULL &&
         gtk_widget_compute_bounds (line, view, &bounds) && bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (view);
}

/* The CPU time this process has used, all its threads, in µs */
static gint64
cpu_time (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

/* The CPU time from @cpu_start, per delta and as a share of one core over
 * the span from @start */
static void
print_cpu (gint64 cpu_start,
           gint64 start)
{
  gint64 cpu = cpu_time () - cpu_start;

  printf ("CPU while streaming: %.1f µs a delta (user + system, this process), "
          "%.0f%% of one core\n", (double) cpu / n_deltas,
          100.0 * cpu / MAX (1, g_get_monotonic_time () - start));
}

/* A frame's end: once the long answer is drawn, the frames after it are
 * recorded */
static gboolean
gate_long_answer (BenchFrames *frames,
                  gpointer     data)
{
  Stats *stats = data;
  AgentGtkMarkdownView *markdown;

  if (stats->wait_for_lines == 0)
    return TRUE;
  markdown = last_markdown (stats->view, NULL);
  if (markdown == NULL || _agent_gtk_markdown_view_get_n_chunks (markdown) < (guint) stats->wait_for_lines)
    return FALSE;
  /* Drawn: all its lines in chunks, and the pages in view made */
  if (agent_gtk_markdown_view_get_laying_out (markdown))
    return FALSE;
  if (stats->lines_drawn_at == 0)
    stats->lines_drawn_at = frames->drawn_at;
  if (_agent_gtk_markdown_view_get_n_chunks (markdown) == (guint) stats->wait_for_lines)
    return FALSE;
  stats->wait_for_lines = 0;
  bench_frames_record (frames);
  stats->cpu_at_record = cpu_time ();
  return TRUE;
}

static void
on_turn_finished (AgentSession *session,
                  AgentMessage *message,
                  GError       *error,
                  AgentMetrics *metrics,
                  Stats        *stats)
{
  if (error != NULL)
    g_printerr ("bench-gui: the turn failed: %s\n", error->message);
  stats->done = TRUE;
}

static void
on_text_delta (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Stats        *stats)
{
  stats->last_delta_at = g_get_monotonic_time ();
  if (stats->first_delta_at == 0)
    stats->first_delta_at = stats->last_delta_at;
}

/* The first frame of the window, for the start-up figure */
static void
on_first_paint (GdkFrameClock *clock,
                gint64        *painted_at)
{
  if (*painted_at == 0)
    *painted_at = g_get_monotonic_time ();
}

static void
on_window_realized (GtkWidget *window,
                    gint64    *painted_at)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_first_paint), painted_at);
}

/* How long the process ran before main(): exec, the dynamic linker and the
 * libraries' constructors (/proc: in ticks of the clock, 10 ms here) */
static double
ms_before_main (void)
{
  g_autofree char *stat = NULL;
  g_autofree char *uptime = NULL;
  const char *after_name;
  char **fields;
  double started;

  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL) ||
      !g_file_get_contents ("/proc/uptime", &uptime, NULL, NULL) ||
      (after_name = strrchr (stat, ')')) == NULL)
    return -1;
  /* Field 22, starttime; the fields after the name begin at field 3 */
  fields = g_strsplit (after_name + 2, " ", 0);
  started = g_strv_length (fields) > 19 ? g_ascii_strtod (fields[19], NULL) / sysconf (_SC_CLK_TCK)
                                        : -1;
  g_strfreev (fields);
  return started < 0 ? -1 : (g_ascii_strtod (uptime, NULL) - started) * 1000.0;
}

static AgentMemory *
make_history (guint n)
{
  AgentMemory *memory = agent_simple_memory_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf (i % 2 ? "Answer %u with **Markdown**, a list:\n\n- one\n- two" : "Question %u?", i);
      g_autoptr(AgentMessage) message = agent_message_new (i % 2 ? AGENT_MESSAGE_ROLE_ASSISTANT
                                                                 : AGENT_MESSAGE_ROLE_USER, text);

      agent_memory_append (memory, message, NULL);
    }
  return memory;
}

static void
iterate_until (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
on_typed (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The window as a user finds it when they send their first prompt: a
 * second after it showed (no one types a prompt faster), what the app does
 * at idle after its first frame done */
static void
wait_for_typing (void)
{
  gboolean typed = FALSE;

  g_timeout_add (1000, on_typed, &typed);
  iterate_until (&typed);
}

/* Shows @history in the window (or the host's session), and how long
 * until it is drawn, in ms */
static double
open_history (GtkWidget    *window,
              AgentSession *session,
              AgentMemory  *history,
              BenchFrames  *frames)
{
  gint64 start = g_get_monotonic_time ();

  if (embedded)
    agent_session_set_memory (session, history);
  else
    agent_chat_window_set_memory (AGENT_CHAT_WINDOW (window), history);
  gtk_widget_queue_draw (window);
  while (frames->drawn_at <= start)
    g_main_context_iteration (NULL, TRUE);
  return (frames->drawn_at - start) / 1000.0;
}

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
flushed_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GError) error = NULL;

  if (!agent_store_flush_finish (AGENT_STORE (source), result, &error))
    g_printerr ("bench-gui: the store: %s\n", error->message);
  *(gboolean *) data = TRUE;
}

/* --store: once what was queued is written, the store's files go */
static void
remove_store (AgentStore *store,
              const char *dir)
{
  gboolean flushed = FALSE;

  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  iterate_until (&flushed);
  agent_test_remove_dir (dir);
}

/* --embedded: libagent-gtk's chat view and composer in a host window, beside
 * a text of the host's own, as an application embeds them (the examples);
 * the session is the host's */
static GtkWidget *
embed_in_host (const char        *url,
               AgentGtkChatView **view_out,
               AgentSession     **session_out)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *chat = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *editor = gtk_text_view_new ();
  GtkWidget *view = agent_gtk_chat_view_new ();
  GtkWidget *composer = agent_gtk_composer_new ();

  agent_provider_set_base_url (provider, url);
  agent_provider_set_model (provider, "bench");
  *session_out = agent_session_new (provider);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)),
                            "The host's own text.", -1);
  gtk_widget_set_vexpand (view, TRUE);
  agent_gtk_chat_view_set_session (AGENT_GTK_CHAT_VIEW (view), *session_out);
  agent_gtk_chat_view_set_composer (AGENT_GTK_CHAT_VIEW (view), AGENT_GTK_COMPOSER (composer));
  agent_gtk_chat_view_set_show_tool_call_chunks (AGENT_GTK_CHAT_VIEW (view), TRUE);
  gtk_box_append (GTK_BOX (chat), view);
  gtk_box_append (GTK_BOX (chat), composer);
  gtk_paned_set_start_child (GTK_PANED (paned), editor);
  gtk_paned_set_end_child (GTK_PANED (paned), chat);
  gtk_paned_set_position (GTK_PANED (paned), 200);
  gtk_window_set_child (GTK_WINDOW (window), paned);
  *view_out = AGENT_GTK_CHAT_VIEW (view);
  return window;
}

int
main (int   argc,
      char *argv[])
{
  gboolean serve_only = FALSE;
  double before_main = ms_before_main ();
  gint64 init_at;
  gint64 phase_at[4];  /* gtk_init(), adw_init(), the window made, presented */
  gint64 rss_before;
  gint64 rss_open;
  gint64 rss_twice;
  double ms;
  gint64 painted_at = 0;
  const GOptionEntry entries[] = {
    { "serve", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &serve_only, NULL, NULL },
    { "deltas", 0, 0, G_OPTION_ARG_INT, &n_deltas, "Deltas to stream", "N" },
    { "rate", 0, 0, G_OPTION_ARG_INT, &rate, "Deltas the server sends a second (default 1,000)", "N" },
    { "lines", 0, 0, G_OPTION_ARG_INT, &n_lines, "Lines of the long answer (0: none)", "N" },
    { "answer", 0, 0, G_OPTION_ARG_STRING, &answer,
      "What streams: markdown (a mix, the default), paragraphs:N (N words each), "
      "code:N (code blocks of N lines)", "KIND" },
    { "history", 0, 0, G_OPTION_ARG_INT, &n_history,
      "Messages of the conversation opened (default 10,000; then twice as many)", "N" },
    { "store", 0, 0, G_OPTION_ARG_NONE, &use_store,
      "The answers go into a conversation of a SQLite store (its commits on the store's thread)",
      NULL },
    { "embedded", 0, 0, G_OPTION_ARG_NONE, &embedded,
      "The chat view embedded in a host window of its own (libagent-gtk), not agent-chat", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      "Also print the slowest frames: when they came and their phases", NULL },
    { "renderer", 0, 0, G_OPTION_ARG_STRING, &renderer,
      "GTK's renderer, as GSK_RENDERER (default: cairo, or GSK_RENDERER); "
      "app: agent-chat's choice; gtk: GTK's", "R" },
    { "text-interval", 0, 0, G_OPTION_ARG_INT, &text_interval,
      "Streaming text shown at most every MS ms (default: the library's; 0: every frame)", "MS" },
    { "no-cursor-blink", 0, 0, G_OPTION_ARG_NONE, &no_cursor_blink,
      "The composer's cursor does not blink (GTK's gtk-cursor-blink off)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- agent-chat frame times");
  g_autoptr(GError) error = NULL;
  g_autofree char *n_arg = NULL;
  g_autofree char *lines_arg = NULL;
  g_autofree char *rate_arg = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(AgentMemory) history = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autofree char *store_dir = NULL;
  g_autofree char *answer_arg = NULL;
  const char *server_argv[7];
  GPid server_pid;
  int server_out;
  GtkWidget *window;
  AgentGtkChatView *view;
  AgentSession *session;
  Stats stats = { 0, };
  gboolean waited = FALSE;
  gint64 start;
  gint64 cpu_start;
  FILE *server_stdout;
  char line[256] = { 0, };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-gui: %s\n", error->message);
      return 1;
    }
  if (rate < 1)
    {
      g_printerr ("bench-gui: --rate must be at least 1\n");
      return 1;
    }
  if (!parse_answer ())
    {
      g_printerr ("bench-gui: --answer is markdown, paragraphs:N or code:N\n");
      return 1;
    }
  if (serve_only)
    return serve ();
  if (text_interval >= 0)
    _agent_gtk_update_pacer_set_interval (text_interval);

  /* The model server, in its own process so that its work does not count */
  n_arg = g_strdup_printf ("--deltas=%d", n_deltas);
  lines_arg = g_strdup_printf ("--lines=%d", n_lines);
  server_argv[0] = "/proc/self/exe";
  server_argv[1] = "--serve";
  server_argv[2] = n_arg;
  rate_arg = g_strdup_printf ("--rate=%d", rate);
  server_argv[3] = lines_arg;
  server_argv[4] = rate_arg;
  answer_arg = g_strdup_printf ("--answer=%s", answer ? answer : "markdown");
  server_argv[5] = answer_arg;
  server_argv[6] = NULL;
  if (!g_spawn_async_with_pipes (NULL, (char **) server_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &server_pid, NULL, &server_out, NULL, &error))
    {
      g_printerr ("bench-gui: %s\n", error->message);
      return 1;
    }
  server_stdout = fdopen (server_out, "r");
  if (fgets (line, sizeof line, server_stdout) == NULL)
    return 1;
  url = g_strstrip (g_strdup (line));

  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* "app": the renderer agent-chat chooses (agent-chat-renderer.c), or
   * GTK's; "gtk": GTK's own choice */
  if (g_strcmp0 (renderer, "app") == 0 || g_strcmp0 (renderer, "gtk") == 0)
    g_unsetenv ("GSK_RENDERER");
  else if (renderer != NULL)
    g_setenv ("GSK_RENDERER", renderer, TRUE);
  else if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  init_at = g_get_monotonic_time ();
  gtk_init ();
  if (g_strcmp0 (renderer, "app") == 0)
    agent_chat_choose_renderer (gdk_display_get_default ());
  if (no_cursor_blink)
    g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  phase_at[0] = g_get_monotonic_time ();
  adw_init ();
  phase_at[1] = g_get_monotonic_time ();

  if (embedded)
    window = embed_in_host (url, &view, &session);
  else
    {
      settings = g_settings_new ("io.github.libagent.Chat");
      g_settings_set_string (settings, "provider", "openai");
      g_settings_set_string (settings, "base-url", url);
      g_settings_set_string (settings, "model", "bench");
      g_settings_set_boolean (settings, "show-tool-call-chunks", TRUE);
      window = GTK_WIDGET (agent_chat_window_new (NULL));
      view = agent_chat_window_get_chat_view (AGENT_CHAT_WINDOW (window));
      session = agent_chat_window_get_session (AGENT_CHAT_WINDOW (window));
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 760);
  g_signal_connect (window, "realize", G_CALLBACK (on_window_realized), &painted_at);
  phase_at[2] = g_get_monotonic_time ();
  gtk_window_present (GTK_WINDOW (window));
  phase_at[3] = g_get_monotonic_time ();
  g_timeout_add (500, set_flag, &waited);
  iterate_until (&waited);
  while (painted_at == 0)
    g_main_context_iteration (NULL, TRUE);
  /* Spawning the model server is left out: the app does not */
  printf ("start-up: %.1f ms from gtk_init() to the window's first frame, "
          "and %.0f ms before main() (exec, linking; /proc's 10 ms ticks)\n",
          (painted_at - init_at) / 1000.0, before_main);
  printf ("  gtk_init() %.1f ms, adw_init() %.1f, the window made %.1f, presented %.1f, "
          "its first frame %.1f\n",
          (phase_at[0] - init_at) / 1000.0, (phase_at[1] - phase_at[0]) / 1000.0,
          (phase_at[2] - phase_at[1]) / 1000.0, (phase_at[3] - phase_at[2]) / 1000.0,
          (painted_at - phase_at[3]) / 1000.0);

  stats.frames = bench_frames_new (gtk_widget_get_frame_clock (GTK_WIDGET (window)));
  stats.frames->gate = gate_long_answer;
  stats.frames->gate_data = &stats;
  g_signal_connect (session, "turn-finished",
                    G_CALLBACK (on_turn_finished), &stats);
  g_signal_connect (session, "text-delta", G_CALLBACK (on_text_delta), &stats);

  /* --store: the turns are kept in a real store, as agent-chat keeps them:
   * each message committed (on the store's writer thread) as the turn goes */
  if (use_store)
    {
      store_dir = g_dir_make_tmp ("bench-gui-XXXXXX", &error);
      if (store_dir != NULL)
        {
          g_autofree char *path = g_build_filename (store_dir, "conversations.db", NULL);

          store = agent_store_new (path, &error);
        }
      if (store == NULL)
        {
          g_printerr ("bench-gui: %s\n", error->message);
          return 1;
        }
      conversation = agent_store_create_conversation (store);
      if (embedded)
        agent_session_set_memory (session, AGENT_MEMORY (conversation));
      else
        agent_chat_window_set_memory (AGENT_CHAT_WINDOW (window), AGENT_MEMORY (conversation));
      printf ("bench-gui: the answers go into a SQLite store (%s)\n", store_dir);
    }

  /* 1. Streaming */
  wait_for_typing ();
  start = g_get_monotonic_time ();
  bench_frames_record (stats.frames);
  cpu_start = cpu_time ();
  agent_gtk_chat_view_send (view, "Stream, please");
  iterate_until (&stats.done);
  stats.frames->recording = FALSE;
  printf ("bench-gui: %s, %d deltas in %.2f s, %.0f deltas/s from the first to the last "
          "(%d asked), %s build, %s renderer on %s\n",
          embedded ? "the chat view in a host window" : "agent-chat's window", n_deltas,
          (g_get_monotonic_time () - start) / 1e6,
          (n_deltas - 1) / (MAX (1, stats.last_delta_at - stats.first_delta_at) / 1e6), rate,
          BENCH_BUILDTYPE, G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))),
          G_OBJECT_TYPE_NAME (gtk_widget_get_display (GTK_WIDGET (window))));
  print_cpu (cpu_start, start);
  printf ("streaming text shown at most every %u ms\n", _agent_gtk_update_pacer_get_interval ());
  bench_frames_print_cursor_blink ("composer");
  bench_frames_print (stats.frames, verbose);

  /* 2. A long answer, followed to its end */
  if (n_lines > 0)
    {
      bench_frames_clear (stats.frames);
      stats.done = FALSE;
      stats.view = view;
      stats.wait_for_lines = n_lines;
      start = g_get_monotonic_time ();
      agent_gtk_chat_view_send (view, "A long one, please");
      iterate_until (&stats.done);
      stats.frames->recording = FALSE;
      printf ("bench-gui: an answer of %d lines drawn in %.0f ms, then %d deltas\n", n_lines,
              (stats.lines_drawn_at - start) / 1000.0, n_deltas);
      if (stats.frames->recorded_at != 0)
        print_cpu (stats.cpu_at_record, stats.frames->recorded_at);
      bench_frames_print (stats.frames, verbose);
      for (int i = 0; i < 3; i++)
        bench_frames_wait_drawn (stats.frames, GTK_WIDGET (window));
      printf ("its last line in view: %s\n", end_in_view (view) ? "yes" : "NO");
    }

  /* 3. Opening 10,000 messages */
  rss_before = bench_current_rss_kib ();
  history = make_history (n_history);
  ms = open_history (window, session, history, stats.frames);
  printf ("open %d messages: %.1f ms until drawn, its end in view: %s\n", n_history, ms,
          end_in_view (view) ? "yes" : "NO");
  rss_open = bench_current_rss_kib ();

  /* 4. Then twice as many (the rows made already): RSS for twice the messages */
  g_clear_object (&history);
  history = make_history (2 * n_history);
  ms = open_history (window, session, history, stats.frames);
  printf ("open %d messages after it: %.1f ms until drawn, its end in view: %s\n", 2 * n_history,
          ms, end_in_view (view) ? "yes" : "NO");
  rss_twice = bench_current_rss_kib ();
  printf ("RSS: %.1f MB before, %.1f MB with %d messages open, %.1f MB with %d "
          "(%.2f and %.2f KiB a message)\n",
          rss_before / 1024.0, rss_open / 1024.0, n_history, rss_twice / 1024.0, 2 * n_history,
          (rss_open - rss_before) / (double) n_history,
          (rss_twice - rss_before) / (2.0 * n_history));

  gtk_window_destroy (GTK_WINDOW (window));
  if (embedded)
    g_object_unref (session);
  if (store != NULL)
    remove_store (store, store_dir);
  kill (server_pid, SIGTERM);
  g_spawn_close_pid (server_pid);
  fclose (server_stdout);
  bench_frames_free (stats.frames);
  return 0;
}
