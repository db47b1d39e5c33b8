/* agent-turn-tools.c — running the tools a step asked for
 *
 * Every call of a step is handled at once, side by side: the
 * check-tool-call hook may block it, the user may be asked to approve it,
 * then its tool runs, with a timeout, and the filter-tool-result hook may
 * rewrite what it returned. Each call gets a tool-started and, with its
 * result, a tool-finished. When every call has its result, the results go
 * into memory in call order; then the turn ends (a limit was reached, or
 * every tool returns directly) or the next step starts.
 *
 * An unknown tool, arguments that are not a JSON object or do not follow
 * the tool's schema (checked before any hook sees them), a failure or a
 * timeout are that call's error result, announced with tool-failed and
 * logged in the Agent-Tools domain; a cancelled turn answers the calls
 * still pending with "cancelled", so that no call is left unanswered.
 *
 * The turn holds the approval and the invocation it hands out only
 * weakly: a handler that drops one without answering has answered (the
 * call is denied, or fails with "no answer") instead of hanging the turn.
  *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "json/agent-json-schema.h"
#include "messages/agent-message-private.h"
#include "tools/agent-tool-approval-private.h"
#include "messages/agent-tool-call-private.h"
#include "tools/agent-tool-decision.h"
#include "tools/agent-tool-invocation-private.h"
#include "core/agent-turn-private.h"
#include "agent-trace-private.h"

/* Where failed calls are logged, at the debug level; the Python and GJS
 * overrides log the tracebacks of exceptions there too. */
#define TOOLS_LOG_DOMAIN "Agent-Tools"

/* One call being handled */
typedef struct
{
  AgentTurn           *turn;
  AgentToolCall       *call;
  AgentTool           *tool;
  GWeakRef             approval;    /* AgentToolApproval, while the handler keeps it */
  GWeakRef             invocation;  /* AgentToolInvocation, while the tool keeps it */
  GCancellable        *cancellable;   /* this call's: cancelled by the turn, or a timeout */
  GSource             *timeout_source;
  double               timeout;
  gint64               trace_begin;   /* Sysprof, 0: not traced */
  guint                pending : 1;   /* its result is still to come */
} CallRun;

/* Stops listening to what @ref points to, if it is still alive, and tells
 * it, with @why, that the call is over. */
static void
forget (GWeakRef   *ref,
        CallRun    *run,
        const char *why)
{
  g_autoptr(GObject) object = g_weak_ref_get (ref);

  if (object == NULL)
    return;

  g_signal_handlers_disconnect_by_data (object, run);
  g_weak_ref_set (ref, NULL);

  if (why == NULL)
    return;
  if (AGENT_IS_TOOL_INVOCATION (object))
    _agent_tool_invocation_set_over (AGENT_TOOL_INVOCATION (object), why);
  else
    _agent_tool_approval_set_over (AGENT_TOOL_APPROVAL (object));
}

static void
call_run_free (gpointer data)
{
  CallRun *run = data;

  if (run->timeout_source != NULL)
    {
      g_source_destroy (run->timeout_source);
      g_source_unref (run->timeout_source);
    }
  forget (&run->approval, run, NULL);
  forget (&run->invocation, run, NULL);
  g_weak_ref_clear (&run->approval);
  g_weak_ref_clear (&run->invocation);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->tool);
  g_clear_object (&run->call);
  g_free (run);
}

static void after_tools (AgentTurn *turn);

static void
log_failure (AgentToolCall *call,
             const GError  *failure)
{
  GEnumClass *codes = g_type_class_ref (AGENT_TYPE_ERROR);
  GEnumValue *code = g_enum_get_value (codes, failure->code);
  const char *name = agent_tool_call_get_name (call);
  const char *id = agent_tool_call_get_id (call);

  g_log_structured (TOOLS_LOG_DOMAIN, G_LOG_LEVEL_DEBUG,
                    "AGENT_TOOL", name ? name : "",
                    "AGENT_TOOL_CALL_ID", id ? id : "",
                    "MESSAGE", "The call %s of “%s” failed (%s): %s",
                    id ? id : "?", name ? name : "?",
                    code != NULL ? code->value_nick : "failed", failure->message);
  g_type_class_unref (codes);
}

/* The call has its result, with its final state; @failure says why a call
 * that failed did, for tool-failed. */
static void
finish_call_full (CallRun            *run,
                  AgentToolCallState  state,
                  const char         *result,
                  const GError       *failure)
{
  AgentTurn *turn = run->turn;
  gboolean was_pending = run->pending;

  run->pending = FALSE;

  if (run->timeout_source != NULL)
    {
      g_source_destroy (run->timeout_source);
      g_clear_pointer (&run->timeout_source, g_source_unref);
    }

  /* A tool or a handler that answers after this is too late. */
  forget (&run->invocation, run, result);
  forget (&run->approval, run, result);

  _agent_tool_call_set_result (run->call, result, state != AGENT_TOOL_CALL_STATE_SUCCEEDED);
  _agent_tool_call_set_state (run->call, state);
  _agent_trace_end (run->trace_begin, "libagent", "tool", "%s: %s%s%s",
                    agent_tool_call_get_name (run->call) ? agent_tool_call_get_name (run->call) : "",
                    state == AGENT_TOOL_CALL_STATE_SUCCEEDED ? "succeeded" : "failed",
                    failure != NULL ? ": " : "", failure != NULL ? failure->message : "");
  run->trace_begin = 0;

  if (agent_tool_call_get_duration (run->call) >= 0)
    {
      turn->totals.tool_calls++;
      turn->totals.tool_time += agent_tool_call_get_duration (run->call);
    }

  if (failure != NULL)
    {
      log_failure (run->call, failure);
      _agent_session_emit (turn->session, AGENT_SESSION_TOOL_FAILED, run->call, failure);
    }
  _agent_session_emit (turn->session, AGENT_SESSION_TOOL_FINISHED, run->call);

  if (was_pending)
    {
      g_assert (turn->n_pending > 0);
      turn->n_pending--;

      /* While the calls are being started, the starting loop continues. */
      if (turn->n_pending == 0 && !turn->starting_tools)
        after_tools (turn);
    }
}

static void
finish_call (CallRun            *run,
             AgentToolCallState  state,
             const char         *result)
{
  finish_call_full (run, state, result, NULL);
}

/* The call failed: @result goes to the model, @code to tool-failed */
static void
fail_call (CallRun    *run,
           AgentError  code,
           const char *result)
{
  g_autoptr(GError) failure = g_error_new_literal (AGENT_ERROR, code, result);

  finish_call_full (run, AGENT_TOOL_CALL_STATE_FAILED, result, failure);
}

static void
deny_call (CallRun *run,
           char    *result)
{
  finish_call (run, AGENT_TOOL_CALL_STATE_DENIED, result);
  g_free (result);
}

static void
cancel_call (CallRun *run)
{
  /* The approval's and the invocation's cancellable */
  g_cancellable_cancel (run->cancellable);

  finish_call (run, AGENT_TOOL_CALL_STATE_CANCELLED,
               _("The tool was cancelled before it finished"));
}

void
_agent_turn_stop_tools (AgentTurn *turn)
{
  if (turn->cancel_source != NULL)
    {
      g_source_destroy (turn->cancel_source);
      g_clear_pointer (&turn->cancel_source, g_source_unref);
    }
}

/* Running the tool */

static void
invocation_completed_cb (AgentToolInvocation *invocation,
                         GParamSpec          *pspec,
                         CallRun             *run)
{
  g_autofree char *result = NULL;
  g_autofree char *filtered = NULL;
  gboolean is_error = FALSE;

  g_signal_handlers_disconnect_by_data (invocation, run);

  if (!run->pending)
    return;  /* timed out or cancelled already: a late answer */

  result = agent_tool_invocation_dup_result (invocation, &is_error);
  g_clear_pointer (&run->call->attachments, g_ptr_array_unref);
  run->call->attachments = _agent_tool_invocation_steal_attachments (invocation);

  /* The filter-tool-result hook sees the result and may rewrite it. */
  _agent_tool_call_set_result (run->call, result, is_error);
  _agent_session_emit (run->turn->session, AGENT_SESSION_FILTER_TOOL_RESULT, run->call, &filtered);

  if (is_error)
    fail_call (run, AGENT_ERROR_TOOL, filtered ? filtered : result);
  else
    finish_call (run, AGENT_TOOL_CALL_STATE_SUCCEEDED, filtered ? filtered : result);
}

static void
invocation_progress_cb (AgentToolInvocation *invocation,
                        double               fraction,
                        const char          *text,
                        CallRun             *run)
{
  if (!run->pending)
    return;

  _agent_tool_call_set_progress (run->call, fraction, text);
  _agent_session_emit (run->turn->session, AGENT_SESSION_TOOL_PROGRESS, run->call, fraction, text);
}

static gboolean
call_timed_out_cb (gpointer data)
{
  CallRun *run = data;
  g_autofree char *result = NULL;

  g_clear_pointer (&run->timeout_source, g_source_unref);

  /* The tool sees its cancellable cancelled; whatever it answers later is
   * ignored. */
  g_cancellable_cancel (run->cancellable);
  result = g_strdup_printf (_("The tool timed out after %g s"), run->timeout);
  fail_call (run, AGENT_ERROR_TIMEOUT, result);

  return G_SOURCE_REMOVE;
}

static void
run_tool (CallRun *run)
{
  AgentTurn *turn = run->turn;
  guint max_tool_calls = turn->session->max_tool_calls;
  g_autoptr(AgentToolInvocation) invocation = NULL;

  invocation = agent_tool_invocation_new (run->tool, run->call, run->cancellable);

  if (agent_tool_invocation_is_completed (invocation))
    {
      /* The arguments were not a JSON object (check_arguments() saw to
       * it already): the tool does not run, and does not count against
       * max-tool-calls. */
      g_autofree char *message = agent_tool_invocation_dup_result (invocation, NULL);

      fail_call (run, AGENT_ERROR_INVALID_ARGUMENT, message);
      return;
    }

  /* max-tool-calls counts the tools that run */
  if (max_tool_calls > 0 && turn->n_runs >= max_tool_calls)
    {
      turn->limit_reached = TRUE;
      _agent_tool_invocation_set_over (invocation, "max-tool-calls");
      deny_call (run, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                    "Not run: the turn reached its limit of %u tool call",
                                                    "Not run: the turn reached its limit of %u tool calls",
                                                    max_tool_calls),
                                       max_tool_calls));
      return;
    }
  turn->n_runs++;

  _agent_tool_call_set_state (run->call, AGENT_TOOL_CALL_STATE_RUNNING);

  run->timeout = agent_tool_get_timeout (run->tool);
  if (run->timeout <= 0)
    run->timeout = turn->session->tool_timeout;
  if (run->timeout > 0)
    {
      run->timeout_source = g_timeout_source_new ((guint) MIN (run->timeout * 1000, G_MAXUINT));
      g_source_set_callback (run->timeout_source, call_timed_out_cb, run, NULL);
      g_source_set_static_name (run->timeout_source, "[agent-tool-timeout]");
      g_source_attach (run->timeout_source, g_task_get_context (turn->task));
    }

  g_weak_ref_set (&run->invocation, invocation);
  g_signal_connect (invocation, "notify::completed",
                    G_CALLBACK (invocation_completed_cb), run);
  g_signal_connect (invocation, "progress",
                    G_CALLBACK (invocation_progress_cb), run);
  agent_tool_invoke (run->tool, invocation);

  /* The reference dropped here may be the last: then the invocation
   * answers "no answer" as it goes, unless the tool answered. */
}

/* Approval */

static void
approval_answered_cb (AgentToolApproval *approval,
                      GParamSpec        *pspec,
                      CallRun           *run)
{
  g_autofree char *reason = NULL;

  g_signal_handlers_disconnect_by_data (approval, run);
  g_weak_ref_set (&run->approval, NULL);

  if (!run->pending)
    return;  /* the turn was cancelled meanwhile */

  if (agent_tool_approval_get_allowed (approval))
    {
      run_tool (run);
      return;
    }

  if (_agent_tool_approval_was_dropped (approval))
    {
      deny_call (run, g_strdup (_("Not run: the approval was dropped without an answer")));
      return;
    }

  reason = agent_tool_approval_dup_reason (approval);
  if (reason != NULL && reason[0] != '\0')
    deny_call (run, g_strdup_printf (_("Denied by the user: %s"), reason));
  else
    deny_call (run, g_strdup (_("Denied by the user")));
}

static void
ask_approval (CallRun *run)
{
  AgentSession *session = run->turn->session;
  g_autoptr(AgentToolApproval) approval = NULL;
  gboolean handled = FALSE;

  approval = agent_tool_approval_new (run->tool, run->call, run->cancellable);
  _agent_tool_call_set_state (run->call, AGENT_TOOL_CALL_STATE_AWAITING_APPROVAL);

  /* Connected first: a handler may answer before the emission returns. */
  g_weak_ref_set (&run->approval, approval);
  g_signal_connect (approval, "notify::answered", G_CALLBACK (approval_answered_cb), run);
  _agent_session_emit (session, AGENT_SESSION_APPROVE_TOOL_CALL, run->call, approval, &handled);

  if (!handled && run->pending && !agent_tool_approval_is_answered (approval))
    {
      g_signal_handlers_disconnect_by_data (approval, run);
      g_weak_ref_set (&run->approval, NULL);
      _agent_tool_approval_set_over (approval);
      deny_call (run, g_strdup (_("Not run: this tool needs the user's approval and no one "
                                  "could be asked")));
    }

  /* The reference dropped here may be the last: then the approval denies
   * the call as it goes, unless the handler answered. */
}

/* Starting a call */

static char *
list_tool_names (AgentSession *session)
{
  GListModel *tools = G_LIST_MODEL (session->tools);
  guint n = g_list_model_get_n_items (tools);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i);

      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, agent_tool_get_name (tool));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static char *
describe_unknown_tool (AgentSession *session,
                       const char   *name)
{
  g_autofree char *known = list_tool_names (session);

  if (name == NULL)
    return g_strdup (_("The call names no tool"));
  if (known[0] == '\0')
    return g_strdup_printf (_("There is no tool named “%s”; no tools are available"), name);
  return g_strdup_printf (_("There is no tool named “%s”; the available tools are: %s"),
                          name, known);
}

/* Whether the call's arguments can go to its tool: a JSON object, that
 * follows the tool's schema unless validate-tool-arguments is off. If not,
 * the call fails before any hook, approval or handler sees it. */
static gboolean
check_arguments (CallRun *run)
{
  const char *name = agent_tool_get_name (run->tool);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = agent_tool_call_parse_arguments (run->call, &error);
  g_autofree char *message = NULL;

  if (arguments == NULL)
    {
      fail_call (run, AGENT_ERROR_INVALID_ARGUMENT, error->message);
      return FALSE;
    }

  if (!run->turn->session->validate_tool_arguments ||
      agent_json_schema_validate (agent_tool_get_parameters (run->tool), arguments, &error))
    return TRUE;

  if (!g_error_matches (error, AGENT_ERROR, AGENT_ERROR_SCHEMA))
    {
      /* A schema the check cannot read: the model had it as it is */
      g_log_structured (TOOLS_LOG_DOMAIN, G_LOG_LEVEL_DEBUG,
                        "AGENT_TOOL", name,
                        "MESSAGE", "The arguments of “%s” are not checked: %s",
                        name, error->message);
      return TRUE;
    }

  /* Translators: the tool's name, then where and why ("$.city: expected
   * string, got integer") */
  message = g_strdup_printf (_("The arguments do not follow the schema of “%s”: %s"),
                             name, error->message);
  fail_call (run, AGENT_ERROR_SCHEMA, message);
  return FALSE;
}

static void
start_call (CallRun *run)
{
  AgentTurn *turn = run->turn;
  AgentSession *session = turn->session;
  const char *name = agent_tool_call_get_name (run->call);
  AgentTool *tool = name ? agent_session_lookup_tool (session, name) : NULL;

  run->trace_begin = _agent_trace_begin ();
  _agent_session_emit (session, AGENT_SESSION_TOOL_STARTED, run->call);

  /* A handler may have cancelled the turn: start nothing more. */
  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      cancel_call (run);
      return;
    }

  if (tool == NULL)
    {
      g_autofree char *message = describe_unknown_tool (session, name);

      fail_call (run, AGENT_ERROR_INVALID_ARGUMENT, message);
      return;
    }

  run->tool = g_object_ref (tool);

  if (!check_arguments (run))
    return;

  /* The check-tool-call hook fails closed: no decision blocks the call. */
  if (_agent_session_has_handler (session, AGENT_SESSION_CHECK_TOOL_CALL))
    {
      g_autoptr(AgentToolDecision) decision = NULL;

      _agent_session_emit (session, AGENT_SESSION_CHECK_TOOL_CALL, run->call, &decision);
      if (decision == NULL)
        {
          deny_call (run, g_strdup (_("Blocked: the check-tool-call hook gave no decision")));
          return;
        }
      if (!agent_tool_decision_get_allowed (decision))
        {
          deny_call (run, g_strdup_printf (_("Blocked: %s"),
                                           agent_tool_decision_get_reason (decision)));
          return;
        }
    }

  if (agent_tool_get_requires_approval (run->tool))
    ask_approval (run);
  else
    run_tool (run);
}

/* When every call has its result */

static gboolean
append_results (AgentTurn *turn)
{
  _agent_turn_stop_tools (turn);

  for (guint i = 0; i < turn->calls->len; i++)
    {
      CallRun *run = g_ptr_array_index (turn->calls, i);
      g_autoptr(AgentMessage) result = NULL;

      result = agent_message_new_tool_result (agent_tool_call_get_id (run->call),
                                              agent_tool_call_get_name (run->call),
                                              agent_tool_call_get_result (run->call),
                                              agent_tool_call_is_error (run->call));
      for (guint j = 0; run->call->attachments != NULL && j < run->call->attachments->len; j++)
        agent_message_add_part (result, g_ptr_array_index (run->call->attachments, j));
      if (!_agent_turn_append (turn, result))
        return FALSE;
    }

  return TRUE;
}

/* The answer when every call went to a tool that returns directly and
 * succeeded, or NULL. */
static AgentMessage *
direct_answer (AgentTurn *turn)
{
  g_autoptr(GString) text = g_string_new (NULL);
  AgentMessage *answer;

  for (guint i = 0; i < turn->calls->len; i++)
    {
      CallRun *run = g_ptr_array_index (turn->calls, i);

      if (run->tool == NULL || !agent_tool_get_return_direct (run->tool) ||
          agent_tool_call_get_state (run->call) != AGENT_TOOL_CALL_STATE_SUCCEEDED)
        return NULL;

      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, agent_tool_call_get_result (run->call));
    }

  answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, text->str);
  _agent_message_set_finish_reason (answer, "return_direct");
  return answer;
}

static void
after_tools (AgentTurn *turn)
{
  g_autoptr(AgentMessage) answer = NULL;
  gboolean limit_reached = turn->limit_reached;

  if (!append_results (turn))
    return;

  if (limit_reached)
    {
      _agent_turn_fail (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                                           g_dngettext (GETTEXT_PACKAGE,
                                                        "The model asked for more than %u tool call "
                                                        "in this turn (max-tool-calls)",
                                                        "The model asked for more than %u tool calls "
                                                        "in this turn (max-tool-calls)",
                                                        turn->session->max_tool_calls),
                                           turn->session->max_tool_calls));
      return;
    }

  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      _agent_turn_fail (turn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                   _("The turn was cancelled")));
      return;
    }

  if ((answer = direct_answer (turn)) != NULL)
    {
      g_clear_pointer (&turn->calls, g_ptr_array_unref);
      g_clear_object (&turn->assistant);

      if (_agent_turn_append (turn, answer))
        _agent_turn_complete (turn, answer);
      return;
    }

  g_clear_pointer (&turn->calls, g_ptr_array_unref);
  g_clear_object (&turn->assistant);
  _agent_turn_next_step (turn);
}

/* The turn was cancelled while calls were pending (running, or waiting for
 * approval): they are answered "cancelled", so the memory never holds
 * unanswered calls. */
static gboolean
tools_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  AgentTurn *turn = user_data;

  g_clear_pointer (&turn->cancel_source, g_source_unref);

  /* The last one finishing runs after_tools(), which fails the turn. */
  turn->starting_tools = TRUE;
  for (guint i = 0; i < turn->calls->len; i++)
    {
      CallRun *run = g_ptr_array_index (turn->calls, i);

      if (run->pending)
        cancel_call (run);
    }
  turn->starting_tools = FALSE;

  after_tools (turn);

  return G_SOURCE_REMOVE;
}

void
_agent_turn_run_tools (AgentTurn    *turn,
                       AgentMessage *assistant)
{
  guint n = agent_message_get_n_tool_calls (assistant);

  turn->assistant = g_object_ref (assistant);
  turn->calls = g_ptr_array_new_full (n, call_run_free);
  turn->limit_reached = FALSE;

  for (guint i = 0; i < n; i++)
    {
      CallRun *run = g_new0 (CallRun, 1);

      run->turn = turn;
      run->call = g_object_ref (agent_message_get_tool_call (assistant, i));
      run->cancellable = g_cancellable_new ();
      run->pending = TRUE;
      g_weak_ref_init (&run->approval, NULL);
      g_weak_ref_init (&run->invocation, NULL);
      g_ptr_array_add (turn->calls, run);
    }

  turn->n_pending = n;
  turn->starting_tools = TRUE;
  for (guint i = 0; i < n; i++)
    start_call (g_ptr_array_index (turn->calls, i));
  turn->starting_tools = FALSE;

  /* All done already */
  if (turn->n_pending == 0)
    {
      after_tools (turn);
      return;
    }

  turn->cancel_source = g_cancellable_source_new (turn->cancellable);
  g_source_set_callback (turn->cancel_source, G_SOURCE_FUNC (tools_cancelled_cb), turn, NULL);
  g_source_set_static_name (turn->cancel_source, "[agent-turn-tools-cancelled]");
  g_source_attach (turn->cancel_source, g_task_get_context (turn->task));
}
