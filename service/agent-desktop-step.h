/* agent-desktop-step.h — RunStep and CancelStep of
 * io.github.libagent.Assistant1: one model request of a caller's own loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-desktop-apps.h"

G_BEGIN_DECLS

#define AGENT_DESKTOP_TYPE_STEPS (agent_desktop_steps_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopSteps, agent_desktop_steps, AGENT_DESKTOP, STEPS, GObject)

AgentDesktopSteps *agent_desktop_steps_new          (GApplication          *application,
                                                     AgentDesktopApps      *apps,
                                                     AgentProfileList      *profiles);
void               agent_desktop_steps_run          (AgentDesktopSteps     *self,
                                                     GDBusMethodInvocation *invocation,
                                                     const char            *app_id);
void               agent_desktop_steps_cancel       (AgentDesktopSteps     *self,
                                                     GDBusMethodInvocation *invocation);
void               agent_desktop_steps_cancel_all   (AgentDesktopSteps     *self,
                                                     const char            *owner,
                                                     const char            *app_id);

GPtrArray         *agent_desktop_tools_parse        (GVariant              *tools,
                                                     AgentToolFunc          handler,
                                                     gpointer               user_data,
                                                     GError               **error);

G_END_DECLS
