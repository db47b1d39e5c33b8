/* agent-tool-invocation-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "tools/agent-tool-invocation.h"

G_BEGIN_DECLS

void     _agent_tool_invocation_set_over (AgentToolInvocation *self,
                                          const char          *why);
gboolean _agent_tool_invocation_is_over  (AgentToolInvocation *self);

G_END_DECLS
