/* agent-mcp-connection.c — connecting to an MCP server, its tools, calls
 *
 *   connect ─► start the transport ─► agree on a protocol revision
 *   (agent-mcp-handshake.c: server/discover, or initialize and
 *   notifications/initialized) ─► tools/list, page after page ─► READY
 *
 * A tools/list_changed notification lists the tools again (once more if
 * it comes during a listing); tools whose definition did not change stay
 * the same objects, so a session that offers them sees no change; a tool
 * whose definition changed is a new object, and ::tool-changed says so.
 *
 * Over Streamable HTTP under 2026-07-28, a tool whose input schema has an
 * invalid x-mcp-header annotation is left out with a warning, and the
 * transport learns the valid ones of each listing, to send them with the
 * calls (agent-mcp-param-headers.c). A call the server refuses with
 * HeaderMismatch lists the tools again (_agent_mcp_client_relist_tools_async()).
 *
 * Each connection has a generation: when a connection ends (closed,
 * failed, disabled), the answers still on their way to it are stale and
 * ignored — except a call's, which always answers its caller.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-version.h"

#define MAX_PAGES 100

static void list_tools (AgentMcpClient *self);

/* An answer on its way to one connection */
AgentMcpOp *
_agent_mcp_op_new (AgentMcpClient *self)
{
  AgentMcpOp *op = g_new0 (AgentMcpOp, 1);

  op->client = g_object_ref (self);
  op->generation = self->generation;
  return op;
}

void
_agent_mcp_op_free (AgentMcpOp *op)
{
  g_object_unref (op->client);
  g_free (op);
}

gboolean
_agent_mcp_op_is_stale (AgentMcpOp *op)
{
  return op->generation != op->client->generation;
}

/* Ending a connection */

static void
complete_tasks (GPtrArray    **tasks,
                const GError  *error)
{
  g_autoptr(GPtrArray) list = g_steal_pointer (tasks);

  *tasks = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < list->len; i++)
    {
      GTask *task = g_ptr_array_index (list, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
transport_closed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(AgentMcpClient) self = user_data;

  g_ptr_array_remove (self->closing, object);
  if (self->closing->len == 0)
    complete_tasks (&self->close_waiters, NULL);
}

/* Ends the connection, if any: the transport goes quiet, the pending
 * requests fail, and the server is asked to leave in the background (a
 * process: stdin closed, then SIGTERM, then SIGKILL — at once if @force,
 * for a server that misbehaved; HTTP: the session is deleted). */
void
_agent_mcp_client_disconnect (AgentMcpClient *self,
                              gboolean        force)
{
  g_autoptr(AgentMcpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  AgentMcpRpc *rpc;

  self->generation++;
  self->refreshing = FALSE;
  self->refresh_again = FALSE;
  g_clear_pointer (&self->listing, g_ptr_array_unref);
  g_clear_pointer (&self->listed_names, g_hash_table_unref);
  g_clear_pointer (&self->cursor, g_free);
  complete_tasks (&self->relisting, NULL);
  _agent_mcp_client_stop_listening (self);

  if (self->rpc == NULL)
    return;

  rpc = g_steal_pointer (&self->rpc);
  transport = g_object_ref (_agent_mcp_rpc_get_transport (rpc));

  /* Being disposed, nobody waits: the transport lives on its own until the
   * server is gone. */
  if (self->closing != NULL)
    {
      g_ptr_array_add (self->closing, g_object_ref (transport));
      _agent_mcp_transport_close_async (transport, force, transport_closed_cb,
                                        g_object_ref (self));
    }
  else
    _agent_mcp_transport_close_async (transport, force, NULL, NULL);

  error = g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                       _("The MCP server “%s” was disconnected"), self->name);
  _agent_mcp_rpc_shutdown (rpc, error);
  _agent_mcp_rpc_free (rpc);
}

static void complete_waiters (AgentMcpClient *self,
                              const GError   *error);

/* Ends the connection for good: closed, disabled, or out of the list */
void
_agent_mcp_client_stop (AgentMcpClient *self)
{
  g_autoptr(GError) error = NULL;

  _agent_mcp_client_disconnect (self, FALSE);
  _agent_mcp_client_set_state (self, AGENT_MCP_CLIENT_STATE_DISCONNECTED, NULL);
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       _("The connection to the MCP server “%s” was closed"), self->name);
  complete_waiters (self, error);
}

void
_agent_mcp_client_clear_tools (AgentMcpClient *self)
{
  g_list_store_remove_all (self->tools);
}

static void
complete_waiters (AgentMcpClient *self,
                  const GError   *error)
{
  complete_tasks (&self->waiters, error);
}

static void
fail_connection (AgentMcpClient *self,
                 const GError   *error)
{
  _agent_mcp_log (self->name, "failed: %s", error->message);

  _agent_mcp_client_disconnect (self, TRUE);
  _agent_mcp_client_set_state (self, AGENT_MCP_CLIENT_STATE_FAILED, error);
  complete_waiters (self, error);
}

/* What the server says on its own */

static void
rpc_notification_cb (gpointer         user_data,
                     const char      *method,
                     const AgentJson *params)
{
  AgentMcpClient *self = user_data;

  if (_agent_mcp_client_resource_notification (self, method, params))
    return;

  if (g_str_equal (method, "notifications/tools/list_changed"))
    {
      /* Before the first listing, there is nothing to refresh. */
      if (self->refreshing)
        self->refresh_again = TRUE;
      else if (self->state == AGENT_MCP_CLIENT_STATE_READY)
        list_tools (self);
    }
  else if (g_str_equal (method, "notifications/message") && params != NULL &&
           _agent_debug_enabled (AGENT_DEBUG_MCP))
    {
      AgentJson data = agent_json_member (params, "data");
      g_autofree char *text = agent_json_serialize (&data);

      _agent_mcp_log (self->name, "log (%s): %s",
                      agent_json_member_string (params, "level", NULL), text);
    }
}

/* What the server asks of the client: answered when the answer comes, on
 * the connection it came on, if that still stands */

typedef struct
{
  AgentMcpClient *client;
  guint           generation;
  char           *id;
} ServerRequest;

static void
server_request_free (ServerRequest *request)
{
  g_object_unref (request->client);
  g_free (request->id);
  g_free (request);
}

static void
server_request_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ServerRequest *request = user_data;
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = _agent_mcp_client_handle_server_request_finish (self, result, &error);
  if (self->rpc != NULL && self->generation == request->generation &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _agent_mcp_rpc_respond (self->rpc, request->id, answer, error);

  server_request_free (request);
}

static void
rpc_request_cb (gpointer      user_data,
                const char   *id,
                const char   *method,
                JsonObject   *params,
                GCancellable *cancellable)
{
  AgentMcpClient *self = user_data;
  ServerRequest *request = g_new0 (ServerRequest, 1);

  request->client = g_object_ref (self);
  request->generation = self->generation;
  request->id = g_strdup (id);

  _agent_mcp_log (self->name, "server request %s (id %s)", method, id);
  _agent_mcp_client_handle_server_request_async (self, method, params, cancellable,
                                                 server_request_cb, request);
}

static void
rpc_closed_cb (gpointer      user_data,
               const GError *error)
{
  fail_connection (AGENT_MCP_CLIENT (user_data), error);
}

/* Listing tools */

static void
replace_tools (AgentMcpClient *self,
               GPtrArray      *listed)
{
  GListModel *model = G_LIST_MODEL (self->tools);
  guint n_old = g_list_model_get_n_items (model);
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) old_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) redefined = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean changed = n_old != listed->len;

  /* Names are unique in both lists: a tool is found by its name */
  for (guint j = 0; j < n_old; j++)
    {
      AgentMcpTool *old = g_list_model_get_item (model, j);

      g_hash_table_insert (old_by_name, (gpointer) agent_tool_get_name (AGENT_TOOL (old)),
                           GUINT_TO_POINTER (j + 1));
      g_object_unref (old);  /* the store keeps it */
    }

  /* Tools whose definition did not change stay the same objects. */
  for (guint i = 0; i < listed->len; i++)
    {
      AgentMcpTool *tool = g_ptr_array_index (listed, i);
      guint j = GPOINTER_TO_UINT (g_hash_table_lookup (old_by_name,
                                                       agent_tool_get_name (AGENT_TOOL (tool))));
      g_autoptr(AgentMcpTool) old = j > 0 ? g_list_model_get_item (model, j - 1) : NULL;
      AgentMcpTool *kept = NULL;

      if (old != NULL && _agent_mcp_tool_same (old, tool))
        {
          kept = g_steal_pointer (&old);
          changed |= (i != j - 1);
        }
      else if (old != NULL &&
               g_str_equal (agent_mcp_tool_get_remote_name (old),
                            agent_mcp_tool_get_remote_name (tool)))
        {
          /* The same tool, defined anew: said once it is in the list */
          g_ptr_array_add (redefined, g_object_ref (tool));
          g_ptr_array_add (redefined, g_steal_pointer (&old));
        }

      changed |= (kept == NULL);
      g_ptr_array_add (tools, kept ? kept : g_object_ref (tool));
    }

  if (changed)
    g_list_store_splice (self->tools, 0, n_old, tools->pdata, tools->len);

  for (guint i = 0; i + 1 < redefined->len; i += 2)
    {
      AgentMcpTool *tool = g_ptr_array_index (redefined, i);
      AgentMcpTool *previous = g_ptr_array_index (redefined, i + 1);

      _agent_mcp_client_emit_tool_changed (self, tool, previous,
                                           _agent_mcp_tool_diff (previous, tool));
    }
}

static void
finish_listing (AgentMcpClient *self)
{
  g_autoptr(GPtrArray) listed = g_steal_pointer (&self->listing);

  g_clear_pointer (&self->listed_names, g_hash_table_unref);
  g_clear_pointer (&self->cursor, g_free);
  self->refreshing = FALSE;
  _agent_mcp_client_set_param_headers (self, listed);
  replace_tools (self, listed);

  if (self->state == AGENT_MCP_CLIENT_STATE_CONNECTING)
    {
      _agent_mcp_client_set_state (self, AGENT_MCP_CLIENT_STATE_READY, NULL);
      complete_waiters (self, NULL);
    }

  if (self->refresh_again && self->state == AGENT_MCP_CLIENT_STATE_READY)
    {
      self->refresh_again = FALSE;
      list_tools (self);
    }
  else
    complete_tasks (&self->relisting, NULL);
}

static void request_page (AgentMcpClient *self);

static void
add_listed_tools (AgentMcpClient *self,
                  JsonArray      *definitions)
{
  guint n = definitions ? json_array_get_length (definitions) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *definition = json_array_get_element (definitions, i);
      g_autoptr(AgentMcpTool) tool = NULL;
      JsonObject *object;
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (definition))
        continue;
      object = json_node_get_object (definition);
      tool = _agent_mcp_tool_new (self, object, self->tool_prefix);
      if (tool == NULL || !_agent_mcp_client_take_param_headers (self, tool, object))
        continue;

      /* The first of two tools of the same name wins */
      name = agent_tool_get_name (AGENT_TOOL (tool));
      if (g_hash_table_contains (self->listed_names, name))
        continue;
      g_hash_table_add (self->listed_names, (gpointer) name);
      g_ptr_array_add (self->listing, g_steal_pointer (&tool));
    }
}

static void
tools_list_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentMcpOp) op = user_data;
  AgentMcpClient *self = op->client;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;
  const char *cursor;

  node = _agent_mcp_rpc_request_finish (result, &error);
  if (_agent_mcp_op_is_stale (op))
    return;

  if (node == NULL)
    {
      if (self->state == AGENT_MCP_CLIENT_STATE_CONNECTING)
        {
          g_autoptr(GError) failed = NULL;

          failed = g_error_new (error->domain, error->code,
                                _("The MCP server “%s” could not list its tools: %s"),
                                self->name, error->message);
          fail_connection (self, failed);
          return;
        }

      /* A refresh that failed: the tools stay as they were. */
      _agent_mcp_log (self->name, "listing tools failed: %s", error->message);
      g_clear_pointer (&self->listing, g_ptr_array_unref);
      g_clear_pointer (&self->listed_names, g_hash_table_unref);
      self->refreshing = FALSE;
      complete_tasks (&self->relisting, NULL);
      return;
    }

  answer = json_node_get_object (node);
  if (json_object_has_member (answer, "tools") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "tools")))
    add_listed_tools (self, json_object_get_array_member (answer, "tools"));

  cursor = json_object_get_string_member_with_default (answer, "nextCursor", NULL);
  if (cursor != NULL && cursor[0] != '\0' && g_strcmp0 (cursor, self->cursor) != 0 &&
      ++self->n_pages < MAX_PAGES)
    {
      g_free (self->cursor);
      self->cursor = g_strdup (cursor);
      request_page (self);
      return;
    }

  finish_listing (self);
}

static void
request_page (AgentMcpClient *self)
{
  cJSON *params = NULL;

  if (self->cursor != NULL)
    {
      params = cJSON_CreateObject ();
      cJSON_AddStringToObject (params, "cursor", self->cursor);
    }

  _agent_mcp_rpc_request_async (self->rpc, "tools/list", params, self->timeout,
                                NULL, NULL, NULL, _agent_mcp_check_tools_page, self,
                                NULL, tools_list_cb, _agent_mcp_op_new (self));
}

static void
list_tools (AgentMcpClient *self)
{
  self->refreshing = TRUE;
  self->refresh_again = FALSE;
  self->n_pages = 0;
  g_clear_pointer (&self->cursor, g_free);
  g_clear_pointer (&self->listing, g_ptr_array_unref);
  g_clear_pointer (&self->listed_names, g_hash_table_unref);
  self->listing = g_ptr_array_new_with_free_func (g_object_unref);
  self->listed_names = g_hash_table_new (g_str_hash, g_str_equal);

  request_page (self);
}

void
_agent_mcp_client_relist_tools_async (AgentMcpClient      *self,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

  g_task_set_source_tag (task, _agent_mcp_client_relist_tools_async);

  if (self->state != AGENT_MCP_CLIENT_STATE_READY || self->rpc == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_ptr_array_add (self->relisting, g_steal_pointer (&task));
  if (self->refreshing)
    self->refresh_again = TRUE;
  else
    list_tools (self);
}

void
_agent_mcp_client_relist_tools_finish (AgentMcpClient *self,
                                       GAsyncResult   *result)
{
  g_return_if_fail (g_task_is_valid (result, self));

  g_task_propagate_boolean (G_TASK (result), NULL);
}

/* Agreed on a revision (agent-mcp-handshake.c): its tools, and the
 * changes of what it offers */
void
_agent_mcp_client_connected (AgentMcpClient *self)
{
  JsonObject *capabilities = json_node_get_object (self->capabilities);

  if (self->revision->listen)
    _agent_mcp_client_listen (self);

  if (json_object_has_member (capabilities, "tools"))
    list_tools (self);
  else
    {
      self->listing = g_ptr_array_new_with_free_func (g_object_unref);
      self->listed_names = g_hash_table_new (g_str_hash, g_str_equal);
      finish_listing (self);
    }
}

void
_agent_mcp_client_fail (AgentMcpClient *self,
                        const GError   *error)
{
  fail_connection (self, error);
}

static void
start_connection (AgentMcpClient *self)
{
  static const AgentMcpRpcCallbacks callbacks = {
    .notification = rpc_notification_cb,
    .request = rpc_request_cb,
    .closed = rpc_closed_cb,
  };
  g_autoptr(AgentMcpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  _agent_mcp_client_disconnect (self, FALSE);
  _agent_mcp_client_set_state (self, AGENT_MCP_CLIENT_STATE_CONNECTING, NULL);

  if (self->command != NULL)
    transport = _agent_mcp_stdio_transport_new (self->command,
                                                (const char * const *) self->args,
                                                (const char * const *) self->env, self->cwd);
  else if (self->url != NULL)
    {
      transport = _agent_mcp_http_transport_new (self->url, (const char * const *) self->headers);
      _agent_mcp_client_setup_auth (self, transport);
    }
  else
    {
      error = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("MCP server “%s” needs either a “command” or a “url”"), self->name);
      fail_connection (self, error);
      return;
    }

  _agent_mcp_transport_set_name (transport, self->name);
  if (!_agent_mcp_transport_start (transport, &error))
    {
      fail_connection (self, error);
      return;
    }

  self->rpc = _agent_mcp_rpc_new (transport, self->name, &callbacks, self);

  _agent_mcp_client_handshake (self);
}

/* Connecting */

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      data)
{
  GTask *task = data;
  AgentMcpClient *self = g_task_get_source_object (task);

  g_object_ref (task);
  if (g_ptr_array_remove (self->waiters, task))
    g_task_return_error_if_cancelled (task);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

static void
destroy_source (gpointer data)
{
  g_source_destroy (data);
  g_source_unref (data);
}

/**
 * agent_mcp_client_connect_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]: stops waiting (the connection
 *   goes on)
 * @callback: (scope async): called when connected, or when it failed
 * @user_data: data for @callback
 *
 * Connects to the server: starts it (or reaches it), agrees on a protocol
 * version and lists its tools. Does nothing more when already connected;
 * joins the attempt under way when connecting.
 *
 * Since: 0.1
 */
void
agent_mcp_client_connect_async (AgentMcpClient      *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_connect_async);

  if (!self->enabled)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The MCP server “%s” is disabled"), self->name);
      return;
    }

  if (self->state == AGENT_MCP_CLIENT_STATE_READY)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  if (cancellable != NULL)
    {
      GSource *source = g_cancellable_source_new (cancellable);

      g_source_set_callback (source, G_SOURCE_FUNC (waiter_cancelled_cb), task, NULL);
      g_source_set_static_name (source, "[agent-mcp-connect-cancel]");
      g_source_attach (source, g_main_context_get_thread_default ());
      g_task_set_task_data (task, source, destroy_source);
    }

  g_ptr_array_add (self->waiters, g_object_ref (task));

  if (self->state != AGENT_MCP_CLIENT_STATE_CONNECTING)
    start_connection (self);
}

/**
 * agent_mcp_client_connect_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.connect_async]. A connection fails, among
 * others, with %AGENT_ERROR_INVALID_ARGUMENT for a disabled server or one
 * without a command or URL, %AGENT_ERROR_NETWORK when the server could not
 * be started or reached or went away, %AGENT_ERROR_AUTHENTICATION or
 * %AGENT_ERROR_HTTP when an HTTP server refused, %AGENT_ERROR_PROTOCOL when
 * the server spoke something else, %AGENT_ERROR_LIMIT when it offers more
 * tools than [property@Agent.McpClient:max-tools], %AGENT_ERROR_TIMEOUT
 * beyond [property@Agent.McpClient:timeout], and %G_IO_ERROR_CANCELLED when
 * @cancellable was cancelled, or the client was closed, disabled or disposed
 * meanwhile.
 *
 * Returns: %TRUE once connected (the tools are listed), or %FALSE with
 *   @error set (the error of a failed connection is also
 *   [property@Agent.McpClient:error])
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_connect_finish (AgentMcpClient  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_mcp_client_connect_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_mcp_client_close_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the server is gone
 * @user_data: data for @callback
 *
 * Closes the connection the way the specification asks: a child process
 * has its input closed, then (after two seconds each) SIGTERM and SIGKILL;
 * an HTTP session is deleted. Pending calls end with an error. The tools
 * stay listed: calling one connects again.
 *
 * Since: 0.1
 */
void
agent_mcp_client_close_async (AgentMcpClient      *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_close_async);

  _agent_mcp_client_stop (self);

  /* Done when every server this client started is gone, a failed one
   * included. */
  if (self->closing->len == 0)
    g_task_return_boolean (task, TRUE);
  else
    g_ptr_array_add (self->close_waiters, g_steal_pointer (&task));
}

/**
 * agent_mcp_client_close_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.close_async]: the servers this client
 * started are gone (a process exited and was reaped, an HTTP session was
 * deleted or its deletion refused).
 *
 * Returns: %TRUE, or %FALSE with %G_IO_ERROR_CANCELLED when the
 *   close_async()'s cancellable was cancelled (the server leaves all the
 *   same)
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_close_finish (AgentMcpClient  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_mcp_client_close_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
