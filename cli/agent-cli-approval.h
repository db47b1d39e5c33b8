/* agent-cli-approval.h
 *
 * Asking the user, on the terminal, whether a tool may run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef struct _CliApprover CliApprover;

CliApprover *cli_approver_new    (gboolean           approve_all);
void         cli_approver_free   (CliApprover       *self);
gboolean     cli_approver_handle (CliApprover       *self,
                                  AgentToolCall     *call,
                                  AgentToolApproval *approval);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliApprover, cli_approver_free)

G_END_DECLS
