/* test-mcp-prompts.c — the prompts of MCP servers
 *
 * The reference server-everything over stdio: listing prompts with their
 * arguments, getting them with arguments (text, and an embedded resource),
 * a required argument left out, an unknown prompt; and
 * tests/mcp/features-server.mjs, which offers no prompts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

typedef struct
{
  GListModel *model;
  GError     *error;
  gboolean    done;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->model);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
}

static gboolean
outcome_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_list_prompts_finish (AGENT_MCP_CLIENT (object), result,
                                                         &outcome->error);
  outcome->done = TRUE;
}

static void
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_get_prompt_finish (AGENT_MCP_CLIENT (object), result,
                                                       &outcome->error);
  outcome->done = TRUE;
}

static void
get_prompt (AgentMcpClient *client,
            const char     *name,
            GHashTable     *arguments,
            Outcome        *outcome)
{
  outcome_clear (outcome);
  agent_mcp_client_get_prompt_async (client, name, arguments, NULL, get_cb, outcome);
  agent_test_wait_until (outcome_done, outcome);
}

static AgentMcpPrompt *
find_prompt (GListModel *prompts,
             const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (prompts); i++)
    {
      g_autoptr(AgentMcpPrompt) prompt = g_list_model_get_item (prompts, i);

      if (g_str_equal (agent_mcp_prompt_get_name (prompt), name))
        return prompt;
    }
  return NULL;
}

static void
test_list (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  Outcome outcome = { 0 };
  AgentMcpPrompt *prompt;
  const char * const *names;

  agent_mcp_client_list_prompts_async (client, NULL, list_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);

  prompt = find_prompt (outcome.model, "simple-prompt");
  g_assert_nonnull (prompt);
  g_assert_cmpstr (agent_mcp_prompt_get_title (prompt), ==, "Simple Prompt");
  g_assert_cmpstr (agent_mcp_prompt_get_description (prompt), ==, "A prompt with no arguments");
  g_assert_cmpuint (g_strv_length ((char **) agent_mcp_prompt_get_argument_names (prompt)), ==,
                    0);

  prompt = find_prompt (outcome.model, "args-prompt");
  g_assert_nonnull (prompt);
  names = agent_mcp_prompt_get_argument_names (prompt);
  g_assert_cmpuint (g_strv_length ((char **) names), ==, 2);
  g_assert_cmpstr (names[0], ==, "city");
  g_assert_cmpstr (names[1], ==, "state");
  g_assert_true (agent_mcp_prompt_get_argument_required (prompt, "city"));
  g_assert_false (agent_mcp_prompt_get_argument_required (prompt, "state"));
  g_assert_cmpstr (agent_mcp_prompt_get_argument_description (prompt, "city"), ==,
                   "Name of the city");
  g_assert_null (agent_mcp_prompt_get_argument_description (prompt, "planet"));

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

static void
test_get (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(GHashTable) arguments = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(AgentMessage) second = NULL;
  AgentContentPart *part;
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);

  g_hash_table_insert (arguments, (char *) "city", (char *) "Lyon");
  g_hash_table_insert (arguments, (char *) "state", (char *) "Rhône");
  get_prompt (client, "args-prompt", arguments, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), ==, 1);
  message = g_list_model_get_item (outcome.model, 0);
  g_assert_cmpint (agent_message_get_role (message), ==, AGENT_MESSAGE_ROLE_USER);
  g_assert_cmpstr (agent_message_get_content (message), ==, "What's weather in Lyon, Rhône?");
  g_clear_object (&message);

  /* An embedded resource: a part as resources/read makes it */
  g_hash_table_remove_all (arguments);
  g_hash_table_insert (arguments, (char *) "resourceType", (char *) "Text");
  g_hash_table_insert (arguments, (char *) "resourceId", (char *) "5");
  get_prompt (client, "resource-prompt", arguments, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), ==, 2);
  second = g_list_model_get_item (outcome.model, 1);
  part = agent_message_get_attachment (second, 0);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_FILE);
  g_assert_cmpstr (agent_content_part_get_name (part), ==, "demo://resource/dynamic/text/5");

  /* A required argument left out: the server's words */
  g_hash_table_remove_all (arguments);
  get_prompt (client, "args-prompt", arguments, &outcome);
  g_assert_null (outcome.model);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_FAILED);
  g_assert_nonnull (strstr (outcome.error->message, "args-prompt"));
  g_assert_nonnull (strstr (outcome.error->message, "city"));

  get_prompt (client, "no-such-prompt", NULL, &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_FAILED);
  g_assert_nonnull (strstr (outcome.error->message, "no-such-prompt"));

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

static void
test_not_offered (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);
  agent_mcp_client_list_prompts_async (client, NULL, list_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);

  get_prompt (client, "anything", NULL, &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/prompts/list", test_list);
  g_test_add_func ("/mcp/prompts/get", test_get);
  g_test_add_func ("/mcp/prompts/not-offered", test_not_offered);

  return g_test_run ();
}
