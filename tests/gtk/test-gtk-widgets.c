/* test-gtk-widgets.c — libagent-gtk's widgets through their public API
 * (<agent-gtk.h> only), embedded as an application would: an
 * AgentGtkChatView and an AgentGtkComposer in a window of the test's own,
 * bound to an AgentSession that talks to the in-process test server (real
 * HTTP and SSE on 127.0.0.1). Streaming text appears as it comes, Stop
 * cancels, a tool call shows as a card, the approval prompt allows and
 * denies, an error card's Retry runs the turn again, a summary shows as a
 * folded marker, a long conversation opens at its end, a stored one shows
 * without a cross-fade from the placeholder; and the Markdown view alone.
 * Runs under Xvfb.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent-gtk.h>

#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

static void
test_streaming (Fixture       *fixture,
                gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  g_autofree char *text = NULL;

  agent_test_openai_add_text (response, "The first words, ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "then **the rest**.");
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_gtk_composer_set_text (fixture->composer, "Tell me something");
  g_signal_emit_by_name (fixture->composer, "send", "Tell me something");
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (fixture->window, "The first words,");
  g_assert_true (agent_gtk_chat_view_get_busy (fixture->view));
  g_assert_true (agent_gtk_composer_get_busy (fixture->composer));
  text = agent_gtk_composer_dup_text (fixture->composer);
  g_assert_cmpstr (text, ==, "");
  assert_shows (fixture->window, "Tell me something");

  agent_test_server_release (fixture->server);
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "The first words, then the rest.");
  g_assert_false (agent_gtk_composer_get_busy (fixture->composer));
  g_assert_cmpuint (fixture->n_finished, ==, 1);
  g_assert_no_error (fixture->finished_error);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (fixture->server, 0), ==,
                   "Tell me something");
}

/* Stop mid-stream: the turn is cancelled, what streamed stays, marked as
 * stopped, and no error card offers Retry */
static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  g_autofree char *text = NULL;

  agent_test_openai_add_text (response, "The beginning of ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);

  agent_gtk_chat_view_send (fixture->view, "Tell me a story");
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (fixture->window, "The beginning of");
  /* The composer's Stop, as its button emits it */
  g_signal_emit_by_name (fixture->composer, "stop");
  agent_test_wait_until (view_idle, fixture);
  agent_test_server_release (fixture->server);
  g_assert_error (fixture->finished_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  wait_until_shown (fixture->window, "Stopped");
  text = shown_text (fixture->window);
  g_assert_nonnull (strstr (text, "The beginning of"));
  g_assert_null (find_button (fixture->window, "_Retry"));
  g_assert_false (agent_session_get_busy (fixture->session));
}

/* A tool call shows as a card, then the answer after it */
static void
test_tool_card (Fixture       *fixture,
                gconstpointer  data)
{
  AgentTestToolChunk call = { 0, "call_1", "calculator", "{\"expression\":\"6*7\"}" };
  const char *deltas[] = { "It is 42.", NULL };
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(GPtrArray) cards = NULL;
  AgentToolCall *tool_call;

  agent_session_add_tool (fixture->session, calculator);
  agent_test_openai_add_tool_response (fixture->server, &call, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Six times seven?");
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "It is 42.");

  cards = find_visible (fixture->window, AGENT_GTK_TYPE_TOOL_CARD);
  g_assert_cmpuint (cards->len, ==, 1);
  tool_call = agent_gtk_tool_card_get_tool_call (g_ptr_array_index (cards, 0));
  g_assert_nonnull (tool_call);
  g_assert_cmpstr (agent_tool_call_get_name (tool_call), ==, "calculator");
  assert_shows (g_ptr_array_index (cards, 0), "calculator");
  g_assert_cmpstr (agent_test_openai_tool_message_content (fixture->server, 1, "call_1"), ==,
                   "42");

  /* The chunk toggle follows the view's property */
  agent_gtk_chat_view_set_show_tool_call_chunks (fixture->view, TRUE);
  g_assert_true (agent_session_get_stream_tool_call_chunks (fixture->session));
  g_assert_true (agent_gtk_tool_card_get_show_chunks (g_ptr_array_index (cards, 0)));
}

static AgentGtkToolCard *
the_card (Fixture *fixture)
{
  g_autoptr(GPtrArray) cards = NULL;

  iterate ();
  cards = find_visible (fixture->window, AGENT_GTK_TYPE_TOOL_CARD);
  g_assert_cmpuint (cards->len, ==, 1);
  return g_ptr_array_index (cards, 0);
}

/* Streams a call of @name in @n_chunks fragments, the model waiting after
 * each but the last; then an answer */
static void
stream_tool_call (Fixture    *fixture,
                  const char *name,
                  const char *chunks[],
                  guint       n_chunks)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  const char *deltas[] = { "Done.", NULL };

  for (guint i = 0; i < n_chunks; i++)
    {
      AgentTestToolChunk chunk = { 0, i == 0 ? "call_1" : NULL, i == 0 ? name : NULL, chunks[i] };

      if (i > 0)
        agent_test_response_add_wait (response);
      agent_test_openai_add_tool_chunk (response, &chunk);
    }
  agent_test_openai_add_end (response, "tool_calls", 1, 1);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);

  agent_gtk_chat_view_set_show_tool_call_chunks (fixture->view, TRUE);
  agent_gtk_chat_view_send (fixture->view, "What is the weather?");
  agent_test_server_wait_until_waiting (fixture->server);
}

/* With the chunk toggle on, a call's arguments show as they stream as
 * fields: each name, and a string as far as it came, without the JSON
 * around it; once whole, the same fields with the whole values (what is
 * nested as indented lines), and the JSON at the card's toggle */
static void
test_tool_card_fields (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *chunks[] = {
    "{\"city\": \"Ber",
    "lin\", \"days\": 3, \"note\": \"say \\\"hi",
    "\\\"\", \"where\": {\"lat\": 52.5, \"tags\": [\"Mitte\", true]}, "
    "\"stops\": [{\"name\": \"Mitte\", \"hours\": 2}, []]}",
  };
  AgentGtkToolCard *card;
  GtkWidget *raw;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *json = NULL;

  stream_tool_call (fixture, "weather", chunks, G_N_ELEMENTS (chunks));
  card = the_card (fixture);
  wait_until_shown (GTK_WIDGET (card), "city\nBer\n");
  first = shown_text (GTK_WIDGET (card));
  g_assert_null (strstr (first, "{"));
  g_assert_null (strstr (first, "days"));
  g_assert_null (find_button (GTK_WIDGET (card), "JSON"));
  g_assert_cmpint (agent_tool_call_get_state (agent_gtk_tool_card_get_tool_call (card)), ==,
                   AGENT_TOOL_CALL_STATE_STREAMING);

  agent_test_server_release (fixture->server);
  wait_until_shown (GTK_WIDGET (card), "note\nsay \"hi\n");
  second = shown_text (GTK_WIDGET (card));
  agent_test_assert_contains (second, "city\nBerlin\n");
  agent_test_assert_contains (second, "days\n3\n");
  g_assert_null (strstr (second, "\\"));

  agent_test_server_release (fixture->server);
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "Done.");
  card = the_card (fixture);
  whole = shown_text (GTK_WIDGET (card));
  agent_test_assert_contains (whole, "city\nBerlin\ndays\n3\nnote\nsay \"hi\"\n");
  agent_test_assert_contains (whole, "where\nlat: 52.5\ntags:\n  • Mitte\n  • true\n");
  agent_test_assert_contains (whole, "stops\n• name: Mitte\n  hours: 2\n• []\n");
  g_assert_null (strstr (whole, "\"city\""));

  /* The JSON toggle shows the arguments as the model wrote them, pretty */
  raw = find_button (GTK_WIDGET (card), "JSON");
  g_assert_nonnull (raw);
  gtk_widget_activate (raw);
  wait_until_shown (GTK_WIDGET (card), "\"city\" : \"Berlin\"");
  json = shown_text (GTK_WIDGET (card));
  agent_test_assert_contains (json, "\"city\" : \"Berlin\"");
  g_assert_null (strstr (json, "city\nBerlin\n"));
}

/* Arguments that are no object, or no JSON at all, show as the text the
 * model wrote, as they stream (@mid after the first fragment) and once
 * whole (@end, pretty if JSON); no JSON toggle */
static void
assert_shown_raw (Fixture    *fixture,
                  const char *chunks[2],
                  const char *mid,
                  const char *end)
{
  AgentGtkToolCard *card;

  stream_tool_call (fixture, "weather", chunks, 2);
  card = the_card (fixture);
  wait_until_shown (GTK_WIDGET (card), mid);
  g_assert_null (find_button (GTK_WIDGET (card), "JSON"));
  agent_test_server_release (fixture->server);
  agent_test_wait_until (view_idle, fixture);
  card = the_card (fixture);
  wait_until_shown (GTK_WIDGET (card), end);
  g_assert_null (find_button (GTK_WIDGET (card), "JSON"));
}

static void
test_tool_card_not_json (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *chunks[] = { "city=Ber", "lin; days=3" };

  assert_shown_raw (fixture, chunks, "city=Ber\n", "city=Berlin; days=3\n");
}

static void
test_tool_card_array (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *chunks[] = { "[\"Ber", "lin\", 3]" };

  assert_shown_raw (fixture, chunks, "[\"Ber\n", "[\n  \"Berlin\",\n  3\n]\n");
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(GPtrArray) labels = find_visible (widget, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), text) == 0)
      return g_ptr_array_index (labels, i);
  return NULL;
}

/* The answer follows the question closely: what lies between the user's
 * bubble and the answer's text (the answer's actions, still hidden, and
 * the margins of the two rows) is no wider than a line */
static void
test_message_gap (Fixture       *fixture,
                  gconstpointer  data)
{
  const char *deltas[] = { "Hello there.", NULL };
  g_autoptr(GPtrArray) answers = NULL;
  GtkWidget *question;
  graphene_rect_t bubble, answer;
  float gap;

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Hi");
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "Hello there.");
  /* Measured once the rows are laid out with what they show now (the
   * answer's actions came with the end of the turn) */
  wait_frames (fixture->window, 3);

  question = find_label (fixture->window, "Hi");
  g_assert_nonnull (question);
  answers = find_visible (fixture->window, AGENT_GTK_TYPE_MARKDOWN_VIEW);
  g_assert_cmpuint (answers->len, ==, 1);
  /* The bubble around the question, and the answer's text */
  g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (question),
                                            fixture->window, &bubble));
  g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (answers, 0),
                                            fixture->window, &answer));
  gap = answer.origin.y - (bubble.origin.y + bubble.size.height);
  g_test_message ("gap between question and answer: %.0f px", gap);
  g_assert_cmpfloat (gap, >=, 6);
  g_assert_cmpfloat (gap, <=, 24);
}

static gboolean
prompt_shown (gpointer data)
{
  Fixture *fixture = data;
  g_autoptr(GPtrArray) prompts = find_visible (fixture->window, AGENT_GTK_TYPE_APPROVAL_PROMPT);

  return prompts->len == 1 &&
         agent_gtk_approval_prompt_get_pending (g_ptr_array_index (prompts, 0));
}

static AgentGtkApprovalPrompt *
the_prompt (Fixture *fixture)
{
  g_autoptr(GPtrArray) prompts = find_visible (fixture->window, AGENT_GTK_TYPE_APPROVAL_PROMPT);

  g_assert_cmpuint (prompts->len, ==, 1);
  return g_ptr_array_index (prompts, 0);
}

/* A tool that asks first: the prompt under the conversation says which, and
 * its buttons allow it once, or deny it */
static void
test_approval (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gtk-approval");
  g_autofree char *path = agent_test_write_file (dir, "notes.txt", "secret plans", -1);
  g_autofree char *arguments = g_strdup_printf ("{\"path\":\"%s\"}", path);
  AgentTestToolChunk call = { 0, "call_1", "read_file", arguments };
  AgentTestToolChunk again = { 0, "call_2", "read_file", arguments };
  const char *allowed[] = { "Read it.", NULL };
  const char *denied[] = { "Could not.", NULL };
  g_autoptr(AgentTool) read_file = agent_builtin_tool_new ("read_file", NULL);
  g_autofree char *asked = NULL;
  GtkWidget *button;

  agent_session_add_tool (fixture->session, read_file);

  /* Allow Once, clicked */
  agent_test_openai_add_tool_response (fixture->server, &call, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, allowed, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Read my notes");
  agent_test_wait_until (prompt_shown, fixture);
  asked = shown_text (GTK_WIDGET (the_prompt (fixture)));
  g_assert_nonnull (strstr (asked, "notes.txt"));
  /* The application keeps no answer for the conversation: none offered */
  g_assert_null (find_button (GTK_WIDGET (the_prompt (fixture)), "Allow in This _Conversation"));
  button = find_button (GTK_WIDGET (the_prompt (fixture)), "Allow _Once");
  g_assert_nonnull (button);
  gtk_widget_activate (button);
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "Read it.");
  g_assert_cmpuint (fixture->n_answered, ==, 1);
  g_assert_cmpint (fixture->answer, ==, AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE);
  g_assert_cmpstr (agent_test_openai_tool_message_content (fixture->server, 1, "call_1"), ==,
                   "secret plans");
  g_assert_false (prompt_shown (fixture));

  /* Deny, clicked: the model is told, the file is not read */
  agent_test_openai_add_tool_response (fixture->server, &again, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, denied, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Read them again");
  agent_test_wait_until (prompt_shown, fixture);
  button = find_button (GTK_WIDGET (the_prompt (fixture)), "_Deny");
  g_assert_nonnull (button);
  gtk_widget_activate (button);
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "Could not.");
  g_assert_cmpuint (fixture->n_answered, ==, 2);
  g_assert_cmpint (fixture->answer, ==, AGENT_GTK_APPROVAL_ANSWER_DENY);
  g_assert_null (strstr (agent_test_openai_tool_message_content (fixture->server, 3, "call_2"),
                         "secret plans"));
  g_assert_nonnull (strstr (agent_test_openai_tool_message_content (fixture->server, 3, "call_2"),
                            "denied"));
  g_assert_false (prompt_shown (fixture));

  agent_test_remove_dir (dir);
}

/* The application asks in a dialog of its own: the prompt, presented */
static gboolean
ask_in_dialog (AgentSession      *session,
               AgentToolCall     *call,
               AgentToolApproval *approval,
               Fixture           *fixture)
{
  GtkWidget *prompt = agent_gtk_approval_prompt_new (approval);

  agent_gtk_approval_prompt_present (AGENT_GTK_APPROVAL_PROMPT (prompt), fixture->window);
  return TRUE;
}

/* The window of the dialog that asks, if one shows */
static GtkWidget *
dialog_shown (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    {
      g_autoptr(GPtrArray) prompts = find_visible (l->data, AGENT_GTK_TYPE_APPROVAL_PROMPT);

      if (gtk_widget_get_visible (l->data) && prompts->len == 1 &&
          agent_gtk_approval_prompt_get_pending (g_ptr_array_index (prompts, 0)))
        return l->data;
    }
  return NULL;
}

static gboolean
dialog_shows (gpointer data)
{
  return dialog_shown () != NULL;
}

static gboolean
no_dialog (gpointer data)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    {
      g_autoptr(GPtrArray) prompts = find_visible (l->data, AGENT_GTK_TYPE_APPROVAL_PROMPT);

      if (prompts->len > 0)
        return FALSE;
    }
  return TRUE;
}

/* The approval prompt in a dialog: Allow Once in it runs the tool, and it
 * goes; closing it denies */
static void
test_approval_dialog (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gtk-dialog");
  g_autofree char *path = agent_test_write_file (dir, "notes.txt", "secret plans", -1);
  g_autofree char *arguments = g_strdup_printf ("{\"path\":\"%s\"}", path);
  AgentTestToolChunk call = { 0, "call_1", "read_file", arguments };
  AgentTestToolChunk again = { 0, "call_2", "read_file", arguments };
  const char *allowed[] = { "Read it.", NULL };
  const char *denied[] = { "Could not.", NULL };
  g_autoptr(AgentTool) read_file = agent_builtin_tool_new ("read_file", NULL);
  GtkWidget *dialog;

  agent_session_add_tool (fixture->session, read_file);
  g_signal_connect (fixture->session, "approve-tool-call", G_CALLBACK (ask_in_dialog), fixture);

  agent_test_openai_add_tool_response (fixture->server, &call, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, allowed, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Read my notes");
  agent_test_wait_until (dialog_shows, NULL);
  dialog = dialog_shown ();
  g_assert_true (dialog != fixture->window);
  g_assert_false (prompt_shown (fixture));  /* not in the view as well */
  assert_shows (dialog, "notes.txt");
  gtk_widget_activate (find_button (dialog, "Allow _Once"));
  agent_test_wait_until (view_idle, fixture);
  agent_test_wait_until (no_dialog, NULL);
  wait_until_shown (fixture->window, "Read it.");
  g_assert_cmpstr (agent_test_openai_tool_message_content (fixture->server, 1, "call_1"), ==,
                   "secret plans");

  agent_test_openai_add_tool_response (fixture->server, &again, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, denied, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Again");
  agent_test_wait_until (dialog_shows, NULL);
  gtk_window_close (GTK_WINDOW (dialog_shown ()));
  agent_test_wait_until (view_idle, fixture);
  agent_test_wait_until (no_dialog, NULL);
  wait_until_shown (fixture->window, "Could not.");
  g_assert_nonnull (strstr (agent_test_openai_tool_message_content (fixture->server, 3, "call_2"),
                            "denied"));

  agent_test_remove_dir (dir);
}

/* A failed turn shows an error card; its Retry runs the turn again */
static void
test_error_retry (Fixture       *fixture,
                  gconstpointer  data)
{
  AgentTestResponse *failure = agent_test_server_add_response (fixture->server, 500);
  const char *deltas[] = { "Better now.", NULL };
  g_autoptr(GPtrArray) cards = NULL;
  GtkWidget *retry;

  agent_test_response_set_body (failure, "application/json",
                                "{\"error\":{\"message\":\"The server had a bad day\"}}");
  agent_gtk_chat_view_send (fixture->view, "Hello");
  agent_test_wait_until (view_idle, fixture);
  iterate ();
  g_assert_nonnull (fixture->finished_error);
  cards = find_visible (fixture->window, AGENT_GTK_TYPE_ERROR_CARD);
  g_assert_cmpuint (cards->len, ==, 1);
  g_assert_nonnull (agent_gtk_error_card_get_error (g_ptr_array_index (cards, 0)));
  g_assert_nonnull (agent_gtk_error_card_get_heading (g_ptr_array_index (cards, 0)));
  assert_shows (g_ptr_array_index (cards, 0), "bad day");

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  retry = find_button (g_ptr_array_index (cards, 0), "_Retry");
  g_assert_nonnull (retry);
  gtk_widget_activate (retry);
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "Better now.");
  g_assert_no_error (fixture->finished_error);
  g_clear_pointer (&cards, g_ptr_array_unref);
  cards = find_visible (fixture->window, AGENT_GTK_TYPE_ERROR_CARD);
  g_assert_cmpuint (cards->len, ==, 0);
  /* The same question again, once */
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 2);
  g_assert_cmpstr (agent_test_openai_get_last_user_content (fixture->server, 1), ==, "Hello");
}

/* The Markdown view on its own */
static void
test_markdown_view (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = agent_gtk_markdown_view_new ();
  g_autofree char *text = NULL;

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (view),
                                    "# A title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n");
  g_assert_cmpstr (agent_gtk_markdown_view_get_text (AGENT_GTK_MARKDOWN_VIEW (view)), ==,
                   "# A title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n");
  wait_until_shown (window, "A title");
  text = shown_text (window);
  g_assert_nonnull (strstr (text, "Some emphasis and code."));
  g_assert_null (strstr (text, "*emphasis*"));
  g_assert_nonnull (strstr (text, "one"));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
}

/* A summary in the conversation is a folded marker, after the messages it
 * replaces (which stay); unfolded, it says which, and its text */
static void
test_summary (Fixture       *fixture,
              gconstpointer  data)
{
  AgentMemory *memory = agent_session_get_memory (fixture->session);
  const char *texts[] = { "An old question", "An old answer.", "A new question" };
  g_autoptr(AgentMessage) summary = agent_message_new_summary ("They talked about old things.",
                                                               0, 2);
  g_autoptr(GPtrArray) expanders = NULL;
  GtkExpander *marker = NULL;
  g_autofree char *folded = NULL;
  g_autofree char *unfolded = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(AgentMessage) message =
        agent_message_new (i % 2 ? AGENT_MESSAGE_ROLE_ASSISTANT : AGENT_MESSAGE_ROLE_USER,
                           texts[i]);

      g_assert_true (agent_memory_append (memory, message, NULL));
    }
  g_assert_true (agent_memory_append (memory, summary, NULL));

  folded = shown_text (fixture->window);
  g_assert_nonnull (strstr (folded, "An old answer."));
  g_assert_nonnull (strstr (folded, "Earlier messages summarized"));
  g_assert_null (strstr (folded, "They talked about old things."));

  /* The one on screen (the rows' hidden parts have theirs) */
  expanders = find_visible (fixture->window, GTK_TYPE_EXPANDER);
  for (guint i = 0; i < expanders->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (expanders, i)))
      {
        g_assert_null (marker);
        marker = g_ptr_array_index (expanders, i);
      }
  g_assert_nonnull (marker);
  gtk_expander_set_expanded (marker, TRUE);
  unfolded = shown_text (fixture->window);
  g_assert_nonnull (strstr (unfolded, "They talked about old things."));
  g_assert_nonnull (strstr (unfolded, "in place of the 2 messages above it (messages 1 to 2)"));
}

/* A conversation of @n_turns turns: a question, a tool call and its
 * result (which no row shows), the answer */
static AgentMemory *
long_conversation (guint n_turns)
{
  AgentMemory *memory = agent_simple_memory_new ();

  for (guint i = 0; i < n_turns; i++)
    {
      g_autofree char *question = g_strdup_printf ("Question %u", i);
      g_autofree char *answer = g_strdup_printf ("Answer %u", i);
      g_autofree char *id = g_strdup_printf ("call_%u", i);
      g_autoptr(AgentMessage) asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, question);
      g_autoptr(AgentMessage) calling = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "");
      g_autoptr(AgentToolCall) call = agent_tool_call_new (id, "lookup", "{}");
      g_autoptr(AgentMessage) result = agent_message_new_tool_result (id, "lookup", "found", FALSE);
      g_autoptr(AgentMessage) answered = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer);

      agent_message_add_tool_call (calling, call);
      g_assert_true (agent_memory_append (memory, asked, NULL));
      g_assert_true (agent_memory_append (memory, calling, NULL));
      g_assert_true (agent_memory_append (memory, result, NULL));
      g_assert_true (agent_memory_append (memory, answered, NULL));
    }
  return memory;
}

/* Labels starting with @prefix in the rows the view made (in view or not) */
static guint
count_made (Fixture    *fixture,
            const char *prefix)
{
  g_autoptr(GPtrArray) labels = NULL;
  guint n = 0;

  iterate ();
  labels = find_visible (GTK_WIDGET (fixture->view), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (g_ptr_array_index (labels, i)), prefix))
      n++;
  return n;
}

/* A long conversation opens at its end with rows for its end only (GTK
 * 4.8's list would make 200); what is appended shows; a cut reaching into
 * what is shown, another conversation and back show the end again */
static void
test_long_conversation (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(AgentMemory) memory = long_conversation (300);
  g_autoptr(AgentMemory) other = long_conversation (2);
  g_autoptr(AgentMessage) asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Question 300");
  guint n;

  agent_session_set_memory (fixture->session, memory);
  wait_until_shown (GTK_WIDGET (fixture->view), "Answer 299");
  n = count_made (fixture, "Question ");
  g_test_message ("rows made for a conversation of 300 turns: %u questions", n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 40);

  g_assert_true (agent_memory_append (memory, asked, NULL));
  wait_until_shown (GTK_WIDGET (fixture->view), "Question 300");

  /* Cut to ten turns, from the hidden part into the shown one */
  g_assert_true (agent_memory_truncate (memory, 40, NULL));
  wait_until_shown (GTK_WIDGET (fixture->view), "Answer 9");
  g_assert_cmpuint (count_made (fixture, "Answer 299"), ==, 0);
  g_assert_cmpuint (count_made (fixture, "Question 300"), ==, 0);
  n = count_made (fixture, "Question ");
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, 10);

  /* Cut to one turn: what was shown is gone, the turn before it shows */
  g_assert_true (agent_memory_truncate (memory, 4, NULL));
  wait_until_shown (GTK_WIDGET (fixture->view), "Answer 0");
  g_assert_cmpuint (count_made (fixture, "Question "), ==, 1);

  /* Another conversation, and back to a long one */
  agent_session_set_memory (fixture->session, other);
  wait_until_shown (GTK_WIDGET (fixture->view), "Answer 1");
  g_assert_cmpuint (count_made (fixture, "Question "), ==, 2);
  g_clear_object (&memory);
  memory = long_conversation (500);
  agent_session_set_memory (fixture->session, memory);
  wait_until_shown (GTK_WIDGET (fixture->view), "Answer 499");
  n = count_made (fixture, "Question ");
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, 40);
}

/* The tests run with animations off (agent-test-gtk.c): back to that after
 * a test that turned them on */
static void
restore_animations (gpointer data)
{
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

/* A stored conversation opened on the empty view shows at once, without a
 * cross-fade from the placeholder: under GTK's cairo renderer each frame of
 * a fade draws both pages, and these are the frames that lay a long answer
 * out (bench/bench-reopen). A fade is an animation: this test turns them
 * on. */
static void
test_opens_at_once (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(AgentMemory) memory = long_conversation (2);
  GtkWidget *placeholder = gtk_label_new ("Nothing here yet");

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
  g_test_queue_destroy (restore_animations, NULL);
  agent_gtk_chat_view_set_placeholder (fixture->view, placeholder);
  wait_until_shown (fixture->window, "Nothing here yet");
  g_assert_true (gtk_widget_get_mapped (placeholder));

  agent_session_set_memory (fixture->session, memory);
  wait_until_shown (fixture->window, "Answer 1");
  /* A fade would keep the placeholder drawn, under the conversation, for
   * its 200 ms */
  g_assert_false (gtk_widget_get_mapped (placeholder));
}

int
main (int   argc,
      char *argv[])
{
  agent_test_gtk_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/gtk/chat-view/streaming", test_streaming);
  ADD ("/gtk/chat-view/stop", test_stop);
  ADD ("/gtk/chat-view/message-gap", test_message_gap);
  ADD ("/gtk/chat-view/tool-card", test_tool_card);
  ADD ("/gtk/chat-view/tool-card-fields", test_tool_card_fields);
  ADD ("/gtk/chat-view/tool-card-not-json", test_tool_card_not_json);
  ADD ("/gtk/chat-view/tool-card-array", test_tool_card_array);
  ADD ("/gtk/chat-view/approval", test_approval);
  ADD ("/gtk/approval-prompt/dialog", test_approval_dialog);
  ADD ("/gtk/chat-view/error-retry", test_error_retry);
  ADD ("/gtk/chat-view/summary", test_summary);
  ADD ("/gtk/chat-view/long-conversation", test_long_conversation);
  ADD ("/gtk/chat-view/opens-at-once", test_opens_at_once);
#undef ADD
  g_test_add_func ("/gtk/markdown-view", test_markdown_view);

  return g_test_run ();
}
