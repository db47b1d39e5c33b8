/* agent-mcp-server-list.c — the configured MCP servers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json.h"
#include "mcp/agent-mcp-private.h"
#include "mcp/agent-mcp-server-list.h"

/**
 * AgentMcpServerList:
 *
 * The MCP servers an application is configured with: a
 * [iface@Gio.ListModel] of [class@Agent.McpClient], one per server, each
 * with its [property@Agent.McpClient:state], its
 * [property@Agent.McpClient:error] and its [property@Agent.McpClient:tools]
 * — what a preferences page shows.
 *
 * It reads and writes the `mcpServers` JSON that desktop MCP clients share:
 *
 * ```json
 * {
 *   "mcpServers": {
 *     "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"] },
 *     "search": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer …" } }
 *   }
 * }
 * ```
 *
 * [method@Agent.McpServerList.connect_async] connects every enabled server;
 * [method@Agent.McpServerList.attach] offers their tools to a session and
 * keeps them in step as servers are added, removed, enabled or disabled
 * and as their tools change.
 *
 * Disposing the list (`g_object_run_dispose()`) closes its servers, takes
 * their tools from the sessions and leaves it empty; a
 * [method@Agent.McpServerList.connect_async] under way then ends with
 * %G_IO_ERROR_CANCELLED.
 *
 * Since: 0.1
 */

typedef struct
{
  AgentMcpServerList *list;
  GWeakRef            session;
  GHashTable         *added;      /* the tools we offered it: AgentTool → itself */
} Attachment;

struct _AgentMcpServerList
{
  GObject    parent_instance;
  GPtrArray *clients;             /* of AgentMcpClient */
  GPtrArray *attachments;         /* of Attachment */
  guint      n_disposed;          /* how often it was disposed: connecting ends then */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentMcpServerList, agent_mcp_server_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return AGENT_TYPE_MCP_CLIENT;
}

static guint
get_n_items (GListModel *model)
{
  return AGENT_MCP_SERVER_LIST (model)->clients->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  AgentMcpServerList *self = AGENT_MCP_SERVER_LIST (model);

  if (position >= self->clients->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->clients, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

/* Sessions */

static void
attachment_free (gpointer data)
{
  Attachment *attachment = data;
  g_autoptr(AgentSession) session = g_weak_ref_get (&attachment->session);

  if (session != NULL)
    {
      GHashTableIter iter;
      gpointer tool;

      g_hash_table_iter_init (&iter, attachment->added);
      while (g_hash_table_iter_next (&iter, &tool, NULL))
        agent_session_remove_tool (session, tool);
    }

  g_weak_ref_clear (&attachment->session);
  g_hash_table_unref (attachment->added);
  g_free (attachment);
}

/* The tools the servers offer now, in order */
static GPtrArray *
current_tools (AgentMcpServerList *self)
{
  GPtrArray *tools = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < self->clients->len; i++)
    {
      AgentMcpClient *client = g_ptr_array_index (self->clients, i);
      GListModel *model = agent_mcp_client_get_tools (client);

      if (!agent_mcp_client_get_enabled (client))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (model); j++)
        g_ptr_array_add (tools, g_list_model_get_item (model, j));
    }

  return tools;
}

/* Brings the session's tools in step with the servers'. A tool whose name
 * another tool of the session (built in, or of an earlier server) has is
 * left out: give one server a tool prefix. */
static void
sync_attachment (AgentMcpServerList *self,
                 Attachment         *attachment,
                 GPtrArray          *tools)
{
  g_autoptr(AgentSession) session = g_weak_ref_get (&attachment->session);
  g_autoptr(GHashTable) offered = NULL;
  g_autoptr(GHashTable) names = NULL;
  GListModel *session_tools;
  GHashTableIter iter;
  gpointer tool;
  guint n;

  if (session == NULL)
    return;

  /* Sets, not searches: a server may offer thousands of tools */
  offered = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < tools->len; i++)
    g_hash_table_add (offered, g_ptr_array_index (tools, i));

  g_hash_table_iter_init (&iter, attachment->added);
  while (g_hash_table_iter_next (&iter, &tool, NULL))
    if (!g_hash_table_contains (offered, tool))
      {
        agent_session_remove_tool (session, tool);
        g_hash_table_iter_remove (&iter);
      }

  /* The names the session has, each with the tool that has it (kept alive
   * by the session's list) */
  names = g_hash_table_new (g_str_hash, g_str_equal);
  session_tools = agent_session_get_tools (session);
  n = g_list_model_get_n_items (session_tools);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentTool) other = g_list_model_get_item (session_tools, i);

      g_hash_table_insert (names, (gpointer) agent_tool_get_name (other), other);
    }

  for (guint i = 0; i < tools->len; i++)
    {
      AgentTool *candidate = g_ptr_array_index (tools, i);

      if (g_hash_table_contains (attachment->added, candidate))
        continue;
      if (g_hash_table_contains (names, agent_tool_get_name (candidate)))
        {
          g_debug ("MCP tool “%s” left out: the session has a tool of that name",
                   agent_tool_get_name (candidate));
          continue;
        }

      agent_session_add_tool (session, candidate);
      g_hash_table_add (attachment->added, g_object_ref (candidate));
      g_hash_table_insert (names, (gpointer) agent_tool_get_name (candidate), candidate);
    }
}

static void
sync_all (AgentMcpServerList *self)
{
  g_autoptr(GPtrArray) tools = NULL;

  if (self->attachments->len == 0)
    return;

  tools = current_tools (self);
  for (guint i = 0; i < self->attachments->len; i++)
    sync_attachment (self, g_ptr_array_index (self->attachments, i), tools);
}

static void
tools_changed_cb (GListModel         *model,
                  guint               position,
                  guint               removed,
                  guint               added,
                  AgentMcpServerList *self)
{
  sync_all (self);
}

static void
enabled_changed_cb (AgentMcpClient     *client,
                    GParamSpec         *pspec,
                    AgentMcpServerList *self)
{
  sync_all (self);
}

/**
 * agent_mcp_server_list_attach:
 * @self: a [class@Agent.McpServerList]
 * @session: a session
 *
 * Offers the tools of the enabled servers to @session, and keeps them in
 * step until [method@Agent.McpServerList.detach] (or until @session or the
 * list is finalized). A tool whose name the session already has is left
 * out.
 *
 * Since: 0.1
 */
void
agent_mcp_server_list_attach (AgentMcpServerList *self,
                              AgentSession       *session)
{
  g_autoptr(GPtrArray) tools = NULL;
  Attachment *attachment;

  g_return_if_fail (AGENT_IS_MCP_SERVER_LIST (self));
  g_return_if_fail (AGENT_IS_SESSION (session));

  for (guint i = 0; i < self->attachments->len; i++)
    {
      g_autoptr(AgentSession) other = NULL;

      attachment = g_ptr_array_index (self->attachments, i);
      other = g_weak_ref_get (&attachment->session);
      if (other == session)
        return;
    }

  attachment = g_new0 (Attachment, 1);
  attachment->list = self;
  g_weak_ref_init (&attachment->session, session);
  attachment->added = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  g_ptr_array_add (self->attachments, attachment);

  tools = current_tools (self);
  sync_attachment (self, attachment, tools);
}

/**
 * agent_mcp_server_list_detach:
 * @self: a [class@Agent.McpServerList]
 * @session: a session given to [method@Agent.McpServerList.attach]
 *
 * Takes the servers' tools back from @session.
 *
 * Since: 0.1
 */
void
agent_mcp_server_list_detach (AgentMcpServerList *self,
                              AgentSession       *session)
{
  g_return_if_fail (AGENT_IS_MCP_SERVER_LIST (self));
  g_return_if_fail (AGENT_IS_SESSION (session));

  for (guint i = 0; i < self->attachments->len; i++)
    {
      Attachment *attachment = g_ptr_array_index (self->attachments, i);
      g_autoptr(AgentSession) other = g_weak_ref_get (&attachment->session);

      if (other == session)
        {
          g_ptr_array_remove_index (self->attachments, i);
          return;
        }
    }
}

/* The list */

static void
watch_client (AgentMcpServerList *self,
              AgentMcpClient     *client)
{
  g_signal_connect_object (agent_mcp_client_get_tools (client), "items-changed",
                           G_CALLBACK (tools_changed_cb), self, 0);
  g_signal_connect_object (client, "notify::enabled", G_CALLBACK (enabled_changed_cb), self, 0);
}

static void
unwatch_client (AgentMcpServerList *self,
                AgentMcpClient     *client)
{
  g_signal_handlers_disconnect_by_data (agent_mcp_client_get_tools (client), self);
  g_signal_handlers_disconnect_by_data (client, self);
  _agent_mcp_client_stop (client);
}

static gboolean
find_client (AgentMcpServerList *self,
             const char         *name,
             guint              *position)
{
  for (guint i = 0; i < self->clients->len; i++)
    if (g_str_equal (agent_mcp_client_get_name (g_ptr_array_index (self->clients, i)), name))
      {
        *position = i;
        return TRUE;
      }

  return FALSE;
}

static void
agent_mcp_server_list_dispose (GObject *object)
{
  AgentMcpServerList *self = (AgentMcpServerList *)object;
  g_autoptr(GPtrArray) clients = g_steal_pointer (&self->clients);

  /* The sessions lose the tools, the servers are closed (a connection
   * under way ends: only g_object_run_dispose() finds one, since it holds
   * the list), and what is left is an empty list. */
  self->n_disposed++;
  g_ptr_array_set_size (self->attachments, 0);
  self->clients = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < clients->len; i++)
    unwatch_client (self, g_ptr_array_index (clients, i));
  if (clients->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, clients->len, 0);

  G_OBJECT_CLASS (agent_mcp_server_list_parent_class)->dispose (object);
}

static void
agent_mcp_server_list_finalize (GObject *object)
{
  AgentMcpServerList *self = (AgentMcpServerList *)object;

  g_clear_pointer (&self->attachments, g_ptr_array_unref);
  g_clear_pointer (&self->clients, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_mcp_server_list_parent_class)->finalize (object);
}

static void
agent_mcp_server_list_class_init (AgentMcpServerListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_mcp_server_list_dispose;
  object_class->finalize = agent_mcp_server_list_finalize;
}

static void
agent_mcp_server_list_init (AgentMcpServerList *self)
{
  self->clients = g_ptr_array_new_with_free_func (g_object_unref);
  self->attachments = g_ptr_array_new_with_free_func (attachment_free);
}

/**
 * agent_mcp_server_list_new:
 *
 * Creates an empty list of servers.
 *
 * Returns: (transfer full): a new [class@Agent.McpServerList]
 *
 * Since: 0.1
 */
AgentMcpServerList *
agent_mcp_server_list_new (void)
{
  return g_object_new (AGENT_TYPE_MCP_SERVER_LIST, NULL);
}

/**
 * agent_mcp_server_list_add:
 * @self: a [class@Agent.McpServerList]
 * @client: the client of a server
 *
 * Adds a server at the end of the list.
 *
 * Returns: %TRUE, or %FALSE if the list has a server of that name already
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_add (AgentMcpServerList *self,
                           AgentMcpClient     *client)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), FALSE);

  if (find_client (self, agent_mcp_client_get_name (client), &position))
    return FALSE;

  g_ptr_array_add (self->clients, g_object_ref (client));
  watch_client (self, client);
  g_list_model_items_changed (G_LIST_MODEL (self), self->clients->len - 1, 0, 1);
  sync_all (self);
  return TRUE;
}

/**
 * agent_mcp_server_list_remove:
 * @self: a [class@Agent.McpServerList]
 * @name: the name of a server
 *
 * Removes a server from the list and disconnects it; its tools leave the
 * attached sessions.
 *
 * Returns: whether the list had that server
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_remove (AgentMcpServerList *self,
                              const char         *name)
{
  g_autoptr(AgentMcpClient) client = NULL;
  guint position;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!find_client (self, name, &position))
    return FALSE;

  client = g_object_ref (g_ptr_array_index (self->clients, position));
  unwatch_client (self, client);
  g_ptr_array_remove_index (self->clients, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  sync_all (self);
  return TRUE;
}

/**
 * agent_mcp_server_list_lookup:
 * @self: a [class@Agent.McpServerList]
 * @name: the name of a server, its key in `mcpServers`
 *
 * Finds the client of the server called @name.
 *
 * Returns: (transfer none) (nullable): the client, owned by the list and
 *   valid while it is in the list, or %NULL if the list has no server called
 *   @name
 *
 * Since: 0.1
 */
AgentMcpClient *
agent_mcp_server_list_lookup (AgentMcpServerList *self,
                              const char         *name)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!find_client (self, name, &position))
    return NULL;
  return g_ptr_array_index (self->clients, position);
}

/* Reading and writing the configuration */

/**
 * agent_mcp_server_list_load_data:
 * @self: a [class@Agent.McpServerList]
 * @data: JSON with an `mcpServers` object (or `servers`, as VS Code writes)
 * @length: the length of @data, or -1 if it is NUL-terminated
 * @error: return location for a [struct@GLib.Error]
 *
 * Adds the servers @data configures; a server of a name already in the
 * list replaces it. Nothing changes if any server's configuration is
 * unusable.
 *
 * Returns: %TRUE, or %FALSE with @error set (%AGENT_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_load_data (AgentMcpServerList  *self,
                                 const char          *data,
                                 gssize               length,
                                 GError             **error)
{
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(GPtrArray) clients = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) parse_error = NULL;
  JsonObject *root;
  JsonNode *servers;
  JsonObjectIter iter;
  const char *name;
  JsonNode *config;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (!(document = agent_json_parse (data, length, &parse_error)))
    {
      if (g_error_matches (parse_error, AGENT_ERROR, AGENT_ERROR_LIMIT))
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The MCP configuration cannot be read: %s"), parse_error->message);
      else
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The MCP configuration is not valid JSON: %s"), parse_error->message);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (document))
    goto no_servers;
  root = json_node_get_object (document);
  servers = json_object_get_member (root, "mcpServers");
  if (servers == NULL)
    servers = json_object_get_member (root, "servers");
  if (servers == NULL || !JSON_NODE_HOLDS_OBJECT (servers))
    goto no_servers;

  json_object_iter_init_ordered (&iter, json_node_get_object (servers));
  while (json_object_iter_next_ordered (&iter, &name, &config))
    {
      AgentMcpClient *client = agent_mcp_client_new_from_json (name, config, error);

      if (client == NULL)
        return FALSE;
      g_ptr_array_add (clients, client);
    }

  for (guint i = 0; i < clients->len; i++)
    {
      AgentMcpClient *client = g_ptr_array_index (clients, i);
      guint position;

      if (find_client (self, agent_mcp_client_get_name (client), &position))
        {
          AgentMcpClient *old = g_ptr_array_index (self->clients, position);

          unwatch_client (self, old);
          g_ptr_array_index (self->clients, position) = g_object_ref (client);
          g_object_unref (old);
          watch_client (self, client);
          g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
          continue;
        }

      g_ptr_array_add (self->clients, g_object_ref (client));
      watch_client (self, client);
      g_list_model_items_changed (G_LIST_MODEL (self), self->clients->len - 1, 0, 1);
    }

  sync_all (self);
  return TRUE;

no_servers:
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The MCP configuration has no “mcpServers” object"));
  return FALSE;
}

/**
 * agent_mcp_server_list_load_file:
 * @self: a [class@Agent.McpServerList]
 * @path: (type filename): a JSON file with an `mcpServers` object
 * @error: return location for a [struct@GLib.Error]
 *
 * Adds the servers a configuration file configures, as
 * [method@Agent.McpServerList.load_data] does.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_load_file (AgentMcpServerList  *self,
                                 const char          *path,
                                 GError             **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) read_error = NULL;
  gsize len;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, &len, &read_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The MCP configuration could not be read: %s"), read_error->message);
      return FALSE;
    }

  return agent_mcp_server_list_load_data (self, contents, len, error);
}

/**
 * agent_mcp_server_list_to_data:
 * @self: a [class@Agent.McpServerList]
 *
 * Writes the list as an `mcpServers` configuration.
 *
 * Returns: (transfer full): JSON text
 *
 * Since: 0.1
 */
char *
agent_mcp_server_list_to_data (AgentMcpServerList *self)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *servers = json_object_new ();
  JsonObject *object = json_object_new ();

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), NULL);

  for (guint i = 0; i < self->clients->len; i++)
    {
      AgentMcpClient *client = g_ptr_array_index (self->clients, i);

      json_object_set_member (servers, agent_mcp_client_get_name (client),
                              agent_mcp_client_to_json (client));
    }
  json_object_set_object_member (object, "mcpServers", servers);
  json_node_take_object (root, object);

  return agent_json_node_to_string (root, TRUE);
}

/**
 * agent_mcp_server_list_save_file:
 * @self: a [class@Agent.McpServerList]
 * @path: (type filename): where to write
 * @error: return location for a [struct@GLib.Error]
 *
 * Writes the list as an `mcpServers` configuration file, readable by its
 * owner only (it may hold keys).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_save_file (AgentMcpServerList  *self,
                                 const char          *path,
                                 GError             **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = agent_mcp_server_list_to_data (self);
  return g_file_set_contents_full (path, data, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

/* Connecting and closing all */

typedef struct
{
  guint pending;
  guint n_disposed;   /* the list's, when it started */
} ForEach;

static void
for_each_done (GTask *task)
{
  AgentMcpServerList *self = g_task_get_source_object (task);
  ForEach *data = g_task_get_task_data (task);

  if (g_task_get_source_tag (task) == agent_mcp_server_list_connect_async &&
      data->n_disposed != self->n_disposed)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("The MCP servers were closed while they were connecting"));
  else
    g_task_return_boolean (task, TRUE);
}

static void
one_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ForEach *data = g_task_get_task_data (task);

  /* Each server's failure is in its state and error. */
  if (g_task_get_source_tag (task) == agent_mcp_server_list_connect_async)
    agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, NULL);
  else
    agent_mcp_client_close_finish (AGENT_MCP_CLIENT (object), result, NULL);

  if (--data->pending == 0)
    for_each_done (task);
}

static void
for_each_client (AgentMcpServerList  *self,
                 gpointer             source_tag,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GPtrArray) clients = g_ptr_array_copy (self->clients, (GCopyFunc) g_object_ref, NULL);
  ForEach *data = g_new0 (ForEach, 1);

  g_ptr_array_set_free_func (clients, g_object_unref);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, data, g_free);
  data->n_disposed = self->n_disposed;

  /* One for the loop, so that no server completes the task before all started */
  data->pending = 1;
  for (guint i = 0; i < clients->len; i++)
    {
      AgentMcpClient *client = g_ptr_array_index (clients, i);

      if (source_tag == agent_mcp_server_list_connect_async)
        {
          if (!agent_mcp_client_get_enabled (client) ||
              agent_mcp_client_get_state (client) == AGENT_MCP_CLIENT_STATE_READY)
            continue;
          data->pending++;
          agent_mcp_client_connect_async (client, cancellable, one_done_cb, g_object_ref (task));
        }
      else
        {
          data->pending++;
          agent_mcp_client_close_async (client, NULL, one_done_cb, g_object_ref (task));
        }
    }

  if (--data->pending == 0)
    for_each_done (task);
}

/**
 * agent_mcp_server_list_connect_async:
 * @self: a [class@Agent.McpServerList]
 * @cancellable: (nullable): a [class@Gio.Cancellable]: stops waiting
 * @callback: (scope async): called when every enabled server is connected
 *   or failed
 * @user_data: data for @callback
 *
 * Connects every enabled server that is not connected, side by side. A
 * server that fails does not fail the others: its
 * [property@Agent.McpClient:state] and [property@Agent.McpClient:error]
 * say what happened.
 *
 * Since: 0.1
 */
void
agent_mcp_server_list_connect_async (AgentMcpServerList  *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_MCP_SERVER_LIST (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  for_each_client (self, agent_mcp_server_list_connect_async, cancellable, callback, user_data);
}

/**
 * agent_mcp_server_list_connect_finish:
 * @self: a [class@Agent.McpServerList]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpServerList.connect_async]. Servers that failed do
 * not fail it: each one's [property@Agent.McpClient:state] and
 * [property@Agent.McpClient:error] say what happened.
 *
 * Returns: %TRUE once every server is connected or failed, or %FALSE with
 *   %G_IO_ERROR_CANCELLED when the wait was cancelled or the list disposed
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_connect_finish (AgentMcpServerList  *self,
                                      GAsyncResult        *result,
                                      GError             **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_mcp_server_list_close_async:
 * @self: a [class@Agent.McpServerList]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when every server is gone
 * @user_data: data for @callback
 *
 * Closes every server, as [method@Agent.McpClient.close_async] does.
 *
 * Since: 0.1
 */
void
agent_mcp_server_list_close_async (AgentMcpServerList  *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (AGENT_IS_MCP_SERVER_LIST (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  for_each_client (self, agent_mcp_server_list_close_async, cancellable, callback, user_data);
}

/**
 * agent_mcp_server_list_close_finish:
 * @self: a [class@Agent.McpServerList]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpServerList.close_async]: every server of the list
 * is gone.
 *
 * Returns: %TRUE, or %FALSE with %G_IO_ERROR_CANCELLED when the
 *   close_async()'s cancellable was cancelled (the servers leave all the
 *   same)
 *
 * Since: 0.1
 */
gboolean
agent_mcp_server_list_close_finish (AgentMcpServerList  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_SERVER_LIST (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
