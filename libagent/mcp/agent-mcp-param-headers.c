/* agent-mcp-param-headers.c — tool parameters mirrored into HTTP headers
 *
 * Under 2026-07-28 over Streamable HTTP, a property of a tool's input
 * schema may carry "x-mcp-header": "Name"; every call of the tool then
 * sends the argument at that property's path as the header
 * Mcp-Param-Name, so that what sits between client and server can route
 * on it (basic/transports/streamable-http.mdx, "Custom Headers from Tool
 * Parameters"; server/tools.mdx, "x-mcp-header").
 *
 * An annotation is valid when its value is an HTTP token (1*tchar of RFC
 * 9110), unique among the tool's regardless of case, on a property whose
 * type is string, integer or boolean (never number), reached from the
 * schema's root through "properties" alone (not items, oneOf, $ref, …).
 * A tool with an invalid one is left out of the client's tools; stdio and
 * the older revisions ignore annotations.
 *
 * A value goes as it is when it is a string, in decimal when it is an
 * integer (within ±(2⁵³−1)), as true or false when it is a boolean, and in
 * the base64 sentinel form of Mcp-Name when it is not plain visible ASCII
 * (_agent_mcp_revision_header_value()). A null or absent value sends no
 * header.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

#define ANNOTATION "x-mcp-header"
/* Deeper schemas are refused rather than checked in part */
#define MAX_DEPTH  64
/* 2⁵³ − 1: the largest integer a double holds exactly */
#define MAX_SAFE_INTEGER 9007199254740991.0

void
_agent_mcp_param_header_free (AgentMcpParamHeader *header)
{
  g_free (header->name);
  g_strfreev (header->path);
  g_free (header);
}

typedef struct
{
  GPtrArray  *headers;  /* of AgentMcpParamHeader */
  GHashTable *seen;     /* their names, folded */
  GPtrArray  *path;     /* the property keys to where the walk is */
} Walk;

static gboolean
is_token (const char *name)
{
  if (name[0] == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;

  return TRUE;
}

static gboolean
is_primitive_type (const char *type,
                   gboolean   *is_null)
{
  *is_null = g_strcmp0 (type, "null") == 0;

  return g_strcmp0 (type, "string") == 0 || g_strcmp0 (type, "integer") == 0 ||
         g_strcmp0 (type, "boolean") == 0;
}

/* "type": string, integer or boolean, alone or with null */
static gboolean
has_primitive_type (JsonObject *property)
{
  JsonNode *type = json_object_get_member (property, "type");
  gboolean is_null;
  guint n_primitive = 0;
  JsonArray *types;

  if (type == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (type))
    return is_primitive_type (json_node_get_string (type), &is_null);
  if (!JSON_NODE_HOLDS_ARRAY (type))
    return FALSE;

  types = json_node_get_array (type);
  for (guint i = 0; i < json_array_get_length (types); i++)
    {
      JsonNode *element = json_array_get_element (types, i);
      const char *name = JSON_NODE_HOLDS_VALUE (element) ? json_node_get_string (element) : NULL;

      if (is_primitive_type (name, &is_null))
        n_primitive++;
      else if (!is_null)
        return FALSE;
    }

  return n_primitive > 0;
}

static char *
path_text (Walk *walk)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < walk->path->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "." : "",
                            (const char *) g_ptr_array_index (walk->path, i));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The annotation of @schema, a property's when @is_property, reached
 * through properties alone when @reachable */
static gboolean
check_annotation (Walk        *walk,
                  JsonObject  *schema,
                  gboolean     reachable,
                  gboolean     is_property,
                  GError     **error)
{
  JsonNode *node = json_object_get_member (schema, ANNOTATION);
  g_autofree char *where = path_text (walk);
  g_autofree char *folded = NULL;
  const char *name;
  AgentMcpParamHeader *header;

  if (!reachable || !is_property)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   "an " ANNOTATION " is not on a property reached through “properties” "
                   "alone (near “%s”)", where[0] != '\0' ? where : "the root");
      return FALSE;
    }

  name = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
  if (name == NULL || !is_token (name))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   "the " ANNOTATION " of “%s” is not a header name (a token of letters, "
                   "digits and !#$%%&'*+-.^_`|~)", where);
      return FALSE;
    }

  folded = g_ascii_strdown (name, -1);
  if (g_hash_table_contains (walk->seen, folded))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   "the " ANNOTATION " “%s” of “%s” names a header another property names",
                   name, where);
      return FALSE;
    }

  if (!has_primitive_type (schema))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   "the " ANNOTATION " “%s” is on “%s”, whose type is not string, integer "
                   "or boolean", name, where);
      return FALSE;
    }

  g_hash_table_add (walk->seen, g_steal_pointer (&folded));
  header = g_new0 (AgentMcpParamHeader, 1);
  header->name = g_strdup (name);
  g_ptr_array_add (walk->path, NULL);
  header->path = g_strdupv ((char **) walk->path->pdata);
  g_ptr_array_remove_index (walk->path, walk->path->len - 1);
  g_ptr_array_add (walk->headers, header);

  return TRUE;
}

static gboolean
walk_node (Walk      *walk,
           JsonNode  *node,
           gboolean   reachable,
           gboolean   is_property,
           guint      depth,
           GError   **error);

static gboolean
walk_object (Walk        *walk,
             JsonObject  *schema,
             gboolean     reachable,
             gboolean     is_property,
             guint        depth,
             GError     **error)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  if (json_object_has_member (schema, ANNOTATION) &&
      !check_annotation (walk, schema, reachable, is_property, error))
    return FALSE;

  json_object_iter_init (&iter, schema);
  while (json_object_iter_next (&iter, &member, &value))
    {
      /* Instances, not schemas: whatever they hold annotates nothing */
      if (g_str_equal (member, ANNOTATION) || g_str_equal (member, "const") ||
          g_str_equal (member, "enum") || g_str_equal (member, "default") ||
          g_str_equal (member, "examples"))
        continue;

      if (g_str_equal (member, "properties") && JSON_NODE_HOLDS_OBJECT (value))
        {
          JsonObjectIter properties;
          const char *key;
          JsonNode *property;

          json_object_iter_init (&properties, json_node_get_object (value));
          while (json_object_iter_next (&properties, &key, &property))
            {
              gboolean ok;

              g_ptr_array_add (walk->path, (gpointer) key);
              ok = walk_node (walk, property, reachable, TRUE, depth + 1, error);
              g_ptr_array_remove_index (walk->path, walk->path->len - 1);
              if (!ok)
                return FALSE;
            }
        }
      else if (!walk_node (walk, value, FALSE, FALSE, depth + 1, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
walk_node (Walk      *walk,
           JsonNode  *node,
           gboolean   reachable,
           gboolean   is_property,
           guint      depth,
           GError   **error)
{
  if (depth > MAX_DEPTH)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   "the input schema is nested more than %u deep", MAX_DEPTH);
      return FALSE;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    return walk_object (walk, json_node_get_object (node), reachable, is_property, depth, error);

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!walk_node (walk, json_array_get_element (array, i), FALSE, FALSE, depth + 1, error))
          return FALSE;
    }

  return TRUE;
}

/* The x-mcp-header annotations of @input_schema (may be NULL), as
 * AgentMcpParamHeader (an empty array when it has none), or NULL with
 * @error (AGENT_ERROR_SCHEMA, untranslated: for the log) saying which is
 * invalid and why */
GPtrArray *
_agent_mcp_param_headers_parse (JsonObject  *input_schema,
                                GError     **error)
{
  g_autoptr(GPtrArray) headers = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GPtrArray) path = NULL;
  Walk walk;

  headers = g_ptr_array_new_with_free_func ((GDestroyNotify) _agent_mcp_param_header_free);
  if (input_schema == NULL)
    return g_steal_pointer (&headers);

  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  path = g_ptr_array_new ();
  walk.headers = headers;
  walk.seen = seen;
  walk.path = path;

  if (!walk_object (&walk, input_schema, TRUE, FALSE, 0, error))
    return NULL;

  return g_steal_pointer (&headers);
}

/* The value at @path in @arguments, or NULL */
static const cJSON *
find_value (const cJSON *arguments,
            char       **path)
{
  const cJSON *value = arguments;

  for (guint i = 0; path[i] != NULL; i++)
    {
      if (!cJSON_IsObject (value))
        return NULL;
      value = cJSON_GetObjectItemCaseSensitive (value, path[i]);
    }

  return value;
}

/* The headers of a call of @tool with @arguments: a name, its value, the
 * next name… (NULL with @error, naming @server, @tool and the argument,
 * when a value cannot be carried) */
GStrv
_agent_mcp_param_headers_values (GPtrArray   *headers,
                                 const cJSON *arguments,
                                 const char  *server,
                                 const char  *tool,
                                 GError     **error)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; headers != NULL && i < headers->len; i++)
    {
      AgentMcpParamHeader *header = g_ptr_array_index (headers, i);
      const cJSON *value = find_value (arguments, header->path);
      g_autofree char *text = NULL;
      const char *reason = NULL;

      if (value == NULL || cJSON_IsNull (value))
        continue;

      if (cJSON_IsString (value))
        text = _agent_mcp_revision_header_value (value->valuestring);
      else if (cJSON_IsBool (value))
        text = g_strdup (cJSON_IsTrue (value) ? "true" : "false");
      else if (!cJSON_IsNumber (value))
        reason = _("it is not a string, an integer or a boolean");
      else if (value->valuedouble != floor (value->valuedouble))
        reason = _("it is not an integer");
      else if (fabs (value->valuedouble) > MAX_SAFE_INTEGER)
        reason = _("it is beyond ±9007199254740991, the integers a header may carry");
      else
        text = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value->valuedouble);

      if (reason != NULL)
        {
          g_autofree char *where = g_strjoinv (".", header->path);

          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The argument “%s” of the tool “%s” of the MCP server “%s” cannot be "
                         "sent in the header Mcp-Param-%s: %s"),
                       where, tool, server, header->name, reason);
          return NULL;
        }

      g_ptr_array_add (values, g_strconcat ("Mcp-Param-", header->name, NULL));
      g_ptr_array_add (values, g_steal_pointer (&text));
    }

  g_ptr_array_add (values, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&values), FALSE);
}

/* The client's side */

/* Whether tool parameters go as headers (x-mcp-header): over Streamable
 * HTTP under 2026-07-28 */
static gboolean
mirrors_params (AgentMcpClient *self)
{
  return self->rpc != NULL && self->command == NULL && self->url != NULL &&
         self->revision != NULL && self->revision->param_headers;
}

/* The annotations of the tools just listed go to the transport */
void
_agent_mcp_client_set_param_headers (AgentMcpClient *self,
                                     GPtrArray      *listed)
{
  g_autoptr(GHashTable) headers = NULL;

  if (!mirrors_params (self))
    return;

  headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < listed->len; i++)
    {
      AgentMcpTool *tool = g_ptr_array_index (listed, i);
      GPtrArray *annotations = _agent_mcp_tool_get_param_headers (tool);

      if (annotations != NULL)
        g_hash_table_replace (headers, g_strdup (agent_mcp_tool_get_remote_name (tool)),
                              g_ptr_array_ref (annotations));
    }
  _agent_mcp_http_transport_set_param_headers (_agent_mcp_rpc_get_transport (self->rpc),
                                               headers);
}

/* Its x-mcp-header annotations, when they count: FALSE (and a warning)
 * when one is invalid, and the tool is left out */
gboolean
_agent_mcp_client_take_param_headers (AgentMcpClient *self,
                                      AgentMcpTool   *tool,
                                      JsonObject     *definition)
{
  JsonNode *schema = json_object_get_member (definition, "inputSchema");
  g_autoptr(GError) error = NULL;
  GPtrArray *headers;

  if (!mirrors_params (self))
    return TRUE;

  headers = _agent_mcp_param_headers_parse (schema != NULL && JSON_NODE_HOLDS_OBJECT (schema) ?
                                            json_node_get_object (schema) : NULL, &error);
  if (headers == NULL)
    {
      g_warning ("The MCP server “%s” offers the tool “%s” with an invalid x-mcp-header "
                 "annotation, so it is left out: %s", self->name,
                 agent_mcp_tool_get_remote_name (tool), error->message);
      return FALSE;
    }

  _agent_mcp_tool_set_param_headers (tool, headers);
  return TRUE;
}
