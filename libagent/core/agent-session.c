/* agent-session.c — AgentSession: its surface
 *
 * The class's surface is here, all of it: its properties (installed in one
 * properties[] array, notified by pspec), their getters and setters, and
 * its signals, as gnome-text-editor keeps EditorWindow's in
 * editor-window.c and libadwaita AdwTabView's in adw-tab-view.c. That
 * makes this file longer than the others (the documentation of 27
 * properties and 22 signals is most of it); a reader who looks for what a
 * session offers reads one file, and a property is added in one place.
 * The behaviour lives around agent-session-private.h: starting a turn
 * (agent-session-turn.c), the list of tools (agent-session-tools.c), and
 * the turn itself (agent-turn*.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "agent-marshal.h"
#include "agent-util-private.h"
#include "core/agent-output-decision.h"
#include "core/agent-session-private.h"
#include "core/agent-step-request.h"
#include "core/agent-turn-private.h"
#include "json/agent-json-private.h"
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
  PROP_MAX_REQUEST_SIZE,
  PROP_MAX_TURN_SIZE,
  PROP_STALL_TIMEOUT,
  PROP_MAX_ATTACHMENT_SIZE,
  PROP_SCALE_IMAGES,
  PROP_CONTEXT_POLICY,
  PROP_CONTEXT_WINDOW,
  PROP_CONTEXT_USED,
  PROP_CONTEXT_PRESSURE_THRESHOLD,
  PROP_CONTEXT_ESTIMATED,
  PROP_OUTPUT_SCHEMA,
  PROP_VALIDATE_TOOL_ARGUMENTS,
  PROP_SETTINGS,
  N_PROPS
};

#define DEFAULT_MAX_REQUEST_SIZE (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define DEFAULT_MAX_TURN_SIZE (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define DEFAULT_MAX_ATTACHMENT_SIZE (G_GUINT64_CONSTANT (20) * 1024 * 1024)
#define DEFAULT_STALL_TIMEOUT 600.0
#define DEFAULT_CONTEXT_PRESSURE_THRESHOLD 0.8

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


/* Sets context-used and context-estimated, notified together */
static void
set_used (AgentSession *self,
          gint64        tokens,
          gboolean      estimated)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->context_estimated != !!estimated)
    {
      self->context_estimated = !!estimated;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_ESTIMATED]);
    }
  if (self->context_used != tokens)
    {
      self->context_used = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_USED]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}


void
_agent_session_show_context_used (AgentSession *self,
                                  gint64        tokens)
{
  set_used (self, tokens, TRUE);
}


void
_agent_session_set_context_used (AgentSession *self,
                                 gint64        tokens,
                                 gboolean      estimated)
{
  gboolean pressure;

  set_used (self, tokens, estimated);

  pressure = self->context_window > 0 && tokens >= 0 &&
             (double) tokens >= self->context_pressure_threshold * (double) self->context_window;
  if (pressure && !self->context_pressure)
    {
      self->context_pressure = TRUE;
      _agent_session_emit (self, AGENT_SESSION_CONTEXT_PRESSURE, tokens, self->context_window);
    }
  else if (!pressure)
    self->context_pressure = FALSE;
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
  g_clear_object (&self->context_policy);

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

    case PROP_MAX_REQUEST_SIZE:
      g_value_set_uint64 (value, self->max_request_size);
      break;

    case PROP_MAX_TURN_SIZE:
      g_value_set_uint64 (value, self->max_turn_size);
      break;

    case PROP_STALL_TIMEOUT:
      g_value_set_double (value, self->stall_timeout);
      break;

    case PROP_MAX_ATTACHMENT_SIZE:
      g_value_set_uint64 (value, self->max_attachment_size);
      break;

    case PROP_SCALE_IMAGES:
      g_value_set_boolean (value, self->scale_images);
      break;

    case PROP_CONTEXT_POLICY:
      g_value_set_object (value, self->context_policy);
      break;

    case PROP_CONTEXT_WINDOW:
      g_value_set_uint64 (value, self->context_window);
      break;

    case PROP_CONTEXT_USED:
      g_value_set_int64 (value, self->context_used);
      break;

    case PROP_CONTEXT_PRESSURE_THRESHOLD:
      g_value_set_double (value, self->context_pressure_threshold);
      break;

    case PROP_CONTEXT_ESTIMATED:
      g_value_set_boolean (value, self->context_estimated);
      break;

    case PROP_OUTPUT_SCHEMA:
      g_value_set_boxed (value, self->output_schema);
      break;

    case PROP_VALIDATE_TOOL_ARGUMENTS:
      g_value_set_boolean (value, self->validate_tool_arguments);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    default:
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

    case PROP_MAX_REQUEST_SIZE:
      agent_session_set_max_request_size (self, g_value_get_uint64 (value));
      break;

    case PROP_MAX_TURN_SIZE:
      agent_session_set_max_turn_size (self, g_value_get_uint64 (value));
      break;

    case PROP_STALL_TIMEOUT:
      agent_session_set_stall_timeout (self, g_value_get_double (value));
      break;

    case PROP_MAX_ATTACHMENT_SIZE:
      if (self->max_attachment_size != g_value_get_uint64 (value))
        {
          self->max_attachment_size = g_value_get_uint64 (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_SCALE_IMAGES:
      if (self->scale_images != g_value_get_boolean (value))
        {
          self->scale_images = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_CONTEXT_POLICY:
      agent_session_set_context_policy (self, g_value_get_object (value));
      break;

    case PROP_CONTEXT_WINDOW:
      agent_session_set_context_window (self, g_value_get_uint64 (value));
      break;

    case PROP_CONTEXT_PRESSURE_THRESHOLD:
      agent_session_set_context_pressure_threshold (self, g_value_get_double (value));
      break;

    case PROP_OUTPUT_SCHEMA:
      agent_session_set_output_schema (self, g_value_get_boxed (value));
      break;

    case PROP_VALIDATE_TOOL_ARGUMENTS:
      agent_session_set_validate_tool_arguments (self, g_value_get_boolean (value));
      break;

    default:
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


/* For check-output: a guard that fails closed. Every handler must let the
 * answer stand; the first that rejects or replaces it, or gives no
 * decision (returns NULL: in Python or JavaScript, raised or returned
 * something else), decides. */
static gboolean
answer_stands_accumulator (GSignalInvocationHint *hint,
                       GValue                *return_accu,
                       const GValue          *handler_return,
                       gpointer               data)
{
  AgentOutputDecision *decision = g_value_get_object (handler_return);

  g_value_set_object (return_accu, decision);
  return decision != NULL &&
         agent_output_decision_get_verdict (decision) == AGENT_OUTPUT_VERDICT_ALLOW;
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

  /**
   * AgentSession:max-request-size:
   *
   * The most bytes of conversation one request may carry (the system
   * prompt and the messages, as the request is about to be built; then the
   * request body as built), or 0 for no limit. A turn whose next request
   * would be larger fails with %AGENT_ERROR_LIMIT before sending it; the
   * conversation stays as it was. The default, 32 MiB, is beyond what any
   * model reads at once, and keeps a runaway conversation from taking the
   * application's memory.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_REQUEST_SIZE] =
    g_param_spec_uint64 ("max-request-size", NULL, NULL,
                         0, G_MAXUINT64, DEFAULT_MAX_REQUEST_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:max-turn-size:
   *
   * The most bytes one turn may add to the conversation — the text,
   * reasoning and tool-call arguments the model streams in all its steps,
   * and the results of the tools — or 0 for no limit. When an answer
   * crosses it, the step stops and the turn fails with %AGENT_ERROR_LIMIT:
   * the part of the answer that arrived is kept (marked interrupted), as
   * is everything before it. The default is 32 MiB.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_TURN_SIZE] =
    g_param_spec_uint64 ("max-turn-size", NULL, NULL,
                         0, G_MAXUINT64, DEFAULT_MAX_TURN_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:stall-timeout:
   *
   * The most seconds a request may go without bringing new content (text,
   * reasoning, a refusal or tool-call arguments), from the moment it is
   * sent, or 0 for no limit. Unlike the provider's
   * [property@Agent.Provider:idle-timeout], bytes that carry nothing (SSE
   * comments, keep-alive events, a trickle of whitespace) do not count as
   * progress. Reaching it fails the turn with %AGENT_ERROR_TIMEOUT; what
   * streamed is kept. The default, 600 s, ends every request that stopped
   * making progress.
   *
   * Since: 0.1
   */
  properties[PROP_STALL_TIMEOUT] =
    g_param_spec_double ("stall-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, DEFAULT_STALL_TIMEOUT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:max-attachment-size:
   *
   * The most bytes one image or document of the conversation may hold, or
   * 0 for no limit. A turn whose next request would carry a larger one
   * fails with %AGENT_ERROR_LIMIT before anything is sent, naming it; the
   * conversation stays as it was. Attachments count in
   * [property@Agent.Session:max-request-size] too. The default, 20 MiB,
   * is what the largest provider limits allow.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_ATTACHMENT_SIZE] =
    g_param_spec_uint64 ("max-attachment-size", NULL, NULL,
                         0, G_MAXUINT64, DEFAULT_MAX_ATTACHMENT_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:scale-images:
   *
   * Whether images are sent scaled down to the largest size the
   * provider's API documents as useful (OpenAI: within 2048 × 2048 and
   * 768 on the shorter side; Anthropic: 1568 on the longer side and 1.15
   * megapixels; Gemini: 3072 × 3072; Ollama: 2048), which the server
   * would otherwise scale them down to: the same tokens, a fraction of
   * the bytes. An image is scaled once per conversation, on a worker
   * thread before the request is built, and kept with the part (and by
   * an [class@Agent.Store], across a restart); every image and document
   * is encoded in base64 once the same way. An image that cannot be
   * read, or that is larger than %AGENT_CONTENT_PART_MAX_IMAGE_PIXELS, is
   * sent as it is. The attachments in memory are never changed.
   *
   * Since: 0.1
   */
  properties[PROP_SCALE_IMAGES] =
    g_param_spec_boolean ("scale-images", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:context-policy:
   *
   * What the session sends of a conversation that outgrew the model's
   * context window, or %NULL (the default) to send it all, and fail with
   * %AGENT_ERROR_CONTEXT_LENGTH when the server refuses it.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_POLICY] =
    g_param_spec_object ("context-policy", NULL, NULL,
                         AGENT_TYPE_CONTEXT_POLICY,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:context-window:
   *
   * The model's context window in tokens, or 0 if it is not known. An
   * application sets it from a setting, or from the provider's model list
   * ([method@Agent.Provider.fetch_context_window_async]); a server that
   * refuses a request as too long and names its limit sets it too.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_WINDOW] =
    g_param_spec_uint64 ("context-window", NULL, NULL,
                         0, G_MAXUINT64, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:context-used:
   *
   * An estimate of the tokens of the next request, or -1 before the
   * first: the tokens the server reported for the last answer (its prompt
   * and completion), plus the messages added since: their text at 4 bytes
   * a token (a rough rule for English text and code), their images and
   * documents as the provider's API bills them (by the size of an image
   * as it is sent, the pages of a PDF; docs/design.md, "Attachments").
   * Without any usage, the whole conversation is counted that way; and
   * [property@Agent.Session:context-estimated] says whether any of it is
   * an estimate.
   *
   * It is updated before each request, while an answer streams (the
   * request's estimate and the answer's bytes, four times a second at
   * most), when a turn ends, and by
   * [method@Agent.Session.estimate_context_used].
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_USED] =
    g_param_spec_int64 ("context-used", NULL, NULL,
                        -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSession:context-pressure-threshold:
   *
   * The fraction of [property@Agent.Session:context-window] at which
   * [signal@Agent.Session::context-pressure] is emitted, and at which a
   * [class@Agent.ContextPolicy] that compacts on its own compacts.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_PRESSURE_THRESHOLD] =
    g_param_spec_double ("context-pressure-threshold", NULL, NULL,
                         0.0, 1.0, DEFAULT_CONTEXT_PRESSURE_THRESHOLD,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentSession:context-estimated:
   *
   * Whether [property@Agent.Session:context-used] is an estimate, in part
   * or whole, rather than the server's own count of the last request and
   * its answer: %FALSE only when nothing was added since an answer whose
   * usage the server reported. A view says "about" when it is %TRUE.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_ESTIMATED] =
    g_param_spec_boolean ("context-estimated", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

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

  /**
   * AgentSession:settings:
   *
   * What the session's requests ask (temperature, top-p, tool choice,
   * options and headers, …) over the provider's
   * [property@Agent.Provider:settings]: a setting set here wins, one left
   * unset is the provider's. See [class@Agent.RequestSettings];
   * [signal@Agent.Session::prepare-step] sees both merged, and may change
   * them for one request.
   *
   * Since: 0.1
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, AGENT_TYPE_REQUEST_SETTINGS,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentSession::context-pressure:
   * @self: the session
   * @used: the estimate of the next request, in tokens
   * @window: the model's context window, in tokens
   *
   * Emitted when [property@Agent.Session:context-used] crosses
   * [property@Agent.Session:context-pressure-threshold] of a known
   * [property@Agent.Session:context-window] upwards (again only after it
   * went below), before the request: the time to tell the user, or to
   * compact.
   *
   * Since: 0.1
   */
  signals[AGENT_SESSION_CONTEXT_PRESSURE] =
    g_signal_new ("context-pressure",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_UINT64);

  /**
   * AgentSession::compacted:
   * @self: the session
   * @strategy: what was done
   * @start: the memory position of the first message replaced
   * @end: the memory position after the last message replaced
   * @tokens_before: the estimate of the request before, in tokens
   * @tokens_after: the estimate after, in tokens
   * @summary: (nullable): the summary written, now in memory
   *
   * Emitted when the [class@Agent.ContextPolicy] compacted the
   * conversation: from now on, the messages from @start to @end (not
   * included) are sent shortened (tool results), left out, or replaced by
   * @summary. The memory keeps all of them.
   *
   * A summary streams before: the model writes it as any answer, with
   * [signal@Agent.Session::text-delta] for a message that
   * [method@Agent.Message.is_summary], which is the session's
   * [property@Agent.Session:current-message] meanwhile.
   *
   * Since: 0.1
   */
  signals[AGENT_SESSION_COMPACTED] =
    g_signal_new ("compacted",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 6,
                  AGENT_TYPE_CONTEXT_STRATEGY, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_INT64,
                  G_TYPE_INT64, AGENT_TYPE_MESSAGE);

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
  signals[AGENT_SESSION_OBJECT_DELTA] =
    g_signal_new ("object-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_BOXED_BOXED,
                  G_TYPE_NONE, 3,
                  AGENT_TYPE_MESSAGE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_OBJECT_DELTA],
                              G_TYPE_FROM_CLASS (klass),
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
  signals[AGENT_SESSION_OBJECT_FINISHED] =
    g_signal_new ("object-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_BOXED,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  JSON_TYPE_NODE);
  g_signal_set_va_marshaller (signals[AGENT_SESSION_OBJECT_FINISHED],
                              G_TYPE_FROM_CLASS (klass),
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
  signals[AGENT_SESSION_CHECK_OUTPUT] =
    g_signal_new ("check-output",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, answer_stands_accumulator, NULL, NULL,
                  AGENT_TYPE_OUTPUT_DECISION, 1, AGENT_TYPE_MESSAGE);

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
  signals[AGENT_SESSION_TOOL_FAILED] =
    g_signal_new ("tool-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_TOOL_CALL,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AgentSession::notice:
   * @self: the session
   * @code: what it is about, a stable name: `no-tools` (the model cannot
   *   call tools: the turn runs without them)
   * @message: the same in words, for the user
   *
   * Emitted when the session changes what it sends to suit the model, for
   * the application to tell the user.
   *
   * Since: 0.1
   */
  signals[AGENT_SESSION_NOTICE] =
    g_signal_new ("notice",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

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
  self->max_request_size = DEFAULT_MAX_REQUEST_SIZE;
  self->max_turn_size = DEFAULT_MAX_TURN_SIZE;
  self->stall_timeout = DEFAULT_STALL_TIMEOUT;
  self->max_attachment_size = DEFAULT_MAX_ATTACHMENT_SIZE;
  self->scale_images = TRUE;
  self->context_used = -1;
  self->context_estimated = TRUE;
  self->context_pressure_threshold = DEFAULT_CONTEXT_PRESSURE_THRESHOLD;
  self->validate_tool_arguments = TRUE;
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

/**
 * agent_session_get_max_request_size:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:max-request-size].
 *
 * Returns: the most bytes one request may carry, or 0 for no limit
 *
 * Since: 0.1
 */
guint64
agent_session_get_max_request_size (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_request_size;
}


/**
 * agent_session_set_max_request_size:
 * @self: a [class@Agent.Session]
 * @max_request_size: the most bytes one request may carry, or 0 for no limit
 *
 * Sets [property@Agent.Session:max-request-size].
 *
 * Since: 0.1
 */
void
agent_session_set_max_request_size (AgentSession *self,
                                    guint64       max_request_size)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->max_request_size != max_request_size)
    {
      self->max_request_size = max_request_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_REQUEST_SIZE]);
    }
}


/**
 * agent_session_get_max_turn_size:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:max-turn-size].
 *
 * Returns: the most bytes one turn may add, or 0 for no limit
 *
 * Since: 0.1
 */
guint64
agent_session_get_max_turn_size (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_turn_size;
}


/**
 * agent_session_set_max_turn_size:
 * @self: a [class@Agent.Session]
 * @max_turn_size: the most bytes one turn may add, or 0 for no limit
 *
 * Sets [property@Agent.Session:max-turn-size].
 *
 * Since: 0.1
 */
void
agent_session_set_max_turn_size (AgentSession *self,
                                 guint64       max_turn_size)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->max_turn_size != max_turn_size)
    {
      self->max_turn_size = max_turn_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TURN_SIZE]);
    }
}


/**
 * agent_session_get_stall_timeout:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:stall-timeout].
 *
 * Returns: seconds, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_session_get_stall_timeout (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->stall_timeout;
}


/**
 * agent_session_set_stall_timeout:
 * @self: a [class@Agent.Session]
 * @stall_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.Session:stall-timeout].
 *
 * Since: 0.1
 */
void
agent_session_set_stall_timeout (AgentSession *self,
                                 double        stall_timeout)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (stall_timeout));

  if (self->stall_timeout != stall_timeout)
    {
      self->stall_timeout = stall_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALL_TIMEOUT]);
    }
}


/**
 * agent_session_get_turn_metrics:
 * @self: a [class@Agent.Session]
 *
 * Gets the metrics of the last turn that ended.
 *
 * Returns: (transfer none) (nullable): the metrics of the last turn that ended
 *
 * Since: 0.1
 */
AgentMetrics *
agent_session_get_turn_metrics (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->turn_metrics;
}


/**
 * agent_session_get_busy:
 * @self: a [class@Agent.Session]
 *
 * Checks whether a turn is running.
 *
 * Returns: whether a turn is running
 *
 * Since: 0.1
 */
gboolean
agent_session_get_busy (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  return self->turn != NULL;
}


/**
 * agent_session_get_current_message:
 * @self: a [class@Agent.Session]
 *
 * Gets the assistant message being streamed.
 *
 * Returns: (transfer none) (nullable): the assistant message being streamed
 *
 * Since: 0.1
 */
AgentMessage *
agent_session_get_current_message (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->current_message;
}


/**
 * agent_session_get_usage:
 * @self: a [class@Agent.Session]
 *
 * Gets the tokens the last completed turn used, or %NULL when the provider
 * reported none.
 *
 * Returns: (transfer none) (nullable): the tokens the last completed turn
 *   used, or %NULL when the provider reported none
 *
 * Since: 0.1
 */
AgentUsage *
agent_session_get_usage (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->usage;
}


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


/**
 * agent_session_get_context_policy:
 * @self: a [class@Agent.Session]
 *
 * Gets what the session sends of a conversation that outgrew the
 * model's context window.
 *
 * Returns: (transfer none) (nullable): the policy, or %NULL
 *
 * Since: 0.1
 */
AgentContextPolicy *
agent_session_get_context_policy (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->context_policy;
}


/**
 * agent_session_set_context_policy:
 * @self: a [class@Agent.Session]
 * @policy: (nullable): a policy, or %NULL to send everything
 *
 * Sets [property@Agent.Session:context-policy]. It takes effect with the
 * next request.
 *
 * Since: 0.1
 */
void
agent_session_set_context_policy (AgentSession       *self,
                                  AgentContextPolicy *policy)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (!policy || AGENT_IS_CONTEXT_POLICY (policy));

  if (g_set_object (&self->context_policy, policy))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_POLICY]);
}


/**
 * agent_session_get_context_window:
 * @self: a [class@Agent.Session]
 *
 * Gets the model's context window.
 *
 * Returns: the context window in tokens, or 0 if it is not known
 *
 * Since: 0.1
 */
guint64
agent_session_get_context_window (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->context_window;
}


/**
 * agent_session_set_context_window:
 * @self: a [class@Agent.Session]
 * @tokens: the context window in tokens, or 0 if it is not known
 *
 * Sets [property@Agent.Session:context-window].
 *
 * Since: 0.1
 */
void
agent_session_set_context_window (AgentSession *self,
                                  guint64       tokens)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->context_window != tokens)
    {
      self->context_window = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_WINDOW]);
    }
}


/**
 * agent_session_get_context_used:
 * @self: a [class@Agent.Session]
 *
 * Gets the estimate of the next request's tokens (see
 * [property@Agent.Session:context-used]).
 *
 * Returns: the estimate in tokens, or -1 before the first request
 *
 * Since: 0.1
 */
gint64
agent_session_get_context_used (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), -1);
  return self->context_used;
}


/**
 * agent_session_get_context_estimated:
 * @self: a [class@Agent.Session]
 *
 * Gets whether [property@Agent.Session:context-used] is an estimate.
 *
 * Returns: %TRUE unless it is all the server's own count
 *
 * Since: 0.1
 */
gboolean
agent_session_get_context_estimated (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), TRUE);
  return self->context_estimated;
}


/**
 * agent_session_estimate_context_used:
 * @self: a [class@Agent.Session]
 *
 * Estimates [property@Agent.Session:context-used] anew from the memory
 * as it is: after the application showed another conversation
 * ([method@Agent.Session.set_memory]) or changed this one, so that a
 * view shows its size before its next request. An empty memory is -1.
 * The memory is read: a stored conversation not loaded yet is loaded.
 *
 * Since: 0.1
 */
void
agent_session_estimate_context_used (AgentSession *self)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  _agent_session_update_context_used (self);
}


/**
 * agent_session_get_context_pressure_threshold:
 * @self: a [class@Agent.Session]
 *
 * Gets the fraction of the context window at which the session reports
 * pressure and compacts.
 *
 * Returns: a fraction between 0 and 1
 *
 * Since: 0.1
 */
double
agent_session_get_context_pressure_threshold (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), DEFAULT_CONTEXT_PRESSURE_THRESHOLD);
  return self->context_pressure_threshold;
}


/**
 * agent_session_set_context_pressure_threshold:
 * @self: a [class@Agent.Session]
 * @fraction: a fraction between 0 and 1
 *
 * Sets [property@Agent.Session:context-pressure-threshold].
 *
 * Since: 0.1
 */
void
agent_session_set_context_pressure_threshold (AgentSession *self,
                                              double        fraction)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (fraction >= 0.0 && fraction <= 1.0);

  if (self->context_pressure_threshold != fraction)
    {
      self->context_pressure_threshold = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_PRESSURE_THRESHOLD]);
    }
}


/**
 * agent_session_get_settings:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:settings], to change: what the session's
 * requests ask over the provider's settings.
 *
 * Returns: (transfer none): the session's request settings
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_session_get_settings (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->settings;
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
