/* agent-chat-names.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *agent_chat_provider_title (const char *name);
const char *agent_chat_tool_title     (const char *name);
const char *agent_chat_tool_summary   (const char *name);
char       *agent_chat_dup_host_port  (const char *url);

G_END_DECLS
