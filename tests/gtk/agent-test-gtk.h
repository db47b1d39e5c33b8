/* agent-test-gtk.h — helpers of the tests of libagent-gtk's widgets through
 * their public API: a host's window (a chat view over a composer, bound to
 * a session on the in-process test server), and what it shows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent-gtk.h>

#include "agent-test-server.h"
#include "agent-test-widgets.h"

G_BEGIN_DECLS

typedef struct
{
  AgentTestServer  *server;
  AgentSession     *session;
  GtkWidget        *window;
  AgentGtkChatView *view;
  AgentGtkComposer *composer;
  GError           *finished_error;
  guint             n_finished;
  guint             n_answered;
  AgentGtkApprovalAnswer answer;
} Fixture;

void       agent_test_gtk_init (int         *argc,
                                char      ***argv);
gboolean   view_idle         (gpointer       data);
void       fixture_set_up    (Fixture       *fixture,
                              gconstpointer  data);
void       fixture_tear_down (Fixture       *fixture,
                              gconstpointer  data);

G_END_DECLS
