/* agent-session.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "agent-marshal.h"
#include "agent-message-private.h"
#include "agent-session.h"
#include "agent-step.h"
#include "agent-tool-call-private.h"
#include "agent-tool-invocation.h"

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

typedef struct _Turn Turn;

struct _AgentSession
{
  GObject        parent_instance;
  AgentProvider *provider;
  AgentMemory   *memory;
  GListStore    *tools;
  char          *system_prompt;
  AgentUsage    *usage;
  AgentMessage  *current_message;
  Turn          *turn;
  guint          max_steps;
  guint          stream_tool_call_chunks : 1;
};

struct _Turn
{
  AgentSession  *self;
  GTask         *task;
  GCancellable  *cancellable;
  AgentStep     *step;
  AgentUsage    *usage;
  guint          n_steps;

  /* While tools run */
  AgentMessage  *assistant;
  GPtrArray     *invocations;   /* AgentToolInvocation, or NULL where none ran */
  GSource       *cancel_source;
  guint          n_pending;
  guint          starting_tools : 1;
};

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
  N_PROPS
};

enum {
  TEXT_DELTA,
  REASONING_DELTA,
  TOOL_CALL_DELTA,
  TOOL_CALL,
  TOOL_STARTED,
  TOOL_FINISHED,
  STEP_FINISHED,
  COMPLETED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentSession, agent_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_step (Turn *turn);

static void
turn_free (Turn *turn)
{
  g_assert (turn->cancel_source == NULL);

  g_clear_pointer (&turn->step, agent_step_unref);
  g_clear_pointer (&turn->usage, agent_usage_unref);
  g_clear_pointer (&turn->invocations, g_ptr_array_unref);
  g_clear_object (&turn->assistant);
  g_clear_object (&turn->cancellable);
  g_clear_object (&turn->self);
  g_free (turn);
}

static void
set_current_message (AgentSession *self,
                     AgentMessage *message)
{
  if (g_set_object (&self->current_message, message))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MESSAGE]);
}

/* Ends the turn: the session is free again before the caller hears of it,
 * so that a callback may start the next turn at once. */
static GTask *
end_turn (Turn *turn)
{
  AgentSession *self = turn->self;
  GTask *task = g_steal_pointer (&turn->task);

  g_assert (self->turn == turn);

  if (turn->cancel_source != NULL)
    {
      g_source_destroy (turn->cancel_source);
      g_clear_pointer (&turn->cancel_source, g_source_unref);
    }

  set_current_message (self, NULL);
  self->turn = NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);

  return task;
}

static void
fail_turn (Turn   *turn,
           GError *error)
{
  g_autoptr(GTask) task = NULL;

  g_debug ("Turn failed: %s", error->message);

  task = end_turn (turn);
  g_task_return_error (task, error);
}

static void
complete_turn (Turn         *turn,
               AgentMessage *message)
{
  AgentSession *self = turn->self;
  g_autoptr(GTask) task = NULL;

  g_clear_pointer (&self->usage, agent_usage_unref);
  self->usage = turn->usage ? agent_usage_ref (turn->usage) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USAGE]);

  task = end_turn (turn);
  g_signal_emit (self, signals[COMPLETED], 0, message);
  g_task_return_pointer (task, g_object_ref (message), g_object_unref);
}

static gboolean
append_to_memory (Turn         *turn,
                  AgentMessage *message)
{
  g_autoptr(GError) error = NULL;

  if (agent_memory_append (turn->self->memory, message, &error))
    return TRUE;

  if (error == NULL || error->domain != AGENT_ERROR)
    {
      GError *storage_error;

      storage_error = g_error_new (AGENT_ERROR, AGENT_ERROR_STORAGE,
                                   _("The conversation could not be stored: %s"),
                                   error ? error->message : _("unknown error"));
      g_clear_error (&error);
      error = storage_error;
    }

  fail_turn (turn, g_steal_pointer (&error));
  return FALSE;
}

/* Tools */

static guint
find_invocation (Turn                *turn,
                 AgentToolInvocation *invocation)
{
  for (guint i = 0; i < turn->invocations->len; i++)
    if (g_ptr_array_index (turn->invocations, i) == invocation)
      return i;

  g_return_val_if_reached (G_MAXUINT);
}

static void
finish_call (Turn          *turn,
             AgentToolCall *call,
             const char    *result,
             gboolean       is_error)
{
  _agent_tool_call_set_result (call, result, is_error);
  _agent_tool_call_set_state (call, is_error ? AGENT_TOOL_CALL_STATE_FAILED
                                             : AGENT_TOOL_CALL_STATE_SUCCEEDED);
  g_signal_emit (turn->self, signals[TOOL_FINISHED], 0, call);
}

/* Every call has its result: append them, in call order. Returns FALSE
 * if the memory failed, which ended the turn. */
static gboolean
append_results (Turn *turn)
{
  guint n = agent_message_get_n_tool_calls (turn->assistant);

  if (turn->cancel_source != NULL)
    {
      g_source_destroy (turn->cancel_source);
      g_clear_pointer (&turn->cancel_source, g_source_unref);
    }

  for (guint i = 0; i < n; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (turn->assistant, i);
      g_autoptr(AgentMessage) result = NULL;

      result = agent_message_new_tool_result (agent_tool_call_get_id (call),
                                              agent_tool_call_get_name (call),
                                              agent_tool_call_get_result (call),
                                              agent_tool_call_is_error (call));
      if (!append_to_memory (turn, result))
        return FALSE;
    }

  g_clear_pointer (&turn->invocations, g_ptr_array_unref);
  g_clear_object (&turn->assistant);

  return TRUE;
}

static void
cancel_call (Turn          *turn,
             AgentToolCall *call)
{
  _agent_tool_call_set_result (call, _("The tool was cancelled before it finished"), TRUE);
  _agent_tool_call_set_state (call, AGENT_TOOL_CALL_STATE_CANCELLED);
  g_signal_emit (turn->self, signals[TOOL_FINISHED], 0, call);
}

static void
invocation_completed_cb (AgentToolInvocation *invocation,
                         GParamSpec          *pspec,
                         Turn                *turn)
{
  g_autofree char *result = NULL;
  gboolean is_error = FALSE;
  guint index;

  g_signal_handlers_disconnect_by_func (invocation, invocation_completed_cb, turn);

  index = find_invocation (turn, invocation);
  if (index == G_MAXUINT)
    return;

  result = agent_tool_invocation_dup_result (invocation, &is_error);
  finish_call (turn, agent_tool_invocation_get_tool_call (invocation), result, is_error);

  g_assert (turn->n_pending > 0);
  turn->n_pending--;

  if (turn->n_pending == 0 && !turn->starting_tools && append_results (turn))
    start_step (turn);
}

/* The turn was cancelled while tools ran: the calls still running are
 * answered "cancelled", so the memory never holds unanswered calls. */
static gboolean
tools_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  Turn *turn = user_data;

  for (guint i = 0; i < turn->invocations->len; i++)
    {
      AgentToolInvocation *invocation = g_ptr_array_index (turn->invocations, i);
      AgentToolCall *call;

      if (invocation == NULL)
        continue;

      call = agent_tool_invocation_get_tool_call (invocation);
      if (agent_tool_call_get_state (call) != AGENT_TOOL_CALL_STATE_RUNNING)
        continue;

      g_signal_handlers_disconnect_by_func (invocation, invocation_completed_cb, turn);
      cancel_call (turn, call);
    }

  turn->n_pending = 0;
  g_clear_pointer (&turn->cancel_source, g_source_unref);

  if (append_results (turn))
    fail_turn (turn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                          _("The turn was cancelled")));

  return G_SOURCE_REMOVE;
}

static char *
list_tool_names (AgentSession *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), i);

      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, agent_tool_get_name (tool));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static void
free_invocation (gpointer data)
{
  if (data != NULL)
    g_object_unref (data);
}

static void
run_tools (Turn *turn)
{
  AgentSession *self = turn->self;
  guint n = agent_message_get_n_tool_calls (turn->assistant);

  turn->invocations = g_ptr_array_new_full (n, free_invocation);
  turn->starting_tools = TRUE;

  for (guint i = 0; i < n; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (turn->assistant, i);
      const char *name = agent_tool_call_get_name (call);
      AgentTool *tool = name ? agent_session_lookup_tool (self, name) : NULL;
      AgentToolInvocation *invocation;

      g_ptr_array_add (turn->invocations, NULL);

      _agent_tool_call_set_state (call, AGENT_TOOL_CALL_STATE_RUNNING);
      g_signal_emit (self, signals[TOOL_STARTED], 0, call);

      /* A handler may have cancelled the turn: start nothing more. */
      if (g_cancellable_is_cancelled (turn->cancellable))
        {
          cancel_call (turn, call);
          continue;
        }

      if (tool == NULL)
        {
          g_autofree char *known = list_tool_names (self);
          g_autofree char *message = NULL;

          if (name == NULL)
            message = g_strdup (_("The call names no tool"));
          else if (known[0] == '\0')
            message = g_strdup_printf (_("There is no tool named “%s”; no tools are available"),
                                       name);
          else
            message = g_strdup_printf (_("There is no tool named “%s”; the available tools are: %s"),
                                       name, known);
          finish_call (turn, call, message, TRUE);
          continue;
        }

      invocation = agent_tool_invocation_new (tool, call, turn->cancellable);
      g_ptr_array_index (turn->invocations, i) = invocation;

      if (agent_tool_invocation_is_completed (invocation))
        {
          /* The arguments were not a JSON object: the tool does not run. */
          g_autofree char *message = agent_tool_invocation_dup_result (invocation, NULL);

          finish_call (turn, call, message, TRUE);
          continue;
        }

      turn->n_pending++;
      g_signal_connect (invocation, "notify::completed",
                        G_CALLBACK (invocation_completed_cb), turn);
      agent_tool_invoke (tool, invocation);
    }

  turn->starting_tools = FALSE;

  /* All done already (start_step notices a cancellation). */
  if (turn->n_pending == 0)
    {
      if (append_results (turn))
        start_step (turn);
      return;
    }

  turn->cancel_source = g_cancellable_source_new (turn->cancellable);
  g_source_set_callback (turn->cancel_source, G_SOURCE_FUNC (tools_cancelled_cb), turn, NULL);
  g_source_set_static_name (turn->cancel_source, "[agent-session-tools-cancelled]");
  g_source_attach (turn->cancel_source, g_task_get_context (turn->task));
}

/* Steps */

static void
on_text_delta (gpointer    user_data,
               const char *text,
               gsize       len)
{
  Turn *turn = user_data;
  AgentMessage *message = agent_step_get_message (turn->step);

  _agent_message_notify_content (message);
  g_signal_emit (turn->self, signals[TEXT_DELTA], 0, message, text);
}

static void
on_reasoning_delta (gpointer    user_data,
                    const char *text,
                    gsize       len)
{
  Turn *turn = user_data;
  AgentMessage *message = agent_step_get_message (turn->step);

  _agent_message_notify_reasoning (message);
  g_signal_emit (turn->self, signals[REASONING_DELTA], 0, message, text);
}

static void
on_refusal_delta (gpointer    user_data,
                  const char *text,
                  gsize       len)
{
  Turn *turn = user_data;

  _agent_message_notify_refusal (agent_step_get_message (turn->step));
}

static void
on_tool_call_delta (gpointer       user_data,
                    AgentToolCall *call,
                    const char    *fragment,
                    gsize          len)
{
  Turn *turn = user_data;

  /* The toggle changes what is emitted, never what is stored. */
  if (!turn->self->stream_tool_call_chunks)
    return;

  if (len > 0)
    _agent_tool_call_notify_arguments (call);
  g_signal_emit (turn->self, signals[TOOL_CALL_DELTA], 0, call, fragment);
}

static const AgentAccumulatorListener listener = {
  .text_delta = on_text_delta,
  .reasoning_delta = on_reasoning_delta,
  .refusal_delta = on_refusal_delta,
  .tool_call_delta = on_tool_call_delta,
};

/* Calls the model gave no id get one, so that the results can refer to them. */
static void
ensure_call_ids (Turn         *turn,
                 AgentMessage *message)
{
  guint n = agent_message_get_n_tool_calls (message);

  for (guint i = 0; i < n; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      if (agent_tool_call_get_id (call) == NULL)
        {
          g_autofree char *id = g_strdup_printf ("call_%u_%u", turn->n_steps, i);

          _agent_tool_call_set_id (call, id);
        }
    }
}

static void
step_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Turn *turn = user_data;
  AgentSession *self = turn->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = g_object_ref (agent_step_get_message (turn->step));
  AgentUsage *usage;
  gboolean success;

  /* The message stops being the current one as it goes into memory. */
  success = agent_step_run_finish (turn->step, result, &error);
  set_current_message (self, NULL);

  if (!success)
    {
      g_clear_pointer (&turn->step, agent_step_unref);

      /* What streamed stays, marked interrupted; calls that never ran are
       * dropped so that no call stays unanswered. */
      if (agent_message_get_content (message) != NULL ||
          agent_message_get_reasoning (message) != NULL ||
          agent_message_get_refusal (message) != NULL)
        {
          _agent_message_clear_tool_calls (message);
          _agent_message_set_state (message, AGENT_MESSAGE_STATE_INTERRUPTED);
          if (!append_to_memory (turn, message))
            return;
        }

      fail_turn (turn, g_steal_pointer (&error));
      return;
    }

  g_clear_pointer (&turn->step, agent_step_unref);
  _agent_message_set_state (message, AGENT_MESSAGE_STATE_COMPLETE);

  if ((usage = agent_message_get_usage (message)) != NULL)
    {
      AgentUsage *sum = agent_usage_add (turn->usage, usage);

      g_clear_pointer (&turn->usage, agent_usage_unref);
      turn->usage = sum;
    }

  if (agent_message_get_n_tool_calls (message) == 0)
    {
      if (!append_to_memory (turn, message))
        return;
      g_signal_emit (self, signals[STEP_FINISHED], 0, message);
      complete_turn (turn, message);
      return;
    }

  ensure_call_ids (turn, message);

  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    g_signal_emit (self, signals[TOOL_CALL], 0, agent_message_get_tool_call (message, i));

  /* The assistant message with its calls is in memory before any tool
   * runs, and their results before the next request. */
  if (!append_to_memory (turn, message))
    return;

  g_signal_emit (self, signals[STEP_FINISHED], 0, message);

  turn->assistant = g_steal_pointer (&message);
  run_tools (turn);
}

static void
start_step (Turn *turn)
{
  AgentSession *self = turn->self;
  AgentRequest request = { 0 };

  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      fail_turn (turn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                            _("The turn was cancelled")));
      return;
    }

  if (turn->n_steps >= self->max_steps)
    {
      fail_turn (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 "The model was asked %u time in this turn and "
                                                 "still wants tools; the limit is %u request (max-steps)",
                                                 "The model was asked %u times in this turn and "
                                                 "still wants tools; the limit is %u requests (max-steps)",
                                                 self->max_steps),
                                    turn->n_steps, self->max_steps));
      return;
    }

  turn->n_steps++;

  request.provider = self->provider;
  request.model = agent_provider_get_model (self->provider);
  request.system_prompt = self->system_prompt;
  request.messages = G_LIST_MODEL (self->memory);
  request.tools = G_LIST_MODEL (self->tools);

  turn->step = agent_step_new (self->provider, &listener, turn);
  set_current_message (self, agent_step_get_message (turn->step));
  agent_step_run_async (turn->step, &request, turn->cancellable, step_cb, turn);
}

/* GObject */

static void
agent_session_dispose (GObject *object)
{
  AgentSession *self = (AgentSession *)object;

  /* A running turn holds a reference; we cannot get here while busy. */
  g_assert (self->turn == NULL);

  g_clear_object (&self->provider);
  g_clear_object (&self->memory);
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

    default:
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

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentSession::text-delta:
   * @self: the session
   * @message: the assistant message being streamed
   * @delta: the text just added to its content
   *
   * Emitted as the model's text arrives, in every step.
   */
  signals[TEXT_DELTA] =
    g_signal_new ("text-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[TEXT_DELTA],
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
  signals[REASONING_DELTA] =
    g_signal_new ("reasoning-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_MESSAGE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[REASONING_DELTA],
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
  signals[TOOL_CALL_DELTA] =
    g_signal_new ("tool-call-delta",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  _agent_marshal_VOID__OBJECT_STRING,
                  G_TYPE_NONE, 2,
                  AGENT_TYPE_TOOL_CALL,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[TOOL_CALL_DELTA],
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
  signals[TOOL_CALL] =
    g_signal_new ("tool-call",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[TOOL_CALL],
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
  signals[TOOL_STARTED] =
    g_signal_new ("tool-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[TOOL_STARTED],
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
  signals[TOOL_FINISHED] =
    g_signal_new ("tool-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_TOOL_CALL);
  g_signal_set_va_marshaller (signals[TOOL_FINISHED],
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
  signals[STEP_FINISHED] =
    g_signal_new ("step-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (signals[STEP_FINISHED],
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
  signals[COMPLETED] =
    g_signal_new ("completed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL,
                  g_cclosure_marshal_VOID__OBJECT,
                  G_TYPE_NONE, 1, AGENT_TYPE_MESSAGE);
  g_signal_set_va_marshaller (signals[COMPLETED],
                              G_TYPE_FROM_CLASS (klass),
                              g_cclosure_marshal_VOID__OBJECTv);
}

static void
agent_session_init (AgentSession *self)
{
  self->tools = g_list_store_new (AGENT_TYPE_TOOL);
  self->max_steps = 10;
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
 * Returns: (transfer none): the session's provider
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
 * Returns: (transfer none): the conversation's memory
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
 * Returns: (nullable): the system prompt
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
 * Returns: whether tool-call fragments are emitted as they stream
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
 * Returns: the most requests one turn may make
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
 * agent_session_get_busy:
 * @self: a #AgentSession
 *
 * Returns: whether a turn is running
 */
gboolean
agent_session_get_busy (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), FALSE);
  return self->turn != NULL;
}

/**
 * agent_session_get_current_message:
 * @self: a #AgentSession
 *
 * Returns: (transfer none) (nullable): the assistant message being streamed
 */
AgentMessage *
agent_session_get_current_message (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->current_message;
}

/**
 * agent_session_get_usage:
 * @self: a #AgentSession
 *
 * Returns: (transfer none) (nullable): the tokens the last completed turn
 *   used, or %NULL when the provider reported none
 */
AgentUsage *
agent_session_get_usage (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->usage;
}

/**
 * agent_session_get_tools:
 * @self: a #AgentSession
 *
 * Returns: (transfer none): the tools the model may call, a list of
 *   [class@Agent.Tool]
 */
GListModel *
agent_session_get_tools (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tools);
}

/**
 * agent_session_lookup_tool:
 * @self: a #AgentSession
 * @name: the name of a tool
 *
 * Returns: (transfer none) (nullable): the tool called @name, or %NULL
 */
AgentTool *
agent_session_lookup_tool (AgentSession *self,
                           const char   *name)
{
  guint n;

  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), i);

      if (g_strcmp0 (agent_tool_get_name (tool), name) == 0)
        return tool;  /* the list keeps its reference */
    }

  return NULL;
}

/**
 * agent_session_add_tool:
 * @self: a #AgentSession
 * @tool: a tool the model may call
 *
 * Offers @tool to the model from the next request on. A tool of the same
 * name is replaced.
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

  g_list_store_append (self->tools, tool);
}

/**
 * agent_session_remove_tool:
 * @self: a #AgentSession
 * @tool: a tool
 *
 * Stops offering @tool to the model.
 *
 * Returns: whether @tool was offered
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

  g_list_store_remove (self->tools, position);
  return TRUE;
}

/**
 * agent_session_send_async:
 * @self: a #AgentSession
 * @text: what the user writes
 * @cancellable: (nullable): a #GCancellable to stop the turn
 * @callback: (scope async): called when the turn is over
 * @user_data: data for @callback
 *
 * Runs one turn: appends @text as a user message, streams the answer,
 * runs the tools it asks for and asks again, until the model answers
 * without tools. Call [method@Agent.Session.send_finish] from @callback.
 *
 * A session runs one turn at a time; sending while
 * [property@Agent.Session:busy] fails with %AGENT_ERROR_BUSY.
 *
 * Since: 0.1
 */
void
agent_session_send_async (AgentSession        *self,
                          const char          *text,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(AgentMessage) user_message = NULL;
  Turn *turn;

  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_session_send_async);

  if (self->turn != NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_BUSY,
                               _("The session is already running a turn"));
      return;
    }

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The text to send is not valid UTF-8"));
      return;
    }

  turn = g_new0 (Turn, 1);
  turn->self = g_object_ref (self);
  turn->task = g_object_ref (task);
  turn->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  g_task_set_task_data (task, turn, (GDestroyNotify)turn_free);

  self->turn = turn;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);

  user_message = agent_message_new (AGENT_MESSAGE_ROLE_USER, text);
  if (!append_to_memory (turn, user_message))
    return;

  start_step (turn);
}

/**
 * agent_session_send_finish:
 * @self: a #AgentSession
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes a turn started with [method@Agent.Session.send_async].
 *
 * Returns: (transfer full): the turn's final assistant message, or %NULL
 *   with @error set: %G_IO_ERROR_CANCELLED when cancelled, an
 *   [error@Agent.Error] otherwise
 *
 * Since: 0.1
 */
AgentMessage *
agent_session_send_finish (AgentSession  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_session_send_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
