/* agent-demo-model.h
 *
 * The demo's deterministic "model": what it answers to a request.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-demo-request.h"

G_BEGIN_DECLS

/* The model's state: completion and tool call ids count up for the life of the process. */
typedef struct
{
  guint next_completion;
  guint next_call;
} DemoModel;

/* A call of the `calculator` or the `read_file` tool. */
typedef struct
{
  char *id;
  char *name;
  char *arguments;
} DemoToolCall;

/* An answer: either @text or @calls (element-type DemoToolCall). */
typedef struct
{
  char      *id;
  char      *model;
  gint64     created;
  gboolean   include_usage;
  char      *text;
  GPtrArray *calls;
  guint      prompt_tokens;
  guint      completion_tokens;
} DemoReply;

void demo_model_answer (DemoModel         *self,
                        const DemoRequest *request,
                        DemoReply         *reply);
void demo_reply_clear  (DemoReply         *reply);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DemoReply, demo_reply_clear)

G_END_DECLS
