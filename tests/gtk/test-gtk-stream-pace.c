/* test-gtk-stream-pace.c — the pace of a streaming answer's text: a delta
 * after a quiet spell shows at the next frame, deltas that follow the last
 * update closely wait for the interval (agent-gtk-update-pacer.c), and the
 * end of the answer shows at once, whole and as the same Markdown set at
 * once renders it. The chat view in a host's window, against the
 * in-process test server (real HTTP and SSE on 127.0.0.1); the interval
 * made an hour long, so that what waits for it cannot show by chance.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent-gtk.h>

#include "agent-gtk-update-pacer-private.h"
#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

#define AN_HOUR_MS (3600 * 1000)

static void
on_text_delta (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               guint        *n_deltas)
{
  (*n_deltas)++;
}

typedef struct
{
  guint *n_deltas;
  guint  n;
} DeltaWait;

static gboolean
deltas_arrived (gpointer data)
{
  DeltaWait *wait = data;

  return *wait->n_deltas >= wait->n;
}

static char *
shown_markdown (GtkWidget *window)
{
  GPtrArray *views = find_visible (window, AGENT_GTK_TYPE_MARKDOWN_VIEW);
  char *labels;

  g_assert_cmpuint (views->len, >, 0);
  labels = markdown_labels (g_ptr_array_index (views, views->len - 1));
  g_ptr_array_unref (views);
  return labels;
}

static void
test_paced (Fixture       *fixture,
            gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");
  const char *answer = "The first words, then **more** words.\n\n- and a list";
  guint n_deltas = 0;
  DeltaWait wait = { &n_deltas, 0 };
  g_autofree char *shown = NULL;
  g_autofree char *expected = NULL;
  GtkWidget *at_once;

  _agent_gtk_update_pacer_set_interval (AN_HOUR_MS);
  g_signal_connect (fixture->session, "text-delta", G_CALLBACK (on_text_delta), &n_deltas);
  agent_test_openai_add_text (response, "The first words, ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "then **more** words.");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "\n\n- and a list");
  agent_test_openai_add_end (response, "stop", 1, 3);

  g_signal_emit_by_name (fixture->composer, "send", "Tell me something");
  agent_test_server_wait_until_waiting (fixture->server);
  /* The text was quiet (there was none): the first delta shows at once */
  wait_until_shown (fixture->window, "The first words,");

  /* The second follows the first within the interval: it waits, however
   * many frames the window draws meanwhile */
  agent_test_server_release (fixture->server);
  agent_test_server_wait_until_waiting (fixture->server);
  wait.n = 2;
  agent_test_wait_until (deltas_arrived, &wait);
  wait_frames (fixture->window, 3);
  shown = shown_markdown (fixture->window);
  agent_test_assert_contains (shown, "The first words,");
  g_assert_null (strstr (shown, "more"));
  g_clear_pointer (&shown, g_free);

  /* The end of the answer shows at once, with the text that waited */
  agent_test_server_release (fixture->server);
  agent_test_wait_until (view_idle, fixture);
  wait_frames (fixture->window, 1);
  shown = shown_markdown (fixture->window);

  /* As the same Markdown set at once renders it */
  at_once = agent_gtk_markdown_view_new ();
  g_object_ref_sink (at_once);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (at_once), answer);
  expected = markdown_labels (at_once);
  g_assert_cmpstr (shown, ==, expected);
  agent_test_assert_contains (shown, "<b>more</b>");
  g_object_unref (at_once);

  g_assert_cmpuint (fixture->n_finished, ==, 1);
  g_assert_no_error (fixture->finished_error);
  _agent_gtk_update_pacer_set_interval (AGENT_GTK_UPDATE_PACER_INTERVAL);
}

/* Interval 0: every delta shows at the next frame, as before the pace */
static void
test_every_frame (Fixture       *fixture,
                  gconstpointer  data)
{
  AgentTestResponse *response = agent_test_openai_begin (fixture->server, "");

  _agent_gtk_update_pacer_set_interval (0);
  agent_test_openai_add_text (response, "The first words, ");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, "then the second.");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 2);

  g_signal_emit_by_name (fixture->composer, "send", "Tell me something");
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (fixture->window, "The first words,");
  agent_test_server_release (fixture->server);
  agent_test_server_wait_until_waiting (fixture->server);
  wait_until_shown (fixture->window, "The first words, then the second.");
  agent_test_server_release (fixture->server);
  agent_test_wait_until (view_idle, fixture);
  _agent_gtk_update_pacer_set_interval (AGENT_GTK_UPDATE_PACER_INTERVAL);
}

int
main (int    argc,
      char **argv)
{
  agent_test_gtk_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/gtk/stream-pace/paced", test_paced);
  ADD ("/gtk/stream-pace/every-frame", test_every_frame);
#undef ADD

  return g_test_run ();
}
