/* agent-message.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "json/agent-json-private.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"

/**
 * AgentMessage:
 *
 * One message of a conversation: what the user wrote, what the model
 * answered (text, reasoning and tool calls), or the result of one tool call.
 *
 * While the model writes it, an assistant message is
 * %AGENT_MESSAGE_STATE_STREAMING and its [property@Agent.Message:content]
 * and [property@Agent.Message:reasoning] grow, each append notified, so a
 * view can bind to them.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_ROLE,
  PROP_STATE,
  PROP_CONTENT,
  PROP_REASONING,
  PROP_REFUSAL,
  PROP_TOOL_CALLS,
  PROP_TOOL_CALL_ID,
  PROP_TOOL_NAME,
  PROP_IS_ERROR,
  PROP_FINISH_REASON,
  PROP_USAGE,
  PROP_RESPONSE_ID,
  PROP_MODEL,
  PROP_CREATED,
  PROP_METRICS,
  PROP_TURN_METRICS,
  PROP_PROVIDER_DATA,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentMessage, agent_message, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static inline const char *
string_or_null (GString *string)
{
  return string != NULL ? string->str : NULL;
}

static void
set_string (GString    **field,
            const char  *value)
{
  if (value == NULL)
    {
      if (*field != NULL)
        g_string_free (g_steal_pointer (field), TRUE);
      return;
    }
  if (*field == NULL)
    *field = g_string_new (value);
  else
    g_string_assign (*field, value);
}

static void
agent_message_dispose (GObject *object)
{
  AgentMessage *self = (AgentMessage *)object;

  g_clear_object (&self->tool_calls);

  G_OBJECT_CLASS (agent_message_parent_class)->dispose (object);
}

static void
agent_message_finalize (GObject *object)
{
  AgentMessage *self = (AgentMessage *)object;

  set_string (&self->content, NULL);
  g_clear_pointer (&self->content_breaks, g_array_unref);
  set_string (&self->reasoning, NULL);
  set_string (&self->refusal, NULL);
  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->tool_name, g_free);
  g_clear_pointer (&self->finish_reason, g_free);
  g_clear_pointer (&self->response_id, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->usage, agent_usage_unref);
  g_clear_pointer (&self->provider_data, json_node_unref);
  g_clear_pointer (&self->metrics, agent_metrics_unref);
  g_clear_pointer (&self->turn_metrics, agent_metrics_unref);
  g_clear_pointer (&self->created, g_date_time_unref);

  G_OBJECT_CLASS (agent_message_parent_class)->finalize (object);
}

static void
agent_message_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AgentMessage *self = AGENT_MESSAGE (object);

  switch (prop_id)
    {
    case PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_CONTENT:
      g_value_set_string (value, string_or_null (self->content));
      break;

    case PROP_REASONING:
      g_value_set_string (value, string_or_null (self->reasoning));
      break;

    case PROP_REFUSAL:
      g_value_set_string (value, string_or_null (self->refusal));
      break;

    case PROP_TOOL_CALLS:
      g_value_set_object (value, self->tool_calls);
      break;

    case PROP_TOOL_CALL_ID:
      g_value_set_string (value, self->tool_call_id);
      break;

    case PROP_TOOL_NAME:
      g_value_set_string (value, self->tool_name);
      break;

    case PROP_IS_ERROR:
      g_value_set_boolean (value, self->is_error);
      break;

    case PROP_FINISH_REASON:
      g_value_set_string (value, self->finish_reason);
      break;

    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;

    case PROP_RESPONSE_ID:
      g_value_set_string (value, self->response_id);
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_CREATED:
      g_value_set_boxed (value, self->created);
      break;

    case PROP_METRICS:
      g_value_set_boxed (value, self->metrics);
      break;

    case PROP_TURN_METRICS:
      g_value_set_boxed (value, self->turn_metrics);
      break;

    case PROP_PROVIDER_DATA:
      g_value_set_boxed (value, self->provider_data);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_message_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AgentMessage *self = AGENT_MESSAGE (object);

  switch (prop_id)
    {
    case PROP_ROLE:
      self->role = g_value_get_enum (value);
      break;

    case PROP_CONTENT:
      set_string (&self->content, g_value_get_string (value));
      break;

    case PROP_REASONING:
      set_string (&self->reasoning, g_value_get_string (value));
      break;

    case PROP_REFUSAL:
      set_string (&self->refusal, g_value_get_string (value));
      break;

    case PROP_TOOL_CALL_ID:
      g_free (self->tool_call_id);
      self->tool_call_id = g_value_dup_string (value);
      break;

    case PROP_TOOL_NAME:
      g_free (self->tool_name);
      self->tool_name = g_value_dup_string (value);
      break;

    case PROP_IS_ERROR:
      self->is_error = g_value_get_boolean (value);
      break;

    case PROP_FINISH_REASON:
      g_free (self->finish_reason);
      self->finish_reason = g_value_dup_string (value);
      break;

    case PROP_USAGE:
      g_clear_pointer (&self->usage, agent_usage_unref);
      self->usage = g_value_dup_boxed (value);
      break;

    case PROP_RESPONSE_ID:
      g_free (self->response_id);
      self->response_id = g_value_dup_string (value);
      break;

    case PROP_MODEL:
      g_free (self->model);
      self->model = g_value_dup_string (value);
      break;

    case PROP_CREATED:
      if (g_value_get_boxed (value) != NULL)
        {
          g_clear_pointer (&self->created, g_date_time_unref);
          self->created = g_value_dup_boxed (value);
        }
      break;

    case PROP_PROVIDER_DATA:
      agent_message_set_provider_data (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_message_class_init (AgentMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct = (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                           G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  object_class->dispose = agent_message_dispose;
  object_class->finalize = agent_message_finalize;
  object_class->get_property = agent_message_get_property;
  object_class->set_property = agent_message_set_property;

  /**
   * AgentMessage:role:
   *
   * Who wrote the message.
   */
  properties[PROP_ROLE] =
    g_param_spec_enum ("role", NULL, NULL,
                       AGENT_TYPE_MESSAGE_ROLE,
                       AGENT_MESSAGE_ROLE_USER,
                       construct);

  /**
   * AgentMessage:state:
   *
   * Whether the message is complete, still streaming, or was interrupted.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       AGENT_TYPE_MESSAGE_STATE,
                       AGENT_MESSAGE_STATE_COMPLETE,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentMessage:content:
   *
   * The text of the message, or %NULL when the model sent none (a message
   * with only tool calls). It grows while the message streams.
   */
  properties[PROP_CONTENT] =
    g_param_spec_string ("content", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:reasoning:
   *
   * The model's reasoning ("thinking") text, when the provider sends it.
   */
  properties[PROP_REASONING] =
    g_param_spec_string ("reasoning", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:refusal:
   *
   * The model's refusal to answer, when the provider reports one apart from
   * the content.
   */
  properties[PROP_REFUSAL] =
    g_param_spec_string ("refusal", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:tool-calls:
   *
   * The tool calls of an assistant message, as a list of
   * [class@Agent.ToolCall] in index order.
   */
  properties[PROP_TOOL_CALLS] =
    g_param_spec_object ("tool-calls", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentMessage:tool-call-id:
   *
   * For a tool result, the identifier of the call it answers.
   */
  properties[PROP_TOOL_CALL_ID] =
    g_param_spec_string ("tool-call-id", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:tool-name:
   *
   * For a tool result, the name of the tool that produced it.
   */
  properties[PROP_TOOL_NAME] =
    g_param_spec_string ("tool-name", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:is-error:
   *
   * For a tool result, whether the content is an error text.
   */
  properties[PROP_IS_ERROR] =
    g_param_spec_boolean ("is-error", NULL, NULL, FALSE, construct);

  /**
   * AgentMessage:finish-reason:
   *
   * Why the model stopped writing, as the provider named it (`"stop"`,
   * `"tool_calls"`, `"length"`, …), or %NULL if it did not say.
   */
  properties[PROP_FINISH_REASON] =
    g_param_spec_string ("finish-reason", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentMessage:usage:
   *
   * The tokens the request that produced this message used.
   */
  properties[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL, AGENT_TYPE_USAGE, construct);

  /**
   * AgentMessage:response-id:
   *
   * The provider's identifier of the response that produced this message.
   */
  properties[PROP_RESPONSE_ID] =
    g_param_spec_string ("response-id", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:model:
   *
   * The model that wrote this message, as the provider named it.
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL, construct);

  /**
   * AgentMessage:created:
   *
   * When the message was created.
   */
  properties[PROP_CREATED] =
    g_param_spec_boxed ("created", NULL, NULL, G_TYPE_DATE_TIME, construct);

  /**
   * AgentMessage:metrics:
   *
   * For an assistant message, what the request that produced it cost and
   * how fast it streamed.
   */
  properties[PROP_METRICS] =
    g_param_spec_boxed ("metrics", NULL, NULL,
                        AGENT_TYPE_METRICS,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentMessage:turn-metrics:
   *
   * For the final message of a turn, the metrics of the whole turn.
   */
  properties[PROP_TURN_METRICS] =
    g_param_spec_boxed ("turn-metrics", NULL, NULL,
                        AGENT_TYPE_METRICS,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentMessage:provider-data:
   *
   * What the provider needs sent back with this message but libagent does
   * not model: a JSON object with one member per provider name (for
   * example, Anthropic's thinking blocks with their signatures). Stores of
   * conversations keep it as it is; it is not for display.
   */
  properties[PROP_PROVIDER_DATA] =
    g_param_spec_boxed ("provider-data", NULL, NULL,
                        JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_message_init (AgentMessage *self)
{
  self->tool_calls = g_list_store_new (AGENT_TYPE_TOOL_CALL);
  self->created = g_date_time_new_now_utc ();
  self->state = AGENT_MESSAGE_STATE_COMPLETE;
}

/**
 * agent_message_new:
 * @role: who wrote the message
 * @content: (nullable): the text of the message
 *
 * Creates a complete message.
 *
 * Returns: (transfer full): a new [class@Agent.Message]
 *
 * Since: 0.1
 */
AgentMessage *
agent_message_new (AgentMessageRole  role,
                   const char       *content)
{
  return g_object_new (AGENT_TYPE_MESSAGE,
                       "role", role,
                       "content", content,
                       NULL);
}

/**
 * agent_message_new_tool_result:
 * @tool_call_id: the identifier of the call this answers
 * @tool_name: (nullable): the name of the tool
 * @content: the result, or the error text
 * @is_error: whether @content is an error
 *
 * Creates the message that gives a tool call's result back to the model.
 *
 * Returns: (transfer full): a new [class@Agent.Message] with the role
 *   %AGENT_MESSAGE_ROLE_TOOL
 *
 * Since: 0.1
 */
AgentMessage *
agent_message_new_tool_result (const char *tool_call_id,
                               const char *tool_name,
                               const char *content,
                               gboolean    is_error)
{
  g_return_val_if_fail (tool_call_id != NULL, NULL);
  g_return_val_if_fail (content != NULL, NULL);

  return g_object_new (AGENT_TYPE_MESSAGE,
                       "role", AGENT_MESSAGE_ROLE_TOOL,
                       "tool-call-id", tool_call_id,
                       "tool-name", tool_name,
                       "content", content,
                       "is-error", is_error,
                       NULL);
}

AgentMessage *
_agent_message_new_streaming (void)
{
  AgentMessage *self = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);

  self->state = AGENT_MESSAGE_STATE_STREAMING;
  return self;
}

/**
 * agent_message_get_role:
 * @self: a [class@Agent.Message]
 *
 * Gets the role of the message's author.
 *
 * Returns: who wrote the message
 *
 * Since: 0.1
 */
AgentMessageRole
agent_message_get_role (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), AGENT_MESSAGE_ROLE_USER);
  return self->role;
}

/**
 * agent_message_get_state:
 * @self: a [class@Agent.Message]
 *
 * Checks whether the message is complete.
 *
 * Returns: whether the message is complete
 *
 * Since: 0.1
 */
AgentMessageState
agent_message_get_state (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), AGENT_MESSAGE_STATE_COMPLETE);
  return self->state;
}

/**
 * agent_message_get_content:
 * @self: a [class@Agent.Message]
 *
 * Gets the text of the message. While the message streams, the returned
 * pointer is valid only until the next delta.
 *
 * Returns: (nullable): the text, or %NULL if the message has none
 *
 * Since: 0.1
 */
const char *
agent_message_get_content (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return string_or_null (self->content);
}

/**
 * agent_message_get_reasoning:
 * @self: a [class@Agent.Message]
 *
 * Gets the model's reasoning text, or %NULL.
 *
 * Returns: (nullable): the model's reasoning text, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_message_get_reasoning (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return string_or_null (self->reasoning);
}

/**
 * agent_message_get_refusal:
 * @self: a [class@Agent.Message]
 *
 * Gets the model's refusal, or %NULL.
 *
 * Returns: (nullable): the model's refusal, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_message_get_refusal (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return string_or_null (self->refusal);
}

/**
 * agent_message_get_tool_call_id:
 * @self: a [class@Agent.Message]
 *
 * Gets the identifier of the call that a tool result answers.
 *
 * Returns: (nullable): for a tool result, the identifier of the call it answers
 *
 * Since: 0.1
 */
const char *
agent_message_get_tool_call_id (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->tool_call_id;
}

/**
 * agent_message_get_tool_name:
 * @self: a [class@Agent.Message]
 *
 * Gets the name of the tool whose result the message holds.
 *
 * Returns: (nullable): for a tool result, the name of the tool
 *
 * Since: 0.1
 */
const char *
agent_message_get_tool_name (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->tool_name;
}

/**
 * agent_message_is_error:
 * @self: a [class@Agent.Message]
 *
 * Checks whether a tool result is an error.
 *
 * Returns: for a tool result, whether it is an error
 *
 * Since: 0.1
 */
gboolean
agent_message_is_error (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), FALSE);
  return self->is_error;
}

/**
 * agent_message_get_provider_data:
 * @self: a [class@Agent.Message]
 *
 * Gets the provider's own data for this message, a JSON object with one
 * member per provider name.
 *
 * Returns: (transfer none) (nullable): the provider's own data for this
 *   message, a JSON object with one member per provider name
 *
 * Since: 0.1
 */
JsonNode *
agent_message_get_provider_data (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->provider_data;
}

/**
 * agent_message_set_provider_data:
 * @self: a [class@Agent.Message]
 * @provider_data: (nullable): a JSON object, as
 *   [method@Agent.Message.get_provider_data] gave it
 *
 * Sets the provider's own data, for example when a stored conversation is
 * read back. A sealed copy is kept.
 *
 * Since: 0.1
 */
void
agent_message_set_provider_data (AgentMessage *self,
                                 JsonNode     *provider_data)
{
  g_return_if_fail (AGENT_IS_MESSAGE (self));
  g_return_if_fail (provider_data == NULL || JSON_NODE_HOLDS_OBJECT (provider_data));

  g_clear_pointer (&self->provider_data, json_node_unref);
  if (provider_data != NULL)
    self->provider_data = _agent_json_node_sealed_copy (provider_data);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROVIDER_DATA]);
}

/* When a message was made, and what the server reported about the request
 * that produced an assistant message. The turn sets these through the
 * _agent_message_set_*() functions below, which notify. */

/**
 * agent_message_get_finish_reason:
 * @self: a [class@Agent.Message]
 *
 * Gets why the model stopped, as the provider named it.
 *
 * Returns: (nullable): why the model stopped, as the provider named it
 *
 * Since: 0.1
 */
const char *
agent_message_get_finish_reason (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->finish_reason;
}

/**
 * agent_message_get_usage:
 * @self: a [class@Agent.Message]
 *
 * Gets the tokens used by the request that produced this message.
 *
 * Returns: (transfer none) (nullable): the tokens used by the request that
 *   produced this message
 *
 * Since: 0.1
 */
AgentUsage *
agent_message_get_usage (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->usage;
}

/**
 * agent_message_get_response_id:
 * @self: a [class@Agent.Message]
 *
 * Gets the provider's identifier of the response.
 *
 * Returns: (nullable): the provider's identifier of the response
 *
 * Since: 0.1
 */
const char *
agent_message_get_response_id (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->response_id;
}

/**
 * agent_message_get_model:
 * @self: a [class@Agent.Message]
 *
 * Gets the model that wrote the message.
 *
 * Returns: (nullable): the model that wrote the message
 *
 * Since: 0.1
 */
const char *
agent_message_get_model (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->model;
}

/**
 * agent_message_get_created:
 * @self: a [class@Agent.Message]
 *
 * Gets when the message was created.
 *
 * Returns: (transfer none): when the message was created
 *
 * Since: 0.1
 */
GDateTime *
agent_message_get_created (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->created;
}

/**
 * agent_message_get_metrics:
 * @self: a [class@Agent.Message]
 *
 * Gets the metrics of the request that produced an assistant message.
 *
 * Returns: (transfer none) (nullable): for an assistant message, the
 *   metrics of the request that produced it
 *
 * Since: 0.1
 */
AgentMetrics *
agent_message_get_metrics (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->metrics;
}

/**
 * agent_message_get_turn_metrics:
 * @self: a [class@Agent.Message]
 *
 * Gets the metrics of the whole turn, kept on its final message.
 *
 * Returns: (transfer none) (nullable): for the final message of a turn,
 *   the metrics of the whole turn
 *
 * Since: 0.1
 */
AgentMetrics *
agent_message_get_turn_metrics (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return self->turn_metrics;
}

/* The tool calls of an assistant message */

/**
 * agent_message_get_tool_calls:
 * @self: a [class@Agent.Message]
 *
 * Gets a list of [class@Agent.ToolCall], in index order.
 *
 * Returns: (transfer none): a list of [class@Agent.ToolCall], in index order
 *
 * Since: 0.1
 */
GListModel *
agent_message_get_tool_calls (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  return G_LIST_MODEL (self->tool_calls);
}

/**
 * agent_message_get_n_tool_calls:
 * @self: a [class@Agent.Message]
 *
 * Gets the number of tool calls in the message.
 *
 * Returns: the number of tool calls in the message
 *
 * Since: 0.1
 */
guint
agent_message_get_n_tool_calls (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->tool_calls));
}

/**
 * agent_message_get_tool_call:
 * @self: a [class@Agent.Message]
 * @position: the index of the call
 *
 * Gets the call at @position, or %NULL.
 *
 * Returns: (transfer none) (nullable): the call at @position, or %NULL
 *
 * Since: 0.1
 */
AgentToolCall *
agent_message_get_tool_call (AgentMessage *self,
                             guint         position)
{
  g_autoptr(AgentToolCall) call = NULL;

  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  /* The store keeps its own reference, so transfer none is safe. */
  call = g_list_model_get_item (G_LIST_MODEL (self->tool_calls), position);
  return call;
}

/**
 * agent_message_add_tool_call:
 * @self: a [class@Agent.Message]
 * @tool_call: a [class@Agent.ToolCall]
 *
 * Appends @tool_call to an assistant message, for example to rebuild a
 * stored conversation. Its index becomes its position.
 *
 * Since: 0.1
 */
void
agent_message_add_tool_call (AgentMessage  *self,
                             AgentToolCall *tool_call)
{
  g_return_if_fail (AGENT_IS_MESSAGE (self));
  g_return_if_fail (AGENT_IS_TOOL_CALL (tool_call));

  _agent_tool_call_set_index (tool_call, agent_message_get_n_tool_calls (self));
  g_list_store_append (self->tool_calls, tool_call);
}

void
_agent_message_clear_tool_calls (AgentMessage *self)
{
  g_list_store_remove_all (self->tool_calls);
}

static void
set_metrics (AgentMessage  *self,
             AgentMetrics **field,
             AgentMetrics  *metrics,
             GParamSpec    *pspec)
{
  if (*field == metrics)
    return;

  g_clear_pointer (field, agent_metrics_unref);
  *field = metrics ? agent_metrics_ref (metrics) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

void
_agent_message_set_metrics (AgentMessage *self,
                            AgentMetrics *metrics)
{
  set_metrics (self, &self->metrics, metrics, properties[PROP_METRICS]);
}

void
_agent_message_set_turn_metrics (AgentMessage *self,
                                 AgentMetrics *metrics)
{
  set_metrics (self, &self->turn_metrics, metrics, properties[PROP_TURN_METRICS]);
}

void
_agent_message_set_state (AgentMessage      *self,
                          AgentMessageState  state)
{
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
}

void
_agent_message_set_finish_reason (AgentMessage *self,
                                  const char   *finish_reason)
{
  if (g_strcmp0 (self->finish_reason, finish_reason) != 0)
    {
      g_free (self->finish_reason);
      self->finish_reason = g_strdup (finish_reason);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINISH_REASON]);
    }
}

void
_agent_message_set_usage (AgentMessage *self,
                          AgentUsage   *usage)
{
  if (self->usage != usage)
    {
      g_clear_pointer (&self->usage, agent_usage_unref);
      self->usage = usage ? agent_usage_ref (usage) : NULL;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USAGE]);
    }
}

void
_agent_message_set_response_id (AgentMessage *self,
                                const char   *response_id)
{
  if (g_strcmp0 (self->response_id, response_id) != 0)
    {
      g_free (self->response_id);
      self->response_id = g_strdup (response_id);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESPONSE_ID]);
    }
}

void
_agent_message_set_model (AgentMessage *self,
                          const char   *model)
{
  if (g_strcmp0 (self->model, model) != 0)
    {
      g_free (self->model);
      self->model = g_strdup (model);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
    }
}

void
_agent_message_notify_content (AgentMessage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
}

void
_agent_message_notify_reasoning (AgentMessage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REASONING]);
}

void
_agent_message_notify_refusal (AgentMessage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFUSAL]);
}
