/* agent-session.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "agent-marshal.h"
#include "agent-util-private.h"
#include "core/agent-session-private.h"
#include "core/agent-step-request.h"
#include "core/agent-turn-private.h"
#include "tools/agent-tool-approval.h"
#include "tools/agent-tool-decision.h"

/**
 * AgentSession:
 *
 * A conversation with a model that can call tools.
 *
 * [method@Agent.Session.send_async] runs one turn: it appends the user's
 * text to the [property@Agent.Session:memory], streams the model's answer
 * — emitting [signal@Agent.Session::text-delta] as text arrives — and, when
 * the finished answer asks for tools, runs them, appends their results and
 * asks the model again, until the model answers without asking for tools or
 * [property@Agent.Session:max-steps] requests were made.
 *
 * The session keeps these promises:
 *
 * - Text streams at once in every step, including text the model writes
 *   before it calls a tool.
 * - Tool calls are taken from the whole answer after its stream ended,
 *   whatever the finish reason says.
 * - The assistant message with its tool calls, then the result of each
 *   call in call order, are in memory before the next request starts.
 * - An unknown tool, arguments that are not a JSON object or do not follow
 *   the tool's schema (see [property@Agent.Session:validate-tool-arguments]),
 *   and a tool that fails become that call's error result, sent back so
 *   the model can recover; [signal@Agent.Session::tool-failed] tells the
 *   application.
 * - Cancelling (the [class@Gio.Cancellable] of the turn) stops the connection, the
 *   read or the tools at once, and leaves the memory consistent: no
 *   assistant message with unanswered tool calls. Text that already
 *   streamed is kept, in a message marked
 *   %AGENT_MESSAGE_STATE_INTERRUPTED.
 * - Signals are emitted on the thread-default main context of the caller
 *   of [method@Agent.Session.send_async].
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_MEMORY,
  PROP_SYSTEM_PROMPT,
  PROP_STREAM_TOOL_CALL_CHUNKS,
  PROP_MAX_STEPS,
  PROP_BUSY,
  PROP_CURRENT_MESSAGE,
  PROP_USAGE,
  PROP_TOOLS,
  PROP_MAX_TOOL_CALLS,
  PROP_TOOL_TIMEOUT,
  PROP_TURN_METRICS,
  PROP_STEP_TIMEOUT,
  PROP_TURN_TIMEOUT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentSession, agent_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[AGENT_SESSION_N_SIGNALS];

/* Busy goes false last: after turn-finished, completed and the callback of
 * the turn (GTask:completed is notified after the callback), so that a
 * handler of notify::busy that starts the next turn sees the last one
 * over. A callback that started another turn already made it busy again. */
static void
turn_task_completed_cb (GTask        *task,
                        GParamSpec   *pspec,
                        AgentSession *self)
{
  g_signal_handlers_disconnect_by_func (task, turn_task_completed_cb, self);
  if (self->turn == NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  g_object_unref (self);
}

void
_agent_session_set_turn (AgentSession *self,
                         AgentTurn    *turn)
{
  g_assert (self->turn == NULL || turn == NULL);

  self->turn = turn;
  if (turn != NULL)
    {
      g_signal_connect (turn->task, "notify::completed",
                        G_CALLBACK (turn_task_completed_cb), g_object_ref (self));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

void
_agent_session_set_current_message (AgentSession *self,
                                    AgentMessage *message)
{
  if (g_set_object (&self->current_message, message))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MESSAGE]);
}

void
_agent_session_set_usage (AgentSession *self,
                          AgentUsage   *usage)
{
  g_clear_pointer (&self->usage, agent_usage_unref);
  self->usage = usage ? agent_usage_ref (usage) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USAGE]);
}

void
_agent_session_set_turn_metrics (AgentSession *self,
                                 AgentMetrics *metrics)
{
  g_clear_pointer (&self->turn_metrics, agent_metrics_unref);
  self->turn_metrics = metrics ? agent_metrics_ref (metrics) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TURN_METRICS]);
}

/* GObject */

static void
agent_session_dispose (GObject *object)
{
  AgentSession *self = (AgentSession *)object;

  /* A running turn holds a reference, so only g_object_run_dispose() (a
   * binding's, or a destroy) gets here while busy: the turn is cancelled,
   * and ends as cancelled turns do, its callback called with
   * G_IO_ERROR_CANCELLED and the memory consistent. What it uses is let go
   * on the last unref, which disposes again. */
  if (self->turn != NULL)
    {
      _agent_turn_cancel (self->turn);
      G_OBJECT_CLASS (agent_session_parent_class)->dispose (object);
      return;
    }

  g_clear_object (&self->transcript);
  g_clear_object (&self->provider);
  g_clear_object (&self->memory);
  g_clear_pointer (&self->tool_names, g_hash_table_unref);
  g_clear_object (&self->tools);
  g_clear_object (&self->current_message);
  _agent_session_dispose_context (self);

  G_OBJECT_CLASS (agent_session_parent_class)->dispose (object);
}

static void
agent_session_finalize (GObject *object)
{
  AgentSession *self = (AgentSession *)object;

  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->output_schema, json_node_unref);
  g_clear_pointer (&self->usage, agent_usage_unref);
  g_clear_pointer (&self->turn_metrics, agent_metrics_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (agent_session_parent_class)->finalize (object);
}

static void
agent_session_constructed (GObject *object)
{
  AgentSession *self = (AgentSession *)object;

  G_OBJECT_CLASS (agent_session_parent_class)->constructed (object);

  if (self->provider == NULL)
    self->provider = agent_provider_new ("openai", NULL);
  if (self->memory == NULL)
    self->memory = agent_simple_memory_new ();
}

static void
agent_session_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AgentSession *self = AGENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;

    case PROP_MEMORY:
      g_value_set_object (value, self->memory);
      break;

    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;

    case PROP_STREAM_TOOL_CALL_CHUNKS:
      g_value_set_boolean (value, self->stream_tool_call_chunks);
      break;

    case PROP_MAX_STEPS:
      g_value_set_uint (value, self->max_steps);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, agent_session_get_busy (self));
      break;

    case PROP_CURRENT_MESSAGE:
      g_value_set_object (value, self->current_message);
      break;

    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;

    case PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;

    case PROP_MAX_TOOL_CALLS:
      g_value_set_uint (value, self->max_tool_calls);
      break;

    case PROP_TOOL_TIMEOUT:
      g_value_set_double (value, self->tool_timeout);
      break;

    case PROP_TURN_METRICS:
      g_value_set_boxed (value, self->turn_metrics);
      break;

    case PROP_STEP_TIMEOUT:
      g_value_set_double (value, self->step_timeout);
      break;

    case PROP_TURN_TIMEOUT:
      g_value_set_double (value, self->turn_timeout);
      break;

    default:
      if (!_agent_session_get_limit_property (self, prop_id, value) &&
          !_agent_session_get_context_property (self, prop_id, value) &&
          !_agent_session_get_output_property (self, prop_id, value) &&
          !_agent_session_get_tools_property (self, prop_id, value) &&
          !_agent_session_get_settings_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_session_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AgentSession *self = AGENT_SESSION (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;

    case PROP_MEMORY:
      if (self->memory == NULL)
        self->memory = g_value_dup_object (value);
      else
        agent_session_set_memory (self, g_value_get_object (value));
      break;

    case PROP_SYSTEM_PROMPT:
      agent_session_set_system_prompt (self, g_value_get_string (value));
      break;

    case PROP_STREAM_TOOL_CALL_CHUNKS:
      agent_session_set_stream_tool_call_chunks (self, g_value_get_boolean (value));
      break;

    case PROP_MAX_STEPS:
      agent_session_set_max_steps (self, g_value_get_uint (value));
      break;

    case PROP_MAX_TOOL_CALLS:
      agent_session_set_max_tool_calls (self, g_value_get_uint (value));
      break;

    case PROP_TOOL_TIMEOUT:
      agent_session_set_tool_timeout (self, g_value_get_double (value));
      break;

    case PROP_STEP_TIMEOUT:
      agent_session_set_step_timeout (self, g_value_get_double (value));
      break;

    case PROP_TURN_TIMEOUT:
      agent_session_set_turn_timeout (self, g_value_get_double (value));
      break;

    default:
      if (!_agent_session_set_limit_property (self, prop_id, value) &&
          !_agent_session_set_context_property (self, prop_id, value) &&
          !_agent_session_set_output_property (self, prop_id, value) &&
          !_agent_session_set_tools_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* For the hooks that may say no: the first handler that gives a reason
 * decides. */
static gboolean
first_reason_accumulator (GSignalInvocationHint *hint,
                          GValue                *return_accu,
                          const GValue          *handler_return,
                          gpointer               data)
{
  const char *reason = g_value_get_string (handler_return);

  g_value_set_string (return_accu, reason);
  return reason == NULL;
}

/* For check-tool-call: a gate that fails closed. Every handler must allow
 * the call; the first that blocks it, or gives no decision (returns NULL:
 * in Python or JavaScript, raised or returned something else), decides. */
static gboolean
all_allow_accumulator (GSignalInvocationHint *hint,
                       GValue                *return_accu,
                       const GValue          *handler_return,
                       gpointer               data)
{
  AgentToolDecision *decision = g_value_get_object (handler_return);

  if (decision == NULL)
    {
      g_value_take_object (return_accu, NULL);
      return FALSE;
    }

  g_value_set_object (return_accu, decision);
  return agent_tool_decision_get_allowed (decision);
}

static void
agent_session_class_init (AgentSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agent_session_constructed;
  object_class->dispose = agent_session_dispose;
  object_class->finalize = agent_session_finalize;
  object_class->get_property = agent_session_get_property;
  object_class->set_property = agent_session_set_property;

  /**
   * AgentSession:provider:
   *
   * The model server the session talks to.
   */
  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL,
                         AGENT_TYPE_PROVIDER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:memory:
   *
   * The conversation: the messages requests are built from and the turn
   * appends to. An [class@Agent.SimpleMemory] unless set.
   */
  properties[PROP_MEMORY] =
    g_param_spec_object ("memory", NULL, NULL,
                         AGENT_TYPE_MEMORY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:system-prompt:
   *
   * Instructions sent before the conversation in every request.
   */
  properties[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:stream-tool-call-chunks:
   *
   * Whether [signal@Agent.Session::tool-call-delta] is emitted as tool-call
   * arguments stream in. It changes only what is emitted, never what is
   * stored; it may be flipped at any time, even in the middle of a stream.
   */
  properties[PROP_STREAM_TOOL_CALL_CHUNKS] =
    g_param_spec_boolean ("stream-tool-call-chunks", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:max-steps:
   *
   * The most requests one turn may make. When the model still asks for
   * tools after that many, the turn fails with %AGENT_ERROR_LIMIT (the
   * tool results stay in memory).
   */
  properties[PROP_MAX_STEPS] =
    g_param_spec_uint ("max-steps", NULL, NULL,
                       1, G_MAXUINT, 10,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:busy:
   *
   * Whether a turn is running.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:current-message:
   *
   * The assistant message being streamed, or %NULL between requests. Its
   * content grows with notifications; once complete it is in the memory.
   */
  properties[PROP_CURRENT_MESSAGE] =
    g_param_spec_object ("current-message", NULL, NULL,
                         AGENT_TYPE_MESSAGE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:usage:
   *
   * The tokens the last completed turn used, summed over its requests, or
   * %NULL when the provider reported none.
   */
  properties[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL,
                        AGENT_TYPE_USAGE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:tools:
   *
   * The tools the model may call, a list of [class@Agent.Tool].
   */
  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:max-tool-calls:
   *
   * The most tool runs one turn may make, or 0 for no limit. A call beyond
   * it does not run: it is answered that the limit was reached, and the
   * turn fails with %AGENT_ERROR_LIMIT.
   */
  properties[PROP_MAX_TOOL_CALLS] =
    g_param_spec_uint ("max-tool-calls", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:tool-timeout:
   *
   * The most seconds a tool call may run, or 0 for no limit; a tool's own
   * [property@Agent.Tool:timeout] wins over it. A call that takes longer is
   * cancelled and answers that it timed out; the other calls go on.
   */
  properties[PROP_TOOL_TIMEOUT] =
    g_param_spec_double ("tool-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:turn-metrics:
   *
   * The metrics of the last turn that ended, completed or not.
   */
  properties[PROP_TURN_METRICS] =
    g_param_spec_boxed ("turn-metrics", NULL, NULL,
                        AGENT_TYPE_METRICS,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:step-timeout:
   *
   * The most seconds one model request may take, from sending it to the end
   * of its answer (retries included), or 0 for no limit. Reaching it fails
   * the turn with %AGENT_ERROR_TIMEOUT; what streamed is kept.
   */
  properties[PROP_STEP_TIMEOUT] =
    g_param_spec_double ("step-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:turn-timeout:
   *
   * The most seconds a whole turn may take (requests and tools), or 0 for
   * no limit. Reaching it stops the turn as a cancellation would, and fails
   * it with %AGENT_ERROR_TIMEOUT.
   */
  properties[PROP_TURN_TIMEOUT] =
    g_param_spec_double ("turn-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
  _agent_session_class_add_limits (object_class, N_PROPS);
  _agent_session_class_add_context (object_class, N_PROPS + AGENT_SESSION_N_LIMIT_PROPS, signals);
  _agent_session_class_add_output (object_class,
                                   N_PROPS + AGENT_SESSION_N_LIMIT_PROPS +
                                   AGENT_SESSION_N_CONTEXT_PROPS,
                                   &signals[AGENT_SESSION_OBJECT_DELTA],
                                   &signals[AGENT_SESSION_OBJECT_FINISHED],
                                   &signals[AGENT_SESSION_CHECK_OUTPUT]);
  _agent_session_class_add_tools (object_class,
                                  N_PROPS + AGENT_SESSION_N_LIMIT_PROPS +
                                  AGENT_SESSION_N_CONTEXT_PROPS + AGENT_SESSION_N_OUTPUT_PROPS,
                                  &signals[AGENT_SESSION_TOOL_FAILED]);
  _agent_session_class_add_notice (object_class, &signals[AGENT_SESSION_NOTICE]);
  _agent_session_class_add_settings (object_class,
                                     N_PROPS + AGENT_SESSION_N_LIMIT_PROPS +
                                     AGENT_SESSION_N_CONTEXT_PROPS + AGENT_SESSION_N_OUTPUT_PROPS +
                                     AGENT_SESSION_N_TOOLS_PROPS);

  /**
   * AgentSession::retry:
   * @self: the session
   * @attempt: the number of the attempt about to be made (1 for the first
   *   retry)
   * @delay: the seconds to wait before it
   * @error: why the last attempt failed
   *
   * Emitted before a request is tried again (see
   * [property@Agent.Provider:max-retries]): nothing of the failed attempt
   * reached the application.
   */
  signals[AGENT_SESSION_RETRY] =
    g_signal_new ("retry",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_ERROR);

  /**
   * AgentSession::check-input:
   * @self: the session
   * @text: what the user is sending
   *
   * A hook that runs before a turn starts, and may refuse the input: a
   * handler that returns a reason stops the turn, which fails with
   * %AGENT_ERROR_HOOK and that reason; nothing is stored or sent. The first
   * handler that gives a reason decides.
   *
   * Returns: (transfer full) (nullable): a reason to refuse, or %NULL
   */
  signals[AGENT_SESSION_CHECK_INPUT] =
    g_signal_new ("check-input",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, first_reason_accumulator, NULL, NULL,
                  G_TYPE_STRING, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AgentSession::prepare-step:
   * @self: the session
   * @request: the request about to be sent
   *
   * A hook that runs before each model request, to inspect or change it:
   * the messages (a copy of the memory), the tools offered (or only some of
   * them: [property@Agent.StepRequest:active-tools]), the system prompt, the
   * model, and the [class@Agent.RequestSettings] (temperature, tool choice,
   * …: the provider's and the session's merged). Changes affect this
   * request only.
   */
  signals[AGENT_SESSION_PREPARE_STEP] =
    g_signal_new ("prepare-step",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_STEP_REQUEST);

  /**
   * AgentSession::check-tool-call:
   * @self: the session
   * @tool_call: a call about to run (or to be asked about)
   *
   * A hook that runs before each tool call and decides whether it may run:
   * a handler returns [ctor@Agent.ToolDecision.new_allow] or
   * [ctor@Agent.ToolDecision.new_block] with a reason. A blocked call's
   * result becomes "Blocked:" and that reason, so the model can adapt; the
   * turn goes on. It runs before the user is asked for approval.
   *
   * The hook fails closed: a handler that returns %NULL blocks the call,
   * and so, in Python and JavaScript, does one that raises an exception or
   * returns a value of another type. Every handler must allow the call; the
   * first that does not decides. Without a handler, calls run.
   *
   * Returns: (transfer full) (nullable): the decision; %NULL blocks the call
   */
  signals[AGENT_SESSION_CHECK_TOOL_CALL] =
    g_signal_new ("check-tool-call",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, all_allow_accumulator, NULL, NULL,
                  AGENT_TYPE_TOOL_DECISION, 1, AGENT_TYPE_TOOL_CALL);

  /**
   * AgentSession::approve-tool-call:
   * @self: the session
   * @tool_call: the call that wants to run
   * @approval: the question to answer, now or later
   *
   * Emitted before a tool that [property@Agent.Tool:requires-approval]
   * runs. A handler that will answer @approval (with
   * [method@Agent.ToolApproval.allow] or [method@Agent.ToolApproval.deny],
   * at once or later) returns %TRUE. If no handler does, the tool does not
   * run.
   *
   * Returns: %TRUE if the handler answers @approval
   */
  signals[AGENT_SESSION_APPROVE_TOOL_CALL] =
    g_signal_new ("approve-tool-call",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 2, AGENT_TYPE_TOOL_CALL, AGENT_TYPE_TOOL_APPROVAL);

  /**
   * AgentSession::filter-tool-result:
   * @self: the session
   * @tool_call: a call, with the [property@Agent.ToolCall:result] its tool
   *   returned
   *
   * A hook that runs after each tool call, before the result is stored and
   * sent to the model: a handler may return a replacement (for example with
   * secrets redacted). The first handler that returns one decides.
   *
   * Returns: (transfer full) (nullable): the result to use instead, or %NULL
   */
  signals[AGENT_SESSION_FILTER_TOOL_RESULT] =
    g_signal_new ("filter-tool-result",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, first_reason_accumulator, NULL, NULL,
                  G_TYPE_STRING, 1, AGENT_TYPE_TOOL_CALL);

  /**
   * AgentSession::tool-progress:
   * @self: the session
   * @tool_call: the running call
   * @fraction: how far it is, from 0 to 1, or -1 if it cannot say
   * @text: (nullable): what it is doing
   *
   * Emitted when a running tool reports progress (see
   * [method@Agent.ToolInvocation.report_progress]); the call's
   * [property@Agent.ToolCall:progress] holds the latest.
   */
  signals[AGENT_SESSION_TOOL_PROGRESS] =
    g_signal_new ("tool-progress",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, AGENT_TYPE_TOOL_CALL, G_TYPE_DOUBLE, G_TYPE_STRING);

  /**
   * AgentSession::turn-finished:
   * @self: the session
   * @message: (nullable): the final assistant message, or %NULL if the turn
   *   failed
   * @error: (nullable): why the turn failed, or %NULL
   * @metrics: the turn's metrics
   *
   * A hook that runs when a turn ends, completed or not, just before the
   * [method@Agent.Session.send_async] callback: for saving, metrics and
   * auditing.
   */
  signals[AGENT_SESSION_TURN_FINISHED] =
    g_signal_new ("turn-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, AGENT_TYPE_MESSAGE, G_TYPE_ERROR, AGENT_TYPE_METRICS);

  /**
   * AgentSession::text-delta:
   * @self: the session
   * @message: the assistant message being streamed
   * @delta: the text just added to its content
   *
   * Emitted as the model's text arrives, in every step.
   */
  signals[AGENT_SESSION_TEXT_DELTA] =
    g_signal_new ("text-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_TEXT_DELTA],
                              G_TYPE_FROM_CLASS (klass),
                              _agent_marshal_VOID__OBJECT_STRINGv);

  /**
   * AgentSession::reasoning-delta:
   * @self: the session
   * @message: the assistant message being streamed
   * @delta: the reasoning text just added
   *
   * Emitted as the model's reasoning ("thinking") arrives, for providers
   * that send it.
   */
  signals[AGENT_SESSION_REASONING_DELTA] =
    g_signal_new ("reasoning-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_REASONING_DELTA],
                              G_TYPE_FROM_CLASS (klass),
                              _agent_marshal_VOID__OBJECT_STRINGv);

  /**
   * AgentSession::tool-call-delta:
   * @self: the session
   * @tool_call: the call being streamed; its id and name as known so far
   * @arguments_delta: the fragment just appended to its arguments (empty
   *   when only the id or name arrived)
   *
   * Emitted as a tool call streams in, only while
   * [property@Agent.Session:stream-tool-call-chunks] is set.
   */
  signals[AGENT_SESSION_TOOL_CALL_DELTA] =
    g_signal_new ("tool-call-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_TOOL_CALL,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_TOOL_CALL_DELTA],
                              G_TYPE_FROM_CLASS (klass),
                              _agent_marshal_VOID__OBJECT_STRINGv);

  /**
   * AgentSession::tool-call:
   * @self: the session
   * @tool_call: a call the model made
   *
   * Emitted for each tool call of an answer, in index order, once the
   * answer's stream has ended and the call is complete.
   */
  signals[AGENT_SESSION_TOOL_CALL] =
    g_signal_new ("tool-call",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_TOOL_CALL],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);

  /**
   * AgentSession::tool-started:
   * @self: the session
   * @tool_call: the call whose tool starts
   *
   * Emitted when the session starts handling a call, before its tool runs.
   * Every call gets one, followed later by
   * [signal@Agent.Session::tool-finished].
   */
  signals[AGENT_SESSION_TOOL_STARTED] =
    g_signal_new ("tool-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_TOOL_STARTED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);

  /**
   * AgentSession::tool-finished:
   * @self: the session
   * @tool_call: the call, with its [property@Agent.ToolCall:result]
   *
   * Emitted when a call has its result: the tool's, or an error (unknown
   * tool, invalid arguments, the tool failed, or it was cancelled).
   */
  signals[AGENT_SESSION_TOOL_FINISHED] =
    g_signal_new ("tool-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_TOOL_FINISHED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);

  /**
   * AgentSession::step-finished:
   * @self: the session
   * @message: the step's complete assistant message
   *
   * Emitted when one request's answer is complete and in memory, with its
   * finish reason and usage.
   */
  signals[AGENT_SESSION_STEP_FINISHED] =
    g_signal_new ("step-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_STEP_FINISHED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);

  /**
   * AgentSession::completed:
   * @self: the session
   * @message: the turn's final assistant message
   *
   * Emitted when a turn completes successfully, just before the
   * [method@Agent.Session.send_async] callback.
   */
  signals[AGENT_SESSION_COMPLETED] =
    g_signal_new ("completed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_COMPLETED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);
}

static void
agent_session_init (AgentSession *self)
{
  self->tools = g_list_store_new (AGENT_TYPE_TOOL);
  self->settings = agent_request_settings_new ();
  self->max_steps = 10;
  _agent_session_init_limits (self);
  _agent_session_init_context (self);
  _agent_session_init_tools (self);
}

/**
 * agent_session_new:
 * @provider: the model server to talk to
 *
 * Creates a session with an empty [class@Agent.SimpleMemory].
 *
 * Returns: (transfer full): a new [class@Agent.Session]
 *
 * Since: 0.1
 */
AgentSession *
agent_session_new (AgentProvider *provider)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);

  return g_object_new (AGENT_TYPE_SESSION, "provider", provider, NULL);
}

/**
 * agent_session_get_provider:
 * @self: a [class@Agent.Session]
 *
 * Gets the session's provider.
 *
 * Returns: (transfer none): the session's provider
 *
 * Since: 0.1
 */
AgentProvider *
agent_session_get_provider (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->provider;
}

/**
 * agent_session_get_memory:
 * @self: a [class@Agent.Session]
 *
 * Gets the conversation's memory.
 *
 * Returns: (transfer none): the conversation's memory
 *
 * Since: 0.1
 */
AgentMemory *
agent_session_get_memory (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->memory;
}

/**
 * agent_session_set_memory:
 * @self: a [class@Agent.Session]
 * @memory: (nullable): a memory, or %NULL for a new empty one
 *
 * Replaces the conversation's memory, for example to continue a stored
 * conversation. It cannot change while a turn runs.
 *
 * Since: 0.1
 */
void
agent_session_set_memory (AgentSession *self,
                          AgentMemory  *memory)
{
  g_autoptr(AgentMemory) new_memory = NULL;

  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (!memory || AGENT_IS_MEMORY (memory));
  g_return_if_fail (self->turn == NULL);

  new_memory = memory ? g_object_ref (memory) : agent_simple_memory_new ();

  if (g_set_object (&self->memory, new_memory))
    {
      self->context_boundary = 0;
      self->context_since = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY]);
    }
}

/**
 * agent_session_get_system_prompt:
 * @self: a [class@Agent.Session]
 *
 * Gets the system prompt.
 *
 * Returns: (nullable): the system prompt
 *
 * Since: 0.1
 */
const char *
agent_session_get_system_prompt (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->system_prompt;
}

/**
 * agent_session_set_system_prompt:
 * @self: a [class@Agent.Session]
 * @system_prompt: (nullable): instructions for the model
 *
 * Sets the instructions sent before the conversation in every request.
 *
 * Since: 0.1
 */
void
agent_session_set_system_prompt (AgentSession *self,
                                 const char   *system_prompt)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (g_strcmp0 (self->system_prompt, system_prompt) != 0)
    {
      g_free (self->system_prompt);
      self->system_prompt = g_strdup (system_prompt);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM_PROMPT]);
    }
}

/**
 * agent_session_get_stream_tool_call_chunks:
 * @self: a [class@Agent.Session]
 *
 * Checks whether tool-call fragments are emitted as they stream.
 *
 * Returns: whether tool-call fragments are emitted as they stream
 *
 * Since: 0.1
 */
gboolean
agent_session_get_stream_tool_call_chunks (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  return self->stream_tool_call_chunks;
}

/**
 * agent_session_set_stream_tool_call_chunks:
 * @self: a [class@Agent.Session]
 * @stream_tool_call_chunks: whether to emit tool-call fragments
 *
 * Sets [property@Agent.Session:stream-tool-call-chunks]. It takes effect
 * at once, even in the middle of a stream.
 *
 * Since: 0.1
 */
void
agent_session_set_stream_tool_call_chunks (AgentSession *self,
                                           gboolean      stream_tool_call_chunks)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  stream_tool_call_chunks = !!stream_tool_call_chunks;

  if (self->stream_tool_call_chunks != stream_tool_call_chunks)
    {
      self->stream_tool_call_chunks = stream_tool_call_chunks;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STREAM_TOOL_CALL_CHUNKS]);
    }
}

/**
 * agent_session_get_max_steps:
 * @self: a [class@Agent.Session]
 *
 * Gets the most requests one turn may make.
 *
 * Returns: the most requests one turn may make
 *
 * Since: 0.1
 */
guint
agent_session_get_max_steps (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_steps;
}

/**
 * agent_session_set_max_steps:
 * @self: a [class@Agent.Session]
 * @max_steps: the most requests one turn may make, at least 1
 *
 * Sets [property@Agent.Session:max-steps].
 *
 * Since: 0.1
 */
void
agent_session_set_max_steps (AgentSession *self,
                             guint         max_steps)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (max_steps > 0);

  if (self->max_steps != max_steps)
    {
      self->max_steps = max_steps;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_STEPS]);
    }
}

/**
 * agent_session_get_max_tool_calls:
 * @self: a [class@Agent.Session]
 *
 * Gets the most tool runs one turn may make, or 0 for no limit.
 *
 * Returns: the most tool runs one turn may make, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_session_get_max_tool_calls (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_tool_calls;
}

/**
 * agent_session_set_max_tool_calls:
 * @self: a [class@Agent.Session]
 * @max_tool_calls: the most tool runs per turn, or 0 for no limit
 *
 * Sets [property@Agent.Session:max-tool-calls].
 *
 * Since: 0.1
 */
void
agent_session_set_max_tool_calls (AgentSession *self,
                                  guint         max_tool_calls)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->max_tool_calls != max_tool_calls)
    {
      self->max_tool_calls = max_tool_calls;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOOL_CALLS]);
    }
}

/**
 * agent_session_get_tool_timeout:
 * @self: a [class@Agent.Session]
 *
 * Gets the most seconds a tool call may run, or 0 for no limit.
 *
 * Returns: the most seconds a tool call may run, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_session_get_tool_timeout (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->tool_timeout;
}

/**
 * agent_session_set_tool_timeout:
 * @self: a [class@Agent.Session]
 * @tool_timeout: the most seconds a tool call may run, or 0 for no limit
 *
 * Sets [property@Agent.Session:tool-timeout].
 *
 * Since: 0.1
 */
void
agent_session_set_tool_timeout (AgentSession *self,
                                double        tool_timeout)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (tool_timeout));

  if (self->tool_timeout != tool_timeout)
    {
      self->tool_timeout = tool_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_TIMEOUT]);
    }
}

/**
 * agent_session_get_step_timeout:
 * @self: a [class@Agent.Session]
 *
 * Gets the seconds of [property@Agent.Session:step-timeout], 0 for no limit.
 *
 * Returns: the seconds of [property@Agent.Session:step-timeout], 0 for no limit
 *
 * Since: 0.1
 */
double
agent_session_get_step_timeout (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->step_timeout;
}

/**
 * agent_session_set_step_timeout:
 * @self: a [class@Agent.Session]
 * @step_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.Session:step-timeout].
 *
 * Since: 0.1
 */
void
agent_session_set_step_timeout (AgentSession *self,
                               double        step_timeout)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (step_timeout));

  if (self->step_timeout != step_timeout)
    {
      self->step_timeout = step_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP_TIMEOUT]);
    }
}

/**
 * agent_session_get_turn_timeout:
 * @self: a [class@Agent.Session]
 *
 * Gets the seconds of [property@Agent.Session:turn-timeout], 0 for no limit.
 *
 * Returns: the seconds of [property@Agent.Session:turn-timeout], 0 for no limit
 *
 * Since: 0.1
 */
double
agent_session_get_turn_timeout (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->turn_timeout;
}

/**
 * agent_session_set_turn_timeout:
 * @self: a [class@Agent.Session]
 * @turn_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.Session:turn-timeout].
 *
 * Since: 0.1
 */
void
agent_session_set_turn_timeout (AgentSession *self,
                               double        turn_timeout)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (turn_timeout));

  if (self->turn_timeout != turn_timeout)
    {
      self->turn_timeout = turn_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TURN_TIMEOUT]);
    }
}

/* The turn (agent-turn.c, agent-turn-tools.c) emits the session's signals
 * through these two. */
void
_agent_session_emit (AgentSession       *self,
                     AgentSessionSignal  signal,
                     ...)
{
  va_list args;

  va_start (args, signal);
  g_signal_emit_valist (self, signals[signal], 0, args);
  va_end (args);
}

gboolean
_agent_session_has_handler (AgentSession       *self,
                            AgentSessionSignal  signal)
{
  return g_signal_has_handler_pending (self, signals[signal], 0, FALSE);
}
