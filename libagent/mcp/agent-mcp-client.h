/* agent-mcp-client.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentMcpClientState:
 * @AGENT_MCP_CLIENT_STATE_DISCONNECTED: not connected: not started yet, or
 *   closed
 * @AGENT_MCP_CLIENT_STATE_CONNECTING: starting the server, shaking hands and
 *   listing its tools
 * @AGENT_MCP_CLIENT_STATE_READY: connected; the tools are known
 * @AGENT_MCP_CLIENT_STATE_FAILED: the server could not be started or
 *   reached, or it went away; [property@Agent.McpClient:error] says why
 *
 * Where the connection of an [class@Agent.McpClient] to its server stands.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MCP_CLIENT_STATE_DISCONNECTED,
  AGENT_MCP_CLIENT_STATE_CONNECTING,
  AGENT_MCP_CLIENT_STATE_READY,
  AGENT_MCP_CLIENT_STATE_FAILED,
} AgentMcpClientState;

/**
 * AgentMcpAuthorization:
 * @AGENT_MCP_AUTHORIZATION_NONE: the client holds no OAuth tokens for its
 *   server and waits for no one: the server asked for none (or not yet),
 *   the user signed out, or an authorization failed or was cancelled
 * @AGENT_MCP_AUTHORIZATION_REQUIRED: the server refused the client, and
 *   [signal@Agent.McpClient::authorize] asked the application to send the
 *   user to the authorization server: the requests wait for the user
 * @AGENT_MCP_AUTHORIZATION_AUTHORIZED: the client holds tokens for its
 *   server, from an authorization or from the keyring
 *
 * Where the OAuth authorization of an [class@Agent.McpClient] stands (see
 * [property@Agent.McpClient:authorization]).
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MCP_AUTHORIZATION_NONE,
  AGENT_MCP_AUTHORIZATION_REQUIRED,
  AGENT_MCP_AUTHORIZATION_AUTHORIZED,
} AgentMcpAuthorization;

#define AGENT_TYPE_MCP_CLIENT (agent_mcp_client_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpClient, agent_mcp_client, AGENT, MCP_CLIENT, GObject)

AGENT_AVAILABLE_IN_ALL
AgentMcpClient      *agent_mcp_client_new_stdio           (const char          *name,
                                                           const char          *command,
                                                           const char * const  *args) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentMcpClient      *agent_mcp_client_new_http            (const char          *name,
                                                           const char          *url) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentMcpClient      *agent_mcp_client_new_from_json       (const char          *name,
                                                           JsonNode            *config,
                                                           GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
JsonNode            *agent_mcp_client_to_json             (AgentMcpClient      *self) G_GNUC_WARN_UNUSED_RESULT;

AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_name            (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_command         (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_command         (AgentMcpClient      *self,
                                                           const char          *command);
AGENT_AVAILABLE_IN_ALL
const char * const  *agent_mcp_client_get_args            (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_args            (AgentMcpClient      *self,
                                                           const char * const  *args);
AGENT_AVAILABLE_IN_ALL
const char * const  *agent_mcp_client_get_env             (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_env             (AgentMcpClient      *self,
                                                           const char * const  *env);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_cwd             (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_cwd             (AgentMcpClient      *self,
                                                           const char          *cwd);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_url             (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_url             (AgentMcpClient      *self,
                                                           const char          *url);
AGENT_AVAILABLE_IN_ALL
const char * const  *agent_mcp_client_get_headers         (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_headers         (AgentMcpClient      *self,
                                                           const char * const  *headers);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_tool_prefix     (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_tool_prefix     (AgentMcpClient      *self,
                                                           const char          *tool_prefix);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_get_enabled         (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_enabled         (AgentMcpClient      *self,
                                                           gboolean             enabled);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_get_trusted         (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_trusted         (AgentMcpClient      *self,
                                                           gboolean             trusted);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_get_allow_read_only (AgentMcpClient     *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_allow_read_only (AgentMcpClient     *self,
                                                           gboolean            allow_read_only);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_get_allow_destructive (AgentMcpClient   *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_allow_destructive (AgentMcpClient   *self,
                                                             gboolean          allow_destructive);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_get_handles_elicitation (AgentMcpClient *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_handles_elicitation (AgentMcpClient *self,
                                                               gboolean        handles_elicitation);
AGENT_AVAILABLE_IN_ALL
double               agent_mcp_client_get_timeout         (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_timeout         (AgentMcpClient      *self,
                                                           double               timeout);
AGENT_AVAILABLE_IN_ALL
double               agent_mcp_client_get_call_timeout    (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_call_timeout    (AgentMcpClient      *self,
                                                           double               call_timeout);
AGENT_AVAILABLE_IN_ALL
guint                agent_mcp_client_get_max_tools       (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_max_tools       (AgentMcpClient      *self,
                                                           guint                max_tools);
AGENT_AVAILABLE_IN_ALL
guint                agent_mcp_client_get_max_result_size (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_set_max_result_size (AgentMcpClient      *self,
                                                           guint                max_result_size);

AGENT_AVAILABLE_IN_ALL
AgentMcpClientState  agent_mcp_client_get_state           (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
const GError        *agent_mcp_client_get_error           (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_server_name     (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_server_version  (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_protocol_version (AgentMcpClient     *self);
AGENT_AVAILABLE_IN_ALL
const char          *agent_mcp_client_get_instructions    (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_get_tools           (AgentMcpClient      *self);
AGENT_AVAILABLE_IN_ALL
JsonNode            *agent_mcp_client_get_capabilities    (AgentMcpClient      *self);

AGENT_AVAILABLE_IN_ALL
AgentMcpAuthorization agent_mcp_client_get_authorization  (AgentMcpClient     *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_cancel_authorization (AgentMcpClient     *self);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_sign_out_async      (AgentMcpClient      *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_sign_out_finish     (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_connect_async       (AgentMcpClient      *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_connect_finish      (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_close_async         (AgentMcpClient      *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_close_finish        (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_ping_async          (AgentMcpClient      *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_ping_finish         (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_call_tool_async     (AgentMcpClient      *self,
                                                           const char          *name,
                                                           JsonNode            *arguments,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
JsonNode            *agent_mcp_client_call_tool_finish    (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error) G_GNUC_WARN_UNUSED_RESULT;

/* Resources (agent-mcp-resources.c) */
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_list_resources_async  (AgentMcpClient      *self,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_list_resources_finish (AgentMcpClient      *self,
                                                             GAsyncResult        *result,
                                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_list_resource_templates_async  (AgentMcpClient      *self,
                                                                      GCancellable        *cancellable,
                                                                      GAsyncReadyCallback  callback,
                                                                      gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_list_resource_templates_finish (AgentMcpClient      *self,
                                                                      GAsyncResult        *result,
                                                                      GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_read_resource_async   (AgentMcpClient      *self,
                                                             const char          *uri,
                                                             GCancellable        *cancellable,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_read_resource_finish  (AgentMcpClient      *self,
                                                             GAsyncResult        *result,
                                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_subscribe_resource_async    (AgentMcpClient      *self,
                                                                   const char          *uri,
                                                                   GCancellable        *cancellable,
                                                                   GAsyncReadyCallback  callback,
                                                                   gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_subscribe_resource_finish   (AgentMcpClient      *self,
                                                                   GAsyncResult        *result,
                                                                   GError             **error);
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_unsubscribe_resource_async  (AgentMcpClient      *self,
                                                                   const char          *uri,
                                                                   GCancellable        *cancellable,
                                                                   GAsyncReadyCallback  callback,
                                                                   gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
gboolean             agent_mcp_client_unsubscribe_resource_finish (AgentMcpClient      *self,
                                                                   GAsyncResult        *result,
                                                                   GError             **error);

/* Prompts (agent-mcp-prompts.c) */
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_list_prompts_async  (AgentMcpClient      *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_list_prompts_finish (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                 agent_mcp_client_get_prompt_async    (AgentMcpClient      *self,
                                                           const char          *name,
                                                           GHashTable          *arguments,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GListModel          *agent_mcp_client_get_prompt_finish   (AgentMcpClient      *self,
                                                           GAsyncResult        *result,
                                                           GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
