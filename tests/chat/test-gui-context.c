/* test-gui-context.c
 *
 * Long conversations in agent-chat, under a real display (Xvfb), the
 * window keeping its conversations in a real SQLite store and talking to
 * the in-process test server: the context meter beside the composer shows
 * the tokens used of the window the model list states, in words for
 * screen readers, turns to a warning past the threshold and follows the
 * conversation shown; the Long Conversations settings make the policy the
 * session uses; a conversation compacted by summary shows a marker row,
 * folded, that unfolds to the summary; a server that refuses a
 * conversation as too long gets it compacted, and the turn succeeds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-chat-context-meter.h"
#include "agent-chat-preferences.h"
#include "agent-chat-secret-store.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-summary-marker-private.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

/* Until the turn ended: the view is busy from Send, while the turn waits
 * for the model list too */
static gboolean
view_idle (gpointer data)
{
  return !agent_gtk_chat_view_get_busy (data);
}

static void
wait_view_idle (Fixture *fixture)
{
  agent_test_wait_until (view_idle, agent_chat_window_get_chat_view (fixture->window));
  iterate ();
}

/* An answer of the server, with the usage it reports */
static void
add_answer (Fixture    *fixture,
            const char *answer,
            gint64      prompt_tokens,
            gint64      completion_tokens)
{
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_text_response (fixture->server, deltas, prompt_tokens,
                                       completion_tokens);
}

static void
chat (Fixture    *fixture,
      const char *prompt,
      const char *answer,
      gint64      prompt_tokens,
      gint64      completion_tokens)
{
  add_answer (fixture, answer, prompt_tokens, completion_tokens);
  agent_chat_window_send (fixture->window, prompt);
  wait_view_idle (fixture);
}

/* The model list of the test server, stating @window tokens (0: nothing) */
static void
add_model_list (Fixture *fixture,
                guint    window)
{
  g_autofree char *body = NULL;

  if (window > 0)
    body = g_strdup_printf ("{\"data\": [{\"id\": \"test-model\", \"context_length\": %u}]}",
                            window);
  else
    body = g_strdup ("{\"data\": [{\"id\": \"test-model\"}]}");
  agent_test_response_set_body (agent_test_server_add_response (fixture->server, 200),
                                "application/json", body);
}

/* Each test from the defaults (the settings live as long as the process) */
static void
reset_context_settings (Fixture *fixture)
{
  g_settings_reset (fixture->settings, "context-strategy");
  g_settings_reset (fixture->settings, "context-keep-turns");
  g_settings_reset (fixture->settings, "context-auto-compact");
  g_settings_reset (fixture->settings, "context-window");
}

static void
context_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  store_fixture_set_up (fixture, data);
  reset_context_settings (fixture);
}

/* The Long Conversations settings, as Preferences set them */
static void
set_policy (Fixture    *fixture,
            const char *strategy,
            guint       keep_turns,
            gboolean    auto_compact,
            guint       window)
{
  g_settings_set_string (fixture->settings, "context-strategy", strategy);
  g_settings_set_uint (fixture->settings, "context-keep-turns", keep_turns);
  g_settings_set_boolean (fixture->settings, "context-auto-compact", auto_compact);
  g_settings_set_uint (fixture->settings, "context-window", window);
}

static AgentChatContextMeter *
meter_of (Fixture *fixture)
{
  g_autoptr(GPtrArray) meters = find_all (GTK_WIDGET (fixture->window),
                                          AGENT_CHAT_TYPE_CONTEXT_METER);

  g_assert_cmpuint (meters->len, ==, 1);
  return g_ptr_array_index (meters, 0);
}

/* @text with only its letters, digits and spaces: the numbers without the
 * thousands separators of the locale */
static char *
plain (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (g_ascii_isalnum (*p) || *p == ' ')
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* The meter's name for screen readers, which is its tooltip too */
static void
assert_meter_says (AgentChatContextMeter *meter,
                   const char            *expected)
{
  g_autofree char *said = plain (gtk_widget_get_tooltip_text (GTK_WIDGET (meter)));

  g_assert_cmpstr (said, ==, expected);
}

static char *
meter_label (AgentChatContextMeter *meter)
{
  return shown_text (GTK_WIDGET (meter));
}

/* The meter: the window from the model list, the usage of the answer */
static void
test_meter (Fixture       *fixture,
            gconstpointer  data)
{
  AgentChatContextMeter *meter = meter_of (fixture);
  g_autofree char *label = NULL;
  g_autoptr(AgentMemory) first = NULL;

  g_settings_set_string (fixture->settings, "context-strategy", "keep-last");
  /* Nothing yet: nothing shown */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (meter)));

  add_model_list (fixture, 128000);
  chat (fixture, "Hello", "Hi there.", 12000, 400);
  g_assert_true (g_str_has_suffix (agent_test_server_get_request_path (fixture->server, 0),
                                   "/models"));
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 128000);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (meter)));
  g_assert_cmpint (agent_chat_context_meter_get_used (meter), ==, 12400);
  g_assert_cmpuint (agent_chat_context_meter_get_window (meter), ==, 128000);
  g_assert_false (agent_chat_context_meter_get_warning (meter));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (meter), "warning"));
  assert_meter_says (meter, "Context 12400 of 128000 tokens used");
  label = meter_label (meter);
  agent_test_assert_contains (label, "12 k");
  agent_test_assert_contains (label, "128 k");

  /* Another conversation, past 80 % of the window: a warning */
  first = g_object_ref (agent_session_get_memory (session_of (fixture)));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  iterate ();
  add_answer (fixture, "A long answer.", 110000, 2000);
  add_answer (fixture, "Another.", 110000, 2000);
  agent_chat_window_send (fixture->window, "A long question");
  wait_view_idle (fixture);
  g_assert_cmpint (agent_chat_context_meter_get_used (meter), >=, 112000);
  g_assert_true (agent_chat_context_meter_get_warning (meter));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (meter), "warning"));
  /* The model list is asked once for the server and model */
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 3);

  /* Back to the first: its own numbers, from its last answer */
  agent_chat_window_set_memory (fixture->window, first);
  iterate ();
  g_assert_cmpint (agent_chat_context_meter_get_used (meter), ==, 12400);
  g_assert_false (agent_chat_context_meter_get_warning (meter));
  assert_meter_says (meter, "Context 12400 of 128000 tokens used");
}

/* Without long conversations handled and no window set, the model list
 * is not asked, and the meter shows the tokens used only */
static void
test_meter_unknown_window (Fixture       *fixture,
                           gconstpointer  data)
{
  AgentChatContextMeter *meter = meter_of (fixture);
  g_autofree char *label = NULL;

  chat (fixture, "Hello", "Hi there.", 850, 50);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 1);
  g_assert_false (g_str_has_suffix (agent_test_server_get_request_path (fixture->server, 0),
                                    "/models"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (meter)));
  g_assert_cmpuint (agent_chat_context_meter_get_window (meter), ==, 0);
  g_assert_cmpint (agent_chat_context_meter_get_used (meter), ==, 900);
  assert_meter_says (meter, "Context 900 tokens used");
  label = meter_label (meter);
  g_assert_cmpstr (g_strstrip (label), ==, "900 tokens");
}

/* The settings make the policy of the session, at the next turn */
static void
test_settings (Fixture       *fixture,
               gconstpointer  data)
{
  AgentContextPolicy *policy;

  set_policy (fixture, "summarize", 2, FALSE, 5000);
  chat (fixture, "Hello", "Hi.", 10, 2);
  /* The window set: no model list asked */
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 1);
  policy = agent_session_get_context_policy (session_of (fixture));
  g_assert_nonnull (policy);
  g_assert_cmpint (agent_context_policy_get_strategy (policy), ==,
                   AGENT_CONTEXT_STRATEGY_SUMMARIZE);
  g_assert_cmpuint (agent_context_policy_get_keep_turns (policy), ==, 2);
  g_assert_false (agent_context_policy_get_auto_compact (policy));
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 5000);

  set_policy (fixture, "trim-tool-results", 7, TRUE, 9000);
  chat (fixture, "Again", "Yes.", 10, 2);
  policy = agent_session_get_context_policy (session_of (fixture));
  g_assert_cmpint (agent_context_policy_get_strategy (policy), ==,
                   AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS);
  g_assert_cmpuint (agent_context_policy_get_keep_turns (policy), ==, 7);
  g_assert_true (agent_context_policy_get_auto_compact (policy));
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 9000);

  /* Between turns, a setting applies at once: the meter shows the window */
  g_settings_set_uint (fixture->settings, "context-window", 64000);
  iterate ();
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 64000);
  g_assert_cmpuint (agent_chat_context_meter_get_window (meter_of (fixture)), ==, 64000);

  /* Off: no policy; the window set here before is taken back */
  g_settings_set_string (fixture->settings, "context-strategy", "off");
  g_settings_set_uint (fixture->settings, "context-window", 0);
  chat (fixture, "Once more", "Sure.", 10, 2);
  g_assert_null (agent_session_get_context_policy (session_of (fixture)));
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 3);
}

/* The preferences row titled @title */
static GtkWidget *
find_row (GtkWidget  *preferences,
                 const char *title)
{
  g_autoptr(GPtrArray) rows = find_all (preferences, ADW_TYPE_ACTION_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), title) == 0)
      return g_ptr_array_index (rows, i);
  g_error ("No row “%s”", title);
}

/* Preferences: Long Conversations writes the settings */
static void
test_preferences (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AgentChatSecretStore) secrets = agent_chat_secret_store_new (FALSE);
  AgentChatConnection *connection = agent_chat_window_get_connection (fixture->window);
  GtkWidget *preferences = agent_chat_preferences_new (NULL, fixture->settings, secrets,
                                                       connection, NULL);
  g_autoptr(GPtrArray) combos = NULL;
  g_autofree char *saved = NULL;
  AdwComboRow *strategy = NULL;

  gtk_window_present (GTK_WINDOW (preferences));
  iterate ();
  combos = find_all (preferences, ADW_TYPE_COMBO_ROW);
  for (guint i = 0; i < combos->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (combos, i)),
                   "When Too Long") == 0)
      strategy = g_ptr_array_index (combos, i);
  g_assert_nonnull (strategy);
  g_assert_cmpuint (adw_combo_row_get_selected (strategy), ==, 0);
  /* Off: the turns kept and compacting mean nothing */
  g_assert_false (gtk_widget_get_sensitive (find_row (preferences, "Compact Automatically")));
  adw_combo_row_set_selected (strategy, 3);
  g_assert_true (gtk_widget_get_sensitive (find_row (preferences, "Compact Automatically")));
  saved = g_settings_get_string (fixture->settings, "context-strategy");
  g_assert_cmpstr (saved, ==, "summarize");
  g_settings_set_string (fixture->settings, "context-strategy", "keep-last");
  g_assert_cmpuint (adw_combo_row_get_selected (strategy), ==, 2);
  gtk_window_destroy (GTK_WINDOW (preferences));
  iterate ();
}

/* The rows of summaries in the conversation shown */
static GPtrArray *
summary_markers (Fixture *fixture)
{
  g_autoptr(GPtrArray) markers = find_all (GTK_WIDGET (fixture->window),
                                           AGENT_GTK_TYPE_SUMMARY_MARKER);
  GPtrArray *shown = g_ptr_array_new ();

  for (guint i = 0; i < markers->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (markers, i)))
      g_ptr_array_add (shown, g_ptr_array_index (markers, i));
  return shown;
}

static void
assert_marker (Fixture    *fixture,
               const char *summary)
{
  g_autoptr(GPtrArray) markers = summary_markers (fixture);
  AgentGtkSummaryMarker *marker;
  g_autofree char *folded = NULL;
  g_autofree char *unfolded = NULL;

  g_assert_cmpuint (markers->len, ==, 1);
  marker = g_ptr_array_index (markers, 0);
  g_assert_cmpstr (agent_gtk_summary_marker_get_title (marker), ==, "Earlier messages summarized");
  g_assert_false (agent_gtk_summary_marker_get_expanded (marker));
  folded = shown_text (GTK_WIDGET (fixture->window));
  agent_test_assert_contains (folded, "Earlier messages summarized");
  g_assert_null (strstr (folded, summary));

  agent_gtk_summary_marker_set_expanded (marker, TRUE);
  unfolded = shown_text (GTK_WIDGET (fixture->window));
  agent_test_assert_contains (unfolded, summary);
  agent_test_assert_contains (unfolded, "in place of the 2 messages above it (messages 1 to 2)");
}

/* Summarize, a small window: the second turn is compacted first, and the
 * marker shows in the turn, without opening the chat again */
static void
test_summary_marker (Fixture       *fixture,
                     gconstpointer  data)
{
  set_policy (fixture, "summarize", 1, TRUE, 100);

  chat (fixture, "An old question", "An old answer.", 70, 5);
  g_assert_cmpuint (g_list_model_get_n_items (agent_test_chat_items (fixture->window)), ==, 2);
  {
    g_autoptr(GPtrArray) none = summary_markers (fixture);

    g_assert_cmpuint (none->len, ==, 0);
  }

  add_answer (fixture, "They talked about old things.", 60, 8);
  add_answer (fixture, "A fresh answer.", 30, 5);
  agent_chat_window_send (fixture->window, "A fresh question, long enough to pass the threshold");
  wait_view_idle (fixture);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 3);
  assert_marker (fixture, "They talked about old things.");
  /* The summarized messages stay in the view */
  {
    g_autofree char *shown = shown_text (GTK_WIDGET (fixture->window));

    agent_test_assert_contains (shown, "An old answer.");
    agent_test_assert_contains (shown, "A fresh answer.");
  }

  /* Kept in the store: after a restart, the marker is there again */
  restart (fixture);
  assert_marker (fixture, "They talked about old things.");
}

static gboolean
marker_says_summarizing (gpointer data)
{
  Fixture *fixture = data;
  g_autoptr(GPtrArray) markers = summary_markers (fixture);

  return markers->len == 1 &&
         g_strcmp0 (agent_gtk_summary_marker_get_title (g_ptr_array_index (markers, 0)),
                    "Summarizing earlier messages…") == 0;
}

/* While the model writes the summary, its marker says so */
static void
test_summary_written (Fixture       *fixture,
                      gconstpointer  data)
{
  AgentTestResponse *summary;

  set_policy (fixture, "summarize", 1, TRUE, 100);
  chat (fixture, "An old question", "An old answer.", 70, 5);

  summary = agent_test_server_add_response (fixture->server, 200);
  agent_test_openai_add_role (summary, "");
  agent_test_openai_add_text (summary, "They talked");
  agent_test_response_add_wait (summary);
  agent_test_openai_add_text (summary, " about old things.");
  agent_test_openai_add_end (summary, "stop", 60, 8);
  add_answer (fixture, "A fresh answer.", 30, 5);
  agent_chat_window_send (fixture->window, "A fresh question, long enough to pass the threshold");
  agent_test_server_wait_until_waiting (fixture->server);
  agent_test_wait_until (marker_says_summarizing, fixture);

  agent_test_server_release (fixture->server);
  wait_view_idle (fixture);
  assert_marker (fixture, "They talked about old things.");
}

/* A server that refuses the conversation as too long, the window unknown:
 * compacted once, sent again, and the turn succeeds */
static void
test_too_long (Fixture       *fixture,
               gconstpointer  data)
{
  AgentTestResponse *refusal;

  set_policy (fixture, "summarize", 1, TRUE, 0);

  add_model_list (fixture, 0);
  chat (fixture, "An old question", "An old answer.", 70, 5);
  g_assert_cmpuint (agent_session_get_context_window (session_of (fixture)), ==, 0);

  refusal = agent_test_server_add_response (fixture->server, 400);
  agent_test_response_set_body (refusal, "application/json",
                                "{\"error\": {\"message\": \"This model's maximum context length "
                                "is 100 tokens. However, your messages resulted in 130 tokens.\", "
                                "\"type\": \"invalid_request_error\", \"param\": \"messages\", "
                                "\"code\": \"context_length_exceeded\"}}");
  add_answer (fixture, "They talked about old things.", 60, 8);
  add_answer (fixture, "A fresh answer.", 30, 5);
  agent_chat_window_send (fixture->window, "A fresh question");
  wait_view_idle (fixture);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 5);
  {
    g_autofree char *shown = shown_text (GTK_WIDGET (fixture->window));

    agent_test_assert_contains (shown, "A fresh answer.");
    g_assert_null (strstr (shown, "maximum context length"));
  }
  assert_marker (fixture, "They talked about old things.");
  /* The refusal named the limit: the meter knows it now */
  g_assert_cmpuint (agent_chat_context_meter_get_window (meter_of (fixture)), ==, 100);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, context_set_up, func, fixture_tear_down)

  ADD ("/gui/context/meter", test_meter);
  ADD ("/gui/context/meter-unknown-window", test_meter_unknown_window);
  ADD ("/gui/context/settings", test_settings);
  ADD ("/gui/context/preferences", test_preferences);
  ADD ("/gui/context/summary-marker", test_summary_marker);
  ADD ("/gui/context/summary-written", test_summary_written);
  ADD ("/gui/context/too-long", test_too_long);

  return agent_test_gui_run (data_home);
}
