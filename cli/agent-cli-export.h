/* agent-cli-export.h — agent-cli's --export and --import
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

#if AGENT_HAS_STORE
int cli_export_conversation (AgentConversation  *conversation,
                             const char         *format,
                             CliOutput          *output);
int cli_import_conversation (AgentStore         *store,
                             const char         *path,
                             gboolean            json,
                             CliOutput          *output);
#endif

G_END_DECLS
