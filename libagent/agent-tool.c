/* agent-tool.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-tool.h"
#include "agent-tool-invocation.h"

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
 * static void
 * get_time (AgentTool           *tool,
 *           AgentToolInvocation *invocation,
 *           gpointer             user_data)
 * {
 *   g_autoptr(GDateTime) now = g_date_time_new_now_local ();
 *   g_autofree char *text = g_date_time_format_iso8601 (now);
 *
 *   agent_tool_invocation_return_result (invocation, text);
 * }
 *
 * tool = agent_tool_new ("get_time", "Tells the current local time",
 *                        schema, get_time, NULL, NULL);
 * ```
 *
 * A tool can also be a subclass that overrides [vfunc@Agent.Tool.invoke].
 *
 * Since: 0.1
 */

typedef struct
{
  char           *name;
  char           *description;
  JsonNode       *parameters;
  AgentToolFunc   handler;
  gpointer        handler_data;
  GDestroyNotify  handler_destroy;
} AgentToolPrivate;

enum {
  PROP_0,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_PARAMETERS,
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
agent_tool_real_invoke (AgentTool           *self,
                        AgentToolInvocation *invocation)
{
  AgentToolPrivate *priv = agent_tool_get_instance_private (self);

  if (priv->handler != NULL)
    {
      priv->handler (self, invocation, priv->handler_data);
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
          /* Keep a deep, sealed copy: the caller may go on changing
           * theirs (json_node_copy() would share the object). */
          g_autofree char *text = json_to_string (g_value_get_boxed (value), FALSE);

          priv->parameters = json_from_string (text, NULL);
          if (priv->parameters != NULL)
            json_node_seal (priv->parameters);
        }
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

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_tool_init (AgentTool *self)
{
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
 * Creates a tool that runs @handler for each call.
 *
 * Returns: (transfer full): a new #AgentTool
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
  AgentToolPrivate *priv;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (handler != NULL, NULL);

  self = g_object_new (AGENT_TYPE_TOOL,
                       "name", name,
                       "description", description,
                       "parameters", parameters,
                       NULL);
  priv = agent_tool_get_instance_private (self);
  priv->handler = handler;
  priv->handler_data = user_data;
  priv->handler_destroy = destroy;

  return self;
}

/**
 * agent_tool_get_name:
 * @self: a #AgentTool
 *
 * Returns: the tool's name
 */
const char *
agent_tool_get_name (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->name;
}

/**
 * agent_tool_get_description:
 * @self: a #AgentTool
 *
 * Returns: what the tool does
 */
const char *
agent_tool_get_description (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->description;
}

/**
 * agent_tool_get_parameters:
 * @self: a #AgentTool
 *
 * Returns: (transfer none): the JSON Schema of the tool's arguments
 */
JsonNode *
agent_tool_get_parameters (AgentTool *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL (self), NULL);
  return ((AgentToolPrivate *)agent_tool_get_instance_private (self))->parameters;
}

/**
 * agent_tool_invoke:
 * @self: a #AgentTool
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
