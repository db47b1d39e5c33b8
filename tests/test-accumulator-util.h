/* test-accumulator-util.h — building streams and decoding them, for the
 * accumulator tests
 *
 * Every stream is decoded twice, whole and one byte at a time, and both
 * must give the same message, the same listener calls and the same errors.
 * JSON is written with ' for " (and \' for \") to stay readable; see json().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-replay.h"

G_BEGIN_DECLS

char               *json           (const char      *sq);
GString            *body_new       (const char      *first,
                                    ...) G_GNUC_NULL_TERMINATED;
AgentMessage       *run_message    (AgentTestReplay *run);
AgentToolCall      *run_call       (AgentTestReplay *run,
                                    guint            position);
AgentTestToolDelta *run_tool_delta (AgentTestReplay *run,
                                    guint            i);
AgentUsage         *run_usage      (AgentTestReplay *run);
const char         *or_empty       (const char      *s);
const char         *message_of     (const GError    *error);
void                describe_message (GString     *out,
                                      AgentMessage *message);
char               *summarize      (AgentTestReplay *run);
AgentTestReplay    *decode_len     (const char      *body,
                                    gsize            len,
                                    gsize            piece);
AgentTestReplay    *decode         (GString         *body);
char               *tool_chunk     (int              index,
                                    const char      *id,
                                    const char      *name,
                                    const char      *arguments);

#define FINISH(reason) "{'id':'r1','choices':[{'index':0,'delta':{},'finish_reason':'" reason "'}]}"
#define TEXT(text) "{'id':'r1','choices':[{'index':0,'delta':{'content':'" text "'}}]}"

G_END_DECLS
