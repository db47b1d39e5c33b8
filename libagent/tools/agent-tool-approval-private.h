/* agent-tool-approval-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "tools/agent-tool-approval.h"

G_BEGIN_DECLS

void     _agent_tool_approval_set_over    (AgentToolApproval *self);
gboolean _agent_tool_approval_was_dropped (AgentToolApproval *self);

G_END_DECLS
