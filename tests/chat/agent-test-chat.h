/* agent-test-chat.h — the fixture of agent-chat's widget tests: a window of
 * the app on the in-process test server, kept in a real store or not
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

#include "agent-chat-window.h"
#include "agent-test-server.h"
#include "agent-test-widgets.h"

G_BEGIN_DECLS

/* A window of the app, talking to the in-process test server */
typedef struct
{
  AgentTestServer *server;
  AgentChatWindow *window;
  GSettings       *settings;
} Fixture;

void       fixture_set_up    (Fixture       *fixture,
                              gconstpointer  data);
void       fixture_tear_down (Fixture       *fixture,
                              gconstpointer  data);
gboolean   session_idle      (gpointer       data);
AgentSession *session_of     (Fixture       *fixture);
void       wait_session_idle (Fixture       *fixture);
GtkListView *agent_test_chat_list_view (AgentChatWindow *window);
GListModel  *agent_test_chat_items     (AgentChatWindow *window);
#if AGENT_HAS_STORE
void       flush_store       (AgentStore    *store);
void       open_window       (Fixture       *fixture);
void       restart           (Fixture       *fixture);
void       wait_opened       (AgentChatWindow *window);
void       store_fixture_set_up (Fixture    *fixture,
                                 gconstpointer data);
#endif

G_END_DECLS
