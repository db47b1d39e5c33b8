/* agent-mcp-prompt.c — a prompt an MCP server offers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "mcp/agent-mcp-private.h"

/**
 * AgentMcpPrompt:
 *
 * A prompt of an MCP server, as [method@Agent.McpClient.list_prompts_async]
 * lists it: a name, what it is for, and the arguments it takes, for a
 * user interface to offer (a "/" command and its completion). Its messages
 * come from [method@Agent.McpClient.get_prompt_async].
 *
 * Since: 0.1
 */

typedef struct
{
  char     *description;
  gboolean  required;
} Argument;

struct _AgentMcpPrompt
{
  GObject     parent_instance;

  char       *name;
  char       *title;
  char       *description;
  char      **argument_names;
  GHashTable *arguments;      /* name → Argument */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_ARGUMENT_NAMES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentMcpPrompt, agent_mcp_prompt, G_TYPE_OBJECT)

static void
argument_free (Argument *argument)
{
  g_free (argument->description);
  g_free (argument);
}

static void
agent_mcp_prompt_finalize (GObject *object)
{
  AgentMcpPrompt *self = (AgentMcpPrompt *)object;

  g_free (self->name);
  g_free (self->title);
  g_free (self->description);
  g_strfreev (self->argument_names);
  g_hash_table_unref (self->arguments);

  G_OBJECT_CLASS (agent_mcp_prompt_parent_class)->finalize (object);
}

static void
agent_mcp_prompt_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AgentMcpPrompt *self = AGENT_MCP_PROMPT (object);

  switch (prop_id)
    {
    case PROP_NAME:           g_value_set_string (value, self->name); break;
    case PROP_TITLE:          g_value_set_string (value, self->title); break;
    case PROP_DESCRIPTION:    g_value_set_string (value, self->description); break;
    case PROP_ARGUMENT_NAMES: g_value_set_boxed (value, self->argument_names); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_prompt_class_init (AgentMcpPromptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_mcp_prompt_finalize;
  object_class->get_property = agent_mcp_prompt_get_property;

  /**
   * AgentMcpPrompt:name:
   *
   * The server's name for the prompt, which
   * [method@Agent.McpClient.get_prompt_async] takes.
   *
   * Since: 0.1
   */
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);

  /**
   * AgentMcpPrompt:title:
   *
   * A name for people to read, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);

  /**
   * AgentMcpPrompt:description:
   *
   * What the prompt is for, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, flags);

  /**
   * AgentMcpPrompt:argument-names:
   *
   * The names of the arguments the prompt takes, in the server's order.
   *
   * Since: 0.1
   */
  properties[PROP_ARGUMENT_NAMES] =
    g_param_spec_boxed ("argument-names", NULL, NULL, G_TYPE_STRV, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_mcp_prompt_init (AgentMcpPrompt *self)
{
  self->arguments = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) argument_free);
}

static char *
dup_string (JsonObject *object,
            const char *member)
{
  return g_strdup (_agent_mcp_string (object, member));
}

/* A prompt of a prompts/list answer, or NULL if it has no name */
AgentMcpPrompt *
_agent_mcp_prompt_new (JsonObject *definition)
{
  g_autoptr(AgentMcpPrompt) self = g_object_new (AGENT_TYPE_MCP_PROMPT, NULL);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  JsonNode *arguments = json_object_get_member (definition, "arguments");

  self->name = dup_string (definition, "name");
  if (self->name == NULL || self->name[0] == '\0')
    return NULL;
  self->title = dup_string (definition, "title");
  self->description = dup_string (definition, "description");

  if (arguments != NULL && JSON_NODE_HOLDS_ARRAY (arguments))
    {
      JsonArray *array = json_node_get_array (arguments);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          JsonObject *object;
          Argument *argument;
          char *name;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          object = json_node_get_object (element);
          name = dup_string (object, "name");
          if (name == NULL || g_hash_table_contains (self->arguments, name))
            {
              g_free (name);
              continue;
            }
          argument = g_new0 (Argument, 1);
          argument->description = dup_string (object, "description");
          argument->required = json_object_get_boolean_member_with_default (object, "required",
                                                                            FALSE);
          g_strv_builder_add (names, name);
          g_hash_table_insert (self->arguments, name, argument);
        }
    }
  self->argument_names = g_strv_builder_end (names);

  return g_steal_pointer (&self);
}

/**
 * agent_mcp_prompt_get_name:
 * @self: a [class@Agent.McpPrompt]
 *
 * Gets [property@Agent.McpPrompt:name].
 *
 * Returns: the server's name for the prompt
 *
 * Since: 0.1
 */
const char *
agent_mcp_prompt_get_name (AgentMcpPrompt *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), NULL);
  return self->name;
}

/**
 * agent_mcp_prompt_get_title:
 * @self: a [class@Agent.McpPrompt]
 *
 * Gets [property@Agent.McpPrompt:title].
 *
 * Returns: (nullable): a name for people to read, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_mcp_prompt_get_title (AgentMcpPrompt *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), NULL);
  return self->title;
}

/**
 * agent_mcp_prompt_get_description:
 * @self: a [class@Agent.McpPrompt]
 *
 * Gets [property@Agent.McpPrompt:description].
 *
 * Returns: (nullable): what the prompt is for, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_mcp_prompt_get_description (AgentMcpPrompt *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), NULL);
  return self->description;
}

/**
 * agent_mcp_prompt_get_argument_names:
 * @self: a [class@Agent.McpPrompt]
 *
 * Gets [property@Agent.McpPrompt:argument-names].
 *
 * Returns: (transfer none) (array zero-terminated=1): the names of its
 *   arguments, in order
 *
 * Since: 0.1
 */
const char * const *
agent_mcp_prompt_get_argument_names (AgentMcpPrompt *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), NULL);
  return (const char * const *) self->argument_names;
}

/**
 * agent_mcp_prompt_get_argument_description:
 * @self: a [class@Agent.McpPrompt]
 * @argument: the name of one of its arguments
 *
 * Gets what an argument is for.
 *
 * Returns: (nullable): its description, or %NULL if it has none or the
 *   prompt takes no such argument
 *
 * Since: 0.1
 */
const char *
agent_mcp_prompt_get_argument_description (AgentMcpPrompt *self,
                                           const char     *argument)
{
  Argument *found;

  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), NULL);
  g_return_val_if_fail (argument != NULL, NULL);

  found = g_hash_table_lookup (self->arguments, argument);
  return found ? found->description : NULL;
}

/**
 * agent_mcp_prompt_get_argument_required:
 * @self: a [class@Agent.McpPrompt]
 * @argument: the name of one of its arguments
 *
 * Gets whether an argument must be given.
 *
 * Returns: %TRUE if the prompt requires it
 *
 * Since: 0.1
 */
gboolean
agent_mcp_prompt_get_argument_required (AgentMcpPrompt *self,
                                        const char     *argument)
{
  Argument *found;

  g_return_val_if_fail (AGENT_IS_MCP_PROMPT (self), FALSE);
  g_return_val_if_fail (argument != NULL, FALSE);

  found = g_hash_table_lookup (self->arguments, argument);
  return found != NULL && found->required;
}
