/* agent-cli-mcp.h — agent-cli's MCP servers (--mcp-config FILE)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

typedef struct _CliMcp CliMcp;

extern const GOptionEntry cli_mcp_entries[];

int   cli_mcp_sign_out   (void);
int   cli_mcp_list_tools (GCancellable  *cancellable);
int   cli_mcp_attach     (CliMcp       **mcp,
                          AgentSession  *session,
                          CliOutput     *output,
                          gboolean       json,
                          GCancellable  *cancellable);
void  cli_mcp_free       (CliMcp        *self);
AgentMcpServerList *cli_mcp_get_servers (CliMcp *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliMcp, cli_mcp_free)

G_END_DECLS
