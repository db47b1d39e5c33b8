/* agent-mcp-server-request.c — what an MCP server asks of the client
 *
 * A server's request (a JSON-RPC request over a connection of 2025-11-25
 * and before; for 2026-07-28, what an `input_required` result asks) comes
 * here as a method and its parameters, and completes with the result
 * object to send back, or an error that carries its JSON-RPC code.
 * Nothing here knows the transport or the protocol revision.
 *
 *   ping                  an empty result
 *   elicitation/create    an AgentMcpElicitation for ::elicitation, when
 *                         the client handles elicitation; answered when
 *                         the application answers it
 *   anything else         "method not found"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "mcp/agent-mcp-private.h"

G_DEFINE_QUARK (agent-mcp-rpc-error-quark, _agent_mcp_rpc_error)

static void
elicit (AgentMcpClient *self,
        JsonObject     *params,
        GTask          *task)
{
  g_autoptr(AgentMcpElicitation) request = NULL;
  GError *error = NULL;

  if (!self->handles_elicitation)
    {
      g_task_return_new_error (task, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_METHOD_NOT_FOUND,
                               "The client does not handle elicitation");
      return;
    }

  request = _agent_mcp_elicitation_new (self->name, params, task, &error);
  if (request == NULL)
    {
      _agent_mcp_log (self->name, "elicitation refused: %s", error->message);
      g_task_return_error (task, error);
      return;
    }

  /* The application keeps a reference to answer later; a request nobody
   * kept is cancelled when this last reference goes. */
  _agent_mcp_client_emit_elicitation (self, request);
}

void
_agent_mcp_client_handle_server_request_async (AgentMcpClient      *self,
                                               const char          *method,
                                               JsonObject          *params,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (method != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agent_mcp_client_handle_server_request_async);
  /* A withdrawn request is answered by the request itself, once. */
  g_task_set_check_cancellable (task, FALSE);

  if (g_cancellable_is_cancelled (cancellable))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("The MCP server “%s” withdrew its request"), self->name);
  else if (g_str_equal (method, "ping"))
    g_task_return_pointer (task, json_object_new (), (GDestroyNotify) json_object_unref);
  else if (g_str_equal (method, "elicitation/create"))
    elicit (self, params, task);
  else
    g_task_return_new_error (task, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_METHOD_NOT_FOUND,
                             "Method not found");
}

JsonObject *
_agent_mcp_client_handle_server_request_finish (AgentMcpClient  *self,
                                                GAsyncResult    *result,
                                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        _agent_mcp_client_handle_server_request_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
