/* agent-test-gui.h — helpers of agent-chat's widget tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

#include "agent-chat-window.h"
#include "agent-test-server.h"

G_BEGIN_DECLS

/* A window of the app, talking to the in-process test server */
typedef struct
{
  AgentTestServer *server;
  AgentChatWindow *window;
  GSettings       *settings;
} Fixture;

void       iterate           (void);
GPtrArray *find_all          (GtkWidget     *widget,
                              GType          type);
GtkWidget *show_in_window    (GtkWidget     *child);
void       fixture_set_up    (Fixture       *fixture,
                              gconstpointer  data);
void       fixture_tear_down (Fixture       *fixture,
                              gconstpointer  data);
gboolean   session_idle      (gpointer       data);
char      *agent_test_gui_init (int         *argc,
                                char      ***argv);
int        agent_test_gui_run  (char        *data_home);

G_END_DECLS
