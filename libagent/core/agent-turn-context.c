/* agent-turn-context.c — what a step sends when the session has a
 * context policy, and compacting when the conversation outgrew the window
 *
 * Before each request, the memory becomes a view: its last summary in
 * place of the messages it replaces, and the cuts of the policy (shortened
 * tool results, turns left out) before the session's boundary. When the
 * estimate of the view crosses the threshold of a known window, or the
 * server refused the last request as too long, the boundary moves to the
 * start of the last keep-turns turns; with the summarize strategy, the
 * model first writes a summary of what is before it (a step of its own,
 * streamed as any answer), which goes into the memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-context-policy-private.h"
#include "messages/agent-message-private.h"
#include "core/agent-turn-private.h"
#include "agent-trace-private.h"

/* How often context-used follows a streaming answer: µs */
#define CONTEXT_STREAM_INTERVAL (G_USEC_PER_SEC / 4)

typedef struct
{
  GPtrArray *messages;
  GArray    *positions;
  guint      summary_position;
} View;

static void
view_init (View       *view,
           GListModel *memory)
{
  view->messages = g_ptr_array_new_with_free_func (g_object_unref);
  view->positions = g_array_new (FALSE, FALSE, sizeof (guint));
  _agent_context_base (memory, view->messages, view->positions, &view->summary_position);
}

static void
view_copy (View       *view,
           const View *from)
{
  view->messages = g_ptr_array_copy (from->messages, (GCopyFunc) (void (*) (void)) g_object_ref,
                                     NULL);
  g_ptr_array_set_free_func (view->messages, g_object_unref);
  view->positions = g_array_copy (from->positions);
  view->summary_position = from->summary_position;
}

static void
view_clear (View *view)
{
  g_clear_pointer (&view->messages, g_ptr_array_unref);
  g_clear_pointer (&view->positions, g_array_unref);
}

/* Usage is taken from answers after the last compaction only */
static guint
view_since (AgentSession *session,
            const View   *view)
{
  guint since = session->context_since;

  if (view->summary_position != G_MAXUINT)
    since = MAX (since, view->summary_position + 1);
  return since;
}

/* *@estimated (optional): whether it is not all the server's count */
static gint64
view_estimate_full (AgentSession *session,
                    const View   *view,
                    gboolean     *estimated)
{
  return _agent_context_estimate (view->messages, view->positions, view_since (session, view),
                                  session->system_prompt, _agent_session_get_images (session),
                                  _agent_session_get_scale_images (session), estimated);
}

static gint64
view_estimate (AgentSession *session,
               const View   *view)
{
  return view_estimate_full (session, view, NULL);
}

/* The bytes of the view, its attachments as the bytes of the tokens they
 * are billed */
static gsize
view_chars (AgentSession *session,
            const View   *view)
{
  gsize chars = 0;

  for (guint i = 0; i < view->messages->len; i++)
    {
      AgentMessage *message = g_ptr_array_index (view->messages, i);

      chars += _agent_context_message_chars (message) +
               AGENT_CONTEXT_CHARS_PER_TOKEN *
               _agent_context_message_part_tokens (message, _agent_session_get_images (session),
                                                   _agent_session_get_scale_images (session));
    }
  return chars;
}

/* The memory position of the first message a compaction replaces */
static guint
view_first_replaced (const View *view)
{
  for (guint i = 0; i < view->messages->len; i++)
    {
      AgentMessage *message = g_ptr_array_index (view->messages, i);

      if (agent_message_get_role (message) != AGENT_MESSAGE_ROLE_SYSTEM)
        return g_array_index (view->positions, guint, i);
    }
  return 0;
}

/* The memory position after what the view's summary replaces, or 0 */
static guint
view_summary_end (const View *view)
{
  for (guint i = 0; i < view->messages->len; i++)
    {
      AgentMessage *message = g_ptr_array_index (view->messages, i);

      if (agent_message_is_summary (message))
        return agent_message_get_summary_end (message);
    }
  return 0;
}

static GListStore *
view_to_store (const View *view)
{
  GListStore *store = g_list_store_new (AGENT_TYPE_MESSAGE);

  g_list_store_splice (store, 0, 0, view->messages->pdata, view->messages->len);
  return store;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (View, view_clear)

static guint
memory_length (AgentSession *session)
{
  return g_list_model_get_n_items (G_LIST_MODEL (session->memory));
}

/* The summary step */

static void
summary_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  AgentTurn *turn = user_data;
  AgentSession *session = turn->session;
  g_autoptr(AgentStep) step = g_steal_pointer (&turn->step);
  g_autoptr(AgentMessage) summary = g_object_ref (agent_step_get_message (step));
  g_autoptr(GError) error = NULL;
  g_auto(View) before = { 0 };
  g_auto(View) after = { 0 };
  guint n_trimmed, n_dropped;
  gint64 tokens_before, tokens_after;

  turn->step_size = 0;
  turn->first_delta_at = turn->last_delta_at = 0;

  if (!agent_step_run_finish (step, result, &error))
    {
      _agent_trace_end (turn->trace_step, "libagent", "summary", "failed: %s", error->message);
      /* Nothing of a failed summary is kept: the conversation is as it was */
      if (turn->stop_error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          error = g_error_copy (turn->stop_error);
        }
      g_prefix_error (&error, _("The conversation could not be summarized: "));
      _agent_turn_fail (turn, g_steal_pointer (&error));
      return;
    }

  _agent_message_set_state (summary, AGENT_MESSAGE_STATE_COMPLETE);

  view_init (&before, G_LIST_MODEL (session->memory));
  _agent_context_policy_apply (session->context_policy,
                               agent_context_policy_get_strategy (session->context_policy),
                               before.messages, before.positions,
                               session->context_boundary, &n_trimmed, &n_dropped);
  tokens_before = view_estimate (session, &before);

  if (!_agent_turn_append (turn, summary))
    return;

  session->context_since = memory_length (session);
  view_init (&after, G_LIST_MODEL (session->memory));
  _agent_context_policy_apply (session->context_policy,
                               agent_context_policy_get_strategy (session->context_policy),
                               after.messages, after.positions,
                               session->context_boundary, &n_trimmed, &n_dropped);
  tokens_after = view_estimate (session, &after);

  _agent_trace_end (turn->trace_step, "libagent", "summary",
                    "messages %u to %u, %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " tokens",
                    agent_message_get_summary_start (summary), agent_message_get_summary_end (summary),
                    tokens_before, tokens_after);
  _agent_session_emit (session, AGENT_SESSION_COMPACTED, AGENT_CONTEXT_STRATEGY_SUMMARIZE,
                       agent_message_get_summary_start (summary),
                       agent_message_get_summary_end (summary),
                       tokens_before, tokens_after, summary);

  turn->summarized = TRUE;
  _agent_turn_next_step (turn);
}

/* Has the model summarize the messages of @base before the memory
 * position @boundary */
static void
start_summary (AgentTurn  *turn,
               const View *base,
               guint       boundary)
{
  AgentSession *session = turn->session;
  AgentContextPolicy *policy = session->context_policy;
  g_auto(View) input = { 0 };
  g_autoptr(GListStore) messages = NULL;
  g_autoptr(GListStore) no_tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(AgentMessage) ask = NULL;
  g_autoptr(AgentRequestSettings) settings = NULL;
  AgentRequest request = { 0 };
  guint n_trimmed, n_dropped;
  guint start = view_first_replaced (base);

  /* What is summarized: everything before the turns kept, its older tool
   * results shortened if the policy does that */
  view_copy (&input, base);
  while (input.positions->len > 0 &&
         g_array_index (input.positions, guint, input.positions->len - 1) >= boundary)
    {
      g_ptr_array_remove_index (input.messages, input.messages->len - 1);
      g_array_remove_index (input.positions, input.positions->len - 1);
    }
  /* Trimming only: the summarizer reads every turn */
  _agent_context_policy_apply (policy,
                               agent_context_policy_get_strategy (policy) &
                               AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS,
                               input.messages, input.positions, boundary,
                               &n_trimmed, &n_dropped);

  ask = agent_message_new (AGENT_MESSAGE_ROLE_USER, agent_context_policy_get_summary_prompt (policy));
  g_ptr_array_add (input.messages, g_object_ref (ask));
  messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_list_store_splice (messages, 0, 0, input.messages->pdata, input.messages->len);

  request.provider = session->provider;
  request.model = agent_provider_get_model (session->provider);
  request.system_prompt = session->system_prompt;
  request.messages = G_LIST_MODEL (messages);
  request.tools = G_LIST_MODEL (no_tools);
  /* The session's settings, without what only tools make sense with; the
   * same window (Ollama would load the model again for another) */
  request.settings = settings = _agent_session_dup_request_settings (session);
  agent_request_settings_unset (settings, "tool-choice");
  agent_request_settings_unset (settings, "parallel-tool-calls");
  request.context_window = session->context_window;
  request.scale_images = _agent_session_get_scale_images (session);

  g_debug ("Summarizing messages %u to %u", start, boundary);
  /* The summary's text is not the next request's: context-used waits */
  turn->context_request = -1;

  turn->step = agent_step_new (session->provider, settings, &_agent_turn_listener, turn);
  _agent_message_set_summary (agent_step_get_message (turn->step), start, boundary);
  agent_step_set_timeout (turn->step, session->step_timeout);
  agent_step_set_max_request_size (turn->step, session->max_request_size);
  turn->step_started_at = g_get_monotonic_time ();
  turn->trace_step = _agent_trace_begin ();
  _agent_session_set_current_message (session, agent_step_get_message (turn->step));
  agent_step_run_async (turn->step, &request, turn->cancellable, summary_cb, turn);
}

/* Makes turn->view, the messages the next request sends; FALSE if the
 * turn goes on elsewhere (a summary is being written) or ended. */
gboolean
_agent_turn_prepare_view (AgentTurn *turn)
{
  AgentSession *session = turn->session;
  AgentContextPolicy *policy = session->context_policy;
  AgentContextStrategy strategy;
  g_auto(View) base = { 0 };
  g_auto(View) view = { 0 };
  guint n_trimmed, n_dropped;
  gboolean forced = turn->context_error != NULL;
  gint64 tokens, budget = -1;
  gboolean estimated = TRUE;
  guint boundary;

  g_clear_object (&turn->view);

  view_init (&base, G_LIST_MODEL (session->memory));
  if (session->context_boundary > memory_length (session))
    session->context_boundary = 0;

  /* Without a policy, everything is sent but what a summary replaced (a
   * conversation compacted earlier, loaded again) */
  if (policy == NULL)
    {
      tokens = view_estimate_full (session, &base, &estimated);
      _agent_session_set_context_used (session, tokens, estimated);
      turn->context_request = tokens;
      if (base.summary_position != G_MAXUINT)
        turn->view = view_to_store (&base);
      return TRUE;
    }

  strategy = agent_context_policy_get_strategy (policy);

  view_copy (&view, &base);
  _agent_context_policy_apply (policy, strategy, view.messages, view.positions,
                               session->context_boundary,
                               &n_trimmed, &n_dropped);
  tokens = view_estimate_full (session, &view, &estimated);
  _agent_session_set_context_used (session, tokens, estimated);
  turn->context_request = tokens;

  if (session->context_window > 0)
    budget = (gint64) (session->context_pressure_threshold * (double) session->context_window);

  if (forced || (agent_context_policy_get_auto_compact (policy) && budget >= 0 && tokens > budget))
    {
      boundary = _agent_context_policy_boundary (policy, base.messages, base.positions);

      /* A new summary only if it would replace more than the last one */
      if ((strategy & AGENT_CONTEXT_STRATEGY_SUMMARIZE) && !turn->summarized &&
          boundary > 0 && boundary > view_summary_end (&base))
        {
          g_clear_error (&turn->context_error);
          start_summary (turn, &base, boundary);
          return FALSE;
        }

      if ((strategy & (AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS | AGENT_CONTEXT_STRATEGY_KEEP_LAST)) &&
          boundary > session->context_boundary)
        {
          g_auto(View) compacted = { 0 };
          gsize chars_before = view_chars (session, &view);
          gint64 tokens_after;

          view_copy (&compacted, &base);
          _agent_context_policy_apply (policy, strategy, compacted.messages, compacted.positions,
                                       boundary,
                                       &n_trimmed, &n_dropped);

          if (n_trimmed > 0 || n_dropped > 0)
            {
              gsize chars_after = view_chars (session, &compacted);

              tokens_after = MAX (0, tokens - _agent_context_estimate_chars (chars_before - chars_after));
              session->context_boundary = boundary;
              session->context_since = memory_length (session);

              _agent_session_emit (session, AGENT_SESSION_COMPACTED,
                                   strategy & (AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS |
                                               AGENT_CONTEXT_STRATEGY_KEEP_LAST),
                                   view_first_replaced (&base), boundary,
                                   tokens, tokens_after, NULL);

              view_clear (&view);
              view = compacted;
              compacted = (View) { 0 };
              tokens = tokens_after;
              _agent_session_set_context_used (session, tokens, TRUE);
              turn->context_request = tokens;
              g_clear_error (&turn->context_error);
            }
        }

      /* Refused as too long, and nothing left to compact: that stands */
      if (turn->context_error != NULL)
        {
          _agent_turn_fail (turn, g_steal_pointer (&turn->context_error));
          return FALSE;
        }
    }

  turn->view = view_to_store (&view);
  return TRUE;
}

/* The server refused the request as too long: with a policy that
 * compacts on its own, once per turn, compacts and sends it again.
 * Returns TRUE if it took @error. */
gboolean
_agent_turn_context_retry (AgentTurn    *turn,
                           AgentMessage *message,
                           GError       *error)
{
  AgentSession *session = turn->session;
  AgentContextPolicy *policy = session->context_policy;
  gint64 limit = -1;
  const char *content = agent_message_get_content (message);

  if (!g_error_matches (error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH) ||
      policy == NULL || !agent_context_policy_get_auto_compact (policy) ||
      agent_context_policy_get_strategy (policy) == AGENT_CONTEXT_STRATEGY_NONE ||
      turn->context_retried ||
      (content != NULL && *content != '\0'))
    return FALSE;

  /* The window the server named is the window */
  agent_error_get_context_tokens (error, NULL, &limit);
  if (limit > 0 && session->context_window == 0)
    agent_session_set_context_window (session, limit);

  g_debug ("Compacting after: %s", error->message);

  turn->context_retried = TRUE;
  turn->context_error = error;
  _agent_session_set_current_message (session, NULL);
  _agent_turn_next_step (turn);
  return TRUE;
}

/* The estimate of the next request, as the turn left the conversation (or
 * as the application changed it): -1 for an empty conversation */
void
_agent_session_update_context_used (AgentSession *session)
{
  g_auto(View) view = { 0 };
  guint n_trimmed, n_dropped;
  gboolean estimated = TRUE;
  gint64 tokens;

  if (memory_length (session) == 0)
    {
      _agent_session_set_context_used (session, -1, TRUE);
      return;
    }
  view_init (&view, G_LIST_MODEL (session->memory));
  if (session->context_policy != NULL && session->context_boundary <= memory_length (session))
    _agent_context_policy_apply (session->context_policy,
                                 agent_context_policy_get_strategy (session->context_policy),
                                 view.messages, view.positions, session->context_boundary,
                                 &n_trimmed, &n_dropped);
  tokens = view_estimate_full (session, &view, &estimated);
  _agent_session_set_context_used (session, tokens, estimated);
}

/* While an answer streams: the request's estimate and what came since, at
 * most every CONTEXT_STREAM_INTERVAL of the stream's time (a view shows it
 * a few times a second, not at every delta) */
void
_agent_turn_context_streamed (AgentTurn *turn,
                              gint64     now)
{
  if (turn->context_request < 0 || now - turn->context_noted_at < CONTEXT_STREAM_INTERVAL)
    return;
  turn->context_noted_at = now;
  _agent_session_show_context_used (turn->session,
                                    turn->context_request +
                                    _agent_context_estimate_chars (turn->step_size));
}
