/* agent-builtin-tools.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include "agent-tool.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

AGENT_AVAILABLE_IN_ALL
const char * const *agent_builtin_tool_list_names (void);
AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_builtin_tool_new        (const char  *name,
                                                   GError     **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_calculator_tool_new     (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_read_file_tool_new      (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_fetch_url_tool_new      (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentTool          *agent_fetch_url_tool_new_full (const char * const  *allowed_hosts,
                                                   guint                timeout_seconds,
                                                   guint64              max_bytes,
                                                   GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
