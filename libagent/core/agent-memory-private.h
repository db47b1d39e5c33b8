/* agent-memory-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-memory.h"

G_BEGIN_DECLS

gboolean _agent_memory_syncs_later   (AgentMemory          *self);

/* agent-memory-branches.c: the defaults of a memory without branches */
void     _agent_memory_branches_init (AgentMemoryInterface *iface);

G_END_DECLS
