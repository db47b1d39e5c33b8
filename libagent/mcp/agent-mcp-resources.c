/* agent-mcp-resources.c — the resources of an MCP server
 *
 *   resources/list, resources/templates/list    AgentMcpResource, page after page
 *   resources/read                              content parts for a message
 *   resources/subscribe, resources/unsubscribe  ::resource-updated on
 *                                               notifications/resources/updated
 *   notifications/resources/list_changed        ::resources-changed
 *
 * A resource's text becomes a file part of type text/… (its own, or
 * text/plain), named by its URI, that the providers give the model inline;
 * its blob becomes an image part (image/…) or a file part. What the server
 * offers is in its capabilities (agent_mcp_client_get_capabilities()): a
 * server without "resources" is not asked, and one without
 * "resources.subscribe" is not subscribed to.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

/* Whether the server offers resources (and @feature of them, if given):
 * else @error says so. Before the handshake, the request is made. */
static gboolean
check_offered (AgentMcpClient  *self,
               const char      *feature,
               GError         **error)
{
  JsonObject *capabilities;
  JsonNode *resources;

  if (self->capabilities == NULL)
    return TRUE;

  capabilities = json_node_get_object (self->capabilities);
  resources = json_object_get_member (capabilities, "resources");
  if (resources == NULL || !JSON_NODE_HOLDS_OBJECT (resources))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                   _("The MCP server “%s” offers no resources"), self->name);
      return FALSE;
    }
  if (feature != NULL &&
      !json_object_get_boolean_member_with_default (json_node_get_object (resources), feature,
                                                    FALSE))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                   _("The MCP server “%s” offers no subscriptions to its resources"),
                   self->name);
      return FALSE;
    }
  return TRUE;
}

static GObject *
make_resource (JsonObject *definition)
{
  return (GObject *) _agent_mcp_resource_new (definition, FALSE);
}

static GObject *
make_template (JsonObject *definition)
{
  return (GObject *) _agent_mcp_resource_new (definition, TRUE);
}

/**
 * agent_mcp_client_list_resources_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the resources
 * @user_data: data for @callback
 *
 * Lists the server's resources (`resources/list`, page after page),
 * connecting first if needed.
 *
 * Since: 0.1
 */
void
agent_mcp_client_list_resources_async (AgentMcpClient      *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_offered (self, NULL, &error))
    {
      g_task_report_error (self, callback, user_data, agent_mcp_client_list_resources_async,
                           error);
      return;
    }
  _agent_mcp_client_list_async (self, "resources/list", "resources", AGENT_TYPE_MCP_RESOURCE,
                                make_resource, agent_mcp_client_list_resources_async,
                                cancellable, callback, user_data);
}

/**
 * agent_mcp_client_list_resources_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.list_resources_async]. A server that
 * offers no resources fails with %AGENT_ERROR_UNSUPPORTED.
 *
 * Returns: (transfer full): a [iface@Gio.ListModel] of
 *   [class@Agent.McpResource], or %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_list_resources_finish (AgentMcpClient  *self,
                                        GAsyncResult    *result,
                                        GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return _agent_mcp_client_list_finish (self, result, agent_mcp_client_list_resources_async,
                                        error);
}

/**
 * agent_mcp_client_list_resource_templates_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the templates
 * @user_data: data for @callback
 *
 * Lists the server's resource templates (`resources/templates/list`):
 * resources whose URI the application makes from a template
 * ([property@Agent.McpResource:uri-template]).
 *
 * Since: 0.1
 */
void
agent_mcp_client_list_resource_templates_async (AgentMcpClient      *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_offered (self, NULL, &error))
    {
      g_task_report_error (self, callback, user_data,
                           agent_mcp_client_list_resource_templates_async, error);
      return;
    }
  _agent_mcp_client_list_async (self, "resources/templates/list", "resourceTemplates",
                                AGENT_TYPE_MCP_RESOURCE, make_template,
                                agent_mcp_client_list_resource_templates_async,
                                cancellable, callback, user_data);
}

/**
 * agent_mcp_client_list_resource_templates_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.list_resource_templates_async].
 *
 * Returns: (transfer full): a [iface@Gio.ListModel] of
 *   [class@Agent.McpResource], or %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_list_resource_templates_finish (AgentMcpClient  *self,
                                                 GAsyncResult    *result,
                                                 GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return _agent_mcp_client_list_finish (self, result,
                                        agent_mcp_client_list_resource_templates_async, error);
}

/* Reading */


/* One of a resources/read answer's contents (or a prompt's embedded
 * resource), as a part; NULL with @error when it is neither text nor
 * base64 */
AgentContentPart *
_agent_mcp_contents_to_part (AgentMcpClient  *self,
                             const char      *requested,
                             JsonObject      *contents,
                             GError         **error)
{
  const char *uri = _agent_mcp_string (contents, "uri");
  const char *mime_type = _agent_mcp_string (contents, "mimeType");
  const char *text = _agent_mcp_string (contents, "text");
  const char *blob = _agent_mcp_string (contents, "blob");
  g_autoptr(GBytes) bytes = NULL;

  if (uri == NULL)
    uri = requested ? requested : "";

  if (text != NULL)
    {
      bytes = g_bytes_new (text, strlen (text));
      return agent_content_part_new_file (mime_type && g_str_has_prefix (mime_type, "text/")
                                          ? mime_type : "text/plain", bytes, uri);
    }

  if (blob != NULL && (blob[0] == '\0' || _agent_mcp_is_base64 (blob)))
    {
      gsize len = 0;
      guchar *data = g_base64_decode (blob, &len);

      bytes = g_bytes_new_take (data, len);
      if (mime_type != NULL && g_str_has_prefix (mime_type, "image/"))
        return agent_content_part_new_image (mime_type, bytes);
      return agent_content_part_new_file (mime_type ? mime_type : "application/octet-stream",
                                          bytes, uri);
    }

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
               _("The MCP server “%s” gave contents of “%s” that are neither text nor "
                 "base64 data"), self->name, uri);
  return NULL;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);
  const char *uri = g_task_get_task_data (task);
  g_autoptr(GListStore) parts = g_list_store_new (AGENT_TYPE_CONTENT_PART);
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonNode *contents;

  node = _agent_mcp_client_request_finish (self, result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  contents = json_object_get_member (json_node_get_object (node), "contents");
  if (contents != NULL && JSON_NODE_HOLDS_ARRAY (contents))
    {
      JsonArray *array = json_node_get_array (contents);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autoptr(AgentContentPart) part = NULL;

          if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
            continue;
          part = _agent_mcp_contents_to_part (self, uri, json_array_get_object_element (array, i),
                                              &error);
          if (part == NULL)
            {
              g_task_return_error (task, error);
              return;
            }
          g_list_store_append (parts, part);
        }
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (parts)) == 0)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The MCP server “%s” gave no contents for “%s”"),
                               self->name, uri);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&parts), g_object_unref);
}

/**
 * agent_mcp_client_read_resource_async:
 * @self: a [class@Agent.McpClient]
 * @uri: the resource's URI
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the contents
 * @user_data: data for @callback
 *
 * Reads a resource (`resources/read`), connecting first if needed. Its
 * contents come as content parts, ready to go with a message
 * ([method@Agent.Message.add_part]): text as a file part of its text type
 * (or `text/plain`) named by its URI, which the providers give the model
 * inline; binary data as an image part (`image/…`) or a file part.
 *
 * Since: 0.1
 */
void
agent_mcp_client_read_resource_async (AgentMcpClient      *self,
                                      const char          *uri,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  cJSON *params;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_read_resource_async);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, g_strdup (uri), g_free);

  if (!check_offered (self, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  params = cJSON_CreateObject ();
  cJSON_AddStringToObject (params, "uri", uri);
  _agent_mcp_client_request_async (self, "resources/read", params, cancellable, read_cb,
                                   g_steal_pointer (&task));
}

/**
 * agent_mcp_client_read_resource_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.read_resource_async]. A resource the
 * server does not have fails with its error (%AGENT_ERROR_FAILED), one it
 * gives no contents for with %AGENT_ERROR_PROTOCOL.
 *
 * Returns: (transfer full): a [iface@Gio.ListModel] of
 *   [class@Agent.ContentPart], one for each of the resource's contents, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_read_resource_finish (AgentMcpClient  *self,
                                       GAsyncResult    *result,
                                       GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_read_resource_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Subscriptions */

static void
subscribed_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  node = _agent_mcp_client_request_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (node == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
subscribe_now (GTask *task)
{
  AgentMcpClient *self = g_task_get_source_object (task);
  const char *method = g_task_get_task_data (task);
  const char *uri = method + strlen (method) + 1;
  GError *error = NULL;
  cJSON *params;

  if (!check_offered (self, "subscribe", &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  /* 2026-07-28: no request of its own, the subscriptions/listen stream
   * asks for it */
  if (self->revision != NULL && self->revision->listen)
    {
      _agent_mcp_client_listen_for_resource (self, uri,
                                             g_str_equal (method, "resources/subscribe"));
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  params = cJSON_CreateObject ();
  cJSON_AddStringToObject (params, "uri", uri);
  _agent_mcp_client_request_async (self, method, params, g_task_get_cancellable (task),
                                   subscribed_cb, task);
}

static void
subscription_connected_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  subscribe_now (task);
}

static void
subscription_async (AgentMcpClient      *self,
                    const char          *method,
                    const char          *uri,
                    gpointer             source_tag,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_check_cancellable (task, FALSE);
  /* "method\0uri" */
  g_task_set_task_data (task, g_strjoin ("\x01", method, uri, NULL), g_free);
  *strchr (g_task_get_task_data (task), '\x01') = '\0';

  if (!check_offered (self, "subscribe", &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* Which revision decides how: connected first */
  if (self->state != AGENT_MCP_CLIENT_STATE_READY)
    agent_mcp_client_connect_async (self, cancellable, subscription_connected_cb,
                                    g_steal_pointer (&task));
  else
    subscribe_now (g_steal_pointer (&task));
}

/**
 * agent_mcp_client_subscribe_resource_async:
 * @self: a [class@Agent.McpClient]
 * @uri: the resource's URI
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the server answered
 * @user_data: data for @callback
 *
 * Asks the server to say when the resource changes
 * (`resources/subscribe`): [signal@Agent.McpClient::resource-updated] is
 * then emitted with its URI. A subscription lasts as long as the
 * connection.
 *
 * Since: 0.1
 */
void
agent_mcp_client_subscribe_resource_async (AgentMcpClient      *self,
                                           const char          *uri,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  subscription_async (self, "resources/subscribe", uri,
                      agent_mcp_client_subscribe_resource_async, cancellable, callback,
                      user_data);
}

/**
 * agent_mcp_client_subscribe_resource_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.subscribe_resource_async]. A server
 * that offers no subscriptions fails with %AGENT_ERROR_UNSUPPORTED.
 *
 * Returns: %TRUE if subscribed, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_subscribe_resource_finish (AgentMcpClient  *self,
                                            GAsyncResult    *result,
                                            GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_subscribe_resource_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_mcp_client_unsubscribe_resource_async:
 * @self: a [class@Agent.McpClient]
 * @uri: the resource's URI
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the server answered
 * @user_data: data for @callback
 *
 * Ends a subscription of [method@Agent.McpClient.subscribe_resource_async]
 * (`resources/unsubscribe`).
 *
 * Since: 0.1
 */
void
agent_mcp_client_unsubscribe_resource_async (AgentMcpClient      *self,
                                             const char          *uri,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  subscription_async (self, "resources/unsubscribe", uri,
                      agent_mcp_client_unsubscribe_resource_async, cancellable, callback,
                      user_data);
}

/**
 * agent_mcp_client_unsubscribe_resource_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.unsubscribe_resource_async].
 *
 * Returns: %TRUE if unsubscribed, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_unsubscribe_resource_finish (AgentMcpClient  *self,
                                              GAsyncResult    *result,
                                              GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_unsubscribe_resource_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* What the server says of its resources (or prompts): TRUE if @method
 * was one */
gboolean
_agent_mcp_client_resource_notification (AgentMcpClient  *self,
                                         const char      *method,
                                         const AgentJson *params)
{
  if (_agent_mcp_client_listen_notification (self, method, params))
    return TRUE;
  if (g_str_equal (method, "notifications/resources/updated"))
    {
      const char *uri = params ? agent_json_member_string (params, "uri", NULL) : NULL;

      if (uri != NULL)
        _agent_mcp_client_emit_resource_updated (self, uri);
      return TRUE;
    }
  if (g_str_equal (method, "notifications/resources/list_changed"))
    {
      _agent_mcp_client_emit_resources_changed (self);
      return TRUE;
    }
  /* Prompts too: the same kind of news */
  if (g_str_equal (method, "notifications/prompts/list_changed"))
    {
      _agent_mcp_client_emit_prompts_changed (self);
      return TRUE;
    }
  return FALSE;
}
