/* agent-tool-call.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "json/agent-json-private.h"
#include "messages/agent-tool-call-private.h"

/**
 * AgentToolCall:
 *
 * One call of a tool, as the model wrote it in an assistant message.
 *
 * While the answer streams, the call's [property@Agent.ToolCall:arguments]
 * grow fragment by fragment; once the stream has ended the call is
 * %AGENT_TOOL_CALL_STATE_READY, and after the tool ran it carries the
 * [property@Agent.ToolCall:result].
 *
 * The arguments are kept exactly as the model sent them, byte for byte, so
 * they can be sent back to the model unchanged.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_INDEX,
  PROP_ID,
  PROP_NAME,
  PROP_ARGUMENTS,
  PROP_STATE,
  PROP_RESULT,
  PROP_IS_ERROR,
  PROP_PROGRESS,
  PROP_PROGRESS_TEXT,
  PROP_DURATION,
  PROP_PROVIDER_DATA,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentToolCall, agent_tool_call, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_tool_call_finalize (GObject *object)
{
  AgentToolCall *self = (AgentToolCall *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->type, g_free);
  g_clear_pointer (&self->result, g_free);
  g_clear_pointer (&self->attachments, g_ptr_array_unref);
  g_clear_pointer (&self->progress_text, g_free);
  g_clear_pointer (&self->provider_data, json_node_unref);
  g_string_free (self->arguments, TRUE);

  G_OBJECT_CLASS (agent_tool_call_parent_class)->finalize (object);
}

static void
agent_tool_call_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AgentToolCall *self = AGENT_TOOL_CALL (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;

    case PROP_ID:
      g_value_set_string (value, agent_tool_call_get_id (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, agent_tool_call_get_name (self));
      break;

    case PROP_ARGUMENTS:
      g_value_set_string (value, agent_tool_call_get_arguments (self));
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_RESULT:
      g_value_set_string (value, self->result);
      break;

    case PROP_IS_ERROR:
      g_value_set_boolean (value, self->is_error);
      break;

    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;

    case PROP_PROGRESS_TEXT:
      g_value_set_string (value, self->progress_text);
      break;

    case PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;

    case PROP_PROVIDER_DATA:
      g_value_set_boxed (value, self->provider_data);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_call_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AgentToolCall *self = AGENT_TOOL_CALL (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_free (self->id);
      self->id = g_value_dup_string (value);
      break;

    case PROP_NAME:
      g_free (self->name);
      self->name = g_value_dup_string (value);
      break;

    case PROP_ARGUMENTS:
      g_string_truncate (self->arguments, 0);
      if (g_value_get_string (value) != NULL)
        g_string_append (self->arguments, g_value_get_string (value));
      break;

    case PROP_PROVIDER_DATA:
      agent_tool_call_set_provider_data (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_call_class_init (AgentToolCallClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_tool_call_finalize;
  object_class->get_property = agent_tool_call_get_property;
  object_class->set_property = agent_tool_call_set_property;

  /**
   * AgentToolCall:index:
   *
   * The call's position in its message, from 0, in the order in which the
   * calls first appeared in the stream.
   */
  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:id:
   *
   * The identifier the model gave the call; the tool's result refers to it.
   */
  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:name:
   *
   * The name of the tool to call.
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:arguments:
   *
   * The arguments as the model wrote them (normally a JSON object), byte for
   * byte. They grow while the call streams.
   */
  properties[PROP_ARGUMENTS] =
    g_param_spec_string ("arguments", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:state:
   *
   * Where the call is in its life cycle.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       AGENT_TYPE_TOOL_CALL_STATE,
                       AGENT_TOOL_CALL_STATE_READY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:result:
   *
   * What the tool returned, or the error text when
   * [property@Agent.ToolCall:is-error] is set; %NULL until the tool finished.
   */
  properties[PROP_RESULT] =
    g_param_spec_string ("result", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:is-error:
   *
   * Whether [property@Agent.ToolCall:result] is an error.
   */
  properties[PROP_IS_ERROR] =
    g_param_spec_boolean ("is-error", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:progress:
   *
   * How far the running tool says it is, from 0 to 1, or -1 when it has not
   * said (see [method@Agent.ToolInvocation.report_progress]).
   */
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL,
                         -1, 1, -1,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:progress-text:
   *
   * The running tool's last line of progress, or %NULL.
   */
  properties[PROP_PROGRESS_TEXT] =
    g_param_spec_string ("progress-text", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:duration:
   *
   * How long the tool ran, in microseconds, or -1 if it has not run (yet).
   */
  properties[PROP_DURATION] =
    g_param_spec_int64 ("duration", NULL, NULL,
                        -1, G_MAXINT64, -1,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolCall:provider-data:
   *
   * What the provider needs sent back with this call but libagent does not
   * model (Gemini's thought signature, the Responses API's item id, …): a
   * JSON object with one member per provider name.
   */
  properties[PROP_PROVIDER_DATA] =
    g_param_spec_boxed ("provider-data", NULL, NULL,
                        JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_tool_call_init (AgentToolCall *self)
{
  self->arguments = g_string_new (NULL);
  self->state = AGENT_TOOL_CALL_STATE_READY;
  self->progress = -1;
  self->duration = -1;
}

/**
 * agent_tool_call_new:
 * @id: (nullable): the call's identifier
 * @name: the name of the tool
 * @arguments: (nullable): the arguments, as the model wrote them
 *
 * Creates a complete tool call, for example to rebuild a stored
 * conversation.
 *
 * Returns: (transfer full): a new [class@Agent.ToolCall]
 *
 * Since: 0.1
 */
AgentToolCall *
agent_tool_call_new (const char *id,
                     const char *name,
                     const char *arguments)
{
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (AGENT_TYPE_TOOL_CALL,
                       "id", id,
                       "name", name,
                       "arguments", arguments,
                       NULL);
}

AgentToolCall *
_agent_tool_call_new_streaming (guint index)
{
  AgentToolCall *self = g_object_new (AGENT_TYPE_TOOL_CALL, NULL);

  self->index = index;
  self->state = AGENT_TOOL_CALL_STATE_STREAMING;
  return self;
}

/**
 * agent_tool_call_get_index:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the call's position in its message.
 *
 * Returns: the call's position in its message
 *
 * Since: 0.1
 */
guint
agent_tool_call_get_index (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), 0);
  return self->index;
}

/**
 * agent_tool_call_get_id:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the call's identifier, or %NULL if not known (yet).
 *
 * Returns: (nullable): the call's identifier, or %NULL if not known (yet)
 *
 * Since: 0.1
 */
const char *
agent_tool_call_get_id (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->id;
}

/**
 * agent_tool_call_get_name:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the name of the tool, or %NULL if not known yet.
 *
 * Returns: (nullable): the name of the tool, or %NULL if not known yet
 *
 * Since: 0.1
 */
const char *
agent_tool_call_get_name (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->name;
}

/**
 * agent_tool_call_get_arguments:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the arguments exactly as the model wrote them. While the call
 * streams the string grows; the pointer is valid until the next fragment.
 *
 * Returns: (not nullable): the arguments, possibly empty
 *
 * Since: 0.1
 */
const char *
agent_tool_call_get_arguments (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->arguments->str;
}

/**
 * agent_tool_call_parse_arguments:
 * @self: a [class@Agent.ToolCall]
 * @error: return location for a [struct@GLib.Error]
 *
 * Parses the arguments. Empty arguments (which some servers send for a tool
 * without parameters) mean an empty object. Arguments nested more than
 * [const@Agent.JSON_MAX_DEPTH] deep are refused, with an error that says
 * so (see [func@Agent.json_parse]).
 *
 * Returns: (transfer full): a JSON object, or %NULL with @error set
 *   (%AGENT_ERROR_INVALID_ARGUMENT) when the arguments are not a JSON object
 *
 * Since: 0.1
 */
JsonNode *
agent_tool_call_parse_arguments (AgentToolCall  *self,
                                 GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  const char *p;

  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);

  for (p = self->arguments->str; g_ascii_isspace (*p); p++)
    ;
  if (*p == '\0')
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (node, json_object_new ());
      return node;
    }

  root = agent_json_parse (self->arguments->str, self->arguments->len, &local_error);
  if (root == NULL)
    {
      if (g_error_matches (local_error, AGENT_ERROR, AGENT_ERROR_LIMIT))
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The arguments of “%s” cannot be read: %s"),
                     self->name ? self->name : "", local_error->message);
      else
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The arguments of “%s” are not valid JSON: %s"),
                     self->name ? self->name : "", local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The arguments of “%s” are not a JSON object"),
                   self->name ? self->name : "");
      return NULL;
    }

  json_node_seal (root);
  return g_steal_pointer (&root);
}

/**
 * agent_tool_call_get_state:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets where the call is in its life cycle.
 *
 * Returns: where the call is in its life cycle
 *
 * Since: 0.1
 */
AgentToolCallState
agent_tool_call_get_state (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), AGENT_TOOL_CALL_STATE_READY);
  return self->state;
}

/**
 * agent_tool_call_get_result:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the tool's result or error text, or %NULL until the tool finished.
 *
 * Returns: (nullable): the tool's result or error text, or %NULL until the
 *   tool finished
 *
 * Since: 0.1
 */
const char *
agent_tool_call_get_result (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->result;
}

/**
 * agent_tool_call_is_error:
 * @self: a [class@Agent.ToolCall]
 *
 * Checks whether the result is an error.
 *
 * Returns: whether the result is an error
 *
 * Since: 0.1
 */
gboolean
agent_tool_call_is_error (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), FALSE);
  return self->is_error;
}

void
_agent_tool_call_set_id (AgentToolCall *self,
                         const char    *id)
{
  if (g_strcmp0 (self->id, id) != 0)
    {
      g_free (self->id);
      self->id = g_strdup (id);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ID]);
    }
}

void
_agent_tool_call_set_name (AgentToolCall *self,
                           const char    *name)
{
  if (g_strcmp0 (self->name, name) != 0)
    {
      g_free (self->name);
      self->name = g_strdup (name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
    }
}

void
_agent_tool_call_set_type (AgentToolCall *self,
                           const char    *type)
{
  if (g_strcmp0 (self->type, type) != 0)
    {
      g_free (self->type);
      self->type = g_strdup (type);
    }
}

const char *
_agent_tool_call_get_type_name (AgentToolCall *self)
{
  return self->type ? self->type : "function";
}

void
_agent_tool_call_set_index (AgentToolCall *self,
                            guint          index)
{
  if (self->index != index)
    {
      self->index = index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
}

/* Keeps the tool's running time: it starts when the call becomes
 * RUNNING and ends when it leaves that state. */
void
_agent_tool_call_set_state (AgentToolCall      *self,
                            AgentToolCallState  state)
{
  if (self->state == state)
    return;

  if (state == AGENT_TOOL_CALL_STATE_RUNNING)
    self->started = g_get_monotonic_time ();
  else if (self->state == AGENT_TOOL_CALL_STATE_RUNNING)
    {
      self->duration = g_get_monotonic_time () - self->started;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
    }

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
_agent_tool_call_set_progress (AgentToolCall *self,
                               double         fraction,
                               const char    *text)
{
  fraction = fraction < 0 ? -1 : MIN (fraction, 1.0);

  if (self->progress != fraction)
    {
      self->progress = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }

  if (text != NULL && g_strcmp0 (self->progress_text, text) != 0)
    {
      g_free (self->progress_text);
      self->progress_text = g_strdup (text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS_TEXT]);
    }
}

/**
 * agent_tool_call_get_provider_data:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the provider's own data for this call, a JSON object with one member
 * per provider name.
 *
 * Returns: (transfer none) (nullable): the provider's own data for this
 *   call, a JSON object with one member per provider name
 *
 * Since: 0.1
 */
JsonNode *
agent_tool_call_get_provider_data (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->provider_data;
}

/**
 * agent_tool_call_set_provider_data:
 * @self: a [class@Agent.ToolCall]
 * @provider_data: (nullable): a JSON object, as
 *   [method@Agent.ToolCall.get_provider_data] gave it
 *
 * Sets the provider's own data, for example when a stored conversation is
 * read back. A sealed copy is kept.
 *
 * Since: 0.1
 */
void
agent_tool_call_set_provider_data (AgentToolCall *self,
                                   JsonNode      *provider_data)
{
  g_return_if_fail (AGENT_IS_TOOL_CALL (self));
  g_return_if_fail (provider_data == NULL || JSON_NODE_HOLDS_OBJECT (provider_data));

  g_clear_pointer (&self->provider_data, json_node_unref);
  if (provider_data != NULL)
    self->provider_data = _agent_json_node_sealed_copy (provider_data);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROVIDER_DATA]);
}

/**
 * agent_tool_call_get_progress:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets how far the running tool says it is, from 0 to 1, or -1.
 *
 * Returns: how far the running tool says it is, from 0 to 1, or -1
 *
 * Since: 0.1
 */
double
agent_tool_call_get_progress (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), -1);
  return self->progress;
}

/**
 * agent_tool_call_get_progress_text:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets the running tool's last line of progress.
 *
 * Returns: (nullable): the running tool's last line of progress
 *
 * Since: 0.1
 */
const char *
agent_tool_call_get_progress_text (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), NULL);
  return self->progress_text;
}

/**
 * agent_tool_call_get_duration:
 * @self: a [class@Agent.ToolCall]
 *
 * Gets how long the tool ran, in microseconds, or -1 if it has not run.
 *
 * Returns: how long the tool ran, in microseconds, or -1 if it has not run
 *
 * Since: 0.1
 */
gint64
agent_tool_call_get_duration (AgentToolCall *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (self), -1);
  return self->duration;
}

void
_agent_tool_call_set_result (AgentToolCall *self,
                             const char    *result,
                             gboolean       is_error)
{
  g_free (self->result);
  self->result = g_strdup (result);
  self->is_error = !!is_error;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_ERROR]);
}

void
_agent_tool_call_notify_arguments (AgentToolCall *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGUMENTS]);
}
