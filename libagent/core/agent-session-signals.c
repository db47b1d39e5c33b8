/* agent-session-signals.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "agent-marshal.h"
#include "core/agent-session-private.h"
#include "core/agent-step-request.h"
#include "tools/agent-tool-approval.h"
#include "tools/agent-tool-decision.h"

/* The signals of AgentSession, with their documentation. The turn (agent-turn.c)
 * emits them through _agent_session_emit(). */

guint _agent_session_signals[AGENT_SESSION_N_SIGNALS];

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

void
_agent_session_class_add_signals (AgentSessionClass *klass)
{
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
  _agent_session_signals[AGENT_SESSION_RETRY] =
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
  _agent_session_signals[AGENT_SESSION_CHECK_INPUT] =
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
   * the messages (a copy of the memory), the tools offered, the system
   * prompt, the model. Changes affect this request only.
   */
  _agent_session_signals[AGENT_SESSION_PREPARE_STEP] =
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
  _agent_session_signals[AGENT_SESSION_CHECK_TOOL_CALL] =
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
  _agent_session_signals[AGENT_SESSION_APPROVE_TOOL_CALL] =
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
  _agent_session_signals[AGENT_SESSION_FILTER_TOOL_RESULT] =
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
  _agent_session_signals[AGENT_SESSION_TOOL_PROGRESS] =
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
  _agent_session_signals[AGENT_SESSION_TURN_FINISHED] =
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
  _agent_session_signals[AGENT_SESSION_TEXT_DELTA] =
    g_signal_new ("text-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_TEXT_DELTA],
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
  _agent_session_signals[AGENT_SESSION_REASONING_DELTA] =
    g_signal_new ("reasoning-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_REASONING_DELTA],
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
  _agent_session_signals[AGENT_SESSION_TOOL_CALL_DELTA] =
    g_signal_new ("tool-call-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_TOOL_CALL,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_TOOL_CALL_DELTA],
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
  _agent_session_signals[AGENT_SESSION_TOOL_CALL] =
    g_signal_new ("tool-call",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_TOOL_CALL],
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
  _agent_session_signals[AGENT_SESSION_TOOL_STARTED] =
    g_signal_new ("tool-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_TOOL_STARTED],
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
  _agent_session_signals[AGENT_SESSION_TOOL_FINISHED] =
    g_signal_new ("tool-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_TOOL_FINISHED],
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
  _agent_session_signals[AGENT_SESSION_STEP_FINISHED] =
    g_signal_new ("step-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_STEP_FINISHED],
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
  _agent_session_signals[AGENT_SESSION_COMPLETED] =
    g_signal_new ("completed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (_agent_session_signals[AGENT_SESSION_COMPLETED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);
}
