/* agent-test-turn.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-turn.h"
#include "agent-test-util.h"

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AgentTestTurn *self = user_data;

  self->result = agent_session_send_finish (AGENT_SESSION (object), result, &self->error);
  self->finished = TRUE;
}

/* Starts a turn; the outcome of the last one, if any, is dropped. */
void
agent_test_turn_send (AgentTestTurn *self,
                      AgentSession  *session,
                      const char    *text,
                      GCancellable  *cancellable)
{
  agent_test_turn_clear (self);
  agent_session_send_async (session, text, cancellable, send_cb, self);
}

/* Runs the main loop until the turn finished. */
void
agent_test_turn_wait (AgentTestTurn *self)
{
  agent_test_wait_for (&self->finished);
}

void
agent_test_turn_run (AgentTestTurn *self,
                     AgentSession  *session,
                     const char    *text,
                     GCancellable  *cancellable)
{
  agent_test_turn_send (self, session, text, cancellable);
  agent_test_turn_wait (self);
}

static void
send_message_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  AgentTestTurn *self = user_data;

  self->result = agent_session_send_message_finish (AGENT_SESSION (object), result, &self->error);
  self->finished = TRUE;
}

/* A turn of @message (with its parts), run to its end */
void
agent_test_turn_run_message (AgentTestTurn *self,
                             AgentSession  *session,
                             AgentMessage  *message)
{
  agent_test_turn_clear (self);
  agent_session_send_message_async (session, message, NULL, send_message_cb, self);
  agent_test_turn_wait (self);
}

void
agent_test_turn_clear (AgentTestTurn *self)
{
  g_clear_object (&self->result);
  g_clear_error (&self->error);
  self->finished = FALSE;
}

gboolean
agent_test_approve_all_cb (AgentSession      *session,
                           AgentToolCall     *call,
                           AgentToolApproval *approval,
                           gpointer           user_data)
{
  agent_tool_approval_allow (approval);
  return TRUE;
}
