/* test-corpus.c — recorded OpenAI chat streams replayed against expected.json
 *
 * Every tests/corpus/openai-chat/<name>.sse is decoded two ways and compared with
 * the "result" of its .expected.json (conventions in tests/corpus/MANIFEST.md):
 *
 *  - wire level: agent_stream_decoder + the openai-chat backend + an
 *    accumulator, the body fed whole, one byte at a time, in random pieces
 *    (several fixed seeds) and, for files under 4 KiB, cut in two at every
 *    possible point;
 *  - end to end: the public API (AgentProvider "openai", AgentSession) over
 *    real HTTP from the in-process test server, the body written whole and
 *    in random pieces.
 *
 * Not compared, because the library does not model them:
 *  - "logprobs_token_count": libagent drops logprobs (AgentMessage has no
 *    field for them);
 *  - "provider_usage" (Groq's x_groq.usage): libagent only uses it as a
 *    fallback when the standard "usage" never came (test-accumulator checks
 *    that); in the corpus the standard field is present, so "usage" is what
 *    is compared;
 *  - "message.role" is always "assistant" and is compared with the role;
 *  - "error" is compared through the GError of the decoder / the turn, not
 *    through the message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-openai-chat-private.h"
#include "agent-tool-call-private.h"

#include "agent-test-feed.h"
#include "agent-test-openai.h"
#include "agent-test-replay.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

/* Files smaller than this are also cut in two at every byte. */
#define CUT_LIMIT 4096
/* Random pieces are 1..MAX_PIECE bytes. */
#define MAX_PIECE 64

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

typedef enum
{
  MODE_WHOLE,
  MODE_BYTES,
  MODE_RANDOM,
  MODE_CUTS,
  MODE_HTTP_WHOLE,
  MODE_HTTP_PIECES,
} Mode;

static const char * const mode_names[] = {
  "whole", "bytes", "random", "cuts", "http-whole", "http-pieces",
};

typedef struct
{
  char  *name;
  char  *sse_path;
  char  *expected_path;
  Mode   mode;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->name);
  g_free (c->sse_path);
  g_free (c->expected_path);
  g_free (c);
}

/* Expectations */

typedef struct
{
  JsonNode   *root;
  JsonObject *result;
  JsonObject *transport;
  char       *body;
  gsize       body_len;
  /* From an independent reading of the body (see reference_read) */
  guint       ref_events;       /* events an EventSource would dispatch */
  guint       ref_text;         /* non-empty delta.content strings, choice 0 */
  guint       ref_reasoning;    /* non-empty reasoning / reasoning_content */
  guint       ref_refusal;      /* non-empty delta.refusal */
  guint       ref_fragments;    /* non-empty function.arguments */
} Expected;

static JsonObject *
get_object_or_null (JsonObject *object,
                    const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* A string member, NULL when absent or JSON null. */
static const char *
get_string_or_null (JsonObject *object,
                    const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  g_assert_true (JSON_NODE_HOLDS_VALUE (node));
  return json_node_get_string (node);
}

/* The choice an expectation talks about: the result itself, or choices[i]
 * when the stream had more than one. */
static JsonObject *
expected_choice (Expected *e,
                 guint     index)
{
  JsonArray *choices;

  if (!json_object_has_member (e->result, "choices"))
    {
      g_assert_cmpuint (index, ==, 0);
      return e->result;
    }

  choices = json_object_get_array_member (e->result, "choices");
  g_assert_cmpuint (index, <, json_array_get_length (choices));
  return json_array_get_object_element (choices, index);
}

static guint
expected_n_choices (Expected *e)
{
  if (!json_object_has_member (e->result, "choices"))
    return 1;
  return json_array_get_length (json_object_get_array_member (e->result, "choices"));
}

static JsonArray *
expected_tool_calls (Expected *e)
{
  JsonObject *message = json_object_get_object_member (expected_choice (e, 0), "message");

  return json_object_get_array_member (message, "tool_calls");
}

static JsonObject *
expected_error (Expected *e)
{
  return get_object_or_null (get_object_or_null (e->result, "error"), "error");
}

static gint64
expected_total_tokens (Expected *e)
{
  JsonNode *usage = json_object_get_member (e->result, "usage");

  if (usage == NULL || !JSON_NODE_HOLDS_OBJECT (usage))
    return 0;
  return json_object_get_int_member (json_node_get_object (usage), "total_tokens");
}

/* A whole answer: the [DONE] sentinel, or a finish reason, arrived. */
static gboolean
expected_complete (Expected *e)
{
  return json_object_get_boolean_member (e->transport, "done_sentinel") ||
         get_string_or_null (expected_choice (e, 0), "finish_reason") != NULL;
}

static JsonArray *
get_array_or_null (JsonObject *object,
                   const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* An independent reading of the body, with json-glib rather than the
 * library's cJSON and a plain line splitter rather than its SSE parser,
 * only to count what the listener must see. It follows the rules the
 * MANIFEST lists for "transport"; the number of events it finds is checked
 * against transport.events_dispatched. */
static void
reference_event (Expected   *e,
                 const char *data,
                 gboolean   *stop)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *choices;

  e->ref_events++;

  if (*stop)
    return;
  if (strcmp (data, "[DONE]") == 0)
    {
      *stop = TRUE;
      return;
    }

  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));

  if (json_object_has_member (root, "error"))
    {
      *stop = TRUE;
      return;
    }

  choices = get_array_or_null (root, "choices");
  if (choices == NULL)
    return;

  for (guint i = 0; i < json_array_get_length (choices); i++)
    {
      JsonObject *choice = json_array_get_object_element (choices, i);
      JsonObject *delta = get_object_or_null (choice, "delta");
      static const char * const reasoning_names[] = { "reasoning", "reasoning_content" };
      JsonArray *calls;
      const char *s;

      if (json_object_has_member (choice, "index") &&
          json_object_get_int_member (choice, "index") != 0)
        continue;
      if (delta == NULL)
        continue;

      if ((s = get_string_or_null (delta, "content")) && s[0] != '\0')
        e->ref_text++;
      if ((s = get_string_or_null (delta, "refusal")) && s[0] != '\0')
        e->ref_refusal++;
      for (guint k = 0; k < G_N_ELEMENTS (reasoning_names); k++)
        if ((s = get_string_or_null (delta, reasoning_names[k])) && s[0] != '\0')
          e->ref_reasoning++;

      calls = get_array_or_null (delta, "tool_calls");
      if (calls == NULL)
        continue;

      for (guint k = 0; k < json_array_get_length (calls); k++)
        {
          JsonObject *call = json_array_get_object_element (calls, k);
          JsonObject *function = get_object_or_null (call, "function");
          JsonNode *arguments = function ? json_object_get_member (function, "arguments") : NULL;

          if (arguments == NULL || JSON_NODE_HOLDS_NULL (arguments))
            continue;
          if (JSON_NODE_HOLDS_OBJECT (arguments) ||
              (JSON_NODE_HOLDS_VALUE (arguments) && json_node_get_string (arguments)[0] != '\0'))
            e->ref_fragments++;
        }
    }
}

static void
reference_read (Expected *e)
{
  g_autoptr(GString) data = g_string_new (NULL);
  const char *p = e->body;
  const char *end = e->body + e->body_len;
  gboolean stop = FALSE;

  while (p < end)
    {
      const char *eol = p;
      g_autofree char *line = NULL;

      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      if (eol == end)
        break;  /* an unterminated last line is discarded */

      line = g_strndup (p, eol - p);
      p = eol + 1;
      if (*eol == '\r' && p < end && *p == '\n')
        p++;

      if (line[0] == '\0')
        {
          if (data->len > 0)
            {
              g_string_truncate (data, data->len - 1);
              reference_event (e, data->str, &stop);
              g_string_truncate (data, 0);
            }
        }
      else if (g_str_has_prefix (line, "data:"))
        {
          const char *value = line + 5;

          if (*value == ' ')
            value++;
          g_string_append (data, value);
          g_string_append_c (data, '\n');
        }
      /* comments, event:, and unknown fields (" data") add no data */
    }
}

static void
expected_load (Expected   *e,
               const Case *c)
{
  g_autoptr(GError) error = NULL;

  memset (e, 0, sizeof *e);
  e->root = agent_test_load_json (c->expected_path);
  e->result = json_object_get_object_member (json_node_get_object (e->root), "result");
  e->transport = json_object_get_object_member (json_node_get_object (e->root), "transport");
  g_file_get_contents (c->sse_path, &e->body, &e->body_len, &error);
  g_assert_no_error (error);

  reference_read (e);
  /* The reference reader agrees with the corpus' own transport analysis. */
  g_assert_cmpuint (e->ref_events, ==,
                    json_object_get_int_member (e->transport, "events_dispatched"));
}

static void
expected_clear (Expected *e)
{
  g_clear_pointer (&e->root, json_node_unref);
  g_clear_pointer (&e->body, g_free);
}

/* Comparison, collecting every mismatch so a failure says all that is wrong
 * and where (file, mode, seed or cut point). */

static void
append_quoted (GString    *out,
               const char *s)
{
  g_autofree char *escaped = NULL;

  if (s == NULL)
    {
      g_string_append (out, "NULL");
      return;
    }
  escaped = g_strescape (s, NULL);
  if (strlen (escaped) > 200)
    g_string_append_printf (out, "\"%.200s…\" (%zu bytes)", escaped, strlen (s));
  else
    g_string_append_printf (out, "\"%s\"", escaped);
}

static void
expect_str (GString    *problems,
            const char *what,
            const char *expected,
            const char *actual)
{
  if (g_strcmp0 (expected, actual) == 0)
    return;
  g_string_append_printf (problems, "\n  %s: expected ", what);
  append_quoted (problems, expected);
  g_string_append (problems, ", got ");
  append_quoted (problems, actual);
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
expect_true (GString    *problems,
             const char *what,
             gboolean    value)
{
  if (!value)
    g_string_append_printf (problems, "\n  %s", what);
}

static gint64
member_int_or_zero (JsonObject *object,
                    const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  return json_node_get_int (node);
}

static void
compare_usage (GString    *problems,
               AgentUsage *usage,
               JsonNode   *expected)
{
  g_autofree char *raw = NULL;
  JsonObject *object;

  if (expected == NULL || JSON_NODE_HOLDS_NULL (expected))
    {
      expect_true (problems, "usage: expected none", usage == NULL);
      return;
    }
  if (usage == NULL)
    {
      expect_true (problems, "usage: expected some, got none", FALSE);
      return;
    }

  raw = agent_usage_get_raw (usage) ? json_to_string (agent_usage_get_raw (usage), FALSE) : NULL;
  if (!agent_test_json_equal (agent_usage_get_raw (usage), expected))
    {
      g_autofree char *want = json_to_string (expected, FALSE);

      expect_str (problems, "usage (raw)", want, raw);
    }

  /* The counts are read from the provider's fields. */
  object = json_node_get_object (expected);
  expect_int (problems, "usage.prompt_tokens", member_int_or_zero (object, "prompt_tokens"),
              agent_usage_get_prompt_tokens (usage));
  expect_int (problems, "usage.completion_tokens",
              member_int_or_zero (object, "completion_tokens"),
              agent_usage_get_completion_tokens (usage));
  expect_int (problems, "usage.total_tokens", member_int_or_zero (object, "total_tokens"),
              agent_usage_get_total_tokens (usage));
  expect_int (problems, "usage.reasoning_tokens",
              member_int_or_zero (get_object_or_null (object, "completion_tokens_details"),
                                  "reasoning_tokens"),
              agent_usage_get_reasoning_tokens (usage));
  expect_int (problems, "usage.cached_tokens",
              member_int_or_zero (get_object_or_null (object, "prompt_tokens_details"),
                                  "cached_tokens"),
              agent_usage_get_cached_tokens (usage));
}

typedef enum
{
  CALLS_READY,        /* wire level: the stream ended, the calls are ready */
  CALLS_UNKNOWN_TOOL, /* end to end without tools: each failed as unknown */
} CallsState;

/* The message of one choice against {"message": …, "finish_reason": …} */
static void
compare_message (GString      *problems,
                 AgentMessage *message,
                 JsonObject   *choice,
                 CallsState    calls_state)
{
  JsonObject *expected = json_object_get_object_member (choice, "message");
  JsonArray *calls = json_object_get_array_member (expected, "tool_calls");
  guint n_calls = json_array_get_length (calls);

  expect_str (problems, "message.role", json_object_get_string_member (expected, "role"),
              agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT ? "assistant"
                                                                               : "other");
  /* null and "" differ: null means no content string ever arrived. */
  expect_str (problems, "message.content", get_string_or_null (expected, "content"),
              agent_message_get_content (message));
  expect_str (problems, "message.reasoning", get_string_or_null (expected, "reasoning"),
              agent_message_get_reasoning (message));
  expect_str (problems, "message.refusal", get_string_or_null (expected, "refusal"),
              agent_message_get_refusal (message));
  expect_str (problems, "finish_reason", get_string_or_null (choice, "finish_reason"),
              agent_message_get_finish_reason (message));

  expect_int (problems, "number of tool calls", n_calls, agent_message_get_n_tool_calls (message));
  if (n_calls != agent_message_get_n_tool_calls (message))
    return;

  for (guint i = 0; i < n_calls; i++)
    {
      JsonObject *want = json_array_get_object_element (calls, i);
      AgentToolCall *call = agent_message_get_tool_call (message, i);
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *what = NULL;
      const char *arguments = agent_tool_call_get_arguments (call);
      const char *want_id = get_string_or_null (want, "id");
      gboolean valid;

#define WHAT(field) (g_free (what), what = g_strdup_printf ("tool_calls[%u].%s", i, field))
      /* "index" in expected.json is the wire index; the library's index
       * is the position in order of first appearance. */
      expect_int (problems, WHAT ("index (position)"), i, agent_tool_call_get_index (call));
      if (want_id != NULL || calls_state == CALLS_READY)
        expect_str (problems, WHAT ("id"), want_id, agent_tool_call_get_id (call));
      else
        expect_true (problems, WHAT ("id: the session gives calls without one an id"),
                     agent_tool_call_get_id (call) != NULL);
      expect_str (problems, WHAT ("type"), get_string_or_null (want, "type"),
                  _agent_tool_call_get_type_name (call));
      expect_str (problems, WHAT ("name"), get_string_or_null (want, "name"),
                  agent_tool_call_get_name (call));
      expect_str (problems, WHAT ("arguments"), get_string_or_null (want, "arguments"), arguments);

      /* arguments_valid_json is about the bytes the model sent: "" is not
       * valid JSON, even though parse_arguments() reads it as {}. */
      parsed = agent_tool_call_parse_arguments (call, &error);
      valid = arguments[0] != '\0' && parsed != NULL;
      expect_int (problems, WHAT ("arguments_valid_json"),
                  json_object_get_boolean_member (want, "arguments_valid_json"), valid);
      if (arguments[0] == '\0')
        expect_true (problems, WHAT ("arguments: empty arguments parse as {}"),
                     parsed != NULL && JSON_NODE_HOLDS_OBJECT (parsed) &&
                     json_object_get_size (json_node_get_object (parsed)) == 0);
      if (parsed == NULL)
        expect_true (problems, WHAT ("arguments: a parse failure is INVALID_ARGUMENT"),
                     g_error_matches (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT));

      if (calls_state == CALLS_READY)
        expect_int (problems, WHAT ("state"), AGENT_TOOL_CALL_STATE_READY,
                    agent_tool_call_get_state (call));
      else
        {
          const char *result = agent_tool_call_get_result (call);

          expect_int (problems, WHAT ("state"), AGENT_TOOL_CALL_STATE_FAILED,
                      agent_tool_call_get_state (call));
          expect_true (problems, WHAT ("is_error"), agent_tool_call_is_error (call));
          expect_true (problems, WHAT ("result names the unknown tool"),
                       result != NULL && agent_tool_call_get_name (call) != NULL &&
                       strstr (result, agent_tool_call_get_name (call)) != NULL);
        }
#undef WHAT
    }
}

/* id, model and usage of the whole response, on the message of choice 0 */
static void
compare_response (GString      *problems,
                  AgentMessage *message,
                  Expected     *e)
{
  expect_str (problems, "id", get_string_or_null (e->result, "id"),
              agent_message_get_response_id (message));
  expect_str (problems, "model", get_string_or_null (e->result, "model"),
              agent_message_get_model (message));
  compare_usage (problems, agent_message_get_usage (message),
                 json_object_get_member (e->result, "usage"));
}

/* The provider's error, when the stream carried one. */
static void
compare_error (GString      *problems,
               const GError *error,
               Expected     *e)
{
  JsonObject *want = expected_error (e);
  const char *provider_message;

  if (want == NULL)
    {
      if (error != NULL)
        expect_str (problems, "error", NULL, error->message);
      return;
    }

  provider_message = json_object_get_string_member (want, "message");
  if (error == NULL)
    {
      expect_str (problems, "error", provider_message, NULL);
      return;
    }

  expect_true (problems, "the error is AGENT_ERROR_PROVIDER",
               g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROVIDER));
  if (strstr (error->message, provider_message) == NULL)
    expect_str (problems, "error message (should contain the provider's)", provider_message,
                error->message);
}

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

/* What the listener saw against the message and the reference counts. */
static void
compare_listener (GString         *problems,
                  AgentTestReplay *r,
                  AgentMessage    *message,
                  Expected        *e)
{
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  const char *refusal = agent_message_get_refusal (message);
  guint n_calls = agent_message_get_n_tool_calls (message);

  g_string_append (problems, r->problems->str);

  expect_str (problems, "text deltas concatenated", content ? content : "", r->text->str);
  expect_str (problems, "reasoning deltas concatenated", reasoning ? reasoning : "",
              r->reasoning->str);
  expect_str (problems, "refusal deltas concatenated", refusal ? refusal : "", r->refusal->str);
  expect_int (problems, "number of text deltas", e->ref_text, r->n_text);
  expect_int (problems, "number of reasoning deltas", e->ref_reasoning, r->n_reasoning);
  expect_int (problems, "number of refusal deltas", e->ref_refusal, r->n_refusal);
  expect_int (problems, "number of argument fragments", e->ref_fragments, r->n_fragments);
  expect_int (problems, "calls the listener heard of", n_calls, g_hash_table_size (r->fragments));

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      expect_str (problems, "a call's fragments concatenated", agent_tool_call_get_arguments (call),
                  agent_test_replay_get_fragments (r, call));
    }
}

/* Wire-level replay */

/* Everything about one replay; returns the mismatches, or NULL. */
static char *
replay_compare (AgentTestReplay *r,
                Expected        *e)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentMessage *message = agent_test_replay_get_message (r);
  AgentOpenaiChatDecoder *chat = agent_stream_decoder_get_provider_decoder (r->decoder);
  guint n_choices = expected_n_choices (e);

  compare_error (problems, r->error, e);

  if (expected_error (e) != NULL)
    {
      /* The stream failed: finish() says so again, and what streamed
       * before the error is in the message. */
      expect_true (problems, "finish() fails after an error", !r->finish_ok);
      expect_true (problems, "finish() after an error is AGENT_ERROR_PROTOCOL",
                   g_error_matches (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
    }
  else if (expected_complete (e))
    {
      expect_true (problems, "finish() succeeds", r->finish_ok);
      if (r->finish_error)
        expect_str (problems, "finish() error", NULL, r->finish_error->message);
    }
  else
    {
      expect_true (problems, "finish() fails on an incomplete answer", !r->finish_ok);
      expect_true (problems, "finish() fails with AGENT_ERROR_PROTOCOL",
                   g_error_matches (r->finish_error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
    }

  expect_int (problems, "done sentinel seen",
              json_object_get_boolean_member (e->transport, "done_sentinel"),
              agent_stream_decoder_is_done (r->decoder));
  expect_int (problems, "events decoded", e->ref_events,
              agent_stream_decoder_get_n_events (r->decoder));

  compare_response (problems, message, e);
  expect_int (problems, "number of choices", n_choices,
              _agent_openai_chat_decoder_get_n_choices (chat));

  for (guint i = 0; i < n_choices; i++)
    {
      AgentAccumulator *accumulator = _agent_openai_chat_decoder_get_choice (chat, i);
      g_autofree char *prefix = g_strdup_printf ("\n choice %u:", i);

      if (accumulator == NULL)
        {
          g_string_append_printf (problems, "%s missing", prefix);
          continue;
        }
      if (n_choices > 1)
        g_string_append (problems, prefix);
      compare_message (problems, agent_accumulator_get_message (accumulator),
                       expected_choice (e, i), CALLS_READY);
      if (n_choices > 1 && g_str_has_suffix (problems->str, prefix))
        g_string_truncate (problems, problems->len - strlen (prefix));
    }

  compare_listener (problems, r, message, e);

  if (problems->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&problems), FALSE);
}

static gboolean
replay_check (AgentTestReplay *r,
              Expected        *e,
              const char      *context)
{
  g_autofree char *problems = replay_compare (r, e);

  if (problems == NULL)
    return TRUE;

  g_test_fail_printf ("%s:%s", context, problems);
  return FALSE;
}

/* Replays the body as @mode says (with @rand for random pieces, or cut at
 * @cut); FALSE if it did not give what was expected. */
static gboolean
replay (Expected   *e,
        Mode        mode,
        GRand      *rand,
        gsize       cut,
        const char *context)
{
  g_autoptr(AgentTestReplay) r = agent_test_replay_new ();

  /* After the first error the rest of the body is not fed: a failed
   * stream is over. */
  switch (mode)
    {
    case MODE_WHOLE:
      agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len, AGENT_TEST_FEED_WHOLE,
                       NULL, &r->error);
      break;

    case MODE_BYTES:
      agent_test_feed (agent_test_replay_feed, r, e->body, e->body_len, AGENT_TEST_FEED_BYTES,
                       NULL, &r->error);
      break;

    case MODE_RANDOM:
      agent_test_feed_pieces (agent_test_replay_feed, r, e->body, e->body_len, MAX_PIECE, rand,
                              &r->error);
      break;

    case MODE_CUTS:
      agent_test_feed_cut (agent_test_replay_feed, r, e->body, e->body_len, cut, &r->error);
      break;

    case MODE_HTTP_WHOLE:
    case MODE_HTTP_PIECES:
    default:
      g_assert_not_reached ();
    }

  agent_test_replay_finish (r);
  return replay_check (r, e, context);
}

static void
test_wire (gconstpointer data)
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
      g_assert_cmpuint (e.body_len, <, CUT_LIMIT);
      for (gsize cut = 1; cut < e.body_len; cut++)
        {
          g_autofree char *context = g_strdup_printf ("cut at byte %zu", cut);

          if (!replay (&e, c->mode, NULL, cut, context))
            break;
        }
      break;

    case MODE_HTTP_WHOLE:
    case MODE_HTTP_PIECES:
    default:
      g_assert_not_reached ();
    }

  expected_clear (&e);
}

/* End to end over HTTP, through the public API */

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  GHashTable      *text;        /* AgentMessage → GString of its text-delta */
  GHashTable      *reasoning;   /* AgentMessage → GString of its reasoning-delta */
  GHashTable      *fragments;   /* AgentToolCall → GString of its tool-call-delta */
  GPtrArray       *steps;       /* AgentMessage of each step-finished */
  guint            n_tool_call_deltas;
  GString         *problems;
  AgentTestTurn    turn;
} Http;

static void
append_for (GHashTable *table,
            gpointer    key,
            const char *text)
{
  GString *string = g_hash_table_lookup (table, key);

  if (string == NULL)
    g_hash_table_insert (table, g_object_ref (key), (string = g_string_new (NULL)));
  g_string_append (string, text);
}

static const char *
text_for (GHashTable *table,
          gpointer    key)
{
  GString *string = g_hash_table_lookup (table, key);

  return string ? string->str : "";
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Http         *h)
{
  if (message != agent_session_get_current_message (session))
    g_string_append (h->problems, "\n  text-delta for a message that is not the current one");
  append_for (h->text, message, delta);
}

static void
reasoning_delta_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    Http         *h)
{
  append_for (h->reasoning, message, delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    Http          *h)
{
  h->n_tool_call_deltas++;
  append_for (h->fragments, call, delta);
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  Http         *h)
{
  g_ptr_array_add (h->steps, g_object_ref (message));
}

static void
http_init (Http *h)
{
  memset (h, 0, sizeof *h);
  h->server = agent_test_server_new ();
  h->provider = agent_test_openai_provider_new (h->server);
  /* No tools: every call the model makes fails as an unknown tool. */
  h->session = agent_session_new (h->provider);
  h->text = g_hash_table_new_full (NULL, NULL, g_object_unref, free_gstring);
  h->reasoning = g_hash_table_new_full (NULL, NULL, g_object_unref, free_gstring);
  h->fragments = g_hash_table_new_full (NULL, NULL, g_object_unref, free_gstring);
  h->steps = g_ptr_array_new_with_free_func (g_object_unref);
  h->problems = g_string_new (NULL);

  g_signal_connect (h->session, "text-delta", G_CALLBACK (text_delta_cb), h);
  g_signal_connect (h->session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), h);
  g_signal_connect (h->session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), h);
  g_signal_connect (h->session, "step-finished", G_CALLBACK (step_finished_cb), h);
}

static void
http_clear (Http *h)
{
  agent_test_turn_clear (&h->turn);
  g_hash_table_unref (h->text);
  g_hash_table_unref (h->reasoning);
  g_hash_table_unref (h->fragments);
  g_ptr_array_unref (h->steps);
  g_string_free (h->problems, TRUE);
  g_assert_finalize_object (h->session);
  g_assert_finalize_object (h->provider);
  agent_test_server_free (h->server);
}

static const char final_text[] = "All done.";

/* The answer to the second request, after the tool results: final_text,
 * in 3 tokens. */
static void
add_final_response (AgentTestServer *server)
{
  static const char * const deltas[] = { "All ", "done.", NULL };

  agent_test_openai_add_text_response (server, deltas, 1, 2);
}

/* The second request carries the first answer back, byte for byte. */
static void
compare_second_request (GString    *problems,
                        Http       *h,
                        Expected   *e)
{
  JsonObject *want = json_object_get_object_member (expected_choice (e, 0), "message");
  JsonArray *want_calls = expected_tool_calls (e);
  JsonNode *body = agent_test_server_get_request_body (h->server, 1);
  JsonArray *messages;
  JsonObject *assistant;
  JsonArray *calls;

  if (body == NULL)
    {
      expect_true (problems, "the second request has a JSON body", FALSE);
      return;
    }
  messages = json_object_get_array_member (json_node_get_object (body), "messages");
  expect_int (problems, "messages in the second request",
              2 + json_array_get_length (want_calls), json_array_get_length (messages));
  if (json_array_get_length (messages) != 2 + json_array_get_length (want_calls))
    return;

  assistant = json_array_get_object_element (messages, 1);
  expect_str (problems, "request: assistant role", "assistant",
              json_object_get_string_member (assistant, "role"));
  expect_str (problems, "request: assistant content", get_string_or_null (want, "content"),
              get_string_or_null (assistant, "content"));
  calls = json_object_get_array_member (assistant, "tool_calls");
  expect_int (problems, "request: tool calls", json_array_get_length (want_calls),
              json_array_get_length (calls));

  for (guint i = 0; i < json_array_get_length (want_calls) && i < json_array_get_length (calls); i++)
    {
      JsonObject *want_call = json_array_get_object_element (want_calls, i);
      JsonObject *call = json_array_get_object_element (calls, i);
      JsonObject *function = json_object_get_object_member (call, "function");
      JsonObject *result = json_array_get_object_element (messages, 2 + i);

      expect_str (problems, "request: call id", get_string_or_null (want_call, "id"),
                  get_string_or_null (call, "id"));
      expect_str (problems, "request: call name", get_string_or_null (want_call, "name"),
                  get_string_or_null (function, "name"));
      expect_str (problems, "request: call arguments", get_string_or_null (want_call, "arguments"),
                  get_string_or_null (function, "arguments"));
      expect_str (problems, "request: tool result role", "tool",
                  get_string_or_null (result, "role"));
      expect_str (problems, "request: tool result refers to its call",
                  get_string_or_null (call, "id"), get_string_or_null (result, "tool_call_id"));
    }
}

static void
test_http (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GString) problems = g_string_new (NULL);
  AgentTestResponse *response;
  JsonArray *want_calls;
  GListModel *memory;
  guint n_calls;
  Expected e;
  Http h;

  expected_load (&e, c);
  http_init (&h);

  want_calls = expected_tool_calls (&e);
  n_calls = json_array_get_length (want_calls);

  response = agent_test_server_add_response (h.server, 200);
  if (c->mode == MODE_HTTP_WHOLE)
    agent_test_response_add_file_in_pieces (response, c->sse_path, 0, 0);
  else
    agent_test_response_add_file_in_pieces (response, c->sse_path, g_str_hash (c->name), MAX_PIECE);
  if (n_calls > 0 && expected_error (&e) == NULL)
    add_final_response (h.server);

  /* Tool-call fragments are emitted in one mode only: the toggle must not
   * change what is stored. */
  agent_session_set_stream_tool_call_chunks (h.session, c->mode == MODE_HTTP_PIECES);

  agent_test_turn_run (&h.turn, h.session, "Go", NULL);

  memory = G_LIST_MODEL (agent_session_get_memory (h.session));
  g_string_append (problems, h.problems->str);

  if (expected_error (&e) != NULL)
    {
      g_autoptr(AgentMessage) user = NULL;
      g_autoptr(AgentMessage) partial = NULL;

      /* The turn fails with the provider's error, and memory keeps the
       * user's message and what streamed, marked interrupted. */
      expect_true (problems, "the turn fails", h.turn.result == NULL);
      compare_error (problems, h.turn.error, &e);
      expect_int (problems, "step-finished emitted", 0, h.steps->len);
      expect_int (problems, "messages in memory", 2, g_list_model_get_n_items (memory));
      if (g_list_model_get_n_items (memory) != 2)
        goto out;

      user = g_list_model_get_item (memory, 0);
      partial = g_list_model_get_item (memory, 1);
      expect_true (problems, "memory[0] is the user's message",
                   agent_message_get_role (user) == AGENT_MESSAGE_ROLE_USER &&
                   g_strcmp0 (agent_message_get_content (user), "Go") == 0);
      expect_int (problems, "memory[1] state", AGENT_MESSAGE_STATE_INTERRUPTED,
                  agent_message_get_state (partial));
      compare_message (problems, partial, expected_choice (&e, 0), CALLS_UNKNOWN_TOOL);
      expect_str (problems, "reasoning-delta signals concatenated",
                  agent_message_get_reasoning (partial), text_for (h.reasoning, partial));
      expect_str (problems, "text-delta signals concatenated",
                  agent_message_get_content (partial) ? agent_message_get_content (partial) : "",
                  text_for (h.text, partial));
    }
  else
    {
      AgentMessage *first;
      const char *content;

      if (h.turn.error != NULL)
        {
          expect_str (problems, "the turn failed", NULL, h.turn.error->message);
          goto out;
        }
      expect_int (problems, "step-finished emitted", n_calls > 0 ? 2 : 1, h.steps->len);
      expect_int (problems, "requests", n_calls > 0 ? 2 : 1,
                  agent_test_server_get_n_requests (h.server));
      if (h.steps->len != (n_calls > 0 ? 2u : 1u) || h.turn.result == NULL)
        goto out;

      first = g_ptr_array_index (h.steps, 0);
      expect_int (problems, "first message state", AGENT_MESSAGE_STATE_COMPLETE,
                  agent_message_get_state (first));
      compare_message (problems, first, expected_choice (&e, 0),
                       n_calls > 0 ? CALLS_UNKNOWN_TOOL : CALLS_READY);
      compare_response (problems, first, &e);

      content = agent_message_get_content (first);
      expect_str (problems, "text-delta signals concatenated", content ? content : "",
                  text_for (h.text, first));
      content = agent_message_get_reasoning (first);
      expect_str (problems, "reasoning-delta signals concatenated", content ? content : "",
                  text_for (h.reasoning, first));

      if (c->mode == MODE_HTTP_PIECES)
        {
          for (guint i = 0; i < n_calls && i < agent_message_get_n_tool_calls (first); i++)
            {
              AgentToolCall *call = agent_message_get_tool_call (first, i);

              expect_str (problems, "tool-call-delta signals concatenated",
                          agent_tool_call_get_arguments (call), text_for (h.fragments, call));
            }
          expect_int (problems, "calls announced by tool-call-delta", n_calls,
                      g_hash_table_size (h.fragments));
        }
      else
        expect_int (problems, "tool-call-delta emitted with the toggle off", 0,
                    h.n_tool_call_deltas);

      /* The turn's usage adds up the steps (a sum, without a raw object);
       * the final answer used 3 tokens. None reported, none summed. */
      expect_int (problems, "the turn has usage",
                  expected_total_tokens (&e) > 0 || n_calls > 0,
                  agent_session_get_usage (h.session) != NULL);
      if (agent_session_get_usage (h.session) != NULL)
        expect_int (problems, "turn total tokens", expected_total_tokens (&e) + (n_calls ? 3 : 0),
                    agent_usage_get_total_tokens (agent_session_get_usage (h.session)));

      if (n_calls == 0)
        {
          /* The first answer was the last. */
          expect_true (problems, "the turn's result is the first step's message",
                       h.turn.result == first);
          expect_int (problems, "messages in memory", 2, g_list_model_get_n_items (memory));
        }
      else
        {
          AgentMessage *last = g_ptr_array_index (h.steps, 1);

          expect_true (problems, "the turn's result is the last step's message", h.turn.result == last);
          expect_str (problems, "final content", final_text, agent_message_get_content (last));
          expect_str (problems, "final text-delta signals", final_text, text_for (h.text, last));
          /* user, assistant with calls, one result per call, final answer */
          expect_int (problems, "messages in memory", 3 + n_calls,
                      g_list_model_get_n_items (memory));
          for (guint i = 0; i < n_calls && 2 + i < g_list_model_get_n_items (memory) &&
                            i < agent_message_get_n_tool_calls (first); i++)
            {
              g_autoptr(AgentMessage) result = g_list_model_get_item (memory, 2 + i);
              AgentToolCall *call = agent_message_get_tool_call (first, i);

              expect_true (problems, "a tool result follows the call",
                           agent_message_get_role (result) == AGENT_MESSAGE_ROLE_TOOL &&
                           agent_message_is_error (result));
              expect_str (problems, "the tool result refers to its call",
                          agent_tool_call_get_id (call), agent_message_get_tool_call_id (result));
            }
          compare_second_request (problems, &h, &e);
        }
    }

out:
  if (problems->len > 0)
    g_test_fail_printf ("%s:%s", mode_names[c->mode], problems->str);

  http_clear (&h);
  expected_clear (&e);
}

/* Registration: one test case per file and mode. */

static void
add_case (const char *path,
          const char *name,
          Mode        mode)
{
  Case *c = g_new0 (Case, 1);
  g_autofree char *test_path = NULL;
  g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".sse"));

  c->name = g_strdup (name);
  c->sse_path = g_strdup (path);
  c->expected_path = g_strconcat (stem, ".expected.json", NULL);
  c->mode = mode;

  test_path = g_strdup_printf ("/corpus/openai-chat/%s/%s", name, mode_names[mode]);
  g_test_add_data_func_full (test_path, c,
                             mode >= MODE_HTTP_WHOLE ? test_http : test_wire,
                             case_free);
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) files = NULL;

  g_test_init (&argc, &argv, NULL);
  /* Report every broken file, not only the first. */
  g_test_set_nonfatal_assertions ();

  files = agent_test_list_corpus ("openai-chat", ".sse");
  g_assert_nonnull (files[0]);

  for (guint i = 0; files[i]; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      g_autofree char *name = g_strndup (basename, strlen (basename) - strlen (".sse"));
      GStatBuf st;

      g_assert_cmpint (g_stat (files[i], &st), ==, 0);

      add_case (files[i], name, MODE_WHOLE);
      add_case (files[i], name, MODE_BYTES);
      add_case (files[i], name, MODE_RANDOM);
      if ((gsize) st.st_size < CUT_LIMIT)
        add_case (files[i], name, MODE_CUTS);
      add_case (files[i], name, MODE_HTTP_WHOLE);
      add_case (files[i], name, MODE_HTTP_PIECES);
    }

  return g_test_run ();
}
