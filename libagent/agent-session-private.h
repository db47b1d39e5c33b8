/* agent-session-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-session.h"

G_BEGIN_DECLS

typedef struct _AgentTurn AgentTurn;

struct _AgentSession
{
  GObject        parent_instance;
  AgentProvider *provider;
  AgentMemory   *memory;
  GListStore    *tools;
  char          *system_prompt;
  AgentUsage    *usage;
  AgentMetrics  *turn_metrics;
  AgentMessage  *current_message;
  GObject       *transcript;  /* an AgentTranscript, made when asked for */
  AgentTurn     *turn;
  double         tool_timeout;
  double         step_timeout;
  double         turn_timeout;
  guint          max_steps;
  guint          max_tool_calls;
  guint          stream_tool_call_chunks : 1;
};

typedef enum
{
  AGENT_SESSION_TEXT_DELTA,
  AGENT_SESSION_REASONING_DELTA,
  AGENT_SESSION_TOOL_CALL_DELTA,
  AGENT_SESSION_TOOL_CALL,
  AGENT_SESSION_TOOL_STARTED,
  AGENT_SESSION_TOOL_FINISHED,
  AGENT_SESSION_STEP_FINISHED,
  AGENT_SESSION_COMPLETED,
  AGENT_SESSION_CHECK_INPUT,
  AGENT_SESSION_PREPARE_STEP,
  AGENT_SESSION_CHECK_TOOL_CALL,
  AGENT_SESSION_APPROVE_TOOL_CALL,
  AGENT_SESSION_FILTER_TOOL_RESULT,
  AGENT_SESSION_TOOL_PROGRESS,
  AGENT_SESSION_TURN_FINISHED,
  AGENT_SESSION_RETRY,
  AGENT_SESSION_N_SIGNALS
} AgentSessionSignal;

extern guint _agent_session_signals[AGENT_SESSION_N_SIGNALS];

#define _agent_session_emit(session, signal, ...) \
  g_signal_emit (session, _agent_session_signals[AGENT_SESSION_##signal], 0, __VA_ARGS__)

#define _agent_session_has_handler(session, signal) \
  g_signal_has_handler_pending (session, _agent_session_signals[AGENT_SESSION_##signal], 0, FALSE)

void _agent_session_set_turn            (AgentSession *self,
                                         AgentTurn    *turn);
void _agent_session_set_current_message (AgentSession *self,
                                         AgentMessage *message);
void _agent_session_set_usage           (AgentSession *self,
                                         AgentUsage   *usage);
void _agent_session_set_turn_metrics    (AgentSession *self,
                                         AgentMetrics *metrics);

void _agent_session_class_add_signals   (AgentSessionClass *klass);

G_END_DECLS
