/* test-json-depth.c — JSON nested too deeply, from every place libagent
 * reads JSON: one bound (AGENT_JSON_MAX_DEPTH), an error that names what
 * was too deep, nothing lost, no crash
 *
 * About 150 KB of "[[[…" was enough to overflow the stack of json-glib's
 * parser: tool call arguments, a tool's schema, an MCP configuration, a
 * server tool's input. Through the public API, against a real HTTP server
 * on 127.0.0.1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "json/agent-json-private.h"
#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef AgentTestSession Fixture;

/* 150 KB: far under every size limit, far past any stack */
#define HUGE_DEPTH 150000

/* An object whose "value" holds @depth - 1 arrays: @depth levels */
static char *
nested_object (guint depth)
{
  g_autofree char *inner = agent_test_nested_arrays (depth - 1, "1");

  return g_strdup_printf ("{\"value\":%s}", inner);
}

static void
assert_too_deep (const GError *error)
{
  g_autofree char *bound = g_strdup_printf ("%d", AGENT_JSON_MAX_DEPTH);

  g_assert_nonnull (error);
  agent_test_assert_contains (error->message, "nested more than");
  agent_test_assert_contains (error->message, bound);
}

/* How many arrays are inside each other, the outermost counted */
static guint
depth_of (JsonNode *node)
{
  guint depth = 0;

  for (; JSON_NODE_HOLDS_ARRAY (node); depth++)
    {
      if (json_array_get_length (json_node_get_array (node)) == 0)
        return depth + 1;
      node = json_array_get_element (json_node_get_array (node), 0);
    }
  return depth;
}

/* The bound itself */

static void
test_parse_bound (void)
{
  g_autofree char *deepest = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH, "1");
  g_autofree char *too_deep = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH + 1, "1");
  g_autofree char *huge = agent_test_nested_arrays (HUGE_DEPTH, "");
  g_autofree char *at = g_strdup_printf ("at byte %d", AGENT_JSON_MAX_DEPTH);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = agent_json_parse (deepest, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (depth_of (node), ==, AGENT_JSON_MAX_DEPTH);

  g_assert_null (agent_json_parse (too_deep, -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_too_deep (error);
  agent_test_assert_contains (error->message, at);
  g_clear_error (&error);

  g_assert_null (agent_json_parse (huge, -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_clear_error (&error);

  /* Objects count as arrays do */
  {
    GString *objects = g_string_new (NULL);

    for (guint i = 0; i <= AGENT_JSON_MAX_DEPTH; i++)
      g_string_append (objects, "{\"a\":");
    g_string_append (objects, "1");
    for (guint i = 0; i <= AGENT_JSON_MAX_DEPTH; i++)
      g_string_append_c (objects, '}');
    g_assert_null (agent_json_parse (objects->str, objects->len, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
    g_clear_error (&error);
    g_string_free (objects, TRUE);
  }

  /* Brackets in strings and comments open nothing */
  {
    g_autofree char *in_string = g_strdup_printf ("[\"%s\", '%s', \"\\\"%s\"] /* %s */",
                                                  huge, huge, huge, huge);
    g_autoptr(JsonNode) strings = agent_json_parse (in_string, -1, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (strings)), ==, 3);
  }

  /* Not JSON: json-glib's words, with the line and column */
  g_assert_null (agent_json_parse ("{\"a\": }", -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "1:");
  g_clear_error (&error);
  g_assert_null (agent_json_parse ("  ", -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
}

/* The reader of streamed events: the same bound, the same error */
static void
test_event_reader_bound (void)
{
  g_autofree char *deepest = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH, "1");
  g_autofree char *too_deep = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH + 1, "1");
  g_autofree char *at = g_strdup_printf ("at byte %d", AGENT_JSON_MAX_DEPTH);
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  AgentJson root;

  g_assert_true (agent_json_parser_parse (parser, deepest, strlen (deepest), &root, &error));
  g_assert_no_error (error);
  node = agent_json_to_node (&root);
  g_assert_cmpuint (depth_of (node), ==, AGENT_JSON_MAX_DEPTH);

  g_assert_false (agent_json_parser_parse (parser, too_deep, strlen (too_deep), &root, &error));
  g_assert_true (_agent_json_error_is_too_deep (error));
  assert_too_deep (error);
  agent_test_assert_contains (error->message, at);
  g_clear_error (&error);

  /* And after a document large enough to make it reallocate */
  {
    g_autofree char *large = g_strnfill (2 * 1024 * 1024, ' ');

    large[0] = '1';
    g_assert_true (agent_json_parser_parse (parser, large, strlen (large), &root, &error));
    g_assert_false (agent_json_parser_parse (parser, too_deep, strlen (too_deep), &root,
                                             &error));
    g_assert_true (_agent_json_error_is_too_deep (error));
    g_clear_error (&error);
    g_assert_true (agent_json_parser_parse (parser, deepest, strlen (deepest), &root, &error));
  }
}

/* The id of a JSON-RPC message too deep to read, found at its top level */
static void
test_find_top_level_int (void)
{
  static const struct { const char *text; gboolean found; gint64 id; } cases[] = {
    { "{\"a\": {\"id\": 5}, \"id\": 7}", TRUE, 7 },
    { "{\"x\": \"\\\"id\\\": 3\", \"id\" : -4, \"y\": [[[", TRUE, -4 },
    { " {\"id\":12", TRUE, 12 },
    { "{\"id\": \"12\"}", FALSE, 0 },
    { "[{\"id\": 1}]", FALSE, 0 },
    { "{\"a\": [1, {\"id\": 2}]}", FALSE, 0 },
    { "{\"ids\": 1}", FALSE, 0 },
    { "{\"id\": 99999999999999999999}", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 id = 0;
      gboolean found = _agent_json_find_top_level_int (cases[i].text, strlen (cases[i].text),
                                                       "id", &id);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (found, ==, cases[i].found);
      if (found)
        g_assert_cmpint (id, ==, cases[i].id);
    }
}

/* JSON still streaming: the same bound, and nothing deeper in the value */
static void
test_partial_bound (void)
{
  g_autofree char *deepest = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH, "1");
  g_autofree char *huge = agent_test_nested_arrays (HUGE_DEPTH, "");
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  g_autoptr(JsonNode) whole = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_partial_json_feed (reader, deepest, -1, &error));
  whole = agent_partial_json_finish (reader, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (depth_of (whole), ==, AGENT_JSON_MAX_DEPTH);

  agent_partial_json_reset (reader);
  g_assert_false (agent_partial_json_feed (reader, huge, -1, &error));
  assert_too_deep (error);
  g_assert_cmpuint (depth_of (agent_partial_json_get_value (reader)), ==, AGENT_JSON_MAX_DEPTH);
}

/* Tool calls */

static void
add_second_answer (Fixture *f)
{
  static const char * const done[] = { "Done.", NULL };

  agent_test_openai_add_text_response (f->server, done, 1, 1);
}

/* What the session kept of a step whose one call had @arguments too deep:
 * the text before the call, the call, its error, the next answer */
static void
assert_call_refused (Fixture    *f,
                     const char *text,
                     guint       runs)
{
  AgentMessage *assistant;
  AgentToolCall *call;

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (agent_test_memory_length (f->session), ==, 4);
  assistant = agent_test_memory_message (f->session, 1);
  g_assert_cmpstr (agent_message_get_content (assistant), ==, text);
  g_assert_cmpuint (agent_message_get_n_tool_calls (assistant), ==, 1);
  call = agent_message_get_tool_call (assistant, 0);
  g_assert_true (agent_tool_call_is_error (call));
  /* The error names what was too deep */
  agent_test_assert_contains (agent_tool_call_get_result (call), "arguments of “count”");
  agent_test_assert_contains (agent_tool_call_get_result (call), "nested more than 512");
  g_assert_cmpstr (agent_message_get_content (agent_test_memory_message (f->session, 3)), ==,
                   "Done.");
  g_assert_cmpstr (f->text->str, ==, "Let me count.Done.");
}

static void
test_arguments_openai (void)
{
  g_autofree char *arguments = agent_test_nested_arrays (HUGE_DEPTH, "");
  guint runs = 0;
  g_autoptr(AgentTool) tool = agent_test_counting_tool_new (&runs);
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  agent_session_add_tool (f.session, tool);
  r = agent_test_openai_begin (f.server, "Let me count.");
  agent_test_openai_add_tool_call (r, 0, "call_1", "count", arguments);
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  add_second_answer (&f);

  agent_test_turn_run (&f.turn, f.session, "Count", NULL);

  assert_call_refused (&f, "Let me count.", runs);
  /* The model reads why */
  agent_test_assert_contains (agent_test_openai_tool_message_content (f.server, 1, "call_1"),
                              "nested more than 512");
  agent_test_session_clear (&f);
}

/* An Anthropic answer that begins with a text block of @text */
static AgentTestResponse *
begin_anthropic (AgentTestServer *server,
                 const char      *text)
{
  AgentTestResponse *r = agent_test_server_add_response (server, 200);
  g_autofree char *delta = g_strdup_printf ("{'type':'content_block_delta','index':0,"
                                            "'delta':{'type':'text_delta','text':'%s'}}", text);

  agent_test_add_typed_quoted (r, AGENT_TEST_ANTHROPIC_MESSAGE_START ("msg_1"));
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':0,"
                                  "'content_block':{'type':'text','text':''}}");
  agent_test_add_typed_quoted (r, delta);
  agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':0}");
  return r;
}

static void
end_anthropic (AgentTestResponse *r,
               const char        *stop_reason)
{
  g_autofree char *delta = g_strdup_printf ("{'type':'message_delta','delta':"
                                            "{'stop_reason':'%s'},'usage':{'output_tokens':3}}",
                                            stop_reason);

  agent_test_add_typed_quoted (r, delta);
  agent_test_add_typed_quoted (r, "{'type':'message_stop'}");
}

/* An input_json_delta of @json as a JSON string, in an event of its own */
static void
add_input_delta (AgentTestResponse *r,
                 const char        *json)
{
  g_autoptr(JsonNode) string = json_node_init_string (json_node_alloc (), json);
  g_autofree char *quoted = json_to_string (string, FALSE);
  g_autofree char *event = g_strdup_printf ("{\"type\":\"content_block_delta\",\"index\":1,"
                                            "\"delta\":{\"type\":\"input_json_delta\","
                                            "\"partial_json\":%s}}", quoted);

  agent_test_add_typed_event (r, event);
}

static void
test_arguments_anthropic (void)
{
  g_autofree char *arguments = agent_test_nested_arrays (HUGE_DEPTH, "");
  g_autofree char *wrapped = g_strdup_printf ("{\"n\":%s}", arguments);
  guint runs = 0;
  g_autoptr(AgentTool) tool = agent_test_counting_tool_new (&runs);
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "anthropic");
  agent_session_add_tool (f.session, tool);
  r = begin_anthropic (f.server, "Let me count.");
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':1,'content_block':"
                                  "{'type':'tool_use','id':'toolu_1','name':'count','input':{}}}");
  add_input_delta (r, wrapped);
  agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':1}");
  end_anthropic (r, "tool_use");
  end_anthropic (begin_anthropic (f.server, "Done."), "end_turn");

  agent_test_turn_run (&f.turn, f.session, "Count", NULL);

  assert_call_refused (&f, "Let me count.", runs);
  agent_test_session_clear (&f);
}

/* agent_tool_call_parse_arguments() at the bound */
static void
test_arguments_bound (void)
{
  g_autofree char *deepest = nested_object (AGENT_JSON_MAX_DEPTH);
  g_autofree char *too_deep = nested_object (AGENT_JSON_MAX_DEPTH + 1);
  g_autoptr(AgentToolCall) fine = agent_tool_call_new ("c1", "count", deepest);
  g_autoptr(AgentToolCall) deep = agent_tool_call_new ("c2", "count", too_deep);
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GError) error = NULL;

  arguments = agent_tool_call_parse_arguments (fine, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (arguments));

  g_assert_null (agent_tool_call_parse_arguments (deep, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  assert_too_deep (error);
  agent_test_assert_contains (error->message, "“count”");
}

/* A server tool's input (web search…), kept to be sent back */
static void
test_server_tool_input (void)
{
  g_autofree char *input = agent_test_nested_arrays (HUGE_DEPTH, "");
  g_autofree char *wrapped = g_strdup_printf ("{\"query\":%s}", input);
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "anthropic");
  r = begin_anthropic (f.server, "Searching.");
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':1,'content_block':"
                                  "{'type':'server_tool_use','id':'srvtoolu_1',"
                                  "'name':'web_search','input':{}}}");
  add_input_delta (r, wrapped);
  agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':1}");
  end_anthropic (r, "end_turn");

  agent_test_turn_run (&f.turn, f.session, "Search", NULL);

  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_message_get_content (f.turn.result), ==, "Searching.");
  agent_test_session_clear (&f);
}

/* A streamed event nested past the bound: a protocol error that says so,
 * the text before it kept */
static void
test_event_too_deep (void)
{
  g_autofree char *deep = agent_test_nested_arrays (AGENT_JSON_MAX_DEPTH + 100, "1");
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_openai_begin (f.server, "Before.");
  agent_test_response_add_sse_printf (r, "{\"choices\":[{\"index\":0,\"delta\":"
                                         "{\"content\":\"x\"}}],\"extra\":%s}", deep);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  assert_too_deep (f.turn.error);
  g_assert_cmpuint (agent_test_memory_length (f.session), ==, 2);
  g_assert_cmpstr (agent_message_get_content (agent_test_memory_message (f.session, 1)), ==,
                   "Before.");
  agent_test_session_clear (&f);
}

/* A tool's schema and an MCP configuration, as text */
static void
test_schema_text (void)
{
  g_autofree char *huge = agent_test_nested_arrays (HUGE_DEPTH, "");
  g_autofree char *schema = g_strdup_printf ("{\"type\":\"object\",\"x\":%s}", huge);
  g_autofree char *config = g_strdup_printf ("{\"mcpServers\":{\"a\":{\"command\":\"true\","
                                             "\"args\":%s}}}", huge);
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(GError) error = NULL;

  g_assert_null (agent_tool_parse_parameters (schema, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  assert_too_deep (error);
  g_clear_error (&error);

  g_assert_false (agent_mcp_server_list_load_data (list, config, -1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  assert_too_deep (error);
  agent_test_assert_contains (error->message, "MCP configuration");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-depth/bound/parse", test_parse_bound);
  g_test_add_func ("/json-depth/bound/partial", test_partial_bound);
  g_test_add_func ("/json-depth/bound/event-reader", test_event_reader_bound);
  g_test_add_func ("/json-depth/find-top-level-int", test_find_top_level_int);
  g_test_add_func ("/json-depth/arguments/openai", test_arguments_openai);
  g_test_add_func ("/json-depth/arguments/anthropic", test_arguments_anthropic);
  g_test_add_func ("/json-depth/arguments/bound", test_arguments_bound);
  g_test_add_func ("/json-depth/anthropic/server-tool-input", test_server_tool_input);
  g_test_add_func ("/json-depth/events/too-deep", test_event_too_deep);
  g_test_add_func ("/json-depth/schema-text", test_schema_text);

  return g_test_run ();
}
