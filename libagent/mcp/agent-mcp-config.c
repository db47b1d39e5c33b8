/* agent-mcp-config.c — AgentMcpClient: a server's configuration as JSON
 *
 * Reading and writing one entry of the `mcpServers` form that desktop MCP
 * clients share (the properties it sets are in agent-mcp-client.c):
 *
 *   "name": { "command": "npx", "args": ["-y", "…"], "env": { "KEY": "…" } }
 *   "name": { "url": "https://…/mcp", "headers": { "Authorization": "Bearer …" } }
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

/* The members of a configuration this client understands; the others are
 * kept as they were, for the other programs that read the same file. */
static const char * const known_members[] = {
  "type", "command", "args", "env", "cwd", "url", "headers", "disabled", "enabled",
  "trusted", "toolPrefix", "allowReadOnly", "allowDestructive", NULL
};

static gboolean
read_string (JsonObject  *object,
             const char  *member,
             const char  *server,
             char       **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s”: “%s” must be a string"), server, member);
      return FALSE;
    }

  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_boolean (JsonObject  *object,
              const char  *member,
              const char  *server,
              gboolean    *out,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s”: “%s” must be true or false"), server, member);
      return FALSE;
    }

  *out = json_node_get_boolean (node);
  return TRUE;
}

/* "args": an array of strings */
static gboolean
read_array (JsonObject   *object,
            const char   *member,
            const char   *server,
            char       ***out,
            GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    goto invalid;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        goto invalid;
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  *out = g_strv_builder_end (builder);
  return TRUE;

invalid:
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("MCP server “%s”: “%s” must be an array of strings"), server, member);
  return FALSE;
}

/* "env" and "headers": an object of strings, as NAME=VALUE or "Name: value" */
static gboolean
read_map (JsonObject   *object,
          const char   *member,
          const char   *server,
          const char   *separator,
          char       ***out,
          GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    goto invalid;

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *entry = NULL;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        goto invalid;
      entry = g_strconcat (name, separator, json_node_get_string (value), NULL);
      g_strv_builder_add (builder, entry);
    }

  *out = g_strv_builder_end (builder);
  return TRUE;

invalid:
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("MCP server “%s”: “%s” must be an object of strings"), server, member);
  return FALSE;
}

/**
 * agent_mcp_client_new_from_json:
 * @name: the server's name
 * @config: one entry of the `mcpServers` object that desktop MCP clients
 *   share: `{"command": …, "args": […], "env": {…}}` or
 *   `{"url": …, "headers": {…}}`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a client from a server's configuration. Besides `command`,
 * `args`, `env`, `cwd`, `url`, `headers` and `type` (`stdio`, `http` or
 * `streamable-http`), it reads `disabled` (or `enabled`), and libagent's
 * own `trusted`, `allowReadOnly`, `allowDestructive` and `toolPrefix`.
 * Other members are kept, and written back by
 * [method@Agent.McpClient.to_json].
 *
 * Returns: (transfer full) (nullable): a new [class@Agent.McpClient], or %NULL with
 *   @error set (%AGENT_ERROR_INVALID_ARGUMENT) if @config is not usable
 *
 * Since: 0.1
 */
AgentMcpClient *
agent_mcp_client_new_from_json (const char  *name,
                                JsonNode    *config,
                                GError     **error)
{
  g_autoptr(AgentMcpClient) self = NULL;
  g_autofree char *type = NULL;
  gboolean disabled = FALSE;
  gboolean enabled = TRUE;
  gboolean trusted = FALSE;
  gboolean allow_read_only = FALSE;
  gboolean allow_destructive = FALSE;
  JsonObject *object;
  JsonObject *extra;
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (config != NULL, NULL);

  if (name[0] == '\0' || !JSON_NODE_HOLDS_OBJECT (config))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s”: its configuration must be an object with a name"), name);
      return NULL;
    }

  object = json_node_get_object (config);
  self = g_object_new (AGENT_TYPE_MCP_CLIENT, "name", name, NULL);

  if (!read_string (object, "type", name, &type, error) ||
      !read_string (object, "command", name, &self->command, error) ||
      !read_array (object, "args", name, &self->args, error) ||
      !read_map (object, "env", name, "=", &self->env, error) ||
      !read_string (object, "cwd", name, &self->cwd, error) ||
      !read_string (object, "url", name, &self->url, error) ||
      !read_map (object, "headers", name, ": ", &self->headers, error) ||
      !read_string (object, "toolPrefix", name, &self->tool_prefix, error) ||
      !read_boolean (object, "disabled", name, &disabled, error) ||
      !read_boolean (object, "enabled", name, &enabled, error) ||
      !read_boolean (object, "trusted", name, &trusted, error) ||
      !read_boolean (object, "allowReadOnly", name, &allow_read_only, error) ||
      !read_boolean (object, "allowDestructive", name, &allow_destructive, error))
    return NULL;

  if (type != NULL && (g_str_equal (type, "sse")))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s”: the old HTTP+SSE transport is not supported; "
                     "give the URL of its Streamable HTTP endpoint"), name);
      return NULL;
    }
  if (type != NULL && !g_str_equal (type, "stdio") && !g_str_equal (type, "http") &&
      !g_str_equal (type, "streamable-http") && !g_str_equal (type, "streamableHttp"))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s”: unknown type “%s”"), name, type);
      return NULL;
    }

  if ((self->command == NULL) == (self->url == NULL))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("MCP server “%s” needs either a “command” or a “url”"), name);
      return NULL;
    }

  self->enabled = enabled && !disabled;
  self->trusted = trusted;
  self->allow_read_only = allow_read_only;
  self->allow_destructive = allow_destructive;

  extra = json_object_new ();
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    if (!g_strv_contains (known_members, member))
      json_object_set_member (extra, member, json_node_copy (value));
  self->extra = extra;

  return g_steal_pointer (&self);
}

static void
add_map (JsonBuilder        *builder,
         const char         *member,
         const char * const *entries,
         char                separator,
         gboolean            strip)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      const char *found = strchr (entries[i], separator);
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (found == NULL)
        continue;
      name = g_strndup (entries[i], found - entries[i]);
      value = g_strdup (found + 1);
      if (strip)
        {
          g_strstrip (name);
          g_strstrip (value);
        }
      json_builder_set_member_name (builder, name);
      json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
}

/**
 * agent_mcp_client_to_json:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the server's configuration, as an entry of `mcpServers`.
 *
 * Returns: (transfer full): a JSON object
 *
 * Since: 0.1
 */
JsonNode *
agent_mcp_client_to_json (AgentMcpClient *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonObject *extra;

  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);

  json_builder_begin_object (builder);
  if (self->command != NULL)
    {
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, self->command);
      json_builder_set_member_name (builder, "args");
      json_builder_begin_array (builder);
      for (guint i = 0; self->args != NULL && self->args[i] != NULL; i++)
        json_builder_add_string_value (builder, self->args[i]);
      json_builder_end_array (builder);
      if (self->env != NULL)
        add_map (builder, "env", (const char * const *) self->env, '=', FALSE);
      if (self->cwd != NULL)
        {
          json_builder_set_member_name (builder, "cwd");
          json_builder_add_string_value (builder, self->cwd);
        }
    }
  else if (self->url != NULL)
    {
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, self->url);
      if (self->headers != NULL)
        add_map (builder, "headers", (const char * const *) self->headers, ':', TRUE);
    }
  if (!self->enabled)
    {
      json_builder_set_member_name (builder, "disabled");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->trusted)
    {
      json_builder_set_member_name (builder, "trusted");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->allow_read_only)
    {
      json_builder_set_member_name (builder, "allowReadOnly");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->allow_destructive)
    {
      json_builder_set_member_name (builder, "allowDestructive");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (self->tool_prefix != NULL)
    {
      json_builder_set_member_name (builder, "toolPrefix");
      json_builder_add_string_value (builder, self->tool_prefix);
    }
  if ((extra = self->extra) != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, extra);
      while (json_object_iter_next_ordered (&iter, &member, &value))
        {
          json_builder_set_member_name (builder, member);
          json_builder_add_value (builder, json_node_copy (value));
        }
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
