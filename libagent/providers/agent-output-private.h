/* agent-output-private.h
 *
 * Structured output, as each API asks for it (agent-provider-output.c):
 * the request's output_schema (see AgentRequest) written into a body
 * being built.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-provider-private.h"

G_BEGIN_DECLS

void     _agent_output_add_openai_chat      (cJSON               *root,
                                             const AgentRequest  *request);
void     _agent_output_add_openai_responses (cJSON               *root,
                                             const AgentRequest  *request);
void     _agent_output_add_ollama           (cJSON               *root,
                                             const AgentRequest  *request);
void     _agent_output_add_anthropic        (cJSON               *root,
                                             const AgentRequest  *request,
                                             gboolean             thinking);
gboolean _agent_output_add_gemini           (cJSON               *config,
                                             const AgentRequest  *request,
                                             GError             **error);
cJSON   *_agent_output_gemini_schema        (JsonNode            *schema,
                                             GError             **error);

G_END_DECLS
