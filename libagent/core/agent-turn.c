/* agent-turn.c — the steps of a turn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "messages/agent-content-part-private.h"
#include "messages/agent-message-private.h"
#include "core/agent-step-request-private.h"
#include "messages/agent-tool-call-private.h"
#include "core/agent-turn-private.h"
#include "core/agent-memory-private.h"
#include "agent-trace-private.h"

static void
caller_cancelled_cb (GCancellable *caller,
                     GCancellable *cancellable)
{
  g_cancellable_cancel (cancellable);
}

/* A limit stops the turn as a cancellation would; the error that ends it
 * is @error instead of the cancellation. The first reason wins. */
static void
stop_turn (AgentTurn *turn,
           GError    *error)
{
  if (turn->stop_error != NULL || g_cancellable_is_cancelled (turn->cancellable))
    {
      g_error_free (error);
      return;
    }

  g_debug ("Turn stopped: %s", error->message);
  turn->stop_error = error;
  g_cancellable_cancel (turn->cancellable);
}

/* The cancellation @error (taken) becomes the limit that caused it */
static GError *
stop_reason (AgentTurn *turn,
             GError    *error)
{
  if (turn->stop_error == NULL || !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  g_error_free (error);
  return g_error_copy (turn->stop_error);
}

static gboolean
turn_timed_out_cb (gpointer data)
{
  AgentTurn *turn = data;

  g_clear_pointer (&turn->timer, g_source_unref);
  stop_turn (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                _("The turn took longer than %g s (turn-timeout)"),
                                turn->session->turn_timeout));

  return G_SOURCE_REMOVE;
}

/* Bounds: max-turn-size and max-request-size */

static inline gsize
text_size (const char *text)
{
  return text != NULL ? strlen (text) : 0;
}

/* The bytes of @message that a request carries */
static guint64
message_size (AgentMessage *message)
{
  guint64 size = text_size (agent_message_get_content (message)) +
                 text_size (agent_message_get_reasoning (message)) +
                 text_size (agent_message_get_refusal (message)) +
                 text_size (agent_message_get_tool_call_id (message)) +
                 text_size (agent_message_get_tool_name (message)) +
                 _agent_message_get_attachments_size (message);
  guint n_calls = agent_message_get_n_tool_calls (message);

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      size += text_size (agent_tool_call_get_id (call)) +
              text_size (agent_tool_call_get_name (call)) +
              text_size (agent_tool_call_get_arguments (call));
    }

  return size;
}

static guint64
messages_size (GListModel *messages,
               guint       from)
{
  guint n = g_list_model_get_n_items (messages);
  guint64 size = 0;

  for (guint i = from; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);

      size += message_size (message);
    }

  return size;
}

static GError *
turn_size_error (AgentTurn *turn)
{
  g_autofree char *limit = g_format_size_full (turn->session->max_turn_size,
                                               G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                      _("The answers and tool results of this turn grew past %s "
                        "(max-turn-size)"),
                      limit);
}

static GError *
request_size_error (guint64 size,
                    guint64 max)
{
  g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit = g_format_size_full (max, G_FORMAT_SIZE_IEC_UNITS);

  return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                      _("The conversation is too large to send: the next request would carry "
                        "%s, more than %s (max-request-size)"),
                      size_text, limit);
}

/* max-attachment-size: the first image or document of @message larger
 * than @max, as an error naming it, or NULL */
static GError *
message_attachment_size_error (AgentMessage *message,
                               guint64       max)
{
  guint n_attachments = agent_message_get_n_attachments (message);

  for (guint j = 0; j < n_attachments; j++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, j);
      guint64 size = agent_content_part_get_size (part);

      if (size > max)
        {
          g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
          g_autofree char *limit = g_format_size_full (max, G_FORMAT_SIZE_IEC_UNITS);
          const char *name = agent_content_part_get_name (part);

          return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                              _("The attachment %s (%s) is too large to send: %s, more "
                                "than %s (max-attachment-size)"),
                              name != NULL ? name : "", agent_content_part_get_mime_type (part),
                              size_text, limit);
        }
    }

  return NULL;
}

/* The same, of any message of @messages */
static GError *
attachment_size_error (GListModel *messages,
                       guint64     max)
{
  guint n = g_list_model_get_n_items (messages);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);
      GError *error = message_attachment_size_error (message, max);

      if (error != NULL)
        return error;
    }

  return NULL;
}

static gboolean
turn_too_large (AgentTurn *turn)
{
  guint64 limit = turn->session->max_turn_size;

  return limit > 0 && turn->size + turn->step_size > limit;
}

/* Stall-timeout: the step brought no new content for too long */

static void
stop_stall_timer (AgentTurn *turn)
{
  if (turn->stall_timer != NULL)
    {
      g_source_destroy (turn->stall_timer);
      g_clear_pointer (&turn->stall_timer, g_source_unref);
    }
}

static gboolean stall_cb (gpointer data);

static void
start_stall_timer (AgentTurn *turn,
                   double     seconds)
{
  stop_stall_timer (turn);
  turn->stall_timer = g_timeout_source_new ((guint) MIN (ceil (seconds * 1000), G_MAXUINT));
  g_source_set_callback (turn->stall_timer, stall_cb, turn, NULL);
  g_source_set_static_name (turn->stall_timer, "[agent-turn-stall]");
  g_source_attach (turn->stall_timer, g_task_get_context (turn->task));
}

static gboolean
stall_cb (gpointer data)
{
  AgentTurn *turn = data;
  double limit = turn->session->stall_timeout;
  g_autoptr(GUri) uri = NULL;
  gint64 sent_at = 0;
  gint64 since;
  gint64 now = g_get_monotonic_time ();

  g_clear_pointer (&turn->stall_timer, g_source_unref);

  if (turn->step == NULL || limit <= 0)
    return G_SOURCE_REMOVE;

  /* Waiting for a request slot is nobody's stall: the clock starts when
   * the request goes out, and starts again with each delta. */
  agent_step_get_timing (turn->step, NULL, &sent_at);
  since = MAX (MAX (sent_at, turn->last_delta_at), turn->step_started_at);
  if (sent_at == 0 || now - since < (gint64) (limit * G_USEC_PER_SEC))
    {
      start_stall_timer (turn, sent_at == 0 ? limit
                                            : (since - now) / (double) G_USEC_PER_SEC + limit);
      return G_SOURCE_REMOVE;
    }

  uri = g_uri_parse (agent_provider_get_base_url (turn->session->provider), G_URI_FLAGS_NONE,
                     NULL);
  stop_turn (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                                _("%s sent no new content for %g s (stall-timeout)"),
                                uri && g_uri_get_host (uri) ? g_uri_get_host (uri)
                                                            : _("The server"),
                                limit));
  return G_SOURCE_REMOVE;
}

AgentTurn *
_agent_turn_new (AgentSession *session,
                 GTask        *task,
                 GCancellable *cancellable)
{
  AgentTurn *turn = g_new0 (AgentTurn, 1);

  turn->session = g_object_ref (session);
  turn->task = g_object_ref (task);
  turn->cancellable = g_cancellable_new ();
  turn->started_at = g_get_monotonic_time ();
  turn->trace_turn = _agent_trace_begin ();
  turn->totals.time_to_first_token = -1;
  turn->context_request = -1;

  /* The caller's cancellable cancels the turn's own */
  if (cancellable != NULL)
    {
      turn->caller_cancellable = g_object_ref (cancellable);
      turn->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                         G_CALLBACK (caller_cancelled_cb),
                                                         g_object_ref (turn->cancellable),
                                                         g_object_unref);
    }

  if (session->turn_timeout > 0)
    {
      turn->timer = g_timeout_source_new ((guint) MIN (session->turn_timeout * 1000, G_MAXUINT));
      g_source_set_callback (turn->timer, turn_timed_out_cb, turn, NULL);
      g_source_set_static_name (turn->timer, "[agent-turn-timeout]");
      g_source_attach (turn->timer, g_task_get_context (task));
    }

  return turn;
}

/* Cancels the turn as the caller's cancellable would. */
void
_agent_turn_cancel (AgentTurn *turn)
{
  g_cancellable_cancel (turn->cancellable);
}

void
_agent_turn_free (AgentTurn *turn)
{
  g_assert (turn->cancel_source == NULL);
  g_assert (turn->timer == NULL);
  g_assert (turn->stall_timer == NULL);
  g_assert (turn->caller_cancelled_id == 0);

  _agent_turn_output_clear (turn);
  g_clear_pointer (&turn->step, agent_step_unref);
  g_clear_pointer (&turn->totals.usage, agent_usage_unref);
  g_clear_pointer (&turn->calls, g_ptr_array_unref);
  g_clear_object (&turn->assistant);
  g_clear_object (&turn->view);
  g_clear_error (&turn->context_error);
  g_clear_object (&turn->cancellable);
  g_clear_object (&turn->caller_cancellable);
  g_clear_object (&turn->session);
  g_clear_error (&turn->stop_error);
  g_free (turn);
}

static AgentMetrics *
turn_metrics (AgentTurn *turn)
{
  AgentMetrics values = turn->totals;

  values.duration = g_get_monotonic_time () - turn->started_at;
  return _agent_metrics_new (&values);
}

/* Ends the turn: the session is free again before the caller hears of it,
 * so that a callback may start the next turn at once. */
static GTask *
end_turn (AgentTurn    *turn,
          AgentMessage *message,
          const GError *error)
{
  g_autoptr(AgentMetrics) metrics = turn_metrics (turn);
  GTask *task = g_steal_pointer (&turn->task);

  if (turn->timer != NULL)
    {
      g_source_destroy (turn->timer);
      g_clear_pointer (&turn->timer, g_source_unref);
    }
  stop_stall_timer (turn);
  if (turn->caller_cancelled_id != 0)
    {
      g_cancellable_disconnect (turn->caller_cancellable, turn->caller_cancelled_id);
      turn->caller_cancelled_id = 0;
    }

  _agent_turn_stop_tools (turn);
  _agent_session_set_current_message (turn->session, NULL);
  if (message != NULL)
    {
      _agent_message_set_turn_metrics (message, metrics);
      _agent_session_set_usage (turn->session, turn->totals.usage);
    }
  _agent_session_set_turn_metrics (turn->session, metrics);
  _agent_trace_end (turn->trace_turn, "libagent", "turn", "%s, %u steps, %u tools%s%s",
                    agent_provider_get_model (turn->session->provider), turn->totals.steps,
                    turn->n_runs, error != NULL ? ": " : "", error != NULL ? error->message : "");
  _agent_session_update_context_used (turn->session);
  _agent_session_set_turn (turn->session, NULL);

  _agent_session_emit (turn->session, AGENT_SESSION_TURN_FINISHED, message, error, metrics);

  return task;
}

void
_agent_turn_fail (AgentTurn *turn,
                  GError    *error)
{
  g_autoptr(GTask) task = NULL;

  /* A limit (turn-timeout, stall-timeout, max-turn-size) stopped the turn
   * as a cancellation would */
  error = stop_reason (turn, error);

  g_debug ("Turn failed: %s", error->message);

  task = end_turn (turn, NULL, error);
  g_task_return_error (task, error);
}

void
_agent_turn_complete (AgentTurn    *turn,
                      AgentMessage *message)
{
  g_autoptr(GTask) task = NULL;

  task = end_turn (turn, message, NULL);
  _agent_session_emit (turn->session, AGENT_SESSION_COMPLETED, message);
  g_task_return_pointer (task, g_object_ref (message), g_object_unref);
}

/* Returns FALSE if the memory failed, which ended the turn. */
gboolean
_agent_turn_append (AgentTurn    *turn,
                    AgentMessage *message)
{
  g_autoptr(GError) error = NULL;

  if (agent_memory_append (turn->session->memory, message, &error))
    {
      /* Once in memory, the message stops being the current one: a
       * transcript sees it move from one to the other without a gap. */
      if (message == turn->session->current_message)
        _agent_session_set_current_message (turn->session, NULL);
      return TRUE;
    }

  if (error == NULL || error->domain != AGENT_ERROR)
    {
      GError *storage_error;

      storage_error = g_error_new (AGENT_ERROR, AGENT_ERROR_STORAGE,
                                   _("The conversation could not be stored: %s"),
                                   error ? error->message : _("unknown error"));
      g_clear_error (&error);
      error = storage_error;
    }

  _agent_turn_fail (turn, g_steal_pointer (&error));
  return FALSE;
}

/* Deltas, as the stream brings them */

static inline void
note_delta (AgentTurn *turn,
            gsize      len)
{
  /* When its bytes came, which the step noted */
  gint64 now = agent_step_get_read_time (turn->step);

  if (turn->first_delta_at == 0)
    turn->first_delta_at = now;
  turn->last_delta_at = now;

  turn->step_size += len;
  _agent_turn_context_streamed (turn, now);
}

/* After the delta was shown: it is in the message, and kept */
static inline void
check_turn_size (AgentTurn *turn)
{
  if (G_UNLIKELY (turn_too_large (turn)))
    stop_turn (turn, turn_size_error (turn));
}

static void
on_text_delta (gpointer    user_data,
               const char *text,
               gsize       len)
{
  AgentTurn *turn = user_data;
  AgentMessage *message = agent_step_get_message (turn->step);

  note_delta (turn, len);
  _agent_message_notify_content (message);
  _agent_session_emit (turn->session, AGENT_SESSION_TEXT_DELTA, message, text);
  _agent_turn_output_text_delta (turn, message, text, len);
  check_turn_size (turn);
}

static void
on_reasoning_delta (gpointer    user_data,
                    const char *text,
                    gsize       len)
{
  AgentTurn *turn = user_data;
  AgentMessage *message = agent_step_get_message (turn->step);

  note_delta (turn, len);
  _agent_message_notify_reasoning (message);
  _agent_session_emit (turn->session, AGENT_SESSION_REASONING_DELTA, message, text);
  check_turn_size (turn);
}

static void
on_refusal_delta (gpointer    user_data,
                  const char *text,
                  gsize       len)
{
  AgentTurn *turn = user_data;

  note_delta (turn, len);
  _agent_message_notify_refusal (agent_step_get_message (turn->step));
  check_turn_size (turn);
}

static void
on_tool_call_delta (gpointer       user_data,
                    AgentToolCall *call,
                    const char    *fragment,
                    gsize          len)
{
  AgentTurn *turn = user_data;

  note_delta (turn, len);
  check_turn_size (turn);
  _agent_turn_output_call_delta (turn, agent_step_get_message (turn->step), call, fragment, len);

  /* The toggle changes what is emitted, never what is stored. */
  if (!turn->session->stream_tool_call_chunks)
    return;

  if (len > 0)
    _agent_tool_call_notify_arguments (call);
  _agent_session_emit (turn->session, AGENT_SESSION_TOOL_CALL_DELTA, call, fragment);
}

static void
on_retry (gpointer      user_data,
          guint         attempt,
          double        delay,
          const GError *error)
{
  AgentTurn *turn = user_data;

  _agent_session_emit (turn->session, AGENT_SESSION_RETRY, attempt, delay, error);
}

const AgentAccumulatorListener _agent_turn_listener = {
  .text_delta = on_text_delta,
  .reasoning_delta = on_reasoning_delta,
  .refusal_delta = on_refusal_delta,
  .tool_call_delta = on_tool_call_delta,
};

/* Calls the model gave no id get one, so that the results can refer to them. */
static void
ensure_call_ids (AgentTurn    *turn,
                 AgentMessage *message)
{
  guint n = agent_message_get_n_tool_calls (message);

  for (guint i = 0; i < n; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      if (agent_tool_call_get_id (call) == NULL)
        {
          g_autofree char *id = g_strdup_printf ("call_%u_%u", turn->totals.steps, i);

          _agent_tool_call_set_id (call, id);
        }
    }
}

/* The step's metrics, added to the turn's. */
static void
account_step (AgentTurn    *turn,
              AgentStep    *step,
              AgentMessage *message)
{
  AgentMetrics values = { 0 };
  g_autoptr(AgentMetrics) metrics = NULL;
  gint64 sent_at;

  agent_step_get_timing (step, &values.wait_time, &sent_at);
  values.steps = 1;
  values.duration = sent_at != 0 ? g_get_monotonic_time () - sent_at : 0;
  values.time_to_first_token = (sent_at != 0 && turn->first_delta_at != 0)
                             ? turn->first_delta_at - sent_at : -1;
  values.generation_time = turn->last_delta_at - turn->first_delta_at;
  values.usage = agent_message_get_usage (message);
  values.tool_calls = agent_message_get_n_tool_calls (message);

  metrics = _agent_metrics_new (&values);
  _agent_message_set_metrics (message, metrics);

  turn->totals.steps++;
  turn->totals.wait_time += values.wait_time;
  turn->totals.generation_time += values.generation_time;
  if (turn->totals.time_to_first_token < 0)
    turn->totals.time_to_first_token = values.time_to_first_token;
  if (values.usage != NULL)
    {
      AgentUsage *sum = agent_usage_add (turn->totals.usage, values.usage);

      g_clear_pointer (&turn->totals.usage, agent_usage_unref);
      turn->totals.usage = sum;
    }

  turn->first_delta_at = turn->last_delta_at = 0;
}

static gboolean
is_empty (const char *text)
{
  return text == NULL || *text == '\0';
}

/* The step's stream failed or was cancelled. What streamed stays, marked
 * interrupted; calls that never ran are dropped so that none stays
 * unanswered. */
static void
step_failed (AgentTurn    *turn,
             AgentMessage *message,
             GError       *error)
{
  if (!is_empty (agent_message_get_content (message)) ||
      !is_empty (agent_message_get_reasoning (message)) ||
      !is_empty (agent_message_get_refusal (message)))
    {
      /* The error says what happened to what arrived */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          char *message_text = g_strdup_printf (_("%s (the part of the answer that arrived "
                                                  "is kept)"),
                                                error->message);

          g_free (error->message);
          error->message = message_text;
        }

      _agent_message_clear_tool_calls (message);
      _agent_message_set_state (message, AGENT_MESSAGE_STATE_INTERRUPTED);
      if (!_agent_turn_append (turn, message))
        {
          g_error_free (error);
          return;
        }
    }

  _agent_turn_fail (turn, error);
}

/* The finish reasons (of every provider) that say the answer was cut off
 * or filtered: a tool call in it may be truncated, and must not run. */
static GError *
check_finish_reason (AgentMessage *message)
{
  static const char * const cut_off[] = { "length", "max_tokens", "MAX_TOKENS", NULL };
  static const char * const filtered[] = { "content_filter", "SAFETY", "RECITATION",
                                           "PROHIBITED_CONTENT", "refusal", NULL };
  const char *reason = agent_message_get_finish_reason (message);

  if (reason == NULL)
    return NULL;

  if (g_strv_contains (cut_off, reason))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                        _("The model's answer was cut off (finish reason “%s”) while it was "
                          "writing tool calls; they were not run"),
                        reason);

  if (g_strv_contains (filtered, reason))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_PROVIDER,
                        _("The provider filtered the model's answer (finish reason “%s”); "
                          "its tool calls were not run"),
                        reason);

  return NULL;
}

static void
step_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AgentTurn *turn = user_data;
  g_autoptr(AgentStep) step = g_steal_pointer (&turn->step);
  g_autoptr(AgentMessage) message = g_object_ref (agent_step_get_message (step));
  GError *error = NULL;
  gboolean success;

  success = agent_step_run_finish (step, result, &error);
  _agent_trace_end (turn->trace_step, "libagent", "step", "step %u, %u tool calls%s%s",
                    turn->totals.steps + 1, agent_message_get_n_tool_calls (message),
                    error != NULL ? ": " : "", error != NULL ? error->message : "");
  account_step (turn, step, message);
  stop_stall_timer (turn);
  _agent_turn_output_flush (turn, message);
  turn->size += turn->step_size;
  turn->step_size = 0;

  /* The message stays the current one until it is in memory (see
   * _agent_turn_append()) or the turn ends without it. */
  /* A limit may have stopped the turn after the last bytes of a whole
   * answer came: it still holds */
  if (success && turn->stop_error != NULL)
    {
      success = FALSE;
      error = g_error_copy (turn->stop_error);
    }

  if (!success)
    {
      error = _agent_turn_output_explain (turn, stop_reason (turn, error));
      /* Too long for the model: compacted and sent again, once */
      if (_agent_turn_context_retry (turn, message, error))
        return;
      step_failed (turn, message, error);
      return;
    }

  _agent_message_set_state (message, AGENT_MESSAGE_STATE_COMPLETE);
  _agent_turn_output_take_call (turn, message);

  if (agent_message_get_n_tool_calls (message) == 0)
    {
      /* The output guard first: a rejected answer is not kept */
      if (!_agent_turn_check_output (turn, message, &error))
        {
          _agent_turn_fail (turn, error);
          return;
        }

      /* An answer that was to follow a schema and does not stays in the
       * conversation as it came; the turn fails saying why */
      error = _agent_turn_output_finish (turn, message);
      if (!_agent_turn_append (turn, message))
        {
          g_clear_error (&error);
          return;
        }
      if (error != NULL)
        {
          _agent_turn_fail (turn, error);
          return;
        }
      _agent_session_emit (turn->session, AGENT_SESSION_STEP_FINISHED, message);
      _agent_turn_complete (turn, message);
      return;
    }

  if ((error = check_finish_reason (message)) != NULL)
    {
      step_failed (turn, message, error);
      return;
    }

  ensure_call_ids (turn, message);

  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    _agent_session_emit (turn->session, AGENT_SESSION_TOOL_CALL,
                         agent_message_get_tool_call (message, i));

  /* The assistant message with its calls is in memory before any tool
   * runs, and their results before the next request. */
  if (!_agent_turn_append (turn, message))
    return;

  _agent_session_emit (turn->session, AGENT_SESSION_STEP_FINISHED, message);

  _agent_turn_run_tools (turn, message);
}

static void
send_step (AgentTurn *turn)
{
  AgentSession *session = turn->session;
  g_autoptr(AgentStepRequest) prepared = NULL;
  g_autoptr(AgentRequestSettings) settings = NULL;
  g_autoptr(GListModel) active_tools = NULL;
  AgentRequest request = { 0 };

  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      _agent_turn_fail (turn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                   _("The turn was cancelled")));
      return;
    }

  if (turn->totals.steps >= session->max_steps)
    {
      _agent_turn_fail (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                           g_dngettext (GETTEXT_PACKAGE,
                                                        "The model was asked %u time in this turn and "
                                                        "still wants tools; the limit is %u request (max-steps)",
                                                        "The model was asked %u times in this turn and "
                                                        "still wants tools; the limit is %u requests (max-steps)",
                                                        session->max_steps),
                                           turn->totals.steps, session->max_steps));
      return;
    }

  /* What the turn added so far: its answers and the tools' results */
  turn->size = messages_size (G_LIST_MODEL (session->memory), turn->first_new);
  turn->step_size = 0;
  if (turn_too_large (turn))
    {
      _agent_turn_fail (turn, turn_size_error (turn));
      return;
    }

  /* A context policy's view of the memory; it may first have the model
   * write a summary, which comes back here */
  if (!_agent_turn_prepare_view (turn))
    return;
  turn->summarized = FALSE;

  request.provider = session->provider;
  request.model = agent_provider_get_model (session->provider);
  request.system_prompt = session->system_prompt;
  request.messages = turn->view ? G_LIST_MODEL (turn->view) : G_LIST_MODEL (session->memory);
  request.tools = G_LIST_MODEL (session->tools);
  /* The provider's settings, the session's over them */
  request.settings = settings = _agent_session_dup_request_settings (session);
  request.context_window = session->context_window;
  request.scale_images = _agent_session_get_scale_images (session);
  _agent_turn_output_prepare (turn, &request);

  /* The prepare-step hook sees (and may change) a copy; without a handler
   * the memory is read as it is. */
  if (_agent_session_has_handler (session, AGENT_SESSION_PREPARE_STEP))
    {
      GError *tools_error = NULL;

      prepared = _agent_step_request_new (turn->totals.steps + 1, request.messages, request.tools,
                                          request.system_prompt, request.model, settings);
      _agent_session_emit (session, AGENT_SESSION_PREPARE_STEP, prepared);

      request.model = agent_step_request_get_model (prepared);
      request.system_prompt = agent_step_request_get_system_prompt (prepared);
      request.messages = G_LIST_MODEL (agent_step_request_get_messages (prepared));
      if (!(active_tools = _agent_step_request_active_tools (prepared, &tools_error)))
        {
          _agent_turn_fail (turn, tools_error);
          return;
        }
      request.tools = active_tools;
    }

  /* What the model cannot take is not sent (Ollama) */
  _agent_turn_gate_request (turn, &request);

  /* Refused before the request is built: building it would take as much
   * memory again */
  if (session->max_attachment_size > 0)
    {
      GError *attachment_error = attachment_size_error (request.messages,
                                                        session->max_attachment_size);

      if (attachment_error != NULL)
        {
          _agent_turn_fail (turn, attachment_error);
          return;
        }
    }
  if (session->max_request_size > 0)
    {
      guint64 size = text_size (request.system_prompt) + messages_size (request.messages, 0);

      if (size > session->max_request_size)
        {
          _agent_turn_fail (turn, request_size_error (size, session->max_request_size));
          return;
        }
    }

  turn->step = agent_step_new (session->provider, request.settings, &_agent_turn_listener, turn);
  turn->step_started_at = g_get_monotonic_time ();
  turn->trace_step = _agent_trace_begin ();
  agent_step_set_timeout (turn->step, session->step_timeout);
  agent_step_set_max_request_size (turn->step, session->max_request_size);
  if (session->stall_timeout > 0)
    start_stall_timer (turn, session->stall_timeout);
  agent_step_set_retry_func (turn->step, on_retry, turn);
  _agent_session_set_current_message (session, agent_step_get_message (turn->step));
  agent_step_run_async (turn->step, &request, turn->cancellable, step_cb, turn);
}

static void
memory_synced_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  AgentTurn *turn = user_data;
  GError *error = NULL;

  if (agent_memory_sync_finish (AGENT_MEMORY (object), result, &error))
    send_step (turn);
  else
    _agent_turn_fail (turn, error);
}

/* What the model is about to see is kept before it is sent, so that a
 * crash loses at most the answer being streamed: a memory that writes
 * after append returned (on a thread of its own) is awaited, without
 * blocking the main context. */
static void
sync_memory (AgentTurn *turn)
{
  AgentMemory *memory = turn->session->memory;

  if (_agent_memory_syncs_later (memory))
    agent_memory_sync_async (memory, turn->cancellable, memory_synced_cb, turn);
  else
    send_step (turn);
}

/* What would be refused before any request is sent, because of the user's
 * message itself, refuses it before it is kept: the memory (a store, a
 * file) never holds what was never sent, and the next turn does not fail
 * the same way. An attachment of a type the provider does not take, one
 * over max-attachment-size, a message larger than max-request-size. */
static GError *
check_input (AgentTurn    *turn,
             AgentMessage *message)
{
  AgentSession *session = turn->session;
  const AgentProviderBackend *backend = _agent_provider_get_backend (session->provider);
  guint n_attachments = agent_message_get_n_attachments (message);
  guint64 size;

  for (guint i = 0; i < n_attachments && backend->accepts_part != NULL; i++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, i);

      if (!backend->accepts_part (part, AGENT_MESSAGE_ROLE_USER))
        return _agent_content_part_unsupported (part, backend->parts_name);
    }

  if (session->max_attachment_size > 0 && n_attachments > 0)
    {
      GError *error = message_attachment_size_error (message, session->max_attachment_size);

      if (error != NULL)
        return error;
    }

  size = text_size (session->system_prompt) + message_size (message);
  if (session->max_request_size > 0 && size > session->max_request_size)
    return request_size_error (size, session->max_request_size);

  return NULL;
}

static void
parts_prepared_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  sync_memory (user_data);
}

/* The attachments first (agent-turn-parts.c), then the memory */
void
_agent_turn_next_step (AgentTurn *turn)
{
  if (!_agent_turn_prepare_parts (turn, parts_prepared_cb))
    sync_memory (turn);
}

void
_agent_turn_start (AgentTurn    *turn,
                   const char   *text,
                   AgentMessage *message)
{
  g_autoptr(AgentMessage) user_message = NULL;
  g_autofree char *refusal = NULL;
  GError *error;

  /* A message with parts: its text goes through the hook */
  if (message != NULL)
    text = agent_message_get_content (message) ? agent_message_get_content (message) : "";

  /* Continuing from the memory as it is */
  if (text == NULL)
    {
      turn->first_new = g_list_model_get_n_items (G_LIST_MODEL (turn->session->memory));
      _agent_turn_next_step (turn);
      return;
    }

  /* The check-input hook may refuse: then nothing is stored or sent. */
  _agent_session_emit (turn->session, AGENT_SESSION_CHECK_INPUT, text, &refusal);
  if (refusal != NULL)
    {
      _agent_turn_fail (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_HOOK,
                                           _("The input was refused: %s"), refusal));
      return;
    }

  user_message = message != NULL ? g_object_ref (message)
                                 : agent_message_new (AGENT_MESSAGE_ROLE_USER, text);
  if ((error = check_input (turn, user_message)) != NULL)
    {
      _agent_turn_fail (turn, error);
      return;
    }
  if (_agent_turn_append (turn, user_message))
    {
      turn->first_new = g_list_model_get_n_items (G_LIST_MODEL (turn->session->memory));
      _agent_turn_next_step (turn);
    }
}
