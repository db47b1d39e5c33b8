/* agent-output-decision.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "core/agent-output-decision.h"

/**
 * AgentOutputDecision:
 *
 * What a [signal@Agent.Session::check-output] handler decides about the
 * final answer of a turn: let it stand, reject it with a reason, or put
 * another text in its place.
 *
 * The hook is a guard and fails closed, as
 * [signal@Agent.Session::check-tool-call] does: a handler that returns
 * %NULL — in Python or JavaScript, one that raises an exception or returns
 * a value of another type — rejects the answer. Only an explicit
 * [ctor@Agent.OutputDecision.new_allow] lets it stand.
 *
 * ```c
 * static AgentOutputDecision *
 * check_output (AgentSession *session,
 *               AgentMessage *answer,
 *               gpointer      user_data)
 * {
 *   if (strstr (agent_message_get_content (answer), "BEGIN PRIVATE KEY") != NULL)
 *     return agent_output_decision_new_reject ("the answer holds a private key");
 *   return agent_output_decision_new_allow ();
 * }
 * ```
 *
 * Since: 0.1
 */

struct _AgentOutputDecision
{
  GObject             parent_instance;
  char               *reason;
  char               *replacement;
  AgentOutputVerdict  verdict;
};

enum {
  PROP_0,
  PROP_VERDICT,
  PROP_REASON,
  PROP_REPLACEMENT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentOutputDecision, agent_output_decision, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_output_decision_finalize (GObject *object)
{
  AgentOutputDecision *self = (AgentOutputDecision *)object;

  g_clear_pointer (&self->reason, g_free);
  g_clear_pointer (&self->replacement, g_free);

  G_OBJECT_CLASS (agent_output_decision_parent_class)->finalize (object);
}

static void
agent_output_decision_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AgentOutputDecision *self = AGENT_OUTPUT_DECISION (object);

  switch (prop_id)
    {
    case PROP_VERDICT:
      g_value_set_enum (value, self->verdict);
      break;

    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;

    case PROP_REPLACEMENT:
      g_value_set_string (value, self->replacement);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_output_decision_class_init (AgentOutputDecisionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_output_decision_finalize;
  object_class->get_property = agent_output_decision_get_property;

  /**
   * AgentOutputDecision:verdict:
   *
   * What the decision says of the answer.
   */
  properties[PROP_VERDICT] =
    g_param_spec_enum ("verdict", NULL, NULL, AGENT_TYPE_OUTPUT_VERDICT,
                       AGENT_OUTPUT_VERDICT_REJECT, flags);

  /**
   * AgentOutputDecision:reason:
   *
   * Why the answer is rejected, for the user; %NULL otherwise.
   */
  properties[PROP_REASON] =
    g_param_spec_string ("reason", NULL, NULL, NULL, flags);

  /**
   * AgentOutputDecision:replacement:
   *
   * The text that stands for the answer, with
   * %AGENT_OUTPUT_VERDICT_REPLACE; %NULL otherwise.
   */
  properties[PROP_REPLACEMENT] =
    g_param_spec_string ("replacement", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_output_decision_init (AgentOutputDecision *self)
{
  self->verdict = AGENT_OUTPUT_VERDICT_REJECT;
}

/**
 * agent_output_decision_new_allow:
 *
 * Creates a decision that lets the answer stand.
 *
 * Returns: (transfer full): a new [class@Agent.OutputDecision]
 *
 * Since: 0.1
 */
AgentOutputDecision *
agent_output_decision_new_allow (void)
{
  AgentOutputDecision *self = g_object_new (AGENT_TYPE_OUTPUT_DECISION, NULL);

  self->verdict = AGENT_OUTPUT_VERDICT_ALLOW;
  return self;
}

/**
 * agent_output_decision_new_reject:
 * @reason: why, in words for the user
 *
 * Creates a decision that rejects the answer: it is not kept in the
 * conversation, and the turn fails with %AGENT_ERROR_HOOK and @reason.
 *
 * Returns: (transfer full): a new [class@Agent.OutputDecision]
 *
 * Since: 0.1
 */
AgentOutputDecision *
agent_output_decision_new_reject (const char *reason)
{
  AgentOutputDecision *self;

  g_return_val_if_fail (reason != NULL, NULL);

  self = g_object_new (AGENT_TYPE_OUTPUT_DECISION, NULL);
  self->reason = g_strdup (reason);
  return self;
}

/**
 * agent_output_decision_new_replace:
 * @text: the text that stands for the answer
 *
 * Creates a decision that puts @text in place of the answer's text: the
 * answer is kept, sent back to the model later and given to the caller
 * with @text as its [property@Agent.Message:content].
 *
 * Returns: (transfer full): a new [class@Agent.OutputDecision]
 *
 * Since: 0.1
 */
AgentOutputDecision *
agent_output_decision_new_replace (const char *text)
{
  AgentOutputDecision *self;

  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (AGENT_TYPE_OUTPUT_DECISION, NULL);
  self->verdict = AGENT_OUTPUT_VERDICT_REPLACE;
  self->replacement = g_strdup (text);
  return self;
}

/**
 * agent_output_decision_get_verdict:
 * @self: a [class@Agent.OutputDecision]
 *
 * Gets what the decision says of the answer.
 *
 * Returns: the verdict
 *
 * Since: 0.1
 */
AgentOutputVerdict
agent_output_decision_get_verdict (AgentOutputDecision *self)
{
  g_return_val_if_fail (AGENT_IS_OUTPUT_DECISION (self), AGENT_OUTPUT_VERDICT_REJECT);
  return self->verdict;
}

/**
 * agent_output_decision_get_reason:
 * @self: a [class@Agent.OutputDecision]
 *
 * Gets why the answer is rejected.
 *
 * Returns: (nullable): the reason, or %NULL unless the answer is rejected
 *
 * Since: 0.1
 */
const char *
agent_output_decision_get_reason (AgentOutputDecision *self)
{
  g_return_val_if_fail (AGENT_IS_OUTPUT_DECISION (self), NULL);
  return self->reason;
}

/**
 * agent_output_decision_get_replacement:
 * @self: a [class@Agent.OutputDecision]
 *
 * Gets the text that stands for the answer.
 *
 * Returns: (nullable): the text, or %NULL unless the answer is replaced
 *
 * Since: 0.1
 */
const char *
agent_output_decision_get_replacement (AgentOutputDecision *self)
{
  g_return_val_if_fail (AGENT_IS_OUTPUT_DECISION (self), NULL);
  return self->replacement;
}
