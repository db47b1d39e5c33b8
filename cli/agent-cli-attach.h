/* agent-cli-attach.h — files attached to the prompt (--attach FILE)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

extern const GOptionEntry cli_attach_entries[];

GPtrArray    *cli_attach_load        (AgentSession *session,
                                      CliOutput    *output,
                                      GCancellable *cancellable,
                                      GError      **error);
AgentMessage *cli_attach_new_message (const char  *prompt,
                                      GPtrArray   *attachments);

G_END_DECLS
