/* agent-session-tools.c — the tools the model may call
 *
 * The session's list of tools, the validate-tool-arguments property and
 * the tool-failed signal. Running the calls is agent-turn-tools.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-session-private.h"

enum {
  PROP_VALIDATE_TOOL_ARGUMENTS,
  N_TOOLS_PROPS
};

G_STATIC_ASSERT (N_TOOLS_PROPS == AGENT_SESSION_N_TOOLS_PROPS);

static GParamSpec *properties[N_TOOLS_PROPS];
static guint first_prop_id;

void
_agent_session_init_tools (AgentSession *self)
{
  self->validate_tool_arguments = TRUE;
}

void
_agent_session_class_add_tools (GObjectClass *object_class,
                                guint         first_id,
                                guint        *tool_failed_signal)
{
  first_prop_id = first_id;

  /**
   * AgentSession:validate-tool-arguments:
   *
   * Whether the arguments of each tool call are checked against the
   * tool's JSON Schema ([property@Agent.Tool:parameters]) before anything
   * sees them. The default is %TRUE: a call whose arguments do not follow
   * the schema does not run — no [signal@Agent.Session::check-tool-call]
   * hook, approval or handler sees it — and its error result names where
   * and why (`The arguments do not follow the schema of “get_weather”:
   * $.city: expected string, got integer`), so that the model can correct
   * itself; the turn goes on. [signal@Agent.Session::tool-failed] tells
   * the application, with %AGENT_ERROR_SCHEMA.
   *
   * The check covers the keywords [func@Agent.json_schema_validate]
   * knows; a schema it cannot read is not held against the call, which
   * runs. Arguments that are not a JSON object never run, whatever this
   * says.
   *
   * Since: 0.1
   */
  properties[PROP_VALIDATE_TOOL_ARGUMENTS] =
    g_param_spec_boolean ("validate-tool-arguments", NULL, NULL,
                          TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  for (guint i = 0; i < N_TOOLS_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);

  /**
   * AgentSession::tool-failed:
   * @self: the session
   * @tool_call: the call, with its error result
   * @error: why it failed
   *
   * Emitted when a tool call fails, just before
   * [signal@Agent.Session::tool-finished]: its tool returned an error
   * (in Python and JavaScript, raised one), gave no answer or timed out,
   * or the call could not run — no tool has its name, or its arguments are
   * not a JSON object or do not follow the tool's schema. The error result
   * goes to the model, marked as an error where the API has a way to say
   * so (Anthropic's `is_error`, Gemini's `error` response); the turn goes
   * on.
   *
   * @error is in the %AGENT_ERROR domain: %AGENT_ERROR_TOOL when the tool
   * failed or gave no answer (the message is the tool's),
   * %AGENT_ERROR_TIMEOUT when it timed out, %AGENT_ERROR_SCHEMA when the
   * arguments do not follow the schema (the message names the path), and
   * %AGENT_ERROR_INVALID_ARGUMENT when there is no such tool or the
   * arguments are not a JSON object. Calls that were blocked, denied or
   * cancelled did not fail, and are not reported here.
   *
   * Each failure is also logged at the debug level in the `Agent-Tools`
   * log domain (`G_MESSAGES_DEBUG=Agent-Tools`), where the Python and
   * JavaScript overrides log the traceback of an exception a tool or hook
   * raised.
   *
   * Since: 0.1
   */
  *tool_failed_signal =
    g_signal_new ("tool-failed",
                  G_TYPE_FROM_CLASS (object_class),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_TOOL_CALL,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

gboolean
_agent_session_get_tools_property (AgentSession *self,
                                   guint         prop_id,
                                   GValue       *value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + N_TOOLS_PROPS)
    return FALSE;

  switch (prop_id - first_prop_id)
    {
    case PROP_VALIDATE_TOOL_ARGUMENTS:
      g_value_set_boolean (value, self->validate_tool_arguments);
      break;

    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

gboolean
_agent_session_set_tools_property (AgentSession *self,
                                   guint         prop_id,
                                   const GValue *value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + N_TOOLS_PROPS)
    return FALSE;

  switch (prop_id - first_prop_id)
    {
    case PROP_VALIDATE_TOOL_ARGUMENTS:
      agent_session_set_validate_tool_arguments (self, g_value_get_boolean (value));
      break;

    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

/**
 * agent_session_get_validate_tool_arguments:
 * @self: a [class@Agent.Session]
 *
 * Gets whether tool-call arguments are checked against the tool's schema
 * (see [property@Agent.Session:validate-tool-arguments]).
 *
 * Returns: whether they are checked
 *
 * Since: 0.1
 */
gboolean
agent_session_get_validate_tool_arguments (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  return self->validate_tool_arguments;
}

/**
 * agent_session_set_validate_tool_arguments:
 * @self: a [class@Agent.Session]
 * @validate: whether to check them
 *
 * Sets whether tool-call arguments are checked against the tool's schema
 * before anything sees them (see
 * [property@Agent.Session:validate-tool-arguments]). The default is
 * %TRUE.
 *
 * Since: 0.1
 */
void
agent_session_set_validate_tool_arguments (AgentSession *self,
                                           gboolean      validate)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  validate = !!validate;
  if (self->validate_tool_arguments == validate)
    return;
  self->validate_tool_arguments = validate;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALIDATE_TOOL_ARGUMENTS]);
}

/* The tools the model may call */

/**
 * agent_session_get_tools:
 * @self: a [class@Agent.Session]
 *
 * Gets the tools the model may call, a list of [class@Agent.Tool].
 *
 * Returns: (transfer none): the tools the model may call, a list of
 *   [class@Agent.Tool]
 *
 * Since: 0.1
 */
GListModel *
agent_session_get_tools (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tools);
}

/**
 * agent_session_lookup_tool:
 * @self: a [class@Agent.Session]
 * @name: the name of a tool
 *
 * Finds the tool the model calls @name among the session's tools.
 *
 * Returns: (transfer none) (nullable): the tool called @name, or %NULL
 *
 * Since: 0.1
 */
AgentTool *
agent_session_lookup_tool (AgentSession *self,
                           const char   *name)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* An index of the list: an MCP server may bring thousands of tools */
  if (self->tool_names == NULL)
    return NULL;
  return g_hash_table_lookup (self->tool_names, name);
}

/**
 * agent_session_add_tool:
 * @self: a [class@Agent.Session]
 * @tool: a tool the model may call
 *
 * Offers @tool to the model from the next request on. A tool of the same
 * name is replaced.
 *
 * Since: 0.1
 */
void
agent_session_add_tool (AgentSession *self,
                        AgentTool    *tool)
{
  AgentTool *existing;

  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_TOOL (tool));

  if ((existing = agent_session_lookup_tool (self, agent_tool_get_name (tool))))
    agent_session_remove_tool (self, existing);

  if (self->tool_names == NULL)
    self->tool_names = g_hash_table_new (g_str_hash, g_str_equal);
  /* The name belongs to the tool, which the list keeps */
  g_hash_table_insert (self->tool_names, (gpointer) agent_tool_get_name (tool), tool);
  g_list_store_append (self->tools, tool);
}

/**
 * agent_session_remove_tool:
 * @self: a [class@Agent.Session]
 * @tool: a tool
 *
 * Stops offering @tool to the model.
 *
 * Returns: whether @tool was offered
 *
 * Since: 0.1
 */
gboolean
agent_session_remove_tool (AgentSession *self,
                           AgentTool    *tool)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (AGENT_IS_TOOL (tool), FALSE);

  if (!g_list_store_find (self->tools, tool, &position))
    return FALSE;

  if (g_hash_table_lookup (self->tool_names, agent_tool_get_name (tool)) == tool)
    g_hash_table_remove (self->tool_names, agent_tool_get_name (tool));
  g_list_store_remove (self->tools, position);
  return TRUE;
}
