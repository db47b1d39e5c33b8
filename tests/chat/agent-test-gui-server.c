/* agent-test-gui-server.c — the in-process test server, as a program of its
 * own for agent-chat's end-to-end tests, which drive the real app from
 * Python and want to know what reached the server.
 *
 *   AGENT_TEST_EXPECTED_KEY=KEY agent-test-gui-server
 *
 * Prints its base URL (http://127.0.0.1:PORT/v1) on the first line, then
 * one line per request it received:
 *
 *   /v1/models authorization=expected
 *   /v1/chat/completions model=keys-model authorization=none
 *
 * where authorization is "expected" when the request carried
 * `Authorization: Bearer KEY`, "none" without the header, "other" with any
 * other value: the key itself is never printed. It lists the models
 * "keys-model" and "other-model", answers every chat request with a short
 * streamed text, and exits when its standard input reaches end of file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define MODELS "{\"object\":\"list\",\"data\":[" \
                 "{\"id\":\"keys-model\",\"object\":\"model\"}," \
                 "{\"id\":\"other-model\",\"object\":\"model\"}]}"

static const char *
authorization (AgentTestServer *server,
               guint            index)
{
  const char *expected = g_getenv ("AGENT_TEST_EXPECTED_KEY");
  const char *header = agent_test_server_get_request_header (server, index, "Authorization");
  g_autofree char *bearer = NULL;

  if (header == NULL)
    return "none";
  bearer = g_strconcat ("Bearer ", expected ? expected : "", NULL);
  return expected != NULL && *expected != '\0' && g_str_equal (header, bearer) ? "expected"
                                                                              : "other";
}

static void
respond (AgentTestServer *server,
         const char      *path,
         JsonNode        *body,
         gpointer         user_data)
{
  static const char * const hello[] = { "Hello ", "from the ", "test server.", NULL };
  guint index = agent_test_server_get_n_requests (server) - 1;
  g_autofree char *model = NULL;

  if (g_str_has_suffix (path, "/models"))
    agent_test_response_set_body (agent_test_server_add_response (server, 200),
                                  "application/json", MODELS);
  else
    agent_test_openai_add_text_response (server, hello, 5, 4);

  if (body != NULL && JSON_NODE_HOLDS_OBJECT (body))
    {
      JsonObject *object = json_node_get_object (body);

      model = g_strdup_printf (" model=%s",
                               json_object_get_string_member_with_default (object, "model", ""));
    }
  g_print ("%s%s authorization=%s\n", path, model ? model : "", authorization (server, index));
  fflush (stdout);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();

  agent_test_server_set_responder (server, respond, NULL);
  g_print ("%s\n", agent_test_server_get_base_url (server));
  fflush (stdout);

  agent_test_run_until_stdin_closes ();
  return 0;
}
