/* agent-chat-consent.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_CONSENT (agent_chat_consent_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatConsent, agent_chat_consent, AGENT_CHAT, CONSENT, GObject)

AgentChatConsent *agent_chat_consent_new  (GtkApplication   *application);
void              agent_chat_consent_stop (AgentChatConsent *self);

G_END_DECLS
