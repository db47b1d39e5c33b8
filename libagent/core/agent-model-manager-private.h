/* agent-model-manager-private.h
 *
 * What the model manager's files share: the pull (agent-model-pull.c) and
 * the signal it emits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-model-manager.h"
#include "core/agent-provider-private.h"

G_BEGIN_DECLS

/* @task's data is the model's name; @task is taken */
void _agent_model_manager_pull               (AgentModelManager *self,
                                              GTask             *task);
void _agent_model_manager_emit_pull_progress (AgentModelManager *self,
                                              AgentPullProgress *progress);

G_END_DECLS
