/* agent-mcp-client.c — the client of one MCP server: its surface
 *
 * Every property of AgentMcpClient (one properties[] array, notified by
 * pspec), their getters and setters, and its signals. The behaviour is
 * around agent-mcp-private.h: connecting, listing tools and calling them
 * in agent-mcp-connection.c and agent-mcp-call.c, the configuration as
 * JSON in agent-mcp-config.c, the checks of max-tools and max-result-size
 * in agent-mcp-limits.c, which calls ask for approval in
 * agent-mcp-approval.c, resources and prompts in agent-mcp-resources.c and
 * agent-mcp-prompts.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "mcp/agent-mcp-auth-private.h"
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
  PROP_AUTHORIZATION,
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
  PROP_CALL_TIMEOUT,
  PROP_MAX_TOOLS,
  PROP_MAX_RESULT_SIZE,
  PROP_ALLOW_READ_ONLY,
  PROP_ALLOW_DESTRUCTIVE,
  PROP_HANDLES_ELICITATION,
  PROP_TOOLS,
  N_PROPS
};

enum {
  TOOL_CHANGED,
  RESOURCE_UPDATED,
  RESOURCES_CHANGED,
  PROMPTS_CHANGED,
  AUTHORIZE,
  ELICITATION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_STATIC_ASSERT ((int) PROP_STATE == (int) AGENT_MCP_CLIENT_PROP_STATE);
G_STATIC_ASSERT ((int) PROP_INSTRUCTIONS == (int) AGENT_MCP_CLIENT_PROP_INSTRUCTIONS);
G_STATIC_ASSERT ((int) PROP_AUTHORIZATION == (int) AGENT_MCP_CLIENT_PROP_AUTHORIZATION);

G_DEFINE_FINAL_TYPE (AgentMcpClient, agent_mcp_client, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
set_strv (char               ***field,
          const char * const   *value)
{
  g_strfreev (*field);
  *field = (value != NULL && value[0] != NULL) ? g_strdupv ((char **) value) : NULL;
}

static gboolean
replace_string (char       **field,
                const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gboolean
replace_strv (char               ***field,
              const char * const   *value)
{
  const char * const empty[] = { NULL };

  if (g_strv_equal ((const char * const *) (*field ? *field : (char **) empty),
                    value ? value : empty))
    return FALSE;

  set_strv (field, value);
  return TRUE;
}

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
  _agent_mcp_client_clear_auth (self);
  g_clear_pointer (&self->closing, g_ptr_array_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->close_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->listing, g_ptr_array_unref);
  g_clear_pointer (&self->relisting, g_ptr_array_unref);
  g_clear_pointer (&self->listed_names, g_hash_table_unref);
  g_clear_pointer (&self->listen_uris, g_hash_table_unref);
  g_clear_object (&self->listen_cancellable);
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
    case PROP_NAME:               g_value_set_string (value, self->name); break;
    case PROP_COMMAND:            g_value_set_string (value, self->command); break;
    case PROP_ARGS:               g_value_set_boxed (value, self->args); break;
    case PROP_ENV:                g_value_set_boxed (value, self->env); break;
    case PROP_CWD:                g_value_set_string (value, self->cwd); break;
    case PROP_URL:                g_value_set_string (value, self->url); break;
    case PROP_HEADERS:            g_value_set_boxed (value, self->headers); break;
    case PROP_TOOL_PREFIX:        g_value_set_string (value, self->tool_prefix); break;
    case PROP_ENABLED:            g_value_set_boolean (value, self->enabled); break;
    case PROP_TRUSTED:            g_value_set_boolean (value, self->trusted); break;
    case PROP_TIMEOUT:            g_value_set_double (value, self->timeout); break;
    case PROP_CALL_TIMEOUT:       g_value_set_double (value, self->call_timeout); break;
    case PROP_MAX_TOOLS:          g_value_set_uint (value, self->max_tools); break;
    case PROP_MAX_RESULT_SIZE:    g_value_set_uint (value, self->max_result_size); break;
    case PROP_ALLOW_READ_ONLY:    g_value_set_boolean (value, self->allow_read_only); break;
    case PROP_ALLOW_DESTRUCTIVE:  g_value_set_boolean (value, self->allow_destructive); break;
    case PROP_HANDLES_ELICITATION: g_value_set_boolean (value, self->handles_elicitation); break;
    case PROP_STATE:              g_value_set_enum (value, self->state); break;
    case PROP_ERROR:              g_value_set_boxed (value, self->error); break;
    case PROP_SERVER_NAME:        g_value_set_string (value, self->server_name); break;
    case PROP_SERVER_VERSION:     g_value_set_string (value, self->server_version); break;
    case PROP_PROTOCOL_VERSION:   g_value_set_string (value, self->protocol_version); break;
    case PROP_INSTRUCTIONS:       g_value_set_string (value, self->instructions); break;
    case PROP_AUTHORIZATION:      g_value_set_enum (value, self->authorization); break;
    case PROP_TOOLS:              g_value_set_object (value, self->tools); break;
    default:
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
    case PROP_CALL_TIMEOUT:
      agent_mcp_client_set_call_timeout (self, g_value_get_double (value));
      break;
    case PROP_MAX_TOOLS:   agent_mcp_client_set_max_tools (self, g_value_get_uint (value)); break;
    case PROP_MAX_RESULT_SIZE:
      agent_mcp_client_set_max_result_size (self, g_value_get_uint (value));
      break;
    case PROP_ALLOW_READ_ONLY:
      agent_mcp_client_set_allow_read_only (self, g_value_get_boolean (value));
      break;
    case PROP_ALLOW_DESTRUCTIVE:
      agent_mcp_client_set_allow_destructive (self, g_value_get_boolean (value));
      break;
    case PROP_HANDLES_ELICITATION:
      agent_mcp_client_set_handles_elicitation (self, g_value_get_boolean (value));
      break;
    default:
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
   * AgentMcpClient:call-timeout:
   *
   * The most seconds a tool call may wait for the server's answer, or 0 for
   * no limit; each progress report the server sends starts it again. A
   * call that reaches it fails with %AGENT_ERROR_TIMEOUT, and the server is
   * told it was cancelled. The session's
   * [property@Agent.Session:tool-timeout] and a tool's
   * [property@Agent.Tool:timeout] still apply.
   *
   * Since: 0.1
   */
  properties[PROP_CALL_TIMEOUT] =
    g_param_spec_double ("call-timeout", NULL, NULL, 0, AGENT_MAX_TIMEOUT_SECONDS,
                         AGENT_MCP_DEFAULT_CALL_TIMEOUT, CONFIG_FLAGS);

  /**
   * AgentMcpClient:max-tools:
   *
   * The most tools the server may offer, or 0 for no limit. A server that
   * lists more fails to connect, with %AGENT_ERROR_LIMIT: no model chooses
   * well among so many, and each is sent with every request.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_TOOLS] =
    g_param_spec_uint ("max-tools", NULL, NULL, 0, G_MAXUINT, AGENT_MCP_DEFAULT_MAX_TOOLS,
                       CONFIG_FLAGS);

  /**
   * AgentMcpClient:max-result-size:
   *
   * The most bytes of text a tool result may hold, or 0 for no limit. A
   * larger result is not given to the model: the call fails with
   * %AGENT_ERROR_LIMIT, and the model reads why. Whatever this says, no
   * message of a server may be larger than 16 MiB, nor a result have more
   * than 10,000 content blocks.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_RESULT_SIZE] =
    g_param_spec_uint ("max-result-size", NULL, NULL, 0, G_MAXUINT,
                       AGENT_MCP_DEFAULT_MAX_RESULT_SIZE, CONFIG_FLAGS);

  /**
   * AgentMcpClient:allow-read-only:
   *
   * Whether the tools the server says are read-only
   * ([property@Agent.McpTool:read-only-hint]) run without asking for
   * approval, even when the server is not
   * [property@Agent.McpClient:trusted]. The configuration's
   * `allowReadOnly`.
   *
   * Since: 0.1
   */
  properties[PROP_ALLOW_READ_ONLY] =
    g_param_spec_boolean ("allow-read-only", NULL, NULL, FALSE, CONFIG_FLAGS);

  /**
   * AgentMcpClient:allow-destructive:
   *
   * Whether the tools the server says are destructive
   * (`destructiveHint`) run without asking when the server is
   * [property@Agent.McpClient:trusted]. Without it they ask for approval
   * of each call even then. The configuration's `allowDestructive`.
   *
   * Since: 0.1
   */
  properties[PROP_ALLOW_DESTRUCTIVE] =
    g_param_spec_boolean ("allow-destructive", NULL, NULL, FALSE, CONFIG_FLAGS);

  /**
   * AgentMcpClient:handles-elicitation:
   *
   * Whether the application answers the server's requests for the user's
   * input ([signal@Agent.McpClient::elicitation]): only then does the
   * client declare the `elicitation` capability (forms and URLs) when it
   * connects, and only then do servers ask. It takes effect from the next
   * connection on. Not part of the configuration: it is what the
   * application can do, not a setting of the server.
   *
   * Since: 0.1
   */
  properties[PROP_HANDLES_ELICITATION] =
    g_param_spec_boolean ("handles-elicitation", NULL, NULL, FALSE, CONFIG_FLAGS);

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
   * The MCP version agreed on when connecting, such as `2026-07-28` (a
   * server that answers `server/discover`) or `2025-11-25` (an older
   * server, after the `initialize` handshake).
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
   * AgentMcpClient:authorization:
   *
   * Where the OAuth authorization of a Streamable HTTP server stands:
   * whether the client waits for the user
   * ([signal@Agent.McpClient::authorize] was emitted) or holds tokens,
   * from an authorization or from the keyring. An application shows it
   * ("Sign In Required", "Signed In") and offers to sign in or out.
   *
   * Since: 0.1
   */
  properties[PROP_AUTHORIZATION] =
    g_param_spec_enum ("authorization", NULL, NULL, AGENT_TYPE_MCP_AUTHORIZATION,
                       AGENT_MCP_AUTHORIZATION_NONE, STATUS_FLAGS);

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

  /**
   * AgentMcpClient::authorize:
   * @self: the client
   * @uri: the authorization server's page where the user signs in and
   *   allows access
   *
   * Emitted when a Streamable HTTP server requires OAuth authorization and
   * no token in the keyring (or no refresh) will do: the application opens
   * @uri in the user's browser (`gtk_uri_launcher_launch()`,
   * `g_app_info_launch_default_for_uri()`, or printing it) and may show
   * that the server waits for the user.
   *
   * The browser comes back to a receiver libagent runs on 127.0.0.1; the
   * request that met the refusal then goes on with the new token, and the
   * tokens are kept in the keyring. The wait ends with
   * [method@Agent.McpClient.cancel_authorization], or when the client is
   * closed. Without a handler, a server that requires authorization fails
   * with %AGENT_ERROR_AUTHENTICATION.
   *
   * Since: 0.1
   */
  signals[AUTHORIZE] =
    g_signal_new ("authorize", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * AgentMcpClient::elicitation:
   * @self: the client
   * @request: what the server asks of the user
   *
   * The server asks for input from the user (`elicitation/create`): values
   * for a form, or consent to open a URL. Only emitted when
   * [property@Agent.McpClient:handles-elicitation] is %TRUE.
   *
   * Show the request, keep a reference to it, and answer it when the user
   * has chosen, from any later iteration of the main loop, with
   * [method@Agent.McpElicitation.accept],
   * [method@Agent.McpElicitation.decline] or
   * [method@Agent.McpElicitation.cancel]; the server (and the tool call
   * that asked) waits meanwhile, without the client's time limits. A
   * request whose last reference is dropped unanswered is answered
   * "cancel": one that no handler kept is cancelled when the signal
   * returns. From a language with a garbage collector (JavaScript), answer
   * explicitly rather than count on it. Close what shows the request on
   * [signal@Agent.McpElicitation::closed].
   *
   * Since: 0.1
   */
  signals[ELICITATION] =
    g_signal_new ("elicitation", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_MCP_ELICITATION);
}

void
_agent_mcp_client_emit_elicitation (AgentMcpClient      *self,
                                    AgentMcpElicitation *request)
{
  _agent_mcp_log (self->name, "elicitation (%s): %s",
                  agent_mcp_elicitation_get_mode (request) == AGENT_MCP_ELICITATION_MODE_URL ?
                  "url" : "form",
                  agent_mcp_elicitation_get_message (request));
  g_signal_emit (self, signals[ELICITATION], 0, request);
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
_agent_mcp_client_emit_authorize (AgentMcpClient *self,
                                  const char     *uri)
{
  g_signal_emit (self, signals[AUTHORIZE], 0, uri);
}

gboolean
_agent_mcp_client_handles_authorize (AgentMcpClient *self)
{
  return g_signal_has_handler_pending (self, signals[AUTHORIZE], 0, FALSE);
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
  self->call_timeout = AGENT_MCP_DEFAULT_CALL_TIMEOUT;
  self->max_tools = AGENT_MCP_DEFAULT_MAX_TOOLS;
  self->max_result_size = AGENT_MCP_DEFAULT_MAX_RESULT_SIZE;
  self->tools = g_list_store_new (AGENT_TYPE_MCP_TOOL);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->closing = g_ptr_array_new_with_free_func (g_object_unref);
  self->close_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->relisting = g_ptr_array_new_with_free_func (g_object_unref);
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

/* Configuration */

/**
 * agent_mcp_client_get_name:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the server's name in the configuration (its key in `mcpServers`),
 * which error messages name it by. [property@Agent.McpClient:name].
 *
 * Returns: (transfer none): the name, owned by the client
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_name (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->name;
}

/**
 * agent_mcp_client_get_command:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the program started as the server, for a server that speaks MCP on
 * its standard input and output. [property@Agent.McpClient:command].
 *
 * Returns: (nullable) (transfer none): the program, owned by the client, or
 *   %NULL for a server reached at [property@Agent.McpClient:url]
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_command (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->command;
}

/**
 * agent_mcp_client_set_command:
 * @self: a [class@Agent.McpClient]
 * @command: (nullable): the program to start (found in `PATH`), or %NULL for
 *   none
 *
 * Sets the program started as the server, from the next connection on. When
 * there is one, it is used rather than [property@Agent.McpClient:url].
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_command (AgentMcpClient *self,
                              const char     *command)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_string (&self->command, command))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMMAND]);
}

/**
 * agent_mcp_client_get_args:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the arguments the program is started with.
 * [property@Agent.McpClient:args].
 *
 * Returns: (nullable) (array zero-terminated=1) (transfer none): the
 *   arguments, owned by the client and valid until they change, or %NULL for
 *   none
 *
 * Since: 0.1
 */
const char * const *
agent_mcp_client_get_args (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return (const char * const *) self->args;
}

/**
 * agent_mcp_client_set_args:
 * @self: a [class@Agent.McpClient]
 * @args: (nullable) (array zero-terminated=1): the program's arguments, or
 *   %NULL for none
 *
 * Sets the arguments the program is started with, from the next connection
 * on.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_args (AgentMcpClient     *self,
                           const char * const *args)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_strv (&self->args, args))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGS]);
}

/**
 * agent_mcp_client_get_env:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the variables added to the few of the application's environment the
 * program inherits. Their values often hold keys: show them with care.
 * [property@Agent.McpClient:env].
 *
 * Returns: (nullable) (array zero-terminated=1) (transfer none): the
 *   variables as `NAME=VALUE`, owned by the client and valid until they
 *   change, or %NULL for none
 *
 * Since: 0.1
 */
const char * const *
agent_mcp_client_get_env (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return (const char * const *) self->env;
}

/**
 * agent_mcp_client_set_env:
 * @self: a [class@Agent.McpClient]
 * @env: (nullable) (array zero-terminated=1): variables as `NAME=VALUE`, or
 *   %NULL for none
 *
 * Sets the variables added to the program's environment, from the next
 * connection on. Their values are kept out of error messages and logs.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_env (AgentMcpClient     *self,
                          const char * const *env)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_strv (&self->env, env))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENV]);
}

/**
 * agent_mcp_client_get_cwd:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the directory the program runs in. [property@Agent.McpClient:cwd].
 *
 * Returns: (nullable) (type filename) (transfer none): the directory, owned by
 *   the client, or %NULL for the application's
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_cwd (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->cwd;
}

/**
 * agent_mcp_client_set_cwd:
 * @self: a [class@Agent.McpClient]
 * @cwd: (nullable) (type filename): a directory, or %NULL for the
 *   application's
 *
 * Sets the directory the program runs in, from the next connection on.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_cwd (AgentMcpClient *self,
                          const char     *cwd)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_string (&self->cwd, cwd))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CWD]);
}

/**
 * agent_mcp_client_get_url:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the URL of a server that speaks MCP's Streamable HTTP transport.
 * [property@Agent.McpClient:url].
 *
 * Returns: (nullable) (transfer none): the URL, owned by the client, or %NULL
 *   for none
 *
 * Since: 0.1
 */
const char *
agent_mcp_client_get_url (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return self->url;
}

/**
 * agent_mcp_client_set_url:
 * @self: a [class@Agent.McpClient]
 * @url: (nullable): the server's Streamable HTTP endpoint, such as
 *   `https://example.com/mcp`, or %NULL for none
 *
 * Sets the URL of the server, from the next connection on. It is used when
 * there is no [property@Agent.McpClient:command]. Redirects are not
 * followed: the headers go to this URL's host only.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_url (AgentMcpClient *self,
                          const char     *url)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_string (&self->url, url))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_URL]);
}

/**
 * agent_mcp_client_get_headers:
 * @self: a [class@Agent.McpClient]
 *
 * Gets the HTTP headers sent with every request to the server. Their values
 * often hold keys: show them with care. [property@Agent.McpClient:headers].
 *
 * Returns: (nullable) (array zero-terminated=1) (transfer none): the headers
 *   as `Name: value`, owned by the client and valid until they change, or
 *   %NULL for none
 *
 * Since: 0.1
 */
const char * const *
agent_mcp_client_get_headers (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return (const char * const *) self->headers;
}

/**
 * agent_mcp_client_set_headers:
 * @self: a [class@Agent.McpClient]
 * @headers: (nullable) (array zero-terminated=1): headers as `Name: value`
 *   (such as `Authorization: Bearer …`), or %NULL for none
 *
 * Sets the HTTP headers sent with every request to the server, from the
 * next connection on. Their values are kept out of error messages and logs,
 * and go to [property@Agent.McpClient:url]'s host only.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_headers (AgentMcpClient     *self,
                              const char * const *headers)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (replace_strv (&self->headers, headers))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HEADERS]);
}

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

/* Limits */

/**
 * agent_mcp_client_get_max_tools:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:max-tools].
 *
 * Returns: the most tools the server may offer, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_mcp_client_get_max_tools (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->max_tools;
}

/**
 * agent_mcp_client_set_max_tools:
 * @self: a [class@Agent.McpClient]
 * @max_tools: the most tools the server may offer, or 0 for no limit
 *
 * Sets [property@Agent.McpClient:max-tools], for the next listing.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_max_tools (AgentMcpClient *self,
                                guint           max_tools)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (self->max_tools != max_tools)
    {
      self->max_tools = max_tools;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOOLS]);
    }
}

/**
 * agent_mcp_client_get_max_result_size:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:max-result-size].
 *
 * Returns: the most bytes of text a tool result may hold, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_mcp_client_get_max_result_size (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->max_result_size;
}

/**
 * agent_mcp_client_set_max_result_size:
 * @self: a [class@Agent.McpClient]
 * @max_result_size: the most bytes of text a tool result may hold, or 0 for
 *   no limit
 *
 * Sets [property@Agent.McpClient:max-result-size].
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_max_result_size (AgentMcpClient *self,
                                      guint           max_result_size)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (self->max_result_size != max_result_size)
    {
      self->max_result_size = max_result_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RESULT_SIZE]);
    }
}

/**
 * agent_mcp_client_get_call_timeout:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:call-timeout].
 *
 * Returns: seconds, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_mcp_client_get_call_timeout (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->call_timeout;
}

/**
 * agent_mcp_client_set_call_timeout:
 * @self: a [class@Agent.McpClient]
 * @call_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.McpClient:call-timeout], for the calls made from
 * now on.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_call_timeout (AgentMcpClient *self,
                                   double          call_timeout)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (call_timeout));

  if (self->call_timeout != call_timeout)
    {
      self->call_timeout = call_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALL_TIMEOUT]);
    }
}

/* Approval */

/**
 * agent_mcp_client_get_allow_read_only:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:allow-read-only].
 *
 * Returns: whether the server's read-only tools run without asking
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_allow_read_only (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->allow_read_only;
}

/**
 * agent_mcp_client_set_allow_read_only:
 * @self: a [class@Agent.McpClient]
 * @allow_read_only: whether the server's read-only tools run without asking
 *
 * Sets [property@Agent.McpClient:allow-read-only]. The tools already
 * listed change with it.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_allow_read_only (AgentMcpClient *self,
                                      gboolean        allow_read_only)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  allow_read_only = !!allow_read_only;
  if (self->allow_read_only == allow_read_only)
    return;

  self->allow_read_only = allow_read_only;
  _agent_mcp_client_update_approvals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_READ_ONLY]);
}

/**
 * agent_mcp_client_get_allow_destructive:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:allow-destructive].
 *
 * Returns: whether the destructive tools of a trusted server run without
 *   asking
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_allow_destructive (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->allow_destructive;
}

/**
 * agent_mcp_client_set_allow_destructive:
 * @self: a [class@Agent.McpClient]
 * @allow_destructive: whether the destructive tools of a trusted server
 *   run without asking
 *
 * Sets [property@Agent.McpClient:allow-destructive]. The tools already
 * listed change with it.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_allow_destructive (AgentMcpClient *self,
                                        gboolean        allow_destructive)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  allow_destructive = !!allow_destructive;
  if (self->allow_destructive == allow_destructive)
    return;

  self->allow_destructive = allow_destructive;
  _agent_mcp_client_update_approvals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_DESTRUCTIVE]);
}

/**
 * agent_mcp_client_get_handles_elicitation:
 * @self: a [class@Agent.McpClient]
 *
 * Gets whether the application answers the server's requests for the
 * user's input. [property@Agent.McpClient:handles-elicitation].
 *
 * Returns: %TRUE if the client declares the elicitation capability
 *
 * Since: 0.1
 */
gboolean
agent_mcp_client_get_handles_elicitation (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), FALSE);
  return self->handles_elicitation;
}

/**
 * agent_mcp_client_set_handles_elicitation:
 * @self: a [class@Agent.McpClient]
 * @handles_elicitation: whether the application answers
 *   [signal@Agent.McpClient::elicitation]
 *
 * Sets [property@Agent.McpClient:handles-elicitation], from the next
 * connection on.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_handles_elicitation (AgentMcpClient *self,
                                          gboolean        handles_elicitation)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  handles_elicitation = !!handles_elicitation;
  if (self->handles_elicitation == handles_elicitation)
    return;

  self->handles_elicitation = handles_elicitation;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HANDLES_ELICITATION]);
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
 * `2026-07-28` or `2025-11-25`. [property@Agent.McpClient:protocol-version].
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
