/* test-gui-scroll.c
 *
 * agent-chat's chat view with long answers, under a real display (Xvfb):
 * answers of 2,000, 3,000 and 10,000 lines streamed by the in-process test
 * server, and new turns in a chat taller than the window. What is on
 * screen is read from the widgets' allocations: the last line and the
 * answer's action row must be inside the view, below the text and above
 * the composer; the view follows the stream until the user scrolls up, and
 * not after. Long conversations opened from a store: test-gui-history.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>
#include <string.h>

#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-window.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-scroll.h"
#include "agent-test-util.h"

static gboolean
server_waiting (gpointer data)
{
  return agent_test_server_is_waiting (data);
}

/* Until the server's response pauses at its next wait */
static void
wait_for_pause (AgentTestServer *server)
{
  wait_until (server_waiting, server);
}

/* Frames */

static gboolean
is_freed (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* A long answer streamed a few bytes at a time is cut and rendered as the
 * same text set at once; a delta at its end renders its last chunk only;
 * a text that does not extend the one shown replaces it, pages and all */
static void
test_markdown_long_stream (void)
{
  GtkWidget *streamed = agent_gtk_markdown_view_new ();
  GtkWidget *whole = agent_gtk_markdown_view_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *window;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *long_text = long_answer (10000);
  g_autofree char *appended = NULL;
  guint n, renders, n_pages = 0;
  GtkWidget *old_chunk;

  for (guint i = 0; i < 300; i++)
    {
      if (i % 7 == 3)
        g_string_append_printf (text, "```\ncode %u\n\n  indented\n\n```\n\n", i);
      else if (i % 7 == 5)
        g_string_append_printf (text, "- item %u\n- another\n\n  more of it\n\n", i);
      else
        g_string_append_printf (text, "Paragraph %u with *some* words.\n\n", i);
    }
  gtk_box_append (GTK_BOX (box), streamed);
  gtk_box_append (GTK_BOX (box), whole);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  window = show_in_window (scroller);

  for (gsize end = 7; end < text->len + 7; end += 7)
    {
      g_autofree char *prefix = g_strndup (text->str, MIN (end, text->len));

      agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (streamed), prefix);
    }
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (whole), text->str);
  _agent_gtk_markdown_view_flush (AGENT_GTK_MARKDOWN_VIEW (whole));
  n = _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (whole));
  g_assert_cmpuint (n, >, 250);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (streamed)), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *a = chunk_text (_agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (streamed), i));
      g_autofree char *b = chunk_text (_agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (whole), i));

      g_assert_cmpstr (a, ==, b);
    }

  /* At the end of 10,000 chunks */
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (whole), long_text);
  _agent_gtk_markdown_view_flush (AGENT_GTK_MARKDOWN_VIEW (whole));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (whole)), ==, 10000);
  renders = _agent_gtk_markdown_view_get_n_renders (AGENT_GTK_MARKDOWN_VIEW (whole));
  appended = g_strconcat (long_text, "And one more", NULL);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (whole), appended);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_renders (AGENT_GTK_MARKDOWN_VIEW (whole)), ==, renders + 1);
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (whole)), ==, 10001);
  iterate ();

  /* Replaced by a short text: what is left is that text. The old chunks
   * leave the view at once, and are freed a few pages at a time after
   * (freeing 10,000 widgets at once held up the next frame by ~0.3 s) */
  old_chunk = _agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (whole), 9000);
  g_object_add_weak_pointer (G_OBJECT (old_chunk), (gpointer *) &old_chunk);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (whole), "Short.\n\nText.");
  g_assert_nonnull (old_chunk);
  g_assert_false (gtk_widget_is_ancestor (old_chunk, whole));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (whole)), ==, 2);
  for (GtkWidget *page = gtk_widget_get_first_child (whole); page != NULL;
       page = gtk_widget_get_next_sibling (page))
    n_pages++;
  g_assert_cmpuint (n_pages, ==, 1);
  {
    g_autofree char *last = chunk_text (_agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (whole), 1));

    g_assert_cmpstr (last, ==, "Text.");
  }
  wait_until (is_freed, &old_chunk);
  iterate ();

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  AgentChatWindow *window;
  const char      *end;
} ContentWait;

/* The last message has arrived up to @end, and its row shows it (laid out
 * to its end: what came in a frame of more than a page is laid out a page
 * a frame) */
static gboolean
content_shown (gpointer data)
{
  ContentWait *wait = data;
  gpointer item = last_item (wait->window);
  AgentGtkMarkdownView *markdown;
  const char *content;
  GtkWidget *row;

  if (!AGENT_IS_MESSAGE (item) || agent_message_get_role (item) != AGENT_MESSAGE_ROLE_ASSISTANT)
    return FALSE;
  content = agent_message_get_content (item);
  if (content == NULL || !g_str_has_suffix (content, wait->end))
    return FALSE;
  row = find_row (wait->window, item);
  if (row == NULL)
    return FALSE;
  markdown = agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row));
  return g_strcmp0 (agent_gtk_markdown_view_get_text (markdown), content) == 0 &&
         !agent_gtk_markdown_view_get_laying_out (markdown);
}

static void
wait_answer_shown (AgentChatWindow *window,
                   const char      *end)
{
  ContentWait wait = { window, end };

  wait_until (content_shown, &wait);
  wait_frames (GTK_WIDGET (window), 2);
}

/* Scripts an answer of @n_lines lines, ten to a delta, that pauses after
 * each of @n_pauses equal parts */
static void
add_long_answer (AgentTestServer *server,
                 guint            n_lines,
                 guint            n_pauses)
{
  AgentTestResponse *response = agent_test_openai_begin (server, "");
  guint part = n_lines / (n_pauses + 1);
  g_autoptr(GString) delta = g_string_new (NULL);

  for (guint i = 1; i <= n_lines; i++)
    {
      g_string_append_printf (delta, "Line %u of the answer.\n\n", i);
      if (i % 10 == 0 || i == n_lines || i % part == 0)
        {
          agent_test_openai_add_text (response, delta->str);
          g_string_truncate (delta, 0);
        }
      if (i % part == 0 && i / part <= n_pauses)
        agent_test_response_add_wait (response);
    }
  agent_test_openai_add_end (response, "stop", 1, n_lines);
}

/* Streams an answer of @n_lines lines: at every pause and at the end, its
 * last line is on screen */
static void
stream_and_follow (Fixture *fixture,
                   guint    n_lines)
{
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  guint n_pauses = 3;
  guint part = n_lines / (n_pauses + 1);
  g_autofree char *last = line_of (n_lines);

  add_long_answer (fixture->server, n_lines, n_pauses);
  agent_chat_window_send (fixture->window, "Write a long answer");
  for (guint i = 1; i <= n_pauses; i++)
    {
      g_autofree char *line = line_of (i * part);
      g_autofree char *end = g_strdup_printf ("%s\n\n", line);

      wait_for_pause (fixture->server);
      wait_answer_shown (fixture->window, end);
      assert_end_shown (fixture->window, line, FALSE);
      agent_test_server_release (fixture->server);
    }
  wait_until (session_idle, session);
  wait_frames (GTK_WIDGET (fixture->window), 2);
  assert_end_shown (fixture->window, last, TRUE);
  g_assert_false (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));
}

static void
test_stream_2000 (Fixture       *fixture,
                  gconstpointer  data)
{
  stream_and_follow (fixture, 2000);
}

static void
test_stream_3000 (Fixture       *fixture,
                  gconstpointer  data)
{
  stream_and_follow (fixture, 3000);
}

static void
test_stream_10000 (Fixture       *fixture,
                   gconstpointer  data)
{
  stream_and_follow (fixture, 10000);
}

/* The last chunk of @markdown wholly in view */
static GtkWidget *
chunk_in_view (AgentChatWindow *window,
               GtkWidget       *markdown)
{
  double height = gtk_widget_get_height (scroller_of (window));

  for (guint i = _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown)); i > 0; i--)
    {
      GtkWidget *chunk = _agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (markdown), i - 1);
      graphene_rect_t bounds = bounds_in_view (window, chunk);

      if (bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= height)
        return chunk;
    }
  g_assert_not_reached ();
}

/* The user scrolls up while it streams: the view stays where they left it,
 * with Jump to Bottom; back at the bottom, it follows again. */
static void
test_stop_following (Fixture       *fixture,
                     gconstpointer  data)
{
  AgentChatWindow *window = fixture->window;
  AgentSession *session = agent_chat_window_get_session (window);
  GtkAdjustment *adjustment = vadjustment_of (window);
  GtkRevealer *jump = jump_revealer_of (window);
  GtkWidget *row, *markdown, *seen;
  graphene_rect_t before, after;
  gboolean handled = FALSE;
  double value;

  add_long_answer (fixture->server, 2000, 4);
  agent_chat_window_send (window, "Write a long answer");
  wait_for_pause (fixture->server);
  wait_answer_shown (window, "Line 400 of the answer.\n\n");
  assert_end_shown (window, "Line 400 of the answer.", FALSE);

  /* Page Up, as the keyboard does it */
  g_signal_emit_by_name (scroller_of (window), "scroll-child", GTK_SCROLL_PAGE_BACKWARD, FALSE,
                         &handled);
  g_assert_true (handled);
  wait_frames (GTK_WIDGET (window), 2);
  value = gtk_adjustment_get_value (adjustment);
  g_assert_cmpfloat (value + gtk_adjustment_get_page_size (adjustment), <,
                     gtk_adjustment_get_upper (adjustment) - 100);
  row = find_row (window, last_item (window));
  markdown = GTK_WIDGET (agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row)));
  seen = chunk_in_view (window, markdown);
  before = bounds_in_view (window, seen);
  assert_in_view (window, &before);
  g_assert_true (gtk_revealer_get_reveal_child (jump));

  /* The stream goes on below; what the user reads stays put */
  agent_test_server_release (fixture->server);
  wait_for_pause (fixture->server);
  wait_answer_shown (window, "Line 800 of the answer.\n\n");
  after = bounds_in_view (window, seen);
  g_assert_cmpfloat (fabs (after.origin.y - before.origin.y), <=, 1);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (adjustment) - value), <=, 1);
  g_assert_true (gtk_revealer_get_reveal_child (jump));

  /* Jump to Bottom: the end, followed again */
  gtk_widget_activate_action (GTK_WIDGET (agent_chat_window_get_chat_view (window)),
                              "chat-view.scroll-to-end", NULL);
  wait_frames (GTK_WIDGET (window), 2);
  assert_end_shown (window, "Line 800 of the answer.", FALSE);
  g_assert_false (gtk_revealer_get_reveal_child (jump));
  agent_test_server_release (fixture->server);
  wait_for_pause (fixture->server);
  wait_answer_shown (window, "Line 1200 of the answer.\n\n");
  assert_end_shown (window, "Line 1200 of the answer.", FALSE);

  /* Dragging the scrollbar up a little (it sets the value) stops it too */
  value = gtk_adjustment_get_value (adjustment) - 40;
  gtk_adjustment_set_value (adjustment, value);
  wait_frames (GTK_WIDGET (window), 2);
  seen = chunk_in_view (window, markdown);
  before = bounds_in_view (window, seen);
  agent_test_server_release (fixture->server);
  wait_for_pause (fixture->server);
  wait_answer_shown (window, "Line 1600 of the answer.\n\n");
  after = bounds_in_view (window, seen);
  g_assert_cmpfloat (fabs (after.origin.y - before.origin.y), <=, 1);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (adjustment) - value), <=, 1);
  g_assert_true (gtk_revealer_get_reveal_child (jump));

  /* Scrolled back to the very end by hand: followed again */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  wait_frames (GTK_WIDGET (window), 2);
  agent_test_server_release (fixture->server);
  wait_until (session_idle, session);
  wait_frames (GTK_WIDGET (window), 2);
  assert_end_shown (window, "Line 2000 of the answer.", TRUE);
  g_assert_false (gtk_revealer_get_reveal_child (jump));
}


typedef struct
{
  GtkWidget *widget;
  int        height;
} GrowWait;

/* @widget is laid out taller than @height */
static gboolean
grown (gpointer data)
{
  GrowWait *grow = data;

  return gtk_widget_get_height (grow->widget) > grow->height;
}

/* In a chat taller than the window, each new turn is followed: the question
 * and the answer as it streams, then its action row */
static void
test_new_turn_followed (Fixture       *fixture,
                        gconstpointer  data)
{
  AgentChatWindow *window = fixture->window;
  g_autoptr(AgentMemory) memory = agent_simple_memory_new ();

  fill_conversation (memory, 60);
  agent_chat_window_set_memory (window, memory);
  wait_frames (GTK_WIDGET (window), 2);
  assert_end_shown (window, "Answer 29, paragraph", TRUE);

  for (guint i = 0; i < 10; i++)
    {
      AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
      g_autofree char *question = g_strdup_printf ("New question %u", i);
      g_autofree char *first = g_strdup_printf ("The start of answer %u.\n\n", i);
      g_autofree char *end = g_strdup_printf ("The end of answer %u.", i);
      GtkWidget *asked;
      graphene_rect_t bounds;

      agent_test_openai_add_text (response, first);
      agent_test_response_add_wait (response);
      agent_test_openai_add_text (response, "More.\n\n");
      agent_test_openai_add_text (response, end);
      agent_test_openai_add_end (response, "stop", 1, 1);

      agent_chat_window_send (window, question);
      wait_for_pause (fixture->server);
      wait_answer_shown (window, first);
      assert_end_shown (window, "The start of answer", FALSE);
      {
        GListModel *items = agent_test_chat_items (window);
        g_autoptr(GObject) item = g_list_model_get_item (items, g_list_model_get_n_items (items) - 2);

        g_assert_cmpstr (agent_message_get_content (AGENT_MESSAGE (item)), ==, question);
        asked = find_row (window, item);
        g_assert_nonnull (asked);
        bounds = bounds_in_view (window, asked);
        assert_in_view (window, &bounds);
      }
      agent_test_server_release (fixture->server);
      wait_until (session_idle, agent_chat_window_get_session (window));
      wait_frames (GTK_WIDGET (window), 2);
      assert_end_shown (window, end, TRUE);
    }

  /* The composer grows with a long draft (its text view lays the lines out
   * when idle, then grows): the end stays above it */
  {
    GrowWait grow = { GTK_WIDGET (agent_chat_window_get_composer (window)), 0 };

    grow.height = gtk_widget_get_height (grow.widget) + 40;
    agent_gtk_composer_set_text (AGENT_GTK_COMPOSER (grow.widget),
                                  "A draft\nof\nfive\nlines\nor so");
    wait_until (grown, &grow);
    wait_frames (GTK_WIDGET (window), 2);
    assert_end_shown (window, "The end of answer 9.", TRUE);
  }
}

/* A markdown hidden while its text changes (a recycled row, the answer
 * bound again when it goes into memory) measures its new text once shown */
static void
test_markdown_hidden_change (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window;
  g_autofree char *short_text = long_answer (10);
  g_autofree char *long_text = long_answer (40);
  int before, after, sum = 0, spacing = 0;

  gtk_box_append (GTK_BOX (box), markdown);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), short_text);
  window = show_in_window (box);
  gtk_widget_measure (markdown, GTK_ORIENTATION_VERTICAL, 300, &before, NULL, NULL, NULL);

  gtk_widget_set_visible (markdown, FALSE);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), long_text);
  gtk_widget_set_visible (markdown, TRUE);
  iterate ();

  gtk_widget_measure (markdown, GTK_ORIENTATION_VERTICAL, 300, &after, NULL, NULL, NULL);
  for (guint i = 0; i < _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown)); i++)
    {
      int height;

      gtk_widget_measure (_agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (markdown), i),
                          GTK_ORIENTATION_VERTICAL, 300, &height, NULL, NULL, NULL);
      sum += height + spacing;
      spacing = 12;  /* between paragraphs */
    }
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown)), ==, 40);
  g_assert_cmpint (after, >, before);
  g_assert_cmpint (after, ==, sum);

  gtk_window_destroy (GTK_WINDOW (window));
}


int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add_func ("/gui/markdown/hidden-change", test_markdown_hidden_change);
  g_test_add_func ("/gui/markdown/long-stream", test_markdown_long_stream);
  g_test_add ("/gui/scroll/stream-2000", Fixture, NULL,
              fixture_set_up, test_stream_2000, fixture_tear_down);
  g_test_add ("/gui/scroll/stream-3000", Fixture, NULL,
              fixture_set_up, test_stream_3000, fixture_tear_down);
  g_test_add ("/gui/scroll/stream-10000", Fixture, NULL,
              fixture_set_up, test_stream_10000, fixture_tear_down);
  g_test_add ("/gui/scroll/stop-following", Fixture, NULL,
              fixture_set_up, test_stop_following, fixture_tear_down);
  g_test_add ("/gui/scroll/new-turn-followed", Fixture, NULL,
              fixture_set_up, test_new_turn_followed, fixture_tear_down);

  return agent_test_gui_run (data_home);
}
