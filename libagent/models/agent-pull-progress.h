/* agent-pull-progress.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_PULL_PROGRESS (agent_pull_progress_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentPullProgress, agent_pull_progress, AGENT, PULL_PROGRESS, GObject)

AGENT_AVAILABLE_IN_ALL
const char *agent_pull_progress_get_model             (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_pull_progress_get_status            (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_pull_progress_get_digest            (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
guint64     agent_pull_progress_get_completed         (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
guint64     agent_pull_progress_get_total             (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
guint64     agent_pull_progress_get_overall_completed (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
guint64     agent_pull_progress_get_overall_total     (AgentPullProgress *self);
AGENT_AVAILABLE_IN_ALL
double      agent_pull_progress_get_fraction          (AgentPullProgress *self);

G_END_DECLS
