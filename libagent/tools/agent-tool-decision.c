/* agent-tool-decision.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "tools/agent-tool-decision.h"

/**
 * AgentToolDecision:
 *
 * What a [signal@Agent.Session::check-tool-call] handler decides about a
 * call: allow it, or block it with a reason the model reads.
 *
 * The hook is a security gate and fails closed: a handler that returns
 * %NULL — in Python or JavaScript, one that raises an exception or returns
 * a value of another type — blocks the call. Only an explicit
 * [ctor@Agent.ToolDecision.new_allow] lets it run.
 *
 * ```c
 * static AgentToolDecision *
 * check_tool_call (AgentSession  *session,
 *                  AgentToolCall *call,
 *                  gpointer       user_data)
 * {
 *   if (g_strcmp0 (agent_tool_call_get_name (call), "shell") == 0)
 *     return agent_tool_decision_new_block ("no shell commands here");
 *   return agent_tool_decision_new_allow ();
 * }
 * ```
 *
 * Since: 0.1
 */

struct _AgentToolDecision
{
  GObject  parent_instance;
  char    *reason;
  gboolean allowed;
};

enum {
  PROP_0,
  PROP_ALLOWED,
  PROP_REASON,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentToolDecision, agent_tool_decision, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_tool_decision_finalize (GObject *object)
{
  AgentToolDecision *self = (AgentToolDecision *)object;

  g_clear_pointer (&self->reason, g_free);

  G_OBJECT_CLASS (agent_tool_decision_parent_class)->finalize (object);
}

static void
agent_tool_decision_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentToolDecision *self = AGENT_TOOL_DECISION (object);

  switch (prop_id)
    {
    case PROP_ALLOWED:
      g_value_set_boolean (value, self->allowed);
      break;

    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_decision_class_init (AgentToolDecisionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_tool_decision_finalize;
  object_class->get_property = agent_tool_decision_get_property;

  /**
   * AgentToolDecision:allowed:
   *
   * Whether the call may run.
   */
  properties[PROP_ALLOWED] =
    g_param_spec_boolean ("allowed", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolDecision:reason:
   *
   * Why the call is blocked, for the model; %NULL when it is allowed.
   */
  properties[PROP_REASON] =
    g_param_spec_string ("reason", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_tool_decision_init (AgentToolDecision *self)
{
}

/**
 * agent_tool_decision_new_allow:
 *
 * Creates a decision that lets the call run.
 *
 * Returns: (transfer full): a new [class@Agent.ToolDecision]
 *
 * Since: 0.1
 */
AgentToolDecision *
agent_tool_decision_new_allow (void)
{
  AgentToolDecision *self = g_object_new (AGENT_TYPE_TOOL_DECISION, NULL);

  self->allowed = TRUE;
  return self;
}

/**
 * agent_tool_decision_new_block:
 * @reason: why, in words for the model
 *
 * Creates a decision that blocks the call. Its result becomes
 * "Blocked: " and @reason, so that the model can adapt; the turn goes on.
 *
 * Returns: (transfer full): a new [class@Agent.ToolDecision]
 *
 * Since: 0.1
 */
AgentToolDecision *
agent_tool_decision_new_block (const char *reason)
{
  AgentToolDecision *self;

  g_return_val_if_fail (reason != NULL, NULL);

  self = g_object_new (AGENT_TYPE_TOOL_DECISION, NULL);
  self->reason = g_strdup (reason);
  return self;
}

/**
 * agent_tool_decision_get_allowed:
 * @self: a [class@Agent.ToolDecision]
 *
 * Checks whether the call may run.
 *
 * Returns: whether the call may run
 *
 * Since: 0.1
 */
gboolean
agent_tool_decision_get_allowed (AgentToolDecision *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_DECISION (self), FALSE);
  return self->allowed;
}

/**
 * agent_tool_decision_get_reason:
 * @self: a [class@Agent.ToolDecision]
 *
 * Gets why the call is blocked.
 *
 * Returns: (nullable): why the call is blocked, or %NULL when it is allowed
 *
 * Since: 0.1
 */
const char *
agent_tool_decision_get_reason (AgentToolDecision *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_DECISION (self), NULL);
  return self->reason;
}
