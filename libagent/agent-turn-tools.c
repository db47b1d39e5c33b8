/* agent-turn-tools.c — running the tools a step asked for
 *
 * Every call of a step starts at once, side by side; each gets a
 * tool-started and, when its result is in, a tool-finished. When every
 * call has its result, the results go into memory in call order and the
 * next step starts. An unknown tool or unusable arguments are that call's
 * error result; a cancelled turn answers the calls still running with
 * "cancelled", so that no call is left unanswered.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-tool-call-private.h"
#include "agent-tool-invocation.h"
#include "agent-turn-private.h"

static void
finish_call (AgentTurn     *turn,
             AgentToolCall *call,
             const char    *result,
             gboolean       is_error)
{
  _agent_tool_call_set_result (call, result, is_error);
  _agent_tool_call_set_state (call, is_error ? AGENT_TOOL_CALL_STATE_FAILED
                                             : AGENT_TOOL_CALL_STATE_SUCCEEDED);
  _agent_session_emit (turn->session, TOOL_FINISHED, call);
}

static void
cancel_call (AgentTurn     *turn,
             AgentToolCall *call)
{
  _agent_tool_call_set_result (call, _("The tool was cancelled before it finished"), TRUE);
  _agent_tool_call_set_state (call, AGENT_TOOL_CALL_STATE_CANCELLED);
  _agent_session_emit (turn->session, TOOL_FINISHED, call);
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

/* Every call has its result: append them, in call order. Returns FALSE if
 * the memory failed, which ended the turn. */
static gboolean
append_results (AgentTurn *turn)
{
  guint n = agent_message_get_n_tool_calls (turn->assistant);

  _agent_turn_stop_tools (turn);

  for (guint i = 0; i < n; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (turn->assistant, i);
      g_autoptr(AgentMessage) result = NULL;

      result = agent_message_new_tool_result (agent_tool_call_get_id (call),
                                              agent_tool_call_get_name (call),
                                              agent_tool_call_get_result (call),
                                              agent_tool_call_is_error (call));
      if (!_agent_turn_append (turn, result))
        return FALSE;
    }

  g_clear_pointer (&turn->invocations, g_ptr_array_unref);
  g_clear_object (&turn->assistant);

  return TRUE;
}

static void
invocation_completed_cb (AgentToolInvocation *invocation,
                         GParamSpec          *pspec,
                         AgentTurn           *turn)
{
  g_autofree char *result = NULL;
  gboolean is_error = FALSE;

  g_signal_handlers_disconnect_by_func (invocation, invocation_completed_cb, turn);

  result = agent_tool_invocation_dup_result (invocation, &is_error);
  finish_call (turn, agent_tool_invocation_get_tool_call (invocation), result, is_error);

  g_assert (turn->n_pending > 0);
  turn->n_pending--;

  /* While the calls are being started, the starting loop continues. */
  if (turn->n_pending == 0 && !turn->starting_tools && append_results (turn))
    _agent_turn_next_step (turn);
}

/* The turn was cancelled while tools ran: the calls still running are
 * answered "cancelled", so the memory never holds unanswered calls. */
static gboolean
tools_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  AgentTurn *turn = user_data;

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
    _agent_turn_fail (turn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 _("The turn was cancelled")));

  return G_SOURCE_REMOVE;
}

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

static void
free_invocation (gpointer data)
{
  if (data != NULL)
    g_object_unref (data);
}

/* Starts one call: its result comes through invocation_completed_cb, or
 * at once for a call that cannot run. */
static void
start_call (AgentTurn     *turn,
            guint          index,
            AgentToolCall *call)
{
  AgentSession *session = turn->session;
  const char *name = agent_tool_call_get_name (call);
  AgentTool *tool = name ? agent_session_lookup_tool (session, name) : NULL;
  AgentToolInvocation *invocation;

  _agent_tool_call_set_state (call, AGENT_TOOL_CALL_STATE_RUNNING);
  _agent_session_emit (session, TOOL_STARTED, call);

  /* A handler may have cancelled the turn: start nothing more. */
  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      cancel_call (turn, call);
      return;
    }

  if (tool == NULL)
    {
      g_autofree char *message = describe_unknown_tool (session, name);

      finish_call (turn, call, message, TRUE);
      return;
    }

  invocation = agent_tool_invocation_new (tool, call, turn->cancellable);
  g_ptr_array_index (turn->invocations, index) = invocation;

  if (agent_tool_invocation_is_completed (invocation))
    {
      /* The arguments were not a JSON object: the tool does not run. */
      g_autofree char *message = agent_tool_invocation_dup_result (invocation, NULL);

      finish_call (turn, call, message, TRUE);
      return;
    }

  turn->n_pending++;
  g_signal_connect (invocation, "notify::completed", G_CALLBACK (invocation_completed_cb), turn);
  agent_tool_invoke (tool, invocation);
}

void
_agent_turn_run_tools (AgentTurn    *turn,
                       AgentMessage *assistant)
{
  guint n = agent_message_get_n_tool_calls (assistant);

  turn->assistant = g_object_ref (assistant);
  turn->invocations = g_ptr_array_new_full (n, free_invocation);
  g_ptr_array_set_size (turn->invocations, n);

  turn->starting_tools = TRUE;
  for (guint i = 0; i < n; i++)
    start_call (turn, i, agent_message_get_tool_call (assistant, i));
  turn->starting_tools = FALSE;

  /* All done already (the next step notices a cancellation). */
  if (turn->n_pending == 0)
    {
      if (append_results (turn))
        _agent_turn_next_step (turn);
      return;
    }

  turn->cancel_source = g_cancellable_source_new (turn->cancellable);
  g_source_set_callback (turn->cancel_source, G_SOURCE_FUNC (tools_cancelled_cb), turn, NULL);
  g_source_set_static_name (turn->cancel_source, "[agent-turn-tools-cancelled]");
  g_source_attach (turn->cancel_source, g_task_get_context (turn->task));
}
