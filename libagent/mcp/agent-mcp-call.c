/* agent-mcp-call.c — calling an MCP server's tools, and pinging it
 *
 * A call on a client that is not connected connects first (a server that
 * died is started again); one that is connecting waits for it. The call's
 * cancellable, cancelled, ends the call at once and tells the server with
 * notifications/cancelled; so does the client's call-timeout. A result
 * beyond the client's limits (agent-mcp-limits.c) is an error.
 *
 * A call the server refuses with HeaderMismatch (its Mcp-Param-* headers
 * do not match its arguments: the tool's schema changed since it was
 * listed, as streamable-http.mdx has it) lists the tools again and goes
 * once more; refused again, it fails naming the server and the tool.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

typedef struct
{
  AgentMcpClient      *client;
  char                *name;         /* the server's name for the tool */
  AgentMcpTool        *tool;         /* it, when listed: its output schema */
  JsonNode            *arguments;
  char                *written;      /* the arguments as the model wrote them, or NULL */
  AgentToolInvocation *invocation;   /* a tool's call, or … */
  GTask               *task;         /* … agent_mcp_client_call_tool_async()'s */
  guint                relisted : 1; /* after a HeaderMismatch */
} Call;

static void
call_free (Call *call)
{
  g_clear_object (&call->client);
  g_clear_object (&call->tool);
  g_clear_object (&call->invocation);
  g_clear_object (&call->task);
  g_clear_pointer (&call->arguments, json_node_unref);
  g_free (call->written);
  g_free (call->name);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

static GCancellable *
call_cancellable (Call *call)
{
  if (call->invocation != NULL)
    return agent_tool_invocation_get_cancellable (call->invocation);
  return g_task_get_cancellable (call->task);
}

static void
call_failed (Call         *call,
             const GError *error)
{
  if (call->invocation != NULL)
    agent_tool_invocation_return_error (call->invocation, error);
  else
    g_task_return_error (call->task, g_error_copy (error));
}

static void
call_progress_cb (double      progress,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  AgentToolInvocation *invocation = user_data;

  agent_tool_invocation_report_progress (invocation, total > 0 ? progress / total : -1, message);
}

static void send_call (Call *call);
static AgentMcpTool *find_tool (AgentMcpClient *self,
                                const char     *remote_name);

static void
relisted_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Call *call = user_data;

  _agent_mcp_client_relist_tools_finish (AGENT_MCP_CLIENT (object), result);

  /* Its output schema may have changed too */
  g_clear_object (&call->tool);
  call->tool = find_tool (call->client, call->name);

  /* Cancelled meanwhile, it fails at once */
  send_call (call);
}

/* HeaderMismatch: lists the tools again and retries, once; TRUE if it does */
static gboolean
header_mismatch (Call    *call,
                 GError **error)
{
  GError *refused;

  if (!g_error_matches (*error, AGENT_MCP_RPC_ERROR, AGENT_MCP_ERROR_HEADER_MISMATCH))
    return FALSE;

  if (!call->relisted)
    {
      _agent_mcp_log (call->client->name, "%s: header mismatch, listing tools again: %s",
                      call->name, (*error)->message);
      call->relisted = TRUE;
      _agent_mcp_client_relist_tools_async (call->client, relisted_cb, call);
      return TRUE;
    }

  refused = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                         _("The MCP server “%s” refused the call of its tool “%s” twice, as its "
                           "headers did not match its arguments, even after listing its tools "
                           "again: %s"),
                         call->client->name, call->name, (*error)->message);
  g_clear_error (error);
  *error = refused;
  return FALSE;
}

static void
call_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean is_error = FALSE;

  node = _agent_mcp_client_rpc_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (node == NULL && header_mismatch (call, &error))
    {
      g_steal_pointer (&call);
      return;
    }
  if (node == NULL ||
      (call->tool != NULL && (error = _agent_mcp_tool_check_structured (call->tool, node))))
    {
      call_failed (call, error);
      return;
    }

  if (call->task != NULL)
    {
      g_task_return_pointer (call->task, g_steal_pointer (&node), (GDestroyNotify) json_node_unref);
      return;
    }

  text = _agent_mcp_result_to_text (node, &is_error);
  if (!is_error)
    {
      g_autoptr(GPtrArray) images = _agent_mcp_result_dup_images (node);

      for (guint i = 0; i < images->len; i++)
        agent_tool_invocation_add_attachment (call->invocation, g_ptr_array_index (images, i));
    }
  if (is_error)
    agent_tool_invocation_return_error_literal (call->invocation, text);
  else
    agent_tool_invocation_return_result (call->invocation, text);
}

static void
send_call (Call *call)
{
  AgentMcpClient *self = call->client;
  cJSON *arguments;
  cJSON *params;

  if (self->rpc == NULL)
    {
      g_autoptr(GError) error = NULL;

      error = g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                           _("The MCP server “%s” is not connected"), self->name);
      call_failed (call, error);
      call_free (call);
      return;
    }

  params = cJSON_CreateObject ();
  cJSON_AddStringToObject (params, "name", call->name);
  /* The model's text when it is strict JSON, so that its numbers reach
   * the server with their digits; else the parse, printed */
  if ((arguments = _agent_json_raw_object (call->written)) == NULL)
    arguments = agent_node_to_cjson (call->arguments);
  cJSON_AddItemToObject (params, "arguments", arguments);

  /* The call holds the client the check reads */
  if (call->invocation != NULL)
    _agent_mcp_client_rpc_async (self, "tools/call", params, self->call_timeout,
                                 call_progress_cb, g_object_ref (call->invocation), g_object_unref,
                                 _agent_mcp_check_call_result, self,
                                 call_cancellable (call), call_done_cb, call);
  else
    _agent_mcp_client_rpc_async (self, "tools/call", params, self->call_timeout,
                                 NULL, NULL, NULL, _agent_mcp_check_call_result, self,
                                 call_cancellable (call), call_done_cb, call);
}

static void
connected_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  g_autoptr(GError) error = NULL;

  if (!agent_mcp_client_connect_finish (call->client, result, &error))
    {
      call_failed (call, error);
      return;
    }

  send_call (g_steal_pointer (&call));
}

static void
start_call (Call *call)
{
  AgentMcpClient *self = call->client;

  if (self->state == AGENT_MCP_CLIENT_STATE_READY && self->rpc != NULL)
    send_call (call);
  else
    agent_mcp_client_connect_async (self, call_cancellable (call), connected_cb, call);
}

/* The listed tool of that name on the server, or NULL */
static AgentMcpTool *
find_tool (AgentMcpClient *self,
           const char     *remote_name)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), i);

      if (g_str_equal (agent_mcp_tool_get_remote_name (tool), remote_name))
        return g_steal_pointer (&tool);
    }
  return NULL;
}

void
_agent_mcp_client_invoke (AgentMcpClient      *self,
                          AgentMcpTool        *tool,
                          AgentToolInvocation *invocation)
{
  Call *call = g_new0 (Call, 1);

  call->client = g_object_ref (self);
  call->name = g_strdup (agent_mcp_tool_get_remote_name (tool));
  call->tool = g_object_ref (tool);
  call->arguments = json_node_ref (agent_tool_invocation_get_arguments (invocation));
  call->written = g_strdup (agent_tool_call_get_arguments (
    agent_tool_invocation_get_tool_call (invocation)));
  call->invocation = g_object_ref (invocation);

  start_call (call);
}

/**
 * agent_mcp_client_call_tool_async:
 * @self: a [class@Agent.McpClient]
 * @name: the server's name for the tool
 * @arguments: (nullable): the arguments, a JSON object
 * @cancellable: (nullable): a [class@Gio.Cancellable]: cancelling it tells the server
 * @callback: (scope async): called with the result
 * @user_data: data for @callback
 *
 * Calls a tool of the server directly, connecting first if needed. Use it
 * for what the tool result of an [class@Agent.McpTool] leaves out (images
 * as data, structured content as JSON).
 *
 * Since: 0.1
 */
void
agent_mcp_client_call_tool_async (AgentMcpClient      *self,
                                  const char          *name,
                                  JsonNode            *arguments,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  Call *call;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (arguments == NULL || JSON_NODE_HOLDS_OBJECT (arguments));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  call = g_new0 (Call, 1);
  call->client = g_object_ref (self);
  call->name = g_strdup (name);
  call->tool = find_tool (self, name);
  if (arguments != NULL)
    call->arguments = json_node_copy (arguments);
  else
    {
      call->arguments = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (call->arguments, json_object_new ());
    }
  call->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (call->task, agent_mcp_client_call_tool_async);
  g_task_set_check_cancellable (call->task, FALSE);

  start_call (call);
}

/**
 * agent_mcp_client_call_tool_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Gets what the tool returned: the MCP `CallToolResult` object, with its
 * `content` blocks, its `structuredContent` if any, and `isError` when the
 * tool failed (a failure of the tool is a result, not an error). A tool
 * listed with an output schema whose result has no `structuredContent`, or
 * one that does not follow the schema, fails with %AGENT_ERROR_SCHEMA.
 *
 * Returns: (transfer full): the result object, or %NULL with @error set
 *   when the call could not be made or answered
 *
 * Since: 0.1
 */
JsonNode *
agent_mcp_client_call_tool_finish (AgentMcpClient  *self,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_call_tool_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Ping */

static void
ping_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  node = _agent_mcp_rpc_request_finish (result, &error);
  if (node == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * agent_mcp_client_ping_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the answer
 * @user_data: data for @callback
 *
 * Asks a connected server whether it is still there, within
 * [property@Agent.McpClient:timeout]: `ping`, or `server/discover` under
 * protocol version 2026-07-28, which has no `ping`.
 *
 * Since: 0.1
 */
void
agent_mcp_client_ping_async (AgentMcpClient      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_ping_async);
  g_task_set_check_cancellable (task, FALSE);

  if (self->state != AGENT_MCP_CLIENT_STATE_READY || self->rpc == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK,
                               _("The MCP server “%s” is not connected"), self->name);
      return;
    }

  /* 2026-07-28 has no ping: server/discover is as cheap */
  _agent_mcp_rpc_request_async (self->rpc, self->revision->ping_method, NULL, self->timeout,
                                NULL, NULL, NULL, NULL, NULL, cancellable, ping_cb,
                                g_steal_pointer (&task));
}

/**
 * agent_mcp_client_ping_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.ping_async]. The ping fails with
 * %AGENT_ERROR_NETWORK when the server is not connected or went away,
 * %AGENT_ERROR_TIMEOUT when it did not answer within
 * [property@Agent.McpClient:timeout], and %G_IO_ERROR_CANCELLED when
 * cancelled.
 *
 * Returns: %TRUE if the server answered, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_ping_finish (AgentMcpClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_mcp_client_ping_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
