/* test-gui-history.c
 *
 * Long conversations in agent-chat's chat view, under a real display
 * (Xvfb): kept in a real SQLite store, opened again at start-up — an answer
 * of 10,000 lines, 1,000 messages — and scrolled from the first message to
 * the last. Each opens at its end; the list holds a window of the
 * conversation that slides as the user scrolls, each message made into a
 * row once on the way, the view never jumping over messages; the way back
 * to the end, and a new prompt, bring the end. The conversation's
 * scrollbar counts its messages, and takes the view anywhere at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <agent.h>
#include <math.h>

#include "agent-gtk-chat-scrollbar-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-window.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-scroll.h"
#include "agent-test-util.h"

/* Conversations kept in a real SQLite store, opened at start-up */

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
  flush_store (store);
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
  g_autoptr(GPtrArray) markdowns = find_all (GTK_WIDGET (agent_test_chat_list_view (window)),
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
  g_autofree char *dir = agent_test_make_dir ("test-gui-history");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 4, 10000);

  restart_on (fixture, path, id);
  g_assert_cmpuint (g_list_model_get_n_items (agent_test_chat_items (fixture->window)), ==, 6);
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
  g_autofree char *dir = agent_test_make_dir ("test-gui-history");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 1000, 0);

  GListModel *items;
  GtkAdjustment *adjustment;
  g_autoptr(GPtrArray) rows = NULL;
  guint n_steps = 0;

  restart_on (fixture, path, id);
  items = agent_test_chat_items (fixture->window);
  adjustment = vadjustment_of (fixture->window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (
                      agent_chat_window_get_session (fixture->window)))), ==, 1000);
  assert_opens_at_end (fixture, "Answer 499, paragraph");

  /* Only the end is in the list: GTK 4.8's list makes, binds and measures a
   * row for each of up to 200 items around the end, which made opening a
   * long conversation take most of a second */
  rows = find_all (GTK_WIDGET (agent_test_chat_list_view (fixture->window)),
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
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_chat_list_view (window)),
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
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_chat_list_view (window)),
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
  GListModel *items = agent_test_chat_items (window);
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
  g_autofree char *dir = agent_test_make_dir ("test-gui-history");
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
  items = agent_test_chat_items (fixture->window);
  adjustment = vadjustment_of (fixture->window);
  scroll_to_first (fixture->window, "Question 0");

  watch_rows (fixture->window, &n_made);
  n_made = 0;
  top = message_at_top (fixture->window, memory);
  tick = gtk_widget_add_tick_callback (GTK_WIDGET (agent_test_chat_list_view (fixture->window)),
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
  gtk_widget_remove_tick_callback (GTK_WIDGET (agent_test_chat_list_view (fixture->window)), tick);
  g_test_message ("%u rows made for 600 messages in %u frames", n_made, n_steps);
  g_assert_cmpuint (n_made, <=, 600);
  wait_frames (GTK_WIDGET (fixture->window), 2);
  assert_end_shown (fixture->window, "Answer 299, paragraph 6", TRUE);
  g_assert_false (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));

  /* From the top, where the list does not hold the end: the way back to
   * it brings it */
  scroll_to_first (fixture->window, "Question 0");
  g_assert_true (gtk_revealer_get_reveal_child (jump_revealer_of (fixture->window)));
  gtk_widget_activate_action (GTK_WIDGET (agent_test_chat_list_view (fixture->window)),
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

/* The chat view's scrollbar: the conversation's, in messages */
static GtkAdjustment *
conversation_scrollbar (AgentChatWindow *window)
{
  g_autoptr(GPtrArray) bars = find_all (GTK_WIDGET (window), GTK_TYPE_SCROLLBAR);

  for (guint i = 0; i < bars->len; i++)
    {
      GtkWidget *bar = g_ptr_array_index (bars, i);

      if (gtk_widget_get_ancestor (bar, AGENT_GTK_TYPE_CHAT_SCROLLBAR) != NULL)
        return gtk_scrollbar_get_adjustment (GTK_SCROLLBAR (bar));
    }
  g_assert_not_reached ();
}

/* A long chat: its scrollbar says where the view is in the whole
 * conversation, in messages; moved, and agent_gtk_chat_view_scroll_to_start(),
 * it takes the view anywhere at once */
static void
test_scroll_anywhere (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-history");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  gint64 id = store_conversation (path, 1000, 0);
  AgentGtkChatView *view;
  GListModel *memory;
  GtkAdjustment *position;
  guint n_steps = 0;

  restart_on (fixture, path, id);
  view = AGENT_GTK_CHAT_VIEW (gtk_widget_get_ancestor (
    GTK_WIDGET (agent_test_chat_list_view (fixture->window)), AGENT_GTK_TYPE_CHAT_VIEW));
  memory = G_LIST_MODEL (agent_session_get_memory (agent_chat_window_get_session (fixture->window)));
  position = conversation_scrollbar (fixture->window);

  /* At the end: the thumb at the end of the whole conversation */
  g_assert_cmpfloat (gtk_adjustment_get_upper (position), ==, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_value (position) + gtk_adjustment_get_page_size (position),
                     ==, 1000);
  g_assert_cmpuint (message_at_top (fixture->window, memory), >=, 995);

  /* The start, at once */
  agent_gtk_chat_view_scroll_to_start (view);
  do
    {
      /* Laid out in the frames to come, never blank on the way */
      g_assert_cmpuint (++n_steps, <=, 20);
      wait_frames (GTK_WIDGET (fixture->window), 1);
    }
  while (message_at_top (fixture->window, memory) != 0 ||
         gtk_adjustment_get_value (position) != 0);
  g_test_message ("the first message at the top after %u frames", n_steps);
  g_assert_false (agent_gtk_chat_view_get_following (view));

  /* The scrollbar moved to the middle: the middle of the conversation */
  gtk_adjustment_set_value (position, 500);
  n_steps = 0;
  do
    {
      g_assert_cmpuint (++n_steps, <=, 20);
      wait_frames (GTK_WIDGET (fixture->window), 1);
    }
  while (message_at_top (fixture->window, memory) != 500);
  wait_frames (GTK_WIDGET (fixture->window), 2);
  g_assert_cmpuint (message_at_top (fixture->window, memory), ==, 500);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (position) - 500), <, 1);

  /* And the end again, followed */
  agent_gtk_chat_view_scroll_to_end (view);
  wait_frames (GTK_WIDGET (fixture->window), 3);
  assert_end_shown (fixture->window, "Answer 499, paragraph", TRUE);
  g_assert_cmpfloat (gtk_adjustment_get_value (position) + gtk_adjustment_get_page_size (position),
                     ==, 1000);

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add ("/gui/history/reopen-long-answer", Fixture, NULL,
              fixture_set_up, test_reopen_long_answer, fixture_tear_down);
  g_test_add ("/gui/history/reopen-1000-messages", Fixture, NULL,
              fixture_set_up, test_reopen_1000_messages, fixture_tear_down);
  g_test_add ("/gui/history/long-chat", Fixture, NULL,
              fixture_set_up, test_scroll_long_chat, fixture_tear_down);
  g_test_add ("/gui/history/scroll-anywhere", Fixture, NULL,
              fixture_set_up, test_scroll_anywhere, fixture_tear_down);

  return agent_test_gui_run (data_home);
}
