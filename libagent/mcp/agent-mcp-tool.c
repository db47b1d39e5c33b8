/* agent-mcp-tool.c — a tool of an MCP server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
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
 * MCP tools require approval unless their server is
 * [property@Agent.McpClient:trusted].
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
};

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

  G_OBJECT_CLASS (agent_mcp_tool_parent_class)->finalize (object);
}

static void
agent_mcp_tool_class_init (AgentMcpToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AgentToolClass *tool_class = AGENT_TOOL_CLASS (klass);

  object_class->finalize = agent_mcp_tool_finalize;
  tool_class->invoke = agent_mcp_tool_invoke;
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

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
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
                       "requires-approval", !agent_mcp_client_get_trusted (client),
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

  return self;
}

/* Whether @b describes the same tool as @a */
gboolean
_agent_mcp_tool_same (AgentMcpTool *a,
                      AgentMcpTool *b)
{
  AgentTool *ta = AGENT_TOOL (a);
  AgentTool *tb = AGENT_TOOL (b);

  return g_str_equal (agent_tool_get_name (ta), agent_tool_get_name (tb)) &&
         g_str_equal (a->remote_name, b->remote_name) &&
         g_str_equal (agent_tool_get_description (ta), agent_tool_get_description (tb)) &&
         g_strcmp0 (a->title, b->title) == 0 &&
         json_node_equal (agent_tool_get_parameters (ta), agent_tool_get_parameters (tb)) &&
         ((a->annotations == NULL && b->annotations == NULL) ||
          (a->annotations != NULL && b->annotations != NULL &&
           json_node_equal (a->annotations, b->annotations)));
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
      g_autofree char *json = json_to_string (structured, FALSE);

      g_string_append (text, json);
    }

  return g_string_free (text, FALSE);
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
