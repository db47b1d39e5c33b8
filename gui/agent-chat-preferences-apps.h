/* agent-chat-preferences-apps.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define AGENT_CHAT_TYPE_PREFERENCES_APPS (agent_chat_preferences_apps_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatPreferencesApps, agent_chat_preferences_apps, AGENT_CHAT,
                      PREFERENCES_APPS, AdwPreferencesPage)

GtkWidget *agent_chat_preferences_apps_new     (void);
void       agent_chat_preferences_apps_refresh (AgentChatPreferencesApps *self);

G_END_DECLS
