/* agent-test-oauth-server.c — the tests' OAuth authorization server and the
 * MCP server it protects (agent-test-oauth.c), as a program of its own for
 * agent-chat's end-to-end tests, which drive the real app from Python and
 * play the browser themselves.
 *
 *   agent-test-oauth-server
 *
 * Prints the MCP endpoint's URL (http://127.0.0.1:PORT/mcp) on the first
 * line, then one line for each authorization the user gave and each code
 * redeemed ("authorized N", "redeemed N"), and exits when its standard
 * input reaches end of file. No token is ever printed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>

#include "agent-test-oauth.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestOAuth *oauth;
  guint           n_authorizations;
  guint           n_codes_redeemed;
} Server;

static gboolean
report_cb (gpointer data)
{
  Server *server = data;

  if (server->oauth->n_authorizations != server->n_authorizations)
    {
      server->n_authorizations = server->oauth->n_authorizations;
      g_print ("authorized %u\n", server->n_authorizations);
    }
  if (server->oauth->n_codes_redeemed != server->n_codes_redeemed)
    {
      server->n_codes_redeemed = server->oauth->n_codes_redeemed;
      g_print ("redeemed %u\n", server->n_codes_redeemed);
    }
  fflush (stdout);
  return G_SOURCE_CONTINUE;
}

int
main (int   argc,
      char *argv[])
{
  AgentTestOAuth oauth;
  Server server = { &oauth, 0, 0 };
  guint report;

  agent_test_oauth_start (&oauth);
  g_print ("%s\n", oauth.mcp_url);
  fflush (stdout);

  /* What the servers saw, as it changes (they run on this thread) */
  report = g_timeout_add (50, report_cb, &server);
  agent_test_run_until_stdin_closes ();

  g_source_remove (report);
  agent_test_oauth_stop (&oauth);
  return 0;
}
