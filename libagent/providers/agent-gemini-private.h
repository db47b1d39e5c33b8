/* agent-gemini-private.h — what agent-gemini.c shares with its helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a part's functionCall.args object is in its event's text */
typedef struct
{
  gsize offset;
  gsize length;   /* 0: the part has none */
} AgentGeminiArgs;

/* (agent-gemini-args.c) For each part of an event's first candidate, in
 * order, where its functionCall's args object is: an array of
 * AgentGeminiArgs, or NULL when the event cannot be scanned (then the
 * arguments are printed from the DOM reader's tree). */
GArray *_agent_gemini_scan_args (const char *text,
                                 gsize       len);
/* The args of part @part of the event @text, where @spans (of
 * _agent_gemini_scan_args(), or NULL) says, without white space between
 * its tokens; NULL when it has none there */
char    *_agent_gemini_args_text (const char *text,
                                  GArray     *spans,
                                  guint       part);

G_END_DECLS
