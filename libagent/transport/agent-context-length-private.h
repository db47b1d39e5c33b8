/* agent-context-length-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "json/agent-json-private.h"

G_BEGIN_DECLS

gboolean _agent_context_length_check (const AgentJson *root,
                                      gint64          *requested,
                                      gint64          *limit);

G_END_DECLS
