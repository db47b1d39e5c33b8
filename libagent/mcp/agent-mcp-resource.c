/* agent-mcp-resource.c — a resource an MCP server offers, or a template of them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "mcp/agent-mcp-private.h"

/**
 * AgentMcpResource:
 *
 * A resource of an MCP server, as [method@Agent.McpClient.list_resources_async]
 * lists it: its URI, a name, and what the server says of it. Its contents
 * come from [method@Agent.McpClient.read_resource_async].
 *
 * [method@Agent.McpClient.list_resource_templates_async] lists templates
 * the same way: they have a [property@Agent.McpResource:uri-template]
 * (RFC 6570, `file:///{path}`) in place of a URI.
 *
 * Since: 0.1
 */

struct _AgentMcpResource
{
  GObject  parent_instance;

  char    *uri;
  char    *uri_template;
  char    *name;
  char    *title;
  char    *description;
  char    *mime_type;
  gint64   size;
};

enum {
  PROP_0,
  PROP_URI,
  PROP_URI_TEMPLATE,
  PROP_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_MIME_TYPE,
  PROP_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentMcpResource, agent_mcp_resource, G_TYPE_OBJECT)

static void
agent_mcp_resource_finalize (GObject *object)
{
  AgentMcpResource *self = (AgentMcpResource *)object;

  g_free (self->uri);
  g_free (self->uri_template);
  g_free (self->name);
  g_free (self->title);
  g_free (self->description);
  g_free (self->mime_type);

  G_OBJECT_CLASS (agent_mcp_resource_parent_class)->finalize (object);
}

static void
agent_mcp_resource_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentMcpResource *self = AGENT_MCP_RESOURCE (object);

  switch (prop_id)
    {
    case PROP_URI:          g_value_set_string (value, self->uri); break;
    case PROP_URI_TEMPLATE: g_value_set_string (value, self->uri_template); break;
    case PROP_NAME:         g_value_set_string (value, self->name); break;
    case PROP_TITLE:        g_value_set_string (value, self->title); break;
    case PROP_DESCRIPTION:  g_value_set_string (value, self->description); break;
    case PROP_MIME_TYPE:    g_value_set_string (value, self->mime_type); break;
    case PROP_SIZE:         g_value_set_int64 (value, self->size); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_resource_class_init (AgentMcpResourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_mcp_resource_finalize;
  object_class->get_property = agent_mcp_resource_get_property;

  /**
   * AgentMcpResource:uri:
   *
   * The resource's URI, or %NULL for a template.
   *
   * Since: 0.1
   */
  properties[PROP_URI] = g_param_spec_string ("uri", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:uri-template:
   *
   * The URI template (RFC 6570) of a template, or %NULL for a resource.
   *
   * Since: 0.1
   */
  properties[PROP_URI_TEMPLATE] = g_param_spec_string ("uri-template", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:name:
   *
   * The server's name for it.
   *
   * Since: 0.1
   */
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:title:
   *
   * A name for people to read, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:description:
   *
   * What it holds, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:mime-type:
   *
   * Its media type, or %NULL if the server did not say.
   *
   * Since: 0.1
   */
  properties[PROP_MIME_TYPE] = g_param_spec_string ("mime-type", NULL, NULL, NULL, flags);

  /**
   * AgentMcpResource:size:
   *
   * Its size in bytes, or -1 if the server did not say.
   *
   * Since: 0.1
   */
  properties[PROP_SIZE] = g_param_spec_int64 ("size", NULL, NULL, -1, G_MAXINT64, -1, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_mcp_resource_init (AgentMcpResource *self)
{
  self->size = -1;
}

static char *
dup_string (JsonObject *object,
            const char *member)
{
  return g_strdup (_agent_mcp_string (object, member));
}

/* A resource (or, if @is_template, a template) of a listing, or NULL if
 * it has no URI (or template) */
AgentMcpResource *
_agent_mcp_resource_new (JsonObject *definition,
                         gboolean    is_template)
{
  g_autoptr(AgentMcpResource) self = g_object_new (AGENT_TYPE_MCP_RESOURCE, NULL);
  JsonNode *size = json_object_get_member (definition, "size");

  if (is_template)
    self->uri_template = dup_string (definition, "uriTemplate");
  else
    self->uri = dup_string (definition, "uri");
  if (self->uri == NULL && self->uri_template == NULL)
    return NULL;

  self->name = dup_string (definition, "name");
  if (self->name == NULL)
    self->name = g_strdup (self->uri ? self->uri : self->uri_template);
  self->title = dup_string (definition, "title");
  self->description = dup_string (definition, "description");
  self->mime_type = dup_string (definition, "mimeType");
  if (size != NULL && JSON_NODE_HOLDS_VALUE (size) &&
      json_node_get_value_type (size) == G_TYPE_INT64 && json_node_get_int (size) >= 0)
    self->size = json_node_get_int (size);

  return g_steal_pointer (&self);
}

/**
 * agent_mcp_resource_get_uri:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:uri].
 *
 * Returns: (nullable): the URI, or %NULL for a template
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_uri (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->uri;
}

/**
 * agent_mcp_resource_get_uri_template:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:uri-template].
 *
 * Returns: (nullable): the URI template, or %NULL for a resource
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_uri_template (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->uri_template;
}

/**
 * agent_mcp_resource_get_name:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:name].
 *
 * Returns: the server's name for it (its URI when it gave none)
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_name (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->name;
}

/**
 * agent_mcp_resource_get_title:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:title].
 *
 * Returns: (nullable): a name for people to read, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_title (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->title;
}

/**
 * agent_mcp_resource_get_description:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:description].
 *
 * Returns: (nullable): what it holds, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_description (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->description;
}

/**
 * agent_mcp_resource_get_mime_type:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:mime-type].
 *
 * Returns: (nullable): its media type, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_mcp_resource_get_mime_type (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), NULL);
  return self->mime_type;
}

/**
 * agent_mcp_resource_get_size:
 * @self: a [class@Agent.McpResource]
 *
 * Gets [property@Agent.McpResource:size].
 *
 * Returns: its size in bytes, or -1 if unknown
 *
 * Since: 0.1
 */
gint64
agent_mcp_resource_get_size (AgentMcpResource *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_RESOURCE (self), -1);
  return self->size;
}
