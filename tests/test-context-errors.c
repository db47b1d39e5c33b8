/* test-context-errors.c — every API's "the conversation is too long" is
 * AGENT_ERROR_CONTEXT_LENGTH, with the numbers the server gave
 *
 * The bodies are the ones the APIs send (as users quoted them in bug
 * reports), served by a real HTTP server to a real session.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  const char *provider;
  guint       status;
  gboolean    in_stream;  /* an event of a 200 answer rather than an HTTP error */
  const char *body;
  gint64      requested;
  gint64      limit;
} Case;

static const Case cases[] = {
  { "openai", 400, FALSE,
    "{\"error\": {\"message\": \"This model's maximum context length is 128000 tokens. However, "
    "your messages resulted in 130517 tokens. Please reduce the length of the messages.\", "
    "\"type\": \"invalid_request_error\", \"param\": \"messages\", "
    "\"code\": \"context_length_exceeded\"}}",
    130517, 128000 },
  /* vLLM and older OpenAI models, without the code */
  { "openai", 400, FALSE,
    "{\"object\": \"error\", \"message\": \"This model's maximum context length is 8192 tokens. "
    "However, you requested 8203 tokens (7691 in the messages, 512 in the completion). Please "
    "reduce the length of the messages or completion.\", \"type\": \"BadRequestError\", "
    "\"param\": null, \"code\": 400}",
    8203, 8192 },
  /* llama.cpp's server */
  { "openai", 400, FALSE,
    "{\"error\": {\"code\": 400, \"message\": \"the request exceeds the available context size, "
    "try increasing it\", \"type\": \"exceed_context_size_error\", \"n_prompt_tokens\": 5021, "
    "\"n_ctx\": 4096}}",
    5021, 4096 },
  { "openai-responses", 400, FALSE,
    "{\"error\": {\"message\": \"Your input exceeds the context window of this model. Please "
    "adjust your input and try again.\", \"type\": \"invalid_request_error\", "
    "\"param\": \"input\", \"code\": \"context_length_exceeded\"}}",
    -1, -1 },
  { "openai-responses", 200, TRUE,
    "{\"type\": \"response.failed\", \"sequence_number\": 2, \"response\": {\"id\": \"resp_1\", "
    "\"object\": \"response\", \"status\": \"failed\", \"error\": {\"code\": "
    "\"context_length_exceeded\", \"message\": \"Your input exceeds the context window of this "
    "model. Please adjust your input and try again.\"}}}",
    -1, -1 },
  { "anthropic", 400, FALSE,
    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is "
    "too long: 200251 tokens > 200000 maximum\"},\"request_id\":\"req_011CWdepJvA2D819tdYYq4h7\"}",
    200251, 200000 },
  { "anthropic", 400, FALSE,
    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"input length "
    "and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or "
    "`max_tokens` and try again\"}}",
    207951, 200000 },
  { "gemini", 400, FALSE,
    "{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"The input token count (132478) "
    "exceeds the maximum number of tokens allowed (131072).\",\n    \"status\": "
    "\"INVALID_ARGUMENT\"\n  }\n}\n",
    132478, 131072 },
  { "ollama", 400, FALSE,
    "{\"error\":\"the input length exceeds the context length\"}",
    -1, -1 },
};

static void
test_error_case (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new (c->provider, NULL);
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(GError) copy = NULL;
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };
  gint64 requested, limit;

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (server));
  agent_provider_set_model (provider, "test-model");
  agent_provider_set_max_retries (provider, 3);
  session = agent_session_new (provider);

  response = agent_test_server_add_response (server, c->status);
  if (c->in_stream)
    {
      agent_test_response_set_content_type (response, "text/event-stream");
      agent_test_response_add_sse_printf (response, "%s", c->body);
    }
  else
    agent_test_response_set_body (response, "application/json", c->body);

  agent_test_turn_run (&turn, session, "Hello", NULL);

  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH);
  g_assert_cmpstr (agent_error_get_code (turn.error), ==, "context-length");
  g_assert_true (agent_error_get_context_tokens (turn.error, &requested, &limit));
  g_assert_cmpint (requested, ==, c->requested);
  g_assert_cmpint (limit, ==, c->limit);

  /* The numbers are in the message too, and go with a copy */
  if (c->requested >= 0)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, c->requested);

      agent_test_assert_contains (turn.error->message, text);
    }
  copy = g_error_copy (turn.error);
  g_assert_true (agent_error_get_context_tokens (copy, &requested, &limit));
  g_assert_cmpint (limit, ==, c->limit);

  /* Never retried: it would be as long again */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  /* The user's message stays */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (session))),
                    ==, 1);

  agent_test_turn_clear (&turn);
}

/* A 500 with the same words is not retried either, and other errors keep
 * their codes (and carry no numbers) */
static void
test_other_errors (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(AgentSession) session = NULL;
  AgentTestTurn turn = { 0 };
  gint64 requested = 0, limit = 0;

  agent_provider_set_base_url (provider, agent_test_server_get_base_url (server));
  agent_provider_set_model (provider, "test-model");
  agent_provider_set_max_retries (provider, 2);
  session = agent_session_new (provider);

  agent_test_response_set_body (agent_test_server_add_response (server, 500), "application/json",
                                "{\"error\":\"the input length exceeds the context length\"}");
  agent_test_turn_run (&turn, session, "Hello", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  agent_test_turn_clear (&turn);

  agent_test_response_set_body (agent_test_server_add_response (server, 400), "application/json",
                                "{\"error\":\"model 'x' not found, try pulling it first\"}");
  agent_test_turn_run (&turn, session, "Hello", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_false (agent_error_get_context_tokens (turn.error, &requested, &limit));
  g_assert_cmpint (requested, ==, -1);
  g_assert_cmpint (limit, ==, -1);
  agent_test_turn_clear (&turn);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/context/error/%s/%u", cases[i].provider, i);

      g_test_add_data_func (path, &cases[i], test_error_case);
    }
  g_test_add_func ("/context/error/others", test_other_errors);

  return g_test_run ();
}
