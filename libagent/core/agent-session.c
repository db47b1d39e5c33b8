/* agent-session.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-session-private.h"
#include "core/agent-turn-private.h"
#include "agent-util-private.h"

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
 * - An unknown tool, or arguments that are not valid JSON, become that
 *   call's error result, sent back so the model can recover.
 * - Cancelling (the #GCancellable of the turn) stops the connection, the
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

  G_OBJECT_CLASS (agent_session_parent_class)->dispose (object);
}

static void
agent_session_finalize (GObject *object)
{
  AgentSession *self = (AgentSession *)object;

  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->usage, agent_usage_unref);
  g_clear_pointer (&self->turn_metrics, agent_metrics_unref);

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
      if (!_agent_session_get_limit_property (self, prop_id, value))
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
      if (!_agent_session_set_limit_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
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

  _agent_session_class_add_signals (klass);
}

static void
agent_session_init (AgentSession *self)
{
  self->tools = g_list_store_new (AGENT_TYPE_TOOL);
  self->max_steps = 10;
  _agent_session_init_limits (self);
}

/**
 * agent_session_new:
 * @provider: the model server to talk to
 *
 * Creates a session with an empty [class@Agent.SimpleMemory].
 *
 * Returns: (transfer full): a new #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY]);
}

/**
 * agent_session_get_system_prompt:
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
 * @self: a #AgentSession
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
