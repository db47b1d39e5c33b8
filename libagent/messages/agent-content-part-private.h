/* agent-content-part-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "messages/agent-content-part.h"

G_BEGIN_DECLS

/* What a provider's API makes of images and documents
 * (providers/agent-provider-images.c): the largest image it documents as
 * useful (0: no such bound), and what it bills */
typedef struct
{
  int      max_side;     /* pixels on the longer side */
  int      max_short;    /* pixels on the shorter side */
  guint64  max_area;     /* pixels */
  /* The tokens an image of @width × @height is billed, or of one the
   * size of which is not known (width and height 0) */
  gint64 (*image_tokens) (int width,
                          int height);
  gint64   page_tokens;  /* a page of a PDF */
} AgentImageRule;

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
/* "[Image: shot.png, image/png, 2.3 kB]": the part where only text goes */
char             *_agent_content_part_dup_description (AgentContentPart     *self);
/* A document of a text/ type in valid UTF-8: sent as text where the API
 * takes no such document */
gboolean          _agent_content_part_is_text_file    (AgentContentPart     *self);
/* Its text, in a <file name="…" type="…"> wrapper (the name and type
 * escaped as XML attributes) */
char             *_agent_content_part_dup_file_text   (AgentContentPart     *self);
/* AGENT_ERROR_INVALID_ARGUMENT naming the provider and the MIME type
 * (AGENT_ERROR_UNSUPPORTED for a recording) */
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
/* The pages of a PDF (counted once; an estimate's count) */
int               _agent_content_part_get_pdf_pages   (AgentContentPart     *self);
/* The base64 of the part's bytes, made once: kept as long as the part */
const char       *_agent_content_part_get_base64      (AgentContentPart     *self);
/* The name a variant made by @rule is kept under */
char             *_agent_image_rule_key               (const AgentImageRule *rule);
/* Makes what a request sends of @self (@rule: images scaled by it; NULL:
 * as they are), in base64, so that building the request costs no work:
 * on any thread */
void              _agent_content_part_prepare         (AgentContentPart     *self,
                                                       const AgentImageRule *rule);
gboolean          _agent_content_part_is_prepared     (AgentContentPart     *self,
                                                       const AgentImageRule *rule);
/* The base64 of what is sent of @self (made now if it was not prepared),
 * its MIME type and its size (0 × 0 if not an image read); kept as long as
 * the part */
const char       *_agent_content_part_get_sent        (AgentContentPart     *self,
                                                       const AgentImageRule *rule,
                                                       const char          **mime_type,
                                                       int                  *width,
                                                       int                  *height);
/* The size of the image sent, as far as it is known without decoding it */
gboolean          _agent_content_part_get_sent_size   (AgentContentPart     *self,
                                                       const AgentImageRule *rule,
                                                       int                  *width,
                                                       int                  *height);
/* A variant a store kept */
void              _agent_content_part_add_variant     (AgentContentPart     *self,
                                                       const char           *rule,
                                                       const char           *mime_type,
                                                       int                   width,
                                                       int                   height,
                                                       const char           *base64);
typedef void (*AgentVariantFunc) (const char *rule,
                                  const char *mime_type,
                                  int         width,
                                  int         height,
                                  const char *base64,
                                  gpointer    user_data);
/* Calls @func for each scaled variant not yet kept by a store, and marks
 * it kept */
void              _agent_content_part_foreach_unsaved (AgentContentPart     *self,
                                                       AgentVariantFunc      func,
                                                       gpointer              user_data);
/* agent-content-part-tokens.c: the tokens @images (a provider's rule)
 * bills for @part, sent with images scaled by @scaled (NULL: as they are) */
gint64            _agent_content_part_get_tokens      (AgentContentPart     *part,
                                                       const AgentImageRule *images,
                                                       const AgentImageRule *scaled);
/* agent-content-part-audio.c */
/* An audio/ type, or one a recording goes by (application/ogg) */
gboolean          _agent_mime_is_audio                (const char           *mime_type);
/* The name Gemini documents for a recording's type (audio/x-wav is
 * audio/wav, audio/mpeg audio/mp3, …); @mime_type if it has no other */
const char       *_agent_audio_get_canonical_type     (const char           *mime_type);
/* "wav" or "mp3", the formats of OpenAI's input_audio, for an audio part
 * with its bytes; NULL for others */
const char       *_agent_audio_get_openai_format      (AgentContentPart     *part);
/* The tokens a recording is billed: 32 a second, as Gemini documents it
 * (a WAV's length from its header; others at 128 kbit/s) */
gint64            _agent_content_part_get_audio_tokens (AgentContentPart    *part);
/* Images scaled for a rule in this process (benchmarks, tests) */
guint             _agent_content_part_get_n_scaled    (void);

G_END_DECLS
