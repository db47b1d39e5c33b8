/* test-gui-scroll.c
 *
 * agent-chat's chat view with long answers and long conversations, under a
 * real display (Xvfb): answers of 2,000, 3,000 and 10,000 lines streamed by
 * the in-process test server, conversations of 1,000 messages kept in a real
 * SQLite store and opened again. What is on screen is read from the widgets'
 * allocations: the last line and the answer's action row must be inside the
 * view, below the text and above the composer; the view follows the stream
 * until the user scrolls up, and not after.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>
#include <math.h>
#include <string.h>

#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-window.h"
#include "agent-test-gui.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

/* Waiting: laying out 10,000 lines takes a few seconds, much longer under
 * the sanitizers or valgrind, so the waits here fail only after ten minutes
 * (they guard against a hang; nothing here is timed) */

#define WAIT_LIMIT_SECONDS 600

static void
wait_until (gboolean (*predicate) (gpointer),
            gpointer   data)
{
  if (!agent_test_wait_until_timeout (predicate, data, WAIT_LIMIT_SECONDS))
    g_error ("Waited more than %d seconds for the condition", WAIT_LIMIT_SECONDS);
}

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

typedef struct
{
  guint painted;
  guint until;
} Frames;

static void
count_frame (GdkFrameClock *clock,
             Frames        *frames)
{
  frames->painted++;
}

static gboolean
frames_painted (gpointer data)
{
  Frames *frames = data;

  return frames->painted >= frames->until;
}

/* Runs the main loop until @window painted @n frames after this call: what
 * changed before it is then laid out and drawn. */
static void
wait_frames (GtkWidget *window,
             guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  Frames frames = { 0, n };
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_frame), &frames);

  for (guint i = 0; i < n; i++)
    {
      frames.until = i + 1;
      gtk_widget_queue_draw (window);
      wait_until (frames_painted, &frames);
    }
  g_signal_handler_disconnect (clock, id);
}

/* The chat view */

static GtkWidget *
scroller_of (AgentChatWindow *window)
{
  return gtk_widget_get_ancestor (GTK_WIDGET (agent_test_gui_list_view (window)),
                                  GTK_TYPE_SCROLLED_WINDOW);
}

static GtkAdjustment *
vadjustment_of (AgentChatWindow *window)
{
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller_of (window)));
}

static GtkWidget *
find_row (AgentChatWindow *window,
          gpointer         item)
{
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_gui_list_view (window)),
                                        AGENT_GTK_TYPE_MESSAGE_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (agent_gtk_message_row_get_item (g_ptr_array_index (rows, i)) == item)
      return g_ptr_array_index (rows, i);
  return NULL;
}

static GtkWidget *
find_with_class (GtkWidget  *widget,
                 GType       type,
                 const char *css_class)
{
  g_autoptr(GPtrArray) found = find_all (widget, type);

  for (guint i = 0; i < found->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (found, i), css_class))
      return g_ptr_array_index (found, i);
  return NULL;
}

static GtkRevealer *
jump_revealer_of (AgentChatWindow *window)
{
  g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (window), GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)),
                   "chat-view.scroll-to-end") == 0)
      return GTK_REVEALER (gtk_widget_get_ancestor (g_ptr_array_index (buttons, i),
                                                    GTK_TYPE_REVEALER));
  g_assert_not_reached ();
}

static gpointer
last_item (AgentChatWindow *window)
{
  GListModel *items = agent_test_gui_items (window);
  guint n = g_list_model_get_n_items (items);
  gpointer item;

  g_assert_cmpuint (n, >, 0);
  item = g_list_model_get_item (items, n - 1);
  g_object_unref (item);  /* the model holds it */
  return item;
}

/* Where @widget is, in the coordinates of the chat view's visible area */
static graphene_rect_t
bounds_in_view (AgentChatWindow *window,
                GtkWidget       *widget)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, scroller_of (window), &bounds));
  return bounds;
}

static void
assert_in_view (AgentChatWindow       *window,
                const graphene_rect_t *bounds)
{
  g_assert_cmpfloat (bounds->origin.y, >=, 0);
  g_assert_cmpfloat (bounds->origin.y + bounds->size.height, <=,
                     gtk_widget_get_height (scroller_of (window)));
}

static char *
chunk_text (GtkWidget *chunk)
{
  g_autoptr(GPtrArray) labels = find_all (chunk, GTK_TYPE_LABEL);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < labels->len; i++)
    g_string_append (text, gtk_label_get_text (g_ptr_array_index (labels, i)));
  return g_string_free (text, FALSE);
}

/* The end of the conversation is on screen: the last line of the last
 * message, drawn, inside the view and inside its Markdown's allocation;
 * once the answer is done, its action row too, below the text and above
 * the composer. */
static void
assert_end_shown (AgentChatWindow *window,
                  const char      *last_line,
                  gboolean         done)
{
  GtkAdjustment *adjustment = vadjustment_of (window);
  GtkWidget *row = find_row (window, last_item (window));
  GtkWidget *markdown;
  GtkWidget *chunk;
  g_autofree char *text = NULL;
  graphene_rect_t line, in_markdown;
  guint n_chunks, last_drawn = 0;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_child_visible (gtk_widget_get_parent (row)));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 1);

  markdown = GTK_WIDGET (agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row)));
  g_assert_true (gtk_widget_get_visible (markdown));
  n_chunks = _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown));
  chunk = _agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (markdown), n_chunks - 1);
  text = chunk_text (chunk);
  agent_test_assert_contains (text, last_line);
  line = bounds_in_view (window, chunk);
  assert_in_view (window, &line);
  g_assert_true (gtk_widget_compute_bounds (chunk, markdown, &in_markdown));
  g_assert_cmpfloat (in_markdown.origin.y + in_markdown.size.height, <=,
                     gtk_widget_get_height (markdown));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (AGENT_GTK_MARKDOWN_VIEW (markdown), &last_drawn),
                    >, 0);
  g_assert_cmpuint (last_drawn, ==, n_chunks - 1);

  if (done)
    {
      GtkWidget *actions = find_with_class (row, GTK_TYPE_BOX, "message-actions");
      GtkWidget *composer = GTK_WIDGET (agent_chat_window_get_composer (window));
      graphene_rect_t action_row, text_area, composer_area, in_window;

      g_assert_nonnull (actions);
      g_assert_true (gtk_widget_get_mapped (actions));
      action_row = bounds_in_view (window, actions);
      assert_in_view (window, &action_row);
      text_area = bounds_in_view (window, markdown);
      g_assert_cmpfloat (action_row.origin.y, >=, text_area.origin.y + text_area.size.height);
      g_assert_cmpfloat (action_row.origin.y, >=, line.origin.y + line.size.height);
      g_assert_true (gtk_widget_compute_bounds (actions, GTK_WIDGET (window), &in_window));
      g_assert_true (gtk_widget_compute_bounds (composer, GTK_WIDGET (window), &composer_area));
      g_assert_cmpfloat (in_window.origin.y + in_window.size.height, <=, composer_area.origin.y);
    }
}

/* Answers */

static char *
line_of (guint n)
{
  return g_strdup_printf ("Line %u of the answer.", n);
}

static char *
long_answer (guint n_lines)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i <= n_lines; i++)
    g_string_append_printf (text, "Line %u of the answer.\n\n", i);
  return g_string_free (text, FALSE);
}

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

/* The last message has arrived up to @end, and its row shows it */
static gboolean
content_shown (gpointer data)
{
  ContentWait *wait = data;
  gpointer item = last_item (wait->window);
  const char *content;
  GtkWidget *row;

  if (!AGENT_IS_MESSAGE (item) || agent_message_get_role (item) != AGENT_MESSAGE_ROLE_ASSISTANT)
    return FALSE;
  content = agent_message_get_content (item);
  if (content == NULL || !g_str_has_suffix (content, wait->end))
    return FALSE;
  row = find_row (wait->window, item);
  return row != NULL &&
         g_strcmp0 (agent_gtk_markdown_view_get_text (agent_gtk_message_row_get_markdown (
                      AGENT_GTK_MESSAGE_ROW (row))), content) == 0;
}

static void
wait_until_shown (AgentChatWindow *window,
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
      wait_until_shown (fixture->window, end);
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
  wait_until_shown (window, "Line 400 of the answer.\n\n");
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
  wait_until_shown (window, "Line 800 of the answer.\n\n");
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
  wait_until_shown (window, "Line 1200 of the answer.\n\n");
  assert_end_shown (window, "Line 1200 of the answer.", FALSE);

  /* Dragging the scrollbar up a little (it sets the value) stops it too */
  value = gtk_adjustment_get_value (adjustment) - 40;
  gtk_adjustment_set_value (adjustment, value);
  wait_frames (GTK_WIDGET (window), 2);
  seen = chunk_in_view (window, markdown);
  before = bounds_in_view (window, seen);
  agent_test_server_release (fixture->server);
  wait_for_pause (fixture->server);
  wait_until_shown (window, "Line 1600 of the answer.\n\n");
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

/* A conversation of @n_messages messages, questions and answers of one to
 * nine paragraphs */
static void
fill_conversation (AgentMemory *memory,
                   guint        n_messages)
{
  for (guint i = 0; i < n_messages; i += 2)
    {
      g_autofree char *question = g_strdup_printf ("Question %u", i / 2);
      g_autoptr(GString) answer = g_string_new (NULL);
      g_autoptr(AgentMessage) asked = NULL;
      g_autoptr(AgentMessage) answered = NULL;
      g_autoptr(GError) error = NULL;

      for (guint j = 0; j <= (i / 2 * 7) % 9; j++)
        g_string_append_printf (answer, "Answer %u, paragraph %u: a few words, enough to wrap "
                                "on a narrow window.\n\n", i / 2, j + 1);
      asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, question);
      answered = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer->str);
      g_assert_true (agent_memory_append (memory, asked, &error));
      g_assert_true (agent_memory_append (memory, answered, &error));
      g_assert_no_error (error);
    }
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
      wait_until_shown (window, first);
      assert_end_shown (window, "The start of answer", FALSE);
      {
        GListModel *items = agent_test_gui_items (window);
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

#if AGENT_HAS_STORE
/* Conversations kept in a real SQLite store, opened at start-up */

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_store_flush_finish (AGENT_STORE (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

/* Writes a conversation into a new store at @path, as the app would have
 * kept it; returns its id */
static gint64
store_conversation (const char *path,
                    guint       n_messages,
                    guint       n_lines)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = agent_store_new (path, &error);
  g_autoptr(AgentConversation) conversation = NULL;
  gboolean flushed = FALSE;

  g_assert_no_error (error);
  conversation = agent_store_create_conversation (store);
  fill_conversation (AGENT_MEMORY (conversation), n_messages);
  if (n_lines > 0)
    {
      g_autofree char *text = long_answer (n_lines);
      g_autoptr(AgentMessage) asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Write it all");
      g_autoptr(AgentMessage) answered = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, text);

      g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), asked, &error));
      g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), answered, &error));
      g_assert_no_error (error);
    }
  /* Committed on the store's writer thread: the id comes with it */
  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  agent_test_wait_for (&flushed);
  return agent_conversation_get_id (conversation);
}

/* Quits the fixture's window and starts again on the store at @path, whose
 * conversation @id was the last one open */
static void
restart_on (Fixture    *fixture,
            const char *path,
            gint64      id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) store = agent_store_new (path, &error);

  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_clear_object (&fixture->window);
  g_settings_set_int64 (fixture->settings, "last-conversation", id);
  fixture->window = g_object_ref_sink (g_object_new (AGENT_CHAT_TYPE_WINDOW, "store", store, NULL));
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_opened (fixture->window);
  wait_frames (GTK_WIDGET (fixture->window), 2);
}

/* A line of an answer wholly in view, and that would still be after the
 * view moved @distance pixels down */
static GtkWidget *
line_in_view (AgentChatWindow *window,
              double           distance)
{
  g_autoptr(GPtrArray) markdowns = find_all (GTK_WIDGET (agent_test_gui_list_view (window)),
                                             AGENT_GTK_TYPE_MARKDOWN_VIEW);
  double height = gtk_widget_get_height (scroller_of (window));

  for (guint i = 0; i < markdowns->len; i++)
    {
      GtkWidget *markdown = g_ptr_array_index (markdowns, i);

      if (!gtk_widget_get_mapped (markdown))
        continue;
      for (guint j = 0; j < _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown)); j++)
        {
          GtkWidget *chunk = _agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (markdown), j);
          graphene_rect_t bounds = bounds_in_view (window, chunk);

          if (bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height + distance <= height)
            return chunk;
        }
    }
  g_assert_not_reached ();
}

/* Opened at its end, and scrolling up from there moves the view */
static void
assert_opens_at_end (Fixture    *fixture,
                     const char *last_line)
{
  AgentChatWindow *window = fixture->window;
  GtkAdjustment *adjustment = vadjustment_of (window);
  GtkWidget *line;
  graphene_rect_t before, after;

  assert_end_shown (window, last_line, TRUE);
  g_assert_false (gtk_revealer_get_reveal_child (jump_revealer_of (window)));

  line = line_in_view (window, 200);
  before = bounds_in_view (window, line);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) - 200);
  wait_frames (GTK_WIDGET (window), 2);
  after = bounds_in_view (window, line);
  g_assert_cmpfloat (fabs (after.origin.y - before.origin.y - 200), <=, 1);
  g_assert_true (gtk_revealer_get_reveal_child (jump_revealer_of (window)));
}

/* Sends @prompt, answered with @answer: the answer shows at the end, in view */
static void
send_and_follow (Fixture    *fixture,
                 const char *prompt,
                 const char *answer)
{
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, prompt);
  wait_until (session_idle, agent_chat_window_get_session (fixture->window));
  wait_frames (GTK_WIDGET (fixture->window), 3);
  assert_end_shown (fixture->window, answer, TRUE);
}

static void
test_reopen_long_answer (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-scroll");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 4, 10000);

  restart_on (fixture, path, id);
  g_assert_cmpuint (g_list_model_get_n_items (agent_test_gui_items (fixture->window)), ==, 6);
  assert_opens_at_end (fixture, "Line 10000 of the answer.");

  /* A new turn after it is followed */
  send_and_follow (fixture, "And now, briefly?", "A short answer at last.");

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  agent_test_remove_dir (dir);
}

static void
test_reopen_1000_messages (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-scroll");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 1000, 0);

  GListModel *items;
  GtkAdjustment *adjustment;
  g_autoptr(GPtrArray) rows = NULL;
  guint n_steps = 0;

  restart_on (fixture, path, id);
  items = agent_test_gui_items (fixture->window);
  adjustment = vadjustment_of (fixture->window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (
                      agent_chat_window_get_session (fixture->window)))), ==, 1000);
  assert_opens_at_end (fixture, "Answer 499, paragraph");

  /* Only the end is in the list: GTK 4.8's list makes, binds and measures a
   * row for each of up to 200 items around the end, which made opening a
   * long conversation take most of a second */
  rows = find_all (GTK_WIDGET (agent_test_gui_list_view (fixture->window)),
                   AGENT_GTK_TYPE_MESSAGE_ROW);
  g_assert_cmpuint (g_list_model_get_n_items (items), <, 100);
  g_assert_cmpuint (rows->len, <, 100);

  /* Scrolled to the top of what is shown, earlier messages come in above
   * it (and the last go, past ROWS_IN_LIST), and what the user looked at
   * stays in view; up to the first */
  for (;;)
    {
      g_autoptr(GObject) first = g_list_model_get_item (items, 0);
      g_autoptr(GObject) new_first = NULL;
      GtkWidget *row;
      graphene_rect_t bounds;

      if (g_str_equal (agent_message_get_content (AGENT_MESSAGE (first)), "Question 0"))
        break;
      g_assert_cmpuint (++n_steps, <=, 500);
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
      wait_frames (GTK_WIDGET (fixture->window), 3);
      new_first = g_list_model_get_item (items, 0);
      g_assert_true (new_first != first);
      g_assert_cmpuint (g_list_model_get_n_items (items), <=, 200);
      row = find_row (fixture->window, first);
      g_assert_nonnull (row);
      g_assert_true (gtk_widget_get_child_visible (gtk_widget_get_parent (row)));
      bounds = bounds_in_view (fixture->window, row);
      g_assert_cmpfloat (bounds.origin.y, <, gtk_widget_get_height (scroller_of (fixture->window)));
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, >, 0);
    }
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
  wait_frames (GTK_WIDGET (fixture->window), 2);
  {
    g_autoptr(GObject) first = g_list_model_get_item (items, 0);
    GtkWidget *row = find_row (fixture->window, first);
    graphene_rect_t bounds;

    g_assert_cmpstr (agent_message_get_content (AGENT_MESSAGE (first)), ==, "Question 0");
    g_assert_nonnull (row);
    bounds = bounds_in_view (fixture->window, row);
    assert_in_view (fixture->window, &bounds);
  }
  /* Far from the end: the way back to it is offered */
  g_assert_true (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  agent_test_remove_dir (dir);
}

/* Counts the rows made to show another item than they showed: bound for
 * the first time, or to a different message (bound again to the same one,
 * as GTK 4.8 does when an item's position changes, a row has nothing to
 * make) */
static void
on_row_item (GtkWidget  *row,
             GParamSpec *pspec,
             guint      *n_made)
{
  GObject *item = agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row));

  if (item == NULL || item == g_object_get_data (G_OBJECT (row), "test-shown"))
    return;
  /* Compared only: the conversation holds its messages */
  g_object_set_data (G_OBJECT (row), "test-shown", item);
  (*n_made)++;
}

static void
watch_rows (AgentChatWindow *window,
            guint           *n_made)
{
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_gui_list_view (window)),
                                        AGENT_GTK_TYPE_MESSAGE_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (g_object_get_data (G_OBJECT (row), "test-watched") != NULL)
        continue;
      g_object_set_data (G_OBJECT (row), "test-watched", n_made);
      g_signal_connect (row, "notify::item", G_CALLBACK (on_row_item), n_made);
      on_row_item (row, NULL, n_made);
    }
}

/* The position in @messages of the message at the top of the view */
static guint
message_at_top (AgentChatWindow *window,
                GListModel      *messages)
{
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_gui_list_view (window)),
                                        AGENT_GTK_TYPE_MESSAGE_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);
      GObject *item = agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row));
      graphene_rect_t bounds;
      guint position;

      if (item == NULL || !gtk_widget_get_child_visible (gtk_widget_get_parent (row)))
        continue;
      bounds = bounds_in_view (window, row);
      if (bounds.origin.y > 0 || bounds.origin.y + bounds.size.height <= 0)
        continue;
      for (position = 0; position < g_list_model_get_n_items (messages); position++)
        {
          g_autoptr(GObject) message = g_list_model_get_item (messages, position);

          if (message == item)
            return position;
        }
    }
  g_assert_not_reached ();
}

/* Scrolled up to the first message, as a user does: to the top of what the
 * list shows, again and again, earlier messages coming in above */
static void
scroll_to_first (AgentChatWindow *window,
                 const char      *first_content)
{
  GListModel *items = agent_test_gui_items (window);
  GtkAdjustment *adjustment = vadjustment_of (window);
  guint n_steps = 0;

  for (;;)
    {
      g_autoptr(GObject) first = g_list_model_get_item (items, 0);

      if (g_strcmp0 (agent_message_get_content (AGENT_MESSAGE (first)), first_content) == 0 &&
          gtk_adjustment_get_value (adjustment) <= gtk_adjustment_get_lower (adjustment))
        break;
      g_assert_cmpuint (++n_steps, <=, 500);
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
      wait_frames (GTK_WIDGET (window), 3);
    }
}

/* A fling: the view moves down a sixth of its height each frame, in the
 * frame's update phase (as GtkScrolledWindow's kinetic scrolling does) */
static gboolean
fling (GtkWidget     *widget,
       GdkFrameClock *clock,
       gpointer       data)
{
  GtkAdjustment *adjustment = data;

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) +
                                        gtk_adjustment_get_page_size (adjustment) / 6);
  return G_SOURCE_CONTINUE;
}

/* A long chat whose messages differ in height, flung from its first
 * message down to its end. GTK 4.8's list
 * estimates the height of the rows it has not made from those it has, and
 * keeps rows for 200 items around the one at the top of the view, placed
 * by how far down the list the view is: each row it made changed the
 * estimate, which moved that range, which unmade rows and made others —
 * rows made again and again, dozens of times a message, tenths of a second
 * a frame. The list holds at most ROWS_IN_LIST items: each message is made
 * into a row once on the way down. */
static void
test_scroll_long_chat (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-scroll");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 600, 0);
  GListModel *memory;
  GListModel *items;
  GtkAdjustment *adjustment;
  g_autoptr(GObject) last = NULL;
  guint n_made = 0;
  guint n_steps = 0;
  guint top, new_top;
  guint tick;

  restart_on (fixture, path, id);
  memory = G_LIST_MODEL (agent_session_get_memory (agent_chat_window_get_session (fixture->window)));
  last = g_list_model_get_item (memory, g_list_model_get_n_items (memory) - 1);
  items = agent_test_gui_items (fixture->window);
  adjustment = vadjustment_of (fixture->window);
  scroll_to_first (fixture->window, "Question 0");

  watch_rows (fixture->window, &n_made);
  n_made = 0;
  top = message_at_top (fixture->window, memory);
  tick = gtk_widget_add_tick_callback (GTK_WIDGET (agent_test_gui_list_view (fixture->window)),
                                       fling, adjustment, NULL);
  while (last_item (fixture->window) != last ||
         gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) <
         gtk_adjustment_get_upper (adjustment) - 1)
    {
      g_assert_cmpuint (++n_steps, <=, 5000);
      wait_frames (GTK_WIDGET (fixture->window), 1);
      watch_rows (fixture->window, &n_made);
      g_assert_cmpuint (g_list_model_get_n_items (items), <=, 200);
      /* The view moves down the chat, never jumping over messages: a
       * sixth of a view is not more than a few */
      new_top = message_at_top (fixture->window, memory);
      g_assert_cmpuint (new_top, >=, top);
      g_assert_cmpuint (new_top - top, <=, 6);
      top = new_top;
    }
  gtk_widget_remove_tick_callback (GTK_WIDGET (agent_test_gui_list_view (fixture->window)), tick);
  g_test_message ("%u rows made for 600 messages in %u frames", n_made, n_steps);
  g_assert_cmpuint (n_made, <=, 600);
  wait_frames (GTK_WIDGET (fixture->window), 2);
  assert_end_shown (fixture->window, "Answer 299, paragraph 6", TRUE);
  g_assert_false (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));

  /* From the top, where the list does not hold the end: the way back to
   * it brings it */
  scroll_to_first (fixture->window, "Question 0");
  g_assert_true (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));
  gtk_widget_activate_action (GTK_WIDGET (agent_test_gui_list_view (fixture->window)),
                              "chat-view.scroll-to-end", NULL);
  wait_frames (GTK_WIDGET (fixture->window), 3);
  assert_end_shown (fixture->window, "Answer 299, paragraph 6", TRUE);

  /* And so does a prompt sent from there: its answer shows, followed */
  scroll_to_first (fixture->window, "Question 0");
  send_and_follow (fixture, "One more?", "The newest answer.");

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  agent_test_remove_dir (dir);
}
#endif

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
#if AGENT_HAS_STORE
  g_test_add ("/gui/scroll/reopen-long-answer", Fixture, NULL,
              fixture_set_up, test_reopen_long_answer, fixture_tear_down);
  g_test_add ("/gui/scroll/reopen-1000-messages", Fixture, NULL,
              fixture_set_up, test_reopen_1000_messages, fixture_tear_down);
  g_test_add ("/gui/scroll/long-chat", Fixture, NULL,
              fixture_set_up, test_scroll_long_chat, fixture_tear_down);
#endif

  return agent_test_gui_run (data_home);
}
