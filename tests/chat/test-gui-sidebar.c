/* test-gui-sidebar.c
 *
 * agent-chat's stored conversations under a real display (Xvfb): the
 * sidebar over a real SQLite store (newest first, titles, search, rename,
 * export, delete and Undo), and the window that writes each turn as it
 * goes and opens the last conversation again, driven by a real session
 * talking to the in-process test server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "agent-chat-sidebar.h"
#include "agent-chat-sidebar-row.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

/* A new conversation enters the store's list once its first write is
 * committed (on the store's writer thread) */
static AgentConversation *
add_conversation (AgentStore *store,
                  const char *prompt,
                  const char *answer)
{
  AgentConversation *conversation = agent_store_create_conversation (store);
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, prompt);
  g_autoptr(AgentMessage) reply = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer);
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), question, &error));
  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), reply, &error));
  g_assert_no_error (error);
  flush_store (store);
  return conversation;
}

static AgentConversation *
item_conversation (GListModel *model,
                   guint       position)
{
  g_autoptr(GObject) item = g_list_model_get_item (model, position);

  return item ? agent_chat_sidebar_item_get_conversation (item) : NULL;
}

/* The titles the rows show, top to bottom, joined by '|' */
static char *
row_titles (GtkWidget *sidebar)
{
  GListModel *model = agent_chat_sidebar_get_model (AGENT_CHAT_SIDEBAR (sidebar));
  g_autoptr(GPtrArray) rows = find_all (sidebar, AGENT_CHAT_TYPE_SIDEBAR_ROW);
  GString *titles = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    for (guint r = 0; r < rows->len; r++)
      if (agent_chat_sidebar_row_get_conversation (g_ptr_array_index (rows, r)) ==
          item_conversation (model, i))
        g_string_append_printf (titles, "%s%s", i ? "|" : "",
                                agent_chat_sidebar_row_get_title (g_ptr_array_index (rows, r)));
  return g_string_free (titles, FALSE);
}

typedef struct
{
  char       *dir;
  AgentStore *store;
  GtkWidget  *window;
  GtkWidget  *overlay;
  GtkWidget  *sidebar;
} SidebarFixture;

static void
sidebar_set_up (SidebarFixture *fixture,
                gconstpointer   data)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  fixture->dir = agent_test_make_dir ("test-gui-sidebar");
  path = g_build_filename (fixture->dir, "conversations.db", NULL);
  fixture->store = agent_store_new (path, &error);
  g_assert_no_error (error);
  fixture->sidebar = agent_chat_sidebar_new (fixture->store);
  fixture->overlay = adw_toast_overlay_new ();
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (fixture->overlay), fixture->sidebar);
  fixture->window = show_in_window (fixture->overlay);
}

static void
sidebar_tear_down (SidebarFixture *fixture,
                   gconstpointer   data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_assert_finalize_object (g_steal_pointer (&fixture->store));
  agent_test_remove_dir (fixture->dir);
  g_free (fixture->dir);
}

typedef struct
{
  AgentChatSidebar *sidebar;
  GListModel       *before;
} ModelWait;

static gboolean
model_changed (gpointer data)
{
  ModelWait *wait = data;

  return agent_chat_sidebar_get_model (wait->sidebar) != wait->before;
}

/* Types @text in the search entry; returns what the list then shows */
static GListModel *
search_for (AgentChatSidebar *sidebar,
            const char       *text)
{
  GtkEditable *entry = GTK_EDITABLE (agent_chat_sidebar_get_search_entry (sidebar));
  ModelWait wait;

  /* Emptied, the entry searches at once; typed into, after a pause */
  gtk_editable_set_text (entry, "");
  iterate ();
  wait.sidebar = sidebar;
  wait.before = agent_chat_sidebar_get_model (sidebar);
  if (*text == '\0')
    return wait.before;
  gtk_editable_set_text (entry, text);
  agent_test_wait_until (model_changed, &wait);
  iterate ();
  return agent_chat_sidebar_get_model (sidebar);
}

static GtkSingleSelection *
sidebar_selection (GtkWidget *sidebar)
{
  g_autoptr(GPtrArray) views = find_all (sidebar, GTK_TYPE_LIST_VIEW);

  return GTK_SINGLE_SELECTION (gtk_list_view_get_model (g_ptr_array_index (views, 0)));
}

static void
on_conversation_signal (AgentChatSidebar   *sidebar,
                        AgentConversation  *conversation,
                        AgentConversation **out)
{
  g_set_object (out, conversation);
}

/* Newest first, titled from the first prompt; the list follows writes and
 * keeps the shown conversation selected; search finds words in messages */
static void
test_sidebar_list_and_search (SidebarFixture *fixture,
                              gconstpointer   data)
{
  AgentChatSidebar *sidebar = AGENT_CHAT_SIDEBAR (fixture->sidebar);
  g_autoptr(AgentConversation) first = add_conversation (fixture->store, "Plan a trip\nto Rome",
                                                         "Visit the Colosseum.");
  g_autoptr(AgentConversation) second = add_conversation (fixture->store, "Bake bread",
                                                          "Use rye flour and patience.");
  g_autoptr(AgentMessage) more = agent_message_new (AGENT_MESSAGE_ROLE_USER, "And in Florence?");
  GtkSingleSelection *selection = sidebar_selection (fixture->sidebar);
  g_autoptr(AgentConversation) activated = NULL;
  g_autofree char *titles = NULL;
  g_autofree char *moved = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GListModel *results;

  iterate ();
  titles = row_titles (fixture->sidebar);
  g_assert_cmpstr (titles, ==, "Bake bread|Plan a trip");

  /* The window shows the older one: selected, and still when it moves up */
  agent_chat_sidebar_set_conversation (sidebar, first);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);
  g_assert_true (agent_memory_append (AGENT_MEMORY (first), more, NULL));
  iterate ();
  moved = row_titles (fixture->sidebar);
  g_assert_cmpstr (moved, ==, "Plan a trip|Bake bread");
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 0);

  /* Search: a word of an answer, the last word as a prefix, marked */
  results = search_for (sidebar, "rye fl");
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 1);
  g_assert_true (item_conversation (results, 0) == second);
  rows = find_all (fixture->sidebar, AGENT_CHAT_TYPE_SIDEBAR_ROW);
  for (guint i = 0; i < rows->len; i++)
    if (agent_chat_sidebar_row_get_conversation (g_ptr_array_index (rows, i)) == second)
      {
        g_autoptr(GPtrArray) labels = find_all (g_ptr_array_index (rows, i), GTK_TYPE_LABEL);

        agent_test_assert_contains (gtk_label_get_label (g_ptr_array_index (labels, 1)),
                                    "<b>rye</b>");
        g_assert_true (gtk_widget_get_visible (g_ptr_array_index (labels, 1)));
      }

  /* Picking a result asks the window to open it */
  g_signal_connect (sidebar, "conversation-activated", G_CALLBACK (on_conversation_signal),
                    &activated);
  gtk_single_selection_set_selected (selection, 0);
  g_assert_true (activated == second);
  g_assert_true (agent_chat_sidebar_get_conversation (sidebar) == second);
  g_signal_handlers_disconnect_by_data (sidebar, &activated);

  /* No match: nothing listed; clearing the entry lists all again */
  results = search_for (sidebar, "zebra");
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 0);
  results = search_for (sidebar, "");
  g_assert_cmpuint (g_list_model_get_n_items (results), ==, 2);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);
}

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

/* Rename through the row's menu action and its dialog; export both ways */
static void
test_sidebar_rename_export (SidebarFixture *fixture,
                            gconstpointer   data)
{
  g_autoptr(AgentConversation) conversation = add_conversation (fixture->store, "Bake bread",
                                                                "Use rye flour.");
  gint64 id = agent_conversation_get_id (conversation);
  g_autofree char *path = g_build_filename (fixture->dir, "conversations.db", NULL);
  g_autofree char *markdown_path = g_build_filename (fixture->dir, "bread.md", NULL);
  g_autofree char *json_path = g_build_filename (fixture->dir, "bread.json", NULL);
  g_autoptr(GFile) markdown_file = g_file_new_for_path (markdown_path);
  g_autoptr(GFile) json_file = g_file_new_for_path (json_path);
  g_autofree char *markdown = NULL;
  g_autofree char *json = NULL;
  g_autofree char *titles = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  AdwMessageDialog *dialog;
  GtkEditable *entry;

  iterate ();
  g_assert_true (gtk_widget_activate_action (fixture->sidebar, "sidebar.rename", "x", id));
  iterate ();
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Bake bread");
  gtk_editable_set_text (entry, "Rye bread");
  adw_message_dialog_response (dialog, "rename");
  iterate ();
  g_assert_cmpstr (agent_conversation_get_title (conversation), ==, "Rye bread");
  titles = row_titles (fixture->sidebar);
  g_assert_cmpstr (titles, ==, "Rye bread");
  {
    /* Written: another store on the file sees it */
    g_autoptr(AgentStore) other = agent_store_new (path, &error);
    g_autoptr(AgentConversation) same = agent_store_lookup_conversation (other, id);

    g_assert_no_error (error);
    g_assert_cmpstr (agent_conversation_get_title (same), ==, "Rye bread");
  }

  g_assert_true (agent_chat_sidebar_export_to_file (AGENT_CHAT_SIDEBAR (fixture->sidebar),
                                                    conversation, AGENT_EXPORT_FORMAT_MARKDOWN,
                                                    markdown_file, &error));
  g_assert_true (agent_chat_sidebar_export_to_file (AGENT_CHAT_SIDEBAR (fixture->sidebar),
                                                    conversation, AGENT_EXPORT_FORMAT_JSON,
                                                    json_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (markdown_path, &markdown, NULL, NULL));
  agent_test_assert_contains (markdown, "Rye bread");
  agent_test_assert_contains (markdown, "Use rye flour.");
  g_assert_true (g_file_get_contents (json_path, &json, NULL, NULL));
  node = agent_test_parse_json (json);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  agent_test_assert_contains (json, "Use rye flour.");
  g_unlink (markdown_path);
  g_unlink (json_path);
}

/* The toast's button with @label (an icon name when it has no label) */
static GtkWidget *
find_toast_button (SidebarFixture *fixture,
                   const char     *label,
                   const char     *icon_name)
{
  g_autoptr(GPtrArray) buttons = NULL;

  iterate ();
  buttons = find_all (fixture->overlay, GTK_TYPE_BUTTON);
  for (guint i = buttons->len; i > 0; i--)
    {
      GtkButton *button = g_ptr_array_index (buttons, i - 1);

      if ((label && g_strcmp0 (gtk_button_get_label (button), label) == 0) ||
          (icon_name && g_strcmp0 (gtk_button_get_icon_name (button), icon_name) == 0))
        return GTK_WIDGET (button);
    }
  g_assert_not_reached ();
}

/* Delete leaves the list at once; Undo brings it back in its place; the
 * toast going without Undo deletes it for good */
static void
test_sidebar_delete_undo (SidebarFixture *fixture,
                          gconstpointer   data)
{
  g_autoptr(AgentConversation) older = add_conversation (fixture->store, "Plan a trip", "Rome.");
  g_autoptr(AgentConversation) newer = add_conversation (fixture->store, "Bake bread", "Rye.");
  gint64 id = agent_conversation_get_id (older);
  g_autofree char *path = g_build_filename (fixture->dir, "conversations.db", NULL);
  g_autoptr(AgentConversation) deleted = NULL;
  GListModel *model = agent_chat_sidebar_get_model (AGENT_CHAT_SIDEBAR (fixture->sidebar));
  g_autofree char *titles = NULL;
  g_autoptr(GError) error = NULL;

  g_signal_connect (fixture->sidebar, "conversation-deleted", G_CALLBACK (on_conversation_signal),
                    &deleted);
  g_assert_true (gtk_widget_activate_action (fixture->sidebar, "sidebar.delete", "x", id));
  g_assert_true (deleted == older);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_assert_true (item_conversation (model, 0) == newer);

  g_signal_emit_by_name (find_toast_button (fixture, "_Undo", NULL), "clicked");
  iterate ();
  titles = row_titles (fixture->sidebar);
  g_assert_cmpstr (titles, ==, "Bake bread|Plan a trip");

  /* Again, and the toast is closed: gone for good */
  g_assert_true (gtk_widget_activate_action (fixture->sidebar, "sidebar.delete", "x", id));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_signal_emit_by_name (find_toast_button (fixture, NULL, "window-close-symbolic"), "clicked");
  iterate ();
  g_assert_false (agent_store_restore_conversation (fixture->store, older, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  {
    g_autoptr(AgentStore) other = agent_store_new (path, NULL);
    g_autoptr(GListModel) listed = agent_store_list_conversations (other);

    g_assert_cmpuint (g_list_model_get_n_items (listed), ==, 1);
    g_assert_null (agent_store_lookup_conversation (other, id));
  }
  g_signal_handlers_disconnect_by_data (fixture->sidebar, &deleted);
}

/* The window: each chat is stored as it goes and comes back at start */

static AgentConversation *
window_conversation (AgentChatWindow *window)
{
  AgentMemory *memory = agent_session_get_memory (agent_chat_window_get_session (window));

  g_assert_true (AGENT_IS_CONVERSATION (memory));
  return AGENT_CONVERSATION (memory);
}

static void
test_window_reopen_last (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *deltas[] = { "Noted: ", "blue.", NULL };
  GListModel *items;
  AgentConversation *conversation = window_conversation (fixture->window);
  gint64 id;
  g_autoptr(AgentMessage) answer = NULL;
  GtkWidget *sidebar;

  g_assert_cmpint (agent_conversation_get_id (conversation), ==, 0);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, "My favourite colour is blue");
  agent_test_wait_until (session_idle, agent_chat_window_get_session (fixture->window));
  id = agent_conversation_get_id (conversation);
  g_assert_cmpint (id, >, 0);
  g_assert_cmpint (g_settings_get_int64 (fixture->settings, "last-conversation"), ==, id);
  /* What it is held with, as agent-cli reads it back for --continue */
  g_assert_cmpstr (agent_conversation_get_provider (conversation), ==, "openai");
  g_assert_cmpstr (agent_conversation_get_model (conversation), ==, "test-model");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (
                     agent_conversation_get_settings (conversation)), "base-url"),
                   ==, agent_test_server_get_base_url (fixture->server));

  restart (fixture);
  conversation = window_conversation (fixture->window);
  g_assert_cmpint (agent_conversation_get_id (conversation), ==, id);
  g_assert_cmpstr (agent_conversation_get_title (conversation), ==, "My favourite colour is blue");
  items = agent_test_chat_items (fixture->window);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  answer = g_list_model_get_item (items, 1);
  g_assert_cmpstr (agent_message_get_content (answer), ==, "Noted: blue.");
  sidebar = agent_chat_window_get_sidebar (fixture->window);
  g_assert_true (agent_chat_sidebar_get_conversation (AGENT_CHAT_SIDEBAR (sidebar)) ==
                 conversation);
  g_assert_true (item_conversation (agent_chat_sidebar_get_model (AGENT_CHAT_SIDEBAR (sidebar)),
                                    0) == conversation);

  /* Ctrl+N's action: a new, empty chat; the sidebar selects nothing */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-chat", NULL);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 0);
  g_assert_cmpint (agent_conversation_get_id (window_conversation (fixture->window)), ==, 0);
  g_assert_cmpuint (gtk_single_selection_get_selected (sidebar_selection (sidebar)), ==,
                    GTK_INVALID_LIST_POSITION);

  /* Deleting the conversation shown leaves it for a new chat */
  agent_chat_window_set_memory (fixture->window, AGENT_MEMORY (conversation));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_true (agent_chat_sidebar_delete (AGENT_CHAT_SIDEBAR (sidebar), conversation));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 0);
  g_assert_true (window_conversation (fixture->window) != conversation);
}

/* An answer stopped mid-stream comes back marked as interrupted, and the
 * conversation goes on from there */
static void
test_window_reopen_interrupted (Fixture       *fixture,
                                gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  const char *deltas[] = { "Once upon a time.", NULL };
  g_autoptr(AgentMessage) last = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) stored = NULL;
  GListModel *items;
  gint64 id;

  agent_test_openai_add_text (response, "The beginning of ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  agent_chat_window_send (fixture->window, "Tell me a story");
  agent_test_server_wait_until_waiting (fixture->server);
  iterate ();
  agent_chat_window_stop (fixture->window);
  agent_test_wait_until (session_idle, agent_chat_window_get_session (fixture->window));
  agent_test_server_release (fixture->server);
  id = agent_conversation_get_id (window_conversation (fixture->window));

  restart (fixture);
  g_assert_cmpint (agent_conversation_get_id (window_conversation (fixture->window)), ==, id);
  items = agent_test_chat_items (fixture->window);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  last = g_list_model_get_item (items, 1);
  g_assert_cmpstr (agent_message_get_content (last), ==, "The beginning of ");
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, "Go on");
  agent_test_wait_until (session_idle, agent_chat_window_get_session (fixture->window));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 4);

  /* Each turn was written as it went */
  store = agent_store_new (NULL, NULL);
  stored = agent_store_lookup_conversation (store, id);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (stored)), ==, 4);
}

/* A stored conversation of @n_messages, written by a store of its own on
 * the window's database (so that the window's store reads it from disk) */
static gint64
store_conversation (guint       n_messages,
                    const char *first)
{
  g_autoptr(AgentStore) store = agent_store_new (NULL, NULL);
  g_autoptr(AgentConversation) conversation = agent_store_create_conversation (store);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n_messages; i++)
    {
      g_autofree char *text = i == 0 ? g_strdup (first) : g_strdup_printf ("Message %u", i);
      g_autoptr(AgentMessage) message = agent_message_new (i % 2 ? AGENT_MESSAGE_ROLE_ASSISTANT
                                                                 : AGENT_MESSAGE_ROLE_USER, text);

      g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), message, &error));
      g_assert_no_error (error);
    }
  flush_store (store);
  return agent_conversation_get_id (conversation);
}

static gint64
shown_id (AgentChatWindow *window)
{
  AgentMemory *memory = agent_session_get_memory (agent_chat_window_get_session (window));

  return AGENT_IS_CONVERSATION (memory) ? agent_conversation_get_id (AGENT_CONVERSATION (memory))
                                        : -1;
}

static void
on_memory_shown (AgentSession *session,
                 GParamSpec   *pspec,
                 GArray       *ids)
{
  AgentMemory *memory = agent_session_get_memory (session);
  gint64 id = AGENT_IS_CONVERSATION (memory) ? agent_conversation_get_id (AGENT_CONVERSATION (memory))
                                             : -1;

  g_array_append_val (ids, id);
}

/* A conversation is read off the main thread: the window goes on while it
 * is read, and shows it when it is all there; the last one asked for wins;
 * at start, the last conversation does not replace a chat begun meanwhile */
static void
test_window_open_async (Fixture       *fixture,
                        gconstpointer  data)
{
  gint64 long_id = store_conversation (4000, "A long one");
  gint64 short_id = store_conversation (2, "A short one");
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  AgentSession *session;
  gboolean loading = FALSE;
  g_autofree char *draft = NULL;

  /* A window whose store lists them */
  restart (fixture);
  session = agent_chat_window_get_session (fixture->window);
  g_signal_connect (session, "notify::memory", G_CALLBACK (on_memory_shown), ids);

  /* Asked for, the long one is not there yet: the call returned first */
  g_assert_true (agent_chat_window_open_conversation (fixture->window, long_id));
  g_object_get (fixture->window, "loading", &loading, NULL);
  g_assert_true (loading);
  g_assert_cmpint (shown_id (fixture->window), !=, long_id);

  /* Another one asked for at once: it is the one shown, the long one never */
  g_assert_true (agent_chat_window_open_conversation (fixture->window, short_id));
  wait_opened (fixture->window);
  g_assert_cmpint (shown_id (fixture->window), ==, short_id);
  g_assert_cmpuint (g_list_model_get_n_items (agent_test_chat_items (fixture->window)), ==, 2);

  /* Asked for again, alone: read whole, shown from its end */
  g_assert_true (agent_chat_window_open_conversation (fixture->window, long_id));
  wait_opened (fixture->window);
  g_assert_cmpint (shown_id (fixture->window), ==, long_id);
  {
    GListModel *memory = G_LIST_MODEL (agent_session_get_memory (session));
    GListModel *items = agent_test_chat_items (fixture->window);
    g_autoptr(GObject) last = g_list_model_get_item (memory, 3999);
    g_autoptr(GObject) last_shown = g_list_model_get_item (items, g_list_model_get_n_items (items) - 1);

    g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 4000);
    g_assert_true (last_shown == last);
  }
  g_signal_handlers_disconnect_by_data (session, ids);
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_cmpint (g_array_index (ids, gint64, 0), ==, short_id);
  g_assert_cmpint (g_array_index (ids, gint64, 1), ==, long_id);

  /* At start the window shows a new chat until the last one is read; a
   * draft begun in it meanwhile keeps it */
  g_settings_set_int64 (fixture->settings, "last-conversation", long_id);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_clear_object (&fixture->window);
  {
    g_autoptr(AgentStore) store = agent_store_new (NULL, NULL);

    fixture->window = g_object_ref_sink (g_object_new (AGENT_CHAT_TYPE_WINDOW, "store", store,
                                                       NULL));
  }
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_cmpint (shown_id (fixture->window), ==, 0);
  agent_gtk_composer_set_text (agent_chat_window_get_composer (fixture->window), "Meanwhile");
  wait_opened (fixture->window);
  g_assert_cmpint (shown_id (fixture->window), ==, 0);
  draft = agent_gtk_composer_dup_text (agent_chat_window_get_composer (fixture->window));
  g_assert_cmpstr (draft, ==, "Meanwhile");

  /* Without a draft, the last one comes back */
  restart (fixture);
  g_assert_cmpint (shown_id (fixture->window), ==, long_id);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add ("/gui/sidebar/list-and-search", SidebarFixture, NULL,
              sidebar_set_up, test_sidebar_list_and_search, sidebar_tear_down);
  g_test_add ("/gui/sidebar/rename-export", SidebarFixture, NULL,
              sidebar_set_up, test_sidebar_rename_export, sidebar_tear_down);
  g_test_add ("/gui/sidebar/delete-undo", SidebarFixture, NULL,
              sidebar_set_up, test_sidebar_delete_undo, sidebar_tear_down);
  g_test_add ("/gui/window/reopen-last", Fixture, NULL,
              store_fixture_set_up, test_window_reopen_last, fixture_tear_down);
  g_test_add ("/gui/window/reopen-interrupted", Fixture, NULL,
              store_fixture_set_up, test_window_reopen_interrupted, fixture_tear_down);
  g_test_add ("/gui/window/open-async", Fixture, NULL,
              store_fixture_set_up, test_window_open_async, fixture_tear_down);

  return agent_test_gui_run (data_home);
}
