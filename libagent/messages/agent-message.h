/* agent-message.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-content-part.h"
#include "agent-metrics.h"
#include "agent-tool-call.h"
#include "agent-usage.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentMessageRole:
 * @AGENT_MESSAGE_ROLE_SYSTEM: instructions for the model
 * @AGENT_MESSAGE_ROLE_USER: what the user wrote
 * @AGENT_MESSAGE_ROLE_ASSISTANT: what the model answered, possibly with tool calls
 * @AGENT_MESSAGE_ROLE_TOOL: the result of one tool call
 *
 * Who wrote an [class@Agent.Message].
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MESSAGE_ROLE_SYSTEM,
  AGENT_MESSAGE_ROLE_USER,
  AGENT_MESSAGE_ROLE_ASSISTANT,
  AGENT_MESSAGE_ROLE_TOOL,
} AgentMessageRole;

/**
 * AgentMessageState:
 * @AGENT_MESSAGE_STATE_COMPLETE: the message is whole
 * @AGENT_MESSAGE_STATE_STREAMING: the model is still writing the message
 * @AGENT_MESSAGE_STATE_INTERRUPTED: the stream stopped early (cancelled, or an
 *   error); the message holds what arrived before that
 *
 * Whether an [class@Agent.Message] is complete.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_MESSAGE_STATE_COMPLETE,
  AGENT_MESSAGE_STATE_STREAMING,
  AGENT_MESSAGE_STATE_INTERRUPTED,
} AgentMessageState;

#define AGENT_TYPE_MESSAGE (agent_message_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentMessage, agent_message, AGENT, MESSAGE, GObject)

AGENT_AVAILABLE_IN_ALL
AgentMessage      *agent_message_new                (AgentMessageRole  role,
                                                     const char       *content) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentMessage      *agent_message_new_tool_result    (const char       *tool_call_id,
                                                     const char       *tool_name,
                                                     const char       *content,
                                                     gboolean          is_error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentMessage      *agent_message_new_summary        (const char       *content,
                                                     guint             start,
                                                     guint             end) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
gboolean           agent_message_is_summary         (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
guint              agent_message_get_summary_start  (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
guint              agent_message_get_summary_end    (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentMessage      *agent_message_new_with_parts     (AgentMessageRole   role,
                                                     AgentContentPart **parts,
                                                     guint              n_parts) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_message_add_part           (AgentMessage     *self,
                                                     AgentContentPart *part);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_message_list_parts         (AgentMessage     *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
guint              agent_message_get_n_attachments  (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentContentPart  *agent_message_get_attachment     (AgentMessage     *self,
                                                     guint             position);
AGENT_AVAILABLE_IN_ALL
AgentMessageRole   agent_message_get_role           (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentMessageState  agent_message_get_state          (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_content        (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const gsize       *agent_message_get_content_breaks (AgentMessage     *self,
                                                     guint            *n_breaks);
AGENT_AVAILABLE_IN_ALL
char             **agent_message_dup_content_items  (AgentMessage     *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_reasoning      (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_refusal        (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_message_get_tool_calls     (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
guint              agent_message_get_n_tool_calls   (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentToolCall     *agent_message_get_tool_call      (AgentMessage     *self,
                                                     guint             position);
AGENT_AVAILABLE_IN_ALL
void               agent_message_add_tool_call      (AgentMessage     *self,
                                                     AgentToolCall    *tool_call);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_tool_call_id   (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_tool_name      (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_message_is_error           (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_finish_reason  (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentUsage        *agent_message_get_usage          (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_response_id    (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
const char        *agent_message_get_model          (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
GDateTime         *agent_message_get_created        (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
JsonNode          *agent_message_get_provider_data  (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
void               agent_message_set_provider_data  (AgentMessage     *self,
                                                     JsonNode         *provider_data);
AGENT_AVAILABLE_IN_ALL
AgentMetrics      *agent_message_get_metrics        (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentMetrics      *agent_message_get_turn_metrics   (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
GVariant          *agent_message_to_variant         (AgentMessage     *self);
AGENT_AVAILABLE_IN_ALL
AgentMessage      *agent_message_new_from_variant   (GVariant         *variant,
                                                     GError          **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
