/* agent-session-turn.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "transport/agent-request-settings-private.h"
#include "core/agent-session-private.h"
#include "core/agent-transcript-private.h"
#include "core/agent-turn-private.h"
#include "json/agent-json-private.h"
#include "json/agent-json-schema.h"

/* Starting a turn, and what the session shows of the turn that runs or
 * last ran. The turn itself is in agent-turn.c. */

/**
 * agent_session_get_transcript:
 * @self: a [class@Agent.Session]
 *
 * The conversation as a view shows it: the messages of
 * [property@Session:memory] followed, while a step streams, by
 * [property@Session:current-message]. Each message notifies its
 * [property@Message:content] (and reasoning, tool calls, state) as it
 * grows, so a `GtkListView` over this model shows the answer streaming.
 *
 * When the streamed message goes into memory it keeps its position: the
 * model reports that one item replaced by itself, and a list view keeps
 * its row. The model follows a new memory set with
 * [method@Session.set_memory].
 *
 * Returns: (transfer none): a list model of [class@Message]
 *
 * Since: 0.1
 */
GListModel *
agent_session_get_transcript (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);

  if (self->transcript == NULL)
    self->transcript = G_OBJECT (_agent_transcript_new (self));
  return G_LIST_MODEL (self->transcript);
}

/* The settings of the session's next request: the provider's, the
 * session's over them (a new object) */
AgentRequestSettings *
_agent_session_dup_request_settings (AgentSession *self)
{
  AgentRequestSettings *settings;

  settings = agent_request_settings_copy (agent_provider_get_settings (self->provider));
  _agent_request_settings_merge (settings, self->settings);
  return settings;
}


/* Whether the memory ends with something the model is to answer */
static gboolean
ends_with_a_question (AgentSession *self)
{
  GListModel *memory = G_LIST_MODEL (self->memory);
  guint n = g_list_model_get_n_items (memory);
  g_autoptr(AgentMessage) last = n > 0 ? g_list_model_get_item (memory, n - 1) : NULL;

  return last != NULL && (agent_message_get_role (last) == AGENT_MESSAGE_ROLE_USER ||
                          agent_message_get_role (last) == AGENT_MESSAGE_ROLE_TOOL);
}

/* A turn, after @text or @message as a user message (both NULL: from the
 * memory as it is) */
static void
start_turn (AgentSession        *self,
            const char          *text,
            AgentMessage        *message,
            JsonNode            *schema,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data,
            gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  AgentTurn *turn;

  g_task_set_source_tag (task, source_tag);

  if (self->turn != NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_BUSY,
                               _("The session is already running a turn"));
      return;
    }

  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The text to send is not valid UTF-8"));
      return;
    }

  if (message != NULL && agent_message_get_role (message) != AGENT_MESSAGE_ROLE_USER)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("Only a user message can be sent"));
      return;
    }

  /* A schema that cannot be used fails now, not when the answer is checked */
  if (schema != NULL && !agent_json_schema_check (schema, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (text == NULL && message == NULL && !ends_with_a_question (self))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("There is nothing to answer: the conversation does not end "
                                 "with the user's message or a tool's result"));
      return;
    }

  turn = _agent_turn_new (self, task, cancellable);
  g_task_set_task_data (task, turn, (GDestroyNotify)_agent_turn_free);
  _agent_turn_output_start (turn, schema);
  _agent_session_set_turn (self, turn);
  /* What the model can do first (Ollama), then the turn */
  _agent_turn_check_model (turn, text, message);
}

/**
 * agent_session_send_async:
 * @self: a [class@Agent.Session]
 * @text: what the user writes
 * @cancellable: (nullable): a [class@Gio.Cancellable] to stop the turn
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
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  start_turn (self, text, NULL, self->output_schema, cancellable, callback, user_data,
              agent_session_send_async);
}

/**
 * agent_session_send_finish:
 * @self: a [class@Agent.Session]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
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

/**
 * agent_session_send_message_async:
 * @self: a [class@Agent.Session]
 * @message: a user message, with text, images and documents
 * @cancellable: (nullable): a [class@Gio.Cancellable] to stop the turn
 * @callback: (scope async): called when the turn is over
 * @user_data: data for @callback
 *
 * Runs one turn as [method@Agent.Session.send_async] does, after @message
 * rather than a text: build it with [ctor@Agent.Message.new_with_parts] or
 * [method@Agent.Message.add_part] to send images and documents. The
 * message is appended to the memory as it is. Call
 * [method@Agent.Session.send_message_finish] from @callback.
 *
 * A provider that cannot take one of the attachments fails the turn with
 * %AGENT_ERROR_INVALID_ARGUMENT before sending anything, as does one
 * larger than [property@Agent.Session:max-attachment-size] with
 * %AGENT_ERROR_LIMIT.
 *
 * Since: 0.1
 */
void
agent_session_send_message_async (AgentSession        *self,
                                  AgentMessage        *message,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_MESSAGE (message));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  start_turn (self, NULL, message, self->output_schema, cancellable, callback, user_data,
              agent_session_send_message_async);
}

/**
 * agent_session_send_message_finish:
 * @self: a [class@Agent.Session]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes a turn started with [method@Agent.Session.send_message_async].
 *
 * Returns: (transfer full): the turn's final assistant message, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
AgentMessage *
agent_session_send_message_finish (AgentSession  *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_session_send_message_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_session_continue_async:
 * @self: a [class@Agent.Session]
 * @cancellable: (nullable): a [class@Gio.Cancellable] to stop the turn
 * @callback: (scope async): called when the turn is over
 * @user_data: data for @callback
 *
 * Runs a turn from the memory as it is, without a new user message: the
 * conversation must end with the user's message or a tool's result. This
 * regenerates an answer after [method@Agent.Memory.branch] began a branch
 * where it was (the old answer stays, a sibling of the new one), or
 * answers a conversation loaded from storage. Call
 * [method@Agent.Session.continue_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_session_continue_async (AgentSession        *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  start_turn (self, NULL, NULL, self->output_schema, cancellable, callback, user_data,
              agent_session_continue_async);
}

/**
 * agent_session_continue_finish:
 * @self: a [class@Agent.Session]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes a turn started with [method@Agent.Session.continue_async].
 *
 * Returns: (transfer full): the turn's final assistant message, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
AgentMessage *
agent_session_continue_finish (AgentSession  *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_session_continue_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_session_send_for_object_async:
 * @self: a [class@Agent.Session]
 * @text: the user's message
 * @schema: (nullable): the JSON Schema the answer is to follow, or %NULL
 *   for the session's [property@Agent.Session:output-schema]
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the turn ends
 * @user_data: data for @callback
 *
 * Sends @text as [method@Agent.Session.send_async] does, asking for an
 * answer that follows @schema for this turn only (see
 * [property@Agent.Session:output-schema] for how each provider is asked,
 * and what happens to tools). [signal@Agent.Session::object-delta] shows
 * the object as it arrives.
 *
 * Since: 0.1
 */
void
agent_session_send_for_object_async (AgentSession        *self,
                                     const char          *text,
                                     JsonNode            *schema,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(JsonNode) copy = NULL;

  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (schema == NULL)
    schema = self->output_schema;

  if (schema == NULL || !JSON_NODE_HOLDS_OBJECT (schema))
    {
      g_task_report_new_error (self, callback, user_data, agent_session_send_for_object_async,
                               AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("An answer as an object needs a JSON Schema, which is an "
                                 "object"));
      return;
    }

  copy = _agent_json_node_sealed_copy (schema);
  start_turn (self, text, NULL, copy, cancellable, callback, user_data,
              agent_session_send_for_object_async);
}

/**
 * agent_session_send_for_object_finish:
 * @self: a [class@Agent.Session]
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@Agent.Session.send_for_object_async].
 *
 * Returns: (transfer full): the answer's object, checked against the
 *   schema, or %NULL with @error set: %AGENT_ERROR_SCHEMA if the answer
 *   was not JSON or did not follow the schema (the answer stays in the
 *   conversation), any error [method@Agent.Session.send_finish] gives
 *
 * Since: 0.1
 */
JsonNode *
agent_session_send_for_object_finish (AgentSession  *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_autoptr(AgentMessage) message = NULL;
  AgentTurn *turn;

  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_session_send_for_object_async, NULL);

  message = g_task_propagate_pointer (G_TASK (result), error);
  if (message == NULL)
    return NULL;

  turn = g_task_get_task_data (G_TASK (result));
  g_return_val_if_fail (turn != NULL && turn->object != NULL, NULL);
  return json_node_ref (turn->object);
}
