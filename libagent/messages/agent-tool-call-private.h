/* agent-tool-call-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-tool-call.h"

G_BEGIN_DECLS

struct _AgentToolCall
{
  GObject             parent_instance;
  char               *id;
  char               *name;
  char               *type;
  GString            *arguments;
  char               *result;
  char               *progress_text;
  JsonNode           *provider_data;
  double              progress;
  gint64              started;     /* monotonic µs when the tool started running */
  gint64              duration;    /* µs the tool ran, -1 until it finished */
  guint               index;
  AgentToolCallState  state : 4;
  guint               is_error : 1;
};

AgentToolCall *_agent_tool_call_new_streaming   (guint               index);
void           _agent_tool_call_set_id          (AgentToolCall      *self,
                                                 const char         *id);
void           _agent_tool_call_set_name        (AgentToolCall      *self,
                                                 const char         *name);
void           _agent_tool_call_set_type        (AgentToolCall      *self,
                                                 const char         *type);
void           _agent_tool_call_set_index       (AgentToolCall      *self,
                                                 guint               index);
const char    *_agent_tool_call_get_type_name   (AgentToolCall      *self);
void           _agent_tool_call_set_state       (AgentToolCall      *self,
                                                 AgentToolCallState  state);
void           _agent_tool_call_set_result      (AgentToolCall      *self,
                                                 const char         *result,
                                                 gboolean            is_error);
void           _agent_tool_call_notify_arguments (AgentToolCall     *self);
void           _agent_tool_call_set_progress    (AgentToolCall      *self,
                                                 double              fraction,
                                                 const char         *text);

/* The hot path appends to self->arguments directly and notifies once per
 * delta through _agent_tool_call_notify_arguments(). */
static inline void
_agent_tool_call_append_arguments (AgentToolCall *self,
                                   const char    *fragment,
                                   gsize          len)
{
  g_string_append_len (self->arguments, fragment, len);
}

G_END_DECLS
