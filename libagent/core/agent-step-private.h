/* agent-step-private.h
 *
 * The state of an AgentStep, shared by agent-step.c (the request: sending,
 * time limits, retries, ending) and agent-step-read.c (reading the answer).
 * Private to those two files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-step.h"
#include "wire/agent-stream-decoder-private.h"

G_BEGIN_DECLS

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
  guint                attempt;
  guint                holds_slot : 1;
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

G_END_DECLS
