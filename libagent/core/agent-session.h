/* agent-session.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-context-policy.h"
#include "agent-memory.h"
#include "agent-message.h"
#include "agent-metrics.h"
#include "agent-provider.h"
#include "agent-request-settings.h"
#include "agent-tool.h"
#include "agent-usage.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_SESSION (agent_session_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentSession, agent_session, AGENT, SESSION, GObject)

AGENT_AVAILABLE_IN_ALL
AgentSession  *agent_session_new                           (AgentProvider        *provider) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentProvider *agent_session_get_provider                  (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
AgentMemory   *agent_session_get_memory                    (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_memory                    (AgentSession         *self,
                                                            AgentMemory          *memory);
AGENT_AVAILABLE_IN_ALL
const char    *agent_session_get_system_prompt             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_system_prompt             (AgentSession         *self,
                                                            const char           *system_prompt);
AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_session_get_settings           (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
gboolean       agent_session_get_stream_tool_call_chunks   (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_stream_tool_call_chunks   (AgentSession         *self,
                                                            gboolean              stream_tool_call_chunks);
AGENT_AVAILABLE_IN_ALL
guint          agent_session_get_max_steps                 (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_max_steps                 (AgentSession         *self,
                                                            guint                 max_steps);
AGENT_AVAILABLE_IN_ALL
guint          agent_session_get_max_tool_calls            (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_max_tool_calls            (AgentSession         *self,
                                                            guint                 max_tool_calls);
AGENT_AVAILABLE_IN_ALL
double         agent_session_get_tool_timeout              (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_tool_timeout              (AgentSession         *self,
                                                            double                tool_timeout);
AGENT_AVAILABLE_IN_ALL
double         agent_session_get_step_timeout              (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_step_timeout              (AgentSession         *self,
                                                            double                step_timeout);
AGENT_AVAILABLE_IN_ALL
double         agent_session_get_turn_timeout              (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_turn_timeout              (AgentSession         *self,
                                                            double                turn_timeout);
AGENT_AVAILABLE_IN_ALL
double         agent_session_get_stall_timeout             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_stall_timeout             (AgentSession         *self,
                                                            double                stall_timeout);
AGENT_AVAILABLE_IN_ALL
guint64        agent_session_get_max_request_size          (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_max_request_size          (AgentSession         *self,
                                                            guint64               max_request_size);
AGENT_AVAILABLE_IN_ALL
guint64        agent_session_get_max_turn_size             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_max_turn_size             (AgentSession         *self,
                                                            guint64               max_turn_size);
AGENT_AVAILABLE_IN_ALL
AgentMetrics  *agent_session_get_turn_metrics              (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
gboolean       agent_session_get_busy                      (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
AgentMessage  *agent_session_get_current_message           (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
GListModel    *agent_session_get_transcript                (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
AgentUsage    *agent_session_get_usage                     (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
GListModel    *agent_session_get_tools                     (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_add_tool                      (AgentSession         *self,
                                                            AgentTool            *tool);
AGENT_AVAILABLE_IN_ALL
gboolean       agent_session_remove_tool                   (AgentSession         *self,
                                                            AgentTool            *tool);
AGENT_AVAILABLE_IN_ALL
AgentTool     *agent_session_lookup_tool                   (AgentSession         *self,
                                                            const char           *name);
AGENT_AVAILABLE_IN_ALL
gboolean       agent_session_get_validate_tool_arguments   (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_validate_tool_arguments   (AgentSession         *self,
                                                            gboolean              validate);
AGENT_AVAILABLE_IN_ALL
void           agent_session_send_async                    (AgentSession         *self,
                                                            const char           *text,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentMessage  *agent_session_send_finish                   (AgentSession         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void           agent_session_send_message_async            (AgentSession         *self,
                                                            AgentMessage         *message,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentMessage  *agent_session_send_message_finish           (AgentSession         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
JsonNode      *agent_session_get_output_schema             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void           agent_session_set_output_schema             (AgentSession         *self,
                                                            JsonNode             *schema);
AGENT_AVAILABLE_IN_ALL
void           agent_session_send_for_object_async         (AgentSession         *self,
                                                            const char           *text,
                                                            JsonNode             *schema,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
JsonNode      *agent_session_send_for_object_finish        (AgentSession         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void           agent_session_continue_async                (AgentSession         *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentMessage  *agent_session_continue_finish               (AgentSession         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContextPolicy *agent_session_get_context_policy             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void                agent_session_set_context_policy             (AgentSession         *self,
                                                                  AgentContextPolicy   *policy);
AGENT_AVAILABLE_IN_ALL
guint64             agent_session_get_context_window             (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void                agent_session_set_context_window             (AgentSession         *self,
                                                                  guint64               tokens);
AGENT_AVAILABLE_IN_ALL
gint64              agent_session_get_context_used               (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_session_get_context_estimated          (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void                agent_session_estimate_context_used          (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
double              agent_session_get_context_pressure_threshold (AgentSession         *self);
AGENT_AVAILABLE_IN_ALL
void                agent_session_set_context_pressure_threshold (AgentSession         *self,
                                                                  double                fraction);

G_END_DECLS
