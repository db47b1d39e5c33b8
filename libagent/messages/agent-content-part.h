/* agent-content-part.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentContentPartKind:
 * @AGENT_CONTENT_PART_KIND_TEXT: a piece of text
 * @AGENT_CONTENT_PART_KIND_IMAGE: an image (PNG, JPEG, …)
 * @AGENT_CONTENT_PART_KIND_FILE: a document (PDF, plain text, …)
 * @AGENT_CONTENT_PART_KIND_AUDIO: a recording (WAV, MP3, FLAC, OGG, WebM, …)
 *
 * What an [class@Agent.ContentPart] holds.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_CONTENT_PART_KIND_TEXT,
  AGENT_CONTENT_PART_KIND_IMAGE,
  AGENT_CONTENT_PART_KIND_FILE,
  AGENT_CONTENT_PART_KIND_AUDIO,
} AgentContentPartKind;

/**
 * AGENT_CONTENT_PART_MAX_IMAGE_PIXELS:
 *
 * The most pixels (width × height, as decoded) of an image that libagent
 * reads to scale it: 8192 × 8192. A larger image is refused from its
 * header, before any of it is decoded; a JPEG is decoded smaller (1/2 to
 * 1/8) when that is all the scaling needs. See
 * [method@Agent.ContentPart.scale_image].
 *
 * Since: 0.1
 */
#define AGENT_CONTENT_PART_MAX_IMAGE_PIXELS (8192 * 8192)

#define AGENT_TYPE_CONTENT_PART (agent_content_part_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentContentPart, agent_content_part, AGENT, CONTENT_PART, GObject)

AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_text      (const char            *text) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_image     (const char            *mime_type,
                                                        GBytes                *data) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_file      (const char            *mime_type,
                                                        GBytes                *data,
                                                        const char            *name) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_audio     (const char            *mime_type,
                                                        GBytes                *data) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_for_uri   (AgentContentPartKind   kind,
                                                        const char            *mime_type,
                                                        const char            *uri) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_from_file (GFile                 *file,
                                                        GCancellable          *cancellable,
                                                        GError               **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                  agent_content_part_new_from_file_async (GFile               *file,
                                                              guint64              max_size,
                                                              GCancellable        *cancellable,
                                                              GAsyncReadyCallback  callback,
                                                              gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_new_from_file_finish (GAsyncResult       *result,
                                                               GError            **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPartKind  agent_content_part_get_kind      (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_content_part_get_text      (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_content_part_get_mime_type (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
GBytes               *agent_content_part_get_data      (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_content_part_get_uri       (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_content_part_get_name      (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
gsize                 agent_content_part_get_size      (AgentContentPart      *self);
AGENT_AVAILABLE_IN_ALL
char                 *agent_content_part_dup_checksum  (AgentContentPart      *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentContentPart     *agent_content_part_scale_image   (AgentContentPart      *self,
                                                        guint                  max_pixels,
                                                        GError               **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
