/* test-mcp-elicitation.c — a server asks for the user's input
 *
 * The reference server-everything over stdio (its trigger-elicitation-request
 * and trigger-url-elicitation tools, offered only to a client that declares
 * the capability) and tests/mcp/elicitation-server.mjs (asks with any
 * schema, withdraws a question): the capability and the signal, accept
 * (the server echoes the content), invalid content refused with the field
 * named, decline, cancel, a request dropped unanswered, URL mode, a request
 * the server withdraws, that the connection ends or whose call is cancelled, a schema a form cannot
 * ask, and validate() on every kind of field.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

typedef struct
{
  GPtrArray *requests;   /* of AgentMcpElicitation, kept */
  gboolean   keep;
  guint      n_signals;
  guint      n_closed;
} Asked;

static void
closed_cb (AgentMcpElicitation *request,
           Asked               *asked)
{
  asked->n_closed++;
}

static void
elicitation_cb (AgentMcpClient      *client,
                AgentMcpElicitation *request,
                Asked               *asked)
{
  asked->n_signals++;
  if (asked->keep)
    {
      g_signal_connect (request, "closed", G_CALLBACK (closed_cb), asked);
      g_ptr_array_add (asked->requests, g_object_ref (request));
    }
}

static void
asked_init (Asked          *asked,
            AgentMcpClient *client,
            gboolean        keep)
{
  memset (asked, 0, sizeof *asked);
  asked->requests = g_ptr_array_new_with_free_func (g_object_unref);
  asked->keep = keep;
  g_signal_connect (client, "elicitation", G_CALLBACK (elicitation_cb), asked);
}

static void
asked_clear (Asked *asked)
{
  for (guint i = 0; i < asked->requests->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (asked->requests, i), asked);
  g_clear_pointer (&asked->requests, g_ptr_array_unref);
}

static gboolean
has_request (gpointer data)
{
  return ((Asked *) data)->requests->len > 0;
}

static gboolean
was_closed (gpointer data)
{
  return ((Asked *) data)->n_closed > 0;
}

static AgentMcpElicitation *
wait_request (Asked *asked)
{
  g_assert_true (agent_test_wait_until_timeout (has_request, asked,
                                                AGENT_TEST_MCP_WAIT_SECONDS));
  return g_ptr_array_index (asked->requests, 0);
}

typedef struct
{
  AgentMcpClient *client;
  const char     *name;
} ToolWait;

static gboolean
has_tool (gpointer data)
{
  ToolWait *wait = data;

  return agent_test_mcp_find_tool (wait->client, wait->name) != NULL;
}

/* server-everything registers its elicitation tools once the handshake is
 * over, and says so with notifications/tools/list_changed */
static AgentMcpClient *
everything_eliciting (void)
{
  AgentMcpClient *client = agent_test_mcp_everything_new (NULL);
  ToolWait wait = { client, "trigger-elicitation-request" };

  agent_mcp_client_set_handles_elicitation (client, TRUE);
  agent_test_mcp_connect (client);
  g_assert_true (agent_test_wait_until_timeout (has_tool, &wait, AGENT_TEST_MCP_WAIT_SECONDS));
  return client;
}

static JsonObject *
object_from (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

/* tests/mcp/elicitation-server.mjs, connected, for a client that handles
 * elicitation */
static AgentMcpClient *
asker_connect (Asked *asked)
{
  AgentMcpClient *client = agent_test_mcp_elicitation_new ();

  agent_mcp_client_set_handles_elicitation (client, TRUE);
  asked_init (asked, client, TRUE);
  agent_test_mcp_connect (client);
  return client;
}

static char *
arguments_with_schema (const char *message,
                       const char *schema)
{
  return g_strdup_printf ("{\"message\":\"%s\",\"schema\":%s}", message, schema);
}

/* The capability */

static void
test_not_declared (void)
{
  g_autoptr(AgentMcpClient) everything = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentMcpClient) asker = agent_test_mcp_elicitation_new ();
  AgentTestMcpResult result;
  Asked asked;

  g_assert_false (agent_mcp_client_get_handles_elicitation (everything));

  /* server-everything does not offer its elicitation tools at all */
  agent_test_mcp_connect (everything);
  g_assert_nonnull (agent_test_mcp_find_tool (everything, "echo"));
  g_assert_null (agent_test_mcp_find_tool (everything, "trigger-elicitation-request"));
  g_assert_null (agent_test_mcp_find_tool (everything, "trigger-url-elicitation"));
  agent_test_mcp_close (everything);

  /* a server that asks anyway is told "method not found", and no signal
   * comes */
  asked_init (&asked, asker, TRUE);
  agent_test_mcp_connect (asker);
  agent_test_mcp_call (asker, "ask",
                       "{\"message\":\"Name?\",\"schema\":{\"type\":\"object\","
                       "\"properties\":{\"name\":{\"type\":\"string\"}}}}",
                       &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "refused: -32601");
  g_assert_cmpuint (asked.n_signals, ==, 0);
  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (asker);
}

/* Form mode against server-everything */

static void
test_accept (void)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autoptr(JsonObject) invalid = NULL;
  g_autoptr(JsonObject) valid = NULL;
  g_autoptr(GError) error = NULL;
  AgentMcpElicitation *request;
  AgentTestMcpResult result;
  JsonObject *schema;
  guint n_answered = 0;
  Asked asked;

  asked_init (&asked, client, TRUE);
  invocation = agent_test_mcp_invoke (client, "trigger-elicitation-request", "{}", NULL,
                                      &result);
  request = wait_request (&asked);
  g_signal_connect (request, "notify::answered", G_CALLBACK (agent_test_count_notify),
                    &n_answered);

  g_assert_cmpint (agent_mcp_elicitation_get_mode (request), ==,
                   AGENT_MCP_ELICITATION_MODE_FORM);
  g_assert_cmpstr (agent_mcp_elicitation_get_server_name (request), ==, "everything");
  g_assert_cmpstr (agent_mcp_elicitation_get_message (request), ==,
                   "Please provide inputs for the following fields:");
  g_assert_null (agent_mcp_elicitation_get_url (request));
  g_assert_null (agent_mcp_elicitation_get_elicitation_id (request));
  g_assert_false (agent_mcp_elicitation_get_answered (request));
  schema = agent_mcp_elicitation_get_requested_schema (request);
  g_assert_nonnull (schema);
  g_assert_true (json_object_has_member (json_object_get_object_member (schema, "properties"),
                                         "email"));
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (schema,
                                                                                "required"),
                                                  0), ==, "name");

  /* What does not follow the schema is refused, and the request stays
   * open */
  invalid = object_from ("{\"name\":\"Ada\",\"email\":\"ada-at-example\"}");
  g_assert_false (agent_mcp_elicitation_accept (request, invalid, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  agent_test_assert_contains (error->message, "“email”");
  agent_test_assert_contains (error->message, "ada-at-example");
  g_assert_false (agent_mcp_elicitation_get_answered (request));
  g_assert_cmpuint (n_answered, ==, 0);
  g_assert_false (agent_tool_invocation_is_completed (invocation));
  g_clear_error (&error);

  valid = object_from ("{\"name\":\"Ada Lovelace\",\"check\":true,"
                       "\"email\":\"ada@example.com\",\"integer\":7,\"number\":2.5,"
                       "\"birthdate\":\"1815-12-10\","
                       "\"untitledMultipleSelectEnum\":[\"Piano\",\"Violin\"],"
                       "\"titledSingleSelectEnum\":\"hero-2\","
                       "\"titledMultipleSelectEnum\":[\"fish-3\"],"
                       "\"legacyTitledEnum\":\"pet-2\"}");
  g_assert_true (agent_mcp_elicitation_accept (request, valid, &error));
  g_assert_no_error (error);
  g_assert_true (agent_mcp_elicitation_get_answered (request));
  g_assert_cmpuint (n_answered, ==, 1);

  agent_test_mcp_wait_invocation (invocation);
  g_assert_false (result.is_error);
  agent_test_assert_contains (result.text, "User provided the requested information");
  agent_test_assert_contains (result.text, "- Name: Ada Lovelace");
  agent_test_assert_contains (result.text, "- Email: ada@example.com");
  agent_test_assert_contains (result.text, "- Favorite Integer: 7");
  agent_test_assert_contains (result.text, "\"titledSingleSelectEnum\": \"hero-2\"");
  g_assert_cmpuint (asked.n_closed, ==, 0);

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

static void
answer_and_check (void      (*answer) (AgentMcpElicitation *),
                  const char *expected)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  Asked asked;

  asked_init (&asked, client, TRUE);
  invocation = agent_test_mcp_invoke (client, "trigger-elicitation-request", "{}", NULL,
                                      &result);
  answer (wait_request (&asked));
  g_assert_true (agent_mcp_elicitation_get_answered (g_ptr_array_index (asked.requests, 0)));
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, expected);

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

static void
test_decline (void)
{
  answer_and_check (agent_mcp_elicitation_decline, "User declined to provide");
}

static void
test_cancel (void)
{
  answer_and_check (agent_mcp_elicitation_cancel, "User cancelled the elicitation dialog");
}

/* A handler that does not keep the request: it is cancelled, and the
 * server does not wait */
static void
test_dropped (void)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  AgentTestMcpResult result;
  Asked asked;

  asked_init (&asked, client, FALSE);
  agent_test_mcp_call (client, "trigger-elicitation-request", "{}", &result);
  g_assert_cmpuint (asked.n_signals, ==, 1);
  agent_test_assert_contains (result.text, "User cancelled the elicitation dialog");
  agent_test_assert_contains (result.text, "\"action\": \"cancel\"");

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

/* URL mode */

static void
test_url (void)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autoptr(JsonObject) values = NULL;
  g_autoptr(GError) error = NULL;
  AgentMcpElicitation *request;
  AgentTestMcpResult result;
  Asked asked;

  asked_init (&asked, client, TRUE);
  invocation = agent_test_mcp_invoke (client, "trigger-url-elicitation",
                                      "{\"url\":\"https://example.com/pay?order=12\","
                                      "\"message\":\"Pay for the order\","
                                      "\"elicitationId\":\"pay-12\"}",
                                      NULL, &result);
  request = wait_request (&asked);
  g_assert_cmpint (agent_mcp_elicitation_get_mode (request), ==, AGENT_MCP_ELICITATION_MODE_URL);
  g_assert_cmpstr (agent_mcp_elicitation_get_url (request), ==, "https://example.com/pay?order=12");
  g_assert_cmpstr (agent_mcp_elicitation_get_elicitation_id (request), ==, "pay-12");
  g_assert_cmpstr (agent_mcp_elicitation_get_message (request), ==, "Pay for the order");
  g_assert_null (agent_mcp_elicitation_get_requested_schema (request));

  /* A URL takes no values */
  values = object_from ("{\"card\":\"1234\"}");
  g_assert_false (agent_mcp_elicitation_accept (request, values, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  g_assert_false (agent_mcp_elicitation_get_answered (request));
  g_clear_error (&error);

  g_assert_true (agent_mcp_elicitation_accept (request, NULL, &error));
  g_assert_no_error (error);
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, "User completed the URL elicitation flow");
  agent_test_assert_contains (result.text, "Elicitation ID: pay-12");

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

/* A URL that is not a web address is refused before the user sees it */
static void
test_url_refused (void)
{
  Asked asked;
  g_autoptr(AgentMcpClient) client = asker_connect (&asked);
  AgentTestMcpResult result;

  agent_test_mcp_call (client, "ask", "{\"message\":\"Open\",\"url\":\"file:///etc/passwd\"}",
                       &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "refused: -32602");
  agent_test_assert_contains (result.text, "not an http or https address");
  g_assert_cmpuint (asked.n_signals, ==, 0);

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

/* Requests that go away unanswered */

static void
test_withdrawn (void)
{
  Asked asked;
  g_autoptr(AgentMcpClient) client = asker_connect (&asked);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *arguments = NULL;
  AgentMcpElicitation *request;
  AgentTestMcpResult result;
  AgentTestMcpResult withdrawn;

  arguments = arguments_with_schema ("Name?", "{\"type\":\"object\",\"properties\":"
                                     "{\"name\":{\"type\":\"string\"}}}");
  invocation = agent_test_mcp_invoke (client, "ask", arguments, NULL, &result);
  request = wait_request (&asked);

  agent_test_mcp_call (client, "withdraw", "{}", &withdrawn);
  agent_test_assert_contains (withdrawn.text, "withdrawn");
  g_assert_true (agent_test_wait_until_timeout (was_closed, &asked,
                                                AGENT_TEST_MCP_WAIT_SECONDS));
  g_assert_cmpuint (asked.n_closed, ==, 1);
  g_assert_false (agent_mcp_elicitation_get_answered (request));

  /* Answering now does nothing */
  g_assert_false (agent_mcp_elicitation_accept (request, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  agent_mcp_elicitation_decline (request);
  g_assert_false (agent_mcp_elicitation_get_answered (request));

  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, "withdrawn");

  agent_test_mcp_result_clear (&result);
  agent_test_mcp_result_clear (&withdrawn);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

static void
test_disconnected (void)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  Asked asked;

  asked_init (&asked, client, TRUE);
  invocation = agent_test_mcp_invoke (client, "trigger-elicitation-request", "{}", NULL,
                                      &result);
  wait_request (&asked);

  agent_test_mcp_close (client);
  g_assert_true (agent_test_wait_until_timeout (was_closed, &asked,
                                                AGENT_TEST_MCP_WAIT_SECONDS));
  g_assert_false (agent_mcp_elicitation_get_answered (g_ptr_array_index (asked.requests, 0)));
  agent_test_mcp_wait_invocation (invocation);
  g_assert_true (result.is_error);

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
}

/* The call that asked is cancelled (the turn was): its question goes with
 * it, and the server is told */
static void
test_call_cancelled (void)
{
  g_autoptr(AgentMcpClient) client = everything_eliciting ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  AgentTestMcpResult echo;
  Asked asked;

  asked_init (&asked, client, TRUE);
  invocation = agent_test_mcp_invoke (client, "trigger-elicitation-request", "{}", cancellable,
                                      &result);
  wait_request (&asked);

  g_cancellable_cancel (cancellable);
  g_assert_true (agent_test_wait_until_timeout (was_closed, &asked,
                                                AGENT_TEST_MCP_WAIT_SECONDS));
  g_assert_false (agent_mcp_elicitation_get_answered (g_ptr_array_index (asked.requests, 0)));
  agent_test_mcp_wait_invocation (invocation);
  g_assert_true (result.is_error);

  /* The server works on */
  agent_test_mcp_call (client, "echo", "{\"message\":\"still here\"}", &echo);
  agent_test_assert_contains (echo.text, "still here");

  agent_test_mcp_result_clear (&result);
  agent_test_mcp_result_clear (&echo);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

/* The schema */

static void
test_schema_refused (void)
{
  Asked asked;
  g_autoptr(AgentMcpClient) client = asker_connect (&asked);
  AgentTestMcpResult result;
  g_autofree char *arguments = NULL;


  arguments = arguments_with_schema ("Address?", "{\"type\":\"object\",\"properties\":"
                                     "{\"address\":{\"type\":\"object\"}}}");
  agent_test_mcp_call (client, "ask", arguments, &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "refused: -32602");
  agent_test_assert_contains (result.text, "\"address\"");
  g_assert_cmpuint (asked.n_signals, ==, 0);
  agent_test_mcp_result_clear (&result);

  agent_test_mcp_call (client, "ask", "{\"message\":\"Nothing?\"}", &result);
  g_assert_true (result.is_error);
  agent_test_assert_contains (result.text, "refused: -32602");
  g_assert_cmpuint (asked.n_signals, ==, 0);

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

#define EVERY_KIND \
  "{\"type\":\"object\",\"properties\":{" \
  "\"nick\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}," \
  "\"email\":{\"type\":\"string\",\"format\":\"email\"}," \
  "\"site\":{\"type\":\"string\",\"format\":\"uri\"}," \
  "\"day\":{\"type\":\"string\",\"format\":\"date\"}," \
  "\"when\":{\"type\":\"string\",\"format\":\"date-time\"}," \
  "\"age\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":150}," \
  "\"ratio\":{\"type\":\"number\",\"minimum\":0.5,\"maximum\":1}," \
  "\"agree\":{\"type\":\"boolean\"}," \
  "\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"green\"]}," \
  "\"legacy\":{\"type\":\"string\",\"enum\":[\"p1\",\"p2\"],\"enumNames\":[\"Cats\",\"Dogs\"]}," \
  "\"hero\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"h1\",\"title\":\"Superman\"}," \
  "{\"const\":\"h2\",\"title\":\"Batman\"}]}," \
  "\"tools\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":2," \
  "\"items\":{\"type\":\"string\",\"enum\":[\"saw\",\"drill\",\"file\"]}}," \
  "\"fish\":{\"type\":\"array\",\"items\":{\"anyOf\":[{\"const\":\"f1\",\"title\":\"Tuna\"}," \
  "{\"const\":\"f2\",\"title\":\"Trout\"}]}}" \
  "},\"required\":[\"nick\"]}"

typedef struct
{
  const char *content;
  const char *error;  /* what the message holds, or NULL if valid */
} Case;

static const Case cases[] = {
  { "{\"nick\":\"ada\"}", NULL },
  { "{}", "“nick”: is required" },
  { "{\"nick\":\"a\"}", "“nick”: must be at least 2 characters long" },
  { "{\"nick\":\"adalove\"}", "“nick”: must be at most 5 characters long" },
  { "{\"nick\":\"éèàçù\"}", NULL },  /* characters, not bytes */
  { "{\"nick\":3}", "“nick”: must be text" },
  { "{\"nick\":\"ada\",\"extra\":1}", "“extra”: is not asked for" },
  { "{\"nick\":\"ada\",\"email\":\"ada@example.org\"}", NULL },
  { "{\"nick\":\"ada\",\"email\":\"ada@\"}", "“email”: “ada@” is not an email address" },
  { "{\"nick\":\"ada\",\"email\":\"a b@example.org\"}", "is not an email address" },
  { "{\"nick\":\"ada\",\"site\":\"https://ada.example\"}", NULL },
  { "{\"nick\":\"ada\",\"site\":\"ada.example\"}", "“site”: “ada.example” is not an absolute URI" },
  { "{\"nick\":\"ada\",\"day\":\"1815-12-10\"}", NULL },
  { "{\"nick\":\"ada\",\"day\":\"1815-02-30\"}", "“day”: “1815-02-30” is not a date" },
  { "{\"nick\":\"ada\",\"day\":\"10/12/1815\"}", "is not a date" },
  { "{\"nick\":\"ada\",\"when\":\"2026-12-06T18:00:00Z\"}", NULL },
  { "{\"nick\":\"ada\",\"when\":\"2026-12-06T18:00:00+01:00\"}", NULL },
  { "{\"nick\":\"ada\",\"when\":\"2026-12-06T18:00:00\"}", "“when”: “2026-12-06T18:00:00” is not" },
  { "{\"nick\":\"ada\",\"when\":\"2026-12-06\"}", "is not a date and time" },
  { "{\"nick\":\"ada\",\"age\":36}", NULL },
  { "{\"nick\":\"ada\",\"age\":36.0}", NULL },
  { "{\"nick\":\"ada\",\"age\":36.5}", "“age”: must be an integer" },
  { "{\"nick\":\"ada\",\"age\":\"36\"}", "“age”: must be an integer" },
  { "{\"nick\":\"ada\",\"age\":-1}", "“age”: must be at least 0" },
  { "{\"nick\":\"ada\",\"age\":151}", "“age”: must be at most 150" },
  { "{\"nick\":\"ada\",\"ratio\":0.75}", NULL },
  { "{\"nick\":\"ada\",\"ratio\":1}", NULL },
  { "{\"nick\":\"ada\",\"ratio\":0.25}", "“ratio”: must be at least 0.5" },
  { "{\"nick\":\"ada\",\"ratio\":true}", "“ratio”: must be a number" },
  { "{\"nick\":\"ada\",\"agree\":false}", NULL },
  { "{\"nick\":\"ada\",\"agree\":\"yes\"}", "“agree”: must be true or false" },
  { "{\"nick\":\"ada\",\"color\":\"green\"}", NULL },
  { "{\"nick\":\"ada\",\"color\":\"blue\"}", "“color”: “blue” is not one of the choices" },
  { "{\"nick\":\"ada\",\"legacy\":\"p2\"}", NULL },
  { "{\"nick\":\"ada\",\"legacy\":\"Dogs\"}", "“legacy”: “Dogs” is not one of the choices" },
  { "{\"nick\":\"ada\",\"hero\":\"h2\"}", NULL },
  { "{\"nick\":\"ada\",\"hero\":\"Batman\"}", "“hero”: “Batman” is not one of the choices" },
  { "{\"nick\":\"ada\",\"tools\":[\"saw\",\"file\"]}", NULL },
  { "{\"nick\":\"ada\",\"tools\":[]}", "“tools”: needs at least 1 choice" },
  { "{\"nick\":\"ada\",\"tools\":[\"saw\",\"drill\",\"file\"]}", "“tools”: takes at most 2 choices" },
  { "{\"nick\":\"ada\",\"tools\":[\"saw\",\"saw\"]}", "“tools”: “saw” is chosen twice" },
  { "{\"nick\":\"ada\",\"tools\":[\"hammer\"]}", "“tools”: “hammer” is not one of the choices" },
  { "{\"nick\":\"ada\",\"tools\":\"saw\"}", "“tools”: must be a list of choices" },
  { "{\"nick\":\"ada\",\"fish\":[\"f1\",\"f2\"]}", NULL },
  { "{\"nick\":\"ada\",\"fish\":[\"Tuna\"]}", "“fish”: “Tuna” is not one of the choices" },
};

static void
test_validate (void)
{
  Asked asked;
  g_autoptr(AgentMcpClient) client = asker_connect (&asked);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autofree char *arguments = NULL;
  AgentMcpElicitation *request;
  AgentTestMcpResult result;

  arguments = arguments_with_schema ("Everything?", EVERY_KIND);
  invocation = agent_test_mcp_invoke (client, "ask", arguments, NULL, &result);
  request = wait_request (&asked);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) content = object_from (cases[i].content);
      g_autoptr(GError) error = NULL;
      gboolean valid = agent_mcp_elicitation_validate (request, content, &error);

      g_test_message ("%s", cases[i].content);
      if (cases[i].error == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (valid);
        }
      else
        {
          g_assert_false (valid);
          g_assert_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
          agent_test_assert_contains (error->message, cases[i].error);
        }
    }
  g_assert_false (agent_mcp_elicitation_get_answered (request));

  /* What was accepted reaches the server as it was given */
  {
    g_autoptr(JsonObject) content = object_from ("{\"nick\":\"ada\",\"age\":36,"
                                                 "\"tools\":[\"drill\"],\"agree\":true}");
    g_autoptr(GError) error = NULL;

    g_assert_true (agent_mcp_elicitation_accept (request, content, &error));
    g_assert_no_error (error);
  }
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_same_text (result.text,
                               "{\"action\":\"accept\",\"content\":{\"nick\":\"ada\",\"age\":36,"
                               "\"tools\":[\"drill\"],\"agree\":true}}");

  agent_test_mcp_result_clear (&result);
  asked_clear (&asked);
  agent_test_mcp_close (client);
}

int
main (int    argc,
      char **argv)
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp-elicitation/not-declared", test_not_declared);
  g_test_add_func ("/mcp-elicitation/accept", test_accept);
  g_test_add_func ("/mcp-elicitation/decline", test_decline);
  g_test_add_func ("/mcp-elicitation/cancel", test_cancel);
  g_test_add_func ("/mcp-elicitation/dropped", test_dropped);
  g_test_add_func ("/mcp-elicitation/url", test_url);
  g_test_add_func ("/mcp-elicitation/url-refused", test_url_refused);
  g_test_add_func ("/mcp-elicitation/withdrawn", test_withdrawn);
  g_test_add_func ("/mcp-elicitation/disconnected", test_disconnected);
  g_test_add_func ("/mcp-elicitation/call-cancelled", test_call_cancelled);
  g_test_add_func ("/mcp-elicitation/schema-refused", test_schema_refused);
  g_test_add_func ("/mcp-elicitation/validate", test_validate);

  return g_test_run ();
}
