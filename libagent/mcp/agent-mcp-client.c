/* agent-mcp-client.c — the client of one MCP server: its configuration
 *
 * Connecting, listing tools and calling them are in agent-mcp-connection.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-util-private.h"

/**
 * AgentMcpClient:
 *
 * A client of one [Model Context Protocol](https://modelcontextprotocol.io)
 * server, whose tools become [class@Agent.McpTool]s a session can offer
 * to the model.
 *
 * The server is either a program started as a child process that speaks
 * MCP on its standard input and output ([property@Agent.McpClient:command]),
 * or a URL that speaks MCP's Streamable HTTP transport
 * ([property@Agent.McpClient:url]):
 *
 * ```c
 * const char *args[] = { "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes", NULL };
 * g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("files", "npx", args);
 *
 * agent_mcp_client_connect_async (client, NULL, on_connected, session);
 * …
 * // once connected: [property@Agent.McpClient:tools] lists what the server offers
 * ```
 *
 * [method@Agent.McpClient.connect_async] starts the server, shakes hands
 * (agreeing on a protocol version) and lists its tools, following the
 * server's `notifications/tools/list_changed`. A call of a tool is a
 * `tools/call` request; its progress notifications become the tool's
 * progress, and cancelling the call (the turn is cancelled, or the tool
 * timed out) tells the server with `notifications/cancelled`.
 *
 * A server that cannot be started, does not answer, speaks something else
 * or dies is reported through [property@Agent.McpClient:state] and
 * [property@Agent.McpClient:error], and its pending calls end with an
 * error; the next call of one of its tools starts it again.
 *
 * MCP tools require the user's approval of each call
 * ([property@Agent.Tool:requires-approval]) unless the server is
 * [property@Agent.McpClient:trusted].
 *
 * A child process inherits only a few variables of the application's
 * environment (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`, `LANG`,
 * `LC_ALL`, `LC_CTYPE`, `TMPDIR`), so that the keys of the application do
 * not reach third-party programs; [property@Agent.McpClient:env] adds the
 * ones a server needs.
 *
 * A client is used from the thread whose thread-default main context was
 * current when it was created.
 *
 * Connecting, calling and closing hold the client until they end. When the
 * last reference goes, the server is asked to leave (a process has its
 * input closed, then SIGTERM, then SIGKILL) and goes on its own. Disposing
 * the client while it works (`g_object_run_dispose()`, what a binding's
 * explicit dispose does) ends its connection the same way: a connection
 * under way ends with %G_IO_ERROR_CANCELLED, pending calls fail as for a
 * disconnected server, and a close still answers once the server is gone.
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_STATE,
  PROP_ERROR,
  PROP_SERVER_NAME,
  PROP_SERVER_VERSION,
  PROP_PROTOCOL_VERSION,
  PROP_INSTRUCTIONS,
  PROP_NAME,
  PROP_COMMAND,
  PROP_ARGS,
  PROP_ENV,
  PROP_CWD,
  PROP_URL,
  PROP_HEADERS,
  PROP_TOOL_PREFIX,
  PROP_ENABLED,
  PROP_TRUSTED,
  PROP_TIMEOUT,
  PROP_TOOLS,
  N_PROPS
};

enum {
  TOOL_CHANGED,
  RESOURCE_UPDATED,
  RESOURCES_CHANGED,
  PROMPTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_STATIC_ASSERT ((int) PROP_STATE == (int) AGENT_MCP_CLIENT_PROP_STATE);
G_STATIC_ASSERT ((int) PROP_INSTRUCTIONS == (int) AGENT_MCP_CLIENT_PROP_INSTRUCTIONS);

G_DEFINE_FINAL_TYPE (AgentMcpClient, agent_mcp_client, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

void
_agent_mcp_client_notify (AgentMcpClient       *self,
                          AgentMcpClientNotify  what)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[what]);
}

void
_agent_mcp_client_set_state (AgentMcpClient      *self,
                             AgentMcpClientState  state,
                             const GError        *error)
{
  gboolean error_changed = (self->error != NULL) != (error != NULL) ||
                           (error != NULL && g_strcmp0 (self->error->message, error->message) != 0);

  if (error_changed)
    {
      g_clear_error (&self->error);
      if (error != NULL)
        self->error = g_error_copy (error);
    }

  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
  if (error_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
agent_mcp_client_dispose (GObject *object)
{
  AgentMcpClient *self = (AgentMcpClient *)object;
  g_autoptr(GPtrArray) closing = g_steal_pointer (&self->closing);

  /* The connection ends: its server is asked to leave and goes on its own,
   * nobody waits for it. Only g_object_run_dispose() (a binding's) finds
   * callers waiting, since each holds the client: a connection's are told
   * it was cancelled, calls fail as the server is disconnected, and a
   * close_async() still answers once its servers are gone. */
  _agent_mcp_client_stop (self);
  self->closing = g_steal_pointer (&closing);

  G_OBJECT_CLASS (agent_mcp_client_parent_class)->dispose (object);
}

static void
agent_mcp_client_finalize (GObject *object)
{
  AgentMcpClient *self = (AgentMcpClient *)object;

  g_clear_object (&self->tools);
  g_clear_pointer (&self->closing, g_ptr_array_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->close_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->listing, g_ptr_array_unref);
  g_clear_pointer (&self->listed_names, g_hash_table_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (self->name);
  g_free (self->command);
  g_strfreev (self->args);
  g_strfreev (self->env);
  g_free (self->cwd);
  g_free (self->url);
  g_strfreev (self->headers);
  g_free (self->tool_prefix);
  g_free (self->server_name);
  g_free (self->server_version);
  g_free (self->protocol_version);
  g_free (self->instructions);
  g_clear_pointer (&self->capabilities, json_node_unref);
  g_free (self->cursor);

  G_OBJECT_CLASS (agent_mcp_client_parent_class)->finalize (object);
}

static void
agent_mcp_client_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_NAME:             g_value_set_string (value, self->name); break;
    case PROP_COMMAND:          g_value_set_string (value, self->command); break;
    case PROP_ARGS:             g_value_set_boxed (value, self->args); break;
    case PROP_ENV:              g_value_set_boxed (value, self->env); break;
    case PROP_CWD:              g_value_set_string (value, self->cwd); break;
    case PROP_URL:              g_value_set_string (value, self->url); break;
    case PROP_HEADERS:          g_value_set_boxed (value, self->headers); break;
    case PROP_TOOL_PREFIX:      g_value_set_string (value, self->tool_prefix); break;
    case PROP_ENABLED:          g_value_set_boolean (value, self->enabled); break;
    case PROP_TRUSTED:          g_value_set_boolean (value, self->trusted); break;
    case PROP_TIMEOUT:          g_value_set_double (value, self->timeout); break;
    case PROP_STATE:            g_value_set_enum (value, self->state); break;
    case PROP_ERROR:            g_value_set_boxed (value, self->error); break;
    case PROP_SERVER_NAME:      g_value_set_string (value, self->server_name); break;
    case PROP_SERVER_VERSION:   g_value_set_string (value, self->server_version); break;
    case PROP_PROTOCOL_VERSION: g_value_set_string (value, self->protocol_version); break;
    case PROP_INSTRUCTIONS:     g_value_set_string (value, self->instructions); break;
    case PROP_TOOLS:            g_value_set_object (value, self->tools); break;
    default:
      if (!_agent_mcp_client_get_limit_property (self, prop_id, value) &&
          !_agent_mcp_client_get_approval_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_client_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_free (self->name);
      self->name = g_value_dup_string (value);
      break;

    case PROP_COMMAND:     agent_mcp_client_set_command (self, g_value_get_string (value)); break;
    case PROP_ARGS:        agent_mcp_client_set_args (self, g_value_get_boxed (value)); break;
    case PROP_ENV:         agent_mcp_client_set_env (self, g_value_get_boxed (value)); break;
    case PROP_CWD:         agent_mcp_client_set_cwd (self, g_value_get_string (value)); break;
    case PROP_URL:         agent_mcp_client_set_url (self, g_value_get_string (value)); break;
    case PROP_HEADERS:     agent_mcp_client_set_headers (self, g_value_get_boxed (value)); break;
    case PROP_TOOL_PREFIX: agent_mcp_client_set_tool_prefix (self, g_value_get_string (value)); break;
    case PROP_ENABLED:     agent_mcp_client_set_enabled (self, g_value_get_boolean (value)); break;
    case PROP_TRUSTED:     agent_mcp_client_set_trusted (self, g_value_get_boolean (value)); break;
    case PROP_TIMEOUT:     agent_mcp_client_set_timeout (self, g_value_get_double (value)); break;
    default:
      if (!_agent_mcp_client_set_limit_property (self, prop_id, value) &&
          !_agent_mcp_client_set_approval_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_client_constructed (GObject *object)
{
  AgentMcpClient *self = (AgentMcpClient *)object;

  G_OBJECT_CLASS (agent_mcp_client_parent_class)->constructed (object);

  if (self->name == NULL || self->name[0] == '\0')
    g_critical ("An AgentMcpClient needs a name");
}

#define CONFIG_FLAGS (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)
#define STATUS_FLAGS (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

static void
agent_mcp_client_class_init (AgentMcpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = agent_mcp_client_constructed;
  object_class->dispose = agent_mcp_client_dispose;
  object_class->finalize = agent_mcp_client_finalize;
  object_class->get_property = agent_mcp_client_get_property;
  object_class->set_property = agent_mcp_client_set_property;

  /**
   * AgentMcpClient:name:
   *
   * The server's name in the configuration (the key in `mcpServers`).
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpClient:command:
   *
   * The program to start, for a server on standard input and output (found
   * in `PATH`). Changes take effect at the next connection.
   */
  properties[PROP_COMMAND] = g_param_spec_string ("command", NULL, NULL, NULL, CONFIG_FLAGS);

  /**
   * AgentMcpClient:args:
   *
   * The program's arguments.
   */
  properties[PROP_ARGS] = g_param_spec_boxed ("args", NULL, NULL, G_TYPE_STRV, CONFIG_FLAGS);

  /**
   * AgentMcpClient:env:
   *
   * Variables, as `NAME=VALUE`, added to the few the program inherits.
   * Their values are kept out of error messages.
   */
  properties[PROP_ENV] = g_param_spec_boxed ("env", NULL, NULL, G_TYPE_STRV, CONFIG_FLAGS);

  /**
   * AgentMcpClient:cwd:
   *
   * The directory the program runs in, or %NULL for the application's.
   */
  properties[PROP_CWD] = g_param_spec_string ("cwd", NULL, NULL, NULL, CONFIG_FLAGS);

  /**
   * AgentMcpClient:url:
   *
   * The URL of a server that speaks Streamable HTTP, when there is no
   * [property@Agent.McpClient:command].
   */
  properties[PROP_URL] = g_param_spec_string ("url", NULL, NULL, NULL, CONFIG_FLAGS);

  /**
   * AgentMcpClient:headers:
   *
   * HTTP headers, as `Name: value`, sent with every request to
   * [property@Agent.McpClient:url] (often `Authorization: Bearer …`).
   * Their values are kept out of error messages and logs.
   */
  properties[PROP_HEADERS] = g_param_spec_boxed ("headers", NULL, NULL, G_TYPE_STRV, CONFIG_FLAGS);

  /**
   * AgentMcpClient:tool-prefix:
   *
   * A prefix for the names of the server's tools, when two servers offer
   * tools of the same name. Changes take effect at the next listing.
   */
  properties[PROP_TOOL_PREFIX] = g_param_spec_string ("tool-prefix", NULL, NULL, NULL, CONFIG_FLAGS);

  /**
   * AgentMcpClient:enabled:
   *
   * Whether the server is used. Disabling it closes the connection and
   * empties [property@Agent.McpClient:tools].
   */
  properties[PROP_ENABLED] = g_param_spec_boolean ("enabled", NULL, NULL, TRUE, CONFIG_FLAGS);

  /**
   * AgentMcpClient:trusted:
   *
   * Whether the user trusts the server: its tools then run without asking
   * for approval of each call, except those it says are destructive
   * (unless [property@Agent.McpClient:allow-destructive]).
   */
  properties[PROP_TRUSTED] = g_param_spec_boolean ("trusted", NULL, NULL, FALSE, CONFIG_FLAGS);

  /**
   * AgentMcpClient:timeout:
   *
   * The most seconds the server may take to start and answer the
   * handshake, a listing of tools or a ping, or 0 for no limit. Tool calls
   * are limited by [property@Agent.McpClient:call-timeout] instead.
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, NULL, 0, AGENT_MAX_TIMEOUT_SECONDS, 60, CONFIG_FLAGS);

  /**
   * AgentMcpClient:state:
   *
   * Where the connection stands.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, AGENT_TYPE_MCP_CLIENT_STATE,
                       AGENT_MCP_CLIENT_STATE_DISCONNECTED, STATUS_FLAGS);

  /**
   * AgentMcpClient:error:
   *
   * Why the client is [enum@Agent.McpClientState.FAILED], or %NULL.
   */
  properties[PROP_ERROR] = g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, STATUS_FLAGS);

  /**
   * AgentMcpClient:server-name:
   *
   * The name the server gave itself in the handshake.
   */
  properties[PROP_SERVER_NAME] = g_param_spec_string ("server-name", NULL, NULL, NULL, STATUS_FLAGS);

  /**
   * AgentMcpClient:server-version:
   *
   * The version the server gave in the handshake.
   */
  properties[PROP_SERVER_VERSION] =
    g_param_spec_string ("server-version", NULL, NULL, NULL, STATUS_FLAGS);

  /**
   * AgentMcpClient:protocol-version:
   *
   * The MCP version agreed on in the handshake, such as `2025-06-18`.
   */
  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL, NULL, STATUS_FLAGS);

  /**
   * AgentMcpClient:instructions:
   *
   * What the server says about using it, for the model (it may be added to
   * the system prompt), or %NULL.
   */
  properties[PROP_INSTRUCTIONS] =
    g_param_spec_string ("instructions", NULL, NULL, NULL, STATUS_FLAGS);

  /**
   * AgentMcpClient:tools:
   *
   * The server's tools, a [iface@Gio.ListModel] of [class@Agent.McpTool],
   * kept up to date while connected. Tools the server requires to be run as
   * tasks are left out.
   */
  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL, G_TYPE_LIST_MODEL, STATUS_FLAGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  _agent_mcp_client_class_add_limits (object_class, N_PROPS);
  _agent_mcp_client_class_add_approval (object_class, N_PROPS + AGENT_MCP_N_LIMIT_PROPS);

  /**
   * AgentMcpClient::tool-changed:
   * @self: the client
   * @tool: the tool as the server defines it now, in
   *   [property@Agent.McpClient:tools]
   * @previous: the tool as it was, no longer listed
   * @changes: what changed
   *
   * The server listed a tool again with another definition (after
   * `notifications/tools/list_changed`): its description, schemas, title
   * or hints changed. A changed description is how a server turns a tool
   * the user trusted into a hostile one: an application that let the user
   * allow a tool for a conversation takes that back, and says so.
   *
   * Since: 0.1
   */
  signals[TOOL_CHANGED] =
    g_signal_new ("tool-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, AGENT_TYPE_MCP_TOOL, AGENT_TYPE_MCP_TOOL,
                  AGENT_TYPE_MCP_TOOL_CHANGES);

  /**
   * AgentMcpClient::resource-updated:
   * @self: the client
   * @uri: the URI of the resource
   *
   * A resource subscribed to with
   * [method@Agent.McpClient.subscribe_resource_async] changed
   * (`notifications/resources/updated`): read it again to see how.
   *
   * Since: 0.1
   */
  signals[RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AgentMcpClient::resources-changed:
   * @self: the client
   *
   * The server's list of resources changed
   * (`notifications/resources/list_changed`): list them again.
   *
   * Since: 0.1
   */
  signals[RESOURCES_CHANGED] =
    g_signal_new ("resources-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * AgentMcpClient::prompts-changed:
   * @self: the client
   *
   * The server's list of prompts changed
   * (`notifications/prompts/list_changed`): list them again.
   *
   * Since: 0.1
   */
  signals[PROMPTS_CHANGED] =
    g_signal_new ("prompts-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

void
_agent_mcp_client_emit_resource_updated (AgentMcpClient *self,
                                         const char     *uri)
{
  g_signal_emit (self, signals[RESOURCE_UPDATED], 0, uri);
}

void
_agent_mcp_client_emit_resources_changed (AgentMcpClient *self)
{
  g_signal_emit (self, signals[RESOURCES_CHANGED], 0);
}

void
_agent_mcp_client_emit_prompts_changed (AgentMcpClient *self)
{
  g_signal_emit (self, signals[PROMPTS_CHANGED], 0);
}

void
_agent_mcp_client_emit_tool_changed (AgentMcpClient      *self,
                                     AgentMcpTool        *tool,
                                     AgentMcpTool        *previous,
                                     AgentMcpToolChanges  changes)
{
  _agent_mcp_log (self->name, "tool “%s” redefined (changes 0x%x)",
                  agent_mcp_tool_get_remote_name (tool), changes);
  g_signal_emit (self, signals[TOOL_CHANGED], 0, tool, previous, changes);
}

static void
agent_mcp_client_init (AgentMcpClient *self)
{
  self->enabled = TRUE;
  self->timeout = 60;
  _agent_mcp_client_init_limits (self);
  self->tools = g_list_store_new (AGENT_TYPE_MCP_TOOL);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->closing = g_ptr_array_new_with_free_func (g_object_unref);
  self->close_waiters = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * agent_mcp_client_new_stdio:
 * @name: the server's name
 * @command: the program to start
 * @args: (nullable) (array zero-terminated=1): its arguments
 *
 * Creates a client of a server that runs as a child process and speaks
 * MCP on its standard input and output.
 *
 * Returns: (transfer full): a new [class@Agent.McpClient]
 *
 * Since: 0.1
 */
AgentMcpClient *
agent_mcp_client_new_stdio (const char         *name,
                            const char         *command,
                            const char * const *args)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (command != NULL, NULL);

  return g_object_new (AGENT_TYPE_MCP_CLIENT,
                       "name", name,
                       "command", command,
                       "args", args,
                       NULL);
}

/**
 * agent_mcp_client_new_http:
 * @name: the server's name
 * @url: the server's MCP endpoint, such as `https://example.com/mcp`
 *
 * Creates a client of a server that speaks MCP's Streamable HTTP
 * transport.
 *
 * Returns: (transfer full): a new [class@Agent.McpClient]
 *
 * Since: 0.1
 */
AgentMcpClient *
agent_mcp_client_new_http (const char *name,
                           const char *url)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  return g_object_new (AGENT_TYPE_MCP_CLIENT,
                       "name", name,
                       "url", url,
                       NULL);
}

/* Configuration (the program or URL is in agent-mcp-config.c) */

/**
 * agent_mcp_client_get_tool_prefix:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the prefix put before the names of the server's tools.
 * [property@Agent.McpClient:tool-prefix].
 *
 * Returns: (nullable) (transfer none): the prefix, owned by the client, or
 *   %NULL for none
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_tool_prefix (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->tool_prefix;
}

/**
 * agent_mcp_client_set_tool_prefix:
 * @self: a [class@Agent.McpClient]
 * @tool_prefix: (nullable): a prefix, such as `files_`, or %NULL for none
 *
 * Sets a prefix for the names of the server's tools, for two servers that
 * offer tools of the same name. It takes effect at the next listing of the
 * tools (the next connection, or the server's next change of its tools).
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_tool_prefix (AgentMcpClient *self,
                                  const char     *tool_prefix)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (g_strcmp0 (self->tool_prefix, tool_prefix) == 0)
    return;

  g_free (self->tool_prefix);
  self->tool_prefix = g_strdup (tool_prefix);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_PREFIX]);
}

/**
 * agent_mcp_client_get_enabled:
 * @self: a [class@Agent.McpClient]
 *
 * Gets whether the server is used. [property@Agent.McpClient:enabled].
 *
 * Returns: %TRUE if the server is used
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_enabled (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->enabled;
}

/**
 * agent_mcp_client_set_enabled:
 * @self: a [class@Agent.McpClient]
 * @enabled: whether to use the server
 *
 * Enables or disables the server. Disabling it closes the connection, ends
 * its pending calls and empties [property@Agent.McpClient:tools]; enabling
 * it does not connect.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_enabled (AgentMcpClient *self,
                              gboolean        enabled)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  if (!enabled)
    {
      _agent_mcp_client_stop (self);
      _agent_mcp_client_clear_tools (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}

/**
 * agent_mcp_client_get_trusted:
 * @self: a [class@Agent.McpClient]
 *
 * Gets whether the user trusts the server. [property@Agent.McpClient:trusted].
 *
 * Returns: %TRUE if the server's tools run without asking for approval
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_trusted (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->trusted;
}

/**
 * agent_mcp_client_set_trusted:
 * @self: a [class@Agent.McpClient]
 * @trusted: whether the user trusts the server
 *
 * Sets whether the server's tools run without asking for approval of each
 * call ([property@Agent.Tool:requires-approval]), except those it says are
 * destructive, unless [property@Agent.McpClient:allow-destructive] is set
 * too. The tools already listed change with it.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_trusted (AgentMcpClient *self,
                              gboolean        trusted)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  trusted = !!trusted;
  if (self->trusted == trusted)
    return;

  self->trusted = trusted;
  _agent_mcp_client_update_approvals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRUSTED]);
}

/**
 * agent_mcp_client_get_capabilities:
 * @self: a [class@Agent.McpClient]
 *
 * Gets what the server said it offers in the handshake (its
 * `capabilities`: `tools`, `resources` with `subscribe` and
 * `listChanged`, `prompts`, `logging`…).
 *
 * Returns: (transfer none) (nullable): a JSON object, or %NULL before the
 *   first handshake
 *
 * Since: 0.1
 */
JsonNode *
agent_mcp_client_get_capabilities (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->capabilities;
}

/**
 * agent_mcp_client_get_timeout:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:timeout]: the most seconds the server may
 * take to start and answer what is not a tool call (the handshake, a listing
 * of tools, a ping).
 *
 * Returns: the limit in seconds, or 0 for none
 *
 * Since: 0.1
 */
double
agent_mcp_client_get_timeout (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->timeout;
}

/**
 * agent_mcp_client_set_timeout:
 * @self: a [class@Agent.McpClient]
 * @timeout: seconds, or 0 for no limit
 *
 * Sets the most seconds the server may take to start and answer the
 * handshake, a listing of tools or a ping. Tool calls are limited by
 * [property@Agent.McpClient:call-timeout] instead.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_timeout (AgentMcpClient *self,
                              double          timeout)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (timeout));

  if (self->timeout == timeout)
    return;

  self->timeout = timeout;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

/* Status */

/**
 * agent_mcp_client_get_state:
 * @self: a [class@Agent.McpClient]
 *
 * Gets where the connection stands. [property@Agent.McpClient:state].
 *
 * Returns: the state of the connection
 *
 * Since: 0.1
 */
AgentMcpClientState
agent_mcp_client_get_state (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  return self->state;
}

/**
 * agent_mcp_client_get_error:
 * @self: a [class@Agent.McpClient]
 *
 * Gets why the server could not be used: it could not be started or
 * reached, did not answer, spoke something else, or went away.
 * [property@Agent.McpClient:error].
 *
 * Returns: (nullable) (transfer none): the error, owned by the client and
 *   valid until the state changes, or %NULL unless the state is
 *   [enum@Agent.McpClientState.FAILED]
 *
 * Since: 0.1
 */
const GError *
agent_mcp_client_get_error (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->error;
}

/**
 * agent_mcp_client_get_server_name:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the name the server gave itself in the handshake (its `serverInfo`),
 * such as `mcp-servers/everything`. [property@Agent.McpClient:server-name].
 *
 * Returns: (nullable) (transfer none): the name, owned by the client, or
 *   %NULL before the first handshake or when the server gave none
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_server_name (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->server_name;
}

/**
 * agent_mcp_client_get_server_version:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the version the server gave in the handshake.
 * [property@Agent.McpClient:server-version].
 *
 * Returns: (nullable) (transfer none): the version, owned by the client, or
 *   %NULL before the first handshake or when the server gave none
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_server_version (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->server_version;
}

/**
 * agent_mcp_client_get_protocol_version:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the version of MCP the client and the server agreed on, such as
 * `2025-06-18`. [property@Agent.McpClient:protocol-version].
 *
 * Returns: (nullable) (transfer none): the version, owned by the client, or
 *   %NULL before the first handshake
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_protocol_version (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->protocol_version;
}

/**
 * agent_mcp_client_get_instructions:
 * @self: a [class@Agent.McpClient]
 *
 * Gets what the server says about using it, for the model; an application
 * may add it to the system prompt. [property@Agent.McpClient:instructions].
 *
 * Returns: (nullable) (transfer none): the instructions, owned by the client,
 *   or %NULL when the server gave none
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_instructions (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->instructions;
}

/**
 * agent_mcp_client_get_tools:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the server's tools, kept up to date while connected: filled when the
 * client connects, changed when the server says its tools changed, emptied
 * when the server is disabled. The tools stay listed when the connection
 * ends: calling one connects again. [property@Agent.McpClient:tools].
 *
 * Returns: (transfer none): a [iface@Gio.ListModel] of [class@Agent.McpTool],
 *   owned by the client, the same for the client's whole life
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_get_tools (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return G_LIST_MODEL (self->tools);
}
