/* test-provider-gemini.c — the Gemini backend
 *
 * - The corpus: every tests/corpus/gemini/<name>.sse decoded by the
 *   backend as the library decodes it, fed whole, one byte at a time, in
 *   random pieces (several seeds) and, under 4 KiB, cut in two at every
 *   byte, then over HTTP through an AgentSession (random pieces), against
 *   the "result" of its .expected.json. Compared: text, thought_text (as
 *   reasoning), function_calls (name, args as JSON, args_json byte for
 *   byte, has_thought_signature and, from an independent reading of the
 *   body, the signature itself), model, response_id, finish_reason and
 *   usage (the raw object, less the counts the backend adds under
 *   OpenAI's names, and the counts read from it). Not compared:
 *   "streamed_args", "args_missing" and "finalized_without_empty_functionCall",
 *   which describe how the wire spelled a call, not the call (the call
 *   they describe is compared); "transport.event_field_values" (only the
 *   number of events is compared).
 * - A two-step tool round trip through AgentSession against the in-process
 *   server, with reasoning, streamed partialArgs, parallel calls, thought
 *   signatures and Gemini call ids, and the second request checked member
 *   by member.
 * - The request for hand-made histories; the URL (its ?alt=sse is checked
 *   on the SoupMessage: the test server does not record query strings),
 *   headers, max tokens and reasoning effort; errors (HTTP bodies,
 *   mid-stream error chunks, blocked prompts, cut streams, SAFETY); model
 *   listing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-provider-private.h"
#include "agent-tool-call-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define CUT_LIMIT 4096
#define MAX_PIECE 64
#define API_KEY "AIzaSy-test-SECRET-0123456789"

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

/* Helpers */

/* A provider for the test server, whose URL ends in /v1: Gemini's paths
 * start at the root. */
static AgentProvider *
gemini_provider_new (AgentTestServer *server)
{
  AgentProvider *provider = agent_provider_new ("gemini", NULL);
  const char *url = agent_test_server_get_base_url (server);
  g_autofree char *root = g_strndup (url, strlen (url) - strlen ("/v1"));

  g_assert_true (g_str_has_suffix (url, "/v1"));
  agent_provider_set_base_url (provider, root);
  agent_provider_set_model (provider, "test-model");
  return provider;
}

static void
assert_json_equal (JsonNode   *actual,
                   const char *expected)
{
  g_autoptr(JsonNode) want = agent_test_parse_json (expected);

  if (!agent_test_json_equal (actual, want))
    {
      g_autofree char *got = actual ? json_to_string (actual, FALSE) : g_strdup ("(none)");

      g_error ("expected %s\n     got %s", expected, got);
    }
}

static JsonNode *
member (JsonNode   *node,
        const char *name)
{
  g_assert_true (node != NULL && JSON_NODE_HOLDS_OBJECT (node));
  return json_object_get_member (json_node_get_object (node), name);
}

static JsonNode *
element (JsonNode *node,
         guint     index)
{
  g_assert_true (node != NULL && JSON_NODE_HOLDS_ARRAY (node));
  g_assert_cmpuint (index, <, json_array_get_length (json_node_get_array (node)));
  return json_array_get_element (json_node_get_array (node), index);
}

static const char *
gemini_data (JsonNode   *provider_data,
             const char *name)
{
  JsonNode *data = provider_data ? member (provider_data, "gemini") : NULL;
  JsonNode *value = data ? member (data, name) : NULL;

  return value ? json_node_get_string (value) : NULL;
}

/* A chunk as Gemini writes it: {"candidates":[{"content":{"role":"model",
 * "parts":[PARTS]}, FINISH}], USAGE, "modelVersion", "responseId"} */
static void
add_chunk (AgentTestResponse *response,
           const char        *parts,
           const char        *finish_reason,
           const char        *usage)
{
  g_autoptr(GString) chunk = g_string_new ("data: {\"candidates\":[{\"content\":");

  g_string_append_printf (chunk, "{\"role\":\"model\",\"parts\":[%s]}", parts);
  if (finish_reason != NULL)
    g_string_append_printf (chunk, ",\"finishReason\":\"%s\"", finish_reason);
  g_string_append (chunk, ",\"index\":0}]");
  if (usage != NULL)
    g_string_append_printf (chunk, ",\"usageMetadata\":%s", usage);
  g_string_append (chunk, ",\"modelVersion\":\"test-model-001\",\"responseId\":\"resp-1\"}");
  /* Live Gemini separates events with CRLF CRLF. */
  g_string_append (chunk, "\r\n\r\n");
  agent_test_response_add_bytes (response, chunk->str, -1);
}

static void
add_text_answer (AgentTestServer *server,
                 const char      *text)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);
  g_autofree char *part = g_strdup_printf ("{\"text\":\"%s\"}", text);

  add_chunk (response, part, "STOP",
             "{\"promptTokenCount\":40,\"candidatesTokenCount\":5,\"totalTokenCount\":45}");
}

/* The text-delta and reasoning-delta signals of a session's first step */
typedef struct
{
  guint    steps;
  GString *text;
  GString *reasoning;
} Heard;

static void
heard_text_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Heard        *heard)
{
  if (heard->steps == 0)
    g_string_append (heard->text, delta);
}

static void
heard_reasoning_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    Heard        *heard)
{
  if (heard->steps == 0)
    g_string_append (heard->reasoning, delta);
}

static void
heard_step_cb (AgentSession *session,
               AgentMessage *message,
               Heard        *heard)
{
  heard->steps++;
}

static void
heard_connect (Heard        *heard,
               AgentSession *session)
{
  g_signal_connect (session, "text-delta", G_CALLBACK (heard_text_cb), heard);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (heard_reasoning_cb), heard);
  g_signal_connect (session, "step-finished", G_CALLBACK (heard_step_cb), heard);
}

static void
heard_clear (Heard *heard)
{
  g_string_free (heard->text, TRUE);
  g_string_free (heard->reasoning, TRUE);
}

/* The corpus */

typedef enum
{
  MODE_WHOLE,
  MODE_BYTES,
  MODE_RANDOM,
  MODE_CUTS,
  MODE_HTTP,
} Mode;

static const char * const mode_names[] = { "whole", "bytes", "random", "cuts", "http" };

typedef struct
{
  char *sse_path;
  Mode  mode;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->sse_path);
  g_free (c);
}

typedef struct
{
  JsonNode   *root;
  JsonObject *result;
  char       *body;
  gsize       body_len;
  guint       n_events;
  /* From an independent reading of the body with json-glib */
  GPtrArray  *signatures;   /* of each named functionCall part, "" if none */
  guint       n_text;       /* non-empty text parts */
  guint       n_thoughts;   /* non-empty thought parts */
} Expected;

static void
reference_chunk (Expected   *e,
                 const char *data)
{
  g_autoptr(JsonNode) root = agent_test_parse_json (data);
  JsonNode *candidates = member (root, "candidates");
  JsonNode *content;
  JsonNode *parts;

  if (candidates == NULL || !(content = member (element (candidates, 0), "content")) ||
      !(parts = member (content, "parts")))
    return;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (parts)); i++)
    {
      JsonObject *part = json_node_get_object (element (parts, i));
      const char *signature = json_object_get_string_member_with_default (part, "thoughtSignature",
                                                                          "");

      if (json_object_has_member (part, "functionCall"))
        {
          JsonObject *call = json_object_get_object_member (part, "functionCall");

          if (json_object_has_member (call, "name"))
            g_ptr_array_add (e->signatures, g_strdup (signature));
        }
      else if (json_object_get_string_member_with_default (part, "text", "")[0] != '\0')
        {
          if (json_object_get_boolean_member_with_default (part, "thought", FALSE))
            e->n_thoughts++;
          else
            e->n_text++;
        }
    }
}

static void
expected_load (Expected   *e,
               const Case *c)
{
  g_autofree char *stem = g_strndup (c->sse_path, strlen (c->sse_path) - strlen (".sse"));
  g_autofree char *expected_path = g_strconcat (stem, ".expected.json", NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *transport;

  memset (e, 0, sizeof *e);
  e->root = agent_test_load_json (expected_path);
  e->result = json_object_get_object_member (json_node_get_object (e->root), "result");
  transport = json_object_get_object_member (json_node_get_object (e->root), "transport");
  e->n_events = json_object_get_int_member (transport, "events_dispatched");
  g_file_get_contents (c->sse_path, &e->body, &e->body_len, &error);
  g_assert_no_error (error);

  /* Each event of the corpus is one "data:" line. */
  e->signatures = g_ptr_array_new_with_free_func (g_free);
  lines = g_strsplit (e->body, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "data: ") && lines[i + 1] != NULL)
      reference_chunk (e, lines[i] + strlen ("data: "));
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->root, json_node_unref);
  g_clear_pointer (&e->body, g_free);
  g_clear_pointer (&e->signatures, g_ptr_array_unref);
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

static gint64
usage_count (JsonObject *usage,
             const char *name)
{
  return json_object_get_int_member_with_default (usage, name, 0);
}

/* The raw usage is Gemini's usageMetadata with the counts under OpenAI's
 * names added (AgentUsage reads those). */
static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *want)
{
  static const char * const added[] = {
    "prompt_tokens", "completion_tokens", "total_tokens",
    "completion_tokens_details", "prompt_tokens_details",
  };
  g_autoptr(JsonNode) want_node = json_node_init_object (json_node_alloc (), want);
  g_autoptr(JsonNode) gemini_only = NULL;
  g_autofree char *raw = NULL;
  gint64 thoughts = usage_count (want, "thoughtsTokenCount");

  if (usage == NULL)
    {
      g_string_append (problems, "\n  no usage");
      return;
    }

  raw = json_to_string (agent_usage_get_raw (usage), FALSE);
  gemini_only = agent_test_parse_json (raw);
  for (guint i = 0; i < G_N_ELEMENTS (added); i++)
    json_object_remove_member (json_node_get_object (gemini_only), added[i]);
  if (!agent_test_json_equal (gemini_only, want_node))
    {
      g_autofree char *text = json_to_string (want_node, FALSE);

      expect_str (problems, "usage (raw, without the counts added)", text, raw);
    }

  expect_int (problems, "prompt tokens", usage_count (want, "promptTokenCount"),
              agent_usage_get_prompt_tokens (usage));
  expect_int (problems, "completion tokens", usage_count (want, "candidatesTokenCount") + thoughts,
              agent_usage_get_completion_tokens (usage));
  expect_int (problems, "total tokens", usage_count (want, "totalTokenCount"),
              agent_usage_get_total_tokens (usage));
  expect_int (problems, "reasoning tokens", thoughts, agent_usage_get_reasoning_tokens (usage));
  expect_int (problems, "cached tokens", usage_count (want, "cachedContentTokenCount"),
              agent_usage_get_cached_tokens (usage));
}

typedef enum
{
  CALLS_READY,          /* decoded: the stream ended, the calls are ready */
  CALLS_UNKNOWN_TOOL,   /* through a session without tools: each failed */
} CallsState;

static void
compare_message (GString      *problems,
                 AgentMessage *message,
                 Expected     *e,
                 CallsState    calls_state)
{
  JsonArray *calls = json_object_get_array_member (e->result, "function_calls");
  const char *content = agent_message_get_content (message);
  guint n_calls = json_array_get_length (calls);

  expect_str (problems, "model", json_object_get_string_member (e->result, "model"),
              agent_message_get_model (message));
  expect_str (problems, "response id", json_object_get_string_member (e->result, "response_id"),
              agent_message_get_response_id (message));
  expect_str (problems, "text", json_object_get_string_member (e->result, "text"),
              content ? content : "");
  expect_str (problems, "reasoning",
              json_object_get_string_member_with_default (e->result, "thought_text", NULL),
              agent_message_get_reasoning (message));
  expect_str (problems, "finish reason", json_object_get_string_member (e->result, "finish_reason"),
              agent_message_get_finish_reason (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_object_member (e->result, "usage"));

  expect_int (problems, "number of calls", n_calls, agent_message_get_n_tool_calls (message));
  expect_int (problems, "named functionCall parts (reference)", n_calls, e->signatures->len);
  if (n_calls != agent_message_get_n_tool_calls (message) || n_calls != e->signatures->len)
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      const char *signature = g_ptr_array_index (e->signatures, i);
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) error = NULL;

      expect_int (problems, "call index", i, agent_tool_call_get_index (call));
      expect_str (problems, "call name", json_object_get_string_member (want, "name"),
                  agent_tool_call_get_name (call));
      expect_str (problems, "call arguments", json_object_get_string_member (want, "args_json"),
                  agent_tool_call_get_arguments (call));
      parsed = agent_tool_call_parse_arguments (call, &error);
      if (!agent_test_json_equal (parsed, json_object_get_member (want, "args")))
        expect_str (problems, "call arguments (as JSON)", "the expected args", "others");

      /* The signature, exactly as the stream gave it */
      expect_int (problems, "has_thought_signature",
                  json_object_get_boolean_member_with_default (want, "has_thought_signature",
                                                               FALSE),
                  signature[0] != '\0');
      expect_str (problems, "thoughtSignature", signature[0] ? signature : NULL,
                  gemini_data (agent_tool_call_get_provider_data (call), "thoughtSignature"));

      if (calls_state == CALLS_READY)
        {
          /* The corpus' calls have no id; Gemini's own would be kept. */
          expect_str (problems, "call id", NULL, agent_tool_call_get_id (call));
          expect_int (problems, "call state", AGENT_TOOL_CALL_STATE_READY,
                      agent_tool_call_get_state (call));
        }
      else
        {
          if (agent_tool_call_get_id (call) == NULL)
            g_string_append (problems, "\n  the session gives calls an id");
          expect_int (problems, "call state", AGENT_TOOL_CALL_STATE_FAILED,
                      agent_tool_call_get_state (call));
        }
    }
}

static gboolean
replay (Expected          *e,
        AgentTestFeedMode  mode,
        GRand             *rand,
        gsize              cut,
        const char        *context)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_gemini_backend);
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message;
  const char *text;

  if (cut > 0)
    agent_test_feed_cut (agent_test_replay_feed, r, e->body, e->body_len, cut, &r->error);
  else if (mode == AGENT_TEST_FEED_RANDOM)
    agent_test_feed_pieces (agent_test_replay_feed, r, e->body, e->body_len, MAX_PIECE, rand,
                            &r->error);
  else
    agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len, mode, NULL, &r->error);
  agent_test_replay_finish (r);
  message = agent_test_replay_get_message (r);

  if (r->error != NULL)
    expect_str (problems, "error", NULL, r->error->message);
  if (!r->finish_ok)
    expect_str (problems, "finish() error", NULL, r->finish_error->message);
  expect_int (problems, "events decoded", e->n_events,
              agent_stream_decoder_get_n_events (r->decoder));

  compare_message (problems, message, e, CALLS_READY);

  /* What the listener heard */
  g_string_append (problems, r->problems->str);
  text = agent_message_get_content (message);
  expect_str (problems, "text deltas", text ? text : "", r->text->str);
  text = agent_message_get_reasoning (message);
  expect_str (problems, "reasoning deltas", text ? text : "", r->reasoning->str);
  expect_int (problems, "number of text deltas", e->n_text, r->n_text);
  expect_int (problems, "number of reasoning deltas", e->n_thoughts, r->n_reasoning);
  /* Whole or assembled from partialArgs, a call's arguments come once. */
  expect_int (problems, "argument fragments", agent_message_get_n_tool_calls (message),
              r->n_fragments);
  expect_int (problems, "calls the listener heard of", agent_message_get_n_tool_calls (message),
              g_hash_table_size (r->fragments));
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      expect_str (problems, "a call's fragments", agent_tool_call_get_arguments (call),
                  agent_test_replay_get_fragments (r, call));
    }

  if (problems->len == 0)
    return TRUE;
  g_test_fail_printf ("%s:%s", context, problems->str);
  return FALSE;
}

/* Over HTTP, through a session without tools: each call fails as an
 * unknown tool, and the second request carries the calls back with their
 * signatures, and the errors. */
static void
corpus_http (Expected   *e,
             const Case *c)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = gemini_provider_new (server);
  AgentSession *session = agent_session_new (provider);
  JsonArray *calls = json_object_get_array_member (e->result, "function_calls");
  guint n_calls = json_array_get_length (calls);
  g_autoptr(AgentMessage) first = NULL;
  Heard heard = { 0, g_string_new (NULL), g_string_new (NULL) };
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };
  JsonNode *contents;
  const char *s;

  heard_connect (&heard, session);

  response = agent_test_server_add_response (server, 200);
  agent_test_response_add_file_in_pieces (response, c->sse_path, g_str_hash (c->sse_path),
                                          MAX_PIECE);
  if (n_calls > 0)
    add_text_answer (server, "Done.");

  agent_test_turn_run (&turn, session, "Go", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, n_calls > 0 ? 2 : 1);

  first = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (session)), 1);
  compare_message (problems, first, e, n_calls > 0 ? CALLS_UNKNOWN_TOOL : CALLS_READY);
  s = agent_message_get_content (first);
  expect_str (problems, "text-delta signals", s ? s : "", heard.text->str);
  s = agent_message_get_reasoning (first);
  expect_str (problems, "reasoning-delta signals", s ? s : "", heard.reasoning->str);

  if (n_calls > 0)
    {
      JsonNode *model;
      JsonNode *results;

      contents = member (agent_test_server_get_request_body (server, 1), "contents");
      g_assert_cmpuint (json_array_get_length (json_node_get_array (contents)), ==, 3);
      model = element (contents, 1);
      g_assert_cmpstr (json_node_get_string (member (model, "role")), ==, "model");
      g_assert_cmpuint (json_array_get_length (json_node_get_array (member (model, "parts"))), ==,
                        n_calls);
      results = member (element (contents, 2), "parts");
      g_assert_cmpstr (json_node_get_string (member (element (contents, 2), "role")), ==, "user");
      g_assert_cmpuint (json_array_get_length (json_node_get_array (results)), ==, n_calls);

      for (guint i = 0; i < n_calls; i++)
        {
          JsonObject *want = json_array_get_object_element (calls, i);
          JsonNode *part = element (member (model, "parts"), i);
          JsonNode *function = member (part, "functionCall");
          JsonNode *signature = member (part, "thoughtSignature");
          JsonNode *result = member (element (results, i), "functionResponse");
          const char *want_signature = g_ptr_array_index (e->signatures, i);

          expect_str (problems, "request: call name", json_object_get_string_member (want, "name"),
                      json_node_get_string (member (function, "name")));
          if (!agent_test_json_equal (member (function, "args"),
                                      json_object_get_member (want, "args")))
            g_string_append (problems, "\n  request: call args");
          expect_str (problems, "request: no id (Gemini gave none)", NULL,
                      member (function, "id") ? "an id" : NULL);
          expect_str (problems, "request: thoughtSignature, exactly",
                      want_signature[0] ? want_signature : NULL,
                      signature ? json_node_get_string (signature) : NULL);
          expect_str (problems, "request: result name",
                      json_object_get_string_member (want, "name"),
                      json_node_get_string (member (result, "name")));
          if (member (member (result, "response"), "error") == NULL)
            g_string_append (problems, "\n  request: the unknown tool's result is an error");
        }
    }

  if (problems->len > 0)
    g_test_fail_printf ("http:%s", problems->str);

  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
  heard_clear (&heard);
}

static void
test_corpus (gconstpointer data)
{
  const Case *c = data;
  Expected e;

  expected_load (&e, c);

  switch (c->mode)
    {
    case MODE_WHOLE:
      replay (&e, AGENT_TEST_FEED_WHOLE, NULL, 0, "fed whole");
      break;

    case MODE_BYTES:
      replay (&e, AGENT_TEST_FEED_BYTES, NULL, 0, "fed one byte at a time");
      break;

    case MODE_RANDOM:
      for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
        {
          g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[i]);
          g_autofree char *context = g_strdup_printf ("random pieces, seed %u", seeds[i]);

          if (!replay (&e, AGENT_TEST_FEED_RANDOM, rand, 0, context))
            break;
        }
      break;

    case MODE_CUTS:
      for (gsize cut = 1; cut < e.body_len; cut++)
        {
          g_autofree char *context = g_strdup_printf ("cut at byte %zu", cut);

          if (!replay (&e, AGENT_TEST_FEED_WHOLE, NULL, cut, context))
            break;
        }
      break;

    case MODE_HTTP:
    default:
      corpus_http (&e, c);
      break;
    }

  expected_clear (&e);
}

static void
add_corpus_cases (void)
{
  g_auto(GStrv) files = agent_test_list_corpus ("gemini", ".sse");

  g_assert_nonnull (files[0]);

  for (guint i = 0; files[i]; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      g_autofree char *contents = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (files[i], &contents, &len, NULL));
      basename[strlen (basename) - strlen (".sse")] = '\0';

      for (Mode mode = MODE_WHOLE; mode <= MODE_HTTP; mode++)
        {
          g_autofree char *path = g_strdup_printf ("/gemini/corpus/%s/%s", basename,
                                                   mode_names[mode]);
          Case *c;

          if (mode == MODE_CUTS && len >= CUT_LIMIT)
            continue;

          c = g_new0 (Case, 1);
          c->sse_path = g_strdup (files[i]);
          c->mode = mode;
          g_test_add_data_func_full (path, c, test_corpus, case_free);
        }
    }
}

/* A tool round trip through AgentSession */

static void
pong_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data)
{
  agent_tool_invocation_return_result (invocation, "pong");
}

/* A schema with keywords Gemini refuses, at every depth, and a property
 * that happens to be called like one of them. */
static const char weather_schema[] =
  "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
  "\"additionalProperties\":false,"
  "\"properties\":{\"city\":{\"type\":\"string\",\"$comment\":\"a city\"},"
  "\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
  "\"additionalProperties\":false,\"properties\":{\"k\":{\"type\":\"string\"}}}},"
  "\"mode\":{\"anyOf\":[{\"type\":\"string\",\"$id\":\"m\",\"const\":\"auto\"},"
  "{\"type\":\"integer\",\"exclusiveMinimum\":0,\"minimum\":1}]}},"
  "\"required\":[\"city\"]}";

static const char weather_schema_for_gemini[] =
  "{\"type\":\"object\","
  "\"properties\":{\"city\":{\"type\":\"string\"},"
  "\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
  "\"properties\":{\"k\":{\"type\":\"string\"}}}},"
  "\"mode\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":1}]}},"
  "\"required\":[\"city\"]}";

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    GString       *log)
{
  g_string_append_printf (log, "%u:%s:%s\n", agent_tool_call_get_index (call),
                          agent_tool_call_get_name (call), delta);
}

static void
test_tool_round_trip (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = gemini_provider_new (server);
  AgentSession *session = agent_session_new (provider);
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentTool) weather = NULL;
  g_autoptr(AgentTool) ping = agent_tool_new ("ping", "Checks the line", NULL, pong_handler,
                                              NULL, NULL);
  g_autoptr(JsonNode) schema = agent_test_parse_json (weather_schema);
  g_autoptr(GString) deltas = g_string_new (NULL);
  g_autoptr(AgentMessage) model = NULL;
  g_autofree char *calculator_parameters = NULL;
  Heard heard = { 0, g_string_new (NULL), g_string_new (NULL) };
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };
  AgentToolCall *call;
  JsonNode *body;
  JsonNode *declarations;
  g_autofree char *body_text = NULL;

  weather = agent_tool_new ("weather", "The weather in a city", schema, pong_handler, NULL, NULL);
  agent_session_add_tool (session, calculator);
  agent_session_add_tool (session, weather);
  agent_session_add_tool (session, ping);
  agent_session_set_system_prompt (session, "You are terse.");
  agent_session_set_stream_tool_call_chunks (session, TRUE);
  agent_provider_set_api_key (provider, API_KEY);
  agent_provider_set_max_tokens (provider, 512);
  agent_provider_set_reasoning_effort (provider, AGENT_REASONING_EFFORT_MEDIUM);
  heard_connect (&heard, session);
  g_signal_connect (session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), deltas);

  /* Thoughts, text, a call whose arguments stream as Vertex's partialArgs
   * (with a signature), a whole call with Gemini's id, and the text's
   * signature on an empty last part. */
  response = agent_test_server_add_response (server, 200);
  add_chunk (response, "{\"text\":\"Thinking about \",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"the sums.\",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"Let me \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"compute.\"}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\",\"willContinue\":true},"
                       "\"thoughtSignature\":\"c2lnLWNhbGwtMQ==\"}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.expression\","
                       "\"stringValue\":\"2*\",\"willContinue\":true}],\"willContinue\":true}}",
             NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.expression\","
                       "\"stringValue\":\"7\"}],\"willContinue\":true}}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{}}", NULL, NULL);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"3+4\"},"
                       "\"id\":\"fc-2\"}}", NULL, NULL);
  add_chunk (response, "{\"text\":\"\",\"thoughtSignature\":\"c2lnLXRleHQ=\"}", "STOP",
             "{\"promptTokenCount\":30,\"candidatesTokenCount\":20,\"thoughtsTokenCount\":12,"
             "\"totalTokenCount\":62}");
  add_text_answer (server, "2*7 is 14 and 3+4 is 7.");

  agent_test_turn_run (&turn, session, "What are 2*7 and 3+4?", NULL);

  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "2*7 is 14 and 3+4 is 7.");

  /* The first step: reasoning apart from the text, both streamed */
  model = g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (session)), 1);
  g_assert_cmpstr (agent_message_get_reasoning (model), ==, "Thinking about the sums.");
  g_assert_cmpstr (agent_message_get_content (model), ==, "Let me compute.");
  g_assert_cmpstr (heard.reasoning->str, ==, "Thinking about the sums.");
  g_assert_cmpstr (heard.text->str, ==, "Let me compute.");
  g_assert_cmpstr (gemini_data (agent_message_get_provider_data (model), "thoughtSignature"), ==,
                   "c2lnLXRleHQ=");
  g_assert_cmpint (agent_usage_get_reasoning_tokens (agent_message_get_usage (model)), ==, 12);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_message_get_usage (model)), ==, 32);
  g_assert_cmpuint (agent_message_get_n_tool_calls (model), ==, 2);
  call = agent_message_get_tool_call (model, 0);
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"expression\":\"2*7\"}");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "14");
  g_assert_cmpstr (gemini_data (agent_tool_call_get_provider_data (call), "thoughtSignature"), ==,
                   "c2lnLWNhbGwtMQ==");
  call = agent_message_get_tool_call (model, 1);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "fc-2");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "7");
  /* The streamed call is announced at once, its arguments come when whole. */
  g_assert_cmpstr (deltas->str, ==,
                   "0:calculator:\n"
                   "0:calculator:{\"expression\":\"2*7\"}\n"
                   "1:calculator:{\"expression\":\"3+4\"}\n");
  /* user, model, two results, model */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (session))),
                    ==, 5);

  /* Both requests: path, headers */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (server, i), ==,
                       "/v1beta/models/test-model:streamGenerateContent");
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "x-goog-api-key"), ==,
                       API_KEY);
      g_assert_null (agent_test_server_get_request_header (server, i, "Authorization"));
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "Accept"), ==,
                       "text/event-stream");
      g_assert_cmpstr (agent_test_server_get_request_header (server, i, "Content-Type"), ==,
                       "application/json");
    }

  /* The second request, member by member */
  body = agent_test_server_get_request_body (server, 1);
  body_text = json_to_string (body, FALSE);
  g_assert_null (strstr (body_text, "SECRET"));
  /* Streaming is in the URL; nothing else is in the body. */
  g_assert_cmpuint (json_object_get_size (json_node_get_object (body)), ==, 4);
  assert_json_equal (member (body, "contents"),
                     "[{\"role\":\"user\",\"parts\":[{\"text\":\"What are 2*7 and 3+4?\"}]},"
                     " {\"role\":\"model\",\"parts\":["
                     "   {\"text\":\"Let me compute.\",\"thoughtSignature\":\"c2lnLXRleHQ=\"},"
                     "   {\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"2*7\"}},"
                     "    \"thoughtSignature\":\"c2lnLWNhbGwtMQ==\"},"
                     "   {\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"3+4\"},"
                     "    \"id\":\"fc-2\"}}]},"
                     " {\"role\":\"user\",\"parts\":["
                     "   {\"functionResponse\":{\"name\":\"calculator\",\"response\":{\"result\":\"14\"}}},"
                     "   {\"functionResponse\":{\"id\":\"fc-2\",\"name\":\"calculator\","
                     "    \"response\":{\"result\":\"7\"}}}]}]");
  assert_json_equal (member (body, "systemInstruction"),
                     "{\"parts\":[{\"text\":\"You are terse.\"}]}");
  assert_json_equal (member (body, "generationConfig"),
                     "{\"maxOutputTokens\":512,"
                     "\"thinkingConfig\":{\"thinkingBudget\":8192,\"includeThoughts\":true}}");

  g_assert_cmpuint (json_array_get_length (json_node_get_array (member (body, "tools"))), ==, 1);
  declarations = member (element (member (body, "tools"), 0), "functionDeclarations");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (declarations)), ==, 3);
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 0), "name")), ==,
                   "calculator");
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 0), "description")), ==,
                   agent_tool_get_description (calculator));
  calculator_parameters = json_to_string (agent_tool_get_parameters (calculator), FALSE);
  assert_json_equal (member (element (declarations, 0), "parameters"), calculator_parameters);
  g_assert_cmpstr (json_node_get_string (member (element (declarations, 1), "description")), ==,
                   "The weather in a city");
  assert_json_equal (member (element (declarations, 1), "parameters"), weather_schema_for_gemini);
  /* Without parameters, none are declared (Gemini refuses empty objects). */
  assert_json_equal (element (declarations, 2),
                     "{\"name\":\"ping\",\"description\":\"Checks the line\"}");

  /* The first request had the same declarations and options */
  body = agent_test_server_get_request_body (server, 0);
  assert_json_equal (member (body, "contents"),
                     "[{\"role\":\"user\",\"parts\":[{\"text\":\"What are 2*7 and 3+4?\"}]}]");
  g_assert_nonnull (member (body, "tools"));
  g_assert_nonnull (member (body, "generationConfig"));

  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
  heard_clear (&heard);
}

/* Requests for hand-made histories */

static JsonNode *
build_body (AgentProvider *provider,
            GListModel    *messages,
            const char    *system_prompt)
{
  AgentRequest request = {
    provider, agent_provider_get_model (provider), system_prompt, messages, NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = agent_gemini_backend.build_body (&request, &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  return agent_test_parse_json (text);
}

static void
test_request_url (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("google", NULL);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  AgentRequest request = { provider, NULL, NULL, G_LIST_MODEL (messages), NULL };
  SoupMessageHeaders *headers;

  g_assert_cmpstr (agent_provider_get_name (provider), ==, "gemini");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "GEMINI_API_KEY");
  agent_provider_set_api_key (provider, API_KEY);
  g_list_store_append (messages, user);

  /* The default service and model; streaming as SSE is asked in the URL */
  request.model = agent_provider_get_model (provider);
  message = _agent_provider_build_message (provider, &request, &error);
  g_assert_no_error (error);
  url = g_uri_to_string (soup_message_get_uri (message));
  g_assert_cmpstr (url, ==, "https://generativelanguage.googleapis.com/v1beta/models/"
                            "gemini-2.5-flash:streamGenerateContent?alt=sse");
  g_assert_cmpstr (soup_message_get_method (message), ==, "POST");
  headers = soup_message_get_request_headers (message);
  /* The key in its header, never in the URL nor as a bearer token */
  g_assert_cmpstr (soup_message_headers_get_one (headers, "x-goog-api-key"), ==, API_KEY);
  g_assert_null (soup_message_headers_get_one (headers, "Authorization"));
  g_assert_cmpstr (soup_message_headers_get_one (headers, "Accept"), ==, "text/event-stream");
  g_clear_object (&message);
  g_clear_pointer (&url, g_free);

  /* The model is one path segment; "models/" as Google writes it is fine */
  request.model = "models/gemini-2.5-pro";
  g_assert_cmpstr ((url = agent_gemini_backend.build_path (&request)), ==,
                   "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
  g_clear_pointer (&url, g_free);
  request.model = "tuned/../x?y#z";
  g_assert_cmpstr ((url = agent_gemini_backend.build_path (&request)), ==,
                   "/v1beta/models/tuned%2F..%2Fx%3Fy%23z:streamGenerateContent?alt=sse");

  /* No key, no header */
  agent_provider_set_api_key (provider, NULL);
  request.model = "gemini-2.5-flash";
  message = _agent_provider_build_message (provider, &request, &error);
  g_assert_no_error (error);
  g_assert_null (soup_message_headers_get_one (soup_message_get_request_headers (message),
                                               "x-goog-api-key"));
}

static AgentToolCall *
call_with_data (const char *id,
                const char *name,
                const char *arguments,
                const char *data)
{
  AgentToolCall *call = agent_tool_call_new (id, name, arguments);

  if (data != NULL)
    {
      g_autoptr(JsonNode) node = agent_test_parse_json (data);

      agent_tool_call_set_provider_data (call, node);
    }
  return call;
}

static void
take (GListStore *store,
      gpointer    item)
{
  g_list_store_append (store, item);
  g_object_unref (item);
}

static void
test_request_history (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("gemini", NULL);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(AgentToolCall) a = NULL;
  g_autoptr(AgentToolCall) b = NULL;
  g_autoptr(AgentToolCall) c = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *text = NULL;
  AgentMessage *assistant;
  static const struct {
    AgentReasoningEffort  effort;
    guint                 max_tokens;
    const char           *config;
  } options[] = {
    { AGENT_REASONING_EFFORT_NONE, 0, "{\"thinkingConfig\":{\"thinkingBudget\":0}}" },
    { AGENT_REASONING_EFFORT_LOW, 0,
      "{\"thinkingConfig\":{\"thinkingBudget\":1024,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_MEDIUM, 0,
      "{\"thinkingConfig\":{\"thinkingBudget\":8192,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_HIGH, 64,
      "{\"maxOutputTokens\":64,"
      "\"thinkingConfig\":{\"thinkingBudget\":24576,\"includeThoughts\":true}}" },
    { AGENT_REASONING_EFFORT_DEFAULT, 100, "{\"maxOutputTokens\":100}" },
  };

  /* Calls of another provider (ids Gemini never gave, arguments that are
   * not an object) and one of Gemini's own, with its id and signature */
  a = call_with_data ("call_0_0", "lookup", "{\"q\": 1,  \"big\": 12345678901234567890}", NULL);
  b = call_with_data ("toolu_1", "lookup", "not json", "{\"anthropic\":{\"x\":1}}");
  c = call_with_data ("fc-9", "lookup", "",
                      "{\"gemini\":{\"id\":\"fc-9\",\"thoughtSignature\":\"U0lH\"}}");

  take (messages, agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief."));
  take (messages, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Look it up"));
  /* Nothing to send: left out */
  take (messages, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL));
  assistant = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
  agent_message_add_tool_call (assistant, a);
  agent_message_add_tool_call (assistant, b);
  agent_message_add_tool_call (assistant, c);
  take (messages, assistant);
  take (messages, agent_message_new_tool_result ("call_0_0", "lookup", "found", FALSE));
  take (messages, agent_message_new_tool_result ("toolu_1", NULL, "boom", TRUE));
  take (messages, agent_message_new_tool_result ("fc-9", "lookup", "ok", FALSE));
  take (messages, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Thanks"));
  take (messages, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "You're welcome"));
  take (messages, agent_message_new_tool_result ("zzz", "other", "?", FALSE));

  body = build_body (provider, G_LIST_MODEL (messages), "Sys prompt");
  assert_json_equal (body,
                     "{\"contents\":["
                     " {\"role\":\"user\",\"parts\":[{\"text\":\"Look it up\"}]},"
                     " {\"role\":\"model\",\"parts\":["
                     "   {\"functionCall\":{\"name\":\"lookup\",\"args\":{\"q\":1,\"big\":12345678901234567890}}},"
                     "   {\"functionCall\":{\"name\":\"lookup\",\"args\":{}}},"
                     "   {\"functionCall\":{\"name\":\"lookup\",\"args\":{},\"id\":\"fc-9\"},"
                     "    \"thoughtSignature\":\"U0lH\"}]},"
                     " {\"role\":\"user\",\"parts\":["
                     "   {\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"result\":\"found\"}}},"
                     "   {\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"error\":\"boom\"}}},"
                     "   {\"functionResponse\":{\"id\":\"fc-9\",\"name\":\"lookup\","
                     "    \"response\":{\"result\":\"ok\"}}}]},"
                     " {\"role\":\"user\",\"parts\":[{\"text\":\"Thanks\"}]},"
                     " {\"role\":\"model\",\"parts\":[{\"text\":\"You're welcome\"}]},"
                     " {\"role\":\"user\",\"parts\":["
                     "   {\"functionResponse\":{\"name\":\"other\",\"response\":{\"result\":\"?\"}}}]}],"
                     "\"systemInstruction\":{\"parts\":[{\"text\":\"Sys prompt\"},{\"text\":\"Be brief.\"}]}}");

  /* Arguments that are an object go back byte for byte */
  {
    AgentRequest request = { provider, "m", NULL, G_LIST_MODEL (messages), NULL };
    g_autoptr(GBytes) bytes = agent_gemini_backend.build_body (&request, NULL);

    text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    g_assert_nonnull (strstr (text, "\"args\":{\"q\": 1,  \"big\": 12345678901234567890}"));
  }

  /* Max tokens and reasoning effort */
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autoptr(JsonNode) config = NULL;

      agent_provider_set_reasoning_effort (provider, options[i].effort);
      agent_provider_set_max_tokens (provider, options[i].max_tokens);
      config = build_body (provider, G_LIST_MODEL (messages), NULL);
      assert_json_equal (member (config, "generationConfig"), options[i].config);
      assert_json_equal (member (config, "systemInstruction"),
                         "{\"parts\":[{\"text\":\"Be brief.\"}]}");
    }
}

/* Vertex's partialArgs: every kind of value and path */
static void
test_partial_args (void)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_gemini_backend);
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  static const char * const chunks[] = {
    "{\"functionCall\":{\"name\":\"f\",\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.flags[1]\",\"boolValue\":true},"
    "{\"jsonPath\":\"$['odd key']\",\"nullValue\":null},{\"jsonPath\":\"$.n\",\"numberValue\":42}],"
    "\"willContinue\":true},\"thoughtSignature\":\"late\"}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.m[0][1]\",\"stringValue\":\"a\"},"
    "{\"jsonPath\":\"$.m[0][1]\",\"stringValue\":\"b\"},{\"jsonPath\":\"bad\",\"stringValue\":\"x\"},"
    "{\"jsonPath\":\"$[0]\",\"stringValue\":\"x\"},{\"jsonPath\":\"$.m[99999999999]\",\"stringValue\":\"x\"},"
    "{\"jsonPath\":\"$.n.x\",\"numberValue\":-0.25}],\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.s\",\"stringValue\":\"caf\\u00e9 \\\"q\\\"\"}]}}",
    /* A continuation of nothing: ignored */
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.s\",\"stringValue\":\"x\"}]}}",
    "{\"functionCall\":{\"name\":\"g\",\"args\":{\"z\":1.5,\"a\":[true,null]}}}",
    "{\"functionCall\":{\"name\":\"h\",\"willContinue\":true}}",
    "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.k\",\"stringValue\":\"v\",\"willContinue\":true}],"
    "\"willContinue\":true}}",
    NULL,
  };
  AgentMessage *message;
  AgentToolCall *call;

  for (guint i = 0; chunks[i]; i++)
    g_string_append_printf (body, "data: {\"candidates\":[{\"content\":{\"parts\":[%s]}}]}\n\n",
                            chunks[i]);
  /* The last call is ended by the finish reason. */
  g_string_append (body, "data: {\"candidates\":[{\"finishReason\":\"MAX_TOKENS\"}]}\n\n");

  g_assert_true (agent_test_feed (agent_test_replay_feed, r, body->str, body->len,
                                  AGENT_TEST_FEED_BYTES, NULL, &error));
  g_assert_no_error (error);
  agent_test_replay_finish (r);
  g_assert_true (r->finish_ok);
  g_assert_cmpstr (r->problems->str, ==, "");

  message = agent_test_replay_get_message (r);
  g_assert_cmpstr (agent_message_get_finish_reason (message), ==, "MAX_TOKENS");
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 3);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 0)), ==,
                   "{\"flags\":[null,true],\"odd key\":null,\"n\":{\"x\":-0.25},\"m\":[[null,\"ab\"]],"
                   "\"s\":\"café \\\"q\\\"\"}");
  call = agent_message_get_tool_call (message, 0);
  g_assert_cmpstr (gemini_data (agent_tool_call_get_provider_data (call), "thoughtSignature"), ==,
                   "late");
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 1)), ==,
                   "{\"z\":1.5,\"a\":[true,null]}");
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 2)), ==,
                   "{\"k\":\"v\"}");
  g_assert_cmpstr (agent_tool_call_get_name (agent_message_get_tool_call (message, 2)), ==, "h");
  g_assert_null (agent_message_get_content (message));
}

/* Errors */

static void
test_errors (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = gemini_provider_new (server);
  AgentSession *session = agent_session_new (provider);
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (session));
  g_autoptr(AgentMessage) partial = NULL;
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };

  agent_provider_set_api_key (provider, API_KEY);

  /* An HTTP error body, with the key echoed back */
  response = agent_test_server_add_response (server, 400);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"code\":400,\"message\":\"API key not valid: " API_KEY
                                ". Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\","
                                "\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\","
                                "\"reason\":\"API_KEY_INVALID\"}]}}");
  agent_test_turn_run (&turn, session, "Hi", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (turn.error->message, "400"));
  g_assert_nonnull (strstr (turn.error->message, "Please pass a valid API key."));
  g_assert_nonnull (strstr (turn.error->message, "INVALID_ARGUMENT"));
  g_assert_null (strstr (turn.error->message, "SECRET"));

  response = agent_test_server_add_response (server, 403);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"code\":403,\"message\":\"Method doesn't allow unregistered "
                                "callers.\",\"status\":\"PERMISSION_DENIED\"}}");
  agent_test_turn_run (&turn, session, "Hi", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (turn.error->message, "unregistered callers"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);

  /* An error chunk in the middle of the stream: what streamed is kept */
  response = agent_test_server_add_response (server, 200);
  add_chunk (response, "{\"text\":\"Thinking \",\"thought\":true}", NULL, NULL);
  add_chunk (response, "{\"text\":\"Half an \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"answer\"}", NULL, NULL);
  agent_test_response_add_bytes (response,
                                 "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded. "
                                 "Please try again later. (" API_KEY ")\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n",
                                 -1);
  agent_test_turn_run (&turn, session, "Again", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (turn.error->message,
                            "The model is overloaded. Please try again later."));
  g_assert_nonnull (strstr (turn.error->message, "UNAVAILABLE"));
  g_assert_null (strstr (turn.error->message, "SECRET"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 4);
  partial = g_list_model_get_item (memory, 3);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Half an answer");
  g_assert_cmpstr (agent_message_get_reasoning (partial), ==, "Thinking ");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_clear_object (&partial);

  /* A blocked prompt */
  response = agent_test_server_add_response (server, 200);
  agent_test_response_add_bytes (response,
                                 "data: {\"promptFeedback\":{\"blockReason\":\"PROHIBITED_CONTENT\"},"
                                 "\"usageMetadata\":{\"promptTokenCount\":8,\"totalTokenCount\":8},"
                                 "\"modelVersion\":\"gemini-2.5-flash\"}\r\n\r\n", -1);
  agent_test_turn_run (&turn, session, "Something bad", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (turn.error->message, "PROHIBITED_CONTENT"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 5);

  /* A stream that ends without a finish reason was cut off */
  response = agent_test_server_add_response (server, 200);
  add_chunk (response, "{\"text\":\"Cut \"}", NULL, NULL);
  add_chunk (response, "{\"text\":\"short\"}", NULL,
             "{\"promptTokenCount\":8,\"candidatesTokenCount\":2,\"totalTokenCount\":10}");
  agent_test_turn_run (&turn, session, "Once more", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  partial = g_list_model_get_item (memory, 6);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Cut short");
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_clear_object (&partial);

  /* A safety stop: the answer ends there, its calls are not run */
  response = agent_test_server_add_response (server, 200);
  add_chunk (response, "{\"functionCall\":{\"name\":\"calculator\",\"args\":{\"expression\":\"1\"}}}",
             "SAFETY", NULL);
  agent_test_turn_run (&turn, session, "Last", NULL);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (turn.error->message, "SAFETY"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 6);

  agent_test_turn_clear (&turn);
  g_assert_finalize_object (session);
  g_assert_finalize_object (provider);
}

/* Models */

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AgentTestTurn *out = user_data;
  char ***names = g_object_get_data (object, "names");

  *names = agent_provider_list_models_finish (AGENT_PROVIDER (object), result, &out->error);
  out->finished = TRUE;
}

static char **
list_models (AgentProvider  *provider,
             GError        **error)
{
  AgentTestTurn out = { 0 };
  char **names = NULL;

  g_object_set_data (G_OBJECT (provider), "names", &names);
  agent_provider_list_models_async (provider, NULL, list_models_cb, &out);
  agent_test_wait_for (&out.finished);
  g_object_set_data (G_OBJECT (provider), "names", NULL);
  if (out.error != NULL)
    g_propagate_error (error, out.error);

  return names;
}

static void
test_models (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  AgentProvider *provider = gemini_provider_new (server);
  g_autoptr(GError) error = NULL;
  AgentTestResponse *response;
  char **names;

  agent_provider_set_api_key (provider, API_KEY);

  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json",
                                "{\"models\":[{\"name\":\"models/gemini-2.5-flash\",\"version\":\"001\","
                                "\"displayName\":\"Gemini 2.5 Flash\",\"inputTokenLimit\":1048576,"
                                "\"supportedGenerationMethods\":[\"generateContent\",\"countTokens\"]},"
                                "{\"name\":\"models/text-embedding-004\","
                                "\"supportedGenerationMethods\":[\"embedContent\"]},"
                                "{\"name\":\"models/gemini-2.5-pro\"},{\"displayName\":\"no name\"}],"
                                "\"nextPageToken\":\"Ch5tb2RlbHM\"}");
  names = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "gemini-2.5-flash");
  g_assert_cmpstr (names[1], ==, "gemini-2.5-pro");
  g_strfreev (names);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1beta/models");
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "x-goog-api-key"), ==, API_KEY);
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Accept"), ==,
                   "application/json");

  response = agent_test_server_add_response (server, 400);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"code\":400,\"message\":\"API key not valid.\","
                                "\"status\":\"INVALID_ARGUMENT\"}}");
  names = list_models (provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (error->message, "API key not valid."));
  g_clear_error (&error);

  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", "{\"data\":[]}");
  names = list_models (provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);

  g_assert_finalize_object (provider);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  add_corpus_cases ();
  g_test_add_func ("/gemini/request/url", test_request_url);
  g_test_add_func ("/gemini/request/history", test_request_history);
  g_test_add_func ("/gemini/stream/partial-args", test_partial_args);
  g_test_add_func ("/gemini/session/tool-round-trip", test_tool_round_trip);
  g_test_add_func ("/gemini/session/errors", test_errors);
  g_test_add_func ("/gemini/models", test_models);

  return g_test_run ();
}
