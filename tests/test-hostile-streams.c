/* test-hostile-streams.c — streams that must not end in silence or in a
 * merged, invented or doubled answer: another API's events, a lone end
 * marker, content as an array of parts, reasoning under two names, a
 * spliced Anthropic stream, several Responses message items; and errors
 * that say what happened (a stream cut in its first event, a number out
 * of range); through the public API against a real HTTP server on
 * 127.0.0.1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef AgentTestSession Fixture;

/* One SSE event of JSON written with single quotes */
static void
add_event (AgentTestResponse *r,
           const char        *quoted)
{
  g_autofree char *json = agent_test_json_text (quoted);

  agent_test_response_add_sse (r, json);
}

/* Nothing silently empty */

/* A chat-completions stream given to --provider openai-responses: not one
 * event of the Responses API, so no answer, however it ends */
static void
test_other_api (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai-responses");
  r = agent_test_server_add_response (f.server, 200);
  add_event (r, "{'id':'c1','object':'chat.completion.chunk','choices':[{'index':0,"
                "'delta':{'role':'assistant','content':'Hello'},'finish_reason':null}]}");
  add_event (r, "{'id':'c1','object':'chat.completion.chunk','choices':[{'index':0,"
                "'delta':{},'finish_reason':'stop'}]}");
  agent_test_response_add_done (r);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  agent_test_assert_contains (f.turn.error->message, "OpenAI Responses");
  g_assert_cmpuint (agent_test_memory_length (f.session), ==, 1);
  agent_test_session_clear (&f);
}

/* Each provider's end marker alone */
static void
test_lone_end_marker (void)
{
  static const struct { const char *provider; const char *body; const char *type; } cases[] = {
    { "openai", "data: [DONE]\n\n", "text/event-stream" },
    { "openai-responses", "data: [DONE]\n\n", "text/event-stream" },
    { "anthropic", "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
      "text/event-stream" },
    { "ollama", "{\"done\":true}\n", "application/x-ndjson" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Fixture f;
      AgentTestResponse *r;

      agent_test_session_init (&f, cases[i].provider);
      r = agent_test_server_add_response (f.server, 200);
      agent_test_response_set_content_type (r, cases[i].type);
      agent_test_response_add_bytes (r, cases[i].body, -1);

      agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

      g_test_message ("%s: %s", cases[i].provider,
                      f.turn.error ? f.turn.error->message : "no error");
      g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
      g_assert_cmpuint (agent_test_memory_length (f.session), ==, 1);
      agent_test_session_clear (&f);
    }
}

/* A Responses stream that is only its end, response.completed: no
 * answer, whatever the event says */
static void
test_responses_completed_only (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai-responses");
  r = agent_test_server_add_response (f.server, 200);
  agent_test_add_typed_quoted (r, "{'type':'response.completed','response':{'id':'resp_1',"
                                  "'model':'gpt-test','status':'completed','output':[],"
                                  "'usage':{'input_tokens':3,'output_tokens':0,'total_tokens':3}}}");

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  agent_test_assert_contains (f.turn.error->message, "OpenAI Responses");
  g_assert_cmpuint (agent_test_memory_length (f.session), ==, 1);
  agent_test_session_clear (&f);
}

/* A Gemini stream that is only a finish reason (its end marker), with or
 * without usage: no answer */
static void
test_gemini_finish_only (void)
{
  static const char * const bodies[] = {
    "data: {\"candidates\": [{\"finishReason\": \"STOP\", \"index\": 0}]}\r\n\r\n",
    "data: {\"candidates\": [{\"finishReason\": \"STOP\"}], \"usageMetadata\":"
    " {\"promptTokenCount\": 3, \"totalTokenCount\": 3}, \"modelVersion\": \"gemini-test\"}\r\n\r\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      Fixture f;
      AgentTestResponse *r;

      agent_test_session_init (&f, "gemini");
      r = agent_test_server_add_response (f.server, 200);
      agent_test_response_set_content_type (r, "text/event-stream");
      agent_test_response_add_bytes (r, bodies[i], -1);

      agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

      g_test_message ("%s", f.turn.error ? f.turn.error->message : "no error");
      g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
      agent_test_assert_contains (f.turn.error->message, "Google Gemini");
      g_assert_cmpuint (agent_test_memory_length (f.session), ==, 1);
      agent_test_session_clear (&f);
    }
}

/* Each API's recorded stream given to each other provider: an error that
 * says the stream is not of that provider's API, never an empty answer or
 * "the stream ended" */
static void
test_other_apis (void)
{
  static const struct { const char *provider; const char *api; const char *file; } apis[] = {
    { "openai", "OpenAI-compatible chat completions", "openai-chat/oaipy-json-object-unicode.sse" },
    { "openai-responses", "OpenAI Responses", "openai-responses/simonw-llm-function-call.sse" },
    { "anthropic", "Anthropic Messages", "anthropic/antpy-text-only.sse" },
    { "ollama", "Ollama", "ollama/langchaingo-text-stream-chunked.ndjson" },
    { "gemini", "Google Gemini", "gemini/pydai-thought-signature-crlf.sse" },
  };
  g_autoptr(GString) problems = g_string_new (NULL);

  for (guint p = 0; p < G_N_ELEMENTS (apis); p++)
    for (guint s = 0; s < G_N_ELEMENTS (apis); s++)
      {
        g_autofree char *path = agent_test_corpus_path (apis[s].file);
        Fixture f;
        AgentTestResponse *r;

        if (p == s)
          continue;

        agent_test_session_init (&f, apis[p].provider);
        r = agent_test_server_add_response (f.server, 200);
        agent_test_response_set_content_type (r, g_str_has_suffix (path, ".ndjson")
                                                 ? "application/x-ndjson" : "text/event-stream");
        agent_test_response_add_file_in_pieces (r, path, 7, 4096);

        agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

        g_test_message ("%s to %s: %s", apis[s].file, apis[p].provider,
                        f.turn.error ? f.turn.error->message : "no error");
        if (!g_error_matches (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL) ||
            strstr (f.turn.error->message, apis[p].api) == NULL)
          g_string_append_printf (problems, "\n  %s to %s: %s", apis[s].file, apis[p].provider,
                                  f.turn.error ? f.turn.error->message : "no error");
        agent_test_session_clear (&f);
      }

  if (problems->len > 0)
    g_error ("Streams of other APIs not said to be so:%s", problems->str);
}

/* The first event's type, quoted in that error, is text from the wire:
 * bytes that are not UTF-8 and a name too long to quote whole (cut in the
 * middle of a character) are quoted as valid UTF-8 (fuzz-decoder-anthropic
 * and -openai-responses found the first) */
static void
test_other_api_type_quoted (void)
{
  static const struct { const char *type; const char *quoted; } cases[] = {
    { "message_s\xf4op", "“message_s\xef\xbf\xbdop”" },
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9" "bbbbbbbbbb",
      "“aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9…”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = g_strdup_printf ("event: %s\ndata: {\"type\":\"message_stop\"}\n\n",
                                               cases[i].type);
      Fixture f;
      AgentTestResponse *r;

      agent_test_session_init (&f, "anthropic");
      r = agent_test_server_add_response (f.server, 200);
      agent_test_response_set_content_type (r, "text/event-stream");
      agent_test_response_add_bytes (r, body, -1);

      agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

      g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
      g_assert_true (g_utf8_validate (f.turn.error->message, -1, NULL));
      agent_test_assert_contains (f.turn.error->message, cases[i].quoted);
      g_assert_cmpuint (agent_test_memory_length (f.session), ==, 1);
      agent_test_session_clear (&f);
    }
}

/* Content as an array of parts (Mistral's reasoning models) */
static void
test_content_parts (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_server_add_response (f.server, 200);
  add_event (r, "{'choices':[{'index':0,'delta':{'role':'assistant','content':["
                "{'type':'thinking','thinking':[{'type':'text','text':'Two and '},"
                "{'type':'text','text':'two.'}]}]}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'content':[{'type':'text','text':'It is '}]}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'content':'4.'},'finish_reason':'stop'}]}");
  agent_test_response_add_done (r);

  agent_test_turn_run (&f.turn, f.session, "2+2?", NULL);

  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_message_get_content (f.turn.result), ==, "It is 4.");
  g_assert_cmpstr (agent_message_get_reasoning (f.turn.result), ==, "Two and two.");
  g_assert_cmpstr (f.text->str, ==, "It is 4.");
  g_assert_cmpstr (f.reasoning->str, ==, "Two and two.");
  agent_test_session_clear (&f);
}

/* A part of a kind libagent does not know is reported, not dropped */
static void
test_content_parts_unknown (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_server_add_response (f.server, 200);
  add_event (r, "{'choices':[{'index':0,'delta':{'content':[{'type':'text','text':'See '}]}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'content':[{'type':'hologram','data':'…'}]}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'content':'this.'},'finish_reason':'stop'}]}");
  agent_test_response_add_done (r);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  agent_test_assert_contains (f.turn.error->message, "hologram");
  /* What streamed stays */
  g_assert_cmpstr (agent_message_get_content (agent_test_memory_message (f.session, 1)), ==,
                   "See ");
  agent_test_session_clear (&f);
}

/* reasoning_content and reasoning in one delta: the same text, once */
static void
test_reasoning_twice (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_server_add_response (f.server, 200);
  add_event (r, "{'choices':[{'index':0,'delta':{'reasoning_content':'Hmm, ',"
                "'reasoning':'Hmm, '}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'reasoning':'fine.',"
                "'reasoning_content':'fine.'}}]}");
  add_event (r, "{'choices':[{'index':0,'delta':{'content':'Yes.'},'finish_reason':'stop'}]}");
  agent_test_response_add_done (r);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_message_get_reasoning (f.turn.result), ==, "Hmm, fine.");
  g_assert_cmpstr (f.reasoning->str, ==, "Hmm, fine.");
  agent_test_session_clear (&f);
}

/* Anthropic: a content block of a type libagent does not know is
 * reported, what streamed before it kept; the results of server tools, of
 * every name, are kept to be sent back */
static void
test_anthropic_unknown_block (void)
{
  static const struct { const char *type; gboolean known; } blocks[] = {
    { "hologram", FALSE },
    { "web_fetch_tool_result", TRUE },
    { "redacted_thinking", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      g_autofree char *start = g_strdup_printf ("{'type':'content_block_start','index':1,"
                                                "'content_block':{'type':'%s','data':'x'}}",
                                                blocks[i].type);
      Fixture f;
      AgentTestResponse *r;

      agent_test_session_init (&f, "anthropic");
      r = agent_test_server_add_response (f.server, 200);
      agent_test_add_typed_quoted (r, AGENT_TEST_ANTHROPIC_MESSAGE_START ("msg_1"));
      agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':0,"
                                      "'content_block':{'type':'text','text':''}}");
      agent_test_add_typed_quoted (r, "{'type':'content_block_delta','index':0,"
                                      "'delta':{'type':'text_delta','text':'Before.'}}");
      agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':0}");
      agent_test_add_typed_quoted (r, start);
      agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':1}");
      agent_test_add_typed_quoted (r, "{'type':'message_delta','delta':{'stop_reason':'end_turn'},"
                                      "'usage':{'output_tokens':9}}");
      agent_test_add_typed_quoted (r, "{'type':'message_stop'}");

      agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

      g_test_message ("%s: %s", blocks[i].type, f.turn.error ? f.turn.error->message : "no error");
      if (blocks[i].known)
        {
          g_assert_no_error (f.turn.error);
        }
      else
        {
          g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
          agent_test_assert_contains (f.turn.error->message, "“hologram”");
        }
      g_assert_cmpstr (agent_message_get_content (agent_test_memory_message (f.session, 1)), ==,
                       "Before.");
      agent_test_session_clear (&f);
    }
}

/* Anthropic: never a call whose arguments did not finish */

#define MESSAGE_START(id) AGENT_TEST_ANTHROPIC_MESSAGE_START (id)

/* A proxy that splices a retried stream into the first: a second
 * message_start while the first message's call is still streaming */
static void
test_anthropic_spliced (void)
{
  guint runs = 0;
  g_autoptr(AgentTool) tool = agent_test_counting_tool_new (&runs);
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "anthropic");
  agent_session_add_tool (f.session, tool);
  r = agent_test_server_add_response (f.server, 200);
  agent_test_add_typed_quoted (r, MESSAGE_START ("msg_1"));
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':0,"
                                  "'content_block':{'type':'tool_use','id':'toolu_1',"
                                  "'name':'count','input':{}}}");
  agent_test_add_typed_quoted (r, "{'type':'content_block_delta','index':0,"
                                  "'delta':{'type':'input_json_delta',"
                                  "'partial_json':'{\\'n\\': 12'}}");
  /* The retried message, whole */
  agent_test_add_typed_quoted (r, MESSAGE_START ("msg_2"));
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':0,"
                                  "'content_block':{'type':'tool_use','id':'toolu_2',"
                                  "'name':'count','input':{}}}");
  agent_test_add_typed_quoted (r, "{'type':'content_block_delta','index':0,"
                                  "'delta':{'type':'input_json_delta','partial_json':'}'}}");
  agent_test_add_typed_quoted (r, "{'type':'content_block_stop','index':0}");
  agent_test_add_typed_quoted (r, "{'type':'message_delta','delta':{'stop_reason':'tool_use'},"
                                  "'usage':{'output_tokens':9}}");
  agent_test_add_typed_quoted (r, "{'type':'message_stop'}");

  agent_test_turn_run (&f.turn, f.session, "Count", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  agent_test_assert_contains (f.turn.error->message, "message_start");
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 1);
  /* No call in memory that has no result */
  for (guint i = 0; i < agent_test_memory_length (f.session); i++)
    g_assert_cmpuint (agent_message_get_n_tool_calls (agent_test_memory_message (f.session, i)),
                      ==, 0);
  agent_test_session_clear (&f);
}

/* A tool_use block with streamed input that never got its stop */
static void
test_anthropic_call_unfinished (void)
{
  guint runs = 0;
  g_autoptr(AgentTool) tool = agent_test_counting_tool_new (&runs);
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "anthropic");
  agent_session_add_tool (f.session, tool);
  r = agent_test_server_add_response (f.server, 200);
  agent_test_add_typed_quoted (r, MESSAGE_START ("msg_1"));
  agent_test_add_typed_quoted (r, "{'type':'content_block_start','index':0,"
                                  "'content_block':{'type':'tool_use','id':'toolu_1',"
                                  "'name':'count','input':{}}}");
  agent_test_add_typed_quoted (r, "{'type':'content_block_delta','index':0,"
                                  "'delta':{'type':'input_json_delta',"
                                  "'partial_json':'{\\'n\\': 1'}}");
  agent_test_add_typed_quoted (r, "{'type':'message_delta','delta':{'stop_reason':'tool_use'},"
                                  "'usage':{'output_tokens':9}}");
  agent_test_add_typed_quoted (r, "{'type':'message_stop'}");

  agent_test_turn_run (&f.turn, f.session, "Count", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 1);
  agent_test_session_clear (&f);
}

/* Responses: several message items, byte for byte */

#define CREATED "{'type':'response.created','response':{'id':'resp_1','model':'gpt-test'}}"
#define COMPLETED \
  "{'type':'response.completed','response':{'id':'resp_1','model':'gpt-test','status':'completed'," \
  "'usage':{'input_tokens':3,'output_tokens':4,'total_tokens':7}}}"

static void
add_message_item (AgentTestResponse *r,
                  guint              index,
                  const char        *text)
{
  g_autofree char *added = g_strdup_printf ("{'type':'response.output_item.added',"
                                            "'output_index':%u,'item':{'id':'msg_%u',"
                                            "'type':'message','content':[]}}", index, index);
  g_autofree char *delta = g_strdup_printf ("{'type':'response.output_text.delta',"
                                            "'item_id':'msg_%u','output_index':%u,"
                                            "'content_index':0,'delta':'%s'}",
                                            index, index, text);
  g_autofree char *done = g_strdup_printf ("{'type':'response.output_item.done',"
                                           "'output_index':%u,'item':{'id':'msg_%u',"
                                           "'type':'message','content':[{'type':'output_text',"
                                           "'text':'%s'}]}}", index, index, text);

  agent_test_add_typed_quoted (r, added);
  agent_test_add_typed_quoted (r, delta);
  agent_test_add_typed_quoted (r, done);
}

static void
test_responses_items (void)
{
  g_auto(GStrv) items = NULL;
  const gsize *breaks;
  guint n_breaks = 0;
  JsonArray *input;
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai-responses");
  r = agent_test_server_add_response (f.server, 200);
  agent_test_add_typed_quoted (r, CREATED);
  add_message_item (r, 0, "First.");
  add_message_item (r, 1, "Second.");
  agent_test_add_typed_quoted (r, COMPLETED);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  /* What the provider sent, and nothing else (as the SDK's output_text) */
  g_assert_cmpstr (f.text->str, ==, "First.Second.");
  g_assert_cmpstr (agent_message_get_content (f.turn.result), ==, "First.Second.");
  /* Where the second item starts */
  breaks = agent_message_get_content_breaks (f.turn.result, &n_breaks);
  g_assert_cmpuint (n_breaks, ==, 1);
  g_assert_cmpuint (breaks[0], ==, strlen ("First."));
  items = agent_message_dup_content_items (f.turn.result);
  g_assert_cmpuint (g_strv_length (items), ==, 2);
  g_assert_cmpstr (items[0], ==, "First.");
  g_assert_cmpstr (items[1], ==, "Second.");

  /* Sent back as the two messages they were */
  r = agent_test_server_add_response (f.server, 200);
  agent_test_add_typed_quoted (r, CREATED);
  add_message_item (r, 0, "Third.");
  agent_test_add_typed_quoted (r, COMPLETED);
  agent_test_turn_run (&f.turn, f.session, "Again", NULL);
  g_assert_no_error (f.turn.error);
  input = json_object_get_array_member (json_node_get_object (agent_test_server_get_request_body (f.server, 1)),
                                        "input");
  g_assert_cmpuint (json_array_get_length (input), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (input, 1), "content"),
                   ==, "First.");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (input, 2), "content"),
                   ==, "Second.");
  agent_test_session_clear (&f);
}

/* Errors that say what happened */

/* The body ends inside its first event: that is what is said, not that
 * an event stream is none */
static void
test_cut_in_first_event (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_server_add_response (f.server, 200);
  agent_test_response_add_bytes (r, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel",
                                 -1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_test_message ("%s", f.turn.error->message);
  agent_test_assert_contains (f.turn.error->message, "in the middle of an event");
  g_assert_null (strstr (f.turn.error->message, "not an event stream"));
  agent_test_session_clear (&f);
}

/* Numbers beyond a double's range, in a field that is read and in one
 * that is not, and an integer beyond 64 bits: the answer stands */
static void
test_numbers_out_of_range (void)
{
  Fixture f;
  AgentTestResponse *r;

  agent_test_session_init (&f, "openai");
  r = agent_test_server_add_response (f.server, 200);
  agent_test_response_add_sse (r, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Big \"},"
                                  "\"logprob\":-1e999}],\"x_score\":1e999}");
  agent_test_response_add_sse (r, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"numbers.\"},"
                                  "\"finish_reason\":\"stop\"}],"
                                  "\"x_seed\":123456789012345678901234567890}");
  agent_test_response_add_sse (r, "{\"choices\":[],\"usage\":{\"prompt_tokens\":2,"
                                  "\"completion_tokens\":1e999,\"total_tokens\":3}}");
  agent_test_response_add_done (r);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_message_get_content (f.turn.result), ==, "Big numbers.");
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_message_get_usage (f.turn.result)), ==, 2);
  agent_test_session_clear (&f);
}

/* A server that is slow to take in a request: it connects at once, then
 * reads nothing for a while (its receive buffer small, so that the
 * client's upload of a long history stalls), then the whole request, and
 * answers. One connection, in a thread of its own. */
typedef struct
{
  GSocket *listener;
  guint16  port;
  GThread *thread;
  gulong   pause_us;
  gsize    received;   /* bytes of the request body */
} SlowReader;

static gboolean
read_fully (GSocket *socket,
            char    *buffer,
            gsize    len)
{
  gsize done = 0;

  while (done < len)
    {
      gssize n = g_socket_receive (socket, buffer + done, len - done, NULL, NULL);

      if (n <= 0)
        return FALSE;
      done += n;
    }
  return TRUE;
}

static gpointer
slow_reader_thread (gpointer data)
{
  static const char answer_body[] =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Read it all.\"},"
    "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
  SlowReader *reader = data;
  g_autoptr(GSocket) socket = g_socket_accept (reader->listener, NULL, NULL);
  g_autoptr(GString) headers = g_string_new (NULL);
  g_autofree char *answer = NULL;
  g_autofree char *body = NULL;
  g_autofree char *lower = NULL;
  const char *length;
  gsize sent = 0;
  char c;

  if (socket == NULL)
    return NULL;

  g_usleep (reader->pause_us);

  /* The headers, a byte at a time, then the body they announce */
  while (!g_str_has_suffix (headers->str, "\r\n\r\n"))
    {
      if (!read_fully (socket, &c, 1))
        return NULL;
      g_string_append_c (headers, c);
    }
  lower = g_ascii_strdown (headers->str, -1);
  if ((length = strstr (lower, "content-length:")) == NULL)
    return NULL;
  reader->received = g_ascii_strtoull (length + strlen ("content-length:"), NULL, 10);
  body = g_malloc (reader->received);
  if (!read_fully (socket, body, reader->received))
    return NULL;

  answer = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                            "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                            strlen (answer_body), answer_body);
  while (sent < strlen (answer))
    {
      gssize n = g_socket_send (socket, answer + sent, strlen (answer) - sent, NULL, NULL);

      if (n <= 0)
        return NULL;
      sent += n;
    }
  /* All of the request was read: closing sends the answer's end */
  g_socket_close (socket, NULL);
  return NULL;
}

static void
slow_reader_start (SlowReader *reader,
                   gulong      pause_us)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  reader->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                   G_SOCKET_PROTOCOL_TCP, NULL);
  /* Inherited by the connection: a small window, so the upload stalls */
  g_assert_true (g_socket_set_option (reader->listener, SOL_SOCKET, SO_RCVBUF, 4096, NULL));
  g_assert_true (g_socket_bind (reader->listener, any, TRUE, NULL));
  g_assert_true (g_socket_listen (reader->listener, NULL));
  bound = g_socket_get_local_address (reader->listener, NULL);
  reader->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  reader->pause_us = pause_us;
  reader->thread = g_thread_new ("slow-reader", slow_reader_thread, reader);
}

static void
slow_reader_stop (SlowReader *reader)
{
  g_socket_close (reader->listener, NULL);
  g_thread_join (reader->thread);
  g_clear_object (&reader->listener);
}

/* The connection is made at once, but sending a long history takes
 * longer than the connect-timeout: that is no connection timing out, and
 * the request is not sent again */
static void
test_slow_upload (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", &error);
  g_autoptr(AgentSession) session = NULL;
  g_autofree char *url = NULL;
  g_autofree char *history = g_strnfill (8 * 1024 * 1024, 'h');
  AgentTestTurn turn = { 0 };
  SlowReader reader = { 0 };

  slow_reader_start (&reader, 2 * G_USEC_PER_SEC);
  url = g_strdup_printf ("http://127.0.0.1:%u/v1", reader.port);
  agent_provider_set_base_url (provider, url);
  agent_provider_set_connect_timeout (provider, 0.5);
  agent_provider_set_max_retries (provider, 0);
  session = agent_session_new (provider);

  agent_test_turn_run (&turn, session, history, NULL);

  g_assert_no_error (turn.error);
  g_assert_cmpstr (agent_message_get_content (turn.result), ==, "Read it all.");
  g_assert_cmpuint (reader.received, >, 8 * 1024 * 1024);
  agent_test_turn_clear (&turn);
  slow_reader_stop (&reader);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile-streams/empty/other-api", test_other_api);
  g_test_add_func ("/hostile-streams/empty/lone-end-marker", test_lone_end_marker);
  g_test_add_func ("/hostile-streams/empty/responses-completed-only",
                   test_responses_completed_only);
  g_test_add_func ("/hostile-streams/empty/gemini-finish-only", test_gemini_finish_only);
  g_test_add_func ("/hostile-streams/empty/other-apis", test_other_apis);
  g_test_add_func ("/hostile-streams/empty/other-api-type-quoted", test_other_api_type_quoted);
  g_test_add_func ("/hostile-streams/parts/content", test_content_parts);
  g_test_add_func ("/hostile-streams/parts/unknown", test_content_parts_unknown);
  g_test_add_func ("/hostile-streams/reasoning-twice", test_reasoning_twice);
  g_test_add_func ("/hostile-streams/anthropic/spliced", test_anthropic_spliced);
  g_test_add_func ("/hostile-streams/anthropic/unknown-block", test_anthropic_unknown_block);
  g_test_add_func ("/hostile-streams/anthropic/call-unfinished", test_anthropic_call_unfinished);
  g_test_add_func ("/hostile-streams/responses/items", test_responses_items);
  g_test_add_func ("/hostile-streams/errors/cut-in-first-event", test_cut_in_first_event);
  g_test_add_func ("/hostile-streams/errors/numbers-out-of-range", test_numbers_out_of_range);
  g_test_add_func ("/hostile-streams/errors/slow-upload", test_slow_upload);

  return g_test_run ();
}
