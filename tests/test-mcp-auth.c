/* test-mcp-auth.c — OAuth authorization of Streamable HTTP MCP servers
 *
 * Against agent-test-oauth.c's authorization server and the MCP endpoint
 * it protects, with a real Secret Service (gnome-keyring on a bus of the
 * test's own): discovery, registration, PKCE, the loopback redirect, the
 * tokens in the keyring, refresh, re-authorization, and the failures, each
 * naming its step. No token or code may reach a log line, an error or a
 * file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-oauth.h"
#include "agent-test-process.h"
#include "agent-test-util.h"
#include "agent-test-keyring.h"

static AgentTestKeyring service;
static GString *logged;

static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE"))
      {
        g_string_append_len (logged, fields[i].value,
                             fields[i].length < 0 ? (gssize) strlen (fields[i].value)
                                                  : fields[i].length);
        g_string_append_c (logged, '\n');
      }
  /* The debug log of MCP is only collected; the rest is shown */
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN") &&
        g_strcmp0 (fields[i].value, "Agent-MCP") == 0)
      return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

static AgentMcpClient *
client_new (AgentTestOAuth *oauth,
            gboolean        with_handler)
{
  AgentMcpClient *client = agent_mcp_client_new_http ("protected", oauth->mcp_url);

  if (with_handler)
    g_signal_connect (client, "authorize", G_CALLBACK (agent_test_oauth_authorize_cb), oauth);
  return client;
}

static void
call_whoami (AgentMcpClient *client,
             const char     *expected)
{
  AgentTestMcpResult result;

  agent_test_mcp_call (client, "whoami", "{}", &result);
  g_assert_false (result.is_error);
  g_assert_cmpstr (result.text, ==, expected);
  agent_test_mcp_result_clear (&result);
}

static void
sign_out_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (agent_mcp_client_sign_out_finish (AGENT_MCP_CLIENT (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static void
sign_out (AgentMcpClient *client)
{
  gboolean done = FALSE;

  agent_mcp_client_sign_out_async (client, NULL, sign_out_cb, &done);
  agent_test_wait_for (&done);
}

static void
assert_files_clean (AgentTestOAuth *oauth,
                    const char     *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        assert_files_clean (oauth, path);
      else if (g_file_get_contents (path, &contents, &len, NULL))
        {
          /* Binary files too: the secret's bytes anywhere in them */
          for (guint i = 0; i < oauth->issued->len; i++)
            {
              const char *secret = oauth->issued->pdata[i];

              if (memmem (contents, len, secret, strlen (secret)) != NULL)
                g_error ("%s holds the secret %s", path, secret);
            }
        }
    }
}

static void
assert_no_leak (AgentTestOAuth *oauth,
                const GError   *error)
{
  agent_test_oauth_assert_clean (oauth, logged->str, "the debug log");
  if (error != NULL)
    agent_test_oauth_assert_clean (oauth, error->message, "the error");
  assert_files_clean (oauth, service.dir);
  assert_files_clean (oauth, g_get_user_data_dir ());
}

/* The whole flow, the tokens in the keyring, signing out */
static void
test_authorize (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(AgentMcpClient) again = NULL;
  g_autoptr(AgentMcpClient) signed_out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *resource = NULL;
  const char *uri;

  agent_test_oauth_start (&oauth);
  g_string_truncate (logged, 0);
  client = client_new (&oauth, TRUE);
  agent_test_mcp_connect (client);

  /* Discovery from the 401, registration, one authorization */
  g_assert_cmpuint (oauth.n_resource_metadata, >=, 1);
  g_assert_cmpuint (oauth.n_metadata, >=, 1);
  g_assert_cmpuint (oauth.n_registrations, ==, 1);
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  g_assert_cmpuint (oauth.n_codes_redeemed, ==, 1);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 1);
  uri = oauth.authorize_uris->pdata[0];
  g_assert_true (g_str_has_prefix (uri, oauth.issuer));
  resource = g_uri_escape_string (oauth.mcp_url, NULL, FALSE);
  agent_test_assert_contains (uri, "code_challenge_method=S256");
  agent_test_assert_contains (uri, "scope=mcp%3Atools");
  /* The resource indicator, on both requests */
  g_assert_cmpstr (oauth.last_authorize_resource, ==, oauth.mcp_url);
  g_assert_cmpstr (oauth.last_token_resource, ==, oauth.mcp_url);
  /* The browser was told */
  g_assert_cmpuint (oauth.page_status, ==, SOUP_STATUS_OK);
  agent_test_assert_contains (oauth.page, "authorized");

  call_whoami (client, "signed in, call 1");
  agent_test_mcp_close (client);

  /* Another client of the same server: the keyring's tokens, no browser */
  again = client_new (&oauth, TRUE);
  agent_test_mcp_connect (again);
  call_whoami (again, "signed in, call 2");
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 1);

  /* Signed out: the keyring forgot them */
  sign_out (again);
  agent_test_mcp_close (again);
  signed_out = client_new (&oauth, FALSE);
  error = agent_test_mcp_connect_error (signed_out);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  agent_test_assert_contains (error->message, "MCP server “protected”");
  agent_test_assert_contains (error->message, "authorize");
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);

  assert_no_leak (&oauth, error);
  agent_test_mcp_close (signed_out);
  agent_test_oauth_stop (&oauth);
}

/* A token that expires: refreshed before the next request */
static void
test_expired (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;

  agent_test_oauth_start (&oauth);
  g_string_truncate (logged, 0);
  oauth.next_expires_in = 30;  /* within the minute's margin: as good as expired */
  client = client_new (&oauth, TRUE);
  agent_test_mcp_connect (client);
  call_whoami (client, "signed in, call 1");

  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  g_assert_cmpuint (oauth.n_refreshes, ==, 1);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 1);
  g_assert_cmpstr (oauth.last_token_resource, ==, oauth.mcp_url);

  assert_no_leak (&oauth, NULL);
  sign_out (client);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

/* The server refuses the token: refreshed, the call goes again */
static void
test_refused (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;
  guint refused;

  agent_test_oauth_start (&oauth);
  g_string_truncate (logged, 0);
  client = client_new (&oauth, TRUE);
  agent_test_mcp_connect (client);
  refused = oauth.n_refused;

  agent_test_oauth_revoke (&oauth, FALSE);
  call_whoami (client, "signed in, call 1");
  /* (the GET stream may have been refused too) */
  g_assert_cmpuint (oauth.n_refused, >=, refused + 1);
  g_assert_cmpuint (oauth.n_refreshes, ==, 1);
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);

  assert_no_leak (&oauth, NULL);
  sign_out (client);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

/* The refresh token is revoked too: the user authorizes again */
static void
test_refresh_revoked (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;

  agent_test_oauth_start (&oauth);
  g_string_truncate (logged, 0);
  client = client_new (&oauth, TRUE);
  agent_test_mcp_connect (client);

  agent_test_oauth_revoke (&oauth, TRUE);
  call_whoami (client, "signed in, call 1");
  g_assert_cmpstr (oauth.last_token_error, ==, "refresh token revoked or unknown");
  g_assert_cmpuint (oauth.n_refreshes, ==, 0);
  g_assert_cmpuint (oauth.n_authorizations, ==, 2);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 2);

  assert_no_leak (&oauth, NULL);
  sign_out (client);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

/* A token of too small a scope (403 insufficient_scope): the user is asked
 * again, for the scope the server names; no refresh */
static void
test_insufficient_scope (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;

  agent_test_oauth_start (&oauth);
  g_string_truncate (logged, 0);
  client = client_new (&oauth, TRUE);
  agent_test_mcp_connect (client);

  oauth.want_scope = TRUE;
  call_whoami (client, "signed in, call 1");
  g_assert_cmpuint (oauth.n_refreshes, ==, 0);
  g_assert_cmpuint (oauth.n_authorizations, ==, 2);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 2);
  agent_test_assert_contains (oauth.authorize_uris->pdata[1], "scope=mcp%3Atools+mcp%3Aadmin");

  assert_no_leak (&oauth, NULL);
  sign_out (client);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

static GError *
failed_connection (AgentTestOAuth *oauth)
{
  g_autoptr(AgentMcpClient) client = client_new (oauth, TRUE);
  GError *error;

  g_string_truncate (logged, 0);
  error = agent_test_mcp_connect_error (client);
  g_assert_nonnull (error);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  assert_no_leak (oauth, error);
  agent_test_mcp_close (client);
  return error;
}

/* A redirect whose state is not ours is refused */
static void
test_wrong_state (void)
{
  AgentTestOAuth oauth;
  g_autoptr(GError) error = NULL;

  agent_test_oauth_start (&oauth);
  oauth.browser = AGENT_TEST_BROWSER_WRONG_STATE;
  error = failed_connection (&oauth);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  agent_test_assert_contains (error->message, "wrong “state”");
  agent_test_wait_for (&oauth.browsed);
  g_assert_cmpuint (oauth.page_status, ==, SOUP_STATUS_BAD_REQUEST);
  g_assert_cmpuint (oauth.n_codes_redeemed, ==, 0);
  agent_test_oauth_stop (&oauth);
}

/* A code issued for another PKCE challenge is useless with our verifier */
static void
test_pkce (void)
{
  AgentTestOAuth oauth;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = NULL;

  agent_test_oauth_start (&oauth);
  oauth.browser = AGENT_TEST_BROWSER_OTHER_CODE;
  error = failed_connection (&oauth);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_cmpstr (oauth.last_token_error, ==,
                   "code_verifier does not match the code_challenge");
  where = g_strdup_printf ("token endpoint at %s/token: HTTP 400: invalid_grant", oauth.issuer);
  agent_test_assert_contains (error->message, where);
  g_assert_cmpuint (oauth.n_codes_redeemed, ==, 0);
  agent_test_oauth_stop (&oauth);
}

/* The user refuses */
static void
test_denied (void)
{
  AgentTestOAuth oauth;
  g_autoptr(GError) error = NULL;

  agent_test_oauth_start (&oauth);
  oauth.browser = AGENT_TEST_BROWSER_DENY;
  error = failed_connection (&oauth);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  agent_test_assert_contains (error->message, "access_denied");
  agent_test_wait_for (&oauth.browsed);
  agent_test_assert_contains (oauth.page, "Authorization failed");
  agent_test_oauth_stop (&oauth);
}

/* An authorization server without S256 is not used */
static void
test_no_s256 (void)
{
  AgentTestOAuth oauth;
  g_autoptr(GError) error = NULL;

  agent_test_oauth_start (&oauth);
  oauth.no_s256 = TRUE;
  error = failed_connection (&oauth);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  agent_test_assert_contains (error->message, "S256");
  agent_test_assert_contains (error->message, oauth.issuer);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 0);
  g_assert_cmpuint (oauth.n_registrations, ==, 0);
  agent_test_oauth_stop (&oauth);
}

/* The step that failed, and where */
static void
test_no_metadata (void)
{
  AgentTestOAuth oauth;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = NULL;

  agent_test_oauth_start (&oauth);
  oauth.no_metadata = TRUE;
  error = failed_connection (&oauth);
  where = g_strdup_printf ("MCP server “protected”: authorization server metadata at "
                           "%s/.well-known/oauth-authorization-server: HTTP 404", oauth.issuer);
  agent_test_assert_contains (error->message, where);
  agent_test_oauth_stop (&oauth);
}

static void
cancel_cb (AgentMcpClient *client,
           const char     *uri,
           AgentTestOAuth *oauth)
{
  g_ptr_array_add (oauth->authorize_uris, g_strdup (uri));
  agent_mcp_client_cancel_authorization (client);
}

/* The application gives up waiting for the user */
static void
test_cancel (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  agent_test_oauth_start (&oauth);
  client = agent_mcp_client_new_http ("protected", oauth.mcp_url);
  g_signal_connect (client, "authorize", G_CALLBACK (cancel_cb), &oauth);
  error = agent_test_mcp_connect_error (client);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (oauth.authorize_uris->len, ==, 1);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_FAILED);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

typedef struct
{
  AgentTestOAuth *oauth;
  char           *uri;
} LateBrowse;

static gboolean
browse_late_cb (gpointer data)
{
  LateBrowse *late = data;

  agent_test_oauth_browse (late->oauth, late->uri);
  g_free (late->uri);
  g_free (late);
  return G_SOURCE_REMOVE;
}

/* The user takes longer than the handshake's time limit */
static void
slow_user_cb (AgentMcpClient *client,
              const char     *uri,
              AgentTestOAuth *oauth)
{
  LateBrowse *late = g_new0 (LateBrowse, 1);

  late->oauth = oauth;
  late->uri = g_strdup (uri);
  g_ptr_array_add (oauth->authorize_uris, g_strdup (uri));
  g_timeout_add_seconds (4, browse_late_cb, late);
}

/* The time the user takes in the browser is not the server's */
static void
test_slow_user (void)
{
  AgentTestOAuth oauth;
  g_autoptr(AgentMcpClient) client = NULL;

  agent_test_oauth_start (&oauth);
  client = agent_mcp_client_new_http ("protected", oauth.mcp_url);
  agent_mcp_client_set_timeout (client, 2);
  g_signal_connect (client, "authorize", G_CALLBACK (slow_user_cb), &oauth);
  agent_test_mcp_connect (client);
  call_whoami (client, "signed in, call 1");
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);

  sign_out (client);
  agent_test_mcp_close (client);
  agent_test_oauth_stop (&oauth);
}

#define ASKED "Open this URL to authorize protected: "

static gboolean
cli_asked (gpointer data)
{
  AgentTestProcess *cli = data;

  return strstr (cli->err->str, ASKED) != NULL || agent_test_process_is_finished (cli);
}

static char *
asked_url (AgentTestProcess *cli)
{
  const char *start = strstr (cli->err->str, ASKED);
  const char *end;

  g_assert_nonnull (start);
  start += strlen (ASKED);
  end = strchr (start, '\n');
  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

static AgentTestProcess *
cli_spawn (const char * const *args)
{
  const char *program = agent_test_find_program ("AGENT_CLI", "cli", "agent-cli");

  /* No display: the URL is printed, no browser started */
  return agent_test_process_spawn (program, AGENT_TEST_ARGS ("DISPLAY", "WAYLAND_DISPLAY"), NULL,
                                   AGENT_TEST_PROCESS_DEFAULT, args);
}

/* :authorization follows the client: what the application shows */
typedef struct
{
  AgentTestOAuth *oauth;
  GArray         *seen;     /* of AgentMcpAuthorization, each change */
  int             at_signal;
  gboolean        cancel;
} States;

static void
authorization_cb (AgentMcpClient *client,
                  GParamSpec     *pspec,
                  States         *states)
{
  AgentMcpAuthorization value = agent_mcp_client_get_authorization (client);

  g_array_append_val (states->seen, value);
}

static void
states_authorize_cb (AgentMcpClient *client,
                     const char     *uri,
                     States         *states)
{
  /* Said before the signal, so that its handler can show it */
  states->at_signal = agent_mcp_client_get_authorization (client);
  if (states->cancel)
    agent_mcp_client_cancel_authorization (client);
  else
    agent_test_oauth_authorize_cb (G_OBJECT (client), uri, states->oauth);
}

static AgentMcpClient *
states_client_new (States *states)
{
  AgentMcpClient *client = agent_mcp_client_new_http ("protected", states->oauth->mcp_url);

  g_array_set_size (states->seen, 0);
  states->at_signal = -1;
  g_signal_connect (client, "notify::authorization", G_CALLBACK (authorization_cb), states);
  g_signal_connect (client, "authorize", G_CALLBACK (states_authorize_cb), states);
  return client;
}

static void
assert_seen (States                      *states,
             const AgentMcpAuthorization *expected,
             guint                        n)
{
  g_assert_cmpuint (states->seen->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (g_array_index (states->seen, AgentMcpAuthorization, i), ==, expected[i]);
}

static void
test_authorization_state (void)
{
  AgentTestOAuth oauth;
  States states = { &oauth, g_array_new (FALSE, FALSE, sizeof (AgentMcpAuthorization)), -1 };
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(AgentMcpClient) again = NULL;
  g_autoptr(AgentMcpClient) cancelled = NULL;
  g_autoptr(GError) error = NULL;

  agent_test_oauth_start (&oauth);

  /* Asked, then authorized */
  client = states_client_new (&states);
  g_assert_cmpint (agent_mcp_client_get_authorization (client), ==,
                   AGENT_MCP_AUTHORIZATION_NONE);
  agent_test_mcp_connect (client);
  g_assert_cmpint (states.at_signal, ==, AGENT_MCP_AUTHORIZATION_REQUIRED);
  assert_seen (&states, (AgentMcpAuthorization[]) { AGENT_MCP_AUTHORIZATION_REQUIRED,
                                                    AGENT_MCP_AUTHORIZATION_AUTHORIZED }, 2);
  agent_test_mcp_close (client);

  /* From the keyring: authorized without asking; signed out: none */
  again = states_client_new (&states);
  agent_test_mcp_connect (again);
  g_assert_cmpint (states.at_signal, ==, -1);
  assert_seen (&states, (AgentMcpAuthorization[]) { AGENT_MCP_AUTHORIZATION_AUTHORIZED }, 1);
  sign_out (again);
  assert_seen (&states, (AgentMcpAuthorization[]) { AGENT_MCP_AUTHORIZATION_AUTHORIZED,
                                                    AGENT_MCP_AUTHORIZATION_NONE }, 2);
  g_assert_cmpint (agent_mcp_client_get_authorization (again), ==,
                   AGENT_MCP_AUTHORIZATION_NONE);
  agent_test_mcp_close (again);

  /* Asked, and the application gave up: not signed in */
  states.cancel = TRUE;
  cancelled = states_client_new (&states);
  error = agent_test_mcp_connect_error (cancelled);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_seen (&states, (AgentMcpAuthorization[]) { AGENT_MCP_AUTHORIZATION_REQUIRED,
                                                    AGENT_MCP_AUTHORIZATION_NONE }, 2);
  agent_test_mcp_close (cancelled);

  g_array_unref (states.seen);
  agent_test_oauth_stop (&oauth);
}

/* agent-cli --mcp-config: the URL on stderr, the tools once authorized;
 * the keyring's tokens the next time; --mcp-sign-out; Ctrl-C while it
 * waits */
static void
test_cli (void)
{
  AgentTestOAuth oauth;
  g_autofree char *dir = agent_test_make_dir ("test-mcp-auth");
  g_autofree char *config = NULL;
  g_autofree char *json = NULL;
  g_autofree char *url = NULL;
  AgentTestProcess *cli;

  agent_test_oauth_start (&oauth);
  json = g_strdup_printf ("{\"mcpServers\":{\"protected\":{\"url\":\"%s\"}}}", oauth.mcp_url);
  config = agent_test_write_file (dir, "mcp.json", json, -1);

  /* The first time: the user signs in */
  cli = cli_spawn (AGENT_TEST_ARGS ("--mcp-config", config, "--list-tools"));
  agent_test_wait_until (cli_asked, cli);
  url = asked_url (cli);
  g_assert_true (g_str_has_prefix (url, oauth.issuer));
  agent_test_oauth_browse (&oauth, url);
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "\nwhoami\n");
  agent_test_oauth_assert_clean (&oauth, cli->out->str, "agent-cli's output");
  agent_test_oauth_assert_clean (&oauth, cli->err->str, "agent-cli's errors");
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  agent_test_process_free (cli);

  /* Then: the keyring */
  cli = cli_spawn (AGENT_TEST_ARGS ("--mcp-config", config, "--list-tools"));
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "\nwhoami\n");
  g_assert_null (strstr (cli->err->str, ASKED));
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  agent_test_process_free (cli);

  /* Signed out */
  cli = cli_spawn (AGENT_TEST_ARGS ("--mcp-config", config, "--mcp-sign-out", "protected"));
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->err->str, "Signed out of the MCP server “protected”");
  agent_test_process_free (cli);

  /* So it asks again, and Ctrl-C stops the wait */
  cli = cli_spawn (AGENT_TEST_ARGS ("--mcp-config", config, "--list-tools"));
  agent_test_wait_until (cli_asked, cli);
  g_assert_nonnull (strstr (cli->err->str, ASKED));
  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 130);
  g_assert_cmpuint (oauth.n_authorizations, ==, 1);
  agent_test_process_free (cli);

  assert_no_leak (&oauth, NULL);
  agent_test_remove_dir (dir);
  agent_test_oauth_stop (&oauth);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Everything MCP does, logged, to be searched for secrets */
  g_setenv ("AGENT_DEBUG", "mcp", TRUE);
  logged = g_string_new (NULL);
  g_log_set_writer_func (log_writer, NULL, NULL);
  g_test_init (&argc, &argv, NULL);
  agent_test_keyring_start (&service);

  g_test_add_func ("/mcp/auth/authorize", test_authorize);
  g_test_add_func ("/mcp/auth/expired", test_expired);
  g_test_add_func ("/mcp/auth/refused", test_refused);
  g_test_add_func ("/mcp/auth/refresh-revoked", test_refresh_revoked);
  g_test_add_func ("/mcp/auth/insufficient-scope", test_insufficient_scope);
  g_test_add_func ("/mcp/auth/wrong-state", test_wrong_state);
  g_test_add_func ("/mcp/auth/pkce", test_pkce);
  g_test_add_func ("/mcp/auth/denied", test_denied);
  g_test_add_func ("/mcp/auth/no-s256", test_no_s256);
  g_test_add_func ("/mcp/auth/no-metadata", test_no_metadata);
  g_test_add_func ("/mcp/auth/cancel", test_cancel);
  g_test_add_func ("/mcp/auth/slow-user", test_slow_user);
  g_test_add_func ("/mcp/auth/authorization-state", test_authorization_state);
  g_test_add_func ("/mcp/auth/cli", test_cli);

  status = g_test_run ();
  agent_test_keyring_stop (&service);
  g_string_free (logged, TRUE);
  return status;
}
