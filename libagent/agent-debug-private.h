/* agent-debug-private.h
 *
 * AGENT_DEBUG, a list of keys (as G_DEBUG: "http,mcp", "all"), read once.
 *
 * AGENT_DEBUG=mcp shows every MCP message both ways (mcp/, through
 * _agent_mcp_log()).
 *
 * AGENT_DEBUG=http shows each request (headers, body), each answer's status
 * and headers and the bytes of its body, through g_log_structured() in the
 * "Agent-HTTP" domain. Secrets are redacted: the authorization headers,
 * the user information of URLs, and the secrets of the request (the API
 * key, a password in the base URL) wherever they appear, also when one is
 * split between two reads of the body.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_DEBUG_HTTP = 1 << 0,
  AGENT_DEBUG_MCP  = 1 << 1,
} AgentDebugFlags;

gboolean _agent_debug_enabled  (AgentDebugFlags      flag);
void     _agent_debug_request  (const char * const  *secrets,
                                SoupMessage         *message,
                                GBytes              *body,
                                guint                attempt);
void     _agent_debug_response (const char * const  *secrets,
                                SoupMessage         *message);
void     _agent_debug_data     (const char * const  *secrets,
                                GString            **held,
                                const char          *data,
                                gsize                len);
void     _agent_debug_data_end (const char * const  *secrets,
                                GString            **held);
void     _agent_debug_note     (const char          *format,
                                ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
