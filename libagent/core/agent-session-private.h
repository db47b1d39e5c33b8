/* agent-session-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-session.h"
#include "agent-util-private.h"

G_BEGIN_DECLS

typedef struct _AgentTurn AgentTurn;

struct _AgentSession
{
  GObject        parent_instance;
  AgentProvider *provider;
  AgentMemory   *memory;
  GListStore    *tools;
  GHashTable    *tool_names;  /* name → tool of tools, made with the first */
  char          *system_prompt;
  AgentUsage    *usage;
  AgentMetrics  *turn_metrics;
  AgentMessage  *current_message;
  GObject       *transcript;  /* an AgentTranscript, made when asked for */
  AgentTurn     *turn;
  double         tool_timeout;
  double         step_timeout;
  double         turn_timeout;
  double         stall_timeout;
  guint64        max_request_size;
  guint64        max_turn_size;
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

void     _agent_session_emit        (AgentSession       *self,
                                     AgentSessionSignal  signal,
                                     ...);
gboolean _agent_session_has_handler (AgentSession       *self,
                                     AgentSessionSignal  signal);

void _agent_session_set_turn            (AgentSession *self,
                                         AgentTurn    *turn);
void _agent_session_set_current_message (AgentSession *self,
                                         AgentMessage *message);
void _agent_session_set_usage           (AgentSession *self,
                                         AgentUsage   *usage);
void _agent_session_set_turn_metrics    (AgentSession *self,
                                         AgentMetrics *metrics);

/* agent-session-limits.c: max-request-size, max-turn-size, stall-timeout */
#define AGENT_SESSION_DEFAULT_MAX_REQUEST_SIZE (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define AGENT_SESSION_DEFAULT_MAX_TURN_SIZE    (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define AGENT_SESSION_DEFAULT_STALL_TIMEOUT    600.0

void     _agent_session_init_limits          (AgentSession *self);
void     _agent_session_class_add_limits     (GObjectClass *object_class,
                                              guint         first_prop_id);
gboolean _agent_session_get_limit_property   (AgentSession *self,
                                              guint         prop_id,
                                              GValue       *value);
gboolean _agent_session_set_limit_property   (AgentSession *self,
                                              guint         prop_id,
                                              const GValue *value);

G_END_DECLS
