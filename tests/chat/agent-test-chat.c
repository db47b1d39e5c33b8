/* agent-test-chat.c — the fixture of agent-chat's widget tests: a window of
 * the app
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-chat.h"
#include "agent-gtk-chat-view-private.h"
#include "agent-test-util.h"

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

/* The window's session */
AgentSession *
session_of (Fixture *fixture)
{
  return agent_chat_window_get_session (fixture->window);
}

/* Until the window's session ended its turn, and what followed is shown */
void
wait_session_idle (Fixture *fixture)
{
  agent_test_wait_until (session_idle, session_of (fixture));
  iterate ();
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

/* The window's conversation: libagent-gtk's chat view, its list and what
 * the list shows (messages, then the error of the last turn) */
GtkListView *
agent_test_chat_list_view (AgentChatWindow *window)
{
  return _agent_gtk_chat_view_get_list_view (agent_chat_window_get_chat_view (window));
}

GListModel *
agent_test_chat_items (AgentChatWindow *window)
{
  return _agent_gtk_chat_view_get_items (agent_chat_window_get_chat_view (window));
}
