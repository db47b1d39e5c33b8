/* agent-mcp-listen.c — changes through subscriptions/listen (2026-07-28)
 *
 * A stateless server sends nothing on its own: the client opens one
 * long-lived subscriptions/listen request whose answer never comes (over
 * HTTP, a POST whose event stream stays open), asking for the changes of
 * what the server offers (tools, prompts, resources) and for the updates
 * of the resources subscribed to. The notifications it carries are those
 * of the older revisions, so they take the same way to ::tool-changed,
 * ::resources-changed, ::prompts-changed and ::resource-updated.
 *
 * Subscribing to a resource, or ending a subscription, opens the stream
 * again with the new list (the server keeps no state between requests):
 * the old one is cancelled (notifications/cancelled on stdio, the stream
 * closed over HTTP).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

static void
listen_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AgentMcpOp) op = user_data;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = _agent_mcp_rpc_request_finish (result, &error);
  if (_agent_mcp_op_is_stale (op))
    return;

  /* The server ended it (shutting down), or it failed: the tools stay as
   * they are, without news of their changes. */
  if (node != NULL)
    _agent_mcp_log (op->client->name, "subscriptions/listen ended by the server");
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _agent_mcp_log (op->client->name, "subscriptions/listen failed: %s", error->message);
}

static gboolean
offers (JsonObject *capabilities,
        const char *feature,
        const char *option)
{
  JsonNode *node = json_object_get_member (capabilities, feature);
  JsonObject *object;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  if (option == NULL)
    return TRUE;

  object = json_node_get_object (node);
  return json_object_get_boolean_member_with_default (object, option, FALSE);
}

/* Opens the stream (again) for what the server offers to tell */
void
_agent_mcp_client_listen (AgentMcpClient *self)
{
  JsonObject *capabilities;
  cJSON *params;
  cJSON *filter;
  gboolean any = FALSE;

  _agent_mcp_client_stop_listening (self);
  if (self->rpc == NULL || self->revision == NULL || !self->revision->listen ||
      self->capabilities == NULL)
    return;

  capabilities = json_node_get_object (self->capabilities);
  params = cJSON_CreateObject ();
  filter = cJSON_AddObjectToObject (params, "notifications");

  if (offers (capabilities, "tools", "listChanged"))
    any = cJSON_AddTrueToObject (filter, "toolsListChanged") != NULL;
  if (offers (capabilities, "prompts", "listChanged"))
    any = cJSON_AddTrueToObject (filter, "promptsListChanged") != NULL;
  if (offers (capabilities, "resources", "listChanged"))
    any = cJSON_AddTrueToObject (filter, "resourcesListChanged") != NULL;
  if (offers (capabilities, "resources", "subscribe") && self->listen_uris != NULL &&
      g_hash_table_size (self->listen_uris) > 0)
    {
      cJSON *uris = cJSON_AddArrayToObject (filter, "resourceSubscriptions");
      GHashTableIter iter;
      gpointer uri;

      g_hash_table_iter_init (&iter, self->listen_uris);
      while (g_hash_table_iter_next (&iter, &uri, NULL))
        cJSON_AddItemToArray (uris, cJSON_CreateString (uri));
      any = TRUE;
    }

  if (!any)
    {
      cJSON_Delete (params);
      return;
    }

  self->listen_cancellable = g_cancellable_new ();
  /* No time limit: it lasts as long as the connection */
  _agent_mcp_rpc_request_async (self->rpc, "subscriptions/listen", params, 0,
                                NULL, NULL, NULL, NULL, NULL, self->listen_cancellable,
                                listen_cb, _agent_mcp_op_new (self));
}

void
_agent_mcp_client_stop_listening (AgentMcpClient *self)
{
  g_autoptr(GCancellable) cancellable = g_steal_pointer (&self->listen_cancellable);

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

/* A resource subscribed to, or no longer: the stream says so from now on.
 * Kept across connections, as the server keeps nothing. */
void
_agent_mcp_client_listen_for_resource (AgentMcpClient *self,
                                       const char     *uri,
                                       gboolean        subscribe)
{
  if (self->listen_uris == NULL)
    self->listen_uris = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (subscribe)
    g_hash_table_add (self->listen_uris, g_strdup (uri));
  else
    g_hash_table_remove (self->listen_uris, uri);

  _agent_mcp_client_listen (self);
}

/* notifications/subscriptions/acknowledged: what the server agreed to tell */
gboolean
_agent_mcp_client_listen_notification (AgentMcpClient  *self,
                                       const char      *method,
                                       const AgentJson *params)
{
  AgentJson filter;
  g_autofree char *text = NULL;

  if (!g_str_equal (method, "notifications/subscriptions/acknowledged"))
    return FALSE;

  filter = params ? agent_json_member (params, "notifications") : (AgentJson) { 0 };
  if (_agent_debug_enabled (AGENT_DEBUG_MCP))
    {
      text = agent_json_serialize (&filter);
      _agent_mcp_log (self->name, "subscriptions/listen acknowledged: %s", text);
    }
  return TRUE;
}
