/* agent-content-part-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-content-part.h"

G_BEGIN_DECLS

/* Any part, as the store reads it back */
AgentContentPart *_agent_content_part_new             (AgentContentPartKind  kind,
                                                       const char           *mime_type,
                                                       GBytes               *data,
                                                       const char           *uri,
                                                       const char           *name);
/* @file read into a part: a regular file only, at most the size it had
 * when opened, not at all when that is more than @max_size (0: no limit);
 * see agent-content-part-load.c */
AgentContentPart *_agent_content_part_load_file       (GFile                *file,
                                                       guint64               max_size,
                                                       GCancellable         *cancellable,
                                                       GError              **error);
/* The MIME type GIO guesses from @name and the first bytes of @data */
char             *_agent_content_part_guess_mime_type (const char           *name,
                                                       GBytes               *data);
/* "data:MIME;base64,…" of a part with data */
char             *_agent_content_part_dup_data_url    (AgentContentPart     *self);
/* The data in base64 */
char             *_agent_content_part_dup_base64      (AgentContentPart     *self);
/* "[Image: shot.png, image/png, 2.3 kB]": the part where only text goes */
char             *_agent_content_part_dup_description (AgentContentPart     *self);
/* A document of a text/ type in valid UTF-8: sent as text where the API
 * takes no such document */
gboolean          _agent_content_part_is_text_file    (AgentContentPart     *self);
/* Its text, in a <file name="…" type="…"> wrapper (the name and type
 * escaped as XML attributes) */
char             *_agent_content_part_dup_file_text   (AgentContentPart     *self);
/* AGENT_ERROR_INVALID_ARGUMENT naming the provider and the MIME type */
GError           *_agent_content_part_unsupported     (AgentContentPart     *self,
                                                       const char           *provider);

G_END_DECLS
