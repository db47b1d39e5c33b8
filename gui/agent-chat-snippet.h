/* agent-chat-snippet.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *agent_chat_snippet_to_markup (const char *snippet,
                                    guint       context);

G_END_DECLS
