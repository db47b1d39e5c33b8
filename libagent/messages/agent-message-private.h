/* agent-message-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-string-private.h"
#include "messages/agent-content-part.h"
#include "messages/agent-message.h"

G_BEGIN_DECLS

struct _AgentMessage
{
  GObject            parent_instance;
  GString           *content;       /* NULL until any content arrived */
  GArray            *content_breaks; /* of gsize: see agent-message-breaks.c */
  GArray            *attachments;   /* of AgentAttachment: see agent-message-parts.c */
  GString           *reasoning;
  GString           *refusal;
  GListStore        *tool_calls;
  char              *tool_call_id;
  char              *tool_name;
  char              *finish_reason;
  char              *response_id;
  char              *model;
  AgentUsage        *usage;
  JsonNode          *provider_data;
  AgentMetrics      *metrics;
  AgentMetrics      *turn_metrics;
  GDateTime         *created;
  guint              summary_start;  /* a summary: the messages it replaces */
  guint              summary_end;
  AgentMessageRole   role : 3;
  AgentMessageState  state : 3;
  guint              is_error : 1;
  guint              is_summary : 1;
};

AgentMessage *_agent_message_new_streaming     (void);
void          _agent_message_set_state         (AgentMessage      *self,
                                                AgentMessageState  state);
void          _agent_message_set_finish_reason (AgentMessage      *self,
                                                const char        *finish_reason);
void          _agent_message_set_usage         (AgentMessage      *self,
                                                AgentUsage        *usage);
void          _agent_message_set_response_id   (AgentMessage      *self,
                                                const char        *response_id);
void          _agent_message_set_model         (AgentMessage      *self,
                                                const char        *model);
void          _agent_message_clear_tool_calls  (AgentMessage      *self);
void          _agent_message_set_metrics       (AgentMessage      *self,
                                                AgentMetrics      *metrics);
void          _agent_message_set_turn_metrics  (AgentMessage      *self,
                                                AgentMetrics      *metrics);
void          _agent_message_add_content_break (AgentMessage      *self);
guint64       _agent_message_get_attachments_size (AgentMessage   *self);
void          _agent_message_clear_attachments (AgentMessage      *self);
gsize         _agent_message_get_attachment_offset (AgentMessage  *self,
                                                    guint          position);
void          _agent_message_add_attachment_at (AgentMessage      *self,
                                                gsize              offset,
                                                AgentContentPart  *part);
void          _agent_message_notify_content    (AgentMessage      *self);
void          _agent_message_notify_reasoning  (AgentMessage      *self);
void          _agent_message_notify_refusal    (AgentMessage      *self);
void          _agent_message_set_summary       (AgentMessage      *self,
                                                guint              start,
                                                guint              end);

/* Hot path: the accumulator appends without notifying; the session
 * notifies once per delta. A zero-length append still makes the field
 * non-NULL (a server that sent "" did send content). */
static inline void
_agent_message_append (GString    **field,
                       const char  *text,
                       gsize        len)
{
  if (*field == NULL)
    *field = g_string_sized_new (MAX (len, 64));
  _agent_string_append_len (*field, text, len);
}

G_END_DECLS
