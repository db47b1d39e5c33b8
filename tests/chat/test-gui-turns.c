/* test-gui-turns.c
 *
 * What agent-chat shows of a turn, under a real display (Xvfb), the window
 * keeping its conversations in a real SQLite store and its session talking
 * to the in-process test server: a waiting state from the moment of Send,
 * "Retrying (2 of 3)…" while the session tries again, a tool card as soon
 * as a call starts streaming; errors that say what happened, kept with the
 * turn (after switching chats, after a restart) with Retry; and Edit and
 * Resend, which deletes nothing until the edited message is sent, offers
 * Undo, and keeps each chat's draft; the "‹ 2 / 3 ›" of a message that
 * Regenerate or Edit gave siblings, which switches branches, redrawing
 * only the rows from there on, and never while a turn runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-gtk-branch-switcher-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-tool-card-private.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

static void
assert_not_shown (AgentChatWindow *window,
                  const char      *text)
{
  g_autofree char *shown = shown_text (GTK_WIDGET (window));

  if (strstr (shown, text) != NULL)
    g_error ("“%s” is shown; the window shows:\n%s", text, shown);
}

static guint
n_items (Fixture *fixture)
{
  return g_list_model_get_n_items (agent_test_chat_items (fixture->window));
}

/* The content of item @position, or "(error)" */
static char *
item_text (Fixture *fixture,
           guint    position)
{
  g_autoptr(GObject) item = g_list_model_get_item (agent_test_chat_items (fixture->window),
                                                   position);

  g_assert_nonnull (item);
  if (!AGENT_IS_MESSAGE (item))
    return g_strdup ("(error)");
  return g_strdup (agent_message_get_content (AGENT_MESSAGE (item)));
}

/* The items' texts, joined by '|' */
static char *
items_text (Fixture *fixture)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_items (fixture); i++)
    {
      g_autofree char *one = item_text (fixture, i);

      g_string_append_printf (text, "%s%s", i ? "|" : "", one);
    }
  return g_string_free (text, FALSE);
}

static void
assert_items (Fixture    *fixture,
              const char *expected)
{
  g_autofree char *text = items_text (fixture);

  g_assert_cmpstr (text, ==, expected);
}

static void
chat (Fixture    *fixture,
      const char *prompt,
      const char *answer)
{
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, prompt);
  wait_session_idle (fixture);
}

/* The row showing @item */
static AgentGtkMessageRow *
row_for (Fixture *fixture,
         GObject *item)
{
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (fixture->window),
                                        AGENT_GTK_TYPE_MESSAGE_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (agent_gtk_message_row_get_item (g_ptr_array_index (rows, i)) == item)
      return g_ptr_array_index (rows, i);
  g_error ("No row shows the item");
}

static char *
composer_text (Fixture *fixture)
{
  return agent_gtk_composer_dup_text (agent_chat_window_get_composer (fixture->window));
}

static void
assert_composer (Fixture    *fixture,
                 const char *expected)
{
  g_autofree char *text = composer_text (fixture);

  g_assert_cmpstr (text, ==, expected);
}

/* Edit and Resend of the item at @position (a user's message) */
static void
edit (Fixture *fixture,
      guint    position)
{
  g_autoptr(GObject) item = g_list_model_get_item (agent_test_chat_items (fixture->window),
                                                   position);

  g_signal_emit_by_name (row_for (fixture, item), "edit", item);
  iterate ();
}

/* The Send of the composer, as Return does it */
static void
send_composer (Fixture *fixture)
{
  g_autofree char *text = composer_text (fixture);

  g_signal_emit_by_name (agent_chat_window_get_composer (fixture->window), "send", text);
}

static AgentMemory *
memory_of (Fixture *fixture)
{
  return agent_session_get_memory (session_of (fixture));
}

static void
show_memory (Fixture     *fixture,
             AgentMemory *memory)
{
  agent_chat_window_set_memory (fixture->window, memory);
  iterate ();
}

static void
new_chat (Fixture *fixture)
{
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  iterate ();
}

/* As a click does it (gtk_widget_activate() clicks a button later) */
static void
click (GtkWidget *button)
{
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}

/* Progress */

/* From the moment of Send, before the first byte, the answer shows that it
 * is awaited */
static void
test_waiting (Fixture       *fixture,
              gconstpointer  data)
{
  AgentTestResponse *response = agent_test_server_add_response (fixture->server, 200);

  agent_test_response_add_wait (response);
  agent_test_openai_add_role (response, "");
  agent_test_openai_add_text (response, "Here.");
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_chat_window_send (fixture->window, "Hello");
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (GTK_WIDGET (fixture->window), "Waiting for the model…");

  agent_test_server_release (fixture->server);
  wait_session_idle (fixture);
  assert_shows (GTK_WIDGET (fixture->window), "Here.");
  assert_not_shown (fixture->window, "Waiting for the model…");
}

/* While the session tries again, the answer says so, and why */
static void
test_retrying (Fixture       *fixture,
               gconstpointer  data)
{
  AgentTestResponse *busy = agent_test_server_add_response (fixture->server, 503);
  AgentTestResponse *response;

  agent_test_response_add_header (busy, "Retry-After", "0");
  agent_test_response_set_body (busy, "application/json",
                                "{\"error\":{\"message\":\"The engine is overloaded\"}}");
  response = agent_test_server_add_response (fixture->server, 200);
  agent_test_response_add_wait (response);
  agent_test_openai_add_role (response, "");
  agent_test_openai_add_text (response, "Made it.");
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_chat_window_send (fixture->window, "Hello");
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (GTK_WIDGET (fixture->window), "Retrying (2 of 3)…");
  assert_shows (GTK_WIDGET (fixture->window), "The engine is overloaded");

  agent_test_server_release (fixture->server);
  wait_session_idle (fixture);
  assert_shows (GTK_WIDGET (fixture->window), "Made it.");
  assert_not_shown (fixture->window, "Retrying");
}

static AgentGtkToolCard *
shown_card (Fixture *fixture)
{
  g_autoptr(GPtrArray) cards = find_all (GTK_WIDGET (fixture->window), AGENT_GTK_TYPE_TOOL_CARD);

  for (guint i = 0; i < cards->len; i++)
    if (gtk_widget_get_visible (g_ptr_array_index (cards, i)))
      return g_ptr_array_index (cards, i);
  return NULL;
}

static gboolean
card_shown (gpointer data)
{
  iterate ();
  return shown_card (data) != NULL;
}

/* With the chunk toggle off, a call shows as a card as soon as it starts
 * streaming: its name and that its arguments are being written, not the
 * arguments themselves until they are whole (then as fields) */
static void
test_tool_card_early (Fixture       *fixture,
                      gconstpointer  data)
{
  static const AgentTestToolChunk first = { 0, "call_1", "calculator", "{\"expr" };
  static const AgentTestToolChunk second = { 0, NULL, NULL, "ession\":\"6*7\"}" };
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  const char *deltas[] = { "It is 42.", NULL };
  g_autofree char *card_text = NULL;

  agent_test_openai_add_tool_chunk (response, &first);
  agent_test_response_add_wait (response);
  agent_test_openai_add_tool_chunk (response, &second);
  agent_test_openai_add_end (response, "tool_calls", 1, 1);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);

  g_assert_false (g_settings_get_boolean (fixture->settings, "show-tool-call-chunks"));
  agent_chat_window_send (fixture->window, "What is 6*7?");
  agent_test_server_wait_until_waiting (fixture->server);
  agent_test_wait_until (card_shown, fixture);
  card_text = shown_text (GTK_WIDGET (shown_card (fixture)));
  agent_test_assert_contains (card_text, "calculator\n");
  agent_test_assert_contains (card_text, "Writing arguments…");
  g_assert_null (strstr (card_text, "{\"expr"));
  assert_not_shown (fixture->window, "Waiting for the model…");

  agent_test_server_release (fixture->server);
  wait_session_idle (fixture);
  g_clear_pointer (&card_text, g_free);
  card_text = shown_text (GTK_WIDGET (shown_card (fixture)));
  /* Whole, as fields */
  agent_test_assert_contains (card_text, "expression\n6*7\n");
  assert_shows (GTK_WIDGET (fixture->window), "It is 42.");
}

/* Errors */

/* A connection that drops mid-answer is not "Stopped": the answer says the
 * connection was lost, and so does the error */
static void
test_dropped_connection (Fixture       *fixture,
                         gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");

  agent_provider_set_max_retries (agent_session_get_provider (session_of (fixture)), 0);
  agent_test_openai_add_text (response, "The beginning of ");
  agent_test_openai_add_text (response, "an answer");
  agent_test_response_set_drop (response);

  agent_chat_window_send (fixture->window, "Tell me a story");
  wait_session_idle (fixture);
  assert_shows (GTK_WIDGET (fixture->window), "The beginning of an answer");
  assert_not_shown (fixture->window, "Stopped");
  assert_shows (GTK_WIDGET (fixture->window), "Connection lost");
  assert_shows (GTK_WIDGET (fixture->window), "The connection to the model server was lost");
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->window), "_Retry"));
}

/* Stopped by the user, it says so */
static void
test_stopped (Fixture       *fixture,
              gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");

  agent_test_openai_add_text (response, "The beginning of ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_chat_window_send (fixture->window, "Tell me a story");
  agent_test_server_wait_until_waiting (fixture->server);
  iterate ();
  agent_chat_window_stop (fixture->window);
  wait_session_idle (fixture);
  agent_test_server_release (fixture->server);
  assert_shows (GTK_WIDGET (fixture->window), "Stopped");
  assert_not_shown (fixture->window, "Connection lost");
  g_assert_null (find_button (GTK_WIDGET (fixture->window), "_Retry"));
}

static void
add_401 (Fixture *fixture)
{
  AgentTestResponse *response = agent_test_server_add_response (fixture->server, 401);

  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
}

/* A 401 without a key says that no key is set, and where to set one; with
 * a key, that the key was refused */
static void
test_no_key (Fixture       *fixture,
             gconstpointer  data)
{
  add_401 (fixture);
  g_unsetenv ("OPENAI_API_KEY");
  agent_chat_window_send (fixture->window, "Hello");
  wait_session_idle (fixture);
  assert_shows (GTK_WIDGET (fixture->window), "No API key is set");
  assert_shows (GTK_WIDGET (fixture->window), "Preferences");
  assert_not_shown (fixture->window, "refused");
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->window), "_Preferences"));

  /* The environment's key, which the app falls back to */
  add_401 (fixture);
  g_setenv ("OPENAI_API_KEY", "sk-test-refused", TRUE);
  new_chat (fixture);
  agent_chat_window_send (fixture->window, "Hello again");
  wait_session_idle (fixture);
  g_unsetenv ("OPENAI_API_KEY");
  assert_shows (GTK_WIDGET (fixture->window), "The server refused the API key");
  assert_not_shown (fixture->window, "No API key is set");
}

static void
add_500 (Fixture *fixture)
{
  AgentTestResponse *response = agent_test_server_add_response (fixture->server, 500);

  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"The model is overloaded\"}}");
}

/* A failed turn keeps its error: after another chat, after a restart,
 * with Retry, until the turn is taken up again */
static void
test_error_kept (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(AgentMemory) failed = NULL;
  const char *deltas[] = { "Better now.", NULL };

  chat (fixture, "First", "One.");
  agent_provider_set_max_retries (agent_session_get_provider (session_of (fixture)), 0);
  add_500 (fixture);
  agent_chat_window_send (fixture->window, "Second");
  wait_session_idle (fixture);
  assert_items (fixture, "First|One.|Second|(error)");
  assert_shows (GTK_WIDGET (fixture->window), "The model is overloaded");
  failed = g_object_ref (memory_of (fixture));

  /* Another chat, and back */
  new_chat (fixture);
  assert_not_shown (fixture->window, "The model is overloaded");
  show_memory (fixture, failed);
  assert_items (fixture, "First|One.|Second|(error)");
  assert_shows (GTK_WIDGET (fixture->window), "The model server answered with an error");
  assert_shows (GTK_WIDGET (fixture->window), "The model is overloaded");
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->window), "_Retry"));

  /* A restart */
  g_clear_object (&failed);
  restart (fixture);
  assert_items (fixture, "First|One.|Second|(error)");
  assert_shows (GTK_WIDGET (fixture->window), "The model is overloaded");

  /* Retry, now that it works: the error goes, for good */
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  click (find_button (GTK_WIDGET (fixture->window), "_Retry"));
  wait_session_idle (fixture);
  assert_items (fixture, "First|One.|Second|Better now.");
  restart (fixture);
  assert_items (fixture, "First|One.|Second|Better now.");
  assert_not_shown (fixture->window, "The model is overloaded");
}

/* A dropped connection, after a restart: the cut answer still says why */
static void
test_interruption_kept (Fixture       *fixture,
                        gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");

  agent_provider_set_max_retries (agent_session_get_provider (session_of (fixture)), 0);
  agent_test_openai_add_text (response, "Half an answer");
  agent_test_response_set_drop (response);
  agent_chat_window_send (fixture->window, "Tell me a story");
  wait_session_idle (fixture);

  restart (fixture);
  assert_shows (GTK_WIDGET (fixture->window), "Half an answer");
  assert_shows (GTK_WIDGET (fixture->window), "Connection lost");
  assert_not_shown (fixture->window, "Stopped");
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->window), "_Retry"));

  /* The conversation goes on: the turn stays failed in the history, the
   * answer marked, with Retry (which asks its question again) */
  chat (fixture, "Go on", "The end.");
  restart (fixture);
  assert_items (fixture, "Tell me a story|Half an answer|Go on|The end.");
  assert_shows (GTK_WIDGET (fixture->window), "Connection lost");
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->window), "_Retry"));
}

/* Edit and Resend */

static GtkWidget *
find_undo (Fixture *fixture)
{
  return find_button (GTK_WIDGET (fixture->window), "_Undo");
}

/* Nothing is deleted until the edited message is sent; then Undo brings
 * back what the edit replaced, in the store too */
static void
test_edit_undo (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(AgentMemory) first = NULL;
  const char *deltas[] = { "Uno.", NULL };

  chat (fixture, "One", "1.");
  chat (fixture, "Two", "2.");
  first = g_object_ref (memory_of (fixture));

  edit (fixture, 0);
  assert_items (fixture, "One|1.|Two|2.");
  assert_composer (fixture, "One");

  /* Left for another chat and back: still all there, still being edited */
  new_chat (fixture);
  assert_composer (fixture, "");
  show_memory (fixture, first);
  assert_items (fixture, "One|1.|Two|2.");
  assert_composer (fixture, "One");

  agent_gtk_composer_set_text (agent_chat_window_get_composer (fixture->window), "Uno");
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  send_composer (fixture);
  wait_session_idle (fixture);
  assert_items (fixture, "Uno|Uno.");
  g_assert_nonnull (find_undo (fixture));

  click (find_undo (fixture));
  iterate ();
  assert_items (fixture, "One|1.|Two|2.");
  restart (fixture);
  assert_items (fixture, "One|1.|Two|2.");
}

/* Undo while the edited message's answer streams: it stops, then the turns
 * it replaced come back */
static void
test_edit_undo_while_busy (Fixture       *fixture,
                           gconstpointer  data)
{
  AgentTestResponse *response;

  chat (fixture, "One", "1.");
  edit (fixture, 0);
  agent_gtk_composer_set_text (agent_chat_window_get_composer (fixture->window), "Uno");
  response = agent_test_openai_begin (fixture->server, "");
  agent_test_openai_add_text (response, "U");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  send_composer (fixture);
  agent_test_server_wait_until_waiting (fixture->server);
  iterate ();
  g_assert_nonnull (find_undo (fixture));

  click (find_undo (fixture));
  wait_session_idle (fixture);
  agent_test_server_release (fixture->server);
  assert_items (fixture, "One|1.");
  restart (fixture);
  assert_items (fixture, "One|1.");
}

/* Cancelling the edit brings back what the composer held before */
static void
test_edit_cancel (Fixture       *fixture,
                  gconstpointer  data)
{
  AgentGtkComposer *composer;

  chat (fixture, "One", "1.");
  composer = agent_chat_window_get_composer (fixture->window);
  agent_gtk_composer_set_text (composer, "Half a thought");
  edit (fixture, 0);
  assert_composer (fixture, "One");
  g_assert_true (agent_gtk_composer_get_editing (composer));
  click (find_button (GTK_WIDGET (fixture->window), "Cancel Editing"));
  iterate ();
  g_assert_false (agent_gtk_composer_get_editing (composer));
  assert_composer (fixture, "Half a thought");
  assert_items (fixture, "One|1.");
}

/* What is typed and not sent belongs to its chat */
static void
test_drafts (Fixture       *fixture,
             gconstpointer  data)
{
  AgentGtkComposer *composer = agent_chat_window_get_composer (fixture->window);
  g_autoptr(AgentMemory) a = NULL;
  g_autoptr(AgentMemory) b = NULL;

  chat (fixture, "Chat A", "A.");
  a = g_object_ref (memory_of (fixture));
  agent_gtk_composer_set_text (composer, "Draft of A");

  new_chat (fixture);
  assert_composer (fixture, "");
  chat (fixture, "Chat B", "B.");
  b = g_object_ref (memory_of (fixture));
  agent_gtk_composer_set_text (composer, "Draft of B");

  show_memory (fixture, a);
  assert_composer (fixture, "Draft of A");
  show_memory (fixture, b);
  assert_composer (fixture, "Draft of B");
  new_chat (fixture);
  assert_composer (fixture, "");
}

/* Branches: "‹ 2 / 3 ›" */

static AgentGtkMessageRow *
row_at (Fixture *fixture,
        guint    position)
{
  g_autoptr(GObject) item = g_list_model_get_item (agent_test_chat_items (fixture->window),
                                                   position);

  g_assert_nonnull (item);
  return row_for (fixture, item);
}

static AgentGtkBranchSwitcher *
switcher_at (Fixture *fixture,
             guint    position)
{
  return AGENT_GTK_BRANCH_SWITCHER (
    agent_gtk_message_row_get_branch_switcher (row_at (fixture, position)));
}

/* "2 / 3" shown by the row at @position, "" when none */
static void
assert_switcher (Fixture    *fixture,
                 guint       position,
                 const char *expected)
{
  AgentGtkBranchSwitcher *switcher = switcher_at (fixture, position);

  g_assert_cmpstr (gtk_widget_get_visible (GTK_WIDGET (switcher))
                   ? agent_gtk_branch_switcher_get_text (switcher) : "", ==, expected);
}

/* A button of the switcher at @position (by its tooltip), if it shows */
static GtkWidget *
switcher_button (Fixture    *fixture,
                 guint       position,
                 const char *name)
{
  return find_button (GTK_WIDGET (switcher_at (fixture, position)), name);
}

/* The answer at @position answered again, by its Regenerate button */
static void
regenerate (Fixture    *fixture,
            guint       position,
            const char *answer)
{
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  click (find_button (GTK_WIDGET (row_at (fixture, position)), "Regenerate Answer"));
  wait_session_idle (fixture);
  iterate ();
}

/* Regenerate makes a sibling, shown "2 / 2" on the answer; Previous goes
 * back to the first answer, redrawing only its row (the rows before are
 * the same widgets), and the stored conversation reopens on it */
static void
test_branch_arrows (Fixture       *fixture,
                    gconstpointer  data)
{
  AgentGtkMessageRow *before[3];
  GtkWidget *previous;

  chat (fixture, "One", "1.");
  chat (fixture, "Two", "2.");
  for (guint i = 0; i < 4; i++)
    assert_switcher (fixture, i, "");

  regenerate (fixture, 3, "2b.");
  assert_items (fixture, "One|1.|Two|2b.");
  assert_switcher (fixture, 3, "2 / 2");
  assert_switcher (fixture, 2, "");
  g_assert_null (switcher_button (fixture, 2, "Previous Answer"));
  previous = switcher_button (fixture, 3, "Previous Answer");
  g_assert_nonnull (previous);
  g_assert_true (gtk_widget_is_sensitive (previous));
  g_assert_false (gtk_widget_is_sensitive (switcher_button (fixture, 3, "Next Answer")));
  g_assert_true (gtk_widget_get_focusable (previous));

  for (guint i = 0; i < 3; i++)
    before[i] = row_at (fixture, i);
  click (previous);
  iterate ();
  assert_items (fixture, "One|1.|Two|2.");
  for (guint i = 0; i < 3; i++)
    g_assert_true (row_at (fixture, i) == before[i]);
  assert_switcher (fixture, 3, "1 / 2");
  g_assert_false (gtk_widget_is_sensitive (switcher_button (fixture, 3, "Previous Answer")));
  g_assert_true (gtk_widget_is_sensitive (switcher_button (fixture, 3, "Next Answer")));

  /* The keyboard: Alt+Right on the row */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row_at (fixture, 3)),
                                             "message.next-sibling", NULL));
  iterate ();
  assert_items (fixture, "One|1.|Two|2b.");
  assert_switcher (fixture, 3, "2 / 2");
  click (switcher_button (fixture, 3, "Previous Answer"));
  iterate ();

  restart (fixture);
  assert_items (fixture, "One|1.|Two|2.");
  assert_switcher (fixture, 3, "1 / 2");
}

/* No switching while a turn runs: it appends to the branch it started on */
static void
test_branch_busy (Fixture       *fixture,
                  gconstpointer  data)
{
  AgentTestResponse *response;
  GtkWidget *previous;

  chat (fixture, "One", "1.");
  regenerate (fixture, 1, "1b.");
  assert_switcher (fixture, 1, "2 / 2");

  response = agent_test_openai_begin (fixture->server, "");
  agent_test_openai_add_text (response, "2");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  agent_chat_window_send (fixture->window, "Two");
  agent_test_server_wait_until_waiting (fixture->server);
  iterate ();
  previous = switcher_button (fixture, 1, "Previous Answer");
  g_assert_nonnull (previous);
  g_assert_false (gtk_widget_is_sensitive (previous));
  click (previous);
  gtk_widget_activate_action (GTK_WIDGET (row_at (fixture, 1)), "message.previous-sibling", NULL);
  iterate ();
  g_assert_cmpuint (agent_memory_get_sibling_index (memory_of (fixture), 1), ==, 1);
  assert_items (fixture, "One|1b.|Two|2");

  agent_test_server_release (fixture->server);
  wait_session_idle (fixture);
  iterate ();
  assert_items (fixture, "One|1b.|Two|2");
  g_assert_true (gtk_widget_is_sensitive (switcher_button (fixture, 1, "Previous Answer")));
}

/* Edit and Resend makes a version of the question; Undo switches back to
 * the one it replaced, on the path it showed (the first of two answers,
 * not the newest), and the edit stays, one click away */
static void
test_branch_edit_undo (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *deltas[] = { "Uno.", NULL };

  chat (fixture, "One", "1.");
  regenerate (fixture, 1, "1b.");
  click (switcher_button (fixture, 1, "Previous Answer"));
  iterate ();
  assert_items (fixture, "One|1.");
  edit (fixture, 0);
  agent_gtk_composer_set_text (agent_chat_window_get_composer (fixture->window), "Uno");
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  send_composer (fixture);
  wait_session_idle (fixture);
  iterate ();
  assert_items (fixture, "Uno|Uno.");
  assert_switcher (fixture, 0, "2 / 2");
  g_assert_nonnull (switcher_button (fixture, 0, "Previous Version"));

  click (find_undo (fixture));
  iterate ();
  assert_items (fixture, "One|1.");
  g_assert_cmpuint (agent_memory_get_n_siblings (memory_of (fixture), 0), ==, 2);
  assert_switcher (fixture, 0, "1 / 2");
  assert_composer (fixture, "Uno");

  click (switcher_button (fixture, 0, "Next Version"));
  iterate ();
  assert_items (fixture, "Uno|Uno.");
  restart (fixture);
  assert_items (fixture, "Uno|Uno.");
  assert_switcher (fixture, 0, "2 / 2");
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, store_fixture_set_up, func, fixture_tear_down)

  ADD ("/gui/turns/waiting", test_waiting);
  ADD ("/gui/turns/retrying", test_retrying);
  ADD ("/gui/turns/tool-card-early", test_tool_card_early);
  ADD ("/gui/turns/dropped-connection", test_dropped_connection);
  ADD ("/gui/turns/stopped", test_stopped);
  ADD ("/gui/turns/no-key", test_no_key);
  ADD ("/gui/turns/error-kept", test_error_kept);
  ADD ("/gui/turns/interruption-kept", test_interruption_kept);
  ADD ("/gui/turns/edit-undo", test_edit_undo);
  ADD ("/gui/turns/edit-undo-while-busy", test_edit_undo_while_busy);
  ADD ("/gui/turns/edit-cancel", test_edit_cancel);
  ADD ("/gui/turns/drafts", test_drafts);
  ADD ("/gui/turns/branch-arrows", test_branch_arrows);
  ADD ("/gui/turns/branch-busy", test_branch_busy);
  ADD ("/gui/turns/branch-edit-undo", test_branch_edit_undo);

  return agent_test_gui_run (data_home);
}
