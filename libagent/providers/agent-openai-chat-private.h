/* agent-openai-chat-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "wire/agent-accumulator-private.h"
#include "json/agent-json-private.h"
#include "transport/agent-provider-private.h"
#include "providers/agent-provider-parts-private.h"
#include "tools/agent-tool.h"

G_BEGIN_DECLS

typedef struct _AgentOpenaiChatDecoder AgentOpenaiChatDecoder;

/* For the corpus tests: a stream with n > 1 choices keeps each. */
AgentAccumulator *_agent_openai_chat_decoder_get_choice   (AgentOpenaiChatDecoder *self,
                                                           guint                   index);
guint             _agent_openai_chat_decoder_get_n_choices (AgentOpenaiChatDecoder *self);
/* For the tests that compare the two: whether the usual chunk is read
 * with a scan (the default) or every event with the DOM reader */
void              _agent_openai_chat_decoder_set_scan      (AgentOpenaiChatDecoder *self,
                                                            gboolean                scan);
guint             _agent_openai_chat_decoder_get_n_scanned (AgentOpenaiChatDecoder *self,
                                                            guint                  *n_templated);

/* Shared with the Responses API, which lists models the same way */
char            **_agent_openai_parse_models (const AgentJson *root);

/* Shared with Ollama, whose /api/chat takes the same "messages" (the system
 * prompt first) and "tools" arrays: @root gets them, each item written by
 * the API's own writers; the attachments of tool results that @accepts
 * takes follow them in a user message. */
void              _agent_openai_add_messages (cJSON              *root,
                                              const AgentRequest *request,
                                              cJSON            *(*write_message) (AgentMessage *),
                                              cJSON            *(*write_tool) (AgentTool *),
                                              AgentAcceptsPart    accepts);

G_END_DECLS
