/* test-gtk-voice.c — what libagent-gtk offers an application that speaks
 * and listens, through its public API (<agent-gtk.h> only), in a host's
 * window on the in-process test server: a suffix of the composer (a
 * microphone's place) and agent_gtk_composer_send(); Read Aloud on an
 * answer, shown only when the view offers it, whose click is the view's
 * ::read-aloud, and Stop Reading while the view says the answer is read.
 * Runs under Xvfb.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent-gtk.h>

#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

static void
on_send (AgentGtkComposer *composer,
         const char       *text,
         GPtrArray        *sent)
{
  g_ptr_array_add (sent, g_strdup (text));
}

/* A suffix shows between the message field and Send; send() sends what
 * the composer holds, as Enter does, and nothing but white space */
static void
test_composer_suffix (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) sent = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *button = gtk_button_new_from_icon_name ("audio-input-microphone-symbolic");

  gtk_widget_set_tooltip_text (button, "Dictate");
  agent_gtk_composer_add_suffix (fixture->composer, button);
  iterate ();
  g_assert_true (gtk_widget_is_ancestor (button, GTK_WIDGET (fixture->composer)));
  g_assert_true (find_button (GTK_WIDGET (fixture->composer), "Dictate") == button);
  g_assert_true (gtk_widget_get_mapped (button));

  /* Not the view's send, which would start a turn: the composer's signal */
  g_signal_handlers_disconnect_matched (fixture->composer, G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                                        NULL, fixture->view);
  g_signal_connect (fixture->composer, "send", G_CALLBACK (on_send), sent);
  agent_gtk_composer_set_text (fixture->composer, "  \n ");
  agent_gtk_composer_send (fixture->composer);
  g_assert_cmpuint (sent->len, ==, 0);
  agent_gtk_composer_set_text (fixture->composer, "Dictated words");
  agent_gtk_composer_send (fixture->composer);
  g_assert_cmpuint (sent->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (sent, 0), ==, "Dictated words");
}

static void
on_read_aloud (AgentGtkChatView *view,
               AgentMessage     *message,
               AgentMessage    **asked)
{
  g_set_object (asked, message);
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           guint      *n_notified)
{
  (*n_notified)++;
}

static AgentMessage *
last_message (AgentSession *session)
{
  GListModel *transcript = agent_session_get_transcript (session);

  return g_list_model_get_item (transcript, g_list_model_get_n_items (transcript) - 1);
}

/* Read Aloud shows on an answer when the view offers it; a click asks the
 * view; Stop Reading while that answer is read */
static void
test_read_aloud (Fixture       *fixture,
                 gconstpointer  data)
{
  const char *deltas[] = { "The sea is calm tonight.", NULL };
  g_autoptr(AgentMessage) answer = NULL;
  g_autoptr(AgentMessage) asked = NULL;
  guint n_reading = 0;
  guint n_can = 0;
  GtkWidget *button;

  g_signal_connect (fixture->view, "read-aloud", G_CALLBACK (on_read_aloud), &asked);
  g_signal_connect (fixture->view, "notify::reading-aloud", G_CALLBACK (on_notify), &n_reading);
  g_signal_connect (fixture->view, "notify::can-read-aloud", G_CALLBACK (on_notify), &n_can);
  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_chat_view_send (fixture->view, "Something about the sea");
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (fixture->window, "The sea is calm tonight.");
  answer = last_message (fixture->session);
  g_assert_cmpint (agent_message_get_role (answer), ==, AGENT_MESSAGE_ROLE_ASSISTANT);

  /* Not offered: no button */
  g_assert_false (agent_gtk_chat_view_get_can_read_aloud (fixture->view));
  g_assert_null (find_button (fixture->window, "Read Aloud"));

  agent_gtk_chat_view_set_can_read_aloud (fixture->view, TRUE);
  agent_gtk_chat_view_set_can_read_aloud (fixture->view, TRUE);
  g_assert_cmpuint (n_can, ==, 1);
  iterate ();
  button = find_button (fixture->window, "Read Aloud");
  g_assert_nonnull (button);  /* the answer's only: the question has none */
  g_assert_null (find_button (fixture->window, "Stop Reading"));

  g_signal_emit_by_name (button, "clicked");
  g_assert_true (asked == answer);
  g_assert_null (agent_gtk_chat_view_get_reading_aloud (fixture->view));

  agent_gtk_chat_view_set_reading_aloud (fixture->view, answer);
  g_assert_true (agent_gtk_chat_view_get_reading_aloud (fixture->view) == answer);
  g_assert_cmpuint (n_reading, ==, 1);
  g_assert_nonnull (find_button (fixture->window, "Stop Reading"));
  g_assert_null (find_button (fixture->window, "Read Aloud"));

  g_clear_object (&asked);
  g_signal_emit_by_name (find_button (fixture->window, "Stop Reading"), "clicked");
  g_assert_true (asked == answer);

  agent_gtk_chat_view_set_reading_aloud (fixture->view, NULL);
  g_assert_cmpuint (n_reading, ==, 2);
  g_assert_nonnull (find_button (fixture->window, "Read Aloud"));

  g_object_set (fixture->view, "can-read-aloud", FALSE, NULL);
  g_assert_null (find_button (fixture->window, "Read Aloud"));
}

int
main (int    argc,
      char **argv)
{
  agent_test_gtk_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/gtk/composer/suffix", test_composer_suffix);
  ADD ("/gtk/chat-view/read-aloud", test_read_aloud);
#undef ADD

  return g_test_run ();
}
