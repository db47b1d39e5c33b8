/* test-provider-anthropic.c — the Anthropic Messages backend
 *
 * - /anthropic/corpus/<name>/{whole,bytes,random,cuts}: every stream of
 *   tests/corpus/anthropic decoded by agent_stream_decoder with the
 *   anthropic backend, fed whole, one byte at a time, in random pieces
 *   (several seeds) and cut in two (at every byte near a line boundary, at
 *   every 13th inside lines), against the "result" of its .expected.json,
 *   and what the accumulator's listener heard against an independent
 *   reading of the body (json-glib, a plain line splitter).
 *   Compared: id, model, role, stop_reason (the finish reason), usage (the
 *   merged object as the raw usage, and the counts read from it), the text
 *   blocks (concatenated into the content), the thinking blocks
 *   (concatenated into the reasoning; with their signatures, and every
 *   block libagent does not model, in the provider data), the tool_use
 *   blocks (id, name, arguments, arguments_valid_json, input), whether
 *   message_stop came (the decoder's end marker) and the number of events.
 *   Not compared, because libagent does not model them:
 *    - "stop_sequence" and "stop_details" (AgentMessage has no field);
 *    - "caller" of a tool_use block (sent by the API, never needed back);
 *    - "block_stopped": an unstopped block is only cut off (max_tokens),
 *      which the stop reason says;
 *   and compared differently:
 *    - "arguments" of a tool_use block that streamed no non-empty
 *      partial_json is "" in the corpus; libagent gives such a call its
 *      starting "input" ({}) as its arguments, so that is what is compared.
 * - /anthropic/session/…: AgentSession against the in-process server: a
 *   tool round trip with thinking (the second request checked field by
 *   field), HTTP errors, a mid-stream error event, a stream cut off.
 * - /anthropic/request/…: request bodies written from a memory built by
 *   hand (merged tool results, system messages, provider data), and the
 *   max-tokens and reasoning-effort options.
 * - /anthropic/models: model listing.
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

#define API_KEY    "sk-ant-test-0123456789"
#define CUT_LIMIT  4096
#define MAX_PIECE  64

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

/* Corpus */

typedef enum
{
  MODE_WHOLE,
  MODE_BYTES,
  MODE_RANDOM,
  MODE_CUTS,
} Mode;

static const char * const mode_names[] = { "whole", "bytes", "random", "cuts" };

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
  JsonObject *transport;
  char       *body;
  gsize       body_len;
  GString    *content;     /* text blocks, NULL if none */
  GString    *reasoning;   /* thinking blocks, NULL if none */
  GPtrArray  *calls;       /* JsonObject of the tool_use blocks */
  GPtrArray  *kept;        /* JsonObject of the blocks the provider data keeps */
  /* The independent reading of the body */
  guint       ref_events;
  guint       ref_text;
  guint       ref_reasoning;
  guint       ref_fragments;
} Expected;

static const char *
string_or_null (JsonObject *object,
                const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
}

/* What the listener must hear, event by event. @tools maps the index of a
 * tool_use block to 0 (open, no input yet), 1 (input came) or 2 (closed). */
static void
reference_event (Expected   *e,
                 const char *data,
                 GHashTable *tools)
{
  g_autoptr(JsonNode) node = agent_test_parse_json (data);
  JsonObject *event = json_node_get_object (node);
  const char *type = string_or_null (event, "type");
  gint64 index = json_object_get_int_member_with_default (event, "index", -1);
  gpointer key = GINT_TO_POINTER ((int) index);
  JsonObject *part;
  const char *s;

  e->ref_events++;

  if (g_strcmp0 (type, "content_block_start") == 0)
    {
      part = json_object_get_object_member (event, "content_block");
      if (g_strcmp0 (string_or_null (part, "type"), "tool_use") == 0)
        g_hash_table_insert (tools, key, GINT_TO_POINTER (0));
      if (g_strcmp0 (string_or_null (part, "type"), "text") == 0 &&
          (s = string_or_null (part, "text")) && s[0])
        e->ref_text++;
    }
  else if (g_strcmp0 (type, "content_block_delta") == 0)
    {
      part = json_object_get_object_member (event, "delta");
      type = string_or_null (part, "type");
      if (!strcmp (type, "text_delta") && string_or_null (part, "text")[0])
        e->ref_text++;
      else if (!strcmp (type, "thinking_delta") && string_or_null (part, "thinking")[0])
        e->ref_reasoning++;
      else if (!strcmp (type, "input_json_delta") && string_or_null (part, "partial_json")[0] &&
               g_hash_table_contains (tools, key))
        {
          e->ref_fragments++;
          g_hash_table_insert (tools, key, GINT_TO_POINTER (1));
        }
    }
  else if (g_strcmp0 (type, "content_block_stop") == 0 || g_strcmp0 (type, "message_delta") == 0)
    {
      GHashTableIter iter;
      gpointer k, state;

      /* A block closed without input gets {} as one fragment. */
      g_hash_table_iter_init (&iter, tools);
      while (g_hash_table_iter_next (&iter, &k, &state))
        if ((k == key || index < 0) && GPOINTER_TO_INT (state) != 2)
          {
            if (GPOINTER_TO_INT (state) == 0)
              e->ref_fragments++;
            g_hash_table_iter_replace (&iter, GINT_TO_POINTER (2));
          }
    }
}

static void
reference_read (Expected *e)
{
  g_autoptr(GHashTable) tools = g_hash_table_new (NULL, NULL);
  g_autoptr(GString) data = g_string_new (NULL);
  const char *p = e->body;
  const char *end = e->body + e->body_len;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      g_autofree char *line = NULL;

      if (eol == NULL)
        break;  /* an unterminated last line is discarded */
      line = g_strndup (p, eol - p);
      p = eol + 1;

      if (line[0] == '\0' && data->len > 0)
        {
          reference_event (e, data->str, tools);
          g_string_truncate (data, 0);
        }
      else if (g_str_has_prefix (line, "data: "))
        g_string_append (data, line + 6);
    }
}

static void
expected_load (Expected   *e,
               const Case *c)
{
  g_autofree char *stem = g_strndup (c->sse_path, strlen (c->sse_path) - strlen (".sse"));
  g_autofree char *expected_path = g_strconcat (stem, ".expected.json", NULL);
  g_autoptr(GError) error = NULL;
  JsonArray *content;

  memset (e, 0, sizeof *e);
  e->root = agent_test_load_json (expected_path);
  e->result = json_object_get_object_member (json_node_get_object (e->root), "result");
  e->transport = json_object_get_object_member (json_node_get_object (e->root), "transport");
  g_file_get_contents (c->sse_path, &e->body, &e->body_len, &error);
  g_assert_no_error (error);
  /* The recordings use LF only; the reference reader relies on it. */
  g_assert_null (memchr (e->body, '\r', e->body_len));

  e->calls = g_ptr_array_new ();
  e->kept = g_ptr_array_new ();
  content = json_object_get_array_member (e->result, "content");
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);
      const char *type = string_or_null (block, "type");

      if (g_strcmp0 (type, "text") == 0)
        {
          if (e->content == NULL)
            e->content = g_string_new (NULL);
          g_string_append (e->content, string_or_null (block, "text"));
        }
      else if (g_strcmp0 (type, "tool_use") == 0)
        g_ptr_array_add (e->calls, block);
      else if (json_object_get_boolean_member_with_default (block, "block_stopped", TRUE))
        g_ptr_array_add (e->kept, block);

      if (g_strcmp0 (type, "thinking") == 0)
        {
          if (e->reasoning == NULL)
            e->reasoning = g_string_new (NULL);
          g_string_append (e->reasoning, string_or_null (block, "thinking"));
        }
    }

  reference_read (e);
  g_assert_cmpuint (e->ref_events, ==,
                    json_object_get_int_member (e->transport, "events_dispatched"));
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->root, json_node_unref);
  g_clear_pointer (&e->body, g_free);
  if (e->content != NULL)
    g_string_free (e->content, TRUE);
  if (e->reasoning != NULL)
    g_string_free (e->reasoning, TRUE);
  g_ptr_array_unref (e->calls);
  g_ptr_array_unref (e->kept);
}

static void
expect_str (GString    *problems,
            const char *what,
            const char *expected,
            const char *actual)
{
  if (g_strcmp0 (expected, actual) != 0)
    g_string_append_printf (problems, "\n  %s: expected “%s”, got “%s”", what,
                            expected ? expected : "NULL", actual ? actual : "NULL");
}

static void
expect_int (GString    *problems,
            const char *what,
            gint64      expected,
            gint64      actual)
{
  if (expected != actual)
    g_string_append_printf (problems, "\n  %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT,
                            what, expected, actual);
}

static void
expect_json (GString    *problems,
             const char *what,
             JsonNode   *expected,
             JsonNode   *actual)
{
  if (!agent_test_json_equal (expected, actual))
    {
      g_autofree char *want = expected ? json_to_string (expected, FALSE) : g_strdup ("NULL");
      g_autofree char *got = actual ? json_to_string (actual, FALSE) : g_strdup ("NULL");

      g_string_append_printf (problems, "\n  %s: expected %s, got %s", what, want, got);
    }
}

static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonObject *expected)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), expected);
  gint64 input = json_object_get_int_member (expected, "input_tokens");
  gint64 output = json_object_get_int_member (expected, "output_tokens");

  if (usage == NULL)
    {
      g_string_append (problems, "\n  no usage");
      return;
    }
  expect_json (problems, "usage (raw)", node, agent_usage_get_raw (usage));
  expect_int (problems, "prompt tokens", input, agent_usage_get_prompt_tokens (usage));
  expect_int (problems, "completion tokens", output, agent_usage_get_completion_tokens (usage));
  expect_int (problems, "total tokens", input + output, agent_usage_get_total_tokens (usage));
}

/* The blocks kept in the provider data against the expected ones. */
static void
compare_kept (GString      *problems,
              AgentMessage *message,
              Expected     *e)
{
  JsonNode *data = agent_message_get_provider_data (message);
  JsonNode *mine = data ? json_object_get_member (json_node_get_object (data), "anthropic") : NULL;
  JsonArray *kept = NULL;

  if (mine != NULL)
    kept = json_object_get_array_member (json_node_get_object (mine), "content");
  expect_int (problems, "blocks kept in the provider data", e->kept->len,
              kept ? json_array_get_length (kept) : 0);
  if (kept == NULL || json_array_get_length (kept) != e->kept->len)
    return;

  for (guint i = 0; i < e->kept->len; i++)
    {
      JsonObject *want = g_ptr_array_index (e->kept, i);
      JsonObject *got = json_array_get_object_element (kept, i);
      static const char * const strings[] = { "type", "id", "name", "tool_use_id", "thinking",
                                              "signature" };

      for (guint k = 0; k < G_N_ELEMENTS (strings); k++)
        if (json_object_has_member (want, strings[k]))
          expect_str (problems, strings[k], string_or_null (want, strings[k]),
                      string_or_null (got, strings[k]));
      if (json_object_has_member (want, "input"))
        expect_json (problems, "kept block input", json_object_get_member (want, "input"),
                     json_object_get_member (got, "input"));
    }
}

static void
compare_calls (GString      *problems,
               AgentMessage *message,
               Expected     *e)
{
  expect_int (problems, "number of tool calls", e->calls->len,
              agent_message_get_n_tool_calls (message));
  if (e->calls->len != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < e->calls->len; i++)
    {
      JsonObject *want = g_ptr_array_index (e->calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      JsonNode *input = json_object_get_member (want, "input");
      const char *want_arguments = string_or_null (want, "arguments");
      g_autofree char *from_input = NULL;
      g_autoptr(JsonNode) parsed = NULL;
      gboolean want_valid = TRUE;

      if (want_arguments[0] == '\0')
        want_arguments = from_input = json_to_string (input, FALSE);
      else
        want_valid = json_object_get_boolean_member (want, "arguments_valid_json");

      parsed = agent_tool_call_parse_arguments (call, NULL);
      expect_int (problems, "call index", i, agent_tool_call_get_index (call));
      expect_str (problems, "call id", string_or_null (want, "id"), agent_tool_call_get_id (call));
      expect_str (problems, "call name", string_or_null (want, "name"),
                  agent_tool_call_get_name (call));
      expect_str (problems, "call type", "function", _agent_tool_call_get_type_name (call));
      expect_str (problems, "call arguments", want_arguments, agent_tool_call_get_arguments (call));
      expect_int (problems, "arguments_valid_json", want_valid, parsed != NULL);
      if (!JSON_NODE_HOLDS_NULL (input))
        expect_json (problems, "call input", input, parsed);
      expect_int (problems, "call state", AGENT_TOOL_CALL_STATE_READY,
                  agent_tool_call_get_state (call));
    }
}

static char *
replay_compare (AgentTestReplay *r,
                Expected        *e)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message = agent_test_replay_get_message (r);
  gboolean stop_received = json_object_get_boolean_member (e->result, "message_stop_received");
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);

  if (r->error != NULL)
    expect_str (problems, "error", NULL, r->error->message);
  /* A stop reason, or message_stop, makes a whole answer. */
  if (r->finish_error != NULL)
    expect_str (problems, "finish() error", NULL, r->finish_error->message);
  expect_int (problems, "finish() succeeds", TRUE, r->finish_ok);
  expect_int (problems, "message_stop seen", stop_received,
              agent_stream_decoder_is_done (r->decoder));
  expect_int (problems, "events decoded", e->ref_events,
              agent_stream_decoder_get_n_events (r->decoder));

  expect_str (problems, "id", string_or_null (e->result, "id"),
              agent_message_get_response_id (message));
  expect_str (problems, "model", string_or_null (e->result, "model"),
              agent_message_get_model (message));
  expect_str (problems, "role", string_or_null (e->result, "role"),
              agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT ? "assistant" : NULL);
  expect_str (problems, "stop reason", string_or_null (e->result, "stop_reason"),
              agent_message_get_finish_reason (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_object_member (e->result, "usage"));
  expect_str (problems, "content", e->content ? e->content->str : NULL, content);
  expect_str (problems, "reasoning", e->reasoning ? e->reasoning->str : NULL, reasoning);
  expect_str (problems, "refusal", NULL, agent_message_get_refusal (message));
  compare_calls (problems, message, e);
  compare_kept (problems, message, e);

  /* What the listener heard */
  g_string_append (problems, r->problems->str);
  expect_str (problems, "text deltas", content ? content : "", r->text->str);
  expect_str (problems, "reasoning deltas", reasoning ? reasoning : "", r->reasoning->str);
  expect_int (problems, "number of text deltas", e->ref_text, r->n_text);
  expect_int (problems, "number of reasoning deltas", e->ref_reasoning, r->n_reasoning);
  expect_int (problems, "number of argument fragments", e->ref_fragments, r->n_fragments);
  expect_int (problems, "calls heard of", agent_message_get_n_tool_calls (message),
              g_hash_table_size (r->fragments));
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      expect_str (problems, "a call's fragments", agent_tool_call_get_arguments (call),
                  agent_test_replay_get_fragments (r, call));
    }

  return problems->len > 0 ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

static gboolean
replay (Expected   *e,
        Mode        mode,
        GRand      *rand,
        gsize       cut,
        const char *context)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_anthropic_backend);
  g_autofree char *problems = NULL;

  switch (mode)
    {
    case MODE_WHOLE:
    case MODE_BYTES:
      agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len,
                       mode == MODE_WHOLE ? AGENT_TEST_FEED_WHOLE : AGENT_TEST_FEED_BYTES,
                       NULL, &r->error);
      break;

    case MODE_RANDOM:
      agent_test_feed_pieces (agent_test_replay_feed, r, e->body, e->body_len, MAX_PIECE, rand,
                              &r->error);
      break;

    case MODE_CUTS:
    default:
      agent_test_feed_cut (agent_test_replay_feed, r, e->body, e->body_len, cut, &r->error);
      break;
    }
  agent_test_replay_finish (r);

  if ((problems = replay_compare (r, e)) == NULL)
    return TRUE;
  g_test_fail_printf ("%s:%s", context, problems);
  return FALSE;
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
      replay (&e, c->mode, NULL, 0, "fed whole");
      break;

    case MODE_BYTES:
      replay (&e, c->mode, NULL, 0, "fed one byte at a time");
      break;

    case MODE_RANDOM:
      for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
        {
          g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[s]);
          g_autofree char *context = g_strdup_printf ("random pieces, seed %u", seeds[s]);

          if (!replay (&e, c->mode, rand, 0, context))
            break;
        }
      break;

    case MODE_CUTS:
    default:
      for (gsize cut = 1, line = 0; cut < e.body_len; cut++)
        {
          g_autofree char *context = NULL;

          /* Every byte near a line's start or end (field names, the blank
           * line), one in 13 inside the lines: cutting anywhere in a data
           * line is the same to the parser, and the sanitizer build is slow. */
          if (e.body[cut - 1] == '\n')
            line = cut;
          if (cut - line > 8 && cut % 13 != 0 &&
              (memchr (e.body + cut, '\n', MIN (3, e.body_len - cut)) == NULL))
            continue;

          context = g_strdup_printf ("cut at byte %zu", cut);
          if (!replay (&e, c->mode, NULL, cut, context))
            break;
        }
      break;
    }

  expected_clear (&e);
}

/* Blocks the corpus has none of: redacted thinking, a delta for a block
 * that never started, an unknown event, a tool whose input came whole in
 * content_block_start. */
static void
test_wire_extra_blocks (void)
{
  static const char body[] =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_x\",\"model\":\"m\","
      "\"usage\":{\"input_tokens\":3,\"output_tokens\":null}}}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":0,"
      "\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":7,\"delta\":{\"type\":\"input_json_delta\","
      "\"partial_json\":\"{}\"}}\n\n"
    "event: something_new\n"
    "data: {\"type\":\"something_new\",\"index\":0}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
      "\"id\":\"toolu_w\",\"name\":\"get\",\"input\":{\"k\":[1,2]}}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
    "event: message_delta\n"
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
      "\"usage\":{\"output_tokens\":9}}\n\n"
    "event: message_stop\n"
    "data: {\"type\":\"message_stop\"}\n\n";
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_anthropic_backend);
  g_autoptr(JsonNode) want = agent_test_parse_json (
    "{\"anthropic\":{\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy\"}]}}");
  g_autoptr(JsonNode) usage = agent_test_parse_json ("{\"input_tokens\":3,\"output_tokens\":9}");
  AgentMessage *message;

  g_assert_true (agent_test_replay_feed (r, body, strlen (body), &r->error));
  agent_test_replay_finish (r);
  g_assert_no_error (r->finish_error);
  g_assert_true (agent_stream_decoder_is_done (r->decoder));

  message = agent_test_replay_get_message (r);
  g_assert_null (agent_message_get_content (message));
  g_assert_null (agent_message_get_reasoning (message));
  g_assert_true (agent_test_json_equal (want, agent_message_get_provider_data (message)));
  g_assert_cmpuint (agent_message_get_n_tool_calls (message), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (message, 0)), ==,
                   "{\"k\":[1,2]}");
  g_assert_true (agent_test_json_equal (usage,
                                        agent_usage_get_raw (agent_message_get_usage (message))));
  g_assert_cmpstr (r->problems->str, ==, "");
}

/* A stream that ends before the stop reason is cut off; one that is not
 * JSON is a protocol error. */
static void
test_wire_incomplete (void)
{
  static const char cut[] =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_c\",\"model\":\"m\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
      "\"text\":\"Hal\"}}\n\n";
  static const char garbage[] = "event: content_block_delta\ndata: <html>\n\n";
  g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (&agent_anthropic_backend);
  g_autoptr(AgentTestReplay) g = agent_test_replay_new_for_backend (&agent_anthropic_backend);

  g_assert_true (agent_test_replay_feed (r, cut, strlen (cut), &r->error));
  agent_test_replay_finish (r);
  g_assert_false (r->finish_ok);
  g_assert_error (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (agent_message_get_content (agent_test_replay_get_message (r)), ==, "Hal");

  g_assert_false (agent_test_replay_feed (g, garbage, strlen (garbage), &g->error));
  g_assert_error (g->error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (g->error->message, "<html>"));
}

/* Sessions against the in-process server */

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GString         *text;
  GString         *reasoning;
  GString         *fragments;
  AgentTestTurn    turn;
} Fixture;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
}

static void
reasoning_delta_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    Fixture      *f)
{
  g_string_append (f->reasoning, delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    Fixture       *f)
{
  g_string_append (f->fragments, delta);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  const char *base_url;

  f->server = agent_test_server_new ();
  /* The server's base URL ends in /v1, which the backend's paths carry. */
  base_url = agent_test_server_get_base_url (f->server);
  g_assert_true (g_str_has_suffix (base_url, "/v1"));
  f->provider = agent_provider_new ("anthropic", NULL);
  {
    g_autofree char *root = g_strndup (base_url, strlen (base_url) - 3);

    agent_provider_set_base_url (f->provider, root);
  }
  agent_provider_set_model (f->provider, "claude-test");
  agent_provider_set_api_key (f->provider, API_KEY);
  f->session = agent_session_new (f->provider);
  f->text = g_string_new (NULL);
  f->reasoning = g_string_new (NULL);
  f->fragments = g_string_new (NULL);
  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
  g_signal_connect (f->session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), f);
  g_signal_connect (f->session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_string_free (f->text, TRUE);
  g_string_free (f->reasoning, TRUE);
  g_string_free (f->fragments, TRUE);
}

/* One event, as the API writes it: the event: line names the data's type. */
static void
add_event (AgentTestResponse *response,
           const char        *json)
{
  g_autoptr(JsonNode) node = agent_test_parse_json (json);
  g_autofree char *event = g_strdup_printf ("event: %s\ndata: %s\n\n",
                                            agent_test_get_string (json_node_get_object (node), "type"),
                                            json);

  agent_test_response_add_bytes (response, event, -1);
}

static void
add_start (AgentTestResponse *response,
           const char        *id,
           gint64             input_tokens)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"message_start\",\"message\":{\"id\":\"%s\","
                                           "\"type\":\"message\",\"role\":\"assistant\","
                                           "\"model\":\"claude-test-20250101\",\"content\":[],"
                                           "\"stop_reason\":null,\"stop_sequence\":null,"
                                           "\"usage\":{\"input_tokens\":%" G_GINT64_FORMAT ","
                                           "\"cache_read_input_tokens\":0,\"output_tokens\":1}}}",
                                           id, input_tokens);

  add_event (response, json);
}

static void
add_text_block (AgentTestResponse  *response,
                guint               index,
                const char * const *deltas)
{
  g_autofree char *start = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":%u,"
                                            "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                                            index);
  g_autofree char *stop = g_strdup_printf ("{\"type\":\"content_block_stop\",\"index\":%u}", index);

  add_event (response, start);
  for (guint i = 0; deltas[i]; i++)
    {
      g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":%u,"
                                                "\"delta\":{\"type\":\"text_delta\",\"text\":\"%s\"}}",
                                                index, deltas[i]);

      add_event (response, delta);
    }
  add_event (response, stop);
}

static void
add_end (AgentTestResponse *response,
         const char        *stop_reason,
         gint64             output_tokens)
{
  g_autofree char *json = g_strdup_printf ("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"%s\","
                                           "\"stop_sequence\":null},\"usage\":{\"output_tokens\":%"
                                           G_GINT64_FORMAT "}}",
                                           stop_reason, output_tokens);

  add_event (response, json);
  add_event (response, "{\"type\":\"message_stop\"}");
}

#define THINKING_1 "The user wants 2+2. "
#define THINKING_2 "I will use the calculator."
#define SIGNATURE  "EqQBCkgIARABGAIiQL+sig/nature=="

static void
add_tool_response (AgentTestServer *server)
{
  static const char * const text[] = { "Let me ", "compute.", NULL };
  AgentTestResponse *r = agent_test_server_add_response (server, 200);

  add_start (r, "msg_01", 20);
  add_event (r, "{\"type\":\"content_block_start\",\"index\":0,"
                "\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}");
  add_event (r, "{\"type\": \"ping\"}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":0,"
                "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"" THINKING_1 "\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":0,"
                "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"" THINKING_2 "\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":0,"
                "\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" SIGNATURE "\"}}");
  add_event (r, "{\"type\":\"content_block_stop\",\"index\":0}");
  add_text_block (r, 1, text);
  add_event (r, "{\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\","
                "\"id\":\"toolu_01A\",\"name\":\"calculator\",\"input\":{}}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":2,"
                "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":2,"
                "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"expres\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":2,"
                "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"sion\\\": \\\"2+\"}}");
  add_event (r, "{\"type\":\"content_block_delta\",\"index\":2,"
                "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"2\\\"}\"}}");
  add_event (r, "{\"type\":\"content_block_stop\",\"index\":2}");
  add_end (r, "tool_use", 30);
}

static void
add_text_response (AgentTestServer    *server,
                   const char * const *deltas)
{
  AgentTestResponse *r = agent_test_server_add_response (server, 200);

  add_start (r, "msg_02", 60);
  add_text_block (r, 0, deltas);
  add_end (r, "end_turn", 8);
}

static JsonObject *
request_body (Fixture *f,
              guint    index)
{
  JsonNode *body = agent_test_server_get_request_body (f->server, index);

  g_assert_nonnull (body);
  return json_node_get_object (body);
}

static JsonObject *
nth_object (JsonArray *array,
            guint      nth)
{
  g_assert_cmpuint (nth, <, json_array_get_length (array));
  return json_array_get_object_element (array, nth);
}

static void
assert_json (JsonNode   *node,
             const char *expected)
{
  g_autoptr(JsonNode) want = agent_test_parse_json (expected);

  if (!agent_test_json_equal (want, node))
    {
      g_autofree char *got = json_to_string (node, FALSE);

      g_test_fail_printf ("expected %s, got %s", expected, got);
    }
}

static void
test_tool_round_trip (Fixture       *f,
                      gconstpointer  data)
{
  static const char * const answer[] = { "2 + 2 ", "= 4.", NULL };
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentMessage) first = NULL;
  JsonObject *body;
  JsonArray *messages;
  JsonArray *content;
  JsonArray *tools;
  JsonObject *object;
  GListModel *memory;

  agent_session_add_tool (f->session, calculator);
  agent_session_set_system_prompt (f->session, "You are terse.");
  agent_session_set_stream_tool_call_chunks (f->session, TRUE);
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_LOW);
  agent_provider_set_max_tokens (f->provider, 2000);
  add_tool_response (f->server);
  add_text_response (f->server, answer);

  agent_test_turn_run (&f->turn, f->session, "What is 2+2?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "2 + 2 = 4.");
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "end_turn");
  g_assert_cmpstr (agent_message_get_response_id (f->turn.result), ==, "msg_02");
  g_assert_cmpstr (agent_message_get_model (f->turn.result), ==, "claude-test-20250101");
  g_assert_cmpstr (f->text->str, ==, "Let me compute.2 + 2 = 4.");
  g_assert_cmpstr (f->fragments->str, ==, "{\"expression\": \"2+2\"}");
  /* Thinking streamed as reasoning, kept out of the answer */
  g_assert_cmpstr (f->reasoning->str, ==, THINKING_1 THINKING_2);

  memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 4);
  first = g_list_model_get_item (memory, 1);
  g_assert_cmpstr (agent_message_get_content (first), ==, "Let me compute.");
  g_assert_cmpstr (agent_message_get_reasoning (first), ==, THINKING_1 THINKING_2);
  g_assert_cmpstr (agent_message_get_finish_reason (first), ==, "tool_use");
  g_assert_cmpuint (agent_message_get_n_tool_calls (first), ==, 1);
  g_assert_cmpstr (agent_tool_call_get_result (agent_message_get_tool_call (first, 0)), ==, "4");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_message_get_usage (first)), ==, 50);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (f->session)), ==, 118);

  /* Both requests: path, headers, options */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (f->server, i), ==, "/v1/messages");
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "x-api-key"), ==, API_KEY);
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "anthropic-version"), ==,
                       "2023-06-01");
      g_assert_null (agent_test_server_get_request_header (f->server, i, "Authorization"));
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Accept"), ==,
                       "text/event-stream");

      body = request_body (f, i);
      g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "claude-test");
      g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 2000);
      g_assert_true (json_object_get_boolean_member (body, "stream"));
      g_assert_cmpstr (json_object_get_string_member (body, "system"), ==, "You are terse.");
      assert_json (json_object_get_member (body, "thinking"),
                   "{\"type\":\"enabled\",\"budget_tokens\":1024}");
      g_assert_false (json_object_has_member (body, "temperature"));
      g_assert_cmpuint (json_object_get_size (body), ==, 7);

      tools = json_object_get_array_member (body, "tools");
      g_assert_cmpuint (json_array_get_length (tools), ==, 1);
      object = nth_object (tools, 0);
      g_assert_cmpuint (json_object_get_size (object), ==, 3);
      g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, "calculator");
      g_assert_cmpstr (json_object_get_string_member (object, "description"), ==,
                       agent_tool_get_description (calculator));
      g_assert_true (agent_test_json_equal (json_object_get_member (object, "input_schema"),
                                            agent_tool_get_parameters (calculator)));
    }

  messages = json_object_get_array_member (request_body (f, 0), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  assert_json (json_array_get_element (messages, 0), "{\"role\":\"user\",\"content\":\"What is 2+2?\"}");

  /* The second request carries the first answer back: the thinking block
   * with its signature exactly, the text, the call with its input as an
   * object; then the result in a user message, under the call's id. */
  messages = json_object_get_array_member (request_body (f, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  assert_json (json_array_get_element (messages, 0), "{\"role\":\"user\",\"content\":\"What is 2+2?\"}");

  object = nth_object (messages, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "role"), ==, "assistant");
  content = json_object_get_array_member (object, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  assert_json (json_array_get_element (content, 0),
               "{\"type\":\"thinking\",\"thinking\":\"" THINKING_1 THINKING_2 "\","
               "\"signature\":\"" SIGNATURE "\"}");
  assert_json (json_array_get_element (content, 1), "{\"type\":\"text\",\"text\":\"Let me compute.\"}");
  assert_json (json_array_get_element (content, 2),
               "{\"type\":\"tool_use\",\"id\":\"toolu_01A\",\"name\":\"calculator\","
               "\"input\":{\"expression\":\"2+2\"}}");

  assert_json (json_array_get_element (messages, 2),
               "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
               "\"tool_use_id\":\"toolu_01A\",\"content\":\"4\"}]}");
}

/* The API's own error body, with the key echoed back in it. */
static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  AgentTestResponse *r;
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));

  r = agent_test_server_add_response (f->server, 400);
  agent_test_response_set_body (r, "application/json",
                                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                                "\"message\":\"max_tokens: 999999 > 64000, the maximum\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "max_tokens: 999999 > 64000, the maximum"));
  g_assert_nonnull (strstr (f->turn.error->message, "invalid_request_error"));
  g_assert_nonnull (strstr (f->turn.error->message, "400"));
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 1);

  r = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (r, "application/json",
                                "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                                "\"message\":\"invalid x-api-key " API_KEY "\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (f->turn.error->message, "invalid x-api-key"));
  g_assert_null (strstr (f->turn.error->message, API_KEY));
}

/* An error event in the middle of a 200 stream: the provider's message,
 * and what streamed before it kept as an interrupted message. */
static void
test_stream_error (Fixture       *f,
                   gconstpointer  data)
{
  static const char * const partial[] = { "Partial ", "answer", NULL };
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_autoptr(AgentMessage) message = NULL;
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_e", 5);
  add_text_block (r, 0, partial);
  add_event (r, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                "\"message\":\"Overloaded (key " API_KEY ")\"}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "Overloaded"));
  g_assert_nonnull (strstr (f->turn.error->message, "overloaded_error"));
  g_assert_null (strstr (f->turn.error->message, API_KEY));
  g_assert_cmpstr (f->text->str, ==, "Partial answer");

  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);
  message = g_list_model_get_item (memory, 1);
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Partial answer");
}

/* A body that ends without the stop reason, or without any event. */
static void
test_cut_off (Fixture       *f,
              gconstpointer  data)
{
  static const char * const partial[] = { "Cut ", NULL };
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_c", 5);
  add_text_block (r, 0, partial);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpstr (f->text->str, ==, "Cut ");

  /* The last event cut in the middle, after the stop reason: whole. */
  r = agent_test_server_add_response (f->server, 200);
  add_start (r, "msg_d", 5);
  add_text_block (r, 0, partial);
  add_event (r, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                "\"usage\":{\"output_tokens\":2}}");
  agent_test_response_add_bytes (r, "event: message_stop\ndata: {\"type\":\"mess", -1);
  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Cut ");
}

/* Request bodies */

static char *
build_body (AgentProvider *provider,
            GListModel    *messages,
            GListModel    *tools,
            const char    *system_prompt)
{
  g_autoptr(GListStore) empty = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  AgentRequest request = { 0 };

  request.provider = provider;
  request.model = agent_provider_get_model (provider);
  request.system_prompt = system_prompt;
  request.messages = messages ? messages : G_LIST_MODEL (empty);
  request.tools = tools;
  bytes = agent_anthropic_backend.build_body (&request, &error);
  g_assert_no_error (error);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static AgentMessage *
assistant_new (const char *content,
               ...)
{
  AgentMessage *message = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, content);
  const char *id;
  va_list args;

  va_start (args, content);
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
append (GListStore   *store,
        AgentMessage *message)
{
  g_list_store_append (store, message);
  g_object_unref (message);
}

/* Tool results become one user message with the user's next words;
 * system messages join the system prompt; the blocks in the provider data
 * go back first, other providers' data is left alone; the arguments go
 * back byte for byte, as an object. */
static void
test_request_messages (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("anthropic", NULL);
  g_autoptr(GListStore) store = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(JsonNode) provider_data = agent_test_parse_json (
    "{\"anthropic\":{\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"}]},"
    "\"openai-responses\":{\"id\":\"rs_1\"}}");
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *body = NULL;
  AgentMessage *message;
  JsonObject *object;

  append (store, agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Be brief."));
  append (store, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Weather and time?"));
  message = assistant_new ("Checking.",
                           "toolu_a", "get_weather", "{\"city\": \"Paris\",\n \"n\": 12345678901234567890}",
                           "toolu_b", "get_time", "",
                           "toolu_c", "broken", "{\"cut\": ",
                           NULL);
  agent_message_set_provider_data (message, provider_data);
  append (store, message);
  append (store, agent_message_new_tool_result ("toolu_a", "get_weather", "Sunny", FALSE));
  append (store, agent_message_new_tool_result ("toolu_b", "get_time", "No clock", TRUE));
  append (store, agent_message_new_tool_result ("toolu_c", "broken", "", TRUE));
  append (store, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Thanks"));
  append (store, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "You're welcome."));
  append (store, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL));  /* nothing: left out */
  append (store, agent_message_new (AGENT_MESSAGE_ROLE_USER, "Bye"));

  body = build_body (provider, G_LIST_MODEL (store), NULL, "You test.");
  g_assert_nonnull (strstr (body, "\"input\":{\"city\": \"Paris\",\n \"n\": 12345678901234567890}"));

  root = agent_test_parse_json (body);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "system"), ==, "You test.\n\nBe brief.");
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "claude-sonnet-4-5");
  g_assert_false (json_object_has_member (object, "tools"));
  g_assert_false (json_object_has_member (object, "thinking"));
  assert_json (json_object_get_member (object, "messages"),
               "[{\"role\":\"user\",\"content\":\"Weather and time?\"},"
               " {\"role\":\"assistant\",\"content\":["
               "   {\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"},"
               "   {\"type\":\"text\",\"text\":\"Checking.\"},"
               "   {\"type\":\"tool_use\",\"id\":\"toolu_a\",\"name\":\"get_weather\","
               "    \"input\":{\"city\":\"Paris\",\"n\":12345678901234567890}},"
               "   {\"type\":\"tool_use\",\"id\":\"toolu_b\",\"name\":\"get_time\",\"input\":{}},"
               "   {\"type\":\"tool_use\",\"id\":\"toolu_c\",\"name\":\"broken\",\"input\":{}}]},"
               " {\"role\":\"user\",\"content\":["
               "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_a\",\"content\":\"Sunny\"},"
               "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_b\",\"content\":\"No clock\","
               "    \"is_error\":true},"
               "   {\"type\":\"tool_result\",\"tool_use_id\":\"toolu_c\",\"content\":\"\","
               "    \"is_error\":true},"
               "   {\"type\":\"text\",\"text\":\"Thanks\"}]},"
               " {\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"You're welcome.\"}]},"
               " {\"role\":\"user\",\"content\":\"Bye\"}]");
}

/* max_tokens is required (4096 by default); the effort is a thinking
 * budget, which max_tokens must exceed. */
static void
test_request_options (void)
{
  static const struct {
    AgentReasoningEffort effort;
    guint                max_tokens;
    gint64               sent_max_tokens;
    gint64               budget;   /* 0: no thinking member */
  } cases[] = {
    { AGENT_REASONING_EFFORT_DEFAULT, 0, 4096, 0 },
    { AGENT_REASONING_EFFORT_DEFAULT, 123, 123, 0 },
    { AGENT_REASONING_EFFORT_NONE, 0, 4096, 0 },
    { AGENT_REASONING_EFFORT_LOW, 0, 4096, 1024 },
    { AGENT_REASONING_EFFORT_LOW, 1024, 1024 + 4096, 1024 },
    { AGENT_REASONING_EFFORT_MEDIUM, 1000, 4096 + 4096, 4096 },
    { AGENT_REASONING_EFFORT_MEDIUM, 0, 4096 + 4096, 4096 },
    { AGENT_REASONING_EFFORT_HIGH, 32000, 32000, 16384 },
  };
  g_autoptr(AgentProvider) provider = agent_provider_new ("claude", NULL);
  g_autoptr(GListStore) tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();

  g_assert_cmpstr (agent_provider_get_name (provider), ==, "anthropic");
  g_assert_cmpstr (agent_provider_get_default_base_url (provider), ==, "https://api.anthropic.com");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "ANTHROPIC_API_KEY");
  g_list_store_append (tools, tool);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonObject *object;

      agent_provider_set_reasoning_effort (provider, cases[i].effort);
      agent_provider_set_max_tokens (provider, cases[i].max_tokens);
      body = build_body (provider, NULL, G_LIST_MODEL (tools), i % 2 ? "" : NULL);
      root = agent_test_parse_json (body);
      object = json_node_get_object (root);

      g_assert_cmpint (json_object_get_int_member (object, "max_tokens"), ==, cases[i].sent_max_tokens);
      g_assert_cmpint (json_object_get_int_member (object, "max_tokens"), >, cases[i].budget);
      g_assert_true (json_object_get_boolean_member (object, "stream"));
      g_assert_false (json_object_has_member (object, "system"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "messages")), ==, 0);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "tools")), ==, 1);
      if (cases[i].budget == 0)
        g_assert_false (json_object_has_member (object, "thinking"));
      else
        {
          JsonObject *thinking = json_object_get_object_member (object, "thinking");

          g_assert_cmpstr (json_object_get_string_member (thinking, "type"), ==, "enabled");
          g_assert_cmpint (json_object_get_int_member (thinking, "budget_tokens"), ==, cases[i].budget);
        }
    }
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
test_models (Fixture       *f,
             gconstpointer  data)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_body (r, "application/json",
                                "{\"data\":[{\"type\":\"model\",\"id\":\"claude-opus-4-1-20250805\","
                                "\"display_name\":\"Claude Opus 4.1\",\"created_at\":\"2025-08-05T00:00:00Z\"},"
                                "{\"type\":\"model\",\"id\":\"claude-haiku-4-5\",\"display_name\":\"Claude Haiku 4.5\"}],"
                                "\"has_more\":false,\"first_id\":\"claude-opus-4-1-20250805\","
                                "\"last_id\":\"claude-haiku-4-5\"}");
  names = list_models (f->provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "claude-opus-4-1-20250805");
  g_assert_cmpstr (names[1], ==, "claude-haiku-4-5");
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/models");
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "x-api-key"), ==, API_KEY);
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "anthropic-version"), ==,
                   "2023-06-01");
  g_assert_null (agent_test_server_get_request_header (f->server, 0, "Authorization"));
  g_clear_pointer (&names, g_strfreev);

  /* Without a key, no key header; the API's error body */
  agent_provider_set_api_key (f->provider, NULL);
  r = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (r, "application/json",
                                "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                                "\"message\":\"x-api-key header is required\"}}");
  names = list_models (f->provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (error->message, "x-api-key header is required"));
  g_assert_null (agent_test_server_get_request_header (f->server, 1, "x-api-key"));
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 1, "anthropic-version"), ==,
                   "2023-06-01");
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) files = NULL;

  g_test_init (&argc, &argv, NULL);
  /* Report every broken file, not only the first. */
  g_test_set_nonfatal_assertions ();

  files = agent_test_list_corpus ("anthropic", ".sse");
  g_assert_nonnull (files[0]);
  for (guint i = 0; files[i]; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      g_autofree char *contents = NULL;
      gsize len = 0;

      basename[strlen (basename) - strlen (".sse")] = '\0';
      g_assert_true (g_file_get_contents (files[i], &contents, &len, NULL));

      for (Mode mode = MODE_WHOLE; mode <= MODE_CUTS; mode++)
        {
          g_autofree char *path = g_strdup_printf ("/anthropic/corpus/%s/%s", basename,
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

  g_test_add_func ("/anthropic/wire/extra-blocks", test_wire_extra_blocks);
  g_test_add_func ("/anthropic/wire/incomplete", test_wire_incomplete);
  g_test_add ("/anthropic/session/tool-round-trip", Fixture, NULL,
              fixture_setup, test_tool_round_trip, fixture_teardown);
  g_test_add ("/anthropic/session/http-error", Fixture, NULL,
              fixture_setup, test_http_error, fixture_teardown);
  g_test_add ("/anthropic/session/stream-error", Fixture, NULL,
              fixture_setup, test_stream_error, fixture_teardown);
  g_test_add ("/anthropic/session/cut-off", Fixture, NULL,
              fixture_setup, test_cut_off, fixture_teardown);
  g_test_add_func ("/anthropic/request/messages", test_request_messages);
  g_test_add_func ("/anthropic/request/options", test_request_options);
  g_test_add ("/anthropic/models", Fixture, NULL, fixture_setup, test_models, fixture_teardown);

  return g_test_run ();
}
