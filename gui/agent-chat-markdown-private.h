/* agent-chat-markdown-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum { BLOCK_TEXT, BLOCK_CODE, BLOCK_RULE } BlockKind;

typedef struct
{
  BlockKind  kind;
  char      *text;      /* Pango markup for BLOCK_TEXT, raw code for BLOCK_CODE */
  char      *plain;     /* BLOCK_TEXT: the same without markup, should the markup be refused */
  char      *language;  /* BLOCK_CODE */
} Block;

GPtrArray *agent_chat_markdown_parse_blocks (const char *text,
                                             gsize       len);
GArray    *agent_chat_markdown_split_chunks (const char *text);

G_END_DECLS
