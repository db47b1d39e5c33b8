/* agent-openai-chat-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-accumulator.h"
#include "agent-json.h"

G_BEGIN_DECLS

typedef struct _AgentOpenaiChatDecoder AgentOpenaiChatDecoder;

/* For the corpus tests: a stream with n > 1 choices keeps each. */
AgentAccumulator *_agent_openai_chat_decoder_get_choice   (AgentOpenaiChatDecoder *self,
                                                           guint                   index);
guint             _agent_openai_chat_decoder_get_n_choices (AgentOpenaiChatDecoder *self);

/* Shared with the Responses API, which lists models the same way */
char            **_agent_openai_parse_models (const AgentJson *root);

G_END_DECLS
