/* agent-debug-private.h
 *
 * AGENT_DEBUG=http shows each request (headers, body), each answer's status
 * and headers and the bytes of its body, through g_log_structured() in the
 * "Agent-HTTP" domain. Secrets are redacted: the authorization headers, and
 * the API key wherever it appears.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "agent-provider.h"

G_BEGIN_DECLS

gboolean _agent_debug_http     (void);
void     _agent_debug_request  (AgentProvider *provider,
                                SoupMessage   *message,
                                GBytes        *body,
                                guint          attempt);
void     _agent_debug_response (AgentProvider *provider,
                                SoupMessage   *message);
void     _agent_debug_data     (AgentProvider *provider,
                                const char    *data,
                                gsize          len);
void     _agent_debug_note     (const char    *format,
                                ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
