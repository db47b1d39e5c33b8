/* agent-mcp-auth-private.h
 *
 * OAuth authorization of a Streamable HTTP MCP server, as the MCP
 * specification defines it:
 *
 *   401 ─► protected-resource metadata (RFC 9728) ─► authorization-server
 *   metadata (RFC 8414, OpenID discovery) ─► dynamic client registration
 *   (RFC 7591) or the configured client ─► authorization code with PKCE
 *   S256, the user's browser sent back to a loopback receiver ─► tokens
 *   (with the resource indicator, RFC 8707) ─► Bearer on every request,
 *   refreshed when they expire or are refused.
 *
 * An AgentMcpAuth belongs to an AgentMcpClient (it outlives its
 * connections) and lives on the client's main context; the network steps
 * run in a worker thread, one flow at a time, that the HTTP transport's
 * exchanges wait on. Tokens are kept in the keyring (libsecret), never in
 * files or logs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "mcp/agent-mcp-private.h"

G_BEGIN_DECLS

/* What a server gave us: all of it is kept in one keyring item. */
typedef struct
{
  char   *access_token;
  char   *refresh_token;
  gint64  expires_at;       /* real time, seconds; 0: unknown */
  char   *client_id;
  char   *client_secret;
  char   *token_endpoint;
  char   *resource;
  char   *scope;
} AgentMcpTokens;

AgentMcpTokens *_agent_mcp_tokens_copy      (const AgentMcpTokens *tokens);
void            _agent_mcp_tokens_free      (AgentMcpTokens       *tokens);
char           *_agent_mcp_tokens_serialize (const AgentMcpTokens *tokens);
AgentMcpTokens *_agent_mcp_tokens_parse     (const char           *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentMcpTokens, _agent_mcp_tokens_free)

/* agent-mcp-auth-store.c: the keyring, keyed by the server's URL (sync:
 * called from the worker thread) */
char           *_agent_mcp_auth_store_key   (const char           *url);
AgentMcpTokens *_agent_mcp_auth_store_load  (const char           *url,
                                             GCancellable         *cancellable,
                                             GError              **error);
gboolean        _agent_mcp_auth_store_save  (const char           *url,
                                             const AgentMcpTokens *tokens,
                                             GCancellable         *cancellable,
                                             GError              **error);
gboolean        _agent_mcp_auth_store_clear (const char           *url,
                                             GCancellable         *cancellable,
                                             GError              **error);

/* agent-mcp-auth-redirect.c: the loopback receiver of the redirect */
typedef struct _AgentMcpRedirect AgentMcpRedirect;

AgentMcpRedirect *_agent_mcp_redirect_new       (const char        *state,
                                                 GError           **error);
const char       *_agent_mcp_redirect_get_uri   (AgentMcpRedirect  *self);
/* Iterates the thread-default context until the browser comes back */
char             *_agent_mcp_redirect_wait      (AgentMcpRedirect  *self,
                                                 const char        *server,
                                                 GCancellable      *cancellable,
                                                 GError           **error);
void              _agent_mcp_redirect_free      (AgentMcpRedirect  *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentMcpRedirect, _agent_mcp_redirect_free)

/* agent-mcp-auth-flow.c: the steps, synchronous, in the worker thread */
typedef struct
{
  char           *server;        /* its name, for errors */
  char           *url;           /* the MCP endpoint */
  char           *www_authenticate;
  char           *client_id;     /* configured, or NULL */
  char           *client_secret;
  char           *scope;         /* configured, or NULL */
  AgentMcpTokens *current;       /* what we have, or NULL */
  char           *refused_token; /* the token the server refused, or NULL */
  guint           status;        /* the refusal: 0, 401 or 403 */
  guint           load : 1;      /* read the keyring first */
  guint           interactive : 1;
  /* Asks the application to open the URL, on @context */
  void          (*open_uri) (gpointer    data,
                             const char *uri);
  GObject        *open_uri_data;
  GMainContext   *context;
} AgentMcpAuthRequest;

void            _agent_mcp_auth_request_free (AgentMcpAuthRequest *request);
AgentMcpTokens *_agent_mcp_auth_flow_run    (AgentMcpAuthRequest  *request,
                                             GCancellable         *cancellable,
                                             GError              **error);
char           *_agent_mcp_auth_param       (const char           *www_authenticate,
                                             const char           *name);

/* agent-mcp-auth.c: the client's side */
#define AGENT_TYPE_MCP_AUTH (agent_mcp_auth_get_type ())
G_DECLARE_FINAL_TYPE (AgentMcpAuth, agent_mcp_auth, AGENT, MCP_AUTH, GObject)

AgentMcpAuth *_agent_mcp_auth_new            (AgentMcpClient       *client);
/* The configuration's "oauth" member: clientId, clientSecret, scope */
void          _agent_mcp_auth_configure      (AgentMcpAuth         *self,
                                              const char           *url,
                                              JsonObject           *oauth);
/* Adds the Bearer token, if any; returns it (for _challenge) */
const char   *_agent_mcp_auth_apply          (AgentMcpAuth         *self,
                                              SoupMessage          *message);
/* Whether a request must wait for _prepare_async: the keyring was not read
 * yet, or the token expired */
gboolean      _agent_mcp_auth_needs_prepare  (AgentMcpAuth         *self);
void          _agent_mcp_auth_prepare_async  (AgentMcpAuth         *self,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
/* The server refused @used_token (NULL: none was sent) with @message's
 * answer: refresh, or authorize again */
void          _agent_mcp_auth_challenge_async (AgentMcpAuth        *self,
                                               SoupMessage         *message,
                                               const char          *used_token,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean      _agent_mcp_auth_finish          (AgentMcpAuth        *self,
                                               GAsyncResult        *result,
                                               GError             **error);
void          _agent_mcp_auth_cancel          (AgentMcpAuth        *self);
void          _agent_mcp_auth_forget_async    (AgentMcpAuth        *self,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean      _agent_mcp_auth_forget_finish   (AgentMcpAuth        *self,
                                               GAsyncResult        *result,
                                               GError             **error);
char         *_agent_mcp_auth_redact          (AgentMcpAuth        *self,
                                               const char          *text);

/* agent-mcp-http.c */
void _agent_mcp_http_transport_set_auth (AgentMcpTransport *transport,
                                         AgentMcpAuth      *auth);

/* agent-mcp-client-auth.c */
void _agent_mcp_client_emit_authorize      (AgentMcpClient *self,
                                            const char     *uri);
void _agent_mcp_client_hold_timeouts       (AgentMcpClient *self,
                                            gboolean        hold);
gboolean _agent_mcp_client_handles_authorize (AgentMcpClient *self);

G_END_DECLS
