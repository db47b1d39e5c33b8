/* agent-ndjson-private.h
 *
 * A newline-delimited JSON splitter: bytes in, one callback per non-empty
 * line out. Lines end in LF (a CR before it is dropped). The last line may
 * lack its newline; agent_ndjson_splitter_finish() delivers it.
 *
 * Pure: no I/O, no GObject, no main loop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define AGENT_NDJSON_DEFAULT_MAX_LINE (16 * 1024 * 1024)

typedef struct _AgentNdjsonSplitter AgentNdjsonSplitter;

/* @line is NUL-terminated (and may contain NUL bytes: use @len).
 * Return FALSE and set @error to stop. */
typedef gboolean (*AgentNdjsonLineFunc) (const char  *line,
                                         gsize        len,
                                         gpointer     user_data,
                                         GError     **error);

AgentNdjsonSplitter *agent_ndjson_splitter_new          (AgentNdjsonLineFunc  func,
                                                         gpointer             user_data);
void                 agent_ndjson_splitter_free         (AgentNdjsonSplitter *self);
void                 agent_ndjson_splitter_set_max_line (AgentNdjsonSplitter *self,
                                                         gsize                max_line);
gboolean             agent_ndjson_splitter_feed         (AgentNdjsonSplitter *self,
                                                         const char          *data,
                                                         gsize                len,
                                                         GError             **error);
gboolean             agent_ndjson_splitter_finish       (AgentNdjsonSplitter *self,
                                                         GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentNdjsonSplitter, agent_ndjson_splitter_free)

G_END_DECLS
