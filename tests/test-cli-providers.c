/* test-cli-providers.c — agent-cli as a black box, with every provider
 *
 * As in test-cli.c, each case runs $AGENT_CLI against an AgentTestServer
 * served from this process's main loop, here with --provider set to each
 * backend (and its aliases):
 *
 * - /cli-providers/stream/<provider>/<file>: every recorded stream of
 *   tests/corpus/<provider>/, served in random pieces, read through --json:
 *   the text-delta and reasoning-delta lines against the .expected.json,
 *   the tool-call lines (the tools are unknown to the CLI: each fails, and
 *   a scripted text answer in the provider's format ends the turn), the
 *   done line and the exit status; the request's path and model, and the
 *   API key from the provider's own variable in the provider's own header.
 *   A recorded failure (an error event, an error body, a call cut off by
 *   max_tokens) ends in the error line, with what streamed before it.
 * - /cli-providers/error/<provider>: an HTTP error body in the provider's
 *   shape, echoing the key, to a prompt and to --list-models: the error
 *   line with the provider's message, the key redacted.
 * - /cli-providers/models/<name>: --list-models against a list in the
 *   provider's shape (--json for the backend's name, plain for an alias).
 *
 * Every API key variable is set, each to another value: only the
 * provider's own reaches the server, and none is ever printed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define MODEL       "test-model"
#define PROMPT      "What is the weather like?"
#define ANSWER      "Done."
#define MAX_PIECE   97

/* Each key holds SECRET, which the CLI's output must never hold. */
#define OPENAI_KEY    "sk-openai-SECRET-1"
#define ANTHROPIC_KEY "sk-ant-SECRET-2"
#define OLLAMA_KEY    "ollama-SECRET-3"
#define GEMINI_KEY    "AIza-gemini-SECRET-4"

static const char * const key_env[] = {
  "OPENAI_API_KEY=" OPENAI_KEY,
  "ANTHROPIC_API_KEY=" ANTHROPIC_KEY,
  "OLLAMA_API_KEY=" OLLAMA_KEY,
  "GEMINI_API_KEY=" GEMINI_KEY,
  "GOOGLE_API_KEY=AIza-google-SECRET-5",
  NULL
};

/* What a recorded answer must come out as, from its .expected.json */
typedef struct
{
  const char *id;         /* NULL when the recording has none */
  const char *name;
  const char *arguments;  /* JSON; NULL or "" when the recording has none */
} ExpectedCall;

typedef struct
{
  JsonNode *root;
  GString  *text;
  GString  *reasoning;
  GArray   *calls;       /* ExpectedCall */
  /* A recorded failure: the error line's code and part of its message */
  const char *error_code;
  const char *error;
  guint     status;      /* the HTTP status it came with */
} Expected;

typedef void (*ExpectFunc) (Expected   *e,
                            JsonObject *result);

typedef struct
{
  const char *name;
  const char *aliases[3];     /* NULL-terminated */
  gboolean    corpus;         /* tests/corpus/<name> holds its recordings */
  const char *suffix;
  const char *content_type;
  ExpectFunc  expect;
  gboolean    root;           /* the base URL is the server's root, not /v1 */
  const char *chat_path;      /* {model} stands for the model */
  const char *models_path;
  const char *key;
  const char *key_header;     /* Authorization: a bearer token */
  const char *answer;         /* a final text answer, ANSWER, in the provider's format */
  guint       http_status;
  const char *http_body;      /* echoes the key */
  const char *http_code;
  const char *http_message;
  const char *models_body;
  const char *models;         /* the names in it, one a line */
} Provider;

/* Expected answers, format by format */

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
}

static void
append_part (GString    *string,
             const char *text,
             const char *separator)
{
  if (text == NULL || text[0] == '\0')
    return;
  if (string->len > 0)
    g_string_append (string, separator);
  g_string_append (string, text);
}

static void
add_call (Expected   *e,
          JsonObject *call,
          const char *id_member,
          const char *arguments_member)
{
  ExpectedCall expected = {
    id_member != NULL ? member_string (call, id_member) : NULL,
    member_string (call, "name"),
    member_string (call, arguments_member),
  };

  g_array_append_val (e->calls, expected);
}

/* output[]: message items, joined by a blank line; reasoning items (their
 * summary, then their text), likewise; function_call items */
static void
expect_openai_responses (Expected   *e,
                         JsonObject *result)
{
  JsonArray *output = json_object_get_array_member (result, "output");

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = json_array_get_object_element (output, i);
      const char *type = member_string (item, "type");
      static const char * const kinds[] = { "summary_text", "reasoning_text" };

      if (g_str_equal (type, "message"))
        append_part (e->text, member_string (item, "text"), "\n\n");
      else if (g_str_equal (type, "function_call"))
        add_call (e, item, "call_id", "arguments");
      else if (g_str_equal (type, "reasoning"))
        for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
          {
            JsonNode *node = json_object_get_member (item, kinds[k]);
            JsonArray *parts = node != NULL ? json_node_get_array (node) : NULL;

            for (guint p = 0; parts != NULL && p < json_array_get_length (parts); p++)
              append_part (e->reasoning, json_array_get_string_element (parts, p), "\n\n");
          }
    }

  /* An error event */
  if (json_object_has_member (result, "error"))
    {
      JsonObject *event = json_object_get_object_member (result, "error");

      e->error_code = "provider";
      e->error = member_string (json_object_get_object_member (event, "error"), "message");
    }
}

/* content[]: text blocks and thinking blocks, each concatenated; tool_use blocks */
static void
expect_anthropic (Expected   *e,
                  JsonObject *result)
{
  JsonArray *content = json_object_get_array_member (result, "content");

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);
      const char *type = member_string (block, "type");

      if (g_str_equal (type, "text"))
        append_part (e->text, member_string (block, "text"), "");
      else if (g_str_equal (type, "thinking"))
        append_part (e->reasoning, member_string (block, "thinking"), "");
      else if (g_str_equal (type, "tool_use"))
        add_call (e, block, "id", "arguments");
    }

  /* Cut off in the middle of a call: none is run, the turn fails */
  if (g_strcmp0 (member_string (result, "stop_reason"), "max_tokens") == 0 && e->calls->len > 0)
    {
      e->error_code = "limit";
      e->error = "cut off";
    }
}

static void
expect_ollama (Expected   *e,
               JsonObject *result)
{
  JsonObject *message = json_object_get_object_member (result, "message");
  JsonArray *calls = json_object_get_array_member (message, "tool_calls");

  append_part (e->text, member_string (message, "content"), "");
  append_part (e->reasoning, member_string (message, "thinking"), "");
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    add_call (e, json_array_get_object_element (calls, i), "id", "arguments_json");
  /* An error body, which came with 400 */
  if ((e->error = member_string (result, "error")) != NULL)
    {
      e->error_code = "http";
      e->status = 400;
    }
}

static void
expect_gemini (Expected   *e,
               JsonObject *result)
{
  JsonArray *calls = json_object_get_array_member (result, "function_calls");

  append_part (e->text, member_string (result, "text"), "");
  append_part (e->reasoning, member_string (result, "thought_text"), "");
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    add_call (e, json_array_get_object_element (calls, i), NULL, "args_json");
}

static void
expected_load (Expected       *e,
               const Provider *provider,
               const char     *path)
{
  g_autofree char *stem = g_strndup (path, strlen (path) - strlen (provider->suffix));
  g_autofree char *expected_path = g_strconcat (stem, ".expected.json", NULL);

  memset (e, 0, sizeof *e);
  e->status = SOUP_STATUS_OK;
  e->root = agent_test_load_json (expected_path);
  e->text = g_string_new (NULL);
  e->reasoning = g_string_new (NULL);
  e->calls = g_array_new (FALSE, TRUE, sizeof (ExpectedCall));
  provider->expect (e, json_object_get_object_member (json_node_get_object (e->root), "result"));
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->root, json_node_unref);
  g_string_free (e->text, TRUE);
  g_string_free (e->reasoning, TRUE);
  g_array_unref (e->calls);
}

/* The providers */

#define SSE(type, json) "event: " type "\ndata: " json "\n\n"

static const Provider providers[] = {
  {
    .name = "openai-responses", .aliases = { "responses" },
    .corpus = TRUE, .suffix = ".sse", .content_type = "text/event-stream",
    .expect = expect_openai_responses,
    .chat_path = "/v1/responses", .models_path = "/v1/models",
    .key = OPENAI_KEY, .key_header = "Authorization",
    .answer =
      SSE ("response.created", "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_2\","
           "\"model\":\"" MODEL "\",\"status\":\"in_progress\",\"output\":[]}}")
      SSE ("response.output_item.added", "{\"type\":\"response.output_item.added\","
           "\"output_index\":0,\"item\":{\"id\":\"msg_2\",\"type\":\"message\","
           "\"role\":\"assistant\",\"content\":[]}}")
      SSE ("response.output_text.delta", "{\"type\":\"response.output_text.delta\","
           "\"output_index\":0,\"content_index\":0,\"delta\":\"" ANSWER "\"}")
      SSE ("response.completed", "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_2\","
           "\"model\":\"" MODEL "\",\"status\":\"completed\","
           "\"usage\":{\"input_tokens\":70,\"output_tokens\":5,\"total_tokens\":75}}}"),
    .http_status = 401,
    .http_body = "{\"error\":{\"message\":\"Incorrect API key provided: " OPENAI_KEY ".\","
                 "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
    .http_code = "authentication", .http_message = "Incorrect API key provided: [redacted].",
    .models_body = "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-5\",\"object\":\"model\"},"
                   "{\"id\":\"gpt-4o-mini\",\"object\":\"model\"}]}",
    .models = "gpt-5\ngpt-4o-mini\n",
  },
  {
    .name = "anthropic", .aliases = { "claude" },
    .corpus = TRUE, .suffix = ".sse", .content_type = "text/event-stream",
    .expect = expect_anthropic, .root = TRUE,
    .chat_path = "/v1/messages", .models_path = "/v1/models",
    .key = ANTHROPIC_KEY, .key_header = "x-api-key",
    .answer =
      SSE ("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_2\","
           "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" MODEL "\",\"content\":[],"
           "\"stop_reason\":null,\"usage\":{\"input_tokens\":70,\"output_tokens\":1}}}")
      SSE ("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
           "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
      SSE ("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
           "\"delta\":{\"type\":\"text_delta\",\"text\":\"" ANSWER "\"}}")
      SSE ("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
      SSE ("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
           "\"stop_sequence\":null},\"usage\":{\"output_tokens\":5}}")
      SSE ("message_stop", "{\"type\":\"message_stop\"}"),
    .http_status = 401,
    .http_body = "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                 "\"message\":\"invalid x-api-key " ANTHROPIC_KEY "\"}}",
    .http_code = "authentication", .http_message = "invalid x-api-key [redacted]",
    .models_body = "{\"data\":[{\"type\":\"model\",\"id\":\"claude-opus-4-1-20250805\","
                   "\"display_name\":\"Claude Opus 4.1\"},{\"type\":\"model\","
                   "\"id\":\"claude-haiku-4-5\",\"display_name\":\"Claude Haiku 4.5\"}],"
                   "\"has_more\":false}",
    .models = "claude-opus-4-1-20250805\nclaude-haiku-4-5\n",
  },
  {
    .name = "ollama",
    .corpus = TRUE, .suffix = ".ndjson", .content_type = "application/x-ndjson",
    .expect = expect_ollama, .root = TRUE,
    .chat_path = "/api/chat", .models_path = "/api/tags",
    .key = OLLAMA_KEY, .key_header = "Authorization",
    .answer =
      "{\"model\":\"" MODEL "\",\"created_at\":\"2025-05-01T10:00:00Z\",\"message\":"
      "{\"role\":\"assistant\",\"content\":\"" ANSWER "\"},\"done\":false}\n"
      "{\"model\":\"" MODEL "\",\"created_at\":\"2025-05-01T10:00:01Z\",\"message\":"
      "{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\","
      "\"prompt_eval_count\":70,\"eval_count\":5}\n",
    .http_status = 400,
    .http_body = "{\"error\":\"invalid key " OLLAMA_KEY " in options\"}",
    .http_code = "http", .http_message = "invalid key [redacted] in options",
    .models_body = "{\"models\":[{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\","
                   "\"size\":2019393189,\"details\":{\"family\":\"llama\"}},"
                   "{\"name\":\"qwen3:8b\",\"model\":\"qwen3:8b\"}]}",
    .models = "llama3.2:latest\nqwen3:8b\n",
  },
  {
    .name = "gemini", .aliases = { "google" },
    .corpus = TRUE, .suffix = ".sse", .content_type = "text/event-stream",
    .expect = expect_gemini, .root = TRUE,
    .chat_path = "/v1beta/models/{model}:streamGenerateContent", .models_path = "/v1beta/models",
    .key = GEMINI_KEY, .key_header = "x-goog-api-key",
    .answer =
      "data: {\"candidates\":[{\"content\":{\"role\":\"model\","
      "\"parts\":[{\"text\":\"" ANSWER "\"}]},\"finishReason\":\"STOP\",\"index\":0}],"
      "\"usageMetadata\":{\"promptTokenCount\":70,\"candidatesTokenCount\":5,"
      "\"totalTokenCount\":75},\"modelVersion\":\"" MODEL "\"}\r\n\r\n",
    .http_status = 400,
    .http_body = "{\"error\":{\"code\":400,\"message\":\"API key not valid: " GEMINI_KEY
                 ". Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\"}}",
    .http_code = "http",
    .http_message = "API key not valid: [redacted]. Please pass a valid API key.",
    .models_body = "{\"models\":[{\"name\":\"models/gemini-2.5-flash\","
                   "\"supportedGenerationMethods\":[\"generateContent\",\"countTokens\"]},"
                   "{\"name\":\"models/text-embedding-004\","
                   "\"supportedGenerationMethods\":[\"embedContent\"]},"
                   "{\"name\":\"models/gemini-2.5-pro\"}]}",
    .models = "gemini-2.5-flash\ngemini-2.5-pro\n",
  },
  {
    /* Chat Completions streams are test-cli.c's */
    .name = "openai", .aliases = { "openai-chat", "openai-compatible" },
    .chat_path = "/v1/chat/completions", .models_path = "/v1/models",
    .key = OPENAI_KEY, .key_header = "Authorization",
    .http_status = 400,
    .http_body = "{\"error\":{\"message\":\"Invalid 'messages': key " OPENAI_KEY " is not a "
                 "message.\",\"type\":\"invalid_request_error\",\"param\":\"messages\","
                 "\"code\":null}}",
    .http_code = "http", .http_message = "Invalid 'messages': key [redacted] is not a message.",
    .models_body = "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o\",\"object\":\"model\"}]}",
    .models = "gpt-4o\n",
  },
};

/* Running the CLI */

/* The provider called @name, or one of its aliases */
static const Provider *
find_provider (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    if (g_str_equal (providers[i].name, name) ||
        g_strv_contains ((const char * const *) providers[i].aliases, name))
      return &providers[i];
  g_assert_not_reached ();
}

static char *
base_url (const Provider  *provider,
          AgentTestServer *server)
{
  const char *url = agent_test_server_get_base_url (server);

  g_assert_true (g_str_has_suffix (url, "/v1"));
  return provider->root ? g_strndup (url, strlen (url) - strlen ("/v1")) : g_strdup (url);
}

/* Runs agent-cli with every key set, as @name of @provider, then @args. */
static AgentTestProcess *
run_cli (const Provider     *provider,
         const char         *name,
         AgentTestServer    *server,
         const char * const *args)
{
  g_autofree char *url = base_url (provider, server);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  AgentTestProcess *cli;

  g_strv_builder_add_many (builder, "--provider", name, "--base-url", url, "--model", MODEL,
                           "--max-retries", "0", NULL);
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  cli = agent_test_cli_run_full (key_env, NULL, (const char * const *) argv);
  if (g_strv_contains (args, "--json"))
    agent_test_process_parse_json (cli);

  if (strstr (cli->out->str, "SECRET") != NULL || strstr (cli->err->str, "SECRET") != NULL)
    g_error ("An API key leaked; stdout:\n%s\nstderr:\n%s", cli->out->str, cli->err->str);
  return cli;
}

/* Request @index came to @path with the provider's key, and no other. */
static void
assert_request (const Provider  *provider,
                AgentTestServer *server,
                guint            index,
                const char      *path)
{
  gboolean bearer = g_str_equal (provider->key_header, "Authorization");
  g_autofree char *key = g_strconcat (bearer ? "Bearer " : "", provider->key, NULL);

  g_assert_cmpstr (agent_test_server_get_request_path (server, index), ==, path);
  g_assert_cmpstr (agent_test_server_get_request_header (server, index, provider->key_header), ==,
                   key);
  if (!bearer)
    g_assert_null (agent_test_server_get_request_header (server, index, "Authorization"));
  if (g_str_equal (provider->name, "anthropic"))
    g_assert_cmpstr (agent_test_server_get_request_header (server, index, "anthropic-version"), ==,
                     "2023-06-01");
}

static void
assert_chat_request (const Provider  *provider,
                     AgentTestServer *server,
                     guint            index)
{
  g_auto(GStrv) parts = g_strsplit (provider->chat_path, "{model}", -1);
  g_autofree char *path = g_strjoinv (MODEL, parts);
  JsonNode *body = agent_test_server_get_request_body (server, index);
  g_autofree char *text = NULL;

  assert_request (provider, server, index, path);
  g_assert_nonnull (body);
  text = json_to_string (body, FALSE);
  agent_test_assert_contains (text, PROMPT);
  if (g_strv_length (parts) == 1)
    g_assert_cmpstr (agent_test_get_string (json_node_get_object (body), "model"), ==, MODEL);
}

/* The text of every reasoning-delta line, concatenated */
static char *
streamed_reasoning (AgentTestProcess *cli)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = agent_test_process_count_events (cli, "reasoning-delta");

  for (guint i = 0; i < n; i++)
    g_string_append (text, agent_test_get_string (agent_test_process_nth_event (cli,
                                                                                "reasoning-delta",
                                                                                i), "text"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* /cli-providers/stream/<provider>/<file> */

/* The calls came out as recorded, each failed as unknown to the CLI, and
 * went back to the model with the second request. */
static void
assert_calls (AgentTestProcess *cli,
              AgentTestServer  *server,
              Expected         *e)
{
  g_autofree char *second = json_to_string (agent_test_server_get_request_body (server, 1), FALSE);

  for (guint i = 0; i < e->calls->len; i++)
    {
      ExpectedCall *want = &g_array_index (e->calls, ExpectedCall, i);
      JsonObject *call = agent_test_process_nth_event (cli, "tool-call", i);
      const char *id = agent_test_get_string (call, "id");

      g_assert_cmpstr (agent_test_get_string (call, "name"), ==, want->name);
      g_assert_nonnull (id);
      if (want->id != NULL)
        g_assert_cmpstr (id, ==, want->id);
      if (want->arguments != NULL && want->arguments[0] != '\0')
        {
          g_autoptr(JsonNode) got = agent_test_parse_json (agent_test_get_string (call,
                                                                                  "arguments"));
          g_autoptr(JsonNode) wanted = agent_test_parse_json (want->arguments);

          if (!agent_test_json_equal (got, wanted))
            g_error ("Call %u: arguments %s, not %s", i, agent_test_get_string (call, "arguments"),
                     want->arguments);
        }

      agent_test_assert_contains (agent_test_cli_call_error (cli, id), want->name);
      agent_test_assert_contains (second, want->name);
    }
}

static void
test_stream (gconstpointer data)
{
  const char *path = data;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *format = g_path_get_basename (dir);
  const Provider *provider = find_provider (format);
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  g_autofree char *reasoning = NULL;
  AgentTestResponse *response;
  gboolean ran_tools;
  Expected e;

  expected_load (&e, provider, path);
  ran_tools = e.calls->len > 0 && e.error == NULL;

  response = agent_test_server_add_response (server, e.status);
  agent_test_response_set_content_type (response, e.status == SOUP_STATUS_OK
                                                  ? provider->content_type : "application/json");
  agent_test_response_add_file_in_pieces (response, path, g_str_hash (name), MAX_PIECE);
  if (ran_tools)
    {
      response = agent_test_server_add_response (server, 200);
      agent_test_response_set_content_type (response, provider->content_type);
      agent_test_response_add_bytes (response, provider->answer, -1);
    }

  cli = run_cli (provider, provider->name, server, AGENT_TEST_ARGS ("--json", PROMPT));

  g_assert_cmpstr (cli->err->str, ==, "");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, (ran_tools ? 2 : 1));
  assert_chat_request (provider, server, 0);

  /* What streamed, whatever the end */
  text = agent_test_cli_streamed_text (cli);
  reasoning = streamed_reasoning (cli);
  agent_test_assert_same_text (reasoning, e.reasoning->str);
  if (ran_tools)
    g_string_append (e.text, ANSWER);
  agent_test_assert_same_text (text, e.text->str);

  if (e.error != NULL)
    {
      agent_test_process_assert_exit (cli, 1);
      agent_test_assert_contains (agent_test_cli_assert_error (cli, e.error_code), e.error);
    }
  else
    {
      JsonObject *message;

      agent_test_process_assert_exit (cli, 0);
      /* The last step's message: the scripted answer, or the recorded one */
      g_assert_cmpstr (agent_test_cli_done_content (cli), ==, ran_tools ? ANSWER : text);
      message = json_object_get_object_member (agent_test_process_last_event (cli), "message");
      g_assert_cmpstr (json_object_get_string_member_with_default (message, "reasoning", ""), ==,
                       ran_tools ? "" : reasoning);
      g_assert_cmpuint (agent_test_process_count_events (cli, "step-finished"), ==,
                        (ran_tools ? 2 : 1));
      g_assert_cmpuint (agent_test_process_count_events (cli, "tool-call"), ==, e.calls->len);
      if (ran_tools)
        {
          assert_chat_request (provider, server, 1);
          assert_calls (cli, server, &e);
        }
    }

  expected_clear (&e);
}

/* /cli-providers/error/<provider>: a prompt, then --list-models */

static void
test_http_error (gconstpointer data)
{
  const Provider *provider = data;
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *status = g_strdup_printf ("%u", provider->http_status);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      const char *message;

      agent_test_response_set_body (agent_test_server_add_response (server, provider->http_status),
                                    "application/json", provider->http_body);
      cli = run_cli (provider, provider->name, server,
                     i == 0 ? AGENT_TEST_ARGS ("--json", PROMPT)
                            : AGENT_TEST_ARGS ("--json", "--list-models"));

      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, provider->http_code);
      agent_test_assert_contains (message, provider->http_message);
      agent_test_assert_contains (message, status);
      g_assert_cmpuint (cli->events->len, ==, 1);
      g_assert_cmpstr (cli->err->str, ==, "");
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  assert_chat_request (provider, server, 0);
  assert_request (provider, server, 1, provider->models_path);
}

/* /cli-providers/models/<name>: --json for the backend's name, plain for an alias */

static void
test_models (gconstpointer data)
{
  const char *name = data;
  const Provider *provider = find_provider (name);
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(GString) names = g_string_new (NULL);
  gboolean json = g_str_equal (name, provider->name);

  agent_test_response_set_body (agent_test_server_add_response (server, 200), "application/json",
                                provider->models_body);

  cli = run_cli (provider, name, server,
                 json ? AGENT_TEST_ARGS ("--list-models", "--json")
                      : AGENT_TEST_ARGS ("--list-models"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");
  if (json)
    {
      JsonObject *event = agent_test_process_last_event (cli);
      JsonArray *models = json_object_get_array_member (event, "models");

      g_assert_cmpuint (cli->events->len, ==, 1);
      g_assert_cmpstr (agent_test_event_type (event), ==, "models");
      for (guint i = 0; i < json_array_get_length (models); i++)
        g_string_append_printf (names, "%s\n", json_array_get_string_element (models, i));
    }
  else
    g_string_append (names, cli->out->str);
  g_assert_cmpstr (names->str, ==, provider->models);

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  assert_request (provider, server, 0, provider->models_path);
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Accept"), ==,
                   "application/json");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint p = 0; p < G_N_ELEMENTS (providers); p++)
    {
      const Provider *provider = &providers[p];
      g_autofree char *error_path = g_strdup_printf ("/cli-providers/error/%s", provider->name);

      if (provider->corpus)
        {
          g_auto(GStrv) files = agent_test_list_corpus (provider->name, provider->suffix);

          g_assert_nonnull (files[0]);
          for (guint i = 0; files[i] != NULL; i++)
            {
              g_autofree char *base = g_path_get_basename (files[i]);
              g_autofree char *path = NULL;

              base[strlen (base) - strlen (provider->suffix)] = '\0';
              path = g_strdup_printf ("/cli-providers/stream/%s/%s", provider->name, base);
              g_test_add_data_func_full (path, g_strdup (files[i]), test_stream, g_free);
            }
        }

      g_test_add_data_func (error_path, provider, test_http_error);
      for (guint a = 0; a < G_N_ELEMENTS (provider->aliases); a++)
        {
          const char *name = a == 0 ? provider->name : provider->aliases[a - 1];
          g_autofree char *path = g_strdup_printf ("/cli-providers/models/%s", name);

          if (name != NULL)
            g_test_add_data_func (path, name, test_models);
        }
    }

  return g_test_run ();
}
