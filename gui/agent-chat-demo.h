/* agent-chat-demo.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>
#include <gio/gio.h>

G_BEGIN_DECLS

char     *agent_chat_demo_dup_program  (void);
gboolean  agent_chat_demo_is_server    (const char           *provider,
                                        const char           *base_url,
                                        const char           *model);
gboolean  agent_chat_demo_is_profile   (AgentProfile         *profile);
void      agent_chat_demo_start_async  (GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
char     *agent_chat_demo_start_finish (GAsyncResult         *result,
                                        GError              **error);
void      agent_chat_demo_revive       (AgentProfileList     *profiles);

G_END_DECLS
