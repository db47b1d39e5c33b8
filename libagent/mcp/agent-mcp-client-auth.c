/* agent-mcp-client-auth.c — AgentMcpClient: authorization of HTTP servers
 *
 * The application's side of OAuth (agent-mcp-auth*.c do the work; the
 * ::authorize signal that hands it the URL the user must open, and the
 * :authorization property, are in agent-mcp-client.c): where the
 * authorization stands, cancelling one, and signing out (forgetting the
 * server's tokens).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "mcp/agent-mcp-auth-private.h"

/* The user may take minutes: the requests that wait are not timed out */
void
_agent_mcp_client_hold_timeouts (AgentMcpClient *self,
                                 gboolean        hold)
{
  if (self->rpc != NULL)
    _agent_mcp_rpc_hold_timeouts (self->rpc, hold);
}

static gboolean
has_authorization_header (AgentMcpClient *self)
{
  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    if (g_ascii_strncasecmp (self->headers[i], "Authorization:", strlen ("Authorization:")) == 0)
      return TRUE;
  return FALSE;
}

static AgentMcpAuth *
ensure_auth (AgentMcpClient *self)
{
  JsonObject *oauth = NULL;

  if (self->auth == NULL)
    self->auth = _agent_mcp_auth_new (self);
  if (self->extra != NULL && json_object_has_member (self->extra, "oauth") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (self->extra, "oauth")))
    oauth = json_object_get_object_member (self->extra, "oauth");
  _agent_mcp_auth_configure (self->auth, self->url, oauth);
  return self->auth;
}

/* A new HTTP connection: OAuth, unless the configuration gives its own
 * credentials */
void
_agent_mcp_client_setup_auth (AgentMcpClient    *self,
                              AgentMcpTransport *transport)
{
  if (self->url == NULL || has_authorization_header (self))
    return;
  _agent_mcp_http_transport_set_auth (transport, ensure_auth (self));
}

/* The client goes: a browser that comes back finds no one waiting */
void
_agent_mcp_client_clear_auth (AgentMcpClient *self)
{
  if (self->auth != NULL)
    _agent_mcp_auth_cancel (self->auth);
  g_clear_object (&self->auth);
}

void
_agent_mcp_client_set_authorization (AgentMcpClient        *self,
                                     AgentMcpAuthorization  authorization)
{
  if (self->authorization == authorization)
    return;
  self->authorization = authorization;
  _agent_mcp_client_notify (self, AGENT_MCP_CLIENT_PROP_AUTHORIZATION);
}

/**
 * agent_mcp_client_get_authorization:
 * @self: an [class@Agent.McpClient]
 *
 * Gets where the OAuth authorization of the client's server stands: see
 * [property@Agent.McpClient:authorization].
 *
 * Returns: whether the client waits for the user, holds tokens, or neither
 *
 * Since: 0.1
 */
AgentMcpAuthorization
agent_mcp_client_get_authorization (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), AGENT_MCP_AUTHORIZATION_NONE);

  return self->authorization;
}

/**
 * agent_mcp_client_cancel_authorization:
 * @self: an [class@Agent.McpClient]
 *
 * Stops waiting for the user to authorize the client in the browser (see
 * [signal@Agent.McpClient::authorize]): the requests that waited fail with
 * %G_IO_ERROR_CANCELLED. Does nothing when no authorization is under way.
 *
 * Since: 0.1
 */
void
agent_mcp_client_cancel_authorization (AgentMcpClient *self)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (self->auth != NULL)
    _agent_mcp_auth_cancel (self->auth);
}

static void
forget_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (_agent_mcp_auth_forget_finish (AGENT_MCP_AUTH (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * agent_mcp_client_sign_out_async:
 * @self: an [class@Agent.McpClient] of a Streamable HTTP server
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the tokens are forgotten
 * @user_data: data for @callback
 *
 * Forgets the OAuth tokens of the client's server: those in use and those
 * in the keyring (kept under the schema `io.github.libagent.McpToken` with
 * the attribute `server-url`). An authorization under way is cancelled.
 * The next request the server refuses asks for authorization again.
 *
 * Since: 0.1
 */
void
agent_mcp_client_sign_out_async (AgentMcpClient      *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_sign_out_async);

  if (self->url == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  _agent_mcp_auth_forget_async (ensure_auth (self), cancellable, forget_cb,
                                g_steal_pointer (&task));
}

/**
 * agent_mcp_client_sign_out_finish:
 * @self: an [class@Agent.McpClient]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.sign_out_async].
 *
 * Returns: %TRUE if the tokens are forgotten, or %FALSE with @error set
 *   (%AGENT_ERROR_STORAGE: the keyring could not remove them)
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_sign_out_finish (AgentMcpClient  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_sign_out_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
