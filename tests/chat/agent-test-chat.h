/* agent-test-gui.h — helpers of agent-chat's widget tests
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

GPtrArray *find_all          (GtkWidget     *widget,
                              GType          type);
GtkWidget *find_with_class   (GtkWidget     *widget,
                              GType          type,
                              const char    *css_class);
GtkWidget *find_button       (GtkWidget     *widget,
                              const char    *label);
GtkWidget *show_in_window    (GtkWidget     *child);
void       fixture_set_up    (Fixture       *fixture,
                              gconstpointer  data);
void       fixture_tear_down (Fixture       *fixture,
                              gconstpointer  data);
gboolean   session_idle      (gpointer       data);
GtkListView *agent_test_gui_list_view (AgentChatWindow *window);
GListModel  *agent_test_gui_items     (AgentChatWindow *window);
#if AGENT_HAS_STORE
void       flush_store       (AgentStore    *store);
void       open_window       (Fixture       *fixture);
void       restart           (Fixture       *fixture);
void       wait_opened       (AgentChatWindow *window);
void       store_fixture_set_up (Fixture    *fixture,
                                 gconstpointer data);
#endif
char      *agent_test_gui_init (int         *argc,
                                char      ***argv);
int        agent_test_gui_run  (char        *data_home);

G_END_DECLS
