/* agent-content-part-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-content-part.h"

G_BEGIN_DECLS

/* What is worked out of a part once, and kept with it
 * (agent-content-part-cache.c) */
typedef struct _AgentPartCache AgentPartCache;

void              _agent_part_cache_free              (AgentPartCache       *cache);
/* Where the part keeps it (NULL until made), under the cache's lock */
AgentPartCache  **_agent_content_part_cache_slot      (AgentContentPart     *self);

/* Any part, as the store reads it back */
AgentContentPart *_agent_content_part_new             (AgentContentPartKind  kind,
                                                       const char           *mime_type,
                                                       GBytes               *data,
                                                       const char           *uri,
                                                       const char           *name);
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
/* Its text, in a <file name="…" type="…"> wrapper */
char             *_agent_content_part_dup_file_text   (AgentContentPart     *self);
/* AGENT_ERROR_INVALID_ARGUMENT naming the provider and the MIME type */
GError           *_agent_content_part_unsupported     (AgentContentPart     *self,
                                                       const char           *provider);

/* agent-content-part-scale.c */
/* The size of @width × @height within the bounds given (0: none), kept
 * in proportion, never larger */
void              _agent_image_fit                    (int                   width,
                                                       int                   height,
                                                       int                   max_side,
                                                       int                   max_short,
                                                       guint64               max_area,
                                                       int                  *fit_width,
                                                       int                  *fit_height);
/* The size an image's header gives, without decoding it (FALSE: not an
 * image gdk-pixbuf reads, or libagent built without it) */
gboolean          _agent_image_read_size              (GBytes               *data,
                                                       int                  *width,
                                                       int                  *height);
/* @self scaled to fit those bounds: @self itself if it does; a decode
 * bounded by AGENT_CONTENT_PART_MAX_IMAGE_PIXELS */
AgentContentPart *_agent_content_part_scale_to_fit    (AgentContentPart     *self,
                                                       int                   max_side,
                                                       int                   max_short,
                                                       guint64               max_area,
                                                       GError              **error);

/* agent-content-part-cache.c */
/* The size of an image part, read from its header once; FALSE when it
 * cannot be read */
gboolean          _agent_content_part_get_image_size  (AgentContentPart     *self,
                                                       int                  *width,
                                                       int                  *height);

G_END_DECLS
