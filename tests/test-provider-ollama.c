/* test-provider-ollama.c — Ollama's native chat API (/api/chat, NDJSON)
 *
 * - Every tests/corpus/ollama/<name>.ndjson decoded by the backend (whole,
 *   one byte at a time, in random pieces with several seeds, and cut in two
 *   at every byte) and compared with the "result" of its .expected.json;
 *   then replayed end to end over HTTP through AgentSession.
 * - The request body, field by field (roles, tool calls written back with
 *   their arguments as objects, tool results, tools, options, think).
 * - A two-step tool round trip with thinking, against the in-process
 *   server; errors (HTTP error bodies, an error line mid-stream, a cut
 *   stream); model listing.
 *
 * Fields of expected.json not compared, and why:
 *  - "message.role": always "assistant"; compared with the message's role;
 *  - "done": compared with the decoder's end marker, not the message;
 *  - "tool_calls[].index": the wire index; the library's index is the
 *    position, which is compared (and equals the wire index here);
 *  - "source", "body_provenance", "notes", …: about the corpus, not the
 *    stream.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-provider-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define CUT_LIMIT 4096
#define MAX_PIECE 64

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

/* Helpers */

static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
array_member (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* A string member, NULL when absent, null or not a string. */
static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
expect_str (GString    *problems,
            const char *what,
            const char *expected,
            const char *actual)
{
  if (g_strcmp0 (expected, actual) != 0)
    g_string_append_printf (problems, "\n  %s: expected “%s”, got “%s”", what,
                            expected ? expected : "(null)", actual ? actual : "(null)");
}

static void
expect_int (GString    *problems,
            const char *what,
            gint64      expected,
            gint64      actual)
{
  if (expected != actual)
    g_string_append_printf (problems,
                            "\n  %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT,
                            what, expected, actual);
}

static void
expect_true (GString    *problems,
             const char *what,
             gboolean    value)
{
  if (!value)
    g_string_append_printf (problems, "\n  %s", what);
}

static void
expect_json (GString    *problems,
             const char *what,
             JsonNode   *expected,
             JsonNode   *actual)
{
  if (!agent_test_json_equal (expected, actual))
    {
      g_autofree char *want = expected ? json_to_string (expected, FALSE) : g_strdup ("(none)");
      g_autofree char *got = actual ? json_to_string (actual, FALSE) : g_strdup ("(none)");

      expect_str (problems, what, want, got);
    }
}

/* JSON written with ' for ", to be readable in C strings */
static char *
ticks (const char *text)
{
  return g_strdelimit (g_strdup (text), "'", '"');
}

static void
add_line (AgentTestResponse *response,
          const char        *json)
{
  g_autofree char *line = g_strconcat (json, "\n", NULL);

  agent_test_response_add_bytes (response, g_strdelimit (line, "'", '"'), -1);
}

static AgentTestResponse *
add_ndjson_response (AgentTestServer *server)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  agent_test_response_set_content_type (response, "application/x-ndjson");
  return response;
}

static AgentProvider *
ollama_provider_new (AgentTestServer *server)
{
  AgentProvider *provider = agent_provider_new ("ollama", NULL);
  const char *base_url = agent_test_server_get_base_url (server);
  /* The server's URL ends in /v1, for the OpenAI API; Ollama's is the root. */
  g_autofree char *root = g_strndup (base_url, strlen (base_url) - strlen ("/v1"));

  g_assert_true (g_str_has_suffix (base_url, "/v1"));
  agent_provider_set_base_url (provider, root);
  return provider;
}

/* Corpus: expectations */

typedef struct
{
  char       *path;
  JsonNode   *root;
  JsonObject *result;
  JsonObject *message;
  JsonArray  *calls;
  const char *error;
  char       *body;
  gsize       body_len;
  /* From an independent reading of the body with json-glib */
  guint       ref_lines;       /* non-empty lines */
  guint       ref_events;      /* lines the decoder must see: up to done or error */
  guint       ref_text;        /* non-empty message.content */
  guint       ref_reasoning;   /* non-empty message.thinking */
  guint       ref_fragments;   /* calls with arguments */
} Expected;

static void
reference_read (Expected *e)
{
  g_auto(GStrv) lines = g_strsplit (e->body, "\n", -1);
  gboolean over = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *root;
      JsonObject *message;
      JsonArray *calls;
      const char *s;

      g_strchomp (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      e->ref_lines++;
      if (over)
        continue;
      e->ref_events++;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      root = json_node_get_object (json_parser_get_root (parser));
      if (json_object_has_member (root, "error"))
        {
          over = TRUE;
          continue;
        }

      message = object_member (root, "message");
      if ((s = string_member (message, "content")) && s[0] != '\0')
        e->ref_text++;
      if ((s = string_member (message, "thinking")) && s[0] != '\0')
        e->ref_reasoning++;
      calls = array_member (message, "tool_calls");
      for (guint k = 0; calls != NULL && k < json_array_get_length (calls); k++)
        if (object_member (object_member (json_array_get_object_element (calls, k), "function"),
                           "arguments"))
          e->ref_fragments++;

      if (json_object_has_member (root, "done") && json_object_get_boolean_member (root, "done"))
        over = TRUE;
    }
}

static void
expected_load (Expected   *e,
               const char *path)
{
  g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".ndjson"));
  g_autofree char *expected_path = g_strconcat (stem, ".expected.json", NULL);
  g_autoptr(GError) error = NULL;
  JsonObject *transport;

  memset (e, 0, sizeof *e);
  e->path = g_strdup (path);
  e->root = agent_test_load_json (expected_path);
  e->result = object_member (json_node_get_object (e->root), "result");
  e->message = object_member (e->result, "message");
  e->calls = array_member (e->message, "tool_calls");
  e->error = string_member (e->result, "error");
  g_file_get_contents (path, &e->body, &e->body_len, &error);
  g_assert_no_error (error);

  reference_read (e);
  transport = object_member (json_node_get_object (e->root), "transport");
  g_assert_cmpuint (e->ref_lines, ==, json_object_get_int_member (transport, "lines"));
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->path, g_free);
  g_clear_pointer (&e->root, json_node_unref);
  g_clear_pointer (&e->body, g_free);
}

static guint
expected_n_calls (Expected *e)
{
  return e->calls ? json_array_get_length (e->calls) : 0;
}

/* Corpus: comparison */

/* Usage: the raw object holds every counter of the last line, and the
 * counts are read from Ollama's names. */
static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *expected)
{
  g_autoptr(GList) members = NULL;
  JsonObject *raw;
  gint64 prompt, completion;

  if (expected == NULL)
    {
      expect_true (problems, "usage: expected none", usage == NULL);
      return;
    }
  if (usage == NULL || agent_usage_get_raw (usage) == NULL)
    {
      expect_true (problems, "usage: expected some, got none", FALSE);
      return;
    }

  raw = json_node_get_object (agent_usage_get_raw (usage));
  members = json_object_get_members (expected);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *what = g_strdup_printf ("usage.%s", (char *)l->data);

      expect_json (problems, what, json_object_get_member (expected, l->data),
                   json_object_get_member (raw, l->data));
    }

  prompt = json_object_get_int_member (expected, "prompt_eval_count");
  completion = json_object_get_int_member (expected, "eval_count");
  expect_int (problems, "prompt tokens", prompt, agent_usage_get_prompt_tokens (usage));
  expect_int (problems, "completion tokens", completion, agent_usage_get_completion_tokens (usage));
  expect_int (problems, "total tokens", prompt + completion, agent_usage_get_total_tokens (usage));
}

typedef enum
{
  CALLS_READY,        /* wire level: the stream ended, the calls are ready */
  CALLS_UNKNOWN_TOOL, /* end to end without tools: each failed as unknown */
} CallsState;

static void
compare_message (GString      *problems,
                 AgentMessage *message,
                 Expected     *e,
                 CallsState    calls_state)
{
  g_autoptr(JsonNode) empty_object = agent_test_parse_json ("{}");
  const char *content = agent_message_get_content (message);
  guint n_calls = expected_n_calls (e);

  expect_true (problems, "message.role",
               agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT);
  /* Ollama's content is always a string: no line at all is "" too. */
  expect_str (problems, "message.content", string_member (e->message, "content"),
              content ? content : "");
  expect_str (problems, "message.thinking", string_member (e->message, "thinking"),
              agent_message_get_reasoning (message));
  expect_str (problems, "message.refusal", NULL, agent_message_get_refusal (message));
  expect_str (problems, "done_reason", string_member (e->result, "done_reason"),
              agent_message_get_finish_reason (message));
  expect_str (problems, "model", string_member (e->result, "model"),
              agent_message_get_model (message));
  compare_usage (problems, agent_message_get_usage (message), object_member (e->result, "usage"));

  expect_int (problems, "number of tool calls", n_calls, agent_message_get_n_tool_calls (message));
  if (n_calls != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (e->calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      const char *arguments_json = string_member (want, "arguments_json");
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) error = NULL;

      expect_int (problems, "tool call index (position)", i, agent_tool_call_get_index (call));
      if (json_object_has_member (want, "index"))
        expect_int (problems, "tool call wire index", json_object_get_int_member (want, "index"),
                    agent_tool_call_get_index (call));
      if (string_member (want, "id") != NULL || calls_state == CALLS_READY)
        expect_str (problems, "tool call id", string_member (want, "id"),
                    agent_tool_call_get_id (call));
      else
        expect_true (problems, "the session gives a call without an id one",
                     agent_tool_call_get_id (call) != NULL);
      expect_str (problems, "tool call name", string_member (want, "name"),
                  agent_tool_call_get_name (call));
      /* Serialized once, compactly; no arguments at all is "" (read as {}). */
      expect_str (problems, "tool call arguments", arguments_json ? arguments_json : "",
                  agent_tool_call_get_arguments (call));
      parsed = agent_tool_call_parse_arguments (call, &error);
      if (json_object_get_boolean_member_with_default (want, "arguments_missing", FALSE))
        expect_json (problems, "missing arguments parse as {}", empty_object, parsed);
      else
        expect_json (problems, "tool call arguments (parsed)",
                     json_object_get_member (want, "arguments"), parsed);

      if (calls_state == CALLS_READY)
        expect_int (problems, "tool call state", AGENT_TOOL_CALL_STATE_READY,
                    agent_tool_call_get_state (call));
      else
        expect_int (problems, "tool call state", AGENT_TOOL_CALL_STATE_FAILED,
                    agent_tool_call_get_state (call));
    }
}

static char *
replay_compare (AgentTestReplay *r,
                Expected        *e)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message = agent_test_replay_get_message (r);
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);

  g_string_append (problems, r->problems->str);

  if (e->error != NULL)
    {
      /* A last line without its newline is read at the end of the body. */
      GError *provider_error = r->error ? r->error : r->finish_error;

      expect_true (problems, "the error line is AGENT_ERROR_PROVIDER",
                   g_error_matches (provider_error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
      expect_true (problems, "the error carries the provider's message",
                   provider_error != NULL && strstr (provider_error->message, e->error) != NULL);
      expect_true (problems, "finish() fails after an error", !r->finish_ok);
      if (r->error != NULL)
        expect_true (problems, "finish() after an error is AGENT_ERROR_PROTOCOL",
                     g_error_matches (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
    }
  else
    {
      if (r->error != NULL)
        expect_str (problems, "error", NULL, r->error->message);
      expect_true (problems, "finish() succeeds", r->finish_ok);
    }

  expect_int (problems, "end marker seen",
              json_object_get_boolean_member_with_default (e->result, "done", FALSE),
              agent_stream_decoder_is_done (r->decoder));
  expect_int (problems, "lines decoded", e->ref_events,
              agent_stream_decoder_get_n_events (r->decoder));

  compare_message (problems, message, e, CALLS_READY);

  /* What the listener heard */
  expect_str (problems, "text deltas concatenated", content ? content : "", r->text->str);
  expect_str (problems, "reasoning deltas concatenated", reasoning ? reasoning : "",
              r->reasoning->str);
  expect_int (problems, "text deltas", e->ref_text, r->n_text);
  expect_int (problems, "reasoning deltas", e->ref_reasoning, r->n_reasoning);
  expect_int (problems, "argument fragments", e->ref_fragments, r->n_fragments);
  expect_int (problems, "calls the listener heard of", agent_message_get_n_tool_calls (message),
              g_hash_table_size (r->fragments));
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      expect_str (problems, "a call's fragments concatenated", agent_tool_call_get_arguments (call),
                  agent_test_replay_get_fragments (r, call));
    }

  if (problems->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&problems), FALSE);
}

typedef enum
{
  FEED_WHOLE,
  FEED_BYTES,
  FEED_RANDOM,
  FEED_CUT,
} FeedMode;

/* FALSE (and the test failed) if the replay did not give what was expected */
static gboolean
replay (Expected   *e,
        FeedMode    mode,
        GRand      *rand,
        gsize       cut,
        const char *context)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_ollama_backend);
  g_autofree char *problems = NULL;

  /* After the first error the rest is not fed: a failed stream is over. */
  switch (mode)
    {
    case FEED_WHOLE:
      agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len, AGENT_TEST_FEED_WHOLE,
                       NULL, &r->error);
      break;
    case FEED_BYTES:
      agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len, AGENT_TEST_FEED_BYTES,
                       NULL, &r->error);
      break;
    case FEED_RANDOM:
      agent_test_feed_pieces (agent_test_replay_feed, r, e->body, e->body_len, MAX_PIECE, rand,
                              &r->error);
      break;
    case FEED_CUT:
      agent_test_feed_cut (agent_test_replay_feed, r, e->body, e->body_len, cut, &r->error);
      break;
    default:
      g_assert_not_reached ();
    }
  agent_test_replay_finish (r);

  if ((problems = replay_compare (r, e)) == NULL)
    return TRUE;
  g_test_fail_printf ("%s, %s:%s", e->path, context, problems);
  return FALSE;
}

static void
test_corpus_wire (gconstpointer data)
{
  Expected e;

  expected_load (&e, data);

  if (replay (&e, FEED_WHOLE, NULL, 0, "fed whole") &&
      replay (&e, FEED_BYTES, NULL, 0, "fed one byte at a time"))
    {
      for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
        {
          g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[s]);
          g_autofree char *context = g_strdup_printf ("random pieces, seed %u", seeds[s]);

          if (!replay (&e, FEED_RANDOM, rand, 0, context))
            break;
        }

      for (gsize cut = 1; e.body_len < CUT_LIMIT && cut < e.body_len; cut++)
        {
          g_autofree char *context = g_strdup_printf ("cut at byte %zu", cut);

          if (!replay (&e, FEED_CUT, NULL, cut, context))
            break;
        }
    }

  expected_clear (&e);
}

/* Corpus: end to end, through AgentSession over HTTP */

static void
collect_cb (AgentSession *session,
            AgentMessage *message,
            const char   *delta,
            GString      *into)
{
  g_string_append (into, delta);
}

static void
add_final_answer (AgentTestServer *server,
                  const char      *text)
{
  AgentTestResponse *response = add_ndjson_response (server);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *line = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "llama3.2");
  json_builder_set_member_name (builder, "message");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "done");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  line = json_to_string (node, FALSE);

  add_line (response, line);
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':''},"
                      "'done':true,'done_reason':'stop','prompt_eval_count':7,'eval_count':2}");
}

static void
test_corpus_http (gconstpointer data)
{
  g_autoptr(JsonNode) empty_object = agent_test_parse_json ("{}");
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) reasoning = g_string_new (NULL);
  AgentTestServer *server = agent_test_server_new ();
  AgentProvider *provider = ollama_provider_new (server);
  AgentSession *session = agent_session_new (provider);
  AgentTestTurn turn = { 0 };
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (session));
  guint n_calls;
  Expected e;

  expected_load (&e, data);
  n_calls = expected_n_calls (&e);

  if (e.error != NULL)
    {
      /* The recording was the body of an HTTP 400 */
      AgentTestResponse *response = agent_test_server_add_response (server, 400);

      agent_test_response_set_body (response, "application/json", e.body);
    }
  else
    {
      AgentTestResponse *response = agent_test_server_add_response (server, 200);

      agent_test_response_set_content_type (response, "application/x-ndjson");
      agent_test_response_add_file_in_pieces (response, e.path, g_str_hash (e.path), MAX_PIECE);
      if (n_calls > 0)
        add_final_answer (server, "All done.");
    }

  g_signal_connect (session, "text-delta", G_CALLBACK (collect_cb), text);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (collect_cb), reasoning);
  agent_test_turn_run (&turn, session, "Go", NULL);

  if (e.error != NULL)
    {
      expect_true (problems, "the turn fails with AGENT_ERROR_HTTP",
                   g_error_matches (turn.error, AGENT_ERROR, AGENT_ERROR_HTTP));
      expect_true (problems, "the error carries the provider's message",
                   turn.error != NULL && strstr (turn.error->message, e.error) != NULL);
    }
  else if (turn.error != NULL)
    expect_str (problems, "the turn failed", NULL, turn.error->message);
  else
    {
      g_autoptr(AgentMessage) first = g_list_model_get_item (memory, 1);
      const char *reasoning_text = agent_message_get_reasoning (first);

      expect_int (problems, "requests", n_calls > 0 ? 2 : 1,
                  agent_test_server_get_n_requests (server));
      expect_int (problems, "messages in memory", n_calls > 0 ? 3 + n_calls : 2,
                  g_list_model_get_n_items (memory));
      compare_message (problems, first, &e, n_calls > 0 ? CALLS_UNKNOWN_TOOL : CALLS_READY);
      expect_int (problems, "first message state", AGENT_MESSAGE_STATE_COMPLETE,
                  agent_message_get_state (first));
      expect_str (problems, "reasoning-delta signals", reasoning_text ? reasoning_text : "",
                  reasoning->str);

      if (n_calls > 0)
        {
          JsonObject *body = json_node_get_object (agent_test_server_get_request_body (server, 1));
          JsonArray *messages = array_member (body, "messages");
          JsonObject *assistant = json_array_get_object_element (messages, 1);
          JsonArray *calls = array_member (assistant, "tool_calls");

          expect_str (problems, "text-delta signals", "All done.", text->str);
          expect_int (problems, "messages sent back", 2 + n_calls,
                      json_array_get_length (messages));
          expect_int (problems, "calls sent back", n_calls,
                      calls ? json_array_get_length (calls) : 0);
          expect_str (problems, "thinking sent back", string_member (e.message, "thinking"),
                      string_member (assistant, "thinking"));
          for (guint i = 0; calls != NULL && i < n_calls && i < json_array_get_length (calls); i++)
            {
              JsonObject *want = json_array_get_object_element (e.calls, i);
              JsonObject *call = json_array_get_object_element (calls, i);
              JsonObject *function = object_member (call, "function");
              JsonObject *result = json_array_get_object_element (messages, 2 + i);
              JsonNode *arguments = json_object_get_member (want, "arguments");

              expect_str (problems, "call name sent back", string_member (want, "name"),
                          string_member (function, "name"));
              if (JSON_NODE_HOLDS_NULL (arguments))
                expect_json (problems, "no arguments go back as {}", empty_object,
                             json_object_get_member (function, "arguments"));
              else
                expect_json (problems, "arguments sent back as an object", arguments,
                             json_object_get_member (function, "arguments"));
              expect_str (problems, "tool result role", "tool", string_member (result, "role"));
              expect_str (problems, "tool result tool_name", string_member (want, "name"),
                          string_member (result, "tool_name"));
              expect_str (problems, "tool result matches its call", string_member (call, "id"),
                          string_member (result, "tool_call_id"));
            }
        }
      else
        expect_str (problems, "text-delta signals", string_member (e.message, "content"),
                    text->str);
    }

  if (problems->len > 0)
    g_test_fail_printf ("%s:%s", e.path, problems->str);

  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
  agent_test_server_free (server);
  expected_clear (&e);
}

/* The request body */

static JsonObject *
build_request (AgentProvider *provider,
               const char    *model,
               const char    *system_prompt,
               GListModel    *messages,
               GListModel    *tools,
               char         **text)
{
  AgentRequest request = { provider, model, system_prompt, messages, tools };
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;

  body = agent_ollama_backend.build_body (&request, &error);
  g_assert_no_error (error);
  g_assert_nonnull (body);
  json = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  root = agent_test_parse_json (json);
  if (text != NULL)
    *text = g_steal_pointer (&json);
  return json_object_ref (json_node_get_object (root));
}

static void
test_request_think (void)
{
  static const struct {
    const char           *model;
    AgentReasoningEffort  effort;
    const char           *think;   /* the JSON of "think", NULL for none */
  } cases[] = {
    { "qwen3:8b", AGENT_REASONING_EFFORT_DEFAULT, NULL },
    { "qwen3:8b", AGENT_REASONING_EFFORT_NONE, "false" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_LOW, "true" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_MEDIUM, "true" },
    { "qwen3:8b", AGENT_REASONING_EFFORT_HIGH, "true" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_DEFAULT, NULL },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_NONE, "false" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_LOW, "\"low\"" },
    { "gpt-oss:120b-cloud", AGENT_REASONING_EFFORT_MEDIUM, "\"medium\"" },
    { "gpt-oss:20b", AGENT_REASONING_EFFORT_HIGH, "\"high\"" },
  };
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");

  g_list_store_append (messages, user);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) body = NULL;
      JsonNode *think;

      agent_provider_set_reasoning_effort (provider, cases[i].effort);
      body = build_request (provider, cases[i].model, NULL, G_LIST_MODEL (messages), NULL, NULL);
      think = json_object_get_member (body, "think");

      if (cases[i].think == NULL)
        g_assert_null (think);
      else
        {
          g_autofree char *json = json_to_string (think, FALSE);

          g_assert_cmpstr (json, ==, cases[i].think);
        }
    }
}

static AgentMessage *
assistant_with_calls (const char *content,
                      const char *reasoning,
                      ...) G_GNUC_NULL_TERMINATED;

/* An assistant message with calls, given as id, name, arguments, … NULL */
static AgentMessage *
assistant_with_calls (const char *content,
                      const char *reasoning,
                      ...)
{
  AgentMessage *message = g_object_new (AGENT_TYPE_MESSAGE,
                                        "role", AGENT_MESSAGE_ROLE_ASSISTANT,
                                        "content", content,
                                        "reasoning", reasoning,
                                        NULL);
  const char *id;
  va_list args;

  va_start (args, reasoning);
  while ((id = va_arg (args, const char *)) != NULL)
    {
      const char *name = va_arg (args, const char *);
      const char *arguments = va_arg (args, const char *);
      g_autoptr(AgentToolCall) call = agent_tool_call_new (id, name, arguments);

      agent_message_add_tool_call (message, call);
    }
  va_end (args);

  return message;
}

static void
test_request_body (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(GListStore) tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(AgentMessage) system = agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Count");
  g_autoptr(AgentMessage) assistant = NULL;
  g_autoptr(AgentMessage) result = NULL;
  g_autoptr(AgentMessage) failed = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(JsonNode) messages_node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;

  assistant = assistant_with_calls (NULL, NULL,
                                    "call_empty", "count", "",
                                    "call_big", "count",
                                    "{\"n\": 12345678901234567890, \"x\": 1.50}",
                                    "call_cut", "count", "{\"n\": 1",
                                    "call_list", "count", "[1, 2]",
                                    NULL);
  result = agent_message_new_tool_result ("call_empty", "count", "3", FALSE);
  failed = agent_message_new_tool_result ("call_cut", "count", "Error: not valid JSON", TRUE);
  g_list_store_append (messages, system);
  g_list_store_append (messages, user);
  g_list_store_append (messages, assistant);
  g_list_store_append (messages, result);
  g_list_store_append (messages, failed);

  /* No system prompt, tools, max tokens or effort: none of them is sent. */
  body = build_request (provider, "llama3.2", "", G_LIST_MODEL (messages), G_LIST_MODEL (tools),
                        &text);
  g_assert_false (json_object_has_member (body, "tools"));
  g_assert_false (json_object_has_member (body, "options"));
  g_assert_false (json_object_has_member (body, "think"));
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "llama3.2");
  g_assert_true (json_object_get_boolean_member (body, "stream"));

  json = ticks ("[{'role': 'system', 'content': 'Be brief.'},"
                " {'role': 'user', 'content': 'Count'},"
                " {'role': 'assistant', 'content': '', 'tool_calls': ["
                "   {'id': 'call_empty', 'function': {'name': 'count', 'arguments': {}}},"
                "   {'id': 'call_big', 'function': {'name': 'count',"
                "     'arguments': {'n': 12345678901234567890, 'x': 1.50}}},"
                "   {'id': 'call_cut', 'function': {'name': 'count', 'arguments': '{\\'n\\': 1'}},"
                "   {'id': 'call_list', 'function': {'name': 'count', 'arguments': '[1, 2]'}}]},"
                " {'role': 'tool', 'content': '3', 'tool_name': 'count',"
                "  'tool_call_id': 'call_empty'},"
                " {'role': 'tool', 'content': 'Error: not valid JSON', 'tool_name': 'count',"
                "  'tool_call_id': 'call_cut'}]");
  expected = agent_test_parse_json (json);
  messages_node = json_node_ref (json_object_get_member (body, "messages"));
  if (!agent_test_json_equal (expected, messages_node))
    g_error ("messages: %s", text);

  /* Arguments that are a JSON object go back as the model wrote them: no
   * number is rewritten. */
  g_assert_nonnull (strstr (text, "\"arguments\":{\"n\": 12345678901234567890, \"x\": 1.50}"));
}

/* A tool round trip with thinking, through AgentSession */

static void
get_weather (AgentTool           *tool,
             AgentToolInvocation *invocation,
             gpointer             user_data)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  g_autofree char *result = g_strdup_printf ("Sunny in %s for %" G_GINT64_FORMAT " days",
                                             json_object_get_string_member (arguments, "city"),
                                             json_object_get_int_member (arguments, "days"));

  agent_tool_invocation_return_result (invocation, result);
}

static void
get_time (AgentTool           *tool,
          AgentToolInvocation *invocation,
          gpointer             user_data)
{
  agent_tool_invocation_return_result (invocation, "12:00");
}

static gboolean
add_piece (gpointer     user_data,
           const char  *bytes,
           gsize        len,
           GError     **error)
{
  agent_test_response_add_bytes (user_data, bytes, len);
  return TRUE;
}

static void
count_cb (AgentSession *session,
          gpointer      arg1,
          gpointer      arg2,
          guint        *count)
{
  (*count)++;
}

/* Thinking, text, two calls on two lines (the second with an id and an
 * index, as newer servers send), the end; ' stands for " */
static const char tool_stream[] =
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.3Z','message':{'role':'assistant',"
  "'content':'','thinking':'The user wants'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.4Z','message':{'role':'assistant',"
  "'content':'','thinking':' the weather \\u2600.'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.5Z','message':{'role':'assistant',"
  "'content':'Let me check.'},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.6Z','message':{'role':'assistant',"
  "'content':'','tool_calls':[{'function':{'name':'get_weather',"
  "'arguments':{'city':'Tokyo','days':2}}}]},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.7Z','message':{'role':'assistant',"
  "'content':'','tool_calls':[{'id':'call_abc','function':{'index':1,'name':'get_time',"
  "'arguments':{}}}]},'done':false}\n"
  "{'model':'qwen3:8b','created_at':'2025-08-20T13:48:24.8Z','message':{'role':'assistant',"
  "'content':''},'done':true,'done_reason':'stop','total_duration':1000,"
  "'prompt_eval_count':40,'eval_count':25}\n";

static void
test_session_tool_round_trip (void)
{
  g_autofree char *schema = ticks ("{'type': 'object', 'properties': {"
                                   "  'city': {'type': 'string', 'description': 'A city'},"
                                   "  'days': {'type': 'integer'}},"
                                   " 'required': ['city']}");
  g_autofree char *stream = ticks (tool_stream);
  g_autoptr(JsonNode) parameters = agent_test_parse_json (schema);
  g_autoptr(AgentTool) weather = agent_tool_new ("get_weather", "The weather in a city", parameters,
                                                 get_weather, NULL, NULL);
  g_autoptr(AgentTool) clock = agent_tool_new ("get_time", "The time", NULL, get_time, NULL, NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) reasoning = g_string_new (NULL);
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *expected_text = NULL;
  AgentTestServer *server = agent_test_server_new ();
  AgentProvider *provider = ollama_provider_new (server);
  AgentSession *session;
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };
  g_autoptr(AgentMessage) first = NULL;
  GListModel *memory;
  JsonObject *body;
  JsonArray *tools;
  const char *weather_id;
  guint n_reasoning = 0;

  agent_provider_set_model (provider, "qwen3:8b");
  agent_provider_set_api_key (provider, "sk-ollama-secret");
  agent_provider_set_max_tokens (provider, 256);
  agent_provider_set_reasoning_effort (provider, AGENT_REASONING_EFFORT_HIGH);
  session = agent_session_new (provider);
  agent_session_set_system_prompt (session, "You are terse.");
  agent_session_add_tool (session, weather);
  agent_session_add_tool (session, clock);
  g_signal_connect (session, "text-delta", G_CALLBACK (collect_cb), text);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (collect_cb), reasoning);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (count_cb), &n_reasoning);

  /* The first answer in pieces of 7 bytes, the calls on two lines */
  response = add_ndjson_response (server);
  agent_test_feed_pieces (add_piece, response, stream, strlen (stream), 7, NULL, NULL);
  add_final_answer (server, "Sunny, and noon.");

  agent_test_turn_run (&turn, session, "Weather in Tokyo?", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "Sunny, and noon.");

  /* The thinking streamed as reasoning, apart from the answer */
  g_assert_cmpstr (reasoning->str, ==, "The user wants the weather \u2600.");
  g_assert_cmpuint (n_reasoning, ==, 2);
  g_assert_cmpstr (text->str, ==, "Let me check.Sunny, and noon.");

  memory = G_LIST_MODEL (agent_session_get_memory (session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 5);
  first = g_list_model_get_item (memory, 1);
  g_assert_cmpstr (agent_message_get_content (first), ==, "Let me check.");
  g_assert_cmpstr (agent_message_get_reasoning (first), ==, "The user wants the weather \u2600.");
  g_assert_cmpstr (agent_message_get_finish_reason (first), ==, "stop");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (first)), ==, 65);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (session)), ==, 65 + 9);
  g_assert_cmpuint (agent_message_get_n_tool_calls (first), ==, 2);
  weather_id = agent_tool_call_get_id (agent_message_get_tool_call (first, 0));
  g_assert_nonnull (weather_id);
  g_assert_cmpstr (agent_tool_call_get_id (agent_message_get_tool_call (first, 1)), ==, "call_abc");

  /* Both requests: path, headers */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (server, i), ==, "/api/chat");
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "Authorization"), ==,
                       "Bearer sk-ollama-secret");
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "Content-Type"), ==,
                       "application/json");
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "Accept"), ==,
                       "application/x-ndjson");
    }

  /* The second request, field by field */
  body = json_node_get_object (agent_test_server_get_request_body (server, 1));
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen3:8b");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_true (json_object_get_boolean_member (body, "think"));
  g_assert_cmpint (json_object_get_int_member (object_member (body, "options"), "num_predict"),
                   ==, 256);
  g_assert_cmpuint (json_object_get_size (object_member (body, "options")), ==, 1);

  tools = array_member (body, "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 2);
  {
    JsonObject *tool = json_array_get_object_element (tools, 0);
    JsonObject *function = object_member (tool, "function");

    g_assert_cmpstr (json_object_get_string_member (tool, "type"), ==, "function");
    g_assert_cmpstr (json_object_get_string_member (function, "name"), ==, "get_weather");
    g_assert_cmpstr (json_object_get_string_member (function, "description"), ==,
                     "The weather in a city");
    g_assert_true (agent_test_json_equal (json_object_get_member (function, "parameters"),
                                          parameters));
    function = object_member (json_array_get_object_element (tools, 1), "function");
    g_assert_cmpstr (json_object_get_string_member (function, "name"), ==, "get_time");
    g_assert_true (agent_test_json_equal (json_object_get_member (function, "parameters"),
                                          agent_tool_get_parameters (clock)));
  }

  expected_text = g_strdup_printf (
    "[{'role': 'system', 'content': 'You are terse.'},"
    " {'role': 'user', 'content': 'Weather in Tokyo?'},"
    " {'role': 'assistant', 'content': 'Let me check.',"
    "  'thinking': 'The user wants the weather \\u2600.', 'tool_calls': ["
    "   {'id': '%s', 'function': {'name': 'get_weather',"
    "                             'arguments': {'city': 'Tokyo', 'days': 2}}},"
    "   {'id': 'call_abc', 'function': {'name': 'get_time', 'arguments': {}}}]},"
    " {'role': 'tool', 'content': 'Sunny in Tokyo for 2 days', 'tool_name': 'get_weather',"
    "  'tool_call_id': '%s'},"
    " {'role': 'tool', 'content': '12:00', 'tool_name': 'get_time', 'tool_call_id': 'call_abc'}]",
    weather_id, weather_id);
  g_strdelimit (expected_text, "'", '"');
  expected = agent_test_parse_json (expected_text);
  if (!agent_test_json_equal (expected, json_object_get_member (body, "messages")))
    {
      g_autofree char *got = json_to_string (json_object_get_member (body, "messages"), FALSE);

      g_error ("The second request's messages: %s", got);
    }

  g_clear_object (&first);
  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
  agent_test_server_free (server);
}

/* Errors */

static void
test_http_errors (void)
{
  static const struct {
    guint       status;
    const char *body;
    const char *message;
    int         code;
  } cases[] = {
    { 400, "{\"error\":\"registry.ollama.ai/library/gemma3:1b does not support tools\"}",
      "does not support tools", AGENT_ERROR_HTTP },
    { 404, "{\"error\":\"model \\\"nope\\\" not found, try pulling it first\"}",
      "model \"nope\" not found, try pulling it first", AGENT_ERROR_HTTP },
    { 400, "{\"error\":\"invalid key sk-ollama-secret in options\"}",
      "invalid key [redacted] in options", AGENT_ERROR_HTTP },
    { 401, "{\"error\":\"unauthorized: sk-ollama-secret is not valid\"}",
      "unauthorized: [redacted] is not valid", AGENT_ERROR_AUTHENTICATION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AgentTestServer *server = agent_test_server_new ();
      AgentProvider *provider = ollama_provider_new (server);
      AgentSession *session = agent_session_new (provider);
      AgentTestResponse *response = agent_test_server_add_response (server, cases[i].status);
      AgentTestTurn turn = { 0 };

      agent_provider_set_api_key (provider, "sk-ollama-secret");
      agent_test_response_set_body (response, "application/json", cases[i].body);
      agent_test_turn_run (&turn, session, "Hi", NULL);

      g_assert_error (turn.error, AGENT_ERROR, cases[i].code);
      if (strstr (turn.error->message, cases[i].message) == NULL)
        g_test_fail_printf ("%u: %s", cases[i].status, turn.error->message);
      g_assert_null (strstr (turn.error->message, "sk-ollama-secret"));

      agent_test_turn_clear (&turn);
      g_assert_finalize_object (session);
      g_assert_finalize_object (provider);
      agent_test_server_free (server);
    }
}

/* An error line in a 200 stream, or a stream cut short: what streamed
 * stays in memory, interrupted. */
static void
run_broken_stream (const char *last_line,
                   int         code,
                   const char *message)
{
  AgentTestServer *server = agent_test_server_new ();
  AgentProvider *provider = ollama_provider_new (server);
  AgentSession *session = agent_session_new (provider);
  AgentTestResponse *response = add_ndjson_response (server);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AgentMessage) partial = NULL;
  AgentTestTurn turn = { 0 };
  GListModel *memory;
  guint n_steps = 0;

  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','thinking':'Hmm'},"
                      "'done':false}");
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':'Partial '},"
                      "'done':false}");
  add_line (response, "{'model':'llama3.2','message':{'role':'assistant','content':'answer'},"
                      "'done':false}");
  if (last_line != NULL)
    add_line (response, last_line);

  g_signal_connect (session, "text-delta", G_CALLBACK (collect_cb), text);
  g_signal_connect (session, "step-finished", G_CALLBACK (count_cb), &n_steps);
  agent_test_turn_run (&turn, session, "Hi", NULL);

  g_assert_error (turn.error, AGENT_ERROR, code);
  g_assert_nonnull (strstr (turn.error->message, message));
  g_assert_cmpstr (text->str, ==, "Partial answer");
  g_assert_cmpuint (n_steps, ==, 0);

  memory = G_LIST_MODEL (agent_session_get_memory (session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);
  partial = g_list_model_get_item (memory, 1);
  g_assert_cmpint (agent_message_get_role (partial), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Partial answer");
  g_assert_cmpstr (agent_message_get_reasoning (partial), ==, "Hmm");
  g_clear_object (&partial);

  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
  agent_test_server_free (server);
}

static void
test_mid_stream_error (void)
{
  run_broken_stream ("{'error':'an error was encountered while running the model: unexpected EOF'}",
                     AGENT_ERROR_PROVIDER,
                     "an error was encountered while running the model: unexpected EOF");
}

static void
test_cut_stream (void)
{
  run_broken_stream (NULL, AGENT_ERROR_PROTOCOL, "ended before the answer was complete");
}

static void
test_not_json (void)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_ollama_backend);
  static const char body[] = "{\"message\":{\"content\":\"ok\"},\"done\":false}\n"
                             "<html>Bad gateway</html>\n";

  g_assert_false (agent_test_replay_feed (r, body, strlen (body), &r->error));
  g_assert_error (r->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (r->error->message, "<html>Bad gateway</html>"));
  g_assert_cmpstr (r->text->str, ==, "ok");
}

/* Models */

typedef struct
{
  char   **names;
  GError  *error;
  gboolean finished;
} ListModels;

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ListModels *list = user_data;

  list->names = agent_provider_list_models_finish (AGENT_PROVIDER (object), result, &list->error);
  list->finished = TRUE;
}

static char **
list_models (AgentProvider  *provider,
             GError        **error)
{
  ListModels list = { 0 };

  agent_provider_list_models_async (provider, NULL, list_models_cb, &list);
  agent_test_wait_for (&list.finished);
  if (list.error != NULL)
    g_propagate_error (error, list.error);

  return list.names;
}

static void
test_models (void)
{
  AgentTestServer *server = agent_test_server_new ();
  AgentProvider *provider = ollama_provider_new (server);
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  body = ticks ("{'models':[{'name':'llama3.2:latest','model':'llama3.2:latest',"
                "'modified_at':'2025-05-04T17:37:44.706015396-07:00','size':2019393189,"
                "'details':{'family':'llama'}},"
                "{'name':'qwen3:8b','model':'qwen3:8b'},{'model':'gpt-oss:20b'}]}");
  agent_test_response_set_body (response, "application/json", body);
  names = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[0], ==, "llama3.2:latest");
  g_assert_cmpstr (names[1], ==, "qwen3:8b");
  g_assert_cmpstr (names[2], ==, "gpt-oss:20b");
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/api/tags");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Accept"), ==,
                   "application/json");
  g_clear_pointer (&names, g_strfreev);

  /* With a key (ollama.com, a proxy): a bearer token */
  agent_provider_set_api_key (provider, "sk-ollama-secret");
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", "{\"models\":[]}");
  names = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 0);
  g_assert_cmpstr (agent_test_server_get_request_header (server, 1, "Authorization"), ==,
                   "Bearer sk-ollama-secret");
  g_clear_pointer (&names, g_strfreev);

  /* Errors: the server's, and an answer that is not a list */
  response = agent_test_server_add_response (server, 500);
  agent_test_response_set_body (response, "application/json", "{\"error\":\"out of memory\"}");
  names = list_models (provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (error->message, "out of memory"));
  g_clear_error (&error);

  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", "{\"data\":[{\"id\":\"llama3.2\"}]}");
  names = list_models (provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);

  g_assert_finalize_object (provider);
  agent_test_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) files = NULL;

  g_test_init (&argc, &argv, NULL);
  /* Report every broken corpus file, not only the first. */
  g_test_set_nonfatal_assertions ();

  files = agent_test_list_corpus ("ollama", ".ndjson");
  g_assert_nonnull (files[0]);
  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      g_autofree char *name = g_strndup (basename, strlen (basename) - strlen (".ndjson"));
      g_autofree char *wire = g_strdup_printf ("/ollama/corpus/wire/%s", name);
      g_autofree char *http = g_strdup_printf ("/ollama/corpus/http/%s", name);

      g_test_add_data_func_full (wire, g_strdup (files[i]), test_corpus_wire, g_free);
      g_test_add_data_func_full (http, g_strdup (files[i]), test_corpus_http, g_free);
    }

  g_test_add_func ("/ollama/request/think", test_request_think);
  g_test_add_func ("/ollama/request/body", test_request_body);
  g_test_add_func ("/ollama/session/tool-round-trip", test_session_tool_round_trip);
  g_test_add_func ("/ollama/errors/http", test_http_errors);
  g_test_add_func ("/ollama/errors/mid-stream", test_mid_stream_error);
  g_test_add_func ("/ollama/errors/cut-stream", test_cut_stream);
  g_test_add_func ("/ollama/errors/not-json", test_not_json);
  g_test_add_func ("/ollama/models", test_models);

  return g_test_run ();
}
