/* agent-mcp-server-list.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-mcp-client.h"
#include "agent-session.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_MCP_SERVER_LIST (agent_mcp_server_list_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMcpServerList, agent_mcp_server_list, AGENT, MCP_SERVER_LIST, GObject)

AGENT_AVAILABLE_IN_ALL
AgentMcpServerList *agent_mcp_server_list_new            (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_load_file      (AgentMcpServerList   *self,
                                                          const char           *path,
                                                          GError              **error);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_load_data      (AgentMcpServerList   *self,
                                                          const char           *data,
                                                          gssize                length,
                                                          GError              **error);
AGENT_AVAILABLE_IN_ALL
char               *agent_mcp_server_list_to_data        (AgentMcpServerList   *self);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_save_file      (AgentMcpServerList   *self,
                                                          const char           *path,
                                                          GError              **error);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_add            (AgentMcpServerList   *self,
                                                          AgentMcpClient       *client);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_remove         (AgentMcpServerList   *self,
                                                          const char           *name);
AGENT_AVAILABLE_IN_ALL
AgentMcpClient     *agent_mcp_server_list_lookup         (AgentMcpServerList   *self,
                                                          const char           *name);
AGENT_AVAILABLE_IN_ALL
void                agent_mcp_server_list_connect_async  (AgentMcpServerList   *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_connect_finish (AgentMcpServerList   *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AGENT_AVAILABLE_IN_ALL
void                agent_mcp_server_list_close_async    (AgentMcpServerList   *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_mcp_server_list_close_finish   (AgentMcpServerList   *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AGENT_AVAILABLE_IN_ALL
void                agent_mcp_server_list_attach         (AgentMcpServerList   *self,
                                                          AgentSession         *session);
AGENT_AVAILABLE_IN_ALL
void                agent_mcp_server_list_detach         (AgentMcpServerList   *self,
                                                          AgentSession         *session);

G_END_DECLS
