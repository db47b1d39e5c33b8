/* agent-tool.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "tools/agent-tool.h"
#include "tools/agent-tool-invocation.h"
#include "agent-util-private.h"

/**
 * AgentTool:
 *
 * A tool the model may call: a name, a description that tells the model
 * what it does, a JSON Schema of its parameters, and a handler.
 *
 * The handler receives an [class@Agent.ToolInvocation] and completes it now
 * or later — from a thread, a subprocess or a dialog — with a result string
 * or an error, the way a D-Bus service completes a
 * [class@Gio.DBusMethodInvocation]:
 *
 * ```c
 * static gboolean
 * get_time (AgentTool           *tool,
 *           AgentToolInvocation *invocation,
 *           gpointer             user_data,
 *           GError             **error)
 * {
 *   g_autoptr(GDateTime) now = g_date_time_new_now_local ();
 *   g_autofree char *text = g_date_time_format_iso8601 (now);
 *
 *   agent_tool_invocation_return_result (invocation, text);
 *   return TRUE;
 * }
 *
 * tool = agent_tool_new ("get_time", "Tells the current local time",
 *                        schema, get_time, NULL, NULL);
 * ```
 *
 * In Python and JavaScript, the overrides that ship with libagent let a
 * handler simply return its result (a string as it is, other values as
 * JSON), raise an exception for an error result, or be an `async`
 * function; see the Python and JavaScript recipes in the overview:
 *
 * ```js
 * const tool = Agent.Tool.new('get_time', 'Tells the current local time',
 *     {type: 'object', properties: {}},
 *     () => GLib.DateTime.new_now_local().format_iso8601());
 * ```
 *
 * A tool can also be a subclass that overrides [vfunc@Agent.Tool.invoke].
 *
 * Since: 0.1
 */

typedef struct
{
  char                  *name;
  char                  *description;
  JsonNode              *parameters;
  AgentToolFunc          handler;
  AgentToolBlockingFunc  blocking;
  gpointer               handler_data;
  GDestroyNotify         handler_destroy;
  double                 timeout;
  guint                  requires_approval : 1;
  guint                  return_direct : 1;
} AgentToolPrivate;

enum {
  PROP_0,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_PARAMETERS,
  PROP_REQUIRES_APPROVAL,
  PROP_RETURN_DIRECT,
  PROP_TIMEOUT,
  N_PROPS
};

G_DEFINE_TYPE_WITH_PRIVATE (AgentTool, agent_tool, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static JsonNode *
empty_parameters (void)
{
  JsonBuilder *builder = json_builder_new_immutable ();
  JsonNode *node;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  g_object_unref (builder);

  return node;
}

static void
run_blocking_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AgentToolInvocation) invocation = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), &error);

  if (text != NULL)
    agent_tool_invocation_return_result (invocation, text);
  else
    agent_tool_invocation_return_error (invocation, error);
}

static void
run_blocking_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  AgentTool *self = source_object;
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);
  AgentToolInvocation *invocation = task_data;
  GError *error = NULL;
  char *text;

  text = priv->blocking (self, agent_tool_invocation_get_arguments (invocation),
                         cancellable, priv->handler_data, &error);

  if (text == NULL && error == NULL)
    g_set_error (&error, AGENT_ERROR, AGENT_ERROR_TOOL,
                 _("The tool “%s” returned no result"), priv->name);

  if (error != NULL)
    {
      g_free (text);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, text, g_free);
}

static void
agent_tool_real_invoke (AgentTool           *self,
                        AgentToolInvocation *invocation)
{
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  if (priv->blocking != NULL)
    {
      g_autoptr(GTask) task = NULL;

      task = g_task_new (self, agent_tool_invocation_get_cancellable (invocation),
                         run_blocking_cb, g_object_ref (invocation));
      g_task_set_source_tag (task, agent_tool_real_invoke);
      /* The thread's result is taken even if the call was cancelled: the
       * body saw the cancellable and says what it did. */
      g_task_set_check_cancellable (task, FALSE);
      g_task_set_task_data (task, g_object_ref (invocation), g_object_unref);
      g_task_run_in_thread (task, run_blocking_thread);
      return;
    }

  if (priv->handler != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (priv->handler (self, invocation, priv->handler_data, &error)
          || agent_tool_invocation_is_completed (invocation))
        return;

      /* The handler failed before answering: in Python or JavaScript, it
       * raised an exception, which the binding turned into @error (or only
       * printed). */
      if (error != NULL)
        agent_tool_invocation_return_error (invocation, error);
      else
        {
          g_autofree char *message = g_strdup_printf (_("The tool “%s” failed"), priv->name);

          agent_tool_invocation_return_error_literal (invocation, message);
        }
      return;
    }

  agent_tool_invocation_return_error_literal (invocation, _("This tool has no handler"));
}

static void
agent_tool_finalize (GObject *object)
{
  AgentTool *self = (AgentTool *)object;
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  if (priv->handler_destroy != NULL)
    priv->handler_destroy (priv->handler_data);

  g_clear_pointer (&priv->name, g_free);
  g_clear_pointer (&priv->description, g_free);
  g_clear_pointer (&priv->parameters, json_node_unref);

  G_OBJECT_CLASS (agent_tool_parent_class)->finalize (object);
}

static void
agent_tool_constructed (GObject *object)
{
  AgentTool *self = (AgentTool *)object;
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  G_OBJECT_CLASS (agent_tool_parent_class)->constructed (object);

  if (priv->parameters == NULL)
    priv->parameters = empty_parameters ();
  if (priv->description == NULL)
    priv->description = g_strdup ("");
  if (priv->name == NULL || priv->name[0] == '\0')
    g_critical ("An AgentTool needs a name");
}

static void
agent_tool_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  AgentTool *self = AGENT_TOOL (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, agent_tool_get_name (self));
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, agent_tool_get_description (self));
      break;

    case PROP_PARAMETERS:
      g_value_set_boxed (value, agent_tool_get_parameters (self));
      break;

    case PROP_REQUIRES_APPROVAL:
      g_value_set_boolean (value, agent_tool_get_requires_approval (self));
      break;

    case PROP_RETURN_DIRECT:
      g_value_set_boolean (value, agent_tool_get_return_direct (self));
      break;

    case PROP_TIMEOUT:
      g_value_set_double (value, agent_tool_get_timeout (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  AgentTool *self = AGENT_TOOL (object);
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_NAME:
      g_free (priv->name);
      priv->name = g_value_dup_string (value);
      break;

    case PROP_DESCRIPTION:
      g_free (priv->description);
      priv->description = g_value_dup_string (value);
      break;

    case PROP_PARAMETERS:
      g_clear_pointer (&priv->parameters, json_node_unref);
      if (g_value_get_boxed (value) != NULL)
        {
          /* Keep a deep, sealed copy: the caller may go on changing theirs. */
          priv->parameters = _agent_json_node_sealed_copy (g_value_get_boxed (value));
        }
      break;

    case PROP_REQUIRES_APPROVAL:
      agent_tool_set_requires_approval (self, g_value_get_boolean (value));
      break;

    case PROP_RETURN_DIRECT:
      agent_tool_set_return_direct (self, g_value_get_boolean (value));
      break;

    case PROP_TIMEOUT:
      agent_tool_set_timeout (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_class_init (AgentToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agent_tool_constructed;
  object_class->finalize = agent_tool_finalize;
  object_class->get_property = agent_tool_get_property;
  object_class->set_property = agent_tool_set_property;

  klass->invoke = agent_tool_real_invoke;

  /**
   * AgentTool:name:
   *
   * The name the model calls the tool by. Providers accept letters, digits,
   * `_` and `-`.
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentTool:description:
   *
   * What the tool does, for the model.
   */
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentTool:parameters:
   *
   * A JSON Schema (an object of `"type": "object"`) describing the
   * arguments. A tool without parameters has an empty object schema.
   */
  properties[PROP_PARAMETERS] =
    g_param_spec_boxed ("parameters", NULL, NULL,
                        JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentTool:requires-approval:
   *
   * Whether the user must approve each call before the tool runs (see
   * [signal@Agent.Session::approve-tool-call]). Without anyone to ask, the
   * tool does not run.
   */
  properties[PROP_REQUIRES_APPROVAL] =
    g_param_spec_boolean ("requires-approval", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentTool:return-direct:
   *
   * Whether the tool's result is the answer: when every call of a step is
   * to tools that return directly and all succeed, their results end the
   * turn and the model is not asked again.
   */
  properties[PROP_RETURN_DIRECT] =
    g_param_spec_boolean ("return-direct", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentTool:timeout:
   *
   * The most seconds one call may run before it is cancelled and answers
   * that it timed out, or 0 to use the session's
   * [property@Agent.Session:tool-timeout].
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 0,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_tool_init (AgentTool *self)
{
}

/* The part the constructors share; each then sets its kind of handler. */
static AgentTool *
tool_new (const char     *name,
          const char     *description,
          JsonNode       *parameters,
          gpointer        user_data,
          GDestroyNotify  destroy)
{
  AgentTool *self = g_object_new (AGENT_TYPE_TOOL,
                                  "name", name,
                                  "description", description,
                                  "parameters", parameters,
                                  NULL);
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  priv->handler_data = user_data;
  priv->handler_destroy = destroy;

  return self;
}

/**
 * agent_tool_new:
 * @name: the tool's name
 * @description: what the tool does, for the model
 * @parameters: (nullable): a JSON Schema object for the arguments
 * @handler: (scope notified) (closure user_data) (destroy destroy): the
 *   function that runs the tool
 * @user_data: data for @handler
 * @destroy: (nullable): frees @user_data when the tool is finalized
 *
 * Creates a tool that runs @handler for each call. @handler completes each
 * invocation, at once or later, and returns %TRUE; a handler that fails
 * returns %FALSE, and its error becomes the call's error result, which the
 * model sees. In Python and JavaScript, an exception raised by the handler
 * does the same, instead of leaving the call unanswered:
 *
 * ```python
 * def get_weather(tool, invocation):
 *     city = invocation.get_arguments().get_object().get_string_member("city")
 *     invocation.return_result(f"Sunny, 21 °C in {city}")
 *     return True
 *
 * tool = Agent.Tool.new("get_weather", "Tells the weather in a city",
 *                       Json.from_string(SCHEMA), get_weather)
 * ```
 *
 * (The overrides that ship with libagent also let such a handler simply
 * return its result; see [class@Agent.Tool].)
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_tool_new (const char     *name,
                const char     *description,
                JsonNode       *parameters,
                AgentToolFunc   handler,
                gpointer        user_data,
                GDestroyNotify  destroy)
{
  AgentTool *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (handler != NULL, NULL);

  self = tool_new (name, description, parameters, user_data, destroy);
  ((AgentToolPrivate *)agent_tool_get_instance_private (self))->handler = handler;

  return self;
}

/**
 * agent_tool_new_blocking:
 * @name: the tool's name
 * @description: what the tool does, for the model
 * @parameters: (nullable): a JSON Schema object for the arguments
 * @func: (scope notified) (closure user_data) (destroy destroy): the body
 *   of the tool, run in a worker thread for each call
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the tool is finalized
 *
 * Creates a tool whose body blocks. Each call runs @func in a thread of
 * GLib's pool, side by side with the other calls of the step, and its
 * return value (or error) becomes the call's result. @func should watch
 * its cancellable: it is cancelled when the turn is, or when the call
 * times out.
 *
 * Python functions work here (they take the interpreter's lock in the
 * thread); JavaScript functions do not, since GJS runs JavaScript on the
 * main thread only: use [ctor@Agent.Tool.new] there.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_tool_new_blocking (const char            *name,
                         const char            *description,
                         JsonNode              *parameters,
                         AgentToolBlockingFunc  func,
                         gpointer               user_data,
                         GDestroyNotify         destroy)
{
  AgentTool *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (func != NULL, NULL);

  self = tool_new (name, description, parameters, user_data, destroy);
  ((AgentToolPrivate *)agent_tool_get_instance_private (self))->blocking = func;

  return self;
}

/**
 * agent_tool_get_requires_approval:
 * @self: a [class@Agent.Tool]
 *
 * Checks whether each call needs the user's approval.
 *
 * Returns: whether each call needs the user's approval
 *
 * Since: 0.1
 */
gboolean
agent_tool_get_requires_approval (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), FALSE);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->requires_approval;
}

/**
 * agent_tool_set_requires_approval:
 * @self: a [class@Agent.Tool]
 * @requires_approval: whether each call needs the user's approval
 *
 * Sets [property@Agent.Tool:requires-approval].
 *
 * Since: 0.1
 */
void
agent_tool_set_requires_approval (AgentTool *self,
                                  gboolean   requires_approval)
{
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  g_return_if_fail (AGENT_IS_TOOL (self));

  if (priv->requires_approval != !!requires_approval)
    {
      priv->requires_approval = !!requires_approval;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUIRES_APPROVAL]);
    }
}

/**
 * agent_tool_get_return_direct:
 * @self: a [class@Agent.Tool]
 *
 * Checks whether the tool's result is the turn's answer.
 *
 * Returns: whether the tool's result is the turn's answer
 *
 * Since: 0.1
 */
gboolean
agent_tool_get_return_direct (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), FALSE);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->return_direct;
}

/**
 * agent_tool_set_return_direct:
 * @self: a [class@Agent.Tool]
 * @return_direct: whether the tool's result is the turn's answer
 *
 * Sets [property@Agent.Tool:return-direct].
 *
 * Since: 0.1
 */
void
agent_tool_set_return_direct (AgentTool *self,
                              gboolean   return_direct)
{
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  g_return_if_fail (AGENT_IS_TOOL (self));

  if (priv->return_direct != !!return_direct)
    {
      priv->return_direct = !!return_direct;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETURN_DIRECT]);
    }
}

/**
 * agent_tool_get_timeout:
 * @self: a [class@Agent.Tool]
 *
 * Gets the most seconds a call may run, or 0 for the session's limit.
 *
 * Returns: the most seconds a call may run, or 0 for the session's limit
 *
 * Since: 0.1
 */
double
agent_tool_get_timeout (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), 0);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->timeout;
}

/**
 * agent_tool_set_timeout:
 * @self: a [class@Agent.Tool]
 * @timeout: the most seconds a call may run, or 0 for the session's limit
 *
 * Sets [property@Agent.Tool:timeout].
 *
 * Since: 0.1
 */
void
agent_tool_set_timeout (AgentTool *self,
                        double     timeout)
{
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  g_return_if_fail (AGENT_IS_TOOL (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (timeout));

  if (priv->timeout != timeout)
    {
      priv->timeout = timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
    }
}

/**
 * agent_tool_get_name:
 * @self: a [class@Agent.Tool]
 *
 * Gets the tool's name.
 *
 * Returns: the tool's name
 *
 * Since: 0.1
 */
const char *
agent_tool_get_name (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->name;
}

/**
 * agent_tool_get_description:
 * @self: a [class@Agent.Tool]
 *
 * Gets what the tool does.
 *
 * Returns: what the tool does
 *
 * Since: 0.1
 */
const char *
agent_tool_get_description (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->description;
}

/**
 * agent_tool_get_parameters:
 * @self: a [class@Agent.Tool]
 *
 * Gets the JSON Schema of the tool's arguments.
 *
 * Returns: (transfer none): the JSON Schema of the tool's arguments
 *
 * Since: 0.1
 */
JsonNode *
agent_tool_get_parameters (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->parameters;
}

/**
 * agent_tool_invoke:
 * @self: a [class@Agent.Tool]
 * @invocation: the call to run
 *
 * Runs the tool for @invocation. Sessions call this; applications may too,
 * to run a tool by hand. Nothing happens if @invocation is already
 * completed (for example because its arguments could not be parsed).
 *
 * Since: 0.1
 */
void
agent_tool_invoke (AgentTool           *self,
                   AgentToolInvocation *invocation)
{
  g_return_if_fail (AGENT_IS_TOOL (self));
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (invocation));
  g_return_if_fail (agent_tool_invocation_get_tool (invocation) == self);

  if (agent_tool_invocation_is_completed (invocation))
    return;

  g_object_ref (invocation);
  AGENT_TOOL_GET_CLASS (self)->invoke (self, invocation);
  g_object_unref (invocation);
}

/**
 * agent_tool_parse_parameters:
 * @schema: a JSON Schema, as JSON text
 * @error: return location for a [struct@GLib.Error]
 *
 * Parses the JSON Schema of a tool's parameters, for
 * [ctor@Agent.Tool.new] and the like. It must be a JSON object whose
 * `type`, if given, is `"object"`.
 *
 * Returns: (transfer full): the schema, sealed, or %NULL with @error set
 *   (%AGENT_ERROR_INVALID_ARGUMENT, saying what is wrong)
 *
 * Since: 0.1
 */
JsonNode *
agent_tool_parse_parameters (const char  *schema,
                             GError     **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (const char *p = schema; ; p++)
    {
      if (*p == '\0')
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The parameters schema is empty"));
          return NULL;
        }
      if (!g_ascii_isspace (*p))
        break;
    }

  node = agent_json_parse (schema, -1, &parse_error);
  if (node == NULL && g_error_matches (parse_error, AGENT_ERROR, AGENT_ERROR_LIMIT))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The parameters schema cannot be read: %s"), parse_error->message);
      return NULL;
    }
  if (node == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The parameters schema is not valid JSON: %s"), parse_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The parameters schema is not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  if (json_object_has_member (object, "type") &&
      g_strcmp0 (json_object_get_string_member_with_default (object, "type", NULL),
                 "object") != 0)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The parameters schema must have \"type\": \"object\""));
      return NULL;
    }

  json_node_seal (node);
  return g_steal_pointer (&node);
}
