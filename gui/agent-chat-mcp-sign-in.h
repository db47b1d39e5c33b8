/* agent-chat-mcp-sign-in.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <agent.h>

G_BEGIN_DECLS

/**
 * AgentChatMcpSignInPhase:
 * @AGENT_CHAT_MCP_SIGN_IN_NONE: the server asked for no sign-in
 * @AGENT_CHAT_MCP_SIGN_IN_REQUIRED: the server wants the user to sign in
 *   (it refused the app, the user signed out or cancelled)
 * @AGENT_CHAT_MCP_SIGN_IN_WAITING: the browser was opened: the app waits
 *   for the user to come back from it
 * @AGENT_CHAT_MCP_SIGN_IN_SIGNED_IN: the app holds the server's tokens
 * @AGENT_CHAT_MCP_SIGN_IN_FAILED: signing in failed; the error says at
 *   which step
 */
typedef enum
{
  AGENT_CHAT_MCP_SIGN_IN_NONE,
  AGENT_CHAT_MCP_SIGN_IN_REQUIRED,
  AGENT_CHAT_MCP_SIGN_IN_WAITING,
  AGENT_CHAT_MCP_SIGN_IN_SIGNED_IN,
  AGENT_CHAT_MCP_SIGN_IN_FAILED,
} AgentChatMcpSignInPhase;

#define AGENT_CHAT_TYPE_MCP_SIGN_IN (agent_chat_mcp_sign_in_get_type ())

G_DECLARE_FINAL_TYPE (AgentChatMcpSignIn, agent_chat_mcp_sign_in, AGENT_CHAT, MCP_SIGN_IN,
                      GObject)

AgentChatMcpSignIn      *agent_chat_mcp_sign_in_new       (AgentMcpClient     *client);
AgentMcpClient          *agent_chat_mcp_sign_in_get_client (AgentChatMcpSignIn *self);
AgentChatMcpSignInPhase  agent_chat_mcp_sign_in_get_phase (AgentChatMcpSignIn *self);
const char              *agent_chat_mcp_sign_in_get_message (AgentChatMcpSignIn *self);
void                     agent_chat_mcp_sign_in_start     (AgentChatMcpSignIn *self,
                                                           GtkWindow          *parent);
void                     agent_chat_mcp_sign_in_cancel    (AgentChatMcpSignIn *self);
void                     agent_chat_mcp_sign_in_sign_out  (AgentChatMcpSignIn *self);

G_END_DECLS
