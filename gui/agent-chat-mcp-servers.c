/* agent-chat-mcp-servers.c
 *
 * The app's MCP servers: an AgentMcpServerList read from and written to
 * an `mcpServers` JSON file (g_get_user_config_dir()/agent-chat/mcp.json,
 * the form desktop MCP clients share). Not GSettings: `env` and `headers`
 * may hold tokens, and the file is written readable by its owner only.
 * Whether a server is used is in the same file (`"disabled": true`, as
 * other desktop clients write it), so that the file alone says what runs.
 *
 * One list for the whole app: every window's session is offered the tools
 * of the enabled servers (the window attaches its session to the list,
 * agent_chat_application_get_mcp_server_list(), when it sets it up for a
 * turn, and detaches it when it drops it), and the servers are closed when
 * the app shuts down. Each server declares that the app answers its
 * requests for input (agent-chat-mcp-elicit.c). A file that cannot be
 * read is never overwritten.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-mcp-elicit.h"
#include "agent-chat-mcp-servers.h"
#include "agent-chat-mcp-sign-in.h"

/* A server gets SIGTERM 2 s after its input closes, SIGKILL 2 s later. */
#define SHUTDOWN_WAIT_SECONDS 6

struct _AgentChatMcpServers
{
  GObject             parent_instance;

  char               *path;
  AgentMcpServerList *list;
  GError             *load_error;
  GCancellable       *cancellable;
  GHashTable         *sign_ins;    /* AgentMcpClient → AgentChatMcpSignIn */
  GHashTable         *elicits;     /* AgentMcpClient → AgentChatMcpElicit */
};

G_DEFINE_FINAL_TYPE (AgentChatMcpServers, agent_chat_mcp_servers, G_TYPE_OBJECT)

/**
 * agent_chat_mcp_servers_dup_default_path:
 *
 * Returns: (transfer full): where the app keeps its MCP servers
 */
char *
agent_chat_mcp_servers_dup_default_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "agent-chat", "mcp.json", NULL);
}

static void
agent_chat_mcp_servers_dispose (GObject *object)
{
  AgentChatMcpServers *self = AGENT_CHAT_MCP_SERVERS (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_pointer (&self->sign_ins, g_hash_table_unref);
  g_clear_pointer (&self->elicits, g_hash_table_unref);
  g_clear_object (&self->list);

  G_OBJECT_CLASS (agent_chat_mcp_servers_parent_class)->dispose (object);
}

static void
agent_chat_mcp_servers_finalize (GObject *object)
{
  AgentChatMcpServers *self = AGENT_CHAT_MCP_SERVERS (object);

  g_clear_error (&self->load_error);
  g_free (self->path);

  G_OBJECT_CLASS (agent_chat_mcp_servers_parent_class)->finalize (object);
}

static void
agent_chat_mcp_servers_class_init (AgentChatMcpServersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_mcp_servers_dispose;
  object_class->finalize = agent_chat_mcp_servers_finalize;
}

static void
drop_per_server (gpointer data)
{
  /* Lets go of its client, which may outlive it */
  g_object_run_dispose (data);
  g_object_unref (data);
}

static void
forget_unlisted (GHashTable *per_server,
                 GHashTable *listed)
{
  GHashTableIter iter;
  gpointer client;

  g_hash_table_iter_init (&iter, per_server);
  while (g_hash_table_iter_next (&iter, &client, NULL))
    if (!g_hash_table_contains (listed, client))
      g_hash_table_iter_remove (&iter);
}

/* Each server gets its sign-in, and the handler of its requests for
 * input, as it joins the list (before it connects: the handshake declares
 * that the app answers them) */
static void
on_items_changed (AgentChatMcpServers *self)
{
  GListModel *model = G_LIST_MODEL (self->list);
  g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AgentMcpClient) item = g_list_model_get_item (model, i);

      g_hash_table_add (listed, item);
      if (!g_hash_table_contains (self->sign_ins, item))
        g_hash_table_insert (self->sign_ins, g_object_ref (item),
                             agent_chat_mcp_sign_in_new (item));
      if (!g_hash_table_contains (self->elicits, item))
        g_hash_table_insert (self->elicits, g_object_ref (item),
                             agent_chat_mcp_elicit_new (item));
    }
  forget_unlisted (self->sign_ins, listed);
  forget_unlisted (self->elicits, listed);
}

static void
agent_chat_mcp_servers_init (AgentChatMcpServers *self)
{
  self->list = agent_mcp_server_list_new ();
  self->cancellable = g_cancellable_new ();
  self->sign_ins = g_hash_table_new_full (NULL, NULL, g_object_unref, drop_per_server);
  self->elicits = g_hash_table_new_full (NULL, NULL, g_object_unref, drop_per_server);
  g_signal_connect_swapped (self->list, "items-changed", G_CALLBACK (on_items_changed), self);
}

/**
 * agent_chat_mcp_servers_new:
 * @path: (type filename): the `mcpServers` file; it need not exist
 *
 * Reads the servers @path configures. If it cannot be read, the list is
 * empty, [method@AgentChat.McpServers.get_load_error] says why, and the
 * file is left alone.
 *
 * Returns: (transfer full): the servers, not connected yet
 */
AgentChatMcpServers *
agent_chat_mcp_servers_new (const char *path)
{
  AgentChatMcpServers *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_SERVERS, NULL);
  self->path = g_strdup (path);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    agent_mcp_server_list_load_file (self->list, path, &self->load_error);
  on_items_changed (self);
  return self;
}

/**
 * agent_chat_mcp_servers_get_sign_in:
 * @self: a #AgentChatMcpServers
 * @client: one of the servers
 *
 * Returns: (transfer none) (nullable): the sign-in of @client, which
 *   handles its authorization requests
 */
AgentChatMcpSignIn *
agent_chat_mcp_servers_get_sign_in (AgentChatMcpServers *self,
                                    AgentMcpClient      *client)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), NULL);
  return g_hash_table_lookup (self->sign_ins, client);
}

const char *
agent_chat_mcp_servers_get_path (AgentChatMcpServers *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), NULL);
  return self->path;
}

/**
 * agent_chat_mcp_servers_get_list:
 * @self: a #AgentChatMcpServers
 *
 * Returns: (transfer none): the servers, a #GListModel of #AgentMcpClient
 */
AgentMcpServerList *
agent_chat_mcp_servers_get_list (AgentChatMcpServers *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), NULL);
  return self->list;
}

/**
 * agent_chat_mcp_servers_get_load_error:
 * @self: a #AgentChatMcpServers
 *
 * Returns: (nullable): why the file could not be read, or %NULL
 */
const GError *
agent_chat_mcp_servers_get_load_error (AgentChatMcpServers *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), NULL);
  return self->load_error;
}

/* Connecting: each failure is in the client's state and error. */

static void
on_connected (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, NULL);
}

/**
 * agent_chat_mcp_servers_reconnect:
 * @self: a #AgentChatMcpServers
 * @client: one of the servers
 *
 * Connects @client if it is enabled and not connected or connecting.
 */
void
agent_chat_mcp_servers_reconnect (AgentChatMcpServers *self,
                                  AgentMcpClient      *client)
{
  AgentMcpClientState state;

  g_return_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self));
  g_return_if_fail (AGENT_IS_MCP_CLIENT (client));

  state = agent_mcp_client_get_state (client);
  if (!agent_mcp_client_get_enabled (client) || state == AGENT_MCP_CLIENT_STATE_READY ||
      state == AGENT_MCP_CLIENT_STATE_CONNECTING)
    return;
  agent_mcp_client_connect_async (client, self->cancellable, on_connected, NULL);
}

/**
 * agent_chat_mcp_servers_start:
 * @self: a #AgentChatMcpServers
 *
 * Connects every enabled server, side by side, in the background.
 */
void
agent_chat_mcp_servers_start (AgentChatMcpServers *self)
{
  GListModel *model;

  g_return_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self));

  model = G_LIST_MODEL (self->list);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (model, i);

      agent_chat_mcp_servers_reconnect (self, client);
    }
}

/* Changes */

static gboolean
save (AgentChatMcpServers  *self,
      GError              **error)
{
  g_autofree char *dir = NULL;

  /* Writing now would lose what the user wrote in the file. */
  if (self->load_error != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s cannot be changed until it is fixed or removed: %s"), self->path,
                   self->load_error->message);
      return FALSE;
    }

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("The folder %s could not be made: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }
  return agent_mcp_server_list_save_file (self->list, self->path, error);
}

/**
 * agent_chat_mcp_servers_add:
 * @self: a #AgentChatMcpServers
 * @client: a new server
 * @error: return location for a #GError
 *
 * Adds @client, saves the file and connects it if it is enabled.
 *
 * Returns: %TRUE, or %FALSE with @error set if a server has that name or
 *   the file cannot be written (then nothing changed)
 */
gboolean
agent_chat_mcp_servers_add (AgentChatMcpServers  *self,
                            AgentMcpClient       *client,
                            GError              **error)
{
  const char *name;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), FALSE);
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), FALSE);

  name = agent_mcp_client_get_name (client);
  if (!agent_mcp_server_list_add (self->list, client))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("A server called “%s” exists already"), name);
      return FALSE;
    }
  if (!save (self, error))
    {
      agent_mcp_server_list_remove (self->list, name);
      return FALSE;
    }
  agent_chat_mcp_servers_reconnect (self, client);
  return TRUE;
}

/**
 * agent_chat_mcp_servers_remove:
 * @self: a #AgentChatMcpServers
 * @name: a server's name
 * @error: return location for a #GError
 *
 * Closes the server, takes its tools from the sessions and saves the file.
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
agent_chat_mcp_servers_remove (AgentChatMcpServers  *self,
                               const char           *name,
                               GError              **error)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (self->load_error != NULL)
    return save (self, error);
  if (!agent_mcp_server_list_remove (self->list, name))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no server called “%s”"),
                   name);
      return FALSE;
    }
  return save (self, error);
}

/**
 * agent_chat_mcp_servers_set_enabled:
 * @self: a #AgentChatMcpServers
 * @client: one of the servers
 * @enabled: whether to use it
 * @error: return location for a #GError
 *
 * Enables (and connects) or disables (and closes) @client, and saves the
 * file.
 *
 * Returns: %TRUE, or %FALSE with @error set if the file cannot be written
 */
gboolean
agent_chat_mcp_servers_set_enabled (AgentChatMcpServers  *self,
                                    AgentMcpClient       *client,
                                    gboolean              enabled,
                                    GError              **error)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self), FALSE);
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), FALSE);

  if (agent_mcp_client_get_enabled (client) == !!enabled)
    return TRUE;
  agent_mcp_client_set_enabled (client, enabled);
  agent_chat_mcp_servers_reconnect (self, client);
  return save (self, error);
}

/* Shutting down */

static void
on_closed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  agent_mcp_server_list_close_finish (AGENT_MCP_SERVER_LIST (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static gboolean
on_shutdown_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * agent_chat_mcp_servers_shutdown:
 * @self: a #AgentChatMcpServers
 *
 * Closes every server and waits (a few seconds at most) for them to be
 * gone: for when the app exits.
 */
void
agent_chat_mcp_servers_shutdown (AgentChatMcpServers *self)
{
  /* Static: a close that outlives the wait writes here, not to a dead frame */
  static gboolean done;
  gboolean timed_out = FALSE;
  guint timeout_id;

  g_return_if_fail (AGENT_CHAT_IS_MCP_SERVERS (self));

  g_cancellable_cancel (self->cancellable);
  done = FALSE;
  agent_mcp_server_list_close_async (self->list, NULL, on_closed, &done);
  timeout_id = g_timeout_add_seconds (SHUTDOWN_WAIT_SECONDS, on_shutdown_timeout, &timed_out);
  while (!done && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
}

/* What the preferences show */

/**
 * agent_chat_mcp_describe_transport:
 * @client: a server
 *
 * Returns: (transfer full): its command line, or its URL without what may
 *   be a credential (user, query)
 */
char *
agent_chat_mcp_describe_transport (AgentMcpClient *client)
{
  const char *url = agent_mcp_client_get_url (client);
  const char * const *args = agent_mcp_client_get_args (client);
  GString *text;

  if (url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      if (uri == NULL)
        return g_strdup (url);
      return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY |
                                           G_URI_HIDE_FRAGMENT);
    }

  text = g_string_new (agent_mcp_client_get_command (client));
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;

      if (args[i][0] != '\0' && strpbrk (args[i], " \t\n'\"\\$`") == NULL)
        quoted = g_strdup (args[i]);
      else
        quoted = g_shell_quote (args[i]);
      g_string_append_printf (text, " %s", quoted);
    }
  return g_string_free (text, FALSE);
}

/**
 * agent_chat_mcp_describe_state:
 * @client: a server
 *
 * Returns: (transfer full): where it stands, in a few words
 */
char *
agent_chat_mcp_describe_state (AgentMcpClient *client)
{
  const GError *error = agent_mcp_client_get_error (client);
  guint n;

  if (!agent_mcp_client_get_enabled (client))
    return g_strdup (_("Disabled"));

  switch (agent_mcp_client_get_state (client))
    {
    case AGENT_MCP_CLIENT_STATE_CONNECTING:
      return g_strdup (_("Connecting…"));
    case AGENT_MCP_CLIENT_STATE_READY:
      n = g_list_model_get_n_items (agent_mcp_client_get_tools (client));
      return g_strdup_printf (g_dngettext (NULL, "Connected, %u tool",
                                           "Connected, %u tools", n), n);
    case AGENT_MCP_CLIENT_STATE_FAILED:
      return g_strdup_printf (_("Failed: %s"), error ? error->message : _("unknown error"));
    case AGENT_MCP_CLIENT_STATE_DISCONNECTED:
    default:
      return g_strdup (_("Not connected"));
    }
}
