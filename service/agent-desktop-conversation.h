/* agent-desktop-conversation.h — one conversation of an application, an
 * object on the bus (io.github.libagent.AssistantConversation1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-desktop-apps.h"
#include "agent-desktop-consent.h"

G_BEGIN_DECLS

#define AGENT_DESKTOP_TYPE_CONVERSATION (agent_desktop_conversation_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopConversation, agent_desktop_conversation,
                      AGENT_DESKTOP, CONVERSATION, GObject)

AgentDesktopConversation *agent_desktop_conversation_new (GDBusConnection    *connection,
                                                          GDBusInterfaceInfo *info,
                                                          const char         *path,
                                                          const char         *owner,
                                                          const char         *app_id,
                                                          AgentProfile       *profile,
                                                          AgentProvider      *provider,
                                                          AgentDesktopApps   *apps);

gboolean      agent_desktop_conversation_export      (AgentDesktopConversation  *self,
                                                      GError                   **error);
void          agent_desktop_conversation_close       (AgentDesktopConversation  *self);
const char   *agent_desktop_conversation_get_path    (AgentDesktopConversation  *self);
const char   *agent_desktop_conversation_get_owner   (AgentDesktopConversation  *self);
const char   *agent_desktop_conversation_get_app_id  (AgentDesktopConversation  *self);
AgentSession *agent_desktop_conversation_get_session (AgentDesktopConversation  *self);

void          agent_desktop_conversation_set_consent (AgentDesktopConversation  *self,
                                                      AgentDesktopConsentBroker *consent,
                                                      const char                *app_name);

G_END_DECLS
