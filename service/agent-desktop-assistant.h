/* agent-desktop-assistant.h — io.github.libagent.Assistant1: the user's
 * models for the applications the user allowed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_DESKTOP_ASSISTANT_PATH "/io/github/libagent/Assistant"

#define AGENT_DESKTOP_TYPE_ASSISTANT (agent_desktop_assistant_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopAssistant, agent_desktop_assistant,
                      AGENT_DESKTOP, ASSISTANT, GObject)

AgentDesktopAssistant *agent_desktop_assistant_new       (GApplication           *application);
gboolean               agent_desktop_assistant_export    (AgentDesktopAssistant  *self,
                                                          GDBusConnection        *connection,
                                                          GError                **error);
void                   agent_desktop_assistant_unexport  (AgentDesktopAssistant  *self);
void                   agent_desktop_assistant_answer    (AgentDesktopAssistant  *self,
                                                          const char             *app_id,
                                                          gboolean                allowed);

G_END_DECLS
