/* agent-test-gtk.c — helpers of the tests of libagent-gtk's widgets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

/* GTK under the test display, and libagent-gtk, as a host application sets
 * them up; no animations */
void
agent_test_gtk_init (int    *argc,
                     char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  agent_gtk_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

gboolean
view_idle (gpointer data)
{
  Fixture *fixture = data;

  return !agent_gtk_chat_view_get_busy (fixture->view);
}

static void
on_turn_finished (AgentGtkChatView *view,
                  AgentMessage     *message,
                  const GError     *error,
                  Fixture          *fixture)
{
  fixture->n_finished++;
  g_clear_error (&fixture->finished_error);
  if (error != NULL)
    fixture->finished_error = g_error_copy (error);
}

static void
on_approval_answered (AgentGtkChatView       *view,
                      AgentToolApproval      *approval,
                      AgentGtkApprovalAnswer  answer,
                      Fixture                *fixture)
{
  g_assert_true (AGENT_IS_TOOL_APPROVAL (approval));
  fixture->n_answered++;
  fixture->answer = answer;
}

/* A host's window: the view over the composer, as the examples have it */
void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(AgentProvider) provider = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  fixture->server = agent_test_server_new ();
  provider = agent_test_openai_provider_new (fixture->server);
  agent_provider_set_max_retries (provider, 0);
  fixture->session = agent_session_new (provider);

  fixture->view = AGENT_GTK_CHAT_VIEW (agent_gtk_chat_view_new ());
  fixture->composer = AGENT_GTK_COMPOSER (agent_gtk_composer_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (fixture->view), TRUE);
  agent_gtk_chat_view_set_session (fixture->view, fixture->session);
  agent_gtk_chat_view_set_composer (fixture->view, fixture->composer);
  g_signal_connect (fixture->view, "turn-finished", G_CALLBACK (on_turn_finished), fixture);
  g_signal_connect (fixture->view, "approval-answered", G_CALLBACK (on_approval_answered),
                    fixture);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->view));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->composer));

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 500);
  gtk_window_set_child (GTK_WINDOW (fixture->window), box);
  gtk_window_present (GTK_WINDOW (fixture->window));
  iterate ();
}

void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_clear_object (&fixture->session);
  g_clear_error (&fixture->finished_error);
  agent_test_server_free (fixture->server);
}

/* Text streams in: the first words show while the rest is awaited, and
 * Stop shows instead of Send; then the whole answer, Markdown rendered */
