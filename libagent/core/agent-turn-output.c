/* agent-turn-output.c — the turn's answer: its object and its guard
 *
 * The output guard: the check-output hook sees the final answer before
 * anything else does with it, and may reject it (it is not kept, and the
 * turn fails) or put another text in its place.
 *
 * The object of a turn whose answer follows a schema:
 *
 * Each step's request asks for the schema (the provider decides how); the
 * answer's text — or, where the provider answers with a forced tool call,
 * that call's arguments — streams through an AgentPartialJson for
 * object-delta; the last answer is read whole and checked against the
 * schema before the turn completes.
 *
 * Tools and a schema in the same turn: a step whose answer calls tools is
 * a step like any other (its text is not the object); the answer without
 * tool calls is. With a forced output tool (Anthropic), a step that calls
 * only that tool is the answer; one that calls it beside real tools runs
 * the real ones, and the output call gets the answer any unknown tool
 * gets, so the model answers again once it has the results.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-output-decision.h"
#include "json/agent-json-schema.h"
#include "json/agent-partial-json-private.h"
#include "messages/agent-message-private.h"
#include "core/agent-turn-private.h"

/* A name the providers take: the schema's title, or "response" */
static char *
output_name (JsonNode *schema)
{
  JsonNode *title = json_object_get_member (json_node_get_object (schema), "title");
  const char *name;
  gsize len;

  if (title == NULL || !JSON_NODE_HOLDS_VALUE (title) ||
      json_node_get_value_type (title) != G_TYPE_STRING)
    return g_strdup ("response");

  name = json_node_get_string (title);
  len = strlen (name);
  if (len == 0 || len > 64)
    return g_strdup ("response");
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_' && name[i] != '-')
      return g_strdup ("response");

  return g_strdup (name);
}

void
_agent_turn_output_start (AgentTurn *turn,
                          JsonNode  *schema)
{
  if (schema == NULL)
    return;

  turn->output_schema = json_node_ref (schema);
  turn->output_name = output_name (schema);
  turn->output_by_tool = _agent_provider_get_backend (turn->session->provider)->output_by_tool;
  turn->partial = agent_partial_json_new ();
  _agent_partial_json_track_changes (turn->partial);
}

void
_agent_turn_output_clear (AgentTurn *turn)
{
  g_clear_pointer (&turn->output_schema, json_node_unref);
  g_clear_pointer (&turn->output_name, g_free);
  g_clear_pointer (&turn->partial, agent_partial_json_unref);
  g_clear_pointer (&turn->object, json_node_unref);
}

/* Before each step: what the request asks for, and a new object */
void
_agent_turn_output_prepare (AgentTurn    *turn,
                            AgentRequest *request)
{
  if (turn->output_schema == NULL)
    return;

  request->output_schema = turn->output_schema;
  request->output_name = turn->output_name;
  agent_partial_json_reset (turn->partial);
}

/* object-delta, with what changed since the last one, if anything did
 * (and, unless @force, if it is not too little beside its paths) */
static void
emit_changes (AgentTurn    *turn,
              AgentMessage *message,
              gboolean      force)
{
  g_autoptr(JsonNode) changes = _agent_partial_json_take_changes (turn->partial, force);
  JsonNode *value = agent_partial_json_get_value (turn->partial);

  if (changes == NULL || value == NULL)
    return;

  _agent_session_emit (turn->session, AGENT_SESSION_OBJECT_DELTA, message, value, changes);
}

static void
feed (AgentTurn    *turn,
      AgentMessage *message,
      const char   *text,
      gsize         len)
{
  /* Not JSON (prose before a tool call, say): nothing to show; the answer
   * is read again whole at the end */
  if (!agent_partial_json_feed (turn->partial, text, len, NULL))
    return;

  emit_changes (turn, message, FALSE);
}

/* The step's answer ended: what changed and waited goes out */
void
_agent_turn_output_flush (AgentTurn    *turn,
                          AgentMessage *message)
{
  if (turn->output_schema == NULL)
    return;

  emit_changes (turn, message, TRUE);
}

void
_agent_turn_output_text_delta (AgentTurn    *turn,
                               AgentMessage *message,
                               const char   *text,
                               gsize         len)
{
  if (turn->output_schema == NULL || turn->output_by_tool)
    return;

  feed (turn, message, text, len);
}

void
_agent_turn_output_call_delta (AgentTurn     *turn,
                               AgentMessage  *message,
                               AgentToolCall *call,
                               const char    *fragment,
                               gsize          len)
{
  if (turn->output_schema == NULL || !turn->output_by_tool || len == 0 ||
      g_strcmp0 (agent_tool_call_get_name (call), turn->output_name) != 0)
    return;

  feed (turn, message, fragment, len);
}

/* A step that only called the output tool answered: its arguments become
 * the answer's text (in place of any text before the call), and no call
 * is left unanswered. */
void
_agent_turn_output_take_call (AgentTurn    *turn,
                              AgentMessage *message)
{
  AgentToolCall *call;
  const char *arguments;

  if (turn->output_schema == NULL || !turn->output_by_tool ||
      agent_message_get_n_tool_calls (message) != 1)
    return;

  call = agent_message_get_tool_call (message, 0);
  if (g_strcmp0 (agent_tool_call_get_name (call), turn->output_name) != 0)
    return;

  arguments = agent_tool_call_get_arguments (call);
  if (arguments == NULL)
    arguments = "";
  /* Text the model wrote before the call (with extended thinking, which
   * forces no tool) streamed as text-delta; the answer is the object */
  if (message->content != NULL)
    g_string_truncate (message->content, 0);
  if (message->content_breaks != NULL)
    g_array_set_size (message->content_breaks, 0);
  _agent_message_append (&message->content, arguments, strlen (arguments));
  _agent_message_clear_tool_calls (message);
  _agent_message_notify_content (message);
}

/* The check-output hook on the final answer, which fails closed: FALSE
 * with @error (AGENT_ERROR_HOOK) if it rejects it, or gives no decision;
 * the answer's text replaced if it says so. */
gboolean
_agent_turn_check_output (AgentTurn     *turn,
                          AgentMessage  *message,
                          GError       **error)
{
  g_autoptr(AgentOutputDecision) decision = NULL;
  const char *text;

  if (!_agent_session_has_handler (turn->session, AGENT_SESSION_CHECK_OUTPUT))
    return TRUE;

  _agent_session_emit (turn->session, AGENT_SESSION_CHECK_OUTPUT, message, &decision);
  if (decision == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_HOOK,
                           _("The answer was rejected: the check-output hook gave no decision"));
      return FALSE;
    }

  switch (agent_output_decision_get_verdict (decision))
    {
    case AGENT_OUTPUT_VERDICT_ALLOW:
      return TRUE;

    case AGENT_OUTPUT_VERDICT_REPLACE:
      text = agent_output_decision_get_replacement (decision);
      if (message->content != NULL)
        g_string_truncate (message->content, 0);
      if (message->content_breaks != NULL)
        g_array_set_size (message->content_breaks, 0);
      _agent_message_append (&message->content, text, strlen (text));
      _agent_message_notify_content (message);
      return TRUE;

    case AGENT_OUTPUT_VERDICT_REJECT:
    default:
      text = agent_output_decision_get_reason (decision);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_HOOK, _("The answer was rejected: %s"),
                   text != NULL ? text : _("the check-output hook gave no reason"));
      return FALSE;
    }
}

/* The model stopped because it ran out of tokens */
static gboolean
is_cut_off (const char *reason)
{
  return g_strcmp0 (reason, "length") == 0 || g_strcmp0 (reason, "max_tokens") == 0 ||
         g_strcmp0 (reason, "MAX_TOKENS") == 0;
}

/* The last answer: read whole, checked, given to object-finished. Returns
 * the error that fails the turn, or NULL. */
GError *
_agent_turn_output_finish (AgentTurn    *turn,
                           AgentMessage *message)
{
  g_autoptr(AgentPartialJson) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) object = NULL;
  const char *content;
  const char *reason;

  if (turn->output_schema == NULL)
    return NULL;

  content = agent_message_get_content (message);
  reason = agent_message_get_finish_reason (message);

  if (content == NULL || *content == '\0')
    {
      if (agent_message_get_refusal (message) != NULL)
        return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                            _("The model refused to give the object: %s"),
                            agent_message_get_refusal (message));
      return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                          _("The answer from %s is empty, not an object that follows the schema"),
                          agent_provider_get_name (turn->session->provider));
    }

  reader = agent_partial_json_new ();
  if (!agent_partial_json_feed (reader, content, -1, &error) ||
      (object = agent_partial_json_finish (reader, &error)) == NULL)
    {
      if (is_cut_off (reason))
        return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                            _("The answer from %s was cut off (finish reason “%s”) before "
                              "the object was whole: %s"),
                            agent_provider_get_name (turn->session->provider), reason,
                            error->message);

      return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                          _("The answer from %s is not the JSON the schema asks for: %s"),
                          agent_provider_get_name (turn->session->provider), error->message);
    }

  /* Cut off where the JSON happens to close, it may still lack what the
   * model meant to write: the last element of a list, the end of a text */
  if (is_cut_off (reason))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                        _("The answer from %s was cut off (finish reason “%s”): the object "
                          "may lack what did not come"),
                        agent_provider_get_name (turn->session->provider), reason);

  if (!agent_json_schema_validate (turn->output_schema, object, &error))
    {
      if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_SCHEMA))
        g_prefix_error (&error, _("The answer does not follow the schema: "));
      return g_steal_pointer (&error);
    }

  g_clear_pointer (&turn->object, json_node_unref);
  turn->object = json_node_ref (object);
  json_node_seal (turn->object);
  _agent_session_emit (turn->session, AGENT_SESSION_OBJECT_FINISHED, message, turn->object);

  return NULL;
}

/* A server that refuses a request which asked for an object may refuse
 * the schema, or structured output altogether: the error says it was
 * asked for, and of which provider. Takes @error; returns the error. */
GError *
_agent_turn_output_explain (AgentTurn *turn,
                            GError    *error)
{
  char *text;

  if (turn->output_schema == NULL || !g_error_matches (error, AGENT_ERROR, AGENT_ERROR_HTTP))
    return error;

  text = g_strdup_printf (_("%s (the request asked %s for structured output with a JSON Schema: "
                            "the model or server may not take it, or not this schema)"),
                          error->message, agent_provider_get_name (turn->session->provider));
  g_free (error->message);
  error->message = text;
  return error;
}
