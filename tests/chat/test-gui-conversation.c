/* test-gui-conversation.c
 *
 * What agent-chat keeps with each stored conversation, under a real display
 * (Xvfb), the window keeping its conversations in a real SQLite store and
 * its session talking to the in-process test server:
 *
 * - a turn waits, saying so, while another program (agent-cli, or another
 *   store of the same file) adds to the conversation, and Stop gives up
 *   waiting with the text left in the composer;
 * - "Allow in This Conversation": the tool runs without asking in that
 *   conversation only, after a restart too, until given back from the menu;
 * - the model picked in the header, from the server's list (searchable,
 *   the chat's own checked), is the conversation's, after a restart too;
 * - a short title written by the model after the first answer, in one
 *   small request, unless turned off.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-chat-approvals.h"
#include "agent-gtk-composer-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

#define WAITING_TEXT "Waiting for another program using this conversation…"

static AgentGtkComposer *
composer_of (Fixture *fixture)
{
  return agent_chat_window_get_composer (fixture->window);
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

/* Types @text in the composer and sends it, as Return does */
static void
type_and_send (Fixture    *fixture,
               const char *text)
{
  agent_gtk_composer_set_text (composer_of (fixture), text);
  g_signal_emit_by_name (composer_of (fixture), "send", text);
  iterate ();
}

static char *
composer_text (Fixture *fixture)
{
  return agent_gtk_composer_dup_text (composer_of (fixture));
}

/* Lets the main loop run for @msec, as the app would while it waits */
static void
run_for (guint msec)
{
  gint64 end = g_get_monotonic_time () + msec * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
}

static AgentStore *
store_of (Fixture *fixture)
{
  AgentStore *store = NULL;

  g_object_get (fixture->window, "store", &store, NULL);
  g_assert_nonnull (store);
  return store;
}

/* The conversation shown, as another program of the same file sees it */
static AgentConversation *
open_elsewhere (Fixture     *fixture,
                AgentStore **other_store)
{
  g_autoptr(AgentStore) store = store_of (fixture);
  AgentMemory *memory = agent_session_get_memory (session_of (fixture));
  g_autoptr(GError) error = NULL;
  AgentConversation *conversation;

  g_assert_true (AGENT_IS_CONVERSATION (memory));
  *other_store = agent_store_new (agent_store_get_path (store), &error);
  g_assert_no_error (error);
  conversation = agent_store_lookup_conversation (*other_store,
                                                  agent_conversation_get_id (AGENT_CONVERSATION (memory)));
  g_assert_nonnull (conversation);
  return conversation;
}

static gboolean
status_gone (gpointer data)
{
  return agent_gtk_composer_get_status (data) == NULL;
}

/* Another program holds the conversation: the turn waits, sends nothing
 * meanwhile, and starts once the other is done, with what it wrote */
static void
test_waits_for_claim (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(AgentConversation) other = NULL;
  g_autoptr(AgentMessage) theirs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *left = NULL;
  const char *deltas[] = { "After them.", NULL };
  guint n_requests;
  AgentMemory *memory;

  chat (fixture, "Hello", "Hi.");
  other = open_elsewhere (fixture, &other_store);
  g_assert_true (agent_conversation_claim (other, &error));
  g_assert_no_error (error);

  n_requests = agent_test_server_get_n_requests (fixture->server);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  type_and_send (fixture, "Again");
  g_assert_cmpstr (agent_gtk_composer_get_status (composer_of (fixture)), ==, WAITING_TEXT);
  g_assert_true (agent_gtk_composer_get_busy (composer_of (fixture)));

  /* It keeps waiting (and the main loop runs), sending nothing */
  run_for (500);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n_requests);
  g_assert_cmpstr (agent_gtk_composer_get_status (composer_of (fixture)), ==, WAITING_TEXT);
  left = composer_text (fixture);
  g_assert_cmpstr (left, ==, "Again");

  /* The other program adds its turn, and is done */
  theirs = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Theirs");
  g_assert_true (agent_memory_append (AGENT_MEMORY (other), theirs, &error));
  g_assert_no_error (error);
  g_clear_object (&theirs);
  theirs = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "Their answer.");
  g_assert_true (agent_memory_append (AGENT_MEMORY (other), theirs, &error));
  agent_conversation_release (other);

  agent_test_wait_until (status_gone, composer_of (fixture));
  agent_test_wait_until (session_idle, session_of (fixture));
  wait_session_idle (fixture);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n_requests + 1);

  /* Our turn came after theirs */
  memory = agent_session_get_memory (session_of (fixture));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (memory)), ==, 6);
  {
    g_autoptr(AgentMessage) third = g_list_model_get_item (G_LIST_MODEL (memory), 2);
    g_autoptr(AgentMessage) fifth = g_list_model_get_item (G_LIST_MODEL (memory), 4);
    g_autoptr(AgentMessage) last = g_list_model_get_item (G_LIST_MODEL (memory), 5);

    g_assert_cmpstr (agent_message_get_content (third), ==, "Theirs");
    g_assert_cmpstr (agent_message_get_content (fifth), ==, "Again");
    g_assert_cmpstr (agent_message_get_content (last), ==, "After them.");
  }
  g_clear_pointer (&left, g_free);
  left = composer_text (fixture);
  g_assert_cmpstr (left, ==, "");
  g_assert_false (agent_gtk_composer_get_busy (composer_of (fixture)));
}

/* Stop while waiting: nothing is sent, not even later, and the text stays */
static void
test_stop_waiting (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(AgentConversation) other = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *left = NULL;
  guint n_requests;

  chat (fixture, "Hello", "Hi.");
  other = open_elsewhere (fixture, &other_store);
  g_assert_true (agent_conversation_claim (other, &error));

  n_requests = agent_test_server_get_n_requests (fixture->server);
  type_and_send (fixture, "Never mind");
  g_assert_cmpstr (agent_gtk_composer_get_status (composer_of (fixture)), ==, WAITING_TEXT);

  /* Escape, as the composer's Stop */
  g_signal_emit_by_name (composer_of (fixture), "stop");
  iterate ();
  g_assert_null (agent_gtk_composer_get_status (composer_of (fixture)));
  g_assert_false (agent_gtk_composer_get_busy (composer_of (fixture)));
  left = composer_text (fixture);
  g_assert_cmpstr (left, ==, "Never mind");

  agent_conversation_release (other);
  run_for (400);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n_requests);
  g_assert_cmpuint (g_list_model_get_n_items (
    G_LIST_MODEL (agent_session_get_memory (session_of (fixture)))), ==, 2);
}

/* The row showing @item */
static GtkWidget *
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

static guint
n_messages (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (session_of (fixture))));
}

static char *
message_text (Fixture *fixture,
              guint    position)
{
  g_autoptr(AgentMessage) message = g_list_model_get_item (
    G_LIST_MODEL (agent_session_get_memory (session_of (fixture))), position);

  return g_strdup (agent_message_get_content (message));
}

/* Regenerate while another program holds the conversation: it waits,
 * cutting nothing meanwhile (the cut would be refused), then cuts the
 * answer and asks again */
static void
test_regenerate_waits_for_claim (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(AgentConversation) other = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) answer = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  const char *deltas[] = { "Hi again.", NULL };
  guint n_requests;

  chat (fixture, "Hello", "Hi.");
  answer = g_list_model_get_item (agent_test_chat_items (fixture->window), 1);
  other = open_elsewhere (fixture, &other_store);
  g_assert_true (agent_conversation_claim (other, &error));
  g_assert_no_error (error);

  n_requests = agent_test_server_get_n_requests (fixture->server);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  g_signal_emit_by_name (row_for (fixture, answer), "regenerate", answer);
  iterate ();
  g_assert_cmpstr (agent_gtk_composer_get_status (composer_of (fixture)), ==, WAITING_TEXT);
  g_assert_true (agent_gtk_composer_get_busy (composer_of (fixture)));
  run_for (300);
  /* Nothing cut, nothing failed, nothing sent */
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (agent_test_chat_items (fixture->window)), ==, 2);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n_requests);

  agent_conversation_release (other);
  agent_test_wait_until (status_gone, composer_of (fixture));
  wait_session_idle (fixture);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n_requests + 1);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  first = message_text (fixture, 0);
  second = message_text (fixture, 1);
  g_assert_cmpstr (first, ==, "Hello");
  g_assert_cmpstr (second, ==, "Hi again.");
}

/* Retry of an answer cut short, likewise: the cut answer goes once the
 * conversation is this program's */
static void
test_retry_waits_for_claim (Fixture       *fixture,
                            gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  g_autoptr(AgentStore) other_store = NULL;
  g_autoptr(AgentConversation) other = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *second = NULL;
  const char *deltas[] = { "A whole answer.", NULL };
  GtkWidget *retry;

  agent_provider_set_max_retries (agent_session_get_provider (session_of (fixture)), 0);
  agent_test_openai_add_text (response, "Half an");
  agent_test_response_set_drop (response);
  agent_chat_window_send (fixture->window, "Tell me");
  wait_session_idle (fixture);
  g_assert_cmpuint (n_messages (fixture), ==, 2);

  other = open_elsewhere (fixture, &other_store);
  g_assert_true (agent_conversation_claim (other, &error));
  g_assert_no_error (error);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  retry = find_button (GTK_WIDGET (fixture->window), "_Retry");
  g_assert_nonnull (retry);
  g_signal_emit_by_name (retry, "clicked");
  iterate ();
  g_assert_cmpstr (agent_gtk_composer_get_status (composer_of (fixture)), ==, WAITING_TEXT);
  run_for (300);
  g_assert_cmpuint (n_messages (fixture), ==, 2);

  agent_conversation_release (other);
  agent_test_wait_until (status_gone, composer_of (fixture));
  wait_session_idle (fixture);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  second = message_text (fixture, 1);
  g_assert_cmpstr (second, ==, "A whole answer.");
}

/* Tools allowed for the conversation */

/* The approval prompt of the chat view (libagent-gtk's) that waits for an
 * answer, if any */
static AgentGtkApprovalPrompt *
shown_approval (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    {
      g_autoptr(GPtrArray) prompts = find_all (l->data, AGENT_GTK_TYPE_APPROVAL_PROMPT);

      for (guint i = 0; i < prompts->len; i++)
        if (gtk_widget_is_visible (g_ptr_array_index (prompts, i)) &&
            agent_gtk_approval_prompt_get_pending (g_ptr_array_index (prompts, i)))
          return g_ptr_array_index (prompts, i);
    }
  return NULL;
}

/* As a click on one of its buttons does */
static void
respond (AgentGtkApprovalAnswer answer)
{
  AgentGtkApprovalPrompt *prompt = shown_approval ();

  g_assert_nonnull (prompt);
  agent_gtk_approval_prompt_answer (prompt, answer);
}

static gboolean
approval_shown (gpointer data)
{
  return shown_approval () != NULL;
}

/* The model reads @path, then answers; @answer must show */
static void
add_read_file (Fixture    *fixture,
               const char *path,
               const char *answer)
{
  g_autofree char *arguments = g_strdup_printf ("{\"path\":\"%s\"}", path);
  AgentTestToolChunk call = { 0, "call_1", "read_file", arguments };
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_tool_response (fixture->server, &call, 1, 1, 1);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
}

/* The result the tool gave, last in the conversation's memory */
static char *
last_tool_result (Fixture *fixture)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (session_of (fixture)));

  for (guint i = g_list_model_get_n_items (memory); i > 0; i--)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (memory, i - 1);

      if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_TOOL)
        return g_strdup (agent_message_get_content (message));
    }
  return NULL;
}

static gboolean
menu_has_label (GMenuModel *menu,
                const char *wanted)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *label = NULL;
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (menu, i);

      if (g_menu_model_get_item_attribute (menu, i, "label", "s", &label) &&
          g_str_equal (label, wanted))
        return TRUE;
      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) link = g_menu_link_iter_get_value (links);

          if (menu_has_label (link, wanted))
            return TRUE;
        }
    }
  return FALSE;
}

static GMenuModel *
main_menu (Fixture *fixture)
{
  g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (fixture->window), GTK_TYPE_MENU_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (gtk_menu_button_get_primary (g_ptr_array_index (buttons, i)))
      return gtk_menu_button_get_menu_model (g_ptr_array_index (buttons, i));
  g_assert_not_reached ();
}

static void
test_allow_for_conversation (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *dir = agent_test_make_dir ("test-gui-allow");
  g_autofree char *path = agent_test_write_file (dir, "notes.txt", "secret plans", -1);
  g_autofree char *result = NULL;
  g_auto(GStrv) allowed = NULL;
  g_autoptr(AgentMemory) first = NULL;
  gint64 id;

  g_settings_set_strv (fixture->settings, "enabled-tools",
                       (const char * const[]) { "read_file", NULL });

  /* Asked, the first time: Allow in This Conversation */
  add_read_file (fixture, path, "Read it.");
  agent_chat_window_send (fixture->window, "Read my notes");
  agent_test_wait_until (approval_shown, NULL);
  g_assert_false (menu_has_label (main_menu (fixture), "Ask Again Before “Read Files”"));
  respond (AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL);
  wait_session_idle (fixture);
  result = last_tool_result (fixture);
  g_assert_cmpstr (result, ==, "secret plans");
  first = g_object_ref (agent_session_get_memory (session_of (fixture)));
  id = agent_conversation_get_id (AGENT_CONVERSATION (first));
  allowed = agent_chat_approvals_list (first);
  g_assert_cmpstrv (allowed, ((const char * const[]) { "tool:read_file", NULL }));
  g_assert_true (menu_has_label (main_menu (fixture), "Ask Again Before “Read Files”"));

  /* Not asked again, the next turn (which records the session anew) */
  add_read_file (fixture, path, "Read it again.");
  agent_chat_window_send (fixture->window, "Again");
  wait_session_idle (fixture);
  g_assert_null (shown_approval ());
  g_clear_pointer (&result, g_free);
  result = last_tool_result (fixture);
  g_assert_cmpstr (result, ==, "secret plans");

  /* Another conversation asks: Deny */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  iterate ();
  g_assert_false (menu_has_label (main_menu (fixture), "Ask Again Before “Read Files”"));
  add_read_file (fixture, path, "Denied.");
  agent_chat_window_send (fixture->window, "Read my notes here");
  agent_test_wait_until (approval_shown, NULL);
  respond (AGENT_GTK_APPROVAL_ANSWER_DENY);
  wait_session_idle (fixture);
  g_clear_pointer (&result, g_free);
  result = last_tool_result (fixture);
  g_assert_cmpstr (result, !=, "secret plans");

  /* After a restart, the first one still does not ask */
  g_clear_object (&first);
  g_settings_set_int64 (fixture->settings, "last-conversation", id);
  restart (fixture);
  g_assert_cmpint (agent_conversation_get_id (AGENT_CONVERSATION (
    agent_session_get_memory (session_of (fixture)))), ==, id);
  add_read_file (fixture, path, "Still allowed.");
  agent_chat_window_send (fixture->window, "Once more");
  wait_session_idle (fixture);
  g_assert_null (shown_approval ());
  g_clear_pointer (&result, g_free);
  result = last_tool_result (fixture);
  g_assert_cmpstr (result, ==, "secret plans");

  /* Given back from the menu: asked again */
  g_assert_true (menu_has_label (main_menu (fixture), "Ask Again Before “Read Files”"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.revoke-approval", "s",
                              "tool:read_file");
  iterate ();
  g_assert_false (menu_has_label (main_menu (fixture), "Ask Again Before “Read Files”"));
  add_read_file (fixture, path, "Asked.");
  agent_chat_window_send (fixture->window, "And again");
  agent_test_wait_until (approval_shown, NULL);
  respond (AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE);
  wait_session_idle (fixture);
  g_clear_pointer (&allowed, g_strfreev);
  allowed = agent_chat_approvals_list (agent_session_get_memory (session_of (fixture)));
  g_assert_cmpuint (g_strv_length (allowed), ==, 0);

  g_settings_reset (fixture->settings, "enabled-tools");
  agent_test_remove_dir (dir);
}

/* The model picked in the header */

#define MODELS "{\"object\":\"list\",\"data\":[{\"id\":\"alpha-model\",\"object\":\"model\"}," \
               "{\"id\":\"beta-model\",\"object\":\"model\"}]}"

static void
respond_models (AgentTestServer *server,
                const char      *path,
                JsonNode        *body,
                gpointer         user_data)
{
  if (g_str_has_suffix (path, "/models"))
    agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                  "application/json", MODELS);
}

static GtkWidget *
title_button (Fixture *fixture)
{
  GtkWidget *button = find_with_class (GTK_WIDGET (fixture->window), GTK_TYPE_MENU_BUTTON,
                                       "title-button");

  g_assert_nonnull (button);
  return button;
}

static GtkListBox *
model_list (Fixture *fixture)
{
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (title_button (fixture)));
  g_autoptr(GPtrArray) lists = find_all (GTK_WIDGET (popover), GTK_TYPE_LIST_BOX);

  return g_ptr_array_index (lists, 0);
}

static guint
count_rows (GtkListBox *list,
            gboolean    shown_only)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (GTK_IS_LIST_BOX_ROW (row) && (!shown_only || gtk_widget_get_child_visible (row)))
      n++;
  return n;
}

static gboolean
models_shown (gpointer data)
{
  return count_rows (data, FALSE) == 3;
}

static const char *
subtitle (Fixture *fixture)
{
  g_autoptr(GPtrArray) titles = find_all (title_button (fixture), ADW_TYPE_WINDOW_TITLE);

  return adw_window_title_get_subtitle (g_ptr_array_index (titles, 0));
}

static const char *
last_model_asked (Fixture *fixture)
{
  guint n = agent_test_server_get_n_requests (fixture->server);

  for (guint i = n; i > 0; i--)
    if (g_str_has_suffix (agent_test_server_get_request_path (fixture->server, i - 1),
                          "/chat/completions"))
      return json_object_get_string_member (agent_test_openai_get_request (fixture->server,
                                                                           i - 1), "model");
  return NULL;
}

static void
test_pick_model (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkListBox *list;
  GtkWidget *beta = NULL;
  GtkWidget *search;
  gint64 id;

  agent_test_server_set_responder (fixture->server, respond_models, NULL);
  chat (fixture, "Hello", "Hi.");
  g_assert_cmpstr (last_model_asked (fixture), ==, "test-model");
  id = agent_conversation_get_id (AGENT_CONVERSATION (agent_session_get_memory (
                                    session_of (fixture))));
  agent_test_assert_contains (subtitle (fixture), "test-model");

  /* The server's models, and the chat's own (checked) */
  gtk_menu_button_popup (GTK_MENU_BUTTON (title_button (fixture)));
  list = model_list (fixture);
  agent_test_wait_until (models_shown, list);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *model = g_object_get_data (G_OBJECT (row), "model");
      g_autoptr(GPtrArray) images = find_all (row, GTK_TYPE_IMAGE);
      gboolean checked = gtk_widget_get_visible (g_ptr_array_index (images, 0));

      g_assert_cmpint (checked, ==, g_str_equal (model, "test-model"));
      if (g_str_equal (model, "beta-model"))
        beta = row;
    }
  g_assert_nonnull (beta);

  /* Searched */
  {
    g_autoptr(GPtrArray) entries = find_all (GTK_WIDGET (gtk_menu_button_get_popover (
      GTK_MENU_BUTTON (title_button (fixture)))), GTK_TYPE_SEARCH_ENTRY);

    search = g_ptr_array_index (entries, 0);
  }
  gtk_editable_set_text (GTK_EDITABLE (search), "BET");
  gtk_list_box_invalidate_filter (list);
  iterate ();
  g_assert_cmpuint (count_rows (list, TRUE), ==, 1);
  g_assert_true (gtk_widget_get_child_visible (beta));

  /* Picked: the chat's, from the next turn */
  g_signal_emit_by_name (list, "row-activated", beta);
  wait_opened (fixture->window);
  agent_test_assert_contains (subtitle (fixture), "beta-model");
  chat (fixture, "Again", "Again.");
  g_assert_cmpstr (last_model_asked (fixture), ==, "beta-model");

  /* Not another chat's */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  iterate ();
  agent_test_assert_contains (subtitle (fixture), "test-model");
  chat (fixture, "Other", "Other.");
  g_assert_cmpstr (last_model_asked (fixture), ==, "test-model");

  /* Still the conversation's after a restart */
  g_settings_set_int64 (fixture->settings, "last-conversation", id);
  restart (fixture);
  agent_test_assert_contains (subtitle (fixture), "beta-model");
  chat (fixture, "Later", "Later.");
  g_assert_cmpstr (last_model_asked (fixture), ==, "beta-model");
}

/* Titles */

typedef struct
{
  AgentConversation *conversation;
  const char        *title;
} TitleWait;

static gboolean
title_is (gpointer data)
{
  TitleWait *wait = data;

  return g_strcmp0 (agent_conversation_get_title (wait->conversation), wait->title) == 0;
}

static void
test_title (Fixture       *fixture,
            gconstpointer  data)
{
  const char *title[] = { "**\"Spring Trip to Paris.\"**", NULL };
  AgentConversation *conversation;
  JsonObject *request;
  TitleWait wait;
  guint n;

  g_settings_set_boolean (fixture->settings, "generate-titles", TRUE);
  agent_test_openai_add_text_response (fixture->server, (const char *[]) { "Go to Paris.", NULL },
                                       1, 1);
  agent_test_openai_add_text_response (fixture->server, title, 1, 1);
  agent_chat_window_send (fixture->window, "Where should I go in April?");
  wait_session_idle (fixture);
  conversation = AGENT_CONVERSATION (agent_session_get_memory (session_of (fixture)));
  wait.conversation = conversation;
  wait.title = "Spring Trip to Paris";
  agent_test_wait_until (title_is, &wait);

  /* One small request: the question and the answer, no tools */
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 2);
  request = agent_test_openai_get_request (fixture->server, 1);
  g_assert_false (json_object_has_member (request, "tools"));
  agent_test_assert_contains (json_to_string (json_object_get_member (request, "messages"), FALSE),
                              "Where should I go in April?");
  g_assert_cmpint (json_object_get_int_member_with_default (
                     request, "max_tokens",
                     json_object_get_int_member_with_default (request, "max_completion_tokens",
                                                              0)), ==, 32);

  /* Once: not after the next answer */
  n = agent_test_server_get_n_requests (fixture->server);
  chat (fixture, "And in May?", "Also Paris.");
  run_for (300);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n + 1);
  g_assert_cmpstr (agent_conversation_get_title (conversation), ==, "Spring Trip to Paris");

  /* Turned off: the first words stay the title */
  g_settings_set_boolean (fixture->settings, "generate-titles", FALSE);
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  iterate ();
  n = agent_test_server_get_n_requests (fixture->server);
  chat (fixture, "Untitled question", "An answer.");
  run_for (300);
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, n + 1);
  g_assert_cmpstr (agent_conversation_get_title (AGENT_CONVERSATION (
                     agent_session_get_memory (session_of (fixture)))), ==, "Untitled question");
  g_settings_reset (fixture->settings, "generate-titles");
}

/* A message's image and document come back from the store: after a
 * restart, the image shows as a picture of its size, the document as a chip
 * with its name and size */
static void
test_attachments_after_restart (Fixture       *fixture,
                                gconstpointer  data)
{
  const char *deltas[] = { "Seen.", NULL };
  g_autoptr(GBytes) pixels = g_bytes_new_take (g_malloc0 (30 * 20 * 4), 30 * 20 * 4);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (30, 20, GDK_MEMORY_R8G8B8A8, pixels,
                                                          30 * 4);
  g_autoptr(GBytes) png = gdk_texture_save_to_png_bytes (texture);
  g_autoptr(GBytes) text = g_bytes_new_static ("Day 1: Paris\nDay 2: Lyon\n", 25);
  g_autoptr(AgentContentPart) image = agent_content_part_new_image ("image/png", png);
  g_autoptr(AgentContentPart) notes = agent_content_part_new_file ("text/plain", text,
                                                                   "itinerary.txt");
  g_autoptr(GPtrArray) pictures = NULL;
  g_autofree char *shown = NULL;
  gint64 id;
  GdkPaintable *paintable = NULL;

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_composer_set_text (composer_of (fixture), "Look");
  agent_gtk_composer_add_attachment (composer_of (fixture), image);
  agent_gtk_composer_add_attachment (composer_of (fixture), notes);
  g_signal_emit_by_name (composer_of (fixture), "send", "Look");
  wait_session_idle (fixture);
  id = agent_conversation_get_id (AGENT_CONVERSATION (agent_session_get_memory (
    session_of (fixture))));

  g_settings_set_int64 (fixture->settings, "last-conversation", id);
  restart (fixture);
  iterate ();
  shown = shown_text (GTK_WIDGET (fixture->window));
  g_assert_nonnull (strstr (shown, "Seen."));
  g_assert_nonnull (strstr (shown, "itinerary.txt\n25 bytes"));
  pictures = find_all (GTK_WIDGET (fixture->window), GTK_TYPE_PICTURE);
  for (guint i = 0; i < pictures->len; i++)
    if (gtk_widget_is_visible (g_ptr_array_index (pictures, i)))
      paintable = gtk_picture_get_paintable (g_ptr_array_index (pictures, i));
  g_assert_nonnull (paintable);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, 30);
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, 20);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, store_fixture_set_up, func, fixture_tear_down)

  ADD ("/gui/conversation/waits-for-claim", test_waits_for_claim);
  ADD ("/gui/conversation/stop-waiting", test_stop_waiting);
  ADD ("/gui/conversation/regenerate-waits-for-claim", test_regenerate_waits_for_claim);
  ADD ("/gui/conversation/retry-waits-for-claim", test_retry_waits_for_claim);
  ADD ("/gui/conversation/allow-for-conversation", test_allow_for_conversation);
  ADD ("/gui/conversation/pick-model", test_pick_model);
  ADD ("/gui/conversation/title", test_title);
  ADD ("/gui/conversation/attachments-after-restart", test_attachments_after_restart);

  return agent_test_gui_run (data_home);
}
