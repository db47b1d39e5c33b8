/* agent-mcp-tool.c — a tool of an MCP server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-schema.h"
#include "mcp/agent-mcp-private.h"
#include "tools/agent-tool-invocation.h"

/* Providers take tool names of letters, digits, '_' and '-', 64 at most. */
#define MAX_NAME 64

/**
 * AgentMcpTool:
 *
 * A tool of an MCP server, as listed by its [class@Agent.McpClient]: the
 * name, description and input schema come from the server, and running it
 * is a `tools/call` request.
 *
 * The name is the server's, with the client's
 * [property@Agent.McpClient:tool-prefix] before it and any character
 * other than letters, digits, `_` and `-` made a `_`, as model APIs want;
 * [method@Agent.McpTool.get_remote_name] gives the server's own.
 *
 * The result for the model is the text of the tool's content blocks, one
 * after the other; an image, an audio clip or a resource that is not text
 * is described in brackets (`[Image: image/png, 2.3 kB]`), and
 * `structuredContent` is given as JSON when there is no text. A result
 * marked `isError` is an error result. Progress notifications are the
 * invocation's progress.
 *
 * The server's hints about the tool are properties:
 * [property@Agent.McpTool:read-only-hint],
 * [property@Agent.McpTool:destructive-hint],
 * [property@Agent.McpTool:idempotent-hint] and
 * [property@Agent.McpTool:open-world-hint]. They decide, with the
 * client's [property@Agent.McpClient:trusted],
 * [property@Agent.McpClient:allow-read-only] and
 * [property@Agent.McpClient:allow-destructive], whether a call asks for
 * approval ([property@Agent.Tool:requires-approval]).
 *
 * A tool with an [property@Agent.McpTool:output-schema] must answer with
 * `structuredContent` that follows it: a result that does not is an error
 * result that says where it differs.
 *
 * Since: 0.1
 */

struct _AgentMcpTool
{
  AgentTool  parent_instance;

  GWeakRef   client;
  char      *remote_name;
  char      *title;
  JsonNode  *annotations;
  JsonNode  *output_schema;
  GPtrArray *param_headers;  /* of AgentMcpParamHeader, or NULL */
};

enum {
  PROP_0,
  PROP_TITLE,
  PROP_READ_ONLY_HINT,
  PROP_DESTRUCTIVE_HINT,
  PROP_IDEMPOTENT_HINT,
  PROP_OPEN_WORLD_HINT,
  PROP_OUTPUT_SCHEMA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentMcpTool, agent_mcp_tool, AGENT_TYPE_TOOL)

static void
agent_mcp_tool_invoke (AgentTool           *tool,
                       AgentToolInvocation *invocation)
{
  AgentMcpTool *self = AGENT_MCP_TOOL (tool);
  g_autoptr(AgentMcpClient) client = g_weak_ref_get (&self->client);

  if (client == NULL)
    {
      agent_tool_invocation_return_error_literal (invocation,
                                                  _("The MCP server of this tool is gone"));
      return;
    }

  _agent_mcp_client_invoke (client, self, invocation);
}

static void
agent_mcp_tool_finalize (GObject *object)
{
  AgentMcpTool *self = (AgentMcpTool *)object;

  g_weak_ref_clear (&self->client);
  g_clear_pointer (&self->remote_name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->annotations, json_node_unref);
  g_clear_pointer (&self->output_schema, json_node_unref);
  g_clear_pointer (&self->param_headers, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_mcp_tool_parent_class)->finalize (object);
}

static void
agent_mcp_tool_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AgentMcpTool *self = AGENT_MCP_TOOL (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_READ_ONLY_HINT:
      g_value_set_boolean (value, agent_mcp_tool_get_read_only_hint (self));
      break;

    case PROP_DESTRUCTIVE_HINT:
      g_value_set_boolean (value, agent_mcp_tool_get_destructive_hint (self));
      break;

    case PROP_IDEMPOTENT_HINT:
      g_value_set_boolean (value, agent_mcp_tool_get_idempotent_hint (self));
      break;

    case PROP_OPEN_WORLD_HINT:
      g_value_set_boolean (value, agent_mcp_tool_get_open_world_hint (self));
      break;

    case PROP_OUTPUT_SCHEMA:
      g_value_set_boxed (value, self->output_schema);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_tool_class_init (AgentMcpToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AgentToolClass *tool_class = AGENT_TOOL_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_mcp_tool_finalize;
  object_class->get_property = agent_mcp_tool_get_property;
  tool_class->invoke = agent_mcp_tool_invoke;

  /**
   * AgentMcpTool:title:
   *
   * A name for people to read (the tool's `title`, or that of its
   * annotations), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);

  /**
   * AgentMcpTool:read-only-hint:
   *
   * Whether the server says that the tool changes nothing
   * (`readOnlyHint`; %FALSE when it does not say).
   *
   * Since: 0.1
   */
  properties[PROP_READ_ONLY_HINT] =
    g_param_spec_boolean ("read-only-hint", NULL, NULL, FALSE, flags);

  /**
   * AgentMcpTool:destructive-hint:
   *
   * Whether the tool may destroy or overwrite what it changes
   * (`destructiveHint`). As the MCP specification says, a tool that is not
   * read-only is taken to be destructive when the server does not say;
   * a read-only tool never is.
   *
   * Since: 0.1
   */
  properties[PROP_DESTRUCTIVE_HINT] =
    g_param_spec_boolean ("destructive-hint", NULL, NULL, TRUE, flags);

  /**
   * AgentMcpTool:idempotent-hint:
   *
   * Whether calling the tool again with the same arguments does nothing
   * more (`idempotentHint`; %FALSE when the server does not say; %TRUE
   * for a read-only tool).
   *
   * Since: 0.1
   */
  properties[PROP_IDEMPOTENT_HINT] =
    g_param_spec_boolean ("idempotent-hint", NULL, NULL, FALSE, flags);

  /**
   * AgentMcpTool:open-world-hint:
   *
   * Whether the tool reaches beyond the server, to the web or other
   * people's systems (`openWorldHint`; %TRUE when the server does not say).
   *
   * Since: 0.1
   */
  properties[PROP_OPEN_WORLD_HINT] =
    g_param_spec_boolean ("open-world-hint", NULL, NULL, TRUE, flags);

  /**
   * AgentMcpTool:output-schema:
   *
   * The JSON Schema the tool's `structuredContent` follows
   * (`outputSchema`), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_OUTPUT_SCHEMA] =
    g_param_spec_boxed ("output-schema", NULL, NULL, JSON_TYPE_NODE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_mcp_tool_init (AgentMcpTool *self)
{
  g_weak_ref_init (&self->client, NULL);
}

static char *
make_name (const char *prefix,
           const char *remote)
{
  g_autofree char *name = g_strconcat (prefix ? prefix : "", remote, NULL);

  for (char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      *c = '_';

  if (strlen (name) > MAX_NAME)
    name[MAX_NAME] = '\0';

  return g_steal_pointer (&name);
}

/* The input schema, as providers want it: an object schema with
 * properties, even when the server leaves them out. */
static JsonNode *
make_parameters (JsonObject *definition)
{
  JsonNode *schema = json_object_get_member (definition, "inputSchema");
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  /* A new top-level object: the answer's may be shared */
  if (schema != NULL && JSON_NODE_HOLDS_OBJECT (schema))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, json_node_get_object (schema));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        json_object_set_member (object, name, json_node_copy (member));
    }
  json_node_take_object (node, object);

  if (!json_object_has_member (object, "type"))
    json_object_set_string_member (object, "type", "object");
  if (!json_object_has_member (object, "properties"))
    json_object_set_object_member (object, "properties", json_object_new ());

  return node;
}

/* Documented in agent-mcp-private.h */
const char *
_agent_mcp_string (JsonObject *object,
                   const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  return _agent_mcp_string (object, member);
}


static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* A tool from its definition in a tools/list answer, or NULL if it cannot
 * be offered (no name, or it must be run as a task). */
AgentMcpTool *
_agent_mcp_tool_new (AgentMcpClient *client,
                     JsonObject     *definition,
                     const char     *prefix)
{
  const char *remote = get_string (definition, "name");
  const char *description = get_string (definition, "description");
  JsonObject *annotations = get_object (definition, "annotations");
  JsonObject *output_schema = get_object (definition, "outputSchema");
  const char *title = get_string (definition, "title");
  g_autoptr(JsonNode) parameters = NULL;
  g_autofree char *name = NULL;
  AgentMcpTool *self;

  if (remote == NULL || remote[0] == '\0')
    return NULL;
  if (g_strcmp0 (get_string (get_object (definition, "execution"), "taskSupport"),
                 "required") == 0)
    return NULL;

  if (title == NULL)
    title = get_string (annotations, "title");

  name = make_name (prefix, remote);
  parameters = make_parameters (definition);
  self = g_object_new (AGENT_TYPE_MCP_TOOL,
                       "name", name,
                       "description", description ? description : title ? title : "",
                       "parameters", parameters,
                       NULL);

  g_weak_ref_set (&self->client, client);
  self->remote_name = g_strdup (remote);
  self->title = g_strdup (title);
  if (annotations != NULL)
    {
      self->annotations = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (self->annotations, annotations);
      json_node_seal (self->annotations);
    }
  if (output_schema != NULL)
    {
      self->output_schema = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (self->output_schema, output_schema);
      json_node_seal (self->output_schema);
    }
  agent_tool_set_requires_approval (AGENT_TOOL (self),
                                    _agent_mcp_client_tool_needs_approval (client, self));

  return self;
}

static gboolean
nodes_equal (JsonNode *a,
             JsonNode *b)
{
  return (a == NULL && b == NULL) || (a != NULL && b != NULL && json_node_equal (a, b));
}

/* What differs between two definitions of the tool of one name */
AgentMcpToolChanges
_agent_mcp_tool_diff (AgentMcpTool *a,
                      AgentMcpTool *b)
{
  AgentTool *ta = AGENT_TOOL (a);
  AgentTool *tb = AGENT_TOOL (b);
  AgentMcpToolChanges changes = AGENT_MCP_TOOL_CHANGE_NONE;

  if (g_strcmp0 (a->title, b->title) != 0)
    changes |= AGENT_MCP_TOOL_CHANGE_TITLE;
  if (!g_str_equal (agent_tool_get_description (ta), agent_tool_get_description (tb)))
    changes |= AGENT_MCP_TOOL_CHANGE_DESCRIPTION;
  if (!json_node_equal (agent_tool_get_parameters (ta), agent_tool_get_parameters (tb)))
    changes |= AGENT_MCP_TOOL_CHANGE_INPUT_SCHEMA;
  if (!nodes_equal (a->output_schema, b->output_schema))
    changes |= AGENT_MCP_TOOL_CHANGE_OUTPUT_SCHEMA;
  if (!nodes_equal (a->annotations, b->annotations))
    changes |= AGENT_MCP_TOOL_CHANGE_ANNOTATIONS;

  return changes;
}

/* Whether @b describes the same tool as @a */
gboolean
_agent_mcp_tool_same (AgentMcpTool *a,
                      AgentMcpTool *b)
{
  return g_str_equal (agent_tool_get_name (AGENT_TOOL (a)), agent_tool_get_name (AGENT_TOOL (b))) &&
         g_str_equal (a->remote_name, b->remote_name) &&
         _agent_mcp_tool_diff (a, b) == AGENT_MCP_TOOL_CHANGE_NONE;
}

/* Whether a result follows the tool's output schema: NULL if it does (or
 * the tool has none, or the result is an error), else the error to give. */
GError *
_agent_mcp_tool_check_structured (AgentMcpTool *self,
                                  JsonNode     *result)
{
  JsonObject *object = json_node_get_object (result);
  JsonNode *structured = json_object_get_member (object, "structuredContent");
  JsonNode *is_error = json_object_get_member (object, "isError");
  g_autoptr(GError) mismatch = NULL;

  if (self->output_schema == NULL ||
      (is_error != NULL && JSON_NODE_HOLDS_VALUE (is_error) &&
       json_node_get_value_type (is_error) == G_TYPE_BOOLEAN && json_node_get_boolean (is_error)))
    return NULL;

  if (structured == NULL || JSON_NODE_HOLDS_NULL (structured))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                        _("The MCP tool “%s” has an output schema but gave no structured "
                          "content"), self->remote_name);

  if (!agent_json_schema_validate (self->output_schema, structured, &mismatch))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_SCHEMA,
                        _("The structured content of the MCP tool “%s” does not follow its "
                          "output schema: %s"), self->remote_name, mismatch->message);

  return NULL;
}

/* The result, for the model */

static void
describe_data (GString    *text,
               const char *kind,
               JsonObject *block)
{
  const char *mime_type = get_string (block, "mimeType");
  const char *data = get_string (block, "data");
  g_autofree char *size = g_format_size ((data ? strlen (data) : 0) / 4 * 3);

  /* Words for the model, not the user: not translated. */
  g_string_append_printf (text, "[%s: %s, %s]", kind, mime_type ? mime_type : "?", size);
}

static void
append_block (GString    *text,
              JsonObject *block)
{
  const char *type = get_string (block, "type");
  JsonObject *resource;

  if (text->len > 0)
    g_string_append_c (text, '\n');

  if (g_strcmp0 (type, "text") == 0)
    g_string_append (text, get_string (block, "text") ? get_string (block, "text") : "");
  else if (g_strcmp0 (type, "image") == 0)
    describe_data (text, "Image", block);
  else if (g_strcmp0 (type, "audio") == 0)
    describe_data (text, "Audio", block);
  else if (g_strcmp0 (type, "resource_link") == 0)
    g_string_append_printf (text, "[Resource: %s <%s>]",
                            get_string (block, "name") ? get_string (block, "name") : "",
                            get_string (block, "uri") ? get_string (block, "uri") : "");
  else if (g_strcmp0 (type, "resource") == 0 && (resource = get_object (block, "resource")))
    {
      if (get_string (resource, "text") != NULL)
        g_string_append (text, get_string (resource, "text"));
      else
        g_string_append_printf (text, "[Resource: %s (%s)]",
                                get_string (resource, "uri") ? get_string (resource, "uri") : "",
                                get_string (resource, "mimeType") ?
                                  get_string (resource, "mimeType") : "?");
    }
  else
    g_string_append_printf (text, "[Content of type “%s”]", type ? type : "?");
}

char *
_agent_mcp_result_to_text (JsonNode *result,
                           gboolean *is_error)
{
  JsonObject *object = json_node_get_object (result);
  JsonNode *content = json_object_get_member (object, "content");
  JsonNode *structured = json_object_get_member (object, "structuredContent");
  JsonNode *error = json_object_get_member (object, "isError");
  GString *text = g_string_new (NULL);

  *is_error = error != NULL && JSON_NODE_HOLDS_VALUE (error) &&
              json_node_get_value_type (error) == G_TYPE_BOOLEAN && json_node_get_boolean (error);

  if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *blocks = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (blocks); i++)
        if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (blocks, i)))
          append_block (text, json_array_get_object_element (blocks, i));
    }

  /* Servers give structured content as text too, for older clients; when
   * they do not, the JSON is the result. */
  if (text->len == 0 && structured != NULL && !JSON_NODE_HOLDS_NULL (structured))
    {
      g_autofree char *json = agent_json_node_to_string (structured, FALSE);

      g_string_append (text, json);
    }

  return g_string_free (text, FALSE);
}

/* The images of a tools/call result, as parts for the model to see; blocks
 * whose data is not base64 are left to their description in the text. */
GPtrArray *
_agent_mcp_result_dup_images (JsonNode *result)
{
  JsonNode *content = json_object_get_member (json_node_get_object (result), "content");
  GPtrArray *images = g_ptr_array_new_with_free_func (g_object_unref);
  JsonArray *blocks;

  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return images;

  blocks = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block;
      const char *data;
      const char *mime_type;
      g_autofree guchar *bytes = NULL;
      g_autoptr(GBytes) decoded = NULL;
      gsize len = 0;

      if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (blocks, i)))
        continue;
      block = json_array_get_object_element (blocks, i);
      data = get_string (block, "data");
      mime_type = get_string (block, "mimeType");
      if (g_strcmp0 (get_string (block, "type"), "image") != 0 || data == NULL ||
          mime_type == NULL || !_agent_mcp_is_base64 (data))
        continue;

      bytes = g_base64_decode (data, &len);
      if (len == 0)
        continue;
      decoded = g_bytes_new_take (g_steal_pointer (&bytes), len);
      g_ptr_array_add (images, agent_content_part_new_image (mime_type, decoded));
    }

  return images;
}

/* Documented in agent-mcp-private.h */
gboolean
_agent_mcp_is_base64 (const char *data)
{
  gsize len = 0;

  for (const char *p = data; *p != '\0'; p++, len++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
      return FALSE;

  return len > 0 && len % 4 == 0;
}

/**
 * agent_mcp_tool_dup_client:
 * @self: a [class@Agent.McpTool]
 *
 * Gets the client of the tool's server. The tool holds it weakly: a tool a
 * session still offers outlives a client that was dropped, and running it
 * then fails saying so.
 *
 * Returns: (transfer full) (nullable): a new reference to the client, or
 *   %NULL if it is gone
 *
 * Since: 0.1
 */
AgentMcpClient *
agent_mcp_tool_dup_client (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), NULL);
  return g_weak_ref_get (&self->client);
}

/**
 * agent_mcp_tool_get_remote_name:
 * @self: a [class@Agent.McpTool]
 *
 * Gets the server's own name for the tool, which calls use; the tool's
 * [property@Agent.Tool:name] is this name with the client's
 * [property@Agent.McpClient:tool-prefix] before it, made fit for model APIs.
 *
 * Returns: (transfer none): the server's name for the tool, owned by the tool
 *
 * Since: 0.1
 */
const char *
agent_mcp_tool_get_remote_name (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), NULL);
  return self->remote_name;
}

/**
 * agent_mcp_tool_get_title:
 * @self: a [class@Agent.McpTool]
 *
 * Gets a name for people to read (the tool's `title`), for a user interface.
 *
 * Returns: (nullable) (transfer none): the title, owned by the tool, or %NULL
 *   if the server gave none
 *
 * Since: 0.1
 */
const char *
agent_mcp_tool_get_title (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), NULL);
  return self->title;
}

/**
 * agent_mcp_tool_get_annotations:
 * @self: a [class@Agent.McpTool]
 *
 * Gets the hints the server gave about the tool (`readOnlyHint`,
 * `destructiveHint`, `idempotentHint`, `openWorldHint`). They are the
 * server's word, not a guarantee.
 *
 * Returns: (transfer none) (nullable): a JSON object, or %NULL
 *
 * Since: 0.1
 */
JsonNode *
agent_mcp_tool_get_annotations (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), NULL);
  return self->annotations;
}

/* A boolean hint, or @fallback when the server gave none */
static gboolean
get_hint (AgentMcpTool *self,
          const char   *member,
          gboolean      fallback)
{
  JsonObject *annotations = self->annotations ? json_node_get_object (self->annotations) : NULL;
  JsonNode *node = annotations ? json_object_get_member (annotations, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

/* Whether the server said so itself: the hint is there, and true */
gboolean
_agent_mcp_tool_declares_destructive (AgentMcpTool *self)
{
  return !agent_mcp_tool_get_read_only_hint (self) && get_hint (self, "destructiveHint", FALSE);
}

void
_agent_mcp_tool_set_param_headers (AgentMcpTool *self,
                                   GPtrArray    *headers)
{
  g_clear_pointer (&self->param_headers, g_ptr_array_unref);
  if (headers != NULL && headers->len == 0)
    g_ptr_array_unref (headers);
  else
    self->param_headers = headers;
}

GPtrArray *
_agent_mcp_tool_get_param_headers (AgentMcpTool *self)
{
  return self->param_headers;
}

/**
 * agent_mcp_tool_get_read_only_hint:
 * @self: a [class@Agent.McpTool]
 *
 * Gets [property@Agent.McpTool:read-only-hint].
 *
 * Returns: whether the server says the tool changes nothing
 *
 * Since: 0.1
 */
gboolean
agent_mcp_tool_get_read_only_hint (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), FALSE);
  return get_hint (self, "readOnlyHint", FALSE);
}

/**
 * agent_mcp_tool_get_destructive_hint:
 * @self: a [class@Agent.McpTool]
 *
 * Gets [property@Agent.McpTool:destructive-hint].
 *
 * Returns: whether the tool may destroy or overwrite what it changes
 *
 * Since: 0.1
 */
gboolean
agent_mcp_tool_get_destructive_hint (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), TRUE);
  return !agent_mcp_tool_get_read_only_hint (self) && get_hint (self, "destructiveHint", TRUE);
}

/**
 * agent_mcp_tool_get_idempotent_hint:
 * @self: a [class@Agent.McpTool]
 *
 * Gets [property@Agent.McpTool:idempotent-hint].
 *
 * Returns: whether calling the tool again with the same arguments does
 *   nothing more
 *
 * Since: 0.1
 */
gboolean
agent_mcp_tool_get_idempotent_hint (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), FALSE);
  return agent_mcp_tool_get_read_only_hint (self) || get_hint (self, "idempotentHint", FALSE);
}

/**
 * agent_mcp_tool_get_open_world_hint:
 * @self: a [class@Agent.McpTool]
 *
 * Gets [property@Agent.McpTool:open-world-hint].
 *
 * Returns: whether the tool reaches beyond its server
 *
 * Since: 0.1
 */
gboolean
agent_mcp_tool_get_open_world_hint (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), TRUE);
  return get_hint (self, "openWorldHint", TRUE);
}

/**
 * agent_mcp_tool_get_output_schema:
 * @self: a [class@Agent.McpTool]
 *
 * Gets [property@Agent.McpTool:output-schema].
 *
 * Returns: (transfer none) (nullable): the JSON Schema of the tool's
 *   structured results, or %NULL
 *
 * Since: 0.1
 */
JsonNode *
agent_mcp_tool_get_output_schema (AgentMcpTool *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_TOOL (self), NULL);
  return self->output_schema;
}
