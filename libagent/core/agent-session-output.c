/* agent-session-output.c — the answer: its JSON Schema and its guard
 *
 * The session's side of structured output: the output-schema property,
 * the object-delta and object-finished signals, and sending one message
 * for an object (agent-session-turn.c starts the turn). The turn's side,
 * reading and checking the object, is agent-turn-output.c; each provider
 * asks for it its own way (providers/agent-provider-output.c).
 *
 * And the output guard: the check-output hook, which the turn runs on its
 * final answer (agent-turn-output.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-marshal.h"
#include "core/agent-output-decision.h"
#include "core/agent-session-private.h"
#include "json/agent-json-private.h"

enum {
  PROP_OUTPUT_SCHEMA,
  N_OUTPUT_PROPS
};

G_STATIC_ASSERT (N_OUTPUT_PROPS == AGENT_SESSION_N_OUTPUT_PROPS);

static GParamSpec *properties[N_OUTPUT_PROPS];
static guint first_prop_id;

/* For check-output: a guard that fails closed. Every handler must let the
 * answer stand; the first that rejects or replaces it, or gives no
 * decision (returns NULL: in Python or JavaScript, raised or returned
 * something else), decides. */
static gboolean
all_allow_accumulator (GSignalInvocationHint *hint,
                       GValue                *return_accu,
                       const GValue          *handler_return,
                       gpointer               data)
{
  AgentOutputDecision *decision = g_value_get_object (handler_return);

  g_value_set_object (return_accu, decision);
  return decision != NULL &&
         agent_output_decision_get_verdict (decision) == AGENT_OUTPUT_VERDICT_ALLOW;
}

void
_agent_session_class_add_output (GObjectClass *object_class,
                                 guint         first_id,
                                 guint        *object_delta_signal,
                                 guint        *object_finished_signal,
                                 guint        *check_output_signal)
{
  GType type = G_TYPE_FROM_CLASS (object_class);

  first_prop_id = first_id;

  /**
   * AgentSession:output-schema:
   *
   * A JSON Schema that every answer is to follow, or %NULL for answers in
   * prose. The default is %NULL.
   *
   * With a schema, each provider asks its model for JSON that follows it:
   * OpenAI's `response_format` (Chat Completions) or `text.format`
   * (Responses) in strict mode, Gemini's `responseSchema` (the schema
   * translated to the subset Gemini takes, or the turn fails with
   * %AGENT_ERROR_UNSUPPORTED naming what it cannot take), Ollama's
   * `format`, and for Anthropic a tool whose input is the answer. While
   * the answer streams, [signal@Agent.Session::object-delta] shows the
   * object read so far; at the end it is checked against the schema
   * ([func@Agent.json_schema_validate]) and
   * [signal@Agent.Session::object-finished] gives it. An answer that is
   * not JSON, or does not follow the schema, fails the turn with
   * %AGENT_ERROR_SCHEMA and a message that names where (`$.dates[2].day:
   * expected integer, got string`); the answer stays in the conversation
   * as it came.
   *
   * The answer's text ([property@Agent.Message:content]) is the object's
   * JSON, with every provider. Tools still work: the model may call them
   * first, and its last answer is the object.
   *
   * Each turn first checks the schema ([func@Agent.json_schema_check]): one
   * that cannot be used (a `$ref` that goes round in a circle or leads
   * nowhere, a `type` that is not a name, …) fails the turn with
   * %AGENT_ERROR_INVALID_ARGUMENT before anything is sent or added to the
   * conversation.
   *
   * The schema's `title`, if it is a name of letters, digits, `_` and `-`,
   * names the answer for the providers that want a name; otherwise it is
   * `response`.
   *
   * To ask for one answer only, see [method@Agent.Session.send_for_object_async].
   *
   * Since: 0.1
   */
  properties[PROP_OUTPUT_SCHEMA] =
    g_param_spec_boxed ("output-schema", NULL, NULL,
                        JSON_TYPE_NODE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  for (guint i = 0; i < N_OUTPUT_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);

  /**
   * AgentSession::object-delta:
   * @self: the session
   * @message: the answer being streamed
   * @object: the object as far as it arrived (see [struct@Agent.PartialJson])
   * @changes: what changed since the last emission, as a JSON array of
   *   operations
   *
   * Emitted, when the answer is to follow a schema
   * ([property@Agent.Session:output-schema]), each time more of the object
   * arrived: open strings, arrays and objects closed, an unfinished number
   * or literal left out. Each value is a view the next one only adds to, so
   * a form or a list can fill in as the answer arrives (but for a member
   * named twice in an object, whose second value replaces the first).
   *
   * @changes says what the object gained since the emission before, so that
   * a handler that copies, converts or writes out the object can do so
   * piece by piece, in time that grows with the answer rather than with
   * its square. Each operation is an object with `op`, `path` (a JSON
   * pointer) and `value`:
   *
   * - `{"op": "add", "path": "", "value": V}`: the object is V (the first
   *   change of each answer);
   * - `{"op": "append", "path": P, "value": V}`: the string, array or
   *   object at P gained V — its text, its elements, its members (an
   *   object that names a member again replaces it).
   *
   * Applied in turn to a copy of the object, the changes make it equal to
   * @object. An emission waits for more of the answer when the paths of
   * its changes would weigh more than 16 times what they add (and 64
   * bytes), so several pieces of the answer may come in one emission.
   *
   * @object belongs to the session and changes after the handler returns:
   * copy what you keep (json_node_copy() shares its objects and arrays:
   * serialize it, or apply @changes to a copy of your own). It is not
   * checked against the schema yet. @changes is the handler's to read
   * during the emission.
   *
   * Since: 0.1
   */
  *object_delta_signal =
    g_signal_new ("object-delta",
                  type,
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_BOXED_BOXED,
                  G_TYPE_NONE, 3,
                  AGENT_TYPE_MESSAGE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (*object_delta_signal, type,
                              _agent_marshal_VOID__OBJECT_BOXED_BOXEDv);

  /**
   * AgentSession::object-finished:
   * @self: the session
   * @message: the answer
   * @object: the whole object, checked against the schema
   *
   * Emitted when an answer that was to follow a schema arrived whole and
   * follows it, before [signal@Agent.Session::step-finished].
   *
   * Since: 0.1
   */
  *object_finished_signal =
    g_signal_new ("object-finished",
                  type,
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_BOXED,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  JSON_TYPE_NODE);
  g_signal_set_va_marshaller (*object_finished_signal, type,
                              _agent_marshal_VOID__OBJECT_BOXEDv);

  /**
   * AgentSession::check-output:
   * @self: the session
   * @answer: the turn's final answer, whole, not yet in the memory
   *
   * A guard that runs on the final answer of each turn (the one without
   * tool calls), before it is kept in the memory and the turn completes:
   * a handler returns [ctor@Agent.OutputDecision.new_allow] to let it
   * stand, [ctor@Agent.OutputDecision.new_replace] to put another text in
   * its place (kept, sent back to the model later, and given to the
   * caller), or [ctor@Agent.OutputDecision.new_reject] with a reason:
   * then the answer is not kept, and the turn fails with %AGENT_ERROR_HOOK
   * and that reason. The conversation stays as it was before the answer
   * (the user's message, and the tool calls of earlier steps with their
   * results).
   *
   * Its text has streamed already ([signal@Agent.Session::text-delta]):
   * an application that must not show a rejected answer shows the answer
   * once this hook let it stand ([signal@Agent.Session::completed]).
   *
   * The hook fails closed, as [signal@Agent.Session::check-tool-call]
   * does: a handler that returns %NULL rejects the answer, and so, in
   * Python and JavaScript, does one that raises an exception or returns a
   * value of another type. Every handler must let the answer stand; the
   * first that does not decides. Without a handler, answers stand. With
   * an [property@Agent.Session:output-schema], a replacement is checked
   * against the schema too.
   *
   * Returns: (transfer full) (nullable): the decision; %NULL rejects the
   *   answer
   *
   * Since: 0.1
   */
  *check_output_signal =
    g_signal_new ("check-output",
                  type,
                  G_SIGNAL_RUN_LAST,
                  0, all_allow_accumulator, NULL, NULL,
                  AGENT_TYPE_OUTPUT_DECISION, 1, AGENT_TYPE_MESSAGE);
}

gboolean
_agent_session_get_output_property (AgentSession *self,
                                    guint         prop_id,
                                    GValue       *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_OUTPUT_SCHEMA:
      g_value_set_boxed (value, self->output_schema);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_session_set_output_property (AgentSession *self,
                                    guint         prop_id,
                                    const GValue *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_OUTPUT_SCHEMA:
      agent_session_set_output_schema (self, g_value_get_boxed (value));
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * agent_session_get_output_schema:
 * @self: a [class@Agent.Session]
 *
 * Gets the JSON Schema every answer is to follow.
 *
 * Returns: (transfer none) (nullable): the schema answers are to follow
 *   (see [property@Agent.Session:output-schema])
 *
 * Since: 0.1
 */
JsonNode *
agent_session_get_output_schema (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);

  return self->output_schema;
}

/**
 * agent_session_set_output_schema:
 * @self: a [class@Agent.Session]
 * @schema: (nullable): a JSON Schema (an object), or %NULL for prose
 *
 * Sets [property@Agent.Session:output-schema]. A turn that runs keeps the
 * schema it started with.
 *
 * Since: 0.1
 */
void
agent_session_set_output_schema (AgentSession *self,
                                 JsonNode     *schema)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (schema == NULL || JSON_NODE_HOLDS_OBJECT (schema));

  if (schema == self->output_schema)
    return;
  if (schema != NULL && self->output_schema != NULL &&
      json_node_equal (schema, self->output_schema))
    return;

  g_clear_pointer (&self->output_schema, json_node_unref);
  if (schema != NULL)
    self->output_schema = _agent_json_node_sealed_copy (schema);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTPUT_SCHEMA]);
}
