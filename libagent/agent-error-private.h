/* agent-error-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-error.h"

G_BEGIN_DECLS

void _agent_error_set_context_tokens (GError *error,
                                      gint64  requested,
                                      gint64  limit);
void _agent_error_set_http_status    (GError *error,
                                      guint   status);

G_END_DECLS
