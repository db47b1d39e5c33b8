/* agent-chat-voice.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>
#include <gst/gst.h>

#include "agent-chat-secret-store.h"

G_BEGIN_DECLS

gboolean    agent_chat_voice_init         (GError     **error);
GstElement *agent_chat_voice_make_element (const char  *variable,
                                           const char  *fallback,
                                           GError     **error);
GError     *agent_chat_voice_bus_error    (GstMessage  *message,
                                           const char  *what);

void           agent_chat_voice_provider_async  (AgentChatSecretStore  *secrets,
                                                 const char            *base_url,
                                                 GCancellable          *cancellable,
                                                 GAsyncReadyCallback    callback,
                                                 gpointer               user_data);
AgentProvider *agent_chat_voice_provider_finish (AgentChatSecretStore  *secrets,
                                                 GAsyncResult          *result,
                                                 GError               **error);

G_END_DECLS
