/* test-provider-openai-responses-session.c — the OpenAI Responses backend
 * through AgentSession against the in-process server: a two-step tool
 * round trip (the second request checked field by field), reasoning
 * options, HTTP and mid-stream errors, incomplete answers, and model
 * listing.
 *
 * Streams are test-provider-openai-responses's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

#define SECRET_KEY "sk-test-SECRET-0123456789"

/* The JSON in this file is written with ' for " (see agent_test_json_text()) */
static void
add_event (AgentTestResponse *response,
           const char        *quoted)
{
  g_autofree char *json = agent_test_json_text (quoted);

  agent_test_add_typed_event (response, json);
}

static void
set_json_body (AgentTestResponse *response,
               const char        *quoted)
{
  g_autofree char *json = agent_test_json_text (quoted);

  agent_test_response_set_body (response, "application/json", json);
}

/* Through a session */

typedef AgentTestSession Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  agent_test_session_init (f, "openai-responses");
  agent_provider_set_model (f->provider, "gpt-5-test");
  agent_provider_set_api_key (f->provider, SECRET_KEY);
  agent_session_add_tool (f->session, calculator);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_session_clear (f);
}

static AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (f->session));
  g_autoptr(AgentMessage) message = g_list_model_get_item (memory, index);

  g_assert_nonnull (message);
  return message;  /* the memory keeps it alive */
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

/* The "input" of request @index */
static JsonArray *
input (Fixture *f,
       guint    index)
{
  return json_object_get_array_member (agent_test_openai_get_request (f->server, index), "input");
}

static JsonObject *
input_item (Fixture *f,
            guint    index,
            guint    nth)
{
  g_assert_cmpuint (nth, <, json_array_get_length (input (f, index)));
  return json_array_get_object_element (input (f, index), nth);
}

static guint
input_length (Fixture *f,
              guint    index)
{
  return json_array_get_length (input (f, index));
}

static void
assert_json (JsonNode   *node,
             const char *quoted)
{
  g_autofree char *expected = agent_test_json_text (quoted);

  agent_test_assert_json (node, expected);
}

static void
assert_object (JsonObject *object,
               const char *quoted)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  assert_json (node, quoted);
}

#define REASONING_ITEM \
  "{'id':'rs_1','type':'reasoning','encrypted_content':'gAAAAB-opaque'," \
  "'summary':[{'type':'summary_text','text':'Two times seven.'}]}"

/* The model reasons, says something, and calls the calculator with its
 * arguments in three deltas. */
static void
add_tool_step (Fixture    *f,
               const char *reasoning_item)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);
  g_autofree char *reasoning_done = NULL;

  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{'type':'response.created','sequence_number':0,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.in_progress','sequence_number':1,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':0,'sequence_number':2,"
                "'item':{'id':'rs_1','type':'reasoning','summary':[]}}");
  add_event (r, "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
                "'summary_index':0,'sequence_number':3,'delta':'Two times '}");
  add_event (r, "{'type':'response.reasoning_summary_text.delta','item_id':'rs_1','output_index':0,"
                "'summary_index':0,'sequence_number':4,'delta':'seven.'}");
  reasoning_done = g_strdup_printf ("{'type':'response.output_item.done','output_index':0,"
                                    "'sequence_number':5,'item':%s}", reasoning_item);
  add_event (r, reasoning_done);
  add_event (r, "{'type':'response.output_item.added','output_index':1,'sequence_number':6,"
                "'item':{'id':'msg_1','type':'message','status':'in_progress','role':'assistant',"
                "'content':[]}}");
  add_event (r, "{'type':'response.output_text.delta','item_id':'msg_1','output_index':1,"
                "'content_index':0,'sequence_number':7,'delta':'Let me '}");
  add_event (r, "{'type':'response.output_text.delta','item_id':'msg_1','output_index':1,"
                "'content_index':0,'sequence_number':8,'delta':'compute.'}");
  add_event (r, "{'type':'response.output_item.done','output_index':1,'sequence_number':9,"
                "'item':{'id':'msg_1','type':'message','status':'completed','role':'assistant',"
                "'content':[{'type':'output_text','annotations':[],'text':'Let me compute.'}]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':2,'sequence_number':10,"
                "'item':{'id':'fc_1','type':'function_call','status':'in_progress',"
                "'call_id':'call_1','name':'calculator','arguments':''}}");
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':11,'delta':'{\\'expression\\''}");
  agent_test_response_add_delay (r, 10);
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':12,'delta':': \\'2*'}");
  add_event (r, "{'type':'response.function_call_arguments.delta','item_id':'fc_1',"
                "'output_index':2,"
                "'sequence_number':13,'delta':'7\\'}'}");
  add_event (r, "{'type':'response.function_call_arguments.done','item_id':'fc_1','output_index':2,"
                "'sequence_number':14,'arguments':'{\\'expression\\': \\'2*7\\'}'}");
  add_event (r, "{'type':'response.output_item.done','output_index':2,'sequence_number':15,"
                "'item':{'id':'fc_1','type':'function_call','status':'completed',"
                "'call_id':'call_1','name':'calculator',"
                "'arguments':'{\\'expression\\': \\'2*7\\'}'}}");
  add_event (r, "{'type':'response.completed','sequence_number':16,'response':{'id':'resp_1',"
                "'object':'response','model':'gpt-5-test','status':'completed','output':[],"
                "'usage':{'input_tokens':40,'input_tokens_details':{'cached_tokens':8},"
                "'output_tokens':20,'output_tokens_details':{'reasoning_tokens':12},"
                "'total_tokens':60}}}");
}

static void
add_answer_step (Fixture    *f,
                 const char *text)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);
  g_autofree char *delta = g_strdup_printf ("{'type':'response.output_text.delta','output_index':0,"
                                            "'content_index':0,'delta':'%s'}", text);

  agent_test_response_set_content_type (r, "text/event-stream");
  add_event (r, "{'type':'response.created','response':{'id':'resp_2','model':'gpt-5-test',"
                "'status':'in_progress','output':[]}}");
  add_event (r, "{'type':'response.output_item.added','output_index':0,"
                "'item':{'id':'msg_2','type':'message','role':'assistant','content':[]}}");
  add_event (r, delta);
  add_event (r, "{'type':'response.completed','response':{'id':'resp_2','model':'gpt-5-test',"
                "'status':'completed',"
                "'usage':{'input_tokens':70,'output_tokens':5,'total_tokens':75}}}");
}

static void
test_tool_round_trip (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentMessage *assistant;
  AgentToolCall *call;
  JsonObject *body;

  agent_session_set_system_prompt (f->session, "Be brief.");
  agent_provider_set_max_tokens (f->provider, 512);
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_HIGH);
  add_tool_step (f, REASONING_ITEM);
  add_answer_step (f, "It is 14.");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "It is 14.");
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "stop");

  /* Reasoning streamed as reasoning, apart from the text */
  g_assert_cmpstr (f->reasoning->str, ==, "Two times seven.");
  g_assert_cmpstr (f->text->str, ==, "Let me compute.It is 14.");

  /* Memory: user, assistant with its call, tool result, answer */
  g_assert_cmpuint (memory_length (f), ==, 4);
  assistant = memory_message (f, 1);
  g_assert_cmpstr (agent_message_get_reasoning (assistant), ==, "Two times seven.");
  g_assert_cmpstr (agent_message_get_content (assistant), ==, "Let me compute.");
  g_assert_cmpstr (agent_message_get_finish_reason (assistant), ==, "tool_calls");
  g_assert_cmpstr (agent_message_get_response_id (assistant), ==, "resp_1");
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_message_get_usage (assistant)), ==, 40);
  g_assert_cmpint (agent_usage_get_reasoning_tokens (agent_message_get_usage (assistant)), ==, 12);
  g_assert_cmpint (agent_usage_get_cached_tokens (agent_message_get_usage (assistant)), ==, 8);
  call = agent_message_get_tool_call (assistant, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_1");
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "14");
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 2)), ==, "14");

  /* Both requests */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (f->server, i), ==, "/v1/responses");
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Authorization"), ==,
                       "Bearer " SECRET_KEY);
      g_assert_cmpstr (agent_test_server_get_request_header (f->server, i, "Accept"), ==,
                       "text/event-stream");
    }
  g_assert_cmpuint (input_length (f, 0), ==, 1);
  assert_object (input_item (f, 0, 0), "{'role':'user','content':'What is 2*7?'}");

  /* The second request, field by field */
  body = agent_test_openai_get_request (f->server, 1);
  g_assert_cmpuint (json_object_get_size (body), ==, 9);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "gpt-5-test");
  g_assert_cmpstr (json_object_get_string_member (body, "instructions"), ==, "Be brief.");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_false (json_object_get_boolean_member (body, "store"));
  g_assert_cmpint (json_object_get_int_member (body, "max_output_tokens"), ==, 512);
  assert_json (json_object_get_member (body, "reasoning"), "{'effort':'high','summary':'auto'}");
  assert_json (json_object_get_member (body, "include"), "['reasoning.encrypted_content']");
  {
    JsonArray *declared = json_object_get_array_member (body, "tools");
    JsonObject *tool = json_array_get_object_element (declared, 0);

    g_assert_cmpuint (json_array_get_length (declared), ==, 1);
    g_assert_cmpuint (json_object_get_size (tool), ==, 4);
    g_assert_cmpstr (json_object_get_string_member (tool, "type"), ==, "function");
    g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==, "calculator");
    g_assert_cmpstr (json_object_get_string_member (tool, "description"), ==,
                     agent_tool_get_description (calculator));
    g_assert_true (agent_test_json_equal (json_object_get_member (tool, "parameters"),
                                          agent_tool_get_parameters (calculator)));
  }

  /* The input: the user, the reasoning item exactly as it came, the text,
   * the call (its item id, call_id, arguments byte for byte), its result */
  g_assert_cmpuint (input_length (f, 1), ==, 5);
  assert_object (input_item (f, 1, 0), "{'role':'user','content':'What is 2*7?'}");
  assert_object (input_item (f, 1, 1), REASONING_ITEM);
  assert_object (input_item (f, 1, 2), "{'role':'assistant','content':'Let me compute.'}");
  assert_object (input_item (f, 1, 3),
                 "{'type':'function_call','id':'fc_1','call_id':'call_1','name':'calculator',"
                 "'arguments':'{\\'expression\\': \\'2*7\\'}'}");
  assert_object (input_item (f, 1, 4),
                 "{'type':'function_call_output','call_id':'call_1','output':'14'}");
}

/* Reasoning options: nothing for a model not known to reason; once it
 * reasoned, its summaries and encrypted reasoning are asked for; a
 * reasoning item without content is not sent back, nor the call's item id. */
static void
test_reasoning_options (Fixture       *f,
                        gconstpointer  data)
{
  JsonObject *body;

  add_tool_step (f, "{'id':'rs_1','type':'reasoning','summary':[]}");
  add_answer_step (f, "It is 14.");
  add_answer_step (f, "Done.");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);
  g_assert_no_error (f->turn.error);

  body = agent_test_openai_get_request (f->server, 0);
  g_assert_false (json_object_has_member (body, "reasoning"));
  g_assert_false (json_object_has_member (body, "include"));
  g_assert_false (json_object_has_member (body, "max_output_tokens"));
  g_assert_false (json_object_has_member (body, "instructions"));
  g_assert_false (json_object_get_boolean_member (body, "store"));

  body = agent_test_openai_get_request (f->server, 1);
  assert_json (json_object_get_member (body, "reasoning"), "{'summary':'auto'}");
  assert_json (json_object_get_member (body, "include"), "['reasoning.encrypted_content']");
  g_assert_cmpuint (input_length (f, 1), ==, 4);
  assert_object (input_item (f, 1, 1), "{'role':'assistant','content':'Let me compute.'}");
  assert_object (input_item (f, 1, 2),
                 "{'type':'function_call','call_id':'call_1','name':'calculator',"
                 "'arguments':'{\\'expression\\': \\'2*7\\'}'}");

  /* NONE: the lowest effort */
  agent_provider_set_reasoning_effort (f->provider, AGENT_REASONING_EFFORT_NONE);
  agent_test_turn_run (&f->turn, f->session, "Thanks", NULL);
  g_assert_no_error (f->turn.error);
  assert_json (json_object_get_member (agent_test_openai_get_request (f->server, 2), "reasoning"),
               "{'effort':'minimal','summary':'auto'}");
  g_assert_cmpuint (input_length (f, 2), ==, 6);
  assert_object (input_item (f, 2, 4), "{'role':'assistant','content':'It is 14.'}");
}

/* A message cut off while it reasoned (nothing follows its reasoning):
 * the reasoning item is not sent alone. */
static void
test_reasoning_cut_off (Fixture       *f,
                        gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  add_event (r, "{'type':'response.output_item.done','output_index':0,'item':" REASONING_ITEM "}");
  add_event (r, "{'type':'response.incomplete','response':{'id':'resp_1','status':'incomplete',"
                "'incomplete_details':{'reason':'max_output_tokens'}}}");
  add_answer_step (f, "Sorry.");

  agent_test_turn_run (&f->turn, f->session, "Think hard", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_finish_reason (f->turn.result), ==, "length");
  g_assert_cmpstr (f->reasoning->str, ==, "Two times seven.");

  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (input_length (f, 1), ==, 2);
  assert_object (input_item (f, 1, 1), "{'role':'user','content':'Again'}");
}

/* An answer cut off at max_output_tokens while it called a tool: the call
 * is not run. */
static void
test_incomplete_tool_call (Fixture       *f,
                           gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);

  add_event (r, "{'type':'response.output_item.added','output_index':0,'item':{'id':'fc_1',"
                "'type':'function_call','call_id':'call_1','name':'calculator','arguments':''}}");
  add_event (r, "{'type':'response.function_call_arguments.delta','output_index':0,"
                "'delta':'{\\'expr'}");
  add_event (r, "{'type':'response.incomplete','response':{'id':'resp_1','status':'incomplete',"
                "'incomplete_details':{'reason':'max_output_tokens'}}}");

  agent_test_turn_run (&f->turn, f->session, "What is 2*7?", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  AgentTestResponse *r;

  r = agent_test_server_add_response (f->server, 401);
  set_json_body (r,
                 "{'error':{'message':'Incorrect API key provided: " SECRET_KEY ".',"
                 "'type':'invalid_request_error','param':null,'code':'invalid_api_key'}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (f->turn.error->message, "Incorrect API key provided"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));

  r = agent_test_server_add_response (f->server, 400);
  set_json_body (r,
                 "{'error':{'message':'Encrypted content is not supported with this model.',"
                 "'type':'invalid_request_error','param':'include','code':null}}");
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (strstr (f->turn.error->message, "400"));
  g_assert_nonnull (strstr (f->turn.error->message,
                            "Encrypted content is not supported with this model."));

  g_assert_cmpuint (memory_length (f), ==, 2);
}

/* Mid-stream errors: the provider's message, without the key; what
 * streamed before stays, interrupted. */
static void
test_stream_error (Fixture       *f,
                   gconstpointer  data)
{
  AgentTestResponse *r;
  AgentMessage *message;

  r = agent_test_server_add_response (f->server, 200);
  add_event (r, "{'type':'response.output_item.added','output_index':0,'item':{'id':'msg_1',"
                "'type':'message','content':[]}}");
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'Half an '}");
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'answer'}");
  add_event (r, "{'type':'error','code':'server_error','message':'The server had an error (key "
                SECRET_KEY ")\",\"param\":null,\"sequence_number\":4}");

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "The server had an error"));
  g_assert_null (strstr (f->turn.error->message, "SECRET"));
  message = memory_message (f, 1);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Half an answer");
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);

  r = agent_test_server_add_response (f->server, 200);
  add_event (r, "{'type':'response.output_text.delta','output_index':0,'content_index':0,"
                "'delta':'Partly'}");
  add_event (r, "{'type':'response.failed','response':{'id':'resp_2','status':'failed',"
                "'error':{'code':'rate_limit_exceeded',"
                "'message':'Rate limit reached for gpt-5-test'}}}");

  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "Rate limit reached for gpt-5-test"));
  message = memory_message (f, 3);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Partly");
  g_assert_cmpint (agent_message_get_state (message), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
}

static void
test_list_models (Fixture       *f,
                  gconstpointer  data)
{
  AgentTestResponse *r = agent_test_server_add_response (f->server, 200);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *joined = NULL;

  set_json_body (r,
                 "{'object':'list','data':[{'id':'gpt-5','object':'model'},"
                 "{'id':'gpt-4o-mini','object':'model'}]}");
  names = agent_test_list_models (f->provider, &error);

  g_assert_no_error (error);
  g_assert_nonnull (names);
  joined = g_strjoinv (",", names);
  g_assert_cmpstr (joined, ==, "gpt-5,gpt-4o-mini");
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/models");
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer " SECRET_KEY);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/openai-responses/session/" path, Fixture, NULL, \
              fixture_setup, func, fixture_teardown)
  ADD ("tool-round-trip", test_tool_round_trip);
  ADD ("reasoning-options", test_reasoning_options);
  ADD ("reasoning-cut-off", test_reasoning_cut_off);
  ADD ("incomplete-tool-call", test_incomplete_tool_call);
  ADD ("http-error", test_http_error);
  ADD ("stream-error", test_stream_error);
  ADD ("list-models", test_list_models);
#undef ADD

  return g_test_run ();
}
