/* agent-memory-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-memory.h"

G_BEGIN_DECLS

gboolean _agent_memory_syncs_later (AgentMemory *self);

G_END_DECLS
