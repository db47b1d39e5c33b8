/* test-provider-limits.c — what a provider refuses to do: read an endless
 * list of models, wait forever for one, or send a key that cannot be sent;
 * through the public API against a real HTTP server on 127.0.0.1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define SECRET "sk-test-LIMITSECRET"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->provider);
  g_clear_pointer (&f->server, agent_test_server_free);
}

/* A list of models larger than 8 MiB is refused, not read to its end
 * into memory, and a list just under the limit is read. */
static void
test_models_too_large (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GString) body = g_string_new ("{\"object\":\"list\",\"data\":[");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *last = NULL;
  AgentTestResponse *response;
  guint n = 0;

  /* Just under 8 MiB: read */
  while (body->len < 8 * 1024 * 1024 - 100)
    {
      g_string_append_printf (body, "%s{\"id\":\"model-%06u\",\"object\":\"model\"}",
                              n > 0 ? "," : "", n);
      n++;
    }
  g_string_append (body, "]}");
  g_assert_cmpuint (body->len, <=, 8 * 1024 * 1024);
  response = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_body (response, "application/json", body->str);

  names = agent_test_list_models (f->provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, n);
  last = g_strdup_printf ("model-%06u", n - 1);
  g_assert_cmpstr (names[n - 1], ==, last);

  /* A few bytes more: refused, with the limit in the message */
  g_string_truncate (body, body->len - 2);
  while (body->len <= 8 * 1024 * 1024)
    {
      g_string_append_printf (body, ",{\"id\":\"model-%06u\",\"object\":\"model\"}", n);
      n++;
    }
  g_string_append (body, "]}");
  agent_test_assert_models_error (f->provider, f->server, 200, body->str,
                                  AGENT_ERROR_LIMIT, "8 MiB");
}

/* A server that takes the request and says nothing: the listing fails
 * after connect-timeout + first-byte-timeout, naming the time it waited. */
static void
test_models_time_limit (Fixture       *f,
                        gconstpointer  data)
{
  AgentTestResponse *response = agent_test_server_add_response (f->server, 200);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  agent_test_response_add_wait (response);
  agent_provider_set_connect_timeout (f->provider, 0.2);
  agent_provider_set_first_byte_timeout (f->provider, 0.3);

  names = agent_test_list_models (f->provider, &error);

  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  agent_test_assert_contains (error->message, "0.5 s");
  agent_test_server_release (f->server);
}

/* A key read from a file with CRLF line ends is sent without them. */
static void
test_key_trimmed (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AgentSession) session = agent_session_new (f->provider);
  const char *deltas[] = { "Hello", NULL };
  AgentTestTurn turn = { 0 };

  agent_provider_set_api_key (f->provider, "  " SECRET "\r\n");
  g_assert_true (agent_provider_get_has_api_key (f->provider));
  agent_test_openai_add_text_response (f->server, deltas, 1, 1);

  agent_test_turn_run (&turn, session, "Hi", NULL);

  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer " SECRET);
  agent_test_turn_clear (&turn);
}

/* A key with a control character inside cannot go into a header: libsoup
 * would drop the header and the request would go out unauthenticated.
 * Both a turn and a listing fail before anything is sent, and the error
 * does not show the key. */
static void
test_key_control_character (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(AgentSession) session = agent_session_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  AgentTestTurn turn = { 0 };

  agent_provider_set_api_key (f->provider, "sk-test-LIMIT\nSECRET");

  agent_test_turn_run (&turn, session, "Hi", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (turn.error->message, "API key");
  g_assert_null (strstr (turn.error->message, "LIMIT"));
  g_assert_null (strstr (turn.error->message, "SECRET"));
  agent_test_turn_clear (&turn);

  names = agent_test_list_models (f->provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_null (strstr (error->message, "SECRET"));

  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);

  /* The history holds the prompt, and the session is usable again once
   * the key is fixed */
  {
    const char *deltas[] = { "Fine", NULL };

    agent_provider_set_api_key (f->provider, SECRET);
    agent_test_openai_add_text_response (f->server, deltas, 1, 1);
    agent_test_turn_run (&turn, session, "Again", NULL);
    g_assert_no_error (turn.error);
    g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
    agent_test_turn_clear (&turn);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/limits/models/too-large", test_models_too_large);
  ADD ("/limits/models/time-limit", test_models_time_limit);
  ADD ("/limits/key/trimmed", test_key_trimmed);
  ADD ("/limits/key/control-character", test_key_control_character);

#undef ADD

  return g_test_run ();
}
