/* agent-cli-elicit.h
 *
 * Asking the user, on the terminal, what an MCP server asks
 * (elicitation).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef struct _CliElicitor CliElicitor;

CliElicitor *cli_elicitor_new    (gboolean        json);
void         cli_elicitor_free   (CliElicitor    *self);
void         cli_elicitor_attach (CliElicitor    *self,
                                  AgentMcpClient *client);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliElicitor, cli_elicitor_free)

G_END_DECLS
