/* agent-error.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AGENT_ERROR:
 *
 * The error domain of libagent. Errors in it carry an [error@Agent.Error] code.
 *
 * Cancellation is not reported in this domain: a cancelled operation fails
 * with `G_IO_ERROR_CANCELLED`.
 */
#define AGENT_ERROR (agent_error_quark ())

/**
 * AgentError:
 * @AGENT_ERROR_FAILED: something went wrong that no other code describes
 * @AGENT_ERROR_INVALID_ARGUMENT: a caller passed something libagent cannot use
 *   (an unknown provider name, a malformed URL, …)
 * @AGENT_ERROR_BUSY: the session is already running a turn
 * @AGENT_ERROR_NETWORK: the server could not be reached, or the connection
 *   broke while the answer was streaming
 * @AGENT_ERROR_HTTP: the server answered with an HTTP error status (see
 *   [func@Agent.Error.get_http_status])
 * @AGENT_ERROR_AUTHENTICATION: the server refused the API key (HTTP 401 or 403)
 * @AGENT_ERROR_PROTOCOL: the server's stream could not be understood, was
 *   truncated, or exceeded a size limit
 * @AGENT_ERROR_PROVIDER: the provider reported an error inside the stream
 * @AGENT_ERROR_TIMEOUT: a time limit was reached
 * @AGENT_ERROR_LIMIT: a limit other than time was reached (for example the
 *   maximum number of steps in a turn)
 * @AGENT_ERROR_TOOL: a tool failed
 * @AGENT_ERROR_HOOK: a hook rejected the operation
 * @AGENT_ERROR_STORAGE: the conversation memory could not store a message
 * @AGENT_ERROR_CONTEXT_LENGTH: the request does not fit the model's context
 *   window (the conversation is too long); see
 *   [func@Agent.Error.get_context_tokens] for the numbers the server gave
 * @AGENT_ERROR_SCHEMA: a value (the answer asked for with an output schema,
 *   the arguments of a tool call) does not follow its JSON Schema
 * @AGENT_ERROR_UNSUPPORTED: the provider, model or server cannot do what
 *   was asked (for example structured output with a schema it cannot take)
 * @AGENT_ERROR_MODEL_NOT_FOUND: the server has no such model installed (or,
 *   for a pull, its registry has none)
 * @AGENT_ERROR_NO_SPACE: the server's disk is full
 * @AGENT_ERROR_REGISTRY: the server could not reach the registry it pulls
 *   models from
 *
 * Error codes in the %AGENT_ERROR domain.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_ERROR_FAILED,
  AGENT_ERROR_INVALID_ARGUMENT,
  AGENT_ERROR_BUSY,
  AGENT_ERROR_NETWORK,
  AGENT_ERROR_HTTP,
  AGENT_ERROR_AUTHENTICATION,
  AGENT_ERROR_PROTOCOL,
  AGENT_ERROR_PROVIDER,
  AGENT_ERROR_TIMEOUT,
  AGENT_ERROR_LIMIT,
  AGENT_ERROR_TOOL,
  AGENT_ERROR_HOOK,
  AGENT_ERROR_STORAGE,
  AGENT_ERROR_CONTEXT_LENGTH,
  AGENT_ERROR_SCHEMA,
  AGENT_ERROR_UNSUPPORTED,
  AGENT_ERROR_MODEL_NOT_FOUND,
  AGENT_ERROR_NO_SPACE,
  AGENT_ERROR_REGISTRY,
} AgentError;

AGENT_AVAILABLE_IN_ALL
GQuark      agent_error_quark    (void);
AGENT_AVAILABLE_IN_ALL
const char *agent_error_get_code (const GError *error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_error_get_context_tokens (const GError *error,
                                            gint64       *requested,
                                            gint64       *limit);
AGENT_AVAILABLE_IN_ALL
guint       agent_error_get_http_status    (const GError *error);

G_END_DECLS
