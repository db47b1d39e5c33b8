/* agent-turn-private.h
 *
 * One turn of a session: the user's message, then steps (one model request
 * each) and, between them, the tools the model asked for, until the model
 * answers without tools. agent-turn.c runs the steps; agent-turn-tools.c
 * the tools.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "json/agent-partial-json.h"
#include "messages/agent-metrics-private.h"
#include "core/agent-session-private.h"
#include "transport/agent-step-private.h"

G_BEGIN_DECLS

struct _AgentTurn
{
  AgentSession  *session;
  GTask         *task;
  GCancellable  *cancellable;      /* the turn's own: the caller's cancels it, so does turn-timeout */
  GCancellable  *caller_cancellable;
  gulong         caller_cancelled_id;
  GSource       *timer;            /* turn-timeout */
  GError        *stop_error;       /* the limit that stopped the turn (cancelling it) */
  AgentStep     *step;
  gint64         started_at;       /* monotonic µs */
  gint64         trace_turn;       /* Sysprof: the turn's and the step's begin, 0: not traced */
  gint64         trace_step;

  /* The step running: when its first and last deltas came */
  gint64         first_delta_at;
  gint64         last_delta_at;
  gint64         step_started_at;
  GSource       *stall_timer;      /* stall-timeout */
  guint64        step_size;        /* the bytes of its deltas */
  gint64         context_request;  /* its request's estimate in tokens, -1: none */
  gint64         context_noted_at; /* when context-used last followed it */

  /* max-turn-size: the messages from first_new on are the turn's, and
   * were size bytes before the step running */
  guint          first_new;
  guint64        size;

  /* Summed over the steps so far */
  AgentMetrics   totals;           /* usage NULL until a step reports it */

  /* While the tools of a step run */
  AgentMessage  *assistant;        /* the step's message, with its calls */
  GPtrArray     *calls;            /* CallRun, in call order */
  GSource       *cancel_source;
  guint          n_pending;
  guint          n_runs;           /* tools that ran (or run) in this turn */
  guint          starting_tools : 1;
  guint          limit_reached : 1;

  /* agent-turn-capabilities.c: what the model can do (0: unknown) */
  guint          capabilities;
  guint          told_no_tools : 1;

  /* agent-turn-context.c: the view sent when a context policy is set */
  GListStore    *view;
  GError        *context_error;    /* the refusal being answered by compacting */
  guint          context_retried : 1;  /* once per turn */
  guint          summarized : 1;       /* once per step */
  /* Structured output (agent-turn-output.c): NULL schema for prose */
  JsonNode         *output_schema;
  char             *output_name;
  AgentPartialJson *partial;        /* the step's object as it streams */
  JsonNode         *object;         /* the last answer's, once checked */
  guint             output_by_tool : 1;
};

AgentTurn *_agent_turn_new           (AgentSession *session,
                                      GTask        *task,
                                      GCancellable *cancellable);
void       _agent_turn_free          (AgentTurn    *turn);
void       _agent_turn_start         (AgentTurn    *turn,
                                      const char   *text,
                                      AgentMessage *message);
void       _agent_turn_cancel        (AgentTurn    *turn);

/* agent-turn-capabilities.c: asks (once per model) what the model can do,
 * refuses images a model cannot see, then starts the turn; before each
 * request, leaves out what the model cannot take */
void       _agent_turn_check_model   (AgentTurn    *turn,
                                      const char   *text,
                                      AgentMessage *message);
void       _agent_turn_gate_request  (AgentTurn    *turn,
                                      AgentRequest *request);

/* Shared by the two halves of the loop */
gboolean   _agent_turn_append        (AgentTurn    *turn,
                                      AgentMessage *message);
void       _agent_turn_fail          (AgentTurn    *turn,
                                      GError       *error);
void       _agent_turn_complete      (AgentTurn    *turn,
                                      AgentMessage *message);
void       _agent_turn_next_step     (AgentTurn    *turn);
void       _agent_turn_run_tools     (AgentTurn    *turn,
                                      AgentMessage *assistant);
void       _agent_turn_stop_tools    (AgentTurn    *turn);

extern const AgentAccumulatorListener _agent_turn_listener;

/* agent-turn-parts.c: FALSE when every attachment is ready; else they
 * are made ready on a thread, and @callback called (with @turn) after */
gboolean   _agent_turn_prepare_parts (AgentTurn           *turn,
                                      GAsyncReadyCallback  callback);

/* agent-turn-context.c */
gboolean   _agent_turn_prepare_view  (AgentTurn    *turn);
void       _agent_turn_context_streamed (AgentTurn *turn,
                                         gint64     now);
gboolean   _agent_turn_context_retry (AgentTurn    *turn,
                                      AgentMessage *message,
                                      GError       *error);

/* agent-turn-output.c */
void       _agent_turn_output_start      (AgentTurn     *turn,
                                          JsonNode      *schema);
void       _agent_turn_output_clear      (AgentTurn     *turn);
void       _agent_turn_output_prepare    (AgentTurn     *turn,
                                          AgentRequest  *request);
void       _agent_turn_output_text_delta (AgentTurn     *turn,
                                          AgentMessage  *message,
                                          const char    *text,
                                          gsize          len);
void       _agent_turn_output_call_delta (AgentTurn     *turn,
                                          AgentMessage  *message,
                                          AgentToolCall *call,
                                          const char    *fragment,
                                          gsize          len);
void       _agent_turn_output_flush      (AgentTurn     *turn,
                                          AgentMessage  *message);
void       _agent_turn_output_take_call  (AgentTurn     *turn,
                                          AgentMessage  *message);
gboolean   _agent_turn_check_output      (AgentTurn     *turn,
                                          AgentMessage  *message,
                                          GError       **error);
GError    *_agent_turn_output_finish     (AgentTurn     *turn,
                                          AgentMessage  *message);
GError    *_agent_turn_output_explain    (AgentTurn     *turn,
                                          GError        *error);

G_END_DECLS
