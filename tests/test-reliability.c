/* test-reliability.c — faults: retries, time limits, broken and hostile
 * streams, bounds, cancellation at every stage, secrets, TLS; through the
 * public API against a real HTTP server on 127.0.0.1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>
#include <libsoup/soup.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-process.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  GPtrArray       *retries;   /* "attempt delay code" */
  GString         *text;
} Fixture;

static void
retry_cb (AgentSession *session,
          guint         attempt,
          double        delay,
          const GError *error,
          Fixture      *f)
{
  g_ptr_array_add (f->retries, g_strdup_printf ("%u %.3f %s", attempt, delay,
                                                agent_error_get_code (error)));
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  f->retries = g_ptr_array_new_with_free_func (g_free);
  f->text = g_string_new (NULL);
  g_signal_connect (f->session, "retry", G_CALLBACK (retry_cb), f);
  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_ptr_array_unref (f->retries);
  g_string_free (f->text, TRUE);
}

static void
add_answer (Fixture    *f,
            const char *text)
{
  const char * const deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, 1, 1);
}

static AgentTestResponse *
add_error (Fixture    *f,
           guint       status,
           const char *content_type,
           const char *body)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, status);

  agent_test_response_set_body (r, content_type, body);
  return r;
}

static void
assert_message_contains (const GError *error,
                         const char   *text)
{
  if (strstr (error->message, text) == NULL)
    g_error ("“%s” is not in the error “%s”", text, error->message);
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

static AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  g_autoptr(AgentMessage) message =
    g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), index);

  return message;
}

/* Retries */

static void
test_retry_after (Fixture       *f,
                  gconstpointer  data)
{
  AgentTestResponse *r;

  r = add_error (f, 429, "application/json",
                 "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}");
  agent_test_response_add_header (r, "Retry-After", "1");
  r = add_error (f, 429, "application/json", "{\"error\":{\"message\":\"Still limited\"}}");
  agent_test_response_add_header (r, "retry-after-ms", "50");
  add_answer (f, "Finally.");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Finally.");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  /* The waits the server asked for, in order */
  g_assert_cmpuint (f->retries->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->retries, 0), ==, "1 1.000 http");
  g_assert_cmpstr (g_ptr_array_index (f->retries, 1), ==, "2 0.050 http");
  /* The same request each time */
  g_assert_true (agent_test_json_equal (agent_test_server_get_request_body (f->server, 0),
                                        agent_test_server_get_request_body (f->server, 2)));
  /* One user message, one answer: nothing of the failures is stored */
  g_assert_cmpuint (memory_length (f), ==, 2);
}

static void
test_retry_after_date (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 2);
  g_autofree char *date = soup_date_time_to_string (later, SOUP_DATE_HTTP);
  AgentTestResponse *r;
  double delay;

  r = add_error (f, 503, "text/plain", "Down for maintenance");
  agent_test_response_add_header (r, "Retry-After", date);
  add_answer (f, "Back.");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (f->retries->len, ==, 1);
  /* Until the date: between one and two seconds, as an HTTP date has no
   * fraction of a second (not the 0.5 s of the backoff) */
  delay = g_ascii_strtod (strchr (g_ptr_array_index (f->retries, 0), ' ') + 1, NULL);
  g_assert_cmpfloat (delay, >, 0.9);
  g_assert_cmpfloat (delay, <=, 2.0);
}

static void
test_retry_backoff (Fixture       *f,
                    gconstpointer  data)
{
  add_error (f, 503, "application/json", "{\"error\":{\"message\":\"Overloaded\"}}");
  add_error (f, 503, "application/json", "{\"error\":{\"message\":\"Overloaded\"}}");
  add_answer (f, "Now it works.");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (f->retries->len, ==, 2);
  /* About 0.5 s then about 1 s (with ±25 % jitter) */
  {
    double first = g_ascii_strtod (strchr (g_ptr_array_index (f->retries, 0), ' ') + 1, NULL);
    double second = g_ascii_strtod (strchr (g_ptr_array_index (f->retries, 1), ' ') + 1, NULL);

    g_assert_cmpfloat (first, >=, 0.375);
    g_assert_cmpfloat (first, <=, 0.625);
    g_assert_cmpfloat (second, >=, 0.75);
    g_assert_cmpfloat (second, <=, 1.25);
  }
  /* Text streamed once: no duplicate */
  g_assert_cmpstr (f->text->str, ==, "Now it works.");
}

static void
test_retry_gives_up (Fixture       *f,
                     gconstpointer  data)
{
  agent_provider_set_max_retries (f->provider, 1);
  add_error (f, 500, "application/json", "{\"error\":{\"message\":\"Boom 1\"}}");
  add_error (f, 500, "application/json", "{\"error\":{\"message\":\"Boom 2\"}}");
  add_answer (f, "never");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  assert_message_contains (f->turn.error, "Boom 2");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpuint (f->retries->len, ==, 1);
}

static void
test_retry_after_too_long (Fixture       *f,
                           gconstpointer  data)
{
  AgentTestResponse *r;

  /* A server asking for more than 60 s is not waited for */
  r = add_error (f, 429, "application/json", "{\"error\":{\"message\":\"Come back tomorrow\"}}");
  agent_test_response_add_header (r, "Retry-After", "86400");
  add_answer (f, "never");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  assert_message_contains (f->turn.error, "Come back tomorrow");
  /* What it asked for, and why that is not done */
  assert_message_contains (f->turn.error, "86400 s");
  assert_message_contains (f->turn.error, "60 s");
  g_assert_cmpuint (f->retries->len, ==, 0);
}

/* A server that says "try again now" (Retry-After: 0, or a few µs)
 * and fails each time is not hammered: the waits have a floor that grows
 * with each attempt, and the retry signal says what is waited */
static void
test_retry_after_zero (Fixture       *f,
                       gconstpointer  data)
{
  static const char * const asked[][2] = {
    { "Retry-After", "0" }, { "retry-after-ms", "0" }, { "retry-after-ms", "0.001" },
    { "Retry-After", "0" }, { "Retry-After", "0" },
  };
  double previous = 0;

  agent_provider_set_max_retries (f->provider, G_N_ELEMENTS (asked));
  for (guint i = 0; i < G_N_ELEMENTS (asked); i++)
    {
      AgentTestResponse *r = add_error (f, 503, "application/json",
                                        "{\"error\":{\"message\":\"Overloaded\"}}");

      agent_test_response_add_header (r, asked[i][0], asked[i][1]);
    }
  add_answer (f, "At last.");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (f->retries->len, ==, G_N_ELEMENTS (asked));
  for (guint i = 0; i < f->retries->len; i++)
    {
      double delay = g_ascii_strtod (strchr (g_ptr_array_index (f->retries, i), ' ') + 1, NULL);

      g_test_message ("retry %u: %s", i + 1, (char *) g_ptr_array_index (f->retries, i));
      /* 25 ms, then twice as long each time */
      g_assert_cmpfloat (delay, >=, 0.025);
      g_assert_cmpfloat (delay, >, previous);
      previous = delay;
    }
  g_assert_cmpfloat (previous, >=, 0.4);
}

/* A wait longer than anything representable is told as what it is, not
 * as the number it was clamped to */
static void
test_retry_after_huge (Fixture       *f,
                       gconstpointer  data)
{
  static const char * const asked[][2] = {
    { "retry-after-ms", "1e300" }, { "Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (asked); i++)
    {
      AgentTestResponse *r = add_error (f, 429, "application/json",
                                        "{\"error\":{\"message\":\"Come back much later\"}}");

      agent_test_response_add_header (r, asked[i][0], asked[i][1]);
      agent_test_turn_clear (&f->turn);
      agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

      g_test_message ("%s: %s", asked[i][1], f->turn.error->message);
      g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
      assert_message_contains (f->turn.error, "Come back much later");
      assert_message_contains (f->turn.error, "more than 31 years");
      assert_message_contains (f->turn.error, "not tried again");
      g_assert_null (strstr (f->turn.error->message, "1000000000"));
    }
  g_assert_cmpuint (f->retries->len, ==, 0);
}

static void
test_no_retry_statuses (Fixture       *f,
                        gconstpointer  data)
{
  static const guint statuses[] = { 400, 401, 403, 404, 422 };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"error\":{\"message\":\"Refused %u\"}}", statuses[i]);
      g_autofree char *expected = g_strdup_printf ("Refused %u", statuses[i]);

      add_error (f, statuses[i], "application/json", body);
      agent_test_turn_clear (&f->turn);
      agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

      g_assert_nonnull (f->turn.error);
      assert_message_contains (f->turn.error, expected);
      g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, i + 1);
    }

  g_assert_cmpuint (f->retries->len, ==, 0);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
}

static void
test_authentication (Fixture       *f,
                     gconstpointer  data)
{
  agent_provider_set_api_key (f->provider, "sk-live-VERYSECRET");
  add_error (f, 401, "application/json",
             "{\"error\":{\"message\":\"Incorrect API key provided: sk-live-VERYSECRET\","
             "\"code\":\"invalid_api_key\"}}");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  assert_message_contains (f->turn.error, "Incorrect API key provided");
  g_assert_null (strstr (f->turn.error->message, "VERYSECRET"));
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_html_error_page (Fixture       *f,
                      gconstpointer  data)
{
  for (guint i = 0; i < 3; i++)
    add_error (f, 502, "text/html",
               "<html><head><title>502 Bad Gateway</title></head>"
               "<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  assert_message_contains (f->turn.error, "502");
  assert_message_contains (f->turn.error, "Bad Gateway");
  /* No HTML in the message */
  g_assert_null (strstr (f->turn.error->message, "<"));
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
}

static void
test_connection_refused (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *url = agent_test_closed_port_url (&socket);

  agent_provider_set_base_url (f->provider, url);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  assert_message_contains (f->turn.error, "127.0.0.1");
  g_assert_cmpuint (f->retries->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (f->retries, 0), " network"));
  g_assert_cmpuint (memory_length (f), ==, 1);
}

/* A port where connecting hangs: a listener whose (empty) backlog is full */
static char *
hanging_port_url (GSocket **listener,
                  GSocket **filler)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  *listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_socket_set_listen_backlog (*listener, 0);
  g_assert_true (g_socket_bind (*listener, any, TRUE, NULL));
  g_assert_true (g_socket_listen (*listener, NULL));
  bound = g_socket_get_local_address (*listener, NULL);

  *filler = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_assert_true (g_socket_connect (*filler, bound, NULL, NULL));

  return g_strdup_printf ("http://127.0.0.1:%u/v1",
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
}

static void
test_connect_timeout (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GSocket) filler = NULL;
  g_autofree char *url = hanging_port_url (&listener, &filler);

  agent_provider_set_base_url (f->provider, url);
  agent_provider_set_connect_timeout (f->provider, 0.2);
  agent_provider_set_max_retries (f->provider, 1);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "connect-timeout");
  /* A connect timeout is tried again */
  g_assert_cmpuint (f->retries->len, ==, 1);
  g_assert_cmpuint (memory_length (f), ==, 1);
}

static gboolean
cancel_later_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel_during_connect (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GSocket) filler = NULL;
  g_autofree char *url = hanging_port_url (&listener, &filler);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  agent_provider_set_base_url (f->provider, url);
  g_timeout_add (100, cancel_later_cb, cancellable);
  agent_test_turn_run (&f->turn, f->session, "Hi", cancellable);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->retries->len, ==, 0);
  g_assert_cmpuint (memory_length (f), ==, 1);
}

/* After a connect timeout, the step tries again with a new cancellable of
 * its own: cancelling the turn must still reach it, during the wait before
 * the attempt and during the attempt (here one without a time limit). */
static void
no_limit_then_cancel_cb (AgentSession *session,
                         guint         attempt,
                         double        delay,
                         const GError *error,
                         GCancellable *cancellable)
{
  agent_provider_set_connect_timeout (agent_session_get_provider (session), 0);
  g_timeout_add ((guint) (delay * 1000) + 100, cancel_later_cb, cancellable);
}

static void
test_cancel_after_connect_retry (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GSocket) filler = NULL;
  g_autofree char *url = hanging_port_url (&listener, &filler);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  agent_provider_set_base_url (f->provider, url);
  agent_provider_set_connect_timeout (f->provider, 0.2);
  agent_provider_set_max_retries (f->provider, 1);
  g_signal_connect (f->session, "retry", G_CALLBACK (no_limit_then_cancel_cb), cancellable);
  agent_test_turn_run (&f->turn, f->session, "Hi", cancellable);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->retries->len, ==, 1);
  g_assert_cmpuint (memory_length (f), ==, 1);
  g_signal_handlers_disconnect_by_data (f->session, cancellable);
}

/* Time limits */

static void
test_first_byte_timeout (Fixture       *f,
                         gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  /* The server takes the request and says nothing */
  agent_test_response_add_wait (r);
  agent_provider_set_first_byte_timeout (f->provider, 0.2);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "first-byte-timeout");
  /* A slow server is not asked twice */
  g_assert_cmpuint (f->retries->len, ==, 0);
  agent_test_server_release (f->server);
}

static void
test_idle_timeout (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  agent_test_openai_add_text (r, "It started ");
  agent_test_response_add_wait (r);   /* then stalls */
  agent_test_openai_add_end (r, "stop", 1, 1);
  agent_provider_set_idle_timeout (f->provider, 0.3);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "idle-timeout");
  assert_message_contains (f->turn.error, "kept");
  /* What streamed stays; it was not asked again (that would repeat it) */
  g_assert_cmpstr (f->text->str, ==, "It started ");
  g_assert_cmpuint (f->retries->len, ==, 0);
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "It started ");
  g_assert_cmpint (agent_message_get_state (memory_message (f, 1)), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  agent_test_server_release (f->server);
}

static void
test_idle_timeout_reset_by_bytes (Fixture       *f,
                                  gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  /* Slow but steady: each gap below the limit, the whole above it */
  for (guint i = 0; i < 6; i++)
    {
      agent_test_response_add_delay (r, 100);
      agent_test_openai_add_text (r, "tick ");
    }
  agent_test_openai_add_end (r, "stop", 1, 1);
  agent_provider_set_idle_timeout (f->provider, 0.4);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (f->text->str, ==, "tick tick tick tick tick tick ");
}

static void
test_step_timeout (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  for (guint i = 0; i < 20; i++)
    {
      agent_test_response_add_delay (r, 50);
      agent_test_openai_add_text (r, "x");
    }
  agent_test_openai_add_end (r, "stop", 1, 1);
  agent_session_set_step_timeout (f->session, 0.3);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "step-timeout");
  g_assert_cmpuint (f->text->len, >, 0);
  g_assert_cmpuint (f->text->len, <, 20);
}

static gboolean
slow_tool_handler (AgentTool           *tool,
                   AgentToolInvocation *invocation,
                   gpointer             user_data,
                   GError             **error)
{
  /* Never answers: only the turn's limit ends it */
  g_ptr_array_add (user_data, g_object_ref (invocation));

  return TRUE;
}

static void
test_turn_timeout (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AgentTool) tool = agent_tool_new ("wait", "Waits", NULL, slow_tool_handler, held, NULL);
  const AgentTestToolChunk chunk = { 0, "c0", "wait", "{}" };

  agent_session_add_tool (f->session, tool);
  agent_test_openai_add_tool_response (f->server, &chunk, 1, 1, 1);
  agent_session_set_turn_timeout (f->session, 0.3);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "turn-timeout");
  /* The tool was told, and the memory holds its "cancelled" answer */
  g_assert_cmpuint (held->len, ==, 1);
  g_assert_true (g_cancellable_is_cancelled (
                   agent_tool_invocation_get_cancellable (g_ptr_array_index (held, 0))));
  g_assert_cmpuint (memory_length (f), ==, 3);
  g_assert_true (agent_message_is_error (memory_message (f, 2)));
}

/* Broken and hostile streams */

static void
test_dropped_mid_stream (Fixture       *f,
                         gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  agent_test_openai_add_text (r, "Half ");
  agent_test_response_set_drop (r);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  assert_message_contains (f->turn.error, "kept");
  g_assert_cmpuint (f->retries->len, ==, 0);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "Half ");
}

static void
test_ended_without_marker (Fixture       *f,
                           gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  agent_test_openai_add_text (r, "Cut");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  assert_message_contains (f->turn.error, "before the answer was complete");
  assert_message_contains (f->turn.error, "kept");
}

static void
test_malformed_event (Fixture       *f,
                      gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  g_autoptr(GString) junk = g_string_new ("data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":");

  agent_test_openai_add_text (r, "Good ");
  for (guint i = 0; i < 200; i++)
    g_string_append (junk, "garbage");
  g_string_append (junk, "\n\n");
  agent_test_response_add_bytes (r, junk->str, -1);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  /* It names the event, cut to a sensible length */
  assert_message_contains (f->turn.error, "{\"id\":\"c1\",\"choices\"");
  g_assert_cmpuint (strlen (f->turn.error->message), <, 400);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "Good ");
}

static void
test_oversized_line (Fixture       *f,
                     gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  gsize size = 16 * 1024 * 1024 + 4096;
  g_autofree char *line = g_malloc (size);

  memcpy (line, "data: ", 6);
  memset (line + 6, 'a', size - 6);
  agent_test_response_add_bytes (r, line, size);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "16 MiB");
}

static void
test_response_cap (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  for (guint i = 0; i < 100; i++)
    agent_test_openai_add_text (r, "0123456789");
  agent_test_openai_add_end (r, "stop", 1, 1);
  agent_provider_set_max_response_size (f->provider, 4000);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "max-response-size");
  g_assert_cmpuint (f->text->len, >, 0);
}

static void
test_too_many_tool_calls (Fixture       *f,
                          gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *id = g_strdup_printf ("c%u", i);
      const AgentTestToolChunk chunk = { i, id, "calculator", "{\"expression\":\"1\"}" };

      agent_test_openai_add_tool_chunk (r, &chunk);
    }
  agent_test_openai_add_end (r, "tool_calls", 1, 1);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "256");
  /* None ran, none is stored */
  g_assert_cmpuint (memory_length (f), ==, 1);
}

static void
test_tool_arguments_too_large (Fixture       *f,
                               gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  g_autofree char *piece = g_strnfill (1024 * 1024, 'x');
  const AgentTestToolChunk first = { 0, "c0", "calculator", "{\"expression\":\"" };
  const AgentTestToolChunk more = { 0, NULL, NULL, piece };

  agent_test_openai_add_tool_chunk (r, &first);
  for (guint i = 0; i < 9; i++)
    agent_test_openai_add_tool_chunk (r, &more);
  agent_test_openai_add_end (r, "tool_calls", 1, 1);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "8 MiB");
  g_assert_cmpuint (memory_length (f), ==, 1);
}

/* Cancellation closes the connection */

static gboolean
text_arrived (gpointer data)
{
  return ((Fixture *)data)->text->len > 0;
}

static gboolean
server_saw_client_go (gpointer data)
{
  return agent_test_server_get_n_aborted (data) > 0;
}

static void
test_cancel_closes_connection (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  /* The server goes on writing after a pause: a write to a connection the
   * client closed fails, which is how it sees the client go (a paused
   * SoupServer message does not watch its socket). */
  agent_test_openai_add_text (r, "Streaming ");
  agent_test_response_add_delay (r, 300);
  for (guint i = 0; i < 64; i++)
    agent_test_openai_add_text (r, "more ");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_send (&f->turn, f->session, "Hi", cancellable);
  agent_test_wait_until (text_arrived, f);
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* The server sees the client go */
  agent_test_wait_until (server_saw_client_go, f->server);
}

/* TLS */

static char *
tls_file (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "tls", name, NULL);
}

static void
test_tls_custom_ca (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *certificate = tls_file ("server.pem");
  g_autofree char *key = tls_file ("server-key.pem");
  g_autofree char *ca = tls_file ("ca.pem");
  g_autoptr(AgentTestServer) server = NULL;
  const char * const deltas[] = { "Secure.", NULL };

#ifdef __SANITIZE_ADDRESS__
  /* GnuTLS, loaded by glib-networking with dlopen(), keeps dynamic
   * thread-local storage, and GCC 12's LeakSanitizer crashes ("Tracer
   * caught signal 11") walking it at exit. The test runs in the normal
   * build and under valgrind. */
  g_test_skip ("LeakSanitizer crashes on GnuTLS's dynamic TLS at exit");
  return;
#endif

  server = agent_test_server_new_tls (certificate, key);

  agent_provider_set_base_url (f->provider, agent_test_server_get_base_url (server));
  agent_provider_set_max_retries (f->provider, 0);
  g_assert_true (g_str_has_prefix (agent_test_server_get_base_url (server), "https://"));

  /* The system does not trust the test CA: verification stays on */
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  /* Trusting it with tls-ca-file works */
  agent_test_openai_add_text_response (server, deltas, 1, 1);
  agent_provider_set_tls_ca_file (f->provider, ca);
  agent_test_turn_clear (&f->turn);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Secure.");

  /* An unreadable CA file is said so */
  agent_provider_set_tls_ca_file (f->provider, "/nonexistent/ca.pem");
  agent_test_turn_clear (&f->turn);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  assert_message_contains (f->turn.error, "/nonexistent/ca.pem");
}

/* Secrets in the debug log */

static void
test_debug_log_redacts (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *r;

  /* The server echoes the key in its answer, too */
  r = agent_test_openai_begin (server, "");
  agent_test_openai_add_text (r, "your key is sk-debug-SUPERSECRET");
  agent_test_openai_add_end (r, "stop", 1, 1);

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("AGENT_DEBUG=http",
                                                  "OPENAI_API_KEY=sk-debug-SUPERSECRET"),
                                 NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server), "Hi"));
  agent_test_process_assert_exit (cli, 0);

  /* The log shows the request and the answer… */
  g_assert_nonnull (strstr (cli->err->str, "POST"));
  g_assert_nonnull (strstr (cli->err->str, "/v1/chat/completions"));
  g_assert_nonnull (strstr (cli->err->str, "Authorization: [redacted]"));
  g_assert_nonnull (strstr (cli->err->str, "200"));
  /* …never the key */
  g_assert_null (strstr (cli->err->str, "SUPERSECRET"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Authorization"), ==,
                   "Bearer sk-debug-SUPERSECRET");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/reliability/retry/retry-after", test_retry_after);
  ADD ("/reliability/retry/retry-after-date", test_retry_after_date);
  ADD ("/reliability/retry/backoff", test_retry_backoff);
  ADD ("/reliability/retry/gives-up", test_retry_gives_up);
  ADD ("/reliability/retry/retry-after-too-long", test_retry_after_too_long);
  ADD ("/reliability/retry/retry-after-zero", test_retry_after_zero);
  ADD ("/reliability/retry/retry-after-huge", test_retry_after_huge);
  ADD ("/reliability/retry/not-for-client-errors", test_no_retry_statuses);
  ADD ("/reliability/errors/authentication", test_authentication);
  ADD ("/reliability/errors/html-page", test_html_error_page);
  ADD ("/reliability/errors/connection-refused", test_connection_refused);
  ADD ("/reliability/timeout/connect", test_connect_timeout);
  ADD ("/reliability/timeout/cancel-after-connect-retry", test_cancel_after_connect_retry);
  ADD ("/reliability/timeout/first-byte", test_first_byte_timeout);
  ADD ("/reliability/timeout/idle", test_idle_timeout);
  ADD ("/reliability/timeout/idle-reset-by-bytes", test_idle_timeout_reset_by_bytes);
  ADD ("/reliability/timeout/step", test_step_timeout);
  ADD ("/reliability/timeout/turn", test_turn_timeout);
  ADD ("/reliability/stream/dropped", test_dropped_mid_stream);
  ADD ("/reliability/stream/no-end-marker", test_ended_without_marker);
  ADD ("/reliability/stream/malformed-event", test_malformed_event);
  ADD ("/reliability/bounds/oversized-line", test_oversized_line);
  ADD ("/reliability/bounds/response-size", test_response_cap);
  ADD ("/reliability/bounds/tool-calls", test_too_many_tool_calls);
  ADD ("/reliability/bounds/tool-arguments", test_tool_arguments_too_large);
  ADD ("/reliability/cancel/during-connect", test_cancel_during_connect);
  ADD ("/reliability/cancel/closes-connection", test_cancel_closes_connection);
  ADD ("/reliability/tls/custom-ca", test_tls_custom_ca);
  g_test_add_func ("/reliability/debug-log-redacts", test_debug_log_redacts);

  return g_test_run ();
}
