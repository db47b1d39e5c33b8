/* agent-step-request.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-request-settings.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_STEP_REQUEST (agent_step_request_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentStepRequest, agent_step_request, AGENT, STEP_REQUEST, GObject)

AGENT_AVAILABLE_IN_ALL
guint       agent_step_request_get_step          (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
GListStore *agent_step_request_get_messages      (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
GListStore *agent_step_request_get_tools         (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_step_request_get_system_prompt (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
void        agent_step_request_set_system_prompt (AgentStepRequest *self,
                                                  const char       *system_prompt);
AGENT_AVAILABLE_IN_ALL
const char *agent_step_request_get_model         (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
void        agent_step_request_set_model         (AgentStepRequest *self,
                                                  const char       *model);
AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_step_request_get_settings (AgentStepRequest *self);
AGENT_AVAILABLE_IN_ALL
const char * const *agent_step_request_get_active_tools (AgentStepRequest   *self);
AGENT_AVAILABLE_IN_ALL
void        agent_step_request_set_active_tools  (AgentStepRequest   *self,
                                                  const char * const *names);

G_END_DECLS
