/* agent-test-turn.h
 *
 * One turn of an AgentSession, sent with agent_session_send_async() from
 * the main context, and its outcome.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef struct
{
  AgentMessage *result;
  GError       *error;
  gboolean      finished;
} AgentTestTurn;

void agent_test_turn_send  (AgentTestTurn *self,
                            AgentSession  *session,
                            const char    *text,
                            GCancellable  *cancellable);
void agent_test_turn_wait  (AgentTestTurn *self);
void agent_test_turn_run   (AgentTestTurn *self,
                            AgentSession  *session,
                            const char    *text,
                            GCancellable  *cancellable);
void agent_test_turn_run_message (AgentTestTurn *self,
                                  AgentSession  *session,
                                  AgentMessage  *message);
void agent_test_turn_clear (AgentTestTurn *self);

/* An "approve-tool-call" handler that allows every call */
gboolean agent_test_approve_all_cb (AgentSession      *session,
                                    AgentToolCall     *call,
                                    AgentToolApproval *approval,
                                    gpointer           user_data);

G_END_DECLS
