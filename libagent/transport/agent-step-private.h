/* agent-step-private.h
 *
 * One model request of a turn: send it (trying again after a connection
 * error or a retryable HTTP status, before any of the answer arrived),
 * stream the answer through the provider's decoder into an accumulator,
 * and finish when the answer is whole, failed, or a time limit was hit.
 *
 * The turn uses the functions of the first part. The second is the
 * step's state, shared by agent-step.c (the request: sending, time
 * limits, retries, ending) and agent-step-read.c (reading the answer).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-provider-private.h"
#include "wire/agent-accumulator-private.h"
#include "wire/agent-stream-decoder-private.h"

G_BEGIN_DECLS

typedef struct _AgentStep AgentStep;

/* Told before the request is tried again, after @delay seconds. */
typedef void (*AgentStepRetryFunc) (gpointer      user_data,
                                    guint         attempt,
                                    double        delay,
                                    const GError *error);

AgentStep    *agent_step_new          (AgentProvider                  *provider,
                                       AgentRequestSettings           *settings,
                                       const AgentAccumulatorListener *listener,
                                       gpointer                        user_data);
AgentStep    *agent_step_ref          (AgentStep                      *self);
void          agent_step_unref        (AgentStep                      *self);
AgentMessage *agent_step_get_message  (AgentStep                      *self);
gint64        agent_step_get_read_time (AgentStep                     *self);
void          agent_step_set_timeout  (AgentStep                      *self,
                                       double                          seconds);
void          agent_step_set_max_request_size (AgentStep              *self,
                                               guint64                 max_size);
void          agent_step_set_retry_func (AgentStep                    *self,
                                         AgentStepRetryFunc            func,
                                         gpointer                      user_data);
void          agent_step_get_timing   (AgentStep                      *self,
                                       gint64                         *wait_time,
                                       gint64                         *sent_at);
void          agent_step_run_async    (AgentStep                      *self,
                                       const AgentRequest             *request,
                                       GCancellable                   *cancellable,
                                       GAsyncReadyCallback             callback,
                                       gpointer                        user_data);
gboolean      agent_step_run_finish   (AgentStep                      *self,
                                       GAsyncResult                   *result,
                                       GError                        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentStep, agent_step_unref)

/* The step's state: agent-step.c and agent-step-read.c only */

#define READ_BUFFER_SIZE   (64 * 1024)
#define MAX_SNIFF          (4 * 1024)

/* What a timer is waiting for */
typedef enum
{
  PHASE_NONE,
  PHASE_CONNECT,       /* until the request's headers are written */
  PHASE_UPLOAD,        /* between two writes of the request's body */
  PHASE_FIRST_BYTE,    /* until the answer's headers */
  PHASE_IDLE,          /* between two reads of the body */
} Phase;

struct _AgentStep
{
  AgentProvider       *provider;
  AgentAccumulator    *accumulator;
  AgentStreamDecoder  *decoder;
  AgentStepRetryFunc   retry_func;
  gpointer             retry_data;
  /* What the request carries that nobody else may see (the API key, …),
   * as it was when the step began: redacted from errors and logs */
  char               **secrets;
  GString             *debug_held;   /* AGENT_DEBUG=http: see _agent_debug_data() */

  /* The request, kept for retries */
  GUri                *uri;
  SoupMessageHeaders  *request_headers;
  GBytes              *body;

  SoupMessage         *message;      /* this attempt's */
  GInputStream        *stream;
  GSource             *source;       /* readable body */
  GTask               *task;
  struct _AgentStepRemote *remote;  /* a step run by the desktop service: agent-step-remote.c */

  /* Our own cancellable: cancelled by the turn's, by the provider's (when
   * it is disposed), or by a time limit */
  GCancellable        *cancellable;
  GCancellable        *turn_cancellable;
  gulong               turn_cancelled_id;
  GCancellable        *provider_cancellable;
  gulong               provider_cancelled_id;

  GSource             *timer;        /* the limit of the current phase */
  gint64               last_byte;    /* monotonic µs: when a byte last came or went
                                      * (idle and upload phases) */
  GSource             *step_timer;
  GSource             *retry_timer;
  GSource             *retry_cancel;
  GSource             *tail_timer;   /* the end of a whole answer's body */
  Phase                phase;
  double               step_timeout;
  guint64              max_request_size;
  GError              *timeout_error; /* set when a limit was hit */

  GByteArray          *error_body;
  GByteArray          *sniff;        /* the start of the body, for diagnostics */
  guint8              *buffer;
  guint64              body_size;
  gint64               queued_at;    /* monotonic µs: when the step asked for a slot */
  gint64               sent_at;      /* when the request went out */
  gint64               trace_request; /* Sysprof: this attempt's begin, 0: not traced */
  guint                attempt;
  guint                holds_slot : 1;
  guint                new_connection : 1;   /* this attempt opened one */
  guint                force_new_connection : 1;
  guint                body_complete : 1;    /* read to its end: the connection can be kept */
  guint                in_read_source : 1;   /* its read source is being dispatched */
};

/* agent-step.c */
void    _agent_step_return_error    (AgentStep    *self,
                                     GError       *error);
void    _agent_step_return_success  (AgentStep    *self);
void    _agent_step_retry_or_fail   (AgentStep    *self,
                                     GError       *error,
                                     gint64        retry_after);

/* agent-step-read.c */
GError *_agent_step_network_error   (AgentStep    *self,
                                     const GError *error,
                                     gboolean      streaming);
void    _agent_step_read_body       (AgentStep    *self);
void    _agent_step_read_error_body (AgentStep    *self);
void    _agent_step_release_stream  (AgentStep    *self);

G_END_DECLS
