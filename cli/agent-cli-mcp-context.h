/* agent-cli-mcp-context.h — what MCP servers give the first prompt
 * (--mcp-resource SERVER:URI, --mcp-prompt SERVER:NAME --mcp-arg K=V)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

extern const GOptionEntry cli_mcp_context_entries[];

gboolean  cli_mcp_context_wanted         (void);
gboolean  cli_mcp_context_prompt_wanted  (void);
GListModel *cli_mcp_context_get_prompt    (AgentMcpServerList  *servers,
                                           GCancellable        *cancellable,
                                           GError             **error);
GPtrArray *cli_mcp_context_read_resources (AgentMcpServerList  *servers,
                                           GCancellable        *cancellable,
                                           GError             **error);

G_END_DECLS
