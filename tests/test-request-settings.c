/* test-request-settings.c — AgentRequestSettings, its layers and what
 * they send (the OpenAI provider stands for all; each provider's names are
 * test-settings-providers')
 *
 * - /request-settings/object: unset at first; setting a value sets it,
 *   unset() takes it back, "-set" properties say so and change it; notify
 *   once per change; copy; bad values are refused.
 * - /request-settings/layers: the provider's, the session's over them,
 *   prepare-step's over both (it sees them merged, changes or unsets
 *   them for one request).
 * - /request-settings/active-tools: prepare-step offers a subset of the
 *   tools; a name that is not one fails the turn before sending.
 * - /request-settings/provider-options: merged into the body (nested
 *   objects member by member, other values replacing, over what libagent
 *   wrote), over each other in layers; dotted paths.
 * - /request-settings/headers: sent, over the provider's own; the
 *   provider's go with the model listing too; a credential's value is
 *   redacted from errors like the API key; headers that cannot be sent
 *   fail before sending.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              GString    *log)
{
  g_string_append_printf (log, "%s ", pspec->name);
}

static void
test_object (void)
{
  g_autoptr(AgentRequestSettings) settings = agent_request_settings_new ();
  g_autoptr(AgentRequestSettings) copy = NULL;
  g_autoptr(GString) log = g_string_new (NULL);
  const char * const stop[] = { "END", NULL };
  g_auto(GStrv) headers = NULL;
  static const char * const names[] = {
    "temperature", "top-p", "top-k", "seed", "stop", "presence-penalty", "frequency-penalty",
    "tool-choice", "parallel-tool-calls", "provider-options", "headers",
  };
  gboolean set;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_false (agent_request_settings_is_set (settings, names[i]));

  g_signal_connect (settings, "notify", G_CALLBACK (count_notify), log);

  agent_request_settings_set_temperature (settings, 0);
  g_assert_cmpstr (log->str, ==, "temperature temperature-set ");
  g_assert_true (agent_request_settings_is_set (settings, "temperature"));
  g_object_get (settings, "temperature-set", &set, NULL);
  g_assert_true (set);
  g_assert_cmpfloat (agent_request_settings_get_temperature (settings), ==, 0);

  /* The same value again: nothing */
  g_string_truncate (log, 0);
  agent_request_settings_set_temperature (settings, 0);
  g_assert_cmpstr (log->str, ==, "");

  agent_request_settings_unset (settings, "temperature");
  g_assert_cmpstr (log->str, ==, "temperature temperature-set ");
  g_assert_false (agent_request_settings_is_set (settings, "temperature"));

  /* Through the properties, as bindings do */
  g_string_truncate (log, 0);
  g_object_set (settings, "top-p", 0.5, NULL);
  g_assert_true (agent_request_settings_is_set (settings, "top-p"));
  g_object_set (settings, "top-p-set", FALSE, NULL);
  g_assert_false (agent_request_settings_is_set (settings, "top-p"));
  g_object_set (settings, "seed-set", TRUE, NULL);
  g_assert_true (agent_request_settings_is_set (settings, "seed"));
  g_assert_cmpint (agent_request_settings_get_seed (settings), ==, 0);

  agent_request_settings_set_stop (settings, stop);
  g_assert_true (agent_request_settings_is_set (settings, "stop"));
  g_assert_cmpstrv (agent_request_settings_get_stop (settings), stop);
  agent_request_settings_set_stop (settings, NULL);
  g_assert_false (agent_request_settings_is_set (settings, "stop"));

  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "clock");
  g_assert_cmpint (agent_request_settings_get_tool_choice (settings), ==, AGENT_TOOL_CHOICE_TOOL);
  g_assert_cmpstr (agent_request_settings_get_tool_choice_name (settings), ==, "clock");
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_NONE, "ignored");
  g_assert_null (agent_request_settings_get_tool_choice_name (settings));
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_DEFAULT, NULL);
  g_assert_false (agent_request_settings_is_set (settings, "tool-choice"));

  agent_request_settings_set_parallel_tool_calls (settings, FALSE);
  g_assert_true (agent_request_settings_is_set (settings, "parallel-tool-calls"));
  g_assert_false (agent_request_settings_get_parallel_tool_calls (settings));

  agent_request_settings_set_header (settings, "X-Title", "Test");
  g_assert_cmpstr (agent_request_settings_get_header (settings, "x-title"), ==, "Test");
  agent_request_settings_set_header (settings, "x-title", "Again");
  headers = agent_request_settings_list_headers (settings);
  g_assert_cmpuint (g_strv_length (headers), ==, 1);
  g_assert_cmpstr (headers[0], ==, "X-Title");
  g_assert_cmpstr (agent_request_settings_get_header (settings, "X-TITLE"), ==, "Again");

  copy = agent_request_settings_copy (settings);
  g_assert_true (agent_request_settings_is_set (copy, "seed"));
  g_assert_true (agent_request_settings_is_set (copy, "parallel-tool-calls"));
  g_assert_false (agent_request_settings_is_set (copy, "temperature"));
  g_assert_cmpstr (agent_request_settings_get_header (copy, "X-Title"), ==, "Again");

  agent_request_settings_unset_all (settings);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_false (agent_request_settings_is_set (settings, names[i]));
  /* The copy is its own */
  g_assert_true (agent_request_settings_is_set (copy, "headers"));

  /* Values no API takes are programming errors */
  g_test_expect_message ("Agent", G_LOG_LEVEL_CRITICAL, "*isfinite*");
  agent_request_settings_set_temperature (settings, NAN);
  g_test_assert_expected_messages ();
  g_test_expect_message ("Agent", G_LOG_LEVEL_CRITICAL, "*top_p*");
  agent_request_settings_set_top_p (settings, 1.5);
  g_test_assert_expected_messages ();
  g_test_expect_message ("Agent", G_LOG_LEVEL_CRITICAL, "*i >= 0*");
  agent_request_settings_unset (settings, "warmth");
  g_test_assert_expected_messages ();
  g_assert_false (agent_request_settings_is_set (settings, "temperature"));
  g_assert_false (agent_request_settings_is_set (settings, "top-p"));
}

/* Layers */

typedef struct
{
  guint   n;
  GString *seen;
} Prepared;

static void
prepare_step_cb (AgentSession     *session,
                 AgentStepRequest *request,
                 Prepared         *prepared)
{
  AgentRequestSettings *settings = agent_step_request_get_settings (request);

  prepared->n++;
  /* It sees the two layers merged */
  g_string_append_printf (prepared->seen, "step %u: temperature %g top-p %g; ",
                          agent_step_request_get_step (request),
                          agent_request_settings_get_temperature (settings),
                          agent_request_settings_get_top_p (settings));
  if (agent_step_request_get_step (request) == 2)
    {
      agent_request_settings_set_seed (settings, 7);
      agent_request_settings_unset (settings, "top-p");
      agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_NONE, NULL);
    }
}

static void
test_layers (void)
{
  AgentTestSession s;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentRequestSettings *provider_settings;
  AgentRequestSettings *session_settings;
  Prepared prepared = { 0, g_string_new (NULL) };
  JsonObject *body;

  agent_test_session_init (&s, "openai");
  agent_session_add_tool (s.session, calculator);
  provider_settings = agent_provider_get_settings (s.provider);
  session_settings = agent_session_get_settings (s.session);
  g_assert_true (agent_provider_get_settings (s.provider) == provider_settings);
  agent_request_settings_set_temperature (provider_settings, 0.5);
  agent_request_settings_set_top_p (provider_settings, 0.9);
  agent_request_settings_set_tool_choice (provider_settings, AGENT_TOOL_CHOICE_REQUIRED, NULL);
  agent_request_settings_set_temperature (session_settings, 0.25);
  g_signal_connect (s.session, "prepare-step", G_CALLBACK (prepare_step_cb), &prepared);

  agent_test_add_call_answer (s.server, "openai", "call_1", "calculator",
                              "{\"expression\":\"1+1\"}");
  agent_test_add_text_answer (s.server, "openai", "2.", NULL);
  agent_test_turn_run (&s.turn, s.session, "1+1?", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpuint (prepared.n, ==, 2);
  g_assert_cmpstr (prepared.seen->str, ==,
                   "step 1: temperature 0.25 top-p 0.9; step 2: temperature 0.25 top-p 0.9; ");

  body = agent_test_request_object (s.server, 0);
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.25);
  g_assert_cmpfloat (json_object_get_double_member (body, "top_p"), ==, 0.9);
  g_assert_cmpstr (json_object_get_string_member (body, "tool_choice"), ==, "required");
  g_assert_false (json_object_has_member (body, "seed"));

  /* The step's own: for that request only */
  body = agent_test_request_object (s.server, 1);
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.25);
  g_assert_false (json_object_has_member (body, "top_p"));
  g_assert_cmpint (json_object_get_int_member (body, "seed"), ==, 7);
  g_assert_cmpstr (json_object_get_string_member (body, "tool_choice"), ==, "none");

  /* The layers are as they were */
  g_assert_true (agent_request_settings_is_set (provider_settings, "top-p"));
  g_assert_false (agent_request_settings_is_set (session_settings, "seed"));

  /* The session's unset: the provider's again */
  agent_request_settings_unset (session_settings, "temperature");
  g_signal_handlers_disconnect_by_func (s.session, prepare_step_cb, &prepared);
  agent_test_add_text_answer (s.server, "openai", "Hi.", NULL);
  agent_request_settings_unset (provider_settings, "tool-choice");
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);
  body = agent_test_request_object (s.server, 2);
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.5);

  g_string_free (prepared.seen, TRUE);
  agent_test_session_clear (&s);
}

/* Active tools */

static void
active_tools_cb (AgentSession     *session,
                 AgentStepRequest *request,
                 gpointer          user_data)
{
  agent_step_request_set_active_tools (request, user_data);
}

static gboolean
echo_cb (AgentTool            *tool,
         AgentToolInvocation  *invocation,
         gpointer              user_data,
         GError              **error)
{
  agent_tool_invocation_return_result (invocation, "ok");
  return TRUE;
}

static void
test_active_tools (void)
{
  const char * const clock_only[] = { "clock", NULL };
  const char * const none[] = { NULL };
  const char * const unknown[] = { "clock", "weather", NULL };
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\"}");
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(AgentTool) clock = agent_tool_new ("clock", "The time.", schema, echo_cb, NULL, NULL);
  AgentTestSession s;
  JsonArray *tools;
  gulong id;

  agent_test_session_init (&s, "openai");
  agent_session_add_tool (s.session, calculator);
  agent_session_add_tool (s.session, clock);

  id = g_signal_connect (s.session, "prepare-step", G_CALLBACK (active_tools_cb),
                         (gpointer) clock_only);
  agent_test_add_text_answer (s.server, "openai", "Noon.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Time?", NULL);
  g_assert_no_error (s.turn.error);
  tools = json_object_get_array_member (agent_test_request_object (s.server, 0), "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_array_get_object_element (tools, 0), "function"), "name"), ==, "clock");
  g_signal_handler_disconnect (s.session, id);

  /* An empty list offers none */
  id = g_signal_connect (s.session, "prepare-step", G_CALLBACK (active_tools_cb), (gpointer) none);
  agent_test_add_text_answer (s.server, "openai", "Hi.", NULL);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_false (json_object_has_member (agent_test_request_object (s.server, 1), "tools"));
  g_signal_handler_disconnect (s.session, id);

  /* A name that is not one of them: nothing is sent */
  g_signal_connect (s.session, "prepare-step", G_CALLBACK (active_tools_cb), (gpointer) unknown);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Weather?", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (s.turn.error->message, "active-tools");
  agent_test_assert_contains (s.turn.error->message, "weather");
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 2);

  agent_test_session_clear (&s);
}

/* Provider options */

static void
test_provider_options (void)
{
  AgentTestSession s;
  g_autoptr(JsonNode) provider_options = agent_test_parse_json (
    "{\"metadata\":{\"user\":\"a\",\"team\":\"x\"},\"temperature\":0.9,"
    "\"stream_options\":{\"include_obfuscation\":false},\"logit_bias\":{\"50256\":-100}}");
  g_autoptr(JsonNode) two = agent_test_parse_json ("2");
  g_autoptr(JsonNode) text = agent_test_parse_json ("\"b\"");
  g_autoptr(JsonNode) list = agent_test_parse_json ("[1, 2]");
  AgentRequestSettings *settings;
  JsonObject *body;

  agent_test_session_init (&s, "openai");
  agent_request_settings_set_provider_options (agent_provider_get_settings (s.provider),
                                               provider_options);
  settings = agent_session_get_settings (s.session);
  agent_request_settings_set_temperature (settings, 0.1);
  agent_request_settings_set_provider_option (settings, "metadata.user", text);
  agent_request_settings_set_provider_option (settings, "extra.deep.value", two);
  agent_request_settings_set_provider_option (settings, "logit_bias", list);

  agent_test_add_text_answer (s.server, "openai", "Hi.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);
  body = agent_test_request_object (s.server, 0);

  /* Objects merge; other values replace; options win over settings */
  agent_test_assert_json (json_object_get_member (body, "metadata"),
                          "{\"user\":\"b\",\"team\":\"x\"}");
  agent_test_assert_json (json_object_get_member (body, "extra"), "{\"deep\":{\"value\":2}}");
  agent_test_assert_json (json_object_get_member (body, "logit_bias"), "[1, 2]");
  agent_test_assert_json (json_object_get_member (body, "temperature"), "0.9");
  agent_test_assert_json (json_object_get_member (body, "stream_options"),
                          "{\"include_usage\":true,\"include_obfuscation\":false}");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (body, "messages")), ==, 1);

  agent_test_session_clear (&s);
}

/* Headers */

static void
test_headers (void)
{
  AgentTestSession s;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;
  AgentTestResponse *refusal;

  agent_test_session_init (&s, "openai");
  agent_provider_set_api_key (s.provider, "sk-test-0123456789abcdef");
  agent_request_settings_set_header (agent_provider_get_settings (s.provider), "HTTP-Referer",
                                     "https://example.org/app");
  agent_request_settings_set_header (agent_provider_get_settings (s.provider), "api-key",
                                     "azure-key-0123456789");
  agent_request_settings_set_header (agent_session_get_settings (s.session), "X-Title", "Chat");
  agent_request_settings_set_header (agent_session_get_settings (s.session), "Helicone-Auth",
                                     "Bearer helicone-secret-42");

  agent_test_add_text_answer (s.server, "openai", "Hi.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 0, "HTTP-Referer"), ==,
                   "https://example.org/app");
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 0, "api-key"), ==,
                   "azure-key-0123456789");
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 0, "X-Title"), ==, "Chat");
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 0, "Helicone-Auth"), ==,
                   "Bearer helicone-secret-42");
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 0, "Authorization"), ==,
                   "Bearer sk-test-0123456789abcdef");

  /* The provider's go with the listing too, not the session's */
  agent_test_response_set_body (agent_test_server_add_response (s.server, 200), "application/json",
                                "{\"data\":[{\"id\":\"m\"}]}");
  models = agent_test_list_models (s.provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_test_server_get_request_header (s.server, 1, "api-key"), ==,
                   "azure-key-0123456789");
  g_assert_null (agent_test_server_get_request_header (s.server, 1, "X-Title"));

  /* A server that echoes them: the credentials are not in the error */
  refusal = agent_test_server_add_response (s.server, 400);
  agent_test_response_set_body (refusal, "application/json",
                                "{\"error\":{\"message\":\"Bad keys azure-key-0123456789 and "
                                "helicone-secret-42 for Chat\"}}");
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_nonnull (s.turn.error);
  g_test_message ("%s", s.turn.error->message);
  g_assert_null (strstr (s.turn.error->message, "azure-key-0123456789"));
  g_assert_null (strstr (s.turn.error->message, "helicone-secret-42"));
  agent_test_assert_contains (s.turn.error->message, "for Chat");

  agent_test_session_clear (&s);
}

static void
test_bad_headers (void)
{
  static const struct {
    const char *name;
    const char *value;
    const char *says;
  } cases[] = {
    { "X Title", "a", "X Title" },
    { "X-Title:", "a", "X-Title:" },
    { "Content-Length", "12", "Content-Length" },
    { "host", "example.org", "host" },
    { "X-Title", "a\r\nX-Evil: b", "X-Title" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AgentTestSession s;

      agent_test_session_init (&s, "openai");
      agent_request_settings_set_header (agent_session_get_settings (s.session), cases[i].name,
                                         cases[i].value);
      agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
      g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
      agent_test_assert_contains (s.turn.error->message, cases[i].says);
      g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);
      agent_test_session_clear (&s);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/request-settings/object", test_object);
  g_test_add_func ("/request-settings/layers", test_layers);
  g_test_add_func ("/request-settings/active-tools", test_active_tools);
  g_test_add_func ("/request-settings/provider-options", test_provider_options);
  g_test_add_func ("/request-settings/headers", test_headers);
  g_test_add_func ("/request-settings/bad-headers", test_bad_headers);

  return g_test_run ();
}
