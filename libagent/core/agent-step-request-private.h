/* agent-step-request-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-step-request.h"

G_BEGIN_DECLS

AgentStepRequest *_agent_step_request_new          (guint                  step,
                                                    GListModel            *messages,
                                                    GListModel            *tools,
                                                    const char            *system_prompt,
                                                    const char            *model,
                                                    AgentRequestSettings  *settings);
GListModel       *_agent_step_request_active_tools (AgentStepRequest      *self,
                                                    GError               **error);

G_END_DECLS
