/* agent-cli-context.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

gboolean cli_context_setup (AgentSession  *session,
                            CliOutput     *output,
                            const char    *window,
                            const char    *compact,
                            const char    *strategy,
                            int            keep_turns,
                            GError       **error);

G_END_DECLS
