/* test-structured-output.c — answers that follow a JSON Schema, through a
 * session against the in-process server, for each provider
 *
 * - what each request asks for (response_format, text.format,
 *   responseSchema translated for Gemini, Ollama's format, Anthropic's
 *   forced tool);
 * - the object as it streams (object-delta: each a view of the final
 *   object) and at the end (send_for_object_finish, object-finished);
 * - answers that are not JSON, cut off, or do not follow the schema: a
 *   %AGENT_ERROR_SCHEMA error with the JSON path, the answer kept;
 * - a schema Gemini cannot take: %AGENT_ERROR_UNSUPPORTED, nothing sent;
 * - tools and a schema in one turn;
 * - OpenAI's real structured-output recordings of tests/corpus.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"
#include "test-structured-util.h"

/* OpenAI Chat Completions */

static void
add_openai_answer (Fixture    *f,
                   const char *text,
                   const char *finish_reason)
{
  g_autoptr(GPtrArray) parts = pieces (text);
  AgentTestResponse *r = agent_test_openai_begin (f->s.server, NULL);

  for (guint i = 0; i < parts->len; i++)
    agent_test_openai_add_text (r, g_ptr_array_index (parts, i));
  agent_test_openai_add_end (r, finish_reason, 10, 20);
}

static void
test_openai_chat (Fixture       *f,
                  gconstpointer  data)
{
  JsonObject *body;
  JsonObject *format;

  add_openai_answer (f, dates_answer, "stop");
  run_for_object (f, "Which dates?", dates_schema);

  assert_object (f, dates_answer);
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 1)), ==, dates_answer);

  body = agent_test_openai_get_request (f->s.server, 0);
  format = json_object_get_object_member (body, "response_format");
  g_assert_nonnull (format);
  g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
  format = json_object_get_object_member (format, "json_schema");
  g_assert_cmpstr (json_object_get_string_member (format, "name"), ==, "dates");
  g_assert_true (json_object_get_boolean_member (format, "strict"));
  {
    g_autoptr(JsonNode) schema = agent_test_parse_json (dates_schema);

    g_assert_true (agent_test_json_equal (json_object_get_member (format, "schema"), schema));
  }

  /* The next turn without a schema asks for prose again */
  add_openai_answer (f, "Prose.", "stop");
  agent_test_turn_run (&f->s.turn, f->s.session, "Thanks", NULL);
  g_assert_no_error (f->s.turn.error);
  body = agent_test_openai_get_request (f->s.server, 1);
  g_assert_false (json_object_has_member (body, "response_format"));
}

static void
test_mismatch (Fixture       *f,
               gconstpointer  data)
{
  static const char answer[] =
    "{\"dates\": [{\"day\": 12, \"month\": \"March\", \"note\": null},"
    " {\"day\": \"3\", \"month\": \"April\", \"note\": null}]}";

  add_openai_answer (f, answer, "stop");
  run_for_object (f, "Which dates?", dates_schema);

  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  agent_test_assert_contains (f->error->message, "$.dates[1].day: expected integer, got string");
  g_assert_null (f->finished);
  /* The answer stays, as it came */
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 1)), ==, answer);
  g_assert_cmpstr (f->s.text->str, ==, answer);
  g_assert_false (agent_session_get_busy (f->s.session));
}

static void
test_cut_off (Fixture       *f,
              gconstpointer  data)
{
  static const char answer[] = "{\"dates\": [{\"day\": 12, \"month\": \"Ma";

  add_openai_answer (f, answer, "length");
  run_for_object (f, "Which dates?", dates_schema);

  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  agent_test_assert_contains (f->error->message, "cut off");
  agent_test_assert_contains (f->error->message, "“length”");
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 1)), ==, answer);
  /* What streamed was shown */
  g_assert_cmpuint (f->deltas->len, >, 0);
  {
    g_autofree char *last = json_to_string (g_ptr_array_index (f->deltas, f->deltas->len - 1),
                                            FALSE);

    g_assert_cmpstr (last, ==, "{\"dates\":[{\"day\":12,\"month\":\"Ma\"}]}");
  }
}

/* Cut off just where the JSON happens to close: still cut off (an array or
 * a text may have been meant to go on), a schema error, the answer kept */
static void
test_cut_off_whole (Fixture       *f,
                    gconstpointer  data)
{
  add_openai_answer (f, dates_answer, "length");
  run_for_object (f, "Which dates?", dates_schema);

  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  agent_test_assert_contains (f->error->message, "cut off");
  agent_test_assert_contains (f->error->message, "“length”");
  g_assert_null (f->finished);
  g_assert_null (f->object);
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 1)), ==, dates_answer);
}

static void
test_not_json (Fixture       *f,
               gconstpointer  data)
{
  add_openai_answer (f, "Sure! The dates are March 12 and April 3.", "stop");
  run_for_object (f, "Which dates?", dates_schema);

  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  agent_test_assert_contains (f->error->message, "The answer from openai is not the JSON");
  agent_test_assert_contains (f->error->message, "byte 0: unexpected “S”");
  g_assert_cmpuint (f->deltas->len, ==, 0);
  g_assert_cmpstr (agent_message_get_content (memory_item (f, 1)), ==,
                   "Sure! The dates are March 12 and April 3.");
}

/* A server that refuses the schema: its reason, and that an object was asked for */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->s.server, 400);

  agent_test_response_set_body (r, "application/json",
                                "{\"error\": {\"message\": \"Invalid schema for response_format "
                                "'dates': In context=(), 'required' is required to be supplied\","
                                " \"type\": \"invalid_request_error\"}}");
  run_for_object (f, "Which dates?", dates_schema);

  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_HTTP);
  agent_test_assert_contains (f->error->message, "Invalid schema for response_format");
  agent_test_assert_contains (f->error->message, "the request asked openai for structured output");
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 1);

  /* Without a schema, the same refusal says nothing of it */
  r = agent_test_server_add_response (f->s.server, 400);
  agent_test_response_set_body (r, "application/json", "{\"error\": {\"message\": \"No.\"}}");
  agent_test_turn_run (&f->s.turn, f->s.session, "Hi", NULL);
  g_assert_error (f->s.turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_null (strstr (f->s.turn.error->message, "structured output"));
}

static void
test_no_schema (Fixture       *f,
                gconstpointer  data)
{
  run_for_object (f, "Which dates?", NULL);
  g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->s.server), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 0);
}

/* A handler that seals what object-delta gives it (as agent-cli did: a
 * shallow copy into an immutable JsonBuilder seals the objects it shares)
 * does not stop the object from growing */
static void
sealing_cb (AgentSession *session,
            AgentMessage *message,
            JsonNode     *object)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) line = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "object");
  json_builder_add_value (builder, json_node_copy (object));
  json_builder_end_object (builder);
  line = json_builder_get_root (builder);
}

static void
test_handler_seals (Fixture       *f,
                    gconstpointer  data)
{
  /* The first delta shows a string that grows on: sealed, it stopped
   * ("json_node_set_string: assertion '!node->immutable'"); a string that
   * begins in the sealed object grows too */
  static const char * const pieces[] = {
    "{\"note\": \"Hel", "lo, ", "wor", "ld\", \"n\": 1", "2, \"tag\": \"a", "bc\"}", NULL
  };
  static const char whole[] = "{\"note\": \"Hello, world\", \"n\": 12, \"tag\": \"abc\"}";
  g_autoptr(JsonNode) object = agent_test_parse_json (whole);

  g_signal_connect (f->s.session, "object-delta", G_CALLBACK (sealing_cb), NULL);
  agent_test_openai_add_text_response (f->s.server, pieces, 10, 20);
  run_for_object (f, "A note?", "{\"type\": \"object\"}");

  assert_object (f, whole);
  assert_deltas (f, object, 2);

  /* The dates, in their pieces */
  g_clear_pointer (&f->object, json_node_unref);
  g_clear_pointer (&f->finished, json_node_unref);
  g_ptr_array_set_size (f->deltas, 0);
  add_openai_answer (f, dates_answer, "stop");
  run_for_object (f, "Which dates?", dates_schema);
  g_clear_pointer (&object, json_node_unref);
  object = agent_test_parse_json (dates_answer);
  assert_object (f, dates_answer);
  assert_deltas (f, object, 3);
}

static void
changes_size_cb (AgentSession *session,
                 AgentMessage *message,
                 JsonNode     *object,
                 JsonNode     *changes,
                 gsize        *size)
{
  g_autofree char *text = json_to_string (changes, FALSE);

  *size += strlen (text);
}

/* A string 500 arrays deep, or under a name of 20 kB, growing a byte at a
 * time (5,000 times): the changes' paths do not make object-delta weigh more than a few
 * times the answer (they wait for more of it) */
static void
test_changes_linear (Fixture       *f,
                     gconstpointer  data)
{
  static const struct { const char *before; const char *after; guint depth; } shapes[] = {
    { "[", "]", 500 },
    { NULL, "}", 1 },
  };

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr(GString) answer = g_string_new (NULL);
      g_autoptr(GString) text = g_string_new (NULL);
      AgentTestResponse *r = agent_test_openai_begin (f->s.server, NULL);
      gsize size = 0;
      gulong handler;
      g_autofree char *name = g_strnfill (20000, 'k');

      if (shapes[s].before != NULL)
        for (guint i = 0; i < shapes[s].depth; i++)
          g_string_append (answer, shapes[s].before);
      else
        g_string_append_printf (answer, "{\"%s\": ", name);
      g_string_append_c (answer, '"');
      agent_test_openai_add_text (r, answer->str);
      for (guint i = 0; i < 5000; i++)
        {
          agent_test_openai_add_text (r, "x");
          g_string_append_c (answer, 'x');
        }
      for (guint i = 0; i < shapes[s].depth; i++)
        g_string_append (text, shapes[s].after);
      g_string_prepend_c (text, '"');
      agent_test_openai_add_text (r, text->str);
      agent_test_openai_add_end (r, "stop", 10, 20);
      g_string_append (answer, text->str);

      handler = g_signal_connect (f->s.session, "object-delta", G_CALLBACK (changes_size_cb),
                                  &size);
      g_clear_pointer (&f->object, json_node_unref);
      g_clear_pointer (&f->finished, json_node_unref);
      g_ptr_array_set_size (f->deltas, 0);
      run_for_object (f, "Deep?", "{}");
      g_signal_handler_disconnect (f->s.session, handler);

      g_assert_no_error (f->error);
      assert_deltas (f, f->object, 2);
      g_test_message ("an answer of %" G_GSIZE_FORMAT " bytes: %u object-delta, %" G_GSIZE_FORMAT
                      " bytes of changes", answer->len, f->deltas->len, size);
      g_assert_cmpuint (size, <, 20 * answer->len);
    }
}

/* An object answer streamed in @pieces is @whole, and so is what the
 * changes rebuild (the fixture checks them at each emission too) */
static void
assert_streams_as (Fixture           *f,
                   const char * const pieces[],
                   const char        *whole,
                   guint              min_deltas)
{
  g_autoptr(JsonNode) want = agent_test_parse_json (whole);

  agent_test_openai_add_text_response (f->s.server, pieces, 10, 20);
  run_for_object (f, "Which object?", "{\"type\": \"object\"}");

  g_assert_no_error (f->error);
  g_assert_true (agent_test_json_equal (f->object, want));
  g_assert_cmpuint (f->deltas->len, >=, min_deltas);
  g_assert_true (agent_test_json_equal (f->built, want));
}

/* An object that names a member twice: the second replaces the first,
 * in the object and in what the changes rebuild */
static void
test_member_named_twice (Fixture       *f,
                         gconstpointer  data)
{
  static const char * const pieces[] = {
    "{\"a\": \"fir", "st\", \"b\": [1, ", "2], \"a\": \"sec", "ond\", \"b\": {\"c", "\": 3}}", NULL
  };

  assert_streams_as (f, pieces, "{\"a\": \"second\", \"b\": {\"c\": 3}}", 1);
}

/* Members whose names a JSON pointer escapes or leaves empty ("" is "/",
 * "a/b" is "/a~1b", "~" is "/~0"), growing in pieces: the changes name
 * them so that they rebuild the object (fuzz-partial-json found the empty
 * name) */
static void
test_pointer_names (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const pieces[] = {
    "{\"\": \"un", "til\", \"a/b\": [\"x", "y\", {\"~\": \"ti", "lde\", \"\": [1",
    ", 2]}], \"~1\": {\"\": \"em", "pty\"}}", NULL
  };

  assert_streams_as (f, pieces,
                     "{\"\": \"until\", \"a/b\": [\"xy\", {\"~\": \"tilde\", \"\": [1, 2]}], "
                     "\"~1\": {\"\": \"empty\"}}", 3);
}

/* A schema that cannot be used is refused before anything is sent or kept:
 * a $ref that goes round in a circle (directly, through $defs, through
 * anyOf) or leads nowhere, a "type" that is no name */
static void
test_schema_checked_first (Fixture       *f,
                           gconstpointer  data)
{
  static const struct { const char *schema; const char *error; } cases[] = {
    { "{\"$ref\": \"#\"}", "goes round in a circle" },
    { "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/b\"}},"
      " \"$defs\": {\"b\": {\"$ref\": \"#/$defs/c\"}, \"c\": {\"$ref\": \"#/$defs/b\"}}}",
      "goes round in a circle" },
    { "{\"anyOf\": [{\"type\": \"string\"}, {\"$ref\": \"#\"}]}", "goes round in a circle" },
    { "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/none\"}}}",
      "leads nowhere" },
    { "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": 4}}}",
      "neither a name nor a list of names" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_clear_error (&f->error);
      run_for_object (f, "Which dates?", cases[i].schema);

      g_test_message ("%s: %s", cases[i].schema, f->error ? f->error->message : "no error");
      g_assert_error (f->error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (f->error->message, cases[i].error);
      g_assert_cmpuint (agent_test_server_get_n_requests (f->s.server), ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 0);
    }

  /* A schema that refers to itself inside the value is fine */
  add_openai_answer (f, "{\"name\": \"a\", \"children\": [{\"name\": \"b\", \"children\": []}]}",
                     "stop");
  g_clear_error (&f->error);
  run_for_object (f, "A tree?",
                  "{\"type\": \"object\", \"required\": [\"name\", \"children\"],"
                  " \"properties\": {\"name\": {\"type\": \"string\"},"
                  " \"children\": {\"type\": \"array\", \"items\": {\"$ref\": \"#\"}}}}");
  g_assert_no_error (f->error);
}

/* The tools run first; the last answer is the object */
static void
test_openai_tools (Fixture       *f,
                   gconstpointer  data)
{
  static const char schema[] =
    "{\"type\": \"object\", \"required\": [\"result\"], \"additionalProperties\": false,"
    " \"properties\": {\"result\": {\"type\": \"number\"}}}";
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  static const AgentTestToolChunk chunks[] = {
    { 0, "call_1", "calculator", "{\"expression\": " },
    { 0, NULL, NULL, "\"6*7\"}" },
  };

  agent_session_add_tool (f->s.session, calculator);
  agent_test_openai_add_tool_response (f->s.server, chunks, G_N_ELEMENTS (chunks), 10, 5);
  add_openai_answer (f, "{\"result\": 42}", "stop");
  run_for_object (f, "What is 6*7?", schema);

  assert_object (f, "{\"result\": 42}");
  /* Both requests asked for the object, and offered the tool */
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *body = agent_test_openai_get_request (f->s.server, i);

      g_assert_true (json_object_has_member (body, "response_format"));
      g_assert_true (json_object_has_member (body, "tools"));
    }
  g_assert_cmpstr (agent_test_openai_tool_message_content (f->s.server, 1, "call_1"), ==, "42");
  g_assert_cmpuint (g_list_model_get_n_items (memory (f)), ==, 4);
}

/* The session's output-schema: send_async answers with the object's JSON */
static void
test_property (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json (dates_schema);
  g_autoptr(JsonNode) got = NULL;
  guint notified = 0;

  g_signal_connect (f->s.session, "notify::output-schema",
                    G_CALLBACK (agent_test_count_notify), &notified);
  agent_session_set_output_schema (f->s.session, schema);
  agent_session_set_output_schema (f->s.session, schema);
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (f->s.session, "output-schema", &got, NULL);
  g_assert_true (agent_test_json_equal (got, schema));

  add_openai_answer (f, dates_answer, "stop");
  agent_test_turn_run (&f->s.turn, f->s.session, "Which dates?", NULL);

  g_assert_no_error (f->s.turn.error);
  g_assert_cmpstr (agent_message_get_content (f->s.turn.result), ==, dates_answer);
  g_assert_nonnull (f->finished);
  assert_deltas (f, f->finished, 2);

  /* send_for_object without a schema takes the session's */
  g_clear_pointer (&f->finished, json_node_unref);
  g_ptr_array_set_size (f->deltas, 0);
  add_openai_answer (f, dates_answer, "stop");
  run_for_object (f, "Again", NULL);
  assert_object (f, dates_answer);

  agent_session_set_output_schema (f->s.session, NULL);
  g_assert_null (agent_session_get_output_schema (f->s.session));
  g_assert_cmpuint (notified, ==, 2);
}

/* Real recordings of OpenAI's structured output (openai-python's tests) */
static void
test_openai_corpus (Fixture       *f,
                    gconstpointer  data)
{
  static const struct { const char *file; const char *schema; } cases[] = {
    { "openai-chat/oaipy-json-content-usage",
      "{\"type\": \"object\", \"additionalProperties\": false,"
      " \"required\": [\"city\", \"temperature\", \"units\"],"
      " \"properties\": {\"city\": {\"type\": \"string\"}, \"temperature\": {\"type\": \"number\"},"
      "                  \"units\": {\"enum\": [\"c\", \"f\"]}}}" },
    { "openai-chat/oaipy-json-object-unicode",
      "{\"type\": \"object\", \"required\": [\"location\", \"weather\", \"forecast\"],"
      " \"properties\": {\"location\": {\"type\": \"string\"},"
      "   \"weather\": {\"type\": \"object\", \"properties\": {\"temperature\": {\"type\": \"string\"}}},"
      "   \"forecast\": {\"type\": \"array\", \"minItems\": 1, \"items\": {\"type\": \"object\","
      "     \"required\": [\"day\"], \"properties\": {\"day\": {\"type\": \"string\"}}}}}}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *sse = g_strconcat (cases[i].file, ".sse", NULL);
      g_autofree char *expected_name = g_strconcat (cases[i].file, ".expected.json", NULL);
      g_autofree char *path = agent_test_corpus_path (sse);
      g_autofree char *expected_path = agent_test_corpus_path (expected_name);
      g_autoptr(JsonNode) expected = agent_test_load_json (expected_path);
      JsonObject *message = json_object_get_object_member (
        json_object_get_object_member (json_node_get_object (expected), "result"), "message");
      g_autoptr(JsonNode) object = agent_test_parse_json (
        json_object_get_string_member (message, "content"));
      AgentTestResponse *r = agent_test_server_add_response (f->s.server, 200);

      agent_test_response_set_content_type (r, "text/event-stream");
      agent_test_response_add_file_in_pieces (r, path, 24 + i, 64);

      g_ptr_array_set_size (f->deltas, 0);
      g_clear_pointer (&f->finished, json_node_unref);
      g_clear_pointer (&f->object, json_node_unref);
      run_for_object (f, "The weather?", cases[i].schema);

      g_assert_no_error (f->error);
      g_assert_true (agent_test_json_equal (f->object, object));
      assert_deltas (f, object, 3);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, provider, func) \
  g_test_add ("/structured/" path, Fixture, provider, fixture_setup, func, fixture_teardown)

  ADD ("openai-chat/object", "openai", test_openai_chat);
  ADD ("openai-chat/mismatch", "openai", test_mismatch);
  ADD ("openai-chat/cut-off", "openai", test_cut_off);
  ADD ("openai-chat/cut-off-whole", "openai", test_cut_off_whole);
  ADD ("openai-chat/not-json", "openai", test_not_json);
  ADD ("openai-chat/refused", "openai", test_refused);
  ADD ("openai-chat/no-schema", "openai", test_no_schema);
  ADD ("openai-chat/tools", "openai", test_openai_tools);
  ADD ("openai-chat/schema-checked-first", "openai", test_schema_checked_first);
  ADD ("openai-chat/handler-seals", "openai", test_handler_seals);
  ADD ("openai-chat/changes-linear", "openai", test_changes_linear);
  ADD ("openai-chat/member-named-twice", "openai", test_member_named_twice);
  ADD ("openai-chat/pointer-names", "openai", test_pointer_names);
  ADD ("openai-chat/property", "openai", test_property);
  ADD ("openai-chat/corpus", "openai", test_openai_corpus);

  return g_test_run ();
}
