/* test-tool.c — tools, invocations, messages, memory, usage and providers
 * through the public API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-util.h"

static gboolean
echo_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data,
              GError             **error)
{
  g_autofree char *text = json_to_string (agent_tool_invocation_get_arguments (invocation), FALSE);

  (*(guint *)user_data)++;
  agent_tool_invocation_return_result (invocation, text);

  return TRUE;
}

static void
count_destroy (gpointer data)
{
  (*(guint *)data) += 100;
}

static void
test_tool_new (void)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}");
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("c1", "echo", "{\"x\": 1}");
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autofree char *result = NULL;
  AgentTool *tool;
  gboolean is_error = TRUE;
  guint count = 0;

  tool = agent_tool_new ("echo", "Echoes its arguments", schema, echo_handler, &count, count_destroy);
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "echo");
  g_assert_cmpstr (agent_tool_get_description (tool), ==, "Echoes its arguments");
  g_assert_true (agent_test_json_equal (agent_tool_get_parameters (tool), schema));
  /* The tool keeps its own copy */
  json_object_set_string_member (json_node_get_object (schema), "type", "changed");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (agent_tool_get_parameters (tool)), "type"),
                   ==, "object");

  invocation = agent_tool_invocation_new (tool, call, NULL);
  g_assert_false (agent_tool_invocation_is_completed (invocation));
  g_assert_nonnull (agent_tool_invocation_get_cancellable (invocation));
  g_assert_true (agent_tool_invocation_get_tool (invocation) == tool);
  g_assert_true (agent_tool_invocation_get_tool_call (invocation) == call);
  agent_tool_invoke (tool, invocation);
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (agent_tool_invocation_is_completed (invocation));
  result = agent_tool_invocation_dup_result (invocation, &is_error);
  g_assert_cmpstr (result, ==, "{\"x\":1}");
  g_assert_false (is_error);

  /* A completed invocation does not run again */
  agent_tool_invoke (tool, invocation);
  g_assert_cmpuint (count, ==, 1);

  g_clear_object (&invocation);
  g_assert_finalize_object (tool);
  g_assert_cmpuint (count, ==, 101);  /* the destroy notify ran */
}

static void
test_tool_default_schema (void)
{
  guint count = 0;
  g_autoptr(AgentTool) tool = agent_tool_new ("noargs", "No arguments", NULL, echo_handler, &count, NULL);
  JsonObject *schema = json_node_get_object (agent_tool_get_parameters (tool));

  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (schema, "properties")), ==, 0);
}

static void
test_invocation_bad_arguments (void)
{
  guint count = 0;
  g_autoptr(AgentTool) tool = agent_tool_new ("echo", "", NULL, echo_handler, &count, NULL);
  static const char * const bad[] = { "{\"x\":", "[1,2]", "42", "\"text\"", "{} trailing", NULL };

  for (guint i = 0; bad[i]; i++)
    {
      g_autoptr(AgentToolCall) call = agent_tool_call_new ("c", "echo", bad[i]);
      g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
      g_autofree char *result = NULL;
      gboolean is_error = FALSE;

      g_assert_true (agent_tool_invocation_is_completed (invocation));
      agent_tool_invoke (tool, invocation);
      result = agent_tool_invocation_dup_result (invocation, &is_error);
      g_assert_true (is_error);
      g_assert_nonnull (strstr (result, "echo"));
    }
  g_assert_cmpuint (count, ==, 0);
}

static void
test_tool_call_arguments (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentToolCall) empty = agent_tool_call_new ("a", "t", "");
  g_autoptr(AgentToolCall) spaces = agent_tool_call_new ("b", "t", "  \n");
  g_autoptr(AgentToolCall) object = agent_tool_call_new ("c", "t", "{\"k\": [1, 2]}");
  g_autoptr(AgentToolCall) broken = agent_tool_call_new ("d", "t", "{\"k\"");
  g_autoptr(JsonNode) node = NULL;

  node = agent_tool_call_parse_arguments (empty, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpuint (json_object_get_size (json_node_get_object (node)), ==, 0);
  g_clear_pointer (&node, json_node_unref);

  node = agent_tool_call_parse_arguments (spaces, &error);
  g_assert_no_error (error);
  g_clear_pointer (&node, json_node_unref);

  node = agent_tool_call_parse_arguments (object, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (node), "k")), ==, 2);
  g_clear_pointer (&node, json_node_unref);

  node = agent_tool_call_parse_arguments (broken, &error);
  g_assert_null (node);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);

  /* A complete call is READY and keeps its arguments byte for byte */
  g_assert_cmpint (agent_tool_call_get_state (object), ==, AGENT_TOOL_CALL_STATE_READY);
  g_assert_cmpstr (agent_tool_call_get_arguments (object), ==, "{\"k\": [1, 2]}");
  g_assert_null (agent_tool_call_get_result (object));
}

/* An invocation of an "echo" tool, counting its runs in @count, for the
 * test to complete by hand. */
static AgentToolInvocation *
echo_invocation_new (guint *count)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("echo", "", NULL, echo_handler, count, NULL);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("c", "echo", "{}");

  return agent_tool_invocation_new (tool, call, NULL);
}

/* Completing from another thread notifies on the creator's context. */
typedef struct
{
  AgentToolInvocation *invocation;
  GThread             *main_thread;
  gboolean             notified;
  gboolean             notified_on_main;
} ThreadData;

static gpointer
complete_in_thread (gpointer data)
{
  ThreadData *t = data;

  agent_tool_invocation_return_error_literal (t->invocation, "failed in a thread");
  return NULL;
}

static void
completed_cb (AgentToolInvocation *invocation,
              GParamSpec          *pspec,
              ThreadData          *t)
{
  t->notified = TRUE;
  t->notified_on_main = g_thread_self () == t->main_thread;
}

static void
test_invocation_thread (void)
{
  guint count = 0;
  g_autoptr(AgentToolInvocation) invocation = echo_invocation_new (&count);
  g_autofree char *result = NULL;
  ThreadData t = { invocation, g_thread_self () };
  gboolean is_error = FALSE;
  GThread *thread;

  g_signal_connect (invocation, "notify::completed", G_CALLBACK (completed_cb), &t);
  thread = g_thread_new ("complete", complete_in_thread, &t);
  g_thread_join (thread);

  /* Done in the thread, but not notified there */
  g_assert_true (agent_tool_invocation_is_completed (invocation));
  g_assert_false (t.notified);
  agent_test_wait_for (&t.notified);
  g_assert_true (t.notified_on_main);

  result = agent_tool_invocation_dup_result (invocation, &is_error);
  g_assert_cmpstr (result, ==, "failed in a thread");
  g_assert_true (is_error);
}

static void
test_invocation_twice (void)
{
  guint count = 0;
  g_autoptr(AgentToolInvocation) invocation = echo_invocation_new (&count);
  g_autofree char *result = NULL;

  if (g_test_subprocess ())
    {
      agent_tool_invocation_return_result (invocation, "first");
      agent_tool_invocation_return_result (invocation, "second");
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*completed twice*");

  agent_tool_invocation_return_result (invocation, "first");
  result = agent_tool_invocation_dup_result (invocation, NULL);
  g_assert_cmpstr (result, ==, "first");
}

static void
return_later_cb (gpointer data)
{
  g_autoptr(AgentToolInvocation) invocation = data;

  agent_tool_invocation_return_result (invocation, "done later");
}

/* A handler that can fail: what the handler of the "weather" tool
 * does depends on the city it is asked about. */
static gboolean
weather_handler (AgentTool            *tool,
                 AgentToolInvocation  *invocation,
                 gpointer              user_data,
                 GError              **error)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  const char *city = json_object_get_string_member (arguments, "city");
  g_autofree char *forecast = g_strdup_printf ("Sunny, 21 °C in %s", city);

  (*(guint *)user_data)++;

  if (g_str_equal (city, "Atlantis"))  /* fails with an error */
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL, "No weather under the sea");
      return FALSE;
    }
  if (g_str_equal (city, "Nowhere"))  /* fails without saying why */
    return FALSE;
  if (g_str_equal (city, "Later"))  /* answers after returning */
    {
      g_timeout_add_once (1, return_later_cb, g_object_ref (invocation));
      return TRUE;
    }
  if (g_str_equal (city, "Done"))  /* answered, then says it failed: the answer counts */
    {
      agent_tool_invocation_return_result (invocation, forecast);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL, "Ignored");
      return FALSE;
    }

  agent_tool_invocation_return_result (invocation, forecast);
  return TRUE;
}

static char *
run_weather (AgentTool  *tool,
             const char *city,
             gboolean   *is_error)
{
  g_autofree char *arguments = g_strdup_printf ("{\"city\": \"%s\"}", city);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("c", "get_weather", arguments);
  g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);

  agent_tool_invoke (tool, invocation);
  while (!agent_tool_invocation_is_completed (invocation))
    g_main_context_iteration (NULL, TRUE);

  return agent_tool_invocation_dup_result (invocation, is_error);
}

static void
test_tool_handler_fails (void)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}");
  static const struct {
    const char *city;
    const char *result;
    gboolean    is_error;
  } cases[] = {
    { "Seoul", "Sunny, 21 °C in Seoul", FALSE },
    { "Atlantis", "No weather under the sea", TRUE },
    { "Nowhere", "The tool “get_weather” failed", TRUE },
    { "Later", "done later", FALSE },
    { "Done", "Sunny, 21 °C in Done", FALSE },
  };
  AgentTool *tool;
  guint count = 0;

  tool = agent_tool_new ("get_weather", "Tells the weather", schema,
                         weather_handler, &count, count_destroy);
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "get_weather");
  g_assert_true (agent_test_json_equal (agent_tool_get_parameters (tool), schema));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean is_error = !cases[i].is_error;
      g_autofree char *result = run_weather (tool, cases[i].city, &is_error);

      g_assert_cmpstr (result, ==, cases[i].result);
      g_assert_cmpint (is_error, ==, cases[i].is_error);
    }
  g_assert_cmpuint (count, ==, G_N_ELEMENTS (cases));

  g_assert_finalize_object (tool);
  g_assert_cmpuint (count, ==, G_N_ELEMENTS (cases) + 100);  /* the destroy notify ran */
}

/* A subclass that overrides the vfunc */
typedef struct { AgentTool parent_instance; } UpperTool;
typedef struct { AgentToolClass parent_class; } UpperToolClass;
static GType upper_tool_get_type (void);
G_DEFINE_TYPE (UpperTool, upper_tool, AGENT_TYPE_TOOL)

static void
upper_tool_invoke (AgentTool           *tool,
                   AgentToolInvocation *invocation)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  g_autofree char *upper = g_utf8_strup (json_object_get_string_member (arguments, "text"), -1);

  agent_tool_invocation_return_result (invocation, upper);
}

static void
upper_tool_class_init (UpperToolClass *klass)
{
  AGENT_TOOL_CLASS (klass)->invoke = upper_tool_invoke;
}

static void
upper_tool_init (UpperTool *self)
{
}

static void
test_tool_subclass (void)
{
  g_autoptr(AgentTool) tool = g_object_new (upper_tool_get_type (), "name", "upper", "description", "Upper-cases", NULL);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("c", "upper", "{\"text\":\"grüße\"}");
  g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
  g_autofree char *result = NULL;

  agent_tool_invoke (tool, invocation);
  result = agent_tool_invocation_dup_result (invocation, NULL);
  g_assert_cmpstr (result, ==, "GRÜSSE");
}

static void
test_builtin_tools (void)
{
  const char * const *names = agent_builtin_tool_list_names ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentTool) tool = NULL;

  g_assert_true (g_strv_contains (names, "calculator"));
  tool = agent_builtin_tool_new ("calculator", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "calculator");

  g_assert_null (agent_builtin_tool_new ("rm-rf", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "rm-rf"));
  g_assert_nonnull (strstr (error->message, "calculator"));
}

static void
test_message (void)
{
  g_autoptr(AgentMessage) user = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(AgentMessage) assistant = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(AgentMessage) result = agent_message_new_tool_result ("c9", "calculator", "3", FALSE);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("c9", "calculator", "{\"expression\":\"1+2\"}");

  g_assert_cmpint (agent_message_get_role (user), ==, AGENT_MESSAGE_ROLE_USER);
  g_assert_cmpstr (agent_message_get_content (user), ==, "Hi");
  g_assert_cmpint (agent_message_get_state (user), ==, AGENT_MESSAGE_STATE_COMPLETE);
  g_assert_nonnull (agent_message_get_created (user));
  g_assert_null (agent_message_get_content (assistant));

  agent_message_add_tool_call (assistant, call);
  g_assert_cmpuint (agent_message_get_n_tool_calls (assistant), ==, 1);
  g_assert_true (agent_message_get_tool_call (assistant, 0) == call);
  g_assert_null (agent_message_get_tool_call (assistant, 1));
  g_assert_cmpuint (agent_tool_call_get_index (call), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (agent_message_get_tool_calls (assistant)), ==, 1);

  g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
  g_assert_cmpstr (agent_message_get_tool_call_id (result), ==, "c9");
  g_assert_cmpstr (agent_message_get_tool_name (result), ==, "calculator");
  g_assert_false (agent_message_is_error (result));
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  g_assert_cmpuint (removed, ==, 0);
  g_assert_cmpuint (added, ==, 1);
  g_assert_cmpuint (position, ==, g_list_model_get_n_items (model) - 1);
  (*count)++;
}

static void
test_simple_memory (void)
{
  g_autoptr(AgentMemory) memory = agent_simple_memory_new ();
  g_autoptr(AgentMessage) a = agent_message_new (AGENT_MESSAGE_ROLE_USER, "a");
  g_autoptr(AgentMessage) b = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "b");
  g_autoptr(AgentMessage) first = NULL;
  g_autoptr(GError) error = NULL;
  guint changes = 0;

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (memory)) == AGENT_TYPE_MESSAGE);
  g_signal_connect (memory, "items-changed", G_CALLBACK (items_changed_cb), &changes);

  g_assert_true (agent_memory_append (memory, a, &error));
  g_assert_true (agent_memory_append (memory, b, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (memory)), ==, 2);
  first = g_list_model_get_item (G_LIST_MODEL (memory), 0);
  g_assert_true (first == a);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (memory), 2));
}

static void
test_usage (void)
{
  g_autoptr(JsonNode) node = agent_test_parse_json ("{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15,"
                                                   "\"completion_tokens_details\":{\"reasoning_tokens\":2},"
                                                   "\"prompt_tokens_details\":{\"cached_tokens\":4},\"cost\":0.5}");
  g_autoptr(JsonNode) anthropic = agent_test_parse_json ("{\"input_tokens\":7,\"output_tokens\":3}");
  g_autoptr(JsonNode) not_object = agent_test_parse_json ("[1]");
  g_autoptr(AgentUsage) usage = agent_usage_new_from_json (node);
  g_autoptr(AgentUsage) other = agent_usage_new_from_json (anthropic);
  g_autoptr(AgentUsage) manual = agent_usage_new (1, 2, -1);
  g_autoptr(AgentUsage) sum = NULL;

  g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==, 10);
  g_assert_cmpint (agent_usage_get_completion_tokens (usage), ==, 5);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, 15);
  g_assert_cmpint (agent_usage_get_reasoning_tokens (usage), ==, 2);
  g_assert_cmpint (agent_usage_get_cached_tokens (usage), ==, 4);
  g_assert_true (agent_test_json_equal (agent_usage_get_raw (usage), node));

  g_assert_cmpint (agent_usage_get_total_tokens (other), ==, 10);
  g_assert_cmpint (agent_usage_get_total_tokens (manual), ==, 3);
  g_assert_null (agent_usage_get_raw (manual));
  g_assert_null (agent_usage_new_from_json (not_object));

  sum = agent_usage_add (usage, other);
  g_assert_cmpint (agent_usage_get_prompt_tokens (sum), ==, 17);
  g_assert_cmpint (agent_usage_get_total_tokens (sum), ==, 25);
}

/* Counts a server sends are not trusted to fit: one past what a gint64
 * holds (a double, as JSON allows), negative ones, and sums of the largest
 * ones, saturate instead of overflowing (UndefinedBehaviorSanitizer
 * watches in the sanitizer run) */
static void
test_usage_hostile (void)
{
  g_autoptr(JsonNode) node =
    agent_test_parse_json ("{\"prompt_tokens\":1e99,\"input_tokens\":9223372036854775807,"
                           "\"cache_read_input_tokens\":9223372036854775807,"
                           "\"completion_tokens\":-1e99,\"output_tokens\":-5,"
                           "\"completion_tokens_details\":{\"reasoning_tokens\":-1e300},"
                           "\"prompt_tokens_details\":{\"cached_tokens\":1e19}}");
  g_autoptr(AgentUsage) usage = agent_usage_new_from_json (node);
  g_autoptr(AgentUsage) sum = NULL;

  g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==, G_MAXINT64);
  g_assert_cmpint (agent_usage_get_completion_tokens (usage), ==, 0);
  g_assert_cmpint (agent_usage_get_total_tokens (usage), ==, G_MAXINT64);
  g_assert_cmpint (agent_usage_get_reasoning_tokens (usage), ==, 0);
  g_assert_cmpint (agent_usage_get_cached_tokens (usage), ==, G_MAXINT64);

  sum = agent_usage_add (usage, usage);
  g_assert_cmpint (agent_usage_get_prompt_tokens (sum), ==, G_MAXINT64);
  g_assert_cmpint (agent_usage_get_total_tokens (sum), ==, G_MAXINT64);
  g_assert_cmpint (agent_usage_get_cached_tokens (sum), ==, G_MAXINT64);
}

/* The one JSON form of usage (agent-cli --json, the bindings' stream()):
 * reasoning tokens only when there were some */
static void
test_usage_to_json (void)
{
  g_autoptr(JsonNode) node = agent_test_parse_json ("{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15,"
                                                   "\"completion_tokens_details\":{\"reasoning_tokens\":2}}");
  g_autoptr(AgentUsage) usage = agent_usage_new_from_json (node);
  g_autoptr(AgentUsage) plain = agent_usage_new (1, 2, -1);
  g_autoptr(JsonNode) written = agent_usage_to_json (usage);
  g_autoptr(JsonNode) plain_written = agent_usage_to_json (plain);
  g_autoptr(JsonNode) expected = agent_test_parse_json ("{\"prompt-tokens\":10,\"completion-tokens\":5,"
                                                       "\"total-tokens\":15,\"reasoning-tokens\":2}");
  g_autoptr(JsonNode) plain_expected = agent_test_parse_json ("{\"prompt-tokens\":1,\"completion-tokens\":2,"
                                                             "\"total-tokens\":3}");

  g_assert_true (agent_test_json_equal (written, expected));
  g_assert_true (agent_test_json_equal (plain_written, plain_expected));
}

static void
test_provider (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", &error);
  g_autoptr(AgentProvider) alias = agent_provider_new ("openai-compatible", &error);
  guint notified = 0;

  g_assert_no_error (error);
  g_assert_true (g_strv_contains (agent_provider_list_names (), "openai"));
  g_assert_cmpstr (agent_provider_get_name (provider), ==, "openai");
  g_assert_cmpstr (agent_provider_get_name (alias), ==, "openai");
  g_assert_cmpstr (agent_provider_get_base_url (provider), ==, "https://api.openai.com/v1");
  g_assert_cmpstr (agent_provider_get_api_key_variable (provider), ==, "OPENAI_API_KEY");
  g_assert_nonnull (agent_provider_get_display_name (provider));
  g_assert_nonnull (agent_provider_get_model (provider));

  agent_provider_set_base_url (provider, "http://127.0.0.1:8080/v1///");
  g_assert_cmpstr (agent_provider_get_base_url (provider), ==, "http://127.0.0.1:8080/v1");
  agent_provider_set_base_url (provider, NULL);
  g_assert_cmpstr (agent_provider_get_base_url (provider), ==, "https://api.openai.com/v1");

  g_signal_connect (provider, "notify::has-api-key", G_CALLBACK (agent_test_count_notify), &notified);
  g_assert_false (agent_provider_get_has_api_key (provider));
  agent_provider_set_api_key (provider, "sk-123");
  g_assert_true (agent_provider_get_has_api_key (provider));
  agent_provider_set_api_key (provider, "sk-456");   /* still has one: no notification */
  agent_provider_set_api_key (provider, "");
  g_assert_false (agent_provider_get_has_api_key (provider));
  g_assert_cmpuint (notified, ==, 2);
  /* The key cannot be read back */
  g_assert_false (g_object_class_find_property (G_OBJECT_GET_CLASS (provider), "api-key")->flags & G_PARAM_READABLE);

  agent_provider_set_model (provider, "my-model");
  g_assert_cmpstr (agent_provider_get_model (provider), ==, "my-model");

  g_assert_null (agent_provider_new ("nonesuch", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "nonesuch"));
}

static void
test_error_codes (void)
{
  g_autoptr(GError) limit = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_LIMIT, "x");
  g_autoptr(GError) http = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_HTTP, "x");
  g_autoptr(GError) auth = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION, "x");
  g_autoptr(GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "x");
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "x");

  g_assert_cmpstr (agent_error_get_code (limit), ==, "limit");
  g_assert_cmpstr (agent_error_get_code (http), ==, "http");
  g_assert_cmpstr (agent_error_get_code (auth), ==, "authentication");
  g_assert_cmpstr (agent_error_get_code (cancelled), ==, "cancelled");
  g_assert_cmpstr (agent_error_get_code (other), ==, "failed");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tool/new", test_tool_new);
  g_test_add_func ("/tool/handler-fails", test_tool_handler_fails);
  g_test_add_func ("/tool/default-schema", test_tool_default_schema);
  g_test_add_func ("/tool/subclass", test_tool_subclass);
  g_test_add_func ("/tool/builtin", test_builtin_tools);
  g_test_add_func ("/tool/invocation/bad-arguments", test_invocation_bad_arguments);
  g_test_add_func ("/tool/invocation/thread", test_invocation_thread);
  g_test_add_func ("/tool/invocation/twice", test_invocation_twice);
  g_test_add_func ("/tool-call/arguments", test_tool_call_arguments);
  g_test_add_func ("/message/basics", test_message);
  g_test_add_func ("/memory/simple", test_simple_memory);
  g_test_add_func ("/usage/basics", test_usage);
  g_test_add_func ("/usage/hostile", test_usage_hostile);
  g_test_add_func ("/usage/to-json", test_usage_to_json);
  g_test_add_func ("/provider/basics", test_provider);
  g_test_add_func ("/error/codes", test_error_codes);

  return g_test_run ();
}
