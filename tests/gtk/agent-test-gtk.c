/* agent-test-gtk.c — helpers of the tests of libagent-gtk's widgets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (gtk_widget_get_visible (child) && G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      collect (child, type, found);
    }
}

/* The widgets of @type shown in @widget */
GPtrArray *
find_all (GtkWidget *widget,
          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (widget, type, found);
  return found;
}

/* @widget shows @text, in a label */
void
assert_shows (GtkWidget  *widget,
              const char *text)
{
  g_autofree char *shown = shown_text (widget);

  agent_test_assert_contains (shown, text);
}

typedef struct
{
  GtkWidget  *widget;
  const char *text;
} Shows;

static gboolean
shows (gpointer data)
{
  Shows *shows = data;
  g_autofree char *text = shown_text (shows->widget);

  return strstr (text, shows->text) != NULL;
}

void
wait_until_shown (GtkWidget  *widget,
                  const char *text)
{
  Shows data = { widget, text };

  agent_test_wait_until (shows, &data);
}

/* A button shown in @widget labelled @label */
GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (buttons, i);
      GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));

      if (gtk_widget_is_visible (button) &&
          (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), label) == 0 ||
           (child != NULL && GTK_IS_LABEL (child) &&
            g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), label) == 0)))
        return button;
    }
  return NULL;
}

static gboolean
count_tick (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       data)
{
  guint *left = data;

  return --*left > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Runs the main loop until @widget's window begins @n more frames: what
 * changed before the call is laid out by then (n ≥ 2) */
void
wait_frames (GtkWidget *widget,
             guint      n)
{
  guint left = n;

  g_return_if_fail (n > 0);
  gtk_widget_add_tick_callback (widget, count_tick, &left, NULL);
  while (left > 0)
    g_main_context_iteration (NULL, TRUE);
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
