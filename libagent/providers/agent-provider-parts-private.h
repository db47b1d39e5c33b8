/* agent-provider-parts-private.h — images and documents in requests
 *
 * Each provider writes the parts of a message as its API defines them;
 * what they share is here: the check that every attachment of a request
 * is one the API takes, made before anything is written or sent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-provider-private.h"
#include "messages/agent-content-part-private.h"

G_BEGIN_DECLS

/* Whether the provider's API takes @part (in a message of @role) */
typedef gboolean (*AgentAcceptsPart) (AgentContentPart *part,
                                      AgentMessageRole  role);

/* FALSE with AGENT_ERROR_INVALID_ARGUMENT naming @provider and the MIME
 * type of the first attachment of @request that @accepts refuses; those of
 * tool results are not checked (the provider describes in text those it
 * cannot send). */
gboolean  _agent_request_check_parts     (const AgentRequest *request,
                                          const char         *provider,
                                          AgentAcceptsPart    accepts,
                                          GError            **error);
/* PNG, JPEG, GIF or WebP: the images every vision API takes */
gboolean  _agent_mime_is_common_image    (const char         *mime_type);
/* An http: or https: URL, which a provider fetches itself */
gboolean  _agent_part_has_http_uri       (AgentContentPart   *part);
/* The text that stands for the images a tool result carries where the
 * API takes none in a tool result, e.g. "[Image: image/png, 2.3 kB]" */
char     *_agent_message_describe_attachments (AgentMessage  *message);
/* For APIs that take images in user messages only: the user message that
 * follows a run of tool results, carrying the attachments @accepts takes,
 * or NULL if none of @tool_results has any. */
AgentMessage *_agent_tool_images_message (GPtrArray          *tool_results,
                                          AgentAcceptsPart    accepts);

/* agent-provider-images.c: what each API makes of images and documents */
extern const AgentImageRule _agent_openai_images;
extern const AgentImageRule _agent_anthropic_images;
extern const AgentImageRule _agent_gemini_images;
extern const AgentImageRule _agent_ollama_images;

/* The base64 of what is sent of @part (made once, kept with the part), and
 * its MIME type; or as a data: URL. Images are scaled as the request
 * whose body is being built asks (AgentRequest.scale_images). */
const char *_agent_part_get_sent_base64      (AgentContentPart   *part,
                                              const char        **mime_type);
char       *_agent_part_dup_sent_data_url    (AgentContentPart   *part);

G_END_DECLS
