/* agent-test-oauth.h — an OAuth authorization server and an MCP server it
 * protects, in process, for the authorization tests
 *
 * Two SoupServers on 127.0.0.1: the authorization server (RFC 8414
 * metadata, RFC 7591 registration, /authorize with PKCE S256 and the
 * resource indicator, /token for codes and refresh tokens) and an MCP
 * endpoint (/mcp, Streamable HTTP answering in JSON) that answers 401 with
 * a WWW-Authenticate challenge naming its protected-resource metadata
 * (RFC 9728) unless it gets a valid Bearer token for itself. A browser
 * helper plays the user: it opens the authorization URL and follows the
 * redirect to the application's loopback receiver.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_TEST_BROWSER_FOLLOW,      /* as a browser: to the redirect, unchanged */
  AGENT_TEST_BROWSER_WRONG_STATE, /* the redirect's state replaced */
  AGENT_TEST_BROWSER_OTHER_CODE,  /* a code issued for another PKCE challenge */
  AGENT_TEST_BROWSER_DENY,        /* the user refuses: error=access_denied */
} AgentTestBrowserMode;

typedef struct
{
  SoupServer  *as;
  SoupServer  *rs;
  char        *issuer;          /* http://127.0.0.1:P */
  char        *issuer_rs;       /* http://127.0.0.1:Q, the MCP server's origin */
  char        *mcp_url;         /* http://127.0.0.1:Q/mcp */
  GHashTable  *clients;         /* client_id → redirect_uri */
  GHashTable  *codes;           /* code → Code */
  GHashTable  *access_tokens;   /* valid ones → resource */
  GHashTable  *refresh_tokens;  /* valid ones → client_id */
  GPtrArray   *issued;          /* every token and code handed out */
  GPtrArray   *authorize_uris;  /* what the application was asked to open */
  guint        serial;
  /* What each endpoint saw */
  guint        n_metadata;
  guint        n_resource_metadata;
  guint        n_registrations;
  guint        n_authorizations;
  guint        n_codes_redeemed;
  guint        n_refreshes;
  guint        n_refused;       /* 401s of the MCP endpoint */
  guint        n_calls;
  char        *last_token_error;
  char        *last_authorize_resource;
  char        *last_token_resource;
  /* How it behaves */
  int          next_expires_in; /* of the next token issued; then 3600 */
  gboolean     no_s256;
  gboolean     no_metadata;     /* 404 for the authorization server's metadata */
  gboolean     want_scope;      /* the next call: 403 insufficient_scope, more scope */
  AgentTestBrowserMode browser;
  /* The browser's last page */
  SoupSession *browser_session;
  guint        page_status;
  char        *page;
  gboolean     browsed;
} AgentTestOAuth;

void      agent_test_oauth_start         (AgentTestOAuth *self);
void      agent_test_oauth_stop          (AgentTestOAuth *self);
/* Every token the server accepts is no more; refresh tokens too if @refresh */
void      agent_test_oauth_revoke        (AgentTestOAuth *self,
                                          gboolean        refresh);
/* Plays the user, who opens @uri in a browser (asynchronous) */
void      agent_test_oauth_browse        (AgentTestOAuth *self,
                                          const char     *uri);
/* An ::authorize handler that calls agent_test_oauth_browse() */
void      agent_test_oauth_authorize_cb  (GObject        *client,
                                          const char     *uri,
                                          AgentTestOAuth *self);
/* Fails if a token or code the server handed out is in @text */
void      agent_test_oauth_assert_clean  (AgentTestOAuth *self,
                                          const char     *text,
                                          const char     *where);

G_END_DECLS
