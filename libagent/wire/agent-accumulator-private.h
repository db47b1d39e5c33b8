/* agent-accumulator-private.h
 *
 * Normalized deltas in, the step's AgentMessage out.
 *
 * Every provider's decoder turns its own events into the same few calls:
 * text, reasoning and refusal appended; tool-call fragments keyed by the
 * provider's key for the call (an index, a content-block number, …), with
 * id, name and type taken once and arguments appended; usage; finish
 * reason. The accumulator applies the rules real servers need (ids and
 * names repeated on every fragment are not concatenated, calls are kept in
 * order of first appearance, …) and reports each change to a listener as
 * it happens. It does no I/O and emits no GObject signals.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-message.h"
#include "messages/agent-tool-call.h"
#include "messages/agent-usage.h"

G_BEGIN_DECLS

typedef struct _AgentAccumulator AgentAccumulator;

/* Bounds on what one answer may hold: beyond them the accumulator stops
 * taking input and agent_accumulator_take_error() says why. */
#define AGENT_ACCUMULATOR_MAX_TOOL_CALLS     256
#define AGENT_ACCUMULATOR_MAX_ARGUMENTS_SIZE (8 * 1024 * 1024)

typedef struct
{
  /* @text is NUL-terminated at @len. */
  void (*text_delta)      (gpointer       user_data,
                           const char    *text,
                           gsize          len);
  void (*reasoning_delta) (gpointer       user_data,
                           const char    *text,
                           gsize          len);
  void (*refusal_delta)   (gpointer       user_data,
                           const char    *text,
                           gsize          len);
  /* A call appeared or changed: @fragment is what was appended to its
   * arguments (possibly empty, when only the id or name arrived). */
  void (*tool_call_delta) (gpointer       user_data,
                           AgentToolCall *call,
                           const char    *fragment,
                           gsize          len);
} AgentAccumulatorListener;

AgentAccumulator *agent_accumulator_new               (const AgentAccumulatorListener *listener,
                                                       gpointer                        user_data);
void              agent_accumulator_free              (AgentAccumulator *self);
AgentMessage     *agent_accumulator_get_message       (AgentAccumulator *self);
void              agent_accumulator_append_text       (AgentAccumulator *self,
                                                       const char       *text,
                                                       gsize             len);
void              agent_accumulator_break_text        (AgentAccumulator *self);
void              agent_accumulator_append_reasoning  (AgentAccumulator *self,
                                                       const char       *text,
                                                       gsize             len);
void              agent_accumulator_append_refusal    (AgentAccumulator *self,
                                                       const char       *text,
                                                       gsize             len);
AgentToolCall    *agent_accumulator_lookup_tool_call  (AgentAccumulator *self,
                                                       gint64            key);
AgentToolCall    *agent_accumulator_tool_call_delta   (AgentAccumulator *self,
                                                       gint64            key,
                                                       const char       *id,
                                                       const char       *name,
                                                       const char       *type,
                                                       const char       *fragment,
                                                       gsize             len);
void              agent_accumulator_set_finish_reason (AgentAccumulator *self,
                                                       const char       *finish_reason);
void              agent_accumulator_set_usage         (AgentAccumulator *self,
                                                       AgentUsage       *usage);
void              agent_accumulator_set_response_id   (AgentAccumulator *self,
                                                       const char       *response_id);
void              agent_accumulator_set_model         (AgentAccumulator *self,
                                                       const char       *model);
gboolean          agent_accumulator_has_finish_reason (AgentAccumulator *self);
void              agent_accumulator_finish            (AgentAccumulator *self);
GError           *agent_accumulator_take_error        (AgentAccumulator *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentAccumulator, agent_accumulator_free)

G_END_DECLS
