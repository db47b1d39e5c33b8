/* agent-chat-title.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

void  agent_chat_title_generate_async  (AgentProvider        *provider,
                                        const char           *prompt,
                                        const char           *answer,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
char *agent_chat_title_generate_finish (GAsyncResult         *result,
                                        GError              **error);
char *agent_chat_title_clean           (const char           *text);

G_END_DECLS
