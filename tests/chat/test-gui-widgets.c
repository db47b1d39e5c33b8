/* test-gui-widgets.c
 *
 * agent-chat's widgets under a real display (Xvfb): the message rows
 * (recycled between items), the tool cards and the Show Tool-Call Chunks
 * toggle, driven by a real session talking to the in-process test server.
 * The Markdown view: tests/gtk/test-gtk-markdown.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <agent.h>

#include "agent-gtk-error-item-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-tool-card-private.h"
#include "agent-chat-window.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

/* Rows */

static void
test_row_recycle (void)
{
  GtkWidget *row = agent_gtk_message_row_new ();
  GtkWidget *window = show_in_window (row);
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Question?");
  g_autoptr(AgentMessage) answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT,
                                                      "An **answer**");
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "calculator",
                                                       "{\"expression\":\"1+1\"}");
  AgentGtkMarkdownView *markdown = agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row));
  g_autoptr(GPtrArray) cards = NULL;
  g_autofree char *labels = NULL;
  guint handlers_before = 0;

  agent_message_add_tool_call (answer, call);

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (question));
  iterate ();
  g_assert_true (gtk_widget_has_css_class (row, "user"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (markdown)));

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (answer));
  iterate ();
  g_assert_true (gtk_widget_has_css_class (row, "assistant"));
  g_assert_false (gtk_widget_has_css_class (row, "user"));
  labels = markdown_labels (GTK_WIDGET (markdown));
  agent_test_assert_contains (labels, "An <b>answer</b>");
  cards = find_all (agent_gtk_message_row_get_cards (AGENT_GTK_MESSAGE_ROW (row)),
                    AGENT_GTK_TYPE_TOOL_CARD);
  g_assert_cmpuint (cards->len, ==, 1);
  g_assert_true (agent_gtk_tool_card_get_tool_call (g_ptr_array_index (cards, 0)) == call);
  /* A ready call shows even with the toggle off */
  g_assert_true (gtk_widget_get_visible (g_ptr_array_index (cards, 0)));

  /* Unbound and bound again to the same answer (GTK 4.8 does that when the
   * streamed answer goes into memory, and to every row after an item
   * added above them, as the list brings earlier messages in while the
   * user scrolls up): nothing is rendered or made again */
  {
    guint renders = _agent_gtk_markdown_view_get_n_renders (markdown);
    g_autofree char *again = NULL;
    g_autoptr(GPtrArray) cards_again = NULL;

    agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), NULL);
    g_assert_null (agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row)));
    agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (answer));
    iterate ();
    g_assert_cmpuint (_agent_gtk_markdown_view_get_n_renders (markdown), ==, renders);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (markdown)));
    again = markdown_labels (GTK_WIDGET (markdown));
    agent_test_assert_contains (again, "An <b>answer</b>");
    cards_again = find_all (agent_gtk_message_row_get_cards (AGENT_GTK_MESSAGE_ROW (row)),
                            AGENT_GTK_TYPE_TOOL_CARD);
    g_assert_cmpuint (cards_again->len, ==, 1);
    g_assert_true (g_ptr_array_index (cards_again, 0) == g_ptr_array_index (cards, 0));
    g_assert_true (gtk_widget_has_css_class (row, "assistant"));
    g_assert_true (gtk_widget_get_visible (agent_gtk_message_row_get_cards (AGENT_GTK_MESSAGE_ROW (row))));
  }

  /* A call added while it was unbound shows once it is bound again */
  {
    g_autoptr(AgentToolCall) second = agent_tool_call_new ("call_2", "search", "{}");
    g_autoptr(GPtrArray) cards_again = NULL;
    g_autofree char *again = NULL;

    agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), NULL);
    agent_message_add_tool_call (answer, second);
    agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (answer));
    iterate ();
    cards_again = find_all (agent_gtk_message_row_get_cards (AGENT_GTK_MESSAGE_ROW (row)),
                            AGENT_GTK_TYPE_TOOL_CARD);
    g_assert_cmpuint (cards_again->len, ==, 2);
    g_assert_true (agent_gtk_tool_card_get_tool_call (g_ptr_array_index (cards_again, 1)) == second);
    again = markdown_labels (GTK_WIDGET (markdown));
    agent_test_assert_contains (again, "An <b>answer</b>");
  }

  /* Back to the question: the answer's handlers and cards are gone */
  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (question));
  g_clear_pointer (&cards, g_ptr_array_unref);
  cards = find_all (row, AGENT_GTK_TYPE_TOOL_CARD);
  g_assert_cmpuint (cards->len, ==, 0);
  handlers_before = g_signal_handler_find (answer, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, row);
  g_assert_cmpuint (handlers_before, ==, 0);
  g_assert_false (g_signal_has_handler_pending (call, g_signal_lookup ("notify", G_TYPE_OBJECT),
                                                0, FALSE));

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (g_steal_pointer (&answer));
  g_assert_finalize_object (g_steal_pointer (&call));
}

/* Where the focus is: a widget's tooltip, or its type */
static const char *
focus_name (GtkWidget *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (focus == NULL)
    return "(none)";
  if (gtk_widget_get_tooltip_text (focus) != NULL)
    return gtk_widget_get_tooltip_text (focus);
  return G_OBJECT_TYPE_NAME (focus);
}

static void
press_tab (GtkWidget        *window,
           GtkDirectionType  direction)
{
  gtk_widget_child_focus (window, direction);
  iterate ();
}

/* @row measured at every width from its minimum to 400 px: a critical
 * (fatal here) fails, and so does a height under @least */
static void
measure_every_width (GtkWidget *row,
                     int        least)
{
  int min_width;

  gtk_widget_measure (row, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  for (int width = min_width; width <= 400; width++)
    {
      int height;

      gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, width, &height, NULL, NULL, NULL);
      g_assert_cmpint (height, >=, least);
    }
}

/* The user's message wraps in its bubble at any width, measured as GTK
 * expects. GTK 4.8's GtkBox finds the width of a child that wraps beside
 * another by asking its width for a height, and a wrapped label's width for
 * any height is a few pixels more than its minimum width: at widths near
 * the row's minimum (a window made narrow, a list measuring its rows'
 * least height) the search ran up to 1,048,576 pixels and logged "GtkBox
 * reports a minimum width of 46, but minimum width for height of 1048576 is
 * 564. Expect overlapping widgets" (a critical: fatal here), after
 * measuring the label some twenty times. (A label's minimum leaves out
 * the spaces that end its text, and its width for a height does not: a
 * message typed with a space at its end.) */
static void
test_row_user_bubble_wraps (void)
{
  GtkWidget *row = agent_gtk_message_row_new ();
  GtkWidget *window = show_in_window (row);
  g_autoptr(AgentMessage) question =
    agent_message_new (AGENT_MESSAGE_ROLE_USER,
                       "Could you look at the logs of last night's build and tell me which "
                       "commit made the first test fail? Why did it fail? ");
  g_autoptr(GPtrArray) labels = NULL;
  GtkWidget *label = NULL;
  graphene_rect_t bounds;
  int line_height;

  g_assert_cmpuint (strlen (agent_message_get_content (question)), <=, 256);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 600);
  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (question));
  wait_painted (window, 2);

  labels = find_all (row, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)),
                   agent_message_get_content (question)) == 0)
      label = g_ptr_array_index (labels, i);
  g_assert_nonnull (label);
  g_assert_cmpint (gtk_widget_get_width (window), ==, 360);

  /* Inside the row, wrapped onto more than one line */
  g_assert_true (gtk_widget_compute_bounds (label, row, &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (row));
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, G_MAXINT / 2, &line_height, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_height (label), >=, 2 * line_height);

  /* Every width from the row's minimum up */
  measure_every_width (row, 2 * line_height);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Every kind of row measures at every width from its minimum up without a
 * critical (fatal here): the user's bubble, an answer with a tool card, a
 * summary of earlier messages, a failed turn's error card, each text
 * ending in a space, as the one that showed the bubble's critical (see
 * test_row_user_bubble_wraps()) */
static void
test_row_every_width (void)
{
  GtkWidget *row = agent_gtk_message_row_new ();
  GtkWidget *window = show_in_window (row);
  g_autoptr(GError) error = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_HTTP,
                                                 "The server is overloaded. Why did it fail? ");
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER,
                                                        "What is the weather in Berlin? Why did it fail? ");
  g_autoptr(AgentMessage) answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT,
                                                      "Let me look that up. Why did it fail? ");
  g_autoptr(AgentMessage) summary = agent_message_new_summary ("They talked about the weather. "
                                                               "Why did it fail? ", 0, 12);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "weather",
                                                       "{\"city\": \"Berlin \", \"days\": 3}");
  g_autoptr(AgentGtkErrorItem) failed = agent_gtk_error_item_new (error, FALSE, FALSE);
  GObject *items[] = { G_OBJECT (question), G_OBJECT (answer), G_OBJECT (summary),
                       G_OBJECT (failed) };

  agent_message_add_tool_call (answer, call);
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), items[i]);
      wait_painted (window, 1);
      measure_every_width (row, 1);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The row takes the focus, then Tab goes to its actions; its context menu
 * holds them too */
static void
test_row_keyboard (void)
{
  GtkWidget *row = agent_gtk_message_row_new ();
  GtkWidget *window = show_in_window (row);
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Question?");
  g_autoptr(GPtrArray) popovers = NULL;
  GMenuModel *menu;

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (question));
  iterate ();
  g_assert_true (gtk_widget_grab_focus (row));
  g_assert_cmpstr (focus_name (window), ==, "AgentGtkMessageRow");
  press_tab (window, GTK_DIR_TAB_FORWARD);
  g_assert_cmpstr (focus_name (window), ==, "Copy Message");
  press_tab (window, GTK_DIR_TAB_FORWARD);
  g_assert_cmpstr (focus_name (window), ==, "Edit and Resend");
  press_tab (window, GTK_DIR_TAB_BACKWARD);
  press_tab (window, GTK_DIR_TAB_BACKWARD);
  g_assert_cmpstr (focus_name (window), ==, "AgentGtkMessageRow");

  g_assert_true (gtk_widget_activate_action (row, "message.show-menu", NULL));
  iterate ();
  popovers = find_all (row, GTK_TYPE_POPOVER_MENU);
  g_assert_cmpuint (popovers->len, ==, 1);
  g_assert_true (gtk_widget_get_visible (g_ptr_array_index (popovers, 0)));
  menu = gtk_popover_menu_get_menu_model (g_ptr_array_index (popovers, 0));
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 1);  /* one section */
  menu = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
  g_object_unref (menu);
  gtk_popover_popdown (g_ptr_array_index (popovers, 0));

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_pretty_json (void)
{
  g_autofree char *pretty = _agent_gtk_pretty_json ("{\"a\":[1,2],\"b\":\"x\"}");
  g_autofree char *partial = _agent_gtk_pretty_json ("{\"a\":[1,");

  agent_test_assert_contains (pretty, "\n  \"a\" : [\n");
  g_assert_cmpstr (partial, ==, "{\"a\":[1,");

  /* Arguments nested past AGENT_JSON_MAX_DEPTH (150 KB of "[[[…") show as
   * they came: json-glib's parser overflowed the stack on them */
  {
    g_autoptr(GString) deep = g_string_new (NULL);
    g_autofree char *shown = NULL;

    for (guint i = 0; i < 150000; i++)
      g_string_append_c (deep, '[');
    for (guint i = 0; i < 150000; i++)
      g_string_append_c (deep, ']');
    shown = _agent_gtk_pretty_json (deep->str);
    g_assert_cmpstr (shown, ==, deep->str);
  }
}

/* The window and the toggle */

static void
test_toggle_action (Fixture       *fixture,
                    gconstpointer  data)
{
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  GActionGroup *group = G_ACTION_GROUP (fixture->window);
  g_autoptr(GVariant) state = NULL;

  g_assert_false (agent_session_get_stream_tool_call_chunks (session));
  g_action_group_activate_action (group, "show-tool-call-chunks", NULL);
  g_assert_true (g_settings_get_boolean (fixture->settings, "show-tool-call-chunks"));
  g_assert_true (agent_session_get_stream_tool_call_chunks (session));
  state = g_action_group_get_action_state (group, "show-tool-call-chunks");
  g_assert_true (g_variant_get_boolean (state));

  g_action_group_activate_action (group, "show-tool-call-chunks", NULL);
  g_assert_false (g_settings_get_boolean (fixture->settings, "show-tool-call-chunks"));
  g_assert_false (agent_session_get_stream_tool_call_chunks (session));
}

static AgentGtkToolCard *
find_card (Fixture *fixture)
{
  g_autoptr(GPtrArray) cards = find_all (GTK_WIDGET (fixture->window), AGENT_GTK_TYPE_TOOL_CARD);

  return cards->len > 0 ? g_ptr_array_index (cards, 0) : NULL;
}

static gboolean
card_shows (gpointer data)
{
  Fixture *fixture = data;
  AgentGtkToolCard *card;

  iterate ();
  card = find_card (fixture);
  return card != NULL && gtk_widget_get_visible (GTK_WIDGET (card));
}

static gboolean
card_shows_arguments (gpointer data)
{
  g_autofree char *shown = shown_text (data);

  return strstr (shown, "expression\n6*\n") != NULL;
}

/* The toggle flips the running session at once: a call streaming while
 * it is on shows as a card growing chunk by chunk (its arguments as
 * fields, a string as far as it came); turned off, the card
 * stays but hides its arguments until the call is whole. */
static void
test_toggle_mid_stream (Fixture       *fixture,
                        gconstpointer  data)
{
  static const AgentTestToolChunk first = { 0, "call_1", "calculator", "{\"expression\":\"6*" };
  static const AgentTestToolChunk second = { 0, NULL, NULL, "7\"}" };
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  const char *deltas[] = { "It is 42.", NULL };
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  AgentGtkToolCard *card;
  g_autofree char *shown = NULL;

  agent_test_openai_add_tool_chunk (response, &first);
  agent_test_response_add_wait (response);
  agent_test_openai_add_tool_chunk (response, &second);
  agent_test_openai_add_end (response, "tool_calls", 1, 1);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);

  g_settings_set_boolean (fixture->settings, "show-tool-call-chunks", TRUE);
  agent_chat_window_send (fixture->window, "What is 6*7?");
  agent_test_server_wait_until_waiting (fixture->server);
  agent_test_wait_until (card_shows, fixture);
  card = find_card (fixture);
  g_assert_cmpint (agent_tool_call_get_state (agent_gtk_tool_card_get_tool_call (card)), ==,
                   AGENT_TOOL_CALL_STATE_STREAMING);
  /* Its arguments are laid out at the next frame */
  agent_test_wait_until (card_shows_arguments, card);

  /* Off mid-stream: the session stops emitting chunks, the card shows the
   * call being written without its arguments */
  g_settings_set_boolean (fixture->settings, "show-tool-call-chunks", FALSE);
  g_assert_false (agent_session_get_stream_tool_call_chunks (session));
  iterate ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_card (fixture))));
  shown = shown_text (GTK_WIDGET (card));
  agent_test_assert_contains (shown, "Writing arguments…");
  g_assert_null (strstr (shown, "expression"));

  agent_test_server_release (fixture->server);
  agent_test_wait_until (session_idle, session);
  agent_test_wait_until (card_shows, fixture);
  card = find_card (fixture);
  g_assert_cmpint (agent_tool_call_get_state (agent_gtk_tool_card_get_tool_call (card)), ==,
                   AGENT_TOOL_CALL_STATE_SUCCEEDED);
  g_assert_cmpstr (agent_tool_call_get_result (agent_gtk_tool_card_get_tool_call (card)), ==,
                   "42");
}

/* The "Thinking" expander of the answer shown */
static GtkWidget *
thinking_expander (Fixture *fixture)
{
  g_autoptr(GPtrArray) expanders = find_all (GTK_WIDGET (fixture->window), GTK_TYPE_EXPANDER);

  for (guint i = 0; i < expanders->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (expanders, i)))
      return g_ptr_array_index (expanders, i);
  return NULL;
}

static gboolean
thinking_shows (gpointer data)
{
  iterate ();
  return thinking_expander (data) != NULL;
}

/* The reasoning shows under "Thinking", folded. Opened while it streams,
 * it stays open when the answer ends and goes into memory (GTK 4.8 binds
 * its row again), with all of it. */
static void
test_reasoning_stays_open (Fixture       *fixture,
                        gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  g_autofree char *shown = NULL;
  GtkWidget *expander;

  agent_test_openai_add_reasoning (response, "**Plan**: add the numbers.\n\n");
  agent_test_openai_add_reasoning (response, "Then check");
  agent_test_response_add_wait (response);
  agent_test_openai_add_reasoning (response, " the sum.\n\n");
  agent_test_openai_add_reasoning (response, "Done thinking.");
  agent_test_openai_add_text (response, "It is 4.");
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_chat_window_send (fixture->window, "What is 2+2?");
  agent_test_server_wait_until_waiting (fixture->server);
  agent_test_wait_until (thinking_shows, fixture);
  expander = thinking_expander (fixture);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  /* The server sent up to "Then check" before it waits, but the client may
   * not have read the last of it yet: until it shows */
  wait_until_shown (expander, "**Plan**: add the numbers.\n\nThen check\n");
  shown = shown_text (expander);
  agent_test_assert_contains (shown, "**Plan**: add the numbers.\n\nThen check\n");
  g_clear_pointer (&shown, g_free);

  agent_test_server_release (fixture->server);
  agent_test_wait_until (session_idle, session);
  /* Still open once the answer is in memory (its row bound again) */
  g_assert_true (thinking_expander (fixture) == expander);
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  shown = shown_text (expander);
  agent_test_assert_contains (shown, "**Plan**: add the numbers.\n\nThen check the sum.\n\nDone thinking.\n");
}

/* Where the focus goes, Tab after Tab from the composer (@direction), until
 * it is back there: tooltips (or types) joined by '|' */
static char *
focus_cycle (AgentChatWindow  *window,
             GtkDirectionType  direction)
{
  GString *stops = g_string_new (NULL);

  gtk_widget_grab_focus (GTK_WIDGET (agent_chat_window_get_composer (window)));
  iterate ();
  for (guint i = 0; i < 60; i++)
    {
      GtkWidget *before = gtk_root_get_focus (GTK_ROOT (window));
      const char *name;

      press_tab (GTK_WIDGET (window), direction);
      if (gtk_root_get_focus (GTK_ROOT (window)) == before)
        {
          g_string_append (stops, "|(stuck)");
          break;
        }
      name = focus_name (GTK_WIDGET (window));
      if (g_str_equal (name, "GtkTextView"))
        break;
      g_string_append_printf (stops, "|%s", name);
    }
  return g_string_free (stops, FALSE);
}

/* Tab and Shift+Tab go through the conversation: each message, then its
 * actions */
static void
test_window_keyboard (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *deltas[] = { "Hi.", NULL };
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  g_autofree char *forward = NULL;
  g_autofree char *backward = NULL;

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, "Hello");
  agent_test_wait_until (session_idle, session);
  iterate ();

  forward = focus_cycle (fixture->window, GTK_DIR_TAB_FORWARD);
  agent_test_assert_contains (forward, "|AgentGtkMessageRow|Copy Message|Edit and Resend|"
                                       "AgentGtkMessageRow|Copy Message|Regenerate Answer");
  backward = focus_cycle (fixture->window, GTK_DIR_TAB_BACKWARD);
  agent_test_assert_contains (backward, "|Regenerate Answer|Copy Message|AgentGtkMessageRow|"
                                        "Edit and Resend|Copy Message|AgentGtkMessageRow|");
}

/* Stopping keeps the partial answer, marked as stopped */
static void
test_stop_keeps_partial (Fixture       *fixture,
                         gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  GListModel *items = agent_test_chat_items (fixture->window);
  g_autoptr(AgentMessage) last = NULL;

  agent_test_openai_add_text (response, "The beginning of ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "never shown");
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_chat_window_send (fixture->window, "Tell me a story");
  g_assert_true (agent_gtk_composer_get_busy (agent_chat_window_get_composer (fixture->window)));
  agent_test_server_wait_until_waiting (fixture->server);
  iterate ();
  agent_chat_window_stop (fixture->window);
  agent_test_wait_until (session_idle, session);
  iterate ();

  g_assert_false (agent_gtk_composer_get_busy (agent_chat_window_get_composer (fixture->window)));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  last = g_list_model_get_item (items, 1);
  g_assert_cmpstr (agent_message_get_content (last), ==, "The beginning of ");
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  agent_test_server_release (fixture->server);
}

/* A failed turn shows its error after the conversation, with Retry */
static void
test_error_and_retry (Fixture       *fixture,
                      gconstpointer  data)
{
  AgentTestResponse *response = agent_test_server_add_response (fixture->server, 500);
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  GListModel *items = agent_test_chat_items (fixture->window);
  const char *deltas[] = { "Better now.", NULL };
  g_autoptr(GObject) error_item = NULL;
  g_autoptr(GObject) answer = NULL;

  agent_provider_set_max_retries (agent_session_get_provider (session), 0);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"The model is overloaded\"}}");
  agent_chat_window_send (fixture->window, "Hello");
  agent_test_wait_until (session_idle, session);
  iterate ();

  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  error_item = g_list_model_get_item (items, 1);
  g_assert_false (AGENT_IS_MESSAGE (error_item));

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  {
    g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (fixture->window), AGENT_GTK_TYPE_MESSAGE_ROW);

    for (guint i = 0; i < rows->len; i++)
      if (agent_gtk_message_row_get_item (g_ptr_array_index (rows, i)) == error_item)
        g_signal_emit_by_name (g_ptr_array_index (rows, i), "retry");
  }
  agent_test_wait_until (session_idle, session);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  answer = g_list_model_get_item (items, 1);
  g_assert_true (AGENT_IS_MESSAGE (answer));
  g_assert_cmpstr (agent_message_get_content (AGENT_MESSAGE (answer)), ==, "Better now.");
}

static guint
n_attachments (AgentGtkComposer *composer)
{
  return g_list_model_get_n_items (agent_gtk_composer_get_attachments (composer));
}

/* What the window's toasts say */
static char *
toasts_text (AgentChatWindow *window)
{
  g_autoptr(GPtrArray) toasts = find_all (GTK_WIDGET (window), g_type_from_name ("AdwToastWidget"));
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < toasts->len; i++)
    {
      g_autofree char *shown = shown_text (g_ptr_array_index (toasts, i));

      g_string_append (text, shown);
    }
  return g_string_free (text, FALSE);
}

/* An attachment the provider cannot take: a toast says so (naming the
 * provider and the type), the composer keeps the message and the
 * attachment; a file that cannot be read: a toast names it */
static void
test_attachment_toasts (Fixture       *fixture,
                        gconstpointer  data)
{
  AgentSession *session = agent_chat_window_get_session (fixture->window);
  AgentGtkComposer *composer = agent_chat_window_get_composer (fixture->window);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("PK\3\4", 4);
  g_autoptr(AgentContentPart) part = agent_content_part_new_file ("application/zip", bytes,
                                                                  "archive.zip");
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/holiday.png");
  g_autofree char *text = NULL;
  g_autofree char *toasts = NULL;

  agent_gtk_composer_set_text (composer, "Unpack this");
  agent_gtk_composer_add_attachment (composer, part);
  g_signal_emit_by_name (composer, "send", "Unpack this");
  agent_test_wait_until (session_idle, session);
  iterate ();
  /* (the type libadwaita shows toasts with, registered with the first) */
  g_assert_cmpstr (g_type_name (g_type_from_name ("AdwToastWidget")), ==, "AdwToastWidget");
  toasts = toasts_text (fixture->window);
  g_assert_nonnull (strstr (toasts, "OpenAI"));
  g_assert_nonnull (strstr (toasts, "application/zip"));
  text = agent_gtk_composer_dup_text (composer);
  g_assert_cmpstr (text, ==, "Unpack this");
  g_assert_cmpuint (n_attachments (composer), ==, 1);

  agent_gtk_composer_attach_files (composer, &missing, 1);
  for (guint i = 0; i < 200 && strstr (toasts, "holiday.png") == NULL; i++)
    {
      g_usleep (10000);
      iterate ();
      g_free (toasts);
      toasts = toasts_text (fixture->window);
    }
  g_assert_nonnull (strstr (toasts, "holiday.png"));
  g_assert_cmpuint (n_attachments (composer), ==, 1);
}

static GtkWidget *
file_chooser_shown (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (window) && gtk_widget_get_visible (window))
        return window;
    }
  return NULL;
}

/* Ctrl+O's action, from anywhere in the window: the file chooser to attach
 * files with, which can pick several */
static void
test_attach_action (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *chooser;

  g_assert_null (file_chooser_shown ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.attach", NULL));
  iterate ();
  chooser = file_chooser_shown ();
  g_assert_nonnull (chooser);
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (chooser)));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (chooser)), ==, "Attach Files");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate ();
  g_assert_null (file_chooser_shown ());
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add_func ("/gui/row/recycle", test_row_recycle);
  g_test_add_func ("/gui/row/keyboard", test_row_keyboard);
  g_test_add_func ("/gui/row/user-bubble-wraps", test_row_user_bubble_wraps);
  g_test_add_func ("/gui/row/every-width", test_row_every_width);
  g_test_add_func ("/gui/tool-card/pretty-json", test_pretty_json);
  g_test_add ("/gui/window/toggle-action", Fixture, NULL,
              fixture_set_up, test_toggle_action, fixture_tear_down);
  g_test_add ("/gui/window/reasoning-stays-open", Fixture, NULL,
              fixture_set_up, test_reasoning_stays_open, fixture_tear_down);
  g_test_add ("/gui/window/toggle-mid-stream", Fixture, NULL,
              fixture_set_up, test_toggle_mid_stream, fixture_tear_down);
  g_test_add ("/gui/window/keyboard", Fixture, NULL,
              fixture_set_up, test_window_keyboard, fixture_tear_down);
  g_test_add ("/gui/window/stop-keeps-partial", Fixture, NULL,
              fixture_set_up, test_stop_keeps_partial, fixture_tear_down);
  g_test_add ("/gui/window/error-and-retry", Fixture, NULL,
              fixture_set_up, test_error_and_retry, fixture_tear_down);
  g_test_add ("/gui/window/attachment-toasts", Fixture, NULL,
              fixture_set_up, test_attachment_toasts, fixture_tear_down);
  g_test_add ("/gui/window/attach-action", Fixture, NULL,
              fixture_set_up, test_attach_action, fixture_tear_down);

  return agent_test_gui_run (data_home);
}
