/* agent-test-mcp.h
 *
 * Real MCP servers for the tests: the reference servers from npm
 * (server-everything, server-filesystem), tests/mcp/dynamic-server.mjs,
 * tests/mcp/features-server.mjs and tests/mcp/elicitation-server.mjs,
 * installed in tests/mcp/node_modules by tests/mcp/install, run with
 * node. Helpers drive an AgentMcpClient through the main loop, with a
 * bounded wait.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-process.h"

G_BEGIN_DECLS

/* How long the helpers let a server take (node starts in ~0.5 s). */
#define AGENT_TEST_MCP_WAIT_SECONDS 60

typedef struct
{
  char     *text;
  gboolean  is_error;
  GArray   *progress;     /* of double: the fractions reported */
  GPtrArray *progress_texts;
} AgentTestMcpResult;

/* server-everything started by a shell that writes its pid to a file
 * first, so that a test can kill it when it likes */
typedef struct
{
  char           *dir;
  char           *pid_file;
  AgentMcpClient *client;
} AgentTestMcpKillable;

/* An mcpServers file in a directory of its own */
typedef struct
{
  char *dir;
  char *path;
} AgentTestMcpConfig;

gboolean            agent_test_mcp_init             (int                  *argc,
                                                     char               ***argv);
const char         *agent_test_mcp_dir              (void);
char               *agent_test_mcp_server_path      (const char           *package);
AgentMcpClient     *agent_test_mcp_everything_new   (const char           *name);
AgentMcpClient     *agent_test_mcp_filesystem_new   (const char           *root);
AgentMcpClient     *agent_test_mcp_dynamic_new      (void);
AgentMcpClient     *agent_test_mcp_features_new     (void);
AgentMcpClient     *agent_test_mcp_elicitation_new  (void);
AgentTestProcess   *agent_test_mcp_everything_http  (char                **url);
AgentMcpClient     *agent_test_mcp_hostile_new      (guint                 n_tools);
void                agent_test_mcp_config_init      (AgentTestMcpConfig   *self,
                                                     const char           *dir_prefix,
                                                     const char           *json);
void                agent_test_mcp_config_clear     (AgentTestMcpConfig   *self);

void                agent_test_mcp_connect          (AgentMcpClient       *client);
GError             *agent_test_mcp_connect_error    (AgentMcpClient       *client);
void                agent_test_mcp_close            (AgentMcpClient       *client);
AgentMcpTool       *agent_test_mcp_find_tool        (AgentMcpClient       *client,
                                                     const char           *name);
AgentToolInvocation *agent_test_mcp_invoke          (AgentMcpClient       *client,
                                                     const char           *tool,
                                                     const char           *arguments,
                                                     GCancellable         *cancellable,
                                                     AgentTestMcpResult   *result);
void                agent_test_mcp_wait_invocation  (AgentToolInvocation  *invocation);
void                agent_test_mcp_call             (AgentMcpClient       *client,
                                                     const char           *tool,
                                                     const char           *arguments,
                                                     AgentTestMcpResult   *result);
JsonNode           *agent_test_mcp_call_raw         (AgentMcpClient       *client,
                                                     const char           *tool,
                                                     JsonNode             *arguments);
void                agent_test_mcp_result_clear     (AgentTestMcpResult   *result);
guint16             agent_test_mcp_free_port        (void);

void                agent_test_mcp_killable_init    (AgentTestMcpKillable *self);
GPid                agent_test_mcp_killable_pid     (AgentTestMcpKillable *self);
void                agent_test_mcp_killable_clear   (AgentTestMcpKillable *self);
gboolean            agent_test_mcp_process_is_gone  (gpointer              pid);

G_END_DECLS
