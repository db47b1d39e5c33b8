/* test-desktop-provider.c — the `desktop` provider: an AgentSession whose
 * steps the desktop service runs (RunStep), with the app's own tools run
 * by its own loop (test-desktop-util.c sets up the bus, the service and
 * the loopback model)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-openai.h"
#include "agent-test-process.h"
#include "agent-test-util.h"
#include "test-desktop-util.h"

typedef struct
{
  AgentSession *session;
  GString      *deltas;      /* each delta, then "|" */
  AgentMessage *answer;
  GError       *error;
  guint         n_tool_runs;
  gboolean      done;
} Turn;

static void
on_text_delta (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Turn         *turn)
{
  g_string_append (turn->deltas, delta);
  g_string_append_c (turn->deltas, '|');
}

static void
turn_init (Turn          *turn,
           const char    *profile)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  provider = agent_provider_new ("desktop", &error);
  g_assert_no_error (error);
  agent_provider_set_model (provider, profile);
  memset (turn, 0, sizeof *turn);
  turn->session = agent_session_new (provider);
  turn->deltas = g_string_new (NULL);
  g_signal_connect (turn->session, "text-delta", G_CALLBACK (on_text_delta), turn);
}

static void
turn_clear (Turn *turn)
{
  g_assert_finalize_object (g_steal_pointer (&turn->session));
  g_string_free (turn->deltas, TRUE);
  g_clear_object (&turn->answer);
  g_clear_error (&turn->error);
}

static void
sent (GObject      *object,
      GAsyncResult *result,
      gpointer      user_data)
{
  Turn *turn = user_data;

  turn->answer = agent_session_send_finish (AGENT_SESSION (object), result, &turn->error);
  turn->done = TRUE;
}

static void
turn_send (Turn         *turn,
           const char   *text,
           GCancellable *cancellable)
{
  turn->done = FALSE;
  g_clear_object (&turn->answer);
  g_clear_error (&turn->error);
  agent_session_send_async (turn->session, text, cancellable, sent, turn);
}

static void
turn_run (Turn       *turn,
          const char *text)
{
  turn_send (turn, text, NULL);
  agent_test_wait_for (&turn->done);
}

/* (1) Text streams, in order, and the usage comes; the key stays in the
 * service */
static void
test_stream (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.Provider");
  guint first = agent_test_server_get_n_requests (test.server);
  const char *deltas[] = { "One, ", "two, ", "three.", NULL };
  Turn turn;
  AgentUsage *usage;

  turn_init (&turn, NULL);
  agent_session_set_system_prompt (turn.session, "Count.");
  agent_test_openai_add_text_response (test.server, deltas, 7, 3);
  turn_run (&turn, "Count to three");

  g_assert_no_error (turn.error);
  g_assert_cmpstr (turn.deltas->str, ==, "One, |two, |three.|");
  g_assert_cmpstr (agent_message_get_content (turn.answer), ==, "One, two, three.");
  g_assert_cmpstr (agent_message_get_finish_reason (turn.answer), ==, "stop");
  usage = agent_message_get_usage (turn.answer);
  g_assert_nonnull (usage);
  g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==, 7);
  g_assert_cmpint (agent_usage_get_completion_tokens (usage), ==, 3);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, 10);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (turn.session)), ==, 10);

  /* The service's profile asked its server, with its key; the app's
   * provider never had one, and nothing it got back holds it. (This test
   * process has the key in its environment only to hand it to the service
   * it starts.) */
  g_assert_false (agent_provider_get_has_api_key (agent_session_get_provider (turn.session)));
  {
    g_autoptr(GVariant) answer = g_variant_ref_sink (agent_message_to_variant (turn.answer));
    g_autofree char *printed = g_variant_print (answer, FALSE);

    g_assert_null (strstr (printed, SECRET));
  }
  g_assert_cmpuint (agent_test_server_get_n_requests (test.server), ==, first + 1);
  g_assert_cmpstr (agent_test_server_get_request_header (test.server, first, "Authorization"),
                   ==, "Bearer " SECRET);
  g_assert_cmpstr (agent_test_openai_get_message_string (test.server, first, 0, "content"), ==,
                   "Count.");
  g_assert_cmpstr (agent_test_openai_get_last_user_content (test.server, first), ==,
                   "Count to three");
  g_assert_cmpstr (json_object_get_string_member (agent_test_openai_get_request (test.server,
                                                                                 first),
                                                  "model"), ==, "test-model");
  turn_clear (&turn);
}

/* What the request asks besides its messages goes through the service */
static void
test_settings (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderSettings");
  guint first = agent_test_server_get_n_requests (test.server);
  const char *stop[] = { "END", "STOP", NULL };
  AgentRequestSettings *settings;
  JsonObject *request;
  JsonArray *stops;
  Turn turn;

  turn_init (&turn, NULL);
  settings = agent_session_get_settings (turn.session);
  agent_request_settings_set_temperature (settings, 0.25);
  agent_request_settings_set_seed (settings, 42);
  agent_request_settings_set_stop (settings, stop);
  /* A header stays with the caller: it may hold its secrets */
  agent_request_settings_set_header (settings, "X-App-Secret", "app-only");
  agent_provider_set_max_tokens (agent_session_get_provider (turn.session), 77);
  add_hello ();
  turn_run (&turn, "Hi");
  g_assert_no_error (turn.error);

  request = agent_test_openai_get_request (test.server, first);
  g_assert_cmpfloat (json_object_get_double_member (request, "temperature"), ==, 0.25);
  g_assert_cmpint (json_object_get_int_member (request, "seed"), ==, 42);
  g_assert_cmpint (json_object_get_int_member (request, "max_tokens"), ==, 77);
  stops = json_object_get_array_member (request, "stop");
  g_assert_cmpuint (json_array_get_length (stops), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (stops, 1), ==, "STOP");
  g_assert_null (agent_test_server_get_request_header (test.server, first, "X-App-Secret"));
  turn_clear (&turn);
}

static void
got_object (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  JsonNode **node = user_data;
  g_autoptr(GError) error = NULL;

  *node = agent_session_send_for_object_finish (AGENT_SESSION (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
has_node (gpointer data)
{
  return *(JsonNode **) data != NULL;
}

/* Structured output: the schema and its name go through the service */
static void
test_structured (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderObject");
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) object = NULL;
  g_autoptr(JsonNode) expected = NULL;
  const char *deltas[] = { "{\"first\":", "\"2024-01-01\"}", NULL };
  guint first = agent_test_server_get_n_requests (test.server);
  JsonObject *format;
  Turn turn;

  schema = json_from_string ("{\"title\":\"dates\",\"type\":\"object\",\"properties\":"
                             "{\"first\":{\"type\":\"string\"}},\"required\":[\"first\"],"
                             "\"additionalProperties\":false}", NULL);
  expected = json_from_string ("{\"first\":\"2024-01-01\"}", NULL);
  turn_init (&turn, NULL);
  agent_test_openai_add_text_response (test.server, deltas, 5, 5);
  agent_session_send_for_object_async (turn.session, "Which date?", schema, NULL, got_object,
                                       &object);
  agent_test_wait_until (has_node, &object);
  g_assert_true (json_node_equal (object, expected));

  format = json_object_get_object_member (agent_test_openai_get_request (test.server, first),
                                          "response_format");
  g_assert_nonnull (format);
  g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
  format = json_object_get_object_member (format, "json_schema");
  g_assert_cmpstr (json_object_get_string_member (format, "name"), ==, "dates");
  g_assert_true (json_node_equal (json_object_get_member (format, "schema"), schema));
  turn_clear (&turn);
}

static gboolean
has_two_profiles (gpointer data)
{
  g_autoptr(GVariant) reply = call_ok (data, ASSISTANT_PATH, ASSISTANT, "ListProfiles", NULL);
  g_autoptr(GVariant) profiles = g_variant_get_child_value (reply, 0);

  return g_variant_n_children (profiles) == 2;
}

/* Structured output from a profile whose API answers with a forced tool
 * call (Anthropic): the caller's turn gets it as the answer's text */
static void
test_structured_by_tool (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderClaude");
  g_autofree char *profiles = g_build_filename (test.dir, "profiles.ini", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) object = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(GError) error = NULL;
  guint first = agent_test_server_get_n_requests (test.server);
  JsonObject *choice;
  GListModel *transcript;
  g_autoptr(AgentMessage) answer = NULL;
  Turn turn;

  /* A second profile, which the service reads when the file changes */
  contents = g_strdup_printf ("[Profiles]\ndefault=Loopback\n\n"
                              "[Profile Loopback]\nprovider=openai\nbase-url=%s\n"
                              "model=test-model\n\n"
                              "[Profile Claude]\nprovider=anthropic\nbase-url=%s\n"
                              "model=claude-test\n",
                              agent_test_server_get_base_url (test.server),
                              agent_test_server_get_base_url (test.server));
  g_file_set_contents (profiles, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_true (agent_test_poll_until (has_two_profiles, app));

  schema = json_from_string ("{\"title\":\"dates\",\"type\":\"object\",\"properties\":"
                             "{\"first\":{\"type\":\"string\"}},\"required\":[\"first\"]}",
                             NULL);
  expected = json_from_string ("{\"first\":\"2024-01-01\"}", NULL);
  turn_init (&turn, "Claude");
  agent_test_add_call_answer (test.server, "anthropic", "toolu_1", "dates",
                              "{\"first\":\"2024-01-01\"}");
  agent_session_send_for_object_async (turn.session, "Which date?", schema, NULL, got_object,
                                       &object);
  agent_test_wait_until (has_node, &object);
  g_assert_true (json_node_equal (object, expected));

  choice = json_object_get_object_member (agent_test_request_object (test.server, first),
                                          "tool_choice");
  g_assert_cmpstr (json_object_get_string_member (choice, "name"), ==, "dates");
  /* The answer the session keeps is the object's text, with no call */
  transcript = agent_session_get_transcript (turn.session);
  answer = g_list_model_get_item (transcript, g_list_model_get_n_items (transcript) - 1);
  g_assert_cmpuint (agent_message_get_n_tool_calls (answer), ==, 0);
  g_assert_cmpstr (agent_message_get_content (answer), ==, "{\"first\":\"2024-01-01\"}");
  turn_clear (&turn);
}

static gboolean
lookup_word (AgentTool           *tool,
             AgentToolInvocation *invocation,
             gpointer             user_data,
             GError             **error)
{
  Turn *turn = user_data;
  JsonNode *arguments = agent_tool_invocation_get_arguments (invocation);

  turn->n_tool_runs++;
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (arguments), "word"), ==,
                   "tea");
  agent_tool_invocation_return_result (invocation, "{\"meaning\":\"a drink\"}");
  return TRUE;
}

/* (2) The model calls the app's tool (in fragments): the session runs it
 * here, and the next step, through the service, carries its result */
static void
test_local_tool (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderTools");
  g_autoptr(AgentTool) tool = NULL;
  g_autoptr(JsonNode) parameters = NULL;
  g_autoptr(AgentMessage) call_message = NULL;
  const AgentTestToolChunk chunks[] = {
    { 0, "call_7", "lookup", "{\"wo" },
    { 0, NULL, NULL, "rd\":" },
    { 0, NULL, NULL, "\"tea\"}" },
  };
  const char *deltas[] = { "Tea is ", "a drink.", NULL };
  guint first = agent_test_server_get_n_requests (test.server);
  GListModel *transcript;
  AgentToolCall *call;
  JsonArray *tools;
  Turn turn;

  turn_init (&turn, "Loopback");
  parameters = agent_tool_parse_parameters ("{\"type\":\"object\",\"properties\":"
                                            "{\"word\":{\"type\":\"string\"}},"
                                            "\"required\":[\"word\"]}", NULL);
  tool = agent_tool_new ("lookup", "Looks a word up", parameters, lookup_word, &turn, NULL);
  agent_session_add_tool (turn.session, tool);
  agent_test_openai_add_tool_response (test.server, chunks, G_N_ELEMENTS (chunks), 4, 3);
  agent_test_openai_add_text_response (test.server, deltas, 6, 4);
  turn_run (&turn, "What is tea?");

  g_assert_no_error (turn.error);
  g_assert_cmpuint (turn.n_tool_runs, ==, 1);
  g_assert_cmpstr (agent_message_get_content (turn.answer), ==, "Tea is a drink.");
  g_assert_cmpstr (turn.deltas->str, ==, "Tea is |a drink.|");
  g_assert_cmpint (agent_usage_get_total_tokens (agent_session_get_usage (turn.session)), ==, 17);

  /* Two requests upstream: the tool, then its result */
  g_assert_cmpuint (agent_test_server_get_n_requests (test.server), ==, first + 2);
  tools = json_object_get_array_member (agent_test_openai_get_request (test.server, first),
                                        "tools");
  g_assert_cmpstr (agent_test_openai_function_string (tools, 0, "name"), ==, "lookup");
  g_assert_cmpstr (agent_test_openai_tool_message_content (test.server, first + 1, "call_7"), ==,
                   "{\"meaning\":\"a drink\"}");
  g_assert_cmpstr (agent_test_openai_get_message_string (test.server, first + 1, 0, "content"),
                   ==, "What is tea?");

  /* The session's memory: the question, the call as it streamed, the
   * result, the answer */
  transcript = agent_session_get_transcript (turn.session);
  g_assert_cmpuint (g_list_model_get_n_items (transcript), ==, 4);
  call_message = g_list_model_get_item (transcript, 1);
  g_assert_cmpint (agent_message_get_role (call_message), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpuint (agent_message_get_n_tool_calls (call_message), ==, 1);
  call = agent_message_get_tool_call (call_message, 0);
  g_assert_cmpstr (agent_tool_call_get_id (call), ==, "call_7");
  g_assert_cmpstr (agent_tool_call_get_name (call), ==, "lookup");
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, "{\"word\":\"tea\"}");
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_SUCCEEDED);

  agent_session_remove_tool (turn.session, tool);
  turn_clear (&turn);
}

static gboolean
turn_has_deltas (gpointer data)
{
  Turn *turn = data;

  return turn->deltas->len > 0;
}

static gboolean
server_saw_abort (gpointer data)
{
  return agent_test_server_get_n_aborted (test.server) > GPOINTER_TO_UINT (data);
}

/* (3) Cancelled mid-stream: the service's request stops, the session
 * fails as cancelled, and the text that came stays */
static void
test_cancel (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderCancel");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentMessage) kept = NULL;
  guint n_aborted = agent_test_server_get_n_aborted (test.server);
  AgentTestResponse *response;
  GListModel *transcript;
  Turn turn;

  turn_init (&turn, NULL);
  response = agent_test_openai_begin (test.server, NULL);
  agent_test_openai_add_text (response, "Thinking");
  agent_test_response_add_wait (response);
  agent_test_openai_add_text (response, " done");
  agent_test_openai_add_end (response, "stop", 1, 1);
  turn_send (&turn, "Think", cancellable);
  agent_test_wait_until (turn_has_deltas, &turn);

  g_cancellable_cancel (cancellable);
  agent_test_wait_for (&turn.done);
  g_assert_error (turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (turn.deltas->str, ==, "Thinking|");
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);

  transcript = agent_session_get_transcript (turn.session);
  kept = g_list_model_get_item (transcript, g_list_model_get_n_items (transcript) - 1);
  g_assert_cmpstr (agent_message_get_content (kept), ==, "Thinking");
  g_assert_cmpint (agent_message_get_state (kept), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  turn_clear (&turn);
}

/* The step-timeout holds for a step the service runs: the step fails as
 * timed out, and the service stops its request (CancelStep) */
static void
test_step_timeout (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderTimeout");
  guint n_aborted = agent_test_server_get_n_aborted (test.server);
  AgentTestResponse *response;
  Turn turn;

  turn_init (&turn, NULL);
  agent_session_set_step_timeout (turn.session, 0.5);
  response = agent_test_openai_begin (test.server, NULL);
  agent_test_openai_add_text (response, "Slow");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  turn_run (&turn, "Hi");

  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  agent_test_assert_contains (turn.error->message, "step-timeout");
  g_assert_cmpstr (turn.deltas->str, ==, "Slow|");
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);
  turn_clear (&turn);
}

/* RunStep's arguments, with one user message of @text (NULL: none) */
static GVariant *
run_step_arguments (const char *step_id,
                    const char *role,
                    const char *text)
{
  GVariantBuilder messages;

  g_variant_builder_init (&messages, G_VARIANT_TYPE ("aa{sv}"));
  if (text != NULL)
    {
      GVariantDict message;

      g_variant_dict_init (&message, NULL);
      g_variant_dict_insert (&message, "role", "s", role);
      g_variant_dict_insert_value (&message, "parts",
                                   g_variant_new_parsed ("[{'kind': <'text'>, 'text': <%s>}]",
                                                         text));
      g_variant_builder_add_value (&messages, g_variant_dict_end (&message));
    }
  return g_variant_new ("(ss@aa{sv}@aa{sv}@a{sv})", "", step_id,
                        g_variant_builder_end (&messages),
                        g_variant_new_array (G_VARIANT_TYPE_VARDICT, NULL, 0),
                        g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
}

typedef struct
{
  GVariant *reply;
  GError   *error;
  gboolean  done;
} StepReply;

static void
got_step_reply (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  StepReply *reply = user_data;

  reply->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result,
                                                &reply->error);
  reply->done = TRUE;
}

/* RunStep and CancelStep called as any D-Bus client would: what they
 * refuse, and a step's id taken while it runs */
static void
test_dbus_calls (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderDBus");
  guint n_aborted = agent_test_server_get_n_aborted (test.server);
  AgentTestResponse *response;
  StepReply held = { NULL, NULL, FALSE };
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;

  call_fails (app, ASSISTANT_PATH, ASSISTANT, "RunStep", run_step_arguments ("", "user", "Hi"),
              ERROR_PREFIX "InvalidArgs");
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "RunStep", run_step_arguments ("a", "user", NULL),
              ERROR_PREFIX "InvalidArgs");
  reply = call (app, ASSISTANT_PATH, ASSISTANT, "RunStep", run_step_arguments ("a", "robot", "Hi"),
                &error);
  assert_dbus_error (error, ERROR_PREFIX "InvalidArgs");
  agent_test_assert_contains (error->message, "Message 1: The message's “role” is “robot”");
  g_clear_error (&error);
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "CancelStep", g_variant_new ("(s)", "nothing"),
              ERROR_PREFIX "InvalidArgs");

  /* A step that runs holds its id */
  response = agent_test_openai_begin (test.server, NULL);
  agent_test_openai_add_text (response, "Held");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  g_dbus_connection_call (app, BUS_NAME, ASSISTANT_PATH, ASSISTANT, "RunStep",
                          run_step_arguments ("held", "user", "Hi"), G_VARIANT_TYPE ("(a{sv})"),
                          G_DBUS_CALL_FLAGS_NONE, G_MAXINT, NULL, got_step_reply, &held);
  agent_test_server_wait_until_waiting (test.server);
  call_fails (app, ASSISTANT_PATH, ASSISTANT, "RunStep", run_step_arguments ("held", "user", "Hi"),
              ERROR_PREFIX "InvalidArgs");
  /* Another caller's steps are not this one's to cancel */
  call_fails (test.agent, ASSISTANT_PATH, ASSISTANT, "CancelStep", g_variant_new ("(s)", "held"),
              ERROR_PREFIX "InvalidArgs");

  g_clear_pointer (&reply, g_variant_unref);
  reply = call_ok (app, ASSISTANT_PATH, ASSISTANT, "CancelStep", g_variant_new ("(s)", "held"));
  agent_test_wait_for (&held.done);
  g_assert_null (held.reply);
  assert_dbus_error (held.error, ERROR_PREFIX "Cancelled");
  g_clear_error (&held.error);
  agent_test_wait_until (server_saw_abort, GUINT_TO_POINTER (n_aborted));
  agent_test_server_release (test.server);
}

static gboolean
all_waiting (gpointer data)
{
  return agent_test_server_get_n_waiting (test.server) >= GPOINTER_TO_UINT (data);
}

/* An app runs 32 steps at once at most */
static void
test_steps_limit (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderMany");
  StepReply held[32] = { { NULL, NULL, FALSE } };
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (held); i++)
    {
      AgentTestResponse *response = agent_test_openai_begin (test.server, NULL);
      g_autofree char *step_id = g_strdup_printf ("many-%u", i);

      agent_test_openai_add_text (response, "Held");
      agent_test_response_add_wait (response);
      agent_test_openai_add_end (response, "stop", 1, 1);
      g_dbus_connection_call (app, BUS_NAME, ASSISTANT_PATH, ASSISTANT, "RunStep",
                              run_step_arguments (step_id, "user", "Hi"),
                              G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, G_MAXINT, NULL,
                              got_step_reply, &held[i]);
    }
  agent_test_wait_until (all_waiting, GUINT_TO_POINTER (G_N_ELEMENTS (held)));

  reply = call (app, ASSISTANT_PATH, ASSISTANT, "RunStep",
                run_step_arguments ("one-more", "user", "Hi"), &error);
  assert_dbus_error (error, ERROR_PREFIX "LimitReached");
  agent_test_assert_contains (error->message, "32 steps");

  agent_test_server_release (test.server);
  for (guint i = 0; i < G_N_ELEMENTS (held); i++)
    {
      agent_test_wait_for (&held[i].done);
      g_assert_no_error (held[i].error);
      g_clear_pointer (&held[i].reply, g_variant_unref);
    }
}

/* (4) The user said no */
static void
test_denied (void)
{
  g_autoptr(GDBusConnection) app = connect_app ();
  guint first = agent_test_server_get_n_requests (test.server);
  Turn turn;

  be_sandboxed ("org.example.ProviderDenied");
  test.answer = ANSWER_DENY;
  turn_init (&turn, NULL);
  turn_run (&turn, "Hi");
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  agent_test_assert_contains (turn.error->message, "The desktop assistant refused:");
  g_assert_cmpuint (agent_test_server_get_n_requests (test.server), ==, first);
  turn_clear (&turn);
}

/* (5) The app's tokens of the day are used */
static void
test_limit (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderLimit");
  g_autoptr(GVariant) reply = NULL;
  Turn turn;

  reply = administer ("SetDailyLimit", g_variant_new ("(st)", "org.example.ProviderLimit",
                                                      (guint64) 5));
  be_sandboxed ("org.example.ProviderLimit");
  turn_init (&turn, NULL);
  add_hello ();
  turn_run (&turn, "Hi");
  g_assert_no_error (turn.error);

  turn_run (&turn, "Again");
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  agent_test_assert_contains (turn.error->message, "The desktop assistant refused:");
  turn_clear (&turn);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

/* (7) The models are the service's profiles */
static void
test_list_models (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderModels");
  g_autoptr(AgentProvider) provider = agent_provider_new ("desktop", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) models = NULL;
  g_autoptr(GError) error = NULL;

  agent_provider_list_models_async (provider, NULL, store_result, &result);
  agent_test_wait_until (has_result, &result);
  models = agent_provider_list_models_finish (provider, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (models), ==, 1);
  g_assert_cmpstr (models[0], ==, "Loopback");
  g_clear_object (&result);

  agent_provider_fetch_context_window_async (provider, NULL, NULL, store_result,
                                             &result);
  agent_test_wait_until (has_result, &result);
  g_assert_cmpint (agent_provider_fetch_context_window_finish (provider, result, &error), ==, -1);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_null (agent_provider_get_api_key_variable (provider));
}

/* (8) A profile that is not there */
static void
test_no_such_profile (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderProfile");
  guint first;
  Turn turn;

  turn_init (&turn, "Nowhere");
  turn_run (&turn, "Hi");
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (turn.error->message, "Nowhere");
  agent_test_assert_contains (turn.error->message, "no such profile");
  turn_clear (&turn);

  /* A profile of the desktop provider would be the service asking itself */
  first = agent_test_server_get_n_requests (test.server);
  turn_init (&turn, "Itself");
  turn_run (&turn, "Hi");
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (turn.error->message, "uses the desktop assistant itself");
  g_assert_cmpuint (agent_test_server_get_n_requests (test.server), ==, first);
  turn_clear (&turn);
}

static gint
service_pid (void)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint32 pid;

  reply = g_dbus_connection_call_sync (test.agent, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID",
                                       g_variant_new ("(s)", BUS_NAME), G_VARIANT_TYPE ("(u)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &pid);
  return (gint) pid;
}

/* (6) The service dies mid-step: a clear error, no hang. (Last: the
 * service is started again by the next call only.) */
static void
test_service_killed (void)
{
  g_autoptr(GDBusConnection) app = connect_allowed_app ("org.example.ProviderKilled");
  AgentTestResponse *response;
  Turn turn;

  turn_init (&turn, NULL);
  response = agent_test_openai_begin (test.server, NULL);
  agent_test_openai_add_text (response, "Half");
  agent_test_response_add_wait (response);
  agent_test_openai_add_end (response, "stop", 1, 1);
  turn_send (&turn, "Hi", NULL);
  agent_test_wait_until (turn_has_deltas, &turn);

  g_assert_no_errno (kill (service_pid (), SIGKILL));
  agent_test_wait_for (&turn.done);
  g_assert_error (turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  agent_test_assert_contains (turn.error->message, "io.github.libagent.Assistant");
  g_assert_cmpstr (turn.deltas->str, ==, "Half|");
  agent_test_server_release (test.server);
  turn_clear (&turn);
}

int
main (int   argc,
      char *argv[])
{
  int status;
  g_autoptr(GDBusConnection) session_bus = NULL;

  g_test_init (&argc, &argv, NULL);
  desktop_setup ("test-desktop-provider");
  /* The session bus of libagent's desktop provider is the test's; it
   * outlives the bus at the end without killing the test */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", test.address, TRUE);
  session_bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_assert_nonnull (session_bus);
  g_dbus_connection_set_exit_on_close (session_bus, FALSE);

  g_test_add_func ("/desktop/provider/stream", test_stream);
  g_test_add_func ("/desktop/provider/settings", test_settings);
  g_test_add_func ("/desktop/provider/structured", test_structured);
  g_test_add_func ("/desktop/provider/local-tool", test_local_tool);
  g_test_add_func ("/desktop/provider/cancel", test_cancel);
  g_test_add_func ("/desktop/provider/step-timeout", test_step_timeout);
  g_test_add_func ("/desktop/provider/dbus-calls", test_dbus_calls);
  g_test_add_func ("/desktop/provider/steps-limit", test_steps_limit);
  g_test_add_func ("/desktop/provider/denied", test_denied);
  g_test_add_func ("/desktop/provider/limit", test_limit);
  g_test_add_func ("/desktop/provider/list-models", test_list_models);
  g_test_add_func ("/desktop/provider/no-such-profile", test_no_such_profile);
  g_test_add_func ("/desktop/provider/structured-by-tool", test_structured_by_tool);
  g_test_add_func ("/desktop/provider/service-killed", test_service_killed);
  status = g_test_run ();

  g_dbus_connection_close_sync (session_bus, NULL, NULL);
  desktop_teardown ();
  return status;
}
