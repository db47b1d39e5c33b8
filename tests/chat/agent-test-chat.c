/* agent-test-gui.c — helpers of agent-chat's widget tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-gui.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-test-util.h"

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      collect (child, type, found);
    }
}

GPtrArray *
find_all (GtkWidget *widget,
          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (widget, type, found);
  return found;
}

/* The first widget of @type in @widget with the style class @css_class */
GtkWidget *
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

/* A button shown in @widget whose label (its own, or its label child's;
 * or its tooltip, for an icon) is @label */
GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (buttons, i);
      GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));
      const char *child_label = child && GTK_IS_LABEL (child) ? gtk_label_get_label (GTK_LABEL (child))
                                                              : NULL;

      if (gtk_widget_is_visible (button) && gtk_widget_get_child_visible (button) &&
          (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), label) == 0 ||
           g_strcmp0 (child_label, label) == 0 ||
           g_strcmp0 (gtk_widget_get_tooltip_text (button), label) == 0))
        return button;
    }
  return NULL;
}

GtkWidget *
show_in_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 400, 600);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();
  return window;
}

void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->server = agent_test_server_new ();
  fixture->settings = g_settings_new ("io.github.libagent.Chat");
  g_settings_set_string (fixture->settings, "provider", "openai");
  g_settings_set_string (fixture->settings, "base-url",
                         agent_test_server_get_base_url (fixture->server));
  g_settings_set_string (fixture->settings, "model", "test-model");
  g_settings_set_boolean (fixture->settings, "show-tool-call-chunks", FALSE);
  /* Each test in a new conversation */
  g_settings_set_int64 (fixture->settings, "last-conversation", 0);
  fixture->window = g_object_ref_sink (agent_chat_window_new (NULL));
  gtk_window_present (GTK_WINDOW (fixture->window));
  iterate ();
}

void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_clear_object (&fixture->window);
  g_clear_object (&fixture->settings);
  g_clear_pointer (&fixture->server, agent_test_server_free);
}

gboolean
session_idle (gpointer data)
{
  return !agent_session_get_busy (data);
}

#if AGENT_HAS_STORE
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

/* Until what was written to @store is committed (on its writer thread) */
void
flush_store (AgentStore *store)
{
  gboolean flushed = FALSE;

  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  agent_test_wait_for (&flushed);
}

/* A window keeping its conversations in the default database (under the
 * tests' own XDG_DATA_HOME), as the app's */
void
open_window (Fixture *fixture)
{
  g_autoptr(AgentStore) store = agent_store_new (NULL, NULL);

  g_assert_nonnull (store);
  fixture->window = g_object_ref_sink (g_object_new (AGENT_CHAT_TYPE_WINDOW, "store", store, NULL));
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_opened (fixture->window);
}

static gboolean
opened (gpointer data)
{
  gboolean loading = TRUE;

  g_object_get (data, "loading", &loading, NULL);
  return !loading;
}

/* Until the conversation asked for (the last one, at start) is read and
 * shown: the window reads it on another thread */
void
wait_opened (AgentChatWindow *window)
{
  agent_test_wait_until (opened, window);
  iterate ();
}

/* Quit, and start again: a new window on a new store */
void
restart (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_assert_finalize_object (g_steal_pointer (&fixture->window));
  open_window (fixture);
}

void
store_fixture_set_up (Fixture       *fixture,
                      gconstpointer  data)
{
  fixture_set_up (fixture, data);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->window);
  open_window (fixture);
}
#endif


/* Sets up GTK and libadwaita under the test display, with the windows'
 * conversations in a new data directory of their own; returns it. */
char *
agent_test_gui_init (int    *argc,
                     char ***argv)
{
  char *data_home = agent_test_make_dir ("test-gui");

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  /* Toasts come and go at once */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return data_home;
}

/* Runs the tests, then removes @data_home (freed) and its database */
int
agent_test_gui_run (char *data_home)
{
  g_autofree char *store_dir = g_build_filename (data_home, "agent-chat", NULL);
  int status = g_test_run ();

  if (g_file_test (store_dir, G_FILE_TEST_IS_DIR))
    agent_test_remove_dir (store_dir);
  agent_test_remove_dir (data_home);
  g_free (data_home);
  return status;
}

/* The window's conversation: libagent-gtk's chat view, its list and what
 * the list shows (messages, then the error of the last turn) */
GtkListView *
agent_test_gui_list_view (AgentChatWindow *window)
{
  return _agent_gtk_chat_view_get_list_view (agent_chat_window_get_chat_view (window));
}

GListModel *
agent_test_gui_items (AgentChatWindow *window)
{
  return _agent_gtk_chat_view_get_items (agent_chat_window_get_chat_view (window));
}
