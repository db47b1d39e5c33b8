/* agent-model-request-private.h
 *
 * One request of the model manager to the provider's server: a JSON body
 * or none, the answer read whole (bounded) or, with a line function, as
 * NDJSON lines as they arrive (a pull's progress). HTTP errors and
 * {"error": "…"} lines become AGENT_ERROR codes that say what happened.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-provider-private.h"

G_BEGIN_DECLS

/* Each line of an NDJSON answer, NUL-terminated; FALSE with @error stops */
typedef gboolean (*AgentModelLineFunc) (const char  *line,
                                        gsize        len,
                                        gpointer     user_data,
                                        GError     **error);

void    _agent_model_request_async  (AgentProvider       *provider,
                                     const char          *method,
                                     const char          *path,
                                     const char          *body,
                                     const char          *model,
                                     AgentModelLineFunc   line_func,
                                     gpointer             line_data,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
/* The answer's body (empty with a line function) */
GBytes *_agent_model_request_finish (AgentProvider       *provider,
                                     GAsyncResult        *result,
                                     GError             **error);

G_END_DECLS
