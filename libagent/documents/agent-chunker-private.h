/* agent-chunker-private.h
 *
 * Cuts a text (Markdown, plain text, source) into chunks of at most a
 * target length in bytes, for embedding one by one. A chunk ends where the
 * text breaks best within its last half: before a Markdown heading, else
 * at a blank line (a paragraph), else at a line break, else after a space,
 * else at a character boundary. The next chunk starts up to @overlap
 * bytes before the end of the last one, at a word's start, so that a
 * sentence cut in two is whole in one of them. Chunks that are only
 * white space are left out. No I/O; the text is UTF-8.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gsize start;   /* byte offsets into the text: [start, end) */
  gsize end;
} AgentChunk;

/* The chunks of @text, in order: a GArray of AgentChunk. @target is at
 * least 16 bytes; @overlap below half of @target. */
GArray *_agent_chunk_text (const char *text,
                           gsize       len,
                           gsize       target,
                           gsize       overlap);

G_END_DECLS
