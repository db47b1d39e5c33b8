/* agent-chat-snippet.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *agent_chat_snippet_to_markup (const char *snippet,
                                    guint       context);

G_END_DECLS
