/* agent-gtk-markdown-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum { BLOCK_TEXT, BLOCK_CODE, BLOCK_RULE, BLOCK_TABLE } BlockKind;

typedef struct
{
  BlockKind  kind;
  char      *text;      /* Pango markup for BLOCK_TEXT, raw code for BLOCK_CODE */
  char      *plain;     /* BLOCK_TEXT: the same without markup, should the markup be refused */
  char      *language;  /* BLOCK_CODE */
  guint      quote;     /* BLOCK_TEXT: how deep in block quotes */
  /* BLOCK_TABLE: the cells row by row, as markup and plain text; the
   * columns' alignment (0 left, 1 center, 2 right); the header's rows */
  GPtrArray *cells;
  GPtrArray *plain_cells;
  GArray    *aligns;
  guint      n_columns;
  guint      n_header_rows;
} Block;

GPtrArray *_agent_gtk_markdown_parse_blocks (const char *text,
                                             gsize       len);
GArray    *_agent_gtk_markdown_split_chunks (const char *text,
                                             gboolean   *ends_in_fence);
char      *_agent_gtk_latex_to_text         (const char *latex);
gboolean   _agent_gtk_markdown_markup_is_valid (const char *markup);

G_END_DECLS
