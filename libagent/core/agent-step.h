/* agent-step.h
 *
 * One model request of a turn: send it (trying again after a connection
 * error or a retryable HTTP status, before any of the answer arrived),
 * stream the answer through the provider's decoder into an accumulator,
 * and finish when the answer is whole, failed, or a time limit was hit.
 * Private to libagent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "wire/agent-accumulator-private.h"
#include "core/agent-provider-private.h"

G_BEGIN_DECLS

typedef struct _AgentStep AgentStep;

/* Told before the request is tried again, after @delay seconds. */
typedef void (*AgentStepRetryFunc) (gpointer      user_data,
                                    guint         attempt,
                                    double        delay,
                                    const GError *error);

AgentStep    *agent_step_new          (AgentProvider                  *provider,
                                       const AgentAccumulatorListener *listener,
                                       gpointer                        user_data);
AgentStep    *agent_step_ref          (AgentStep                      *self);
void          agent_step_unref        (AgentStep                      *self);
AgentMessage *agent_step_get_message  (AgentStep                      *self);
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

G_END_DECLS
